"""`ruleproof diff BASE DRAFT` as data: what the draft changes, and which verdicts and rulings move.

:func:`diff_rulebooks` runs the same engines on both rulebooks — the rulings (interpreter: the shipped
ones and a team's, each ruling's game judged by every property too), the
properties (exhaustive exploration of the bounded worlds; Z3 proofs when asked for) and the clause
consistency claims (Z3 unsat cores) — and compares: the elements changed (by clause), the
properties whose verdict changes (e.g. holds → violated), the clause conflicts that appear or
disappear, the rulings whose outcome changes, and the smallest game the two rulebooks play
differently.  ``changed`` is true when any verdict or ruling moved: ``ruleproof diff`` exits 1.

>>> from ruleproof.model.rulebook import load_rulebook
>>> d = diff_rulebooks(load_rulebook(), load_rulebook(), engines=("rulings", "consistency"))
>>> d.changed, d.structure, d.difference
(False, [], None)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Callable

from ruleproof.engine_registry import DIFF_ENGINES, DIFF_EXAMPLES, longest_first
from ruleproof.generators.bounded import bounded_worlds
from ruleproof.ground.forked import fork_map
from ruleproof.model.explore import Bounds
from ruleproof.model.rulebook import Rulebook
from ruleproof.model.rulebook_diff import Change, Difference, behaviour, smallest_difference, structural_diff
from ruleproof.orchestrate import distrust_proofs, run_engine
from ruleproof.properties.consistency import consistency
from ruleproof.reports.finding import WITHIN_MENU, Verdict
from ruleproof.runcache import cached_run, proof_options

__all__ = ["VerdictChange", "RulingChange", "ConflictChange", "DiffOutcome", "diff_rulebooks"]

#: Hypothesis's successful shrinks per counterexample in `diff` (check: 100).  Shrinking is most of the
#: time on a draft that breaks a property (measured: 87.7 s with 100, 27.4 s with 20); the counterexample
#: is a little longer, and still replays exactly
DIFF_SHRINKS = 20
#: the order the tasks are handed to the workers: the longest first, so the pool stays busy to the end
_DIFFERENCE_COST = {"difference": 50}  # the search for the smallest differing game, among the engines' costs


@dataclass(frozen=True)
class VerdictChange:
    property: str
    clauses: tuple[str, ...]
    engine: str
    base: str  # holds | violated | vacuous | unknown | proved | …
    draft: str
    message: dict  # the draft's finding message (or the base's when it goes back to holding)


@dataclass(frozen=True)
class RulingChange:
    ruling: str
    clauses: tuple[str, ...]
    base: str  # passes | fails
    draft: str
    message: dict


@dataclass(frozen=True)
class ConflictChange:
    what: str  # appears | disappears
    claims: tuple[str, ...]
    clauses: tuple[str, ...]


@dataclass
class DiffOutcome:
    base: Rulebook
    draft: Rulebook
    structure: list[Change]
    verdicts: list[VerdictChange] = field(default_factory=list)
    rulings: list[RulingChange] = field(default_factory=list)
    conflicts: list[ConflictChange] = field(default_factory=list)
    difference: Difference | None = None
    counterexamples: dict[str, tuple[str, list]] = field(default_factory=dict)  # property -> (engine, draft events)
    engines: tuple[str, ...] = ()
    seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)  # "engine/side" (or a task) -> its seconds
    cached: tuple[str, ...] = ()  # the engines whose base results were read from the run cache
    sides: dict[str, tuple[dict, dict]] = field(default_factory=dict)  # property engine -> ({pid: base verdict}, draft)
    # the draft differs from the base in wording only (model.rulebook_diff.behaviour): it plays every game
    # as the base does, so the base's engine runs stand for both and no game is searched for a difference
    same_behaviour: bool = False
    # engine -> (its scope on the base, on the draft): what its games cover of the combinations each rulebook
    # admits (model/universe.py; Scope.to_json), for the engines that report one
    scopes: dict[str, tuple[dict | None, dict | None]] = field(default_factory=dict)

    @property
    def changed(self) -> bool:
        return bool(self.verdicts or self.rulings or self.conflicts)


def _verdict(result) -> str:
    """A check result's verdict, with a vacuous property (Z3's vacuity witnesses) and a property no run
    exercised told apart.  A Z3 result holds only when proved (``holds to depth k`` and unknown
    premises come as findings)."""
    if any(f.kind == "vacuous" for f in result.findings):
        return "vacuous"
    if any(f.kind == "not_exercised" for f in result.findings):
        return "not exercised"
    if result.verdict == Verdict.HOLDS and result.engine == "z3":
        # over Z3 worlds that leave out combinations the rulebook admits: its own verdict (model/universe.py)
        return WITHIN_MENU if (result.note or "").startswith(WITHIN_MENU) else "proved"
    return result.verdict


def _message(result) -> dict:
    f = next((f for f in result.findings if f.failed), None)
    return dict(f.message) if f else dict(result.statement)


def _cores(rb: Rulebook) -> tuple[str, dict]:
    """The consistency status of ``rb`` and its minimal cores: sorted claims -> clauses (plain data:
    it comes back from a worker process)."""
    out = consistency(rb)
    return out.status, {tuple(sorted(c.claims)): tuple(c.clauses) for c in out.cores}


def _conflicts(b_cores: tuple[str, dict], d_cores: tuple[str, dict], out: DiffOutcome) -> None:
    """Minimal cores (sets of clause claims in conflict) of the draft that the base has not, and back."""
    (b_status, b), (d_status, d) = b_cores, d_cores
    for key in sorted(d.keys() - b.keys()):
        out.conflicts.append(ConflictChange("appears", key, d[key]))
    for key in sorted(b.keys() - d.keys()):
        out.conflicts.append(ConflictChange("disappears", key, b[key]))
    if b_status != d_status and not out.conflicts:  # e.g. consistent -> unknown
        out.verdicts.append(VerdictChange("consistency", (), "z3", b_status, d_status, {}))


def _tasks(engines: tuple[str, ...], same_behaviour: bool, difference: bool) -> list[tuple[str, str]]:
    """(engine, side) per run to make, the costliest first: each engine on each rulebook — on the base only when
    the two behave alike (the rulings and properties read behaviour only), the consistency claims on both
    (they read the citations) — and the search for the smallest differing game ("difference", "")."""
    played = ("base",) if same_behaviour else ("base", "draft")
    tasks = [(e, side) for e in engines if e != "consistency" for side in played]
    tasks += [("consistency", side) for side in ("base", "draft") if "consistency" in engines]
    tasks += [("difference", "")] if difference and not same_behaviour else []
    return longest_first(tasks, _DIFFERENCE_COST)


def _run_task(task: tuple[str, str], sides: dict, opts: dict, rulings: tuple, cache_dir) -> tuple[object, float, bool]:
    """One task of :func:`_tasks`: (what it found, its seconds, whether the base's run came from the cache)."""
    engine, side = task
    t0 = time.perf_counter()
    hit = False
    found: object
    if engine == "difference":
        base, draft, bounds = sides["base"], sides["draft"], opts["bounds"]
        found = smallest_difference(base, draft, bounded_worlds(bounds.x_max, bounds.loadouts, draft), bounds)
    elif engine == "consistency":
        found = _cores(sides[side])
    else:
        rb = sides[side]
        o = {**opts, "rulebook_arg": str(rb.path), **({"rulings": rulings} if engine == "rulings" and rulings else {})}
        if side == "base" and cache_dir is not None:
            found, hit = cached_run(partial(run_engine, group=engine), rb, engine, o, cache_dir)
        else:
            found = run_engine(rb, o, engine)
    return found, time.perf_counter() - t0, hit


def _compare_engine(engine: str, got: dict, conformance: bool, out: DiffOutcome) -> None:
    """One engine's runs on the two rulebooks (``got``: (engine, side) -> its run) compared into ``out``."""
    b_run, d_run = got[(engine, "base")], got[(engine, "draft")]
    if engine == "z3" and conformance:  # a proof on a rulebook that fails conformance is not trusted
        b_run.results = distrust_proofs(b_run.results, got[("conformance", "base")].results)
        d_run.results = distrust_proofs(d_run.results, got[("conformance", "draft")].results)
    b_res = {r.check: r for r in b_run.results}
    d_res = {r.check: r for r in d_run.results}
    if b_run.stats.get("scope") or d_run.stats.get("scope"):
        out.scopes[engine] = (b_run.stats.get("scope"), d_run.stats.get("scope"))
    if engine == "rulings":
        _compare_rulings(b_res, d_res, out)
        return
    out.sides[engine] = ({pid: _verdict(r) for pid, r in b_res.items()}, {pid: _verdict(r) for pid, r in d_res.items()})
    for pid in b_res.keys() & d_res.keys():
        _verdict_change(pid, engine, b_res[pid], d_res[pid], _verdict, out)
    for pid, events in d_run.counterexamples.items():
        if pid not in b_run.counterexamples:
            out.counterexamples.setdefault(pid, (engine, events))


def _verdict_change(pid: str, engine: str, b, d, verdict, out: DiffOutcome) -> None:
    """A property's verdict on the two rulebooks (``b``, ``d``: its results, read by ``verdict``), if it changed."""
    bv, dv = verdict(b), verdict(d)
    if bv != dv:
        out.verdicts.append(VerdictChange(pid, d.clauses, engine, bv, dv, _message(d if dv != Verdict.HOLDS else b)))


def _compare_rulings(b_res: dict, d_res: dict, out: DiffOutcome) -> None:
    """The rulings whose outcome changes; a property judged on the rulings' games, as a verdict."""
    from ruleproof.properties.catalogue import BY_ID  # read when called (a test plants properties)

    for rid in d_res.keys() | b_res.keys():
        if rid in BY_ID:
            if rid in b_res and rid in d_res:
                _verdict_change(rid, "rulings", b_res[rid], d_res[rid], lambda r: r.verdict, out)
            continue
        bv = "passes" if rid in b_res and b_res[rid].holds else "fails"
        dv = "passes" if rid in d_res and d_res[rid].holds else "fails"
        if bv != dv:
            r = d_res.get(rid) or b_res[rid]
            out.rulings.append(RulingChange(rid, r.clauses, bv, dv, _message(r)))
    out.rulings.sort(key=lambda c: c.ruling)


def diff_rulebooks(base: Rulebook, draft: Rulebook, engines: tuple[str, ...] = DIFF_ENGINES,
                   bounds=None, timeout_ms: int | None = None, difference: bool = True, jobs: int = 1,
                   examples: int = DIFF_EXAMPLES, seed: int | None = None,
                   cache_dir: str | Path | None = None, progress: Callable[[str, int, int], None] | None = None,
                   rulings: tuple = ()) -> DiffOutcome:
    """Run ``engines`` on both rulebooks and compare (``jobs`` > 1: each engine on each rulebook, the
    consistency claims and the search for the smallest differing game as tasks of a pool of forked
    workers, the longest first).  ``cache_dir``: the base rulebook's engine runs are kept there and
    reused while nothing that decides them changes (:mod:`ruleproof.runcache`); ``out.cached`` names
    the engines whose base results came from it; ``progress(task, finished, total)`` is told as each
    task ("z3/draft", "difference", …) finishes.  ``rulings``: a team's ruling files
    (:func:`ruleproof.orchestrate.team_rulings`), compared with the shipped ones."""
    started = time.perf_counter()
    bounds = bounds or Bounds()
    out = DiffOutcome(base, draft, structural_diff(base, draft), engines=engines,
                      same_behaviour=behaviour(base) == behaviour(draft))
    opts = {"examples": examples, "seed": seed, "bounds": bounds, "timeout_ms": timeout_ms,
            "conformance_engine": "conformance" in engines, "shrinks": DIFF_SHRINKS,
            **proof_options(cache_dir, keep=True)}
    sides = {"base": base, "draft": draft}
    tasks = _tasks(engines, out.same_behaviour, difference)
    run = partial(_run_task, sides=sides, opts=opts, rulings=rulings, cache_dir=cache_dir)

    finished: list[int] = []

    def tell(i: int, _found: object) -> None:
        finished.append(i)
        if progress is not None:
            engine, side = tasks[i]
            progress(f"{engine}/{side}" if side else engine, len(finished), len(tasks))

    if jobs > 1 and len(tasks) > 1:
        done = dict(zip(tasks, fork_map(run, tasks, jobs, tell)))
    else:
        done = {}
        for i, task in enumerate(tasks):
            done[task] = run(task)
            tell(i, done[task])
    out.timings = {f"{e}/{side}" if side else e: secs for (e, side), (_, secs, _) in done.items()}
    out.cached = tuple(e for (e, side), (_, _, hit) in done.items() if hit)
    got = {task: found for task, (found, _, _) in done.items()}
    if out.same_behaviour:
        got.update({(e, "draft"): got[(e, "base")] for e in engines if e != "consistency"})
    if "consistency" in engines:
        _conflicts(got[("consistency", "base")], got[("consistency", "draft")], out)
    for engine in engines:
        if engine != "consistency":
            _compare_engine(engine, got, "conformance" in engines, out)
    out.verdicts.sort(key=lambda v: (v.engine, v.property))
    out.difference = got.get(("difference", ""))
    out.seconds = time.perf_counter() - started
    return out
