"""What `ruleproof check` runs, as data: load, build the graph, run every engine asked for.

Engines (``ENGINES``, in report order): ``structure`` (the phase graph's checks; always),
``rulings`` (every shipped ruling on this rulebook, interpreter), ``hypothesis`` (the property
catalogue on generated worlds), ``exhaustive`` (every play of the bounded worlds), ``z3`` (the
properties proved for every play) and ``consistency`` (the clauses' ordering claims, unsat cores).
Each engine returns :class:`~ruleproof.reports.finding.CheckResult` records; with ``jobs`` > 1 the
engines run in that many worker processes (forked: each builds its own Z3 context), and the same
results come back as from one process.

>>> report = run_check()
>>> report.rulebook.spec.id, report.ok
('berserk-rp-4.1-2', True)
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import networkx as nx

from ruleproof.model.graph import build_graph
from ruleproof.model.rulebook import Rulebook, load_rulebook
from ruleproof.model.structure import run_structure_checks
from ruleproof.reports.finding import CheckResult

__all__ = ["CheckReport", "EngineRun", "run_check", "run_rulings", "ENGINES", "DEFAULT_ENGINES"]

ENGINES = ("structure", "rulings", "hypothesis", "exhaustive", "z3", "consistency", "conformance")
DEFAULT_ENGINES = ENGINES


@dataclass
class EngineRun:
    """One engine's results, its figures, and its counterexamples as event lists (property -> events)."""

    group: str
    results: list[CheckResult]
    seconds: float
    stats: dict = field(default_factory=dict)
    counterexamples: dict[str, list] = field(default_factory=dict)
    outcome: object | None = None  # the engine's own outcome object (kept in one process only)


@dataclass
class CheckReport:
    rulebook: Rulebook
    graph: nx.DiGraph
    structure: list[CheckResult]
    properties: list[CheckResult] = field(default_factory=list)  # the Hypothesis pass
    hypothesis: object | None = None  # generators.run.HypothesisOutcome (one process) or None
    rulings: list[CheckResult] = field(default_factory=list)
    exhaustive: list[CheckResult] = field(default_factory=list)
    z3: list[CheckResult] = field(default_factory=list)
    consistency: list[CheckResult] = field(default_factory=list)
    conformance: list[CheckResult] = field(default_factory=list)
    runs: dict[str, EngineRun] = field(default_factory=dict)

    @property
    def results(self) -> list[CheckResult]:
        return [*self.structure, *self.rulings, *self.properties, *self.exhaustive, *self.z3, *self.consistency,
                *self.conformance]

    @property
    def ok(self) -> bool:
        return all(r.holds for r in self.results)

    def counts(self) -> dict[str, int]:
        ops = [op for n in self.graph for op in self.graph.nodes[n]["operations"]]
        return {"steps": self.graph.number_of_nodes(), "edges": self.graph.number_of_edges(),
                "operations": sum(op["op"] != "window" for op in ops),
                "windows": sum(op["op"] == "window" for op in ops),
                "assumptions": len(self.rulebook.spec.assumptions)}

    def counterexample(self) -> tuple[str, str, list] | None:
        """(engine, property, events) of the first counterexample: exhaustive (shortest), Z3, then
        Hypothesis, each in catalogue order."""
        for group in ("exhaustive", "z3", "hypothesis"):
            run = self.runs.get(group)
            if run and run.counterexamples:
                pid = next(iter(run.counterexamples))
                return group, pid, run.counterexamples[pid]
        return None


# --- the engines: (rulebook, options) -> EngineRun --------------------------------------------------------

def run_rulings(rb: Rulebook, opts: dict) -> EngineRun:
    """Every shipped ruling on ``rb``: a ruling whose outcome differs is a finding (kind ``ruling``).
    Where the rulebook has alternative readings, each ruling is also run under each of them, and its
    result names the readings that change its outcome (``depends_on``; option ``readings`` false: not)."""
    from ruleproof.model.scenario import run_scenario, shipped_scenarios
    from ruleproof.reports.finding import Finding
    from ruleproof.reports.trace import trace_to_json

    started = time.perf_counter()
    results = []
    scenarios = []
    arg = f" --rulebook {opts['rulebook_arg']}" if opts.get("rulebook_arg") else ""
    for path, sc in shipped_scenarios(rb.index):
        one = time.perf_counter()
        scenarios.append(sc)
        res = run_scenario(sc, rb)
        findings = ()
        if not res.passed:
            rel = f"rulings/{path.name}"
            findings = (Finding(kind="ruling", check=sc.spec.id, verdict="violated", engine="interpreter",
                                clauses=tuple(sc.spec.clauses),
                                message={lang: "; ".join(f.text(lang) for f in res.failures) for lang in ("ru", "en")},
                                element=sc.spec.id, where=rel, assumptions=tuple(sc.spec.assumptions),
                                replay=f"ruleproof run {rel}{sc.case_option}{arg}", scenario=rel,
                                trace=tuple(trace_to_json(res.trace)), highlight=res.departures),)
        results.append(CheckResult(sc.spec.id, tuple(sc.spec.clauses), sc.spec.title.model_dump(), "interpreter",
                                   findings, seconds=time.perf_counter() - one))
    stats = {"rulings": len(results)}
    if rb.spec.readings and opts.get("readings", True):
        from ruleproof.readings import reading_labels, ruling_dependencies

        label = reading_labels(rb)
        deps = ruling_dependencies(rb, scenarios, {r.check: r.holds for r in results})
        results = [dataclasses.replace(r, depends_on=tuple(label[x] for x in deps[r.check])) for r in results]
        stats["readings"] = len(label)
    return EngineRun("rulings", results, time.perf_counter() - started, stats)


def _hypothesis(rb: Rulebook, opts: dict) -> EngineRun:
    from ruleproof.generators.run import hypothesis_pass

    out = hypothesis_pass(rb, examples=opts["examples"], seed=opts.get("seed"), rulebook_arg=opts.get("rulebook_arg"),
                          progress=opts.get("progress"), **({"shrinks": opts["shrinks"]} if "shrinks" in opts else {}))
    cx = {pid: list(exc.events) for pid, exc in out.violations.items()}
    return EngineRun("hypothesis", out.results, out.seconds, {"examples": out.examples, "seed": out.seed}, cx, out)


def _exhaustive(rb: Rulebook, opts: dict) -> EngineRun:
    from ruleproof.generators.bounded import bounded_worlds
    from ruleproof.model.explore import Bounds, explore, explore_results

    bounds = opts.get("bounds") or Bounds()
    out = explore(rb, bounded_worlds(bounds.x_max, bounds.loadouts, rb), bounds)
    replay = "ruleproof explore" + (f" {opts['rulebook_arg']}" if opts.get("rulebook_arg") else "")
    stats = {"states": out.states, "traces": out.traces, "complete": out.complete, "depth": out.depth,
             "worlds": out.worlds}
    cx = {pid: list(c.events) for pid, c in out.violations.items()}
    return EngineRun("exhaustive", explore_results(out, rb, replay), out.seconds, stats, cx)


def _z3(rb: Rulebook, opts: dict) -> EngineRun:
    from ruleproof.properties.prove import prove

    kw = {"timeout_ms": opts["timeout_ms"]} if opts.get("timeout_ms") else {}
    # the conformance engine of the same run judges the agreement (distrust_proofs), not prove again
    out = prove(rb, seed=opts.get("z3_seed", 0), agree=not opts.get("conformance_engine"), **kw)
    cx = {v.pid: list(v.counterexample.trace.events) for v in out.verdicts
          if v.counterexample is not None and v.counterexample.trace is not None}
    return EngineRun("z3", out.results, out.seconds, {"z3_version": out.z3_version, "seed": out.seed}, cx)


def _consistency(rb: Rulebook, opts: dict) -> EngineRun:
    from ruleproof.properties.consistency import consistency

    out = consistency(rb)
    return EngineRun("consistency", out.results, out.seconds,
                     {"status": out.status, "z3_version": out.z3_version, "seed": out.seed})


def _conformance(rb: Rulebook, opts: dict) -> EngineRun:
    from ruleproof.model.conformance import DEFAULT_RUNS, conformance

    out = conformance(rb, runs=opts.get("conformance_runs") or DEFAULT_RUNS, seed=opts.get("seed") or 0,
                      rulebook_arg=opts.get("rulebook_arg"))
    return EngineRun("conformance", out.results, out.seconds, {"seed": out.seed, "runs": out.runs, "steps": out.steps},
                     outcome=out)


_RUNNERS: dict[str, Callable[[Rulebook, dict], EngineRun]] = {
    "rulings": run_rulings, "hypothesis": _hypothesis, "exhaustive": _exhaustive, "z3": _z3,
    "consistency": _consistency, "conformance": _conformance}


def distrust_proofs(z3_results: list[CheckResult], conformance_results: list[CheckResult]) -> list[CheckResult]:
    """Z3's results on a rulebook whose Z3 model disagrees with its interpreter: anything Z3 alone
    concluded there rests on a second meaning that was shown wrong, so a result that holds and a
    vacuity claim (an unreachable premise, never replayed) become inconclusive — never "proved",
    never "vacuous"; a violation stays (its counterexample was replayed on the interpreter)."""
    from ruleproof.reports.finding import Finding

    bad = [f for r in conformance_results for f in r.findings if f.failed]
    if not bad:
        return z3_results
    why = bad[0]
    out = []
    for r in z3_results:
        vacuous = [f for f in r.findings if f.kind == "vacuous"]
        if r.holds or vacuous:
            kept = tuple(dataclasses.replace(f, kind="unknown", verdict="unknown") if f.kind == "vacuous" else f
                         for f in r.findings)
            note = Finding(kind="conformance", check=r.check, verdict="unknown", engine="z3", clauses=r.clauses,
                           message={"ru": f"доказательство не принято: модель Z3 расходится с интерпретатором "
                                          f"({why.text('ru')})",
                                    "en": f"the proof is not trusted: the Z3 model disagrees with the interpreter "
                                          f"({why.text('en')})"}, where=why.where, replay=why.replay)
            r = dataclasses.replace(r, findings=(*kept, note))
        out.append(r)
    return out


def _worker(rb: Rulebook, opts: dict, group: str) -> EngineRun:
    """One engine in a worker process (no progress bar there)."""
    run = _RUNNERS[group](rb, {**opts, "progress": None})
    run.outcome = None  # not sent back between processes: the results and counterexamples are
    return run


def run_check(path: str | Path | None = None, examples: int = 0, seed: int | None = None,
              progress=None, engines: tuple[str, ...] | None = None, jobs: int = 1, bounds=None,
              timeout_ms: int | None = None) -> CheckReport:
    """Structure always; then each engine of ``engines`` (default: the Hypothesis pass when
    ``examples`` > 0 — the behaviour of the first releases).  ``jobs`` > 1: engines in parallel."""
    rb = load_rulebook(path)
    if rb.spec.readings:  # a reading whose patch does not apply is bad input, said before any engine runs
        from ruleproof.model.readings import readings, variant

        for r in readings(rb):
            variant(rb, r.id)
    G = build_graph(rb)
    report = CheckReport(rb, G, run_structure_checks(G, rb.index))
    if engines is None:
        engines = ("hypothesis",) if examples > 0 else ()
    wanted = [e for e in ENGINES if e in engines and e in _RUNNERS and (e != "hypothesis" or examples > 0)]
    opts = {"examples": examples, "seed": seed, "rulebook_arg": str(path) if path else None, "bounds": bounds,
            "timeout_ms": timeout_ms, "progress": progress, "conformance_engine": "conformance" in wanted}
    runs: list[EngineRun] = []
    if jobs > 1 and len(wanted) > 1:
        from ruleproof.forked import fork_map

        # longest first, so that the pool is busy to the end
        order = sorted(wanted, key=lambda e: ("z3", "exhaustive", "hypothesis", "rulings", "conformance",
                                                   "consistency").index(e))
        done = dict(zip(order, fork_map(lambda e: _worker(rb, opts, e), order, jobs)))
        runs = [done[e] for e in wanted]
    else:
        for e in wanted:
            if progress:
                progress(e)
            runs.append(_RUNNERS[e](rb, opts))
    for r in runs:
        report.runs[r.group] = r
        if r.group == "hypothesis":
            report.hypothesis = r.outcome
        setattr(report, "properties" if r.group == "hypothesis" else r.group, r.results)
    if report.conformance and report.z3:
        report.z3 = distrust_proofs(report.z3, report.conformance)
    if rb.spec.readings:
        _finding_dependencies(report)
    return report


def _finding_dependencies(report: CheckReport) -> None:
    """Each property a counterexample breaks: the readings under which the same game no longer breaks
    it — on its result (``depends_on``) and, as the assumptions they replace, on its findings."""
    from ruleproof.model.readings import readings
    from ruleproof.readings import counterexample_dependencies, reading_labels

    label, of = reading_labels(report.rulebook), {r.id: r.of for r in readings(report.rulebook)}
    for group, run in report.runs.items():
        if not run.counterexamples:
            continue
        deps = counterexample_dependencies(report.rulebook, run.counterexamples)
        attr = "properties" if group == "hypothesis" else group
        results = []
        for r in getattr(report, attr):
            if r.check in deps:
                found = deps[r.check]
                also = tuple(dict.fromkeys(of[x] or x for x in found))
                r = dataclasses.replace(r, depends_on=tuple(label[x] for x in found), findings=tuple(
                    dataclasses.replace(f, assumptions=tuple(dict.fromkeys((*f.assumptions, *also))))
                    if f.failed else f for f in r.findings))
            results.append(r)
        setattr(report, attr, results)
