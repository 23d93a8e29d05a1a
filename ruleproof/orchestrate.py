"""What `ruleproof check` runs, as data: load, build the graph, run every engine asked for.

Engines (:data:`ruleproof.engine_registry.ENGINES`, in report order): ``structure`` (the phase graph's checks; always),
``rulings`` (every shipped ruling on this rulebook, and a team's from ``--rulings DIR``, interpreter;
every property on each ruling's game), ``hypothesis`` (the property
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
import hashlib
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Callable

import networkx as nx

from ruleproof.dependencies import counterexample_dependencies, reading_labels, ruling_dependencies
from ruleproof.engine_registry import BY_NAME, ENGINES, longest_first, soonest_answers
from ruleproof.generators.bounded import bounded_worlds, worlds_scope
from ruleproof.generators.run import hypothesis_pass
from ruleproof.ground.errors import Localized, RuleproofError
from ruleproof.ground.forked import fork_map
from ruleproof.model.conformance import DEFAULT_RUNS, conformance
from ruleproof.model.explore import Bounds, explore, explore_results
from ruleproof.model.readings import not_applicable, readings
from ruleproof.model.rulebook import Rulebook, load_rulebook
from ruleproof.model.scenario import (
    Scenario,
    check_assumptions,
    check_windows,
    load_rulings,
    ruling_files,
    run_scenario,
    shipped_scenarios,
)
from ruleproof.model.structure import run_structure_checks
from ruleproof.model.universe import played
from ruleproof.properties import catalogue
from ruleproof.properties.carry import ProofStore
from ruleproof.properties.consistency import consistency
from ruleproof.properties.form_conformance import form_check
from ruleproof.reports.finding import CheckResult, Finding, Verdict
from ruleproof.reports.trace import trace_to_json
from ruleproof.runcache import cached_run, proof_options

__all__ = ["CheckReport", "EngineRun", "run_check", "run_rulings", "run_hypothesis", "run_exhaustive", "run_z3",
           "run_consistency", "run_conformance", "run_engine", "team_rulings", "rulings_outside_menu", "distrust_proofs"]


@dataclass
class EngineRun:
    """One engine's results, its figures, and its counterexamples as event lists (property -> events)."""

    group: str
    results: list[CheckResult]
    seconds: float
    stats: dict = field(default_factory=dict)
    counterexamples: dict[str, list] = field(default_factory=dict)
    outcome: object | None = None  # the engine's own outcome object (kept in one process only)
    cached: bool = False  # the run came from the run cache (:mod:`ruleproof.runcache`), not made now


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
        return [*self.structure, *(r for e in ENGINES for r in getattr(self, e.field))]

    @property
    def ok(self) -> bool:
        return all(r.holds for r in self.results)

    @property
    def cached(self) -> tuple[str, ...]:
        """The engines whose runs came from the run cache (the others were run now)."""
        return tuple(g for g, r in self.runs.items() if r.cached)

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

def team_rulings(folders, *rulebooks: Rulebook) -> tuple[tuple[str, str], ...]:
    """The rulings of a team's folders (``--rulings DIR``, repeatable), checked before any engine runs:
    every ``*.yaml`` loads (else its loader's error at file:line; a folder that is missing or holds no
    ``*.yaml``: RP166), names assumptions and windows of each rulebook it will run on, and has an id no
    other ruling (shipped or the team's) and no property of the catalogue has (RP167: results are named
    by id).  Returns (file, digest of its content) per file: the engines' option ``rulings`` — a run
    cache key that changes when a file does."""
    from ruleproof.properties.catalogue import BY_ID  # read when called (a test plants properties)

    if not folders:
        return ()
    index = rulebooks[0].index if rulebooks else None
    taken: dict[str, Localized] = {pid: Localized(f"свойства каталога {pid}", f"the catalogue's property {pid}")
                                   for pid in BY_ID}
    taken.update({sc.spec.id: Localized(f"разъяснения rulings/{p.name} из поставки", f"the shipped ruling rulings/{p.name}")
                  for p, sc in shipped_scenarios(index)})
    files: dict[Path, None] = {}
    for folder in folders:
        files.update(dict.fromkeys(ruling_files(folder)))
    out = []
    for path in files:
        for sc in load_rulings(path, index):
            for rb in rulebooks:
                check_assumptions(sc, rb)
                check_windows(sc, rb)
            at = sc.locs.at(("cases", sc.case, "id")) if sc.case is not None else sc.where(("id",))
            if sc.spec.id in taken:
                raise RuleproofError("RP167", at, ruling=sc.spec.id, other=taken[sc.spec.id])
            taken[sc.spec.id] = Localized(f"разъяснения в {at}", f"the ruling at {at}")
        out.append((str(path), hashlib.sha256(path.read_bytes()).hexdigest()))
    return tuple(out)


def _rulings_of(rb: Rulebook, opts: dict) -> list[tuple[str, Scenario, bool]]:
    """(the file as a replay names it, the ruling, whether it is the team's) for every shipped ruling, then
    every ruling of the team's folders (option ``rulings``: :func:`team_rulings`)."""
    return [*((f"rulings/{p.name}", sc, False) for p, sc in shipped_scenarios(rb.index)),
            *((path, sc, True) for path, _ in opts.get("rulings") or () for sc in load_rulings(path, rb.index))]


def run_rulings(rb: Rulebook, opts: dict) -> EngineRun:
    """Every shipped ruling on ``rb``, and the team's (option ``rulings``): a ruling whose outcome differs
    is a finding (kind ``ruling``).  Then every property of the catalogue on each game action of each
    ruling (a ruling is a probe of the universe of games: its game must satisfy every property) — one
    result per property after the rulings' own, a finding (kind ``ruling_property``) per ruling whose
    game violates it: the property or the rulebook is wrong there.  Where the rulebook has alternative
    readings, each ruling is also run under each of them, and its result names the readings that change
    its outcome (``depends_on``; option ``readings`` false: not)."""
    started = time.perf_counter()
    results = []
    scenarios = []
    runs = []
    arg = f" --rulebook {opts['rulebook_arg']}" if opts.get("rulebook_arg") else ""
    for rel, sc, team in _rulings_of(rb, opts):
        one = time.perf_counter()
        scenarios.append(sc)
        res = run_scenario(sc, rb)
        runs.append((rel, sc, res, team))
        findings: tuple[Finding, ...] = ()
        if not res.passed:
            findings = (Finding(kind="ruling", check=sc.spec.id, verdict=Verdict.VIOLATED, engine="interpreter",
                                clauses=tuple(sc.spec.clauses),
                                message={lang: "; ".join(f.text(lang) for f in res.failures) for lang in ("ru", "en")},
                                element=sc.spec.id, where=rel, assumptions=tuple(sc.spec.assumptions),
                                replay=f"ruleproof run {rel}{sc.case_option}{arg}", scenario=rel,
                                trace=tuple(trace_to_json(res.trace)), highlight=res.departures),)
        results.append(CheckResult(sc.spec.id, tuple(sc.spec.clauses), sc.spec.title.model_dump(), "interpreter",
                                   findings, seconds=time.perf_counter() - one))
    stats: dict[str, object] = {"rulings": len(results)}
    if rb.spec.readings and opts.get("readings", True):
        label = reading_labels(rb)
        deps = ruling_dependencies(rb, scenarios, {r.check: r.holds for r in results})
        results = [dataclasses.replace(r, depends_on=tuple(label[x] for x in deps[r.check])) for r in results]
        stats["readings"] = len(label)
    props, games = _ruling_properties(runs, arg)
    stats["games"] = games
    outside = rulings_outside_menu(rb, runs)
    if outside:
        stats["outside_menu"] = outside
    return EngineRun("rulings", results + props, time.perf_counter() - started, stats)


def rulings_outside_menu(rb: Rulebook, runs: list) -> dict[str, list[str]]:
    """Each ruling's game projected into the universe (model/universe.py): the rulings whose game actions
    play a combination the Z3 worlds do not hold, with those combinations — the proofs do not cover
    those games (``runs``: (file, ruling, its result, whether it is the team's))."""
    from ruleproof.model.menu import menu_scope  # looked up when called: a test replaces it

    missing = set(menu_scope(rb).missing)
    out: dict[str, list[str]] = {}
    for _, sc, res, _ in runs:
        left = sorted({c for part in res.parts for c in played(part.events)} & missing)
        if left:
            out[sc.spec.id] = [str(c) for c in left]
    return out


#: the rulings whose game violates a property that its finding shows with their run (trace); the others
#: are listed with where they are and how to replay them (a draft may break a property in every ruling)
TRACED_RULINGS = 3


def _ruling_properties(runs: list, arg: str) -> tuple[list[CheckResult], int]:
    """Every property of the catalogue on each game action of each ruling's run (``runs``: (file, ruling,
    its result, whether it is the team's)): one result per property, holding or with a finding per ruling
    whose game violates it, the offending events marked on the ruling's whole trace — the run shown for
    :data:`TRACED_RULINGS` of them, the team's first.  Each game action is judged on its own trace (a
    property speaks of one action; the actions of a turn are played one after the other).  Returns the
    results and the number of game actions judged."""
    props = list(catalogue.PROPERTIES)
    broken: dict[str, list[tuple]] = {p.id: [] for p in props}  # property -> (run, game action, violation)
    premised = dict.fromkeys(broken, 0)
    games = 0
    for run in runs:
        for k, part in enumerate(run[2].parts):
            if not part.events:
                continue
            games += 1
            tracker = catalogue.tracker(props, part.events[0].state)
            track = tracker.feed(tracker.start(), part.events)
            for p in catalogue.exercised(props, track):
                premised[p.id] += 1
            for p, v in catalogue.violations(props, track):
                broken[p.id].append((run, k, v))
    shown: dict[int, tuple] = {}  # a ruling's trace, made once

    def finding(p, run, k: int, v, traced: bool) -> Finding:
        rel, sc, res, _ = run
        part, n = res.parts[k], len(res.parts)
        if traced and id(res) not in shown:
            shown[id(res)] = tuple(trace_to_json(res.trace))
        not_ru, not_en = ("", "") if traced else (
            f"; ход партии не приведён (в отчёте — первые {TRACED_RULINGS}), его покажет команда воспроизведения",
            f"; the run is not shown (the report shows the first {TRACED_RULINGS}): the replay command shows it")
        at = set(v.events)
        clauses = tuple(dict.fromkeys([*p.clauses, *(c for e in part.events if e.seq in at for c in e.clauses)]))
        cited = ", ".join(clauses)
        part_ru, part_en = (f" (игродействие {k + 1} из {n})", f" (game action {k + 1} of {n})") if n > 1 else ("", "")
        return Finding(
            kind="ruling_property", check=p.id, verdict=Verdict.VIOLATED, engine="interpreter", clauses=clauses,
            message={"ru": f"свойство {p.id} нарушено в игре разъяснения {sc.spec.id}{part_ru}: свойство или "
                           f"свод правил здесь неверны (пункты {cited}) — {v.ru}{not_ru}",
                     "en": f"property {p.id} is violated in the game of ruling {sc.spec.id}{part_en}: the "
                           f"property or the rulebook is wrong here (clauses {cited}) — {v.en}{not_en}"},
            element="events " + ", ".join(f"#{s}" for s in v.events), where=rel,
            assumptions=tuple(sc.spec.assumptions), replay=f"ruleproof run {rel}{sc.case_option}{arg}", scenario=rel,
            trace=shown[id(res)] if traced else (), highlight=tuple(v.events))

    out = []
    for p in props:
        hits = broken[p.id]
        # a report stays bounded (a draft may break a property in every ruling): the run of the first few
        traced = set(sorted(range(len(hits)), key=lambda i: (not hits[i][0][3], i))[:TRACED_RULINGS])
        k = premised[p.id]
        findings = tuple(finding(p, run, k, v, i in traced) for i, (run, k, v) in enumerate(hits))
        if not findings and k == 0:  # no ruling's game played the situation: inconclusive, never "holds"
            findings = (catalogue.not_exercised(p, "interpreter", games, {
                "en": "a ruling whose game plays it", "ru": "разъяснение, игра которого её разыгрывает"}),)
        out.append(CheckResult(p.id, p.clauses, {"ru": f"в играх разъяснений (ситуация свойства — в {k} из {games}): {p.ru}",
                                                 "en": f"in the rulings' games (its situation in {k} of {games}): {p.en}"},
                               "interpreter", findings, note=f"{games} game actions of {len(runs)} rulings; premise in {k}"))
    return out, games


def run_hypothesis(rb: Rulebook, opts: dict) -> EngineRun:
    out = hypothesis_pass(rb, examples=opts["examples"], seed=opts.get("seed"), rulebook_arg=opts.get("rulebook_arg"),
                          progress=opts.get("progress"), **({"shrinks": opts["shrinks"]} if "shrinks" in opts else {}))
    cx = {pid: list(exc.events) for pid, exc in out.violations.items()}
    stats = {"examples": out.examples, "seed": out.seed, **({"scope": out.scope.to_json()} if out.scope else {})}
    return EngineRun("hypothesis", out.results, out.seconds, stats, cx, out)


def run_exhaustive(rb: Rulebook, opts: dict) -> EngineRun:
    bounds = opts.get("bounds") or Bounds()
    worlds = bounded_worlds(bounds.x_max, bounds.loadouts, rb)
    out = explore(rb, worlds, bounds)
    replay = "ruleproof explore" + (f" {opts['rulebook_arg']}" if opts.get("rulebook_arg") else "")
    stats = {"states": out.states, "traces": out.traces, "complete": out.complete, "depth": out.depth,
             "worlds": out.worlds, "scope": worlds_scope(rb, worlds).to_json()}
    cx = {pid: list(c.events) for pid, c in out.violations.items()}
    return EngineRun("exhaustive", explore_results(out, rb, replay), out.seconds, stats, cx)


def run_z3(rb: Rulebook, opts: dict) -> EngineRun:
    from ruleproof.properties.prove import prove  # looked up when called: a test replaces it

    kw = {"timeout_ms": opts["timeout_ms"]} if opts.get("timeout_ms") else {}
    # the conformance engine of the same run judges the agreement (distrust_proofs), not prove again;
    # "proofs": where proofs are kept for the next rulebook (each re-checked there, properties/carry.py)
    carry = ProofStore(opts["proofs"], keep_new=bool(opts.get("keep_proofs"))) if opts.get("proofs") else None
    out = prove(rb, seed=opts.get("z3_seed", 0), agree=not opts.get("conformance_engine"), carry=carry, **kw)
    cx = {v.pid: list(v.counterexample.trace.events) for v in out.verdicts
          if v.counterexample is not None and v.counterexample.trace is not None}
    stats = {"z3_version": out.z3_version, "seed": out.seed, **({"scope": out.scope.to_json()} if out.scope else {}),
             "carried": sum(v.carried for v in out.verdicts), "proved": sum(v.verdict == "proved" for v in out.verdicts)}
    return EngineRun("z3", out.results, out.seconds, stats, cx)


def run_consistency(rb: Rulebook, opts: dict) -> EngineRun:
    out = consistency(rb)
    return EngineRun("consistency", out.results, out.seconds,
                     {"status": out.status, "z3_version": out.z3_version, "seed": out.seed})


def run_conformance(rb: Rulebook, opts: dict) -> EngineRun:
    # the property forms are checked on the same runs (RC8: a Z3 form and its monitor read them otherwise)
    out = conformance(rb, runs=opts.get("conformance_runs") or DEFAULT_RUNS, seed=opts.get("seed") or 0,
                      rulebook_arg=opts.get("rulebook_arg"), also=form_check)
    return EngineRun("conformance", out.results, out.seconds, {"seed": out.seed, "runs": out.runs, "steps": out.steps},
                     outcome=out)


def distrust_proofs(z3_results: list[CheckResult], conformance_results: list[CheckResult]) -> list[CheckResult]:
    """Z3's results on a rulebook whose Z3 model disagrees with its interpreter: anything Z3 alone
    concluded there rests on a second meaning that was shown wrong, so a result that holds and a
    vacuity claim (an unreachable premise, never replayed) become inconclusive — never "proved",
    never "vacuous"; a violation stays (its counterexample was replayed on the interpreter)."""
    bad = [f for r in conformance_results for f in r.findings if f.failed]
    if not bad:
        return z3_results
    why = bad[0]
    out = []
    for r in z3_results:
        vacuous = [f for f in r.findings if f.kind == "vacuous"]
        if r.holds or vacuous:
            kept = tuple(dataclasses.replace(f, kind="unknown", verdict=Verdict.UNKNOWN) if f.kind == "vacuous" else f
                         for f in r.findings)
            note = Finding(kind="conformance", check=r.check, verdict=Verdict.UNKNOWN, engine="z3", clauses=r.clauses,
                           message={"ru": f"доказательство не принято: модель Z3 расходится с интерпретатором "
                                          f"({why.text('ru')})",
                                    "en": f"the proof is not trusted: the Z3 model disagrees with the interpreter "
                                          f"({why.text('en')})"}, where=why.where, replay=why.replay)
            r = dataclasses.replace(r, findings=(*kept, note))
        out.append(r)
    return out


def run_engine(rb: Rulebook, opts: dict, group: str) -> EngineRun:
    """One engine's run as a worker process gives it back (no progress bar there; its outcome object left out):
    ``check`` and ``diff`` hand these to their pools."""
    run = BY_NAME[group].load()(rb, {**opts, "progress": None})
    run.outcome = None  # not sent back between processes: the results and counterexamples are
    return run


def _decided(run: object) -> bool:
    """A run worth keeping: every result decided (an inconclusive one — a time limit, a premise never
    played — is made again next time: a time limit depends on the machine's load, not on the rulebook)."""
    return isinstance(run, EngineRun) and all(r.verdict != Verdict.UNKNOWN for r in run.results)


def _one_engine(rb: Rulebook, opts: dict, group: str, cache_dir, pooled: bool) -> EngineRun:
    """Engine ``group`` on ``rb`` for :func:`run_check`: from the run cache under ``cache_dir`` when a run
    with the same key is kept there (:func:`~ruleproof.runcache.cached_run`: the rulebook's content, the
    options, the team's rulings, ruleproof's files, Z3's and Hypothesis' versions), else run now (and kept
    when every result is decided: :func:`_decided`).
    ``pooled``: in a worker process (its outcome object is not sent back)."""
    if cache_dir is None:
        return run_engine(rb, opts, group) if pooled else BY_NAME[group].load()(rb, opts)
    run, hit = cached_run(partial(run_engine, group=group), rb, group, opts, cache_dir, keep=_decided)
    assert isinstance(run, EngineRun)  # what run_engine gives; a file of another shape is a miss (version key)
    run.cached = hit
    return run


def run_check(path: str | Path | None = None, examples: int = 0, seed: int | None = None,
              progress=None, engines: tuple[str, ...] | None = None, jobs: int = 1, bounds=None,
              timeout_ms: int | None = None, rulings: tuple[str, ...] = (), cache_dir: str | Path | None = None,
              on_engine: Callable[[EngineRun], None] | None = None, keep_proofs: bool = False) -> CheckReport:
    """Structure always; then each engine of ``engines`` (default: the Hypothesis pass when
    ``examples`` > 0 — the behaviour of the first releases).  ``jobs`` > 1: engines in parallel.
    ``rulings``: a team's folders of rulings, run by the rulings engine after the shipped ones.
    ``cache_dir``: each engine's run is kept there and reused while nothing that decides it changes
    (:mod:`ruleproof.runcache`; ``report.cached`` names the engines that came from it).  ``on_engine``: told
    each engine's run as it comes back, the engines then ordered for the soonest answers
    (:func:`~ruleproof.engine_registry.soonest_answers`: the quick ones while the costliest runs).  With
    ``cache_dir``, Z3 first re-checks the proofs kept there (``properties/carry.py``); ``keep_proofs``: it also
    keeps each new proof's invariant for the next check (the edit loop: ``check --watch``)."""
    rb = load_rulebook(path)
    if rb.spec.readings:  # a patch that is not one is bad input, said before any engine runs; a reading that
        not_applicable(rb)  # does not apply to this rulebook is reported so (never blocks the check)
    team = team_rulings(rulings, rb)  # a bad ruling file is bad input too, said before any engine runs
    G = rb.graph
    report = CheckReport(rb, G, run_structure_checks(G, rb.index))
    if engines is None:
        engines = ("hypothesis",) if examples > 0 else ()
    wanted = [e.name for e in ENGINES if e.name in engines and (e.name != "hypothesis" or examples > 0)]
    opts = {"examples": examples, "seed": seed, "rulebook_arg": str(path) if path else None, "bounds": bounds,
            "timeout_ms": timeout_ms, "progress": progress, "conformance_engine": "conformance" in wanted,
            "rulings": team, **proof_options(cache_dir, keep_proofs)}
    runs = _run_engines(rb, wanted, opts, jobs, cache_dir, on_engine)
    for r in runs:
        report.runs[r.group] = r
        if r.group == "hypothesis":
            report.hypothesis = r.outcome
        setattr(report, BY_NAME[r.group].field, r.results)
    if report.conformance and report.z3:
        report.z3 = distrust_proofs(report.z3, report.conformance)
    if rb.spec.readings:
        _finding_dependencies(report)
    return report


def _run_engines(rb: Rulebook, wanted: list[str], opts: dict, jobs: int, cache_dir,
                 on_engine: Callable[[EngineRun], None] | None) -> list[EngineRun]:
    """The runs of the engines ``wanted`` (in that order) for :func:`run_check`: in ``jobs`` processes, the
    costliest first so that the pool is busy to the end — or, with ``on_engine`` (told each run as it comes
    back), the quick answers first."""
    progress = opts["progress"]
    if jobs > 1 and len(wanted) > 1:
        order = soonest_answers(wanted) if on_engine else longest_first(wanted)
        tell = (lambda _, run: on_engine(run)) if on_engine else None
        done = dict(zip(order, fork_map(lambda e: _one_engine(rb, opts, e, cache_dir, True), order, jobs, tell)))
        return [done[e] for e in wanted]
    runs: list[EngineRun] = []
    for e in sorted(wanted, key=lambda e: BY_NAME[e].cost) if on_engine else wanted:
        if progress:
            progress(e)
        runs.append(_one_engine(rb, opts, e, cache_dir, False))
        if on_engine:
            on_engine(runs[-1])
    return sorted(runs, key=lambda r: wanted.index(r.group))


def _finding_dependencies(report: CheckReport) -> None:
    """Each property a counterexample breaks: the readings under which the same game no longer breaks
    it — on its result (``depends_on``) and, as the assumptions they replace, on its findings."""
    label, of = reading_labels(report.rulebook), {r.id: r.of for r in readings(report.rulebook)}
    for group, run in report.runs.items():
        if not run.counterexamples:
            continue
        deps = counterexample_dependencies(report.rulebook, run.counterexamples)
        attr = BY_NAME[group].field
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
