"""`ruleproof diff BASE DRAFT` as data: what the draft changes, and which verdicts and rulings move.

:func:`diff_rulebooks` runs the same engines on both rulebooks — the rulings (interpreter), the
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

from ruleproof.model.rulebook import Rulebook
from ruleproof.model.rulebook_diff import Change, Difference, smallest_difference, structural_diff

__all__ = ["VerdictChange", "RulingChange", "ConflictChange", "DiffOutcome", "diff_rulebooks", "DIFF_ENGINES",
           "DEFAULT_DIFF_ENGINES"]

DIFF_ENGINES = ("conformance", "rulings", "exhaustive", "z3", "consistency")
DEFAULT_DIFF_ENGINES = ("conformance", "rulings", "exhaustive", "consistency")


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

    @property
    def changed(self) -> bool:
        return bool(self.verdicts or self.rulings or self.conflicts)


def _verdict(result) -> str:
    """A check result's verdict, with a vacuous property told apart (Z3's vacuity witnesses).  A Z3
    result holds only when proved (``holds to depth k`` and unknown premises come as findings)."""
    if any(f.kind == "vacuous" for f in result.findings):
        return "vacuous"
    if result.verdict == "holds" and result.engine == "z3":
        return "proved"
    return result.verdict


def _message(result) -> dict:
    f = next((f for f in result.findings if f.failed), None)
    return dict(f.message) if f else dict(result.statement)


def _conflicts(base: Rulebook, draft: Rulebook, out: DiffOutcome) -> None:
    """Minimal cores (sets of clause claims in conflict) of the draft that the base has not, and back."""
    from ruleproof.properties.consistency import consistency

    b_out, d_out = consistency(base), consistency(draft)
    b_cores = {tuple(sorted(c.claims)): c for c in b_out.cores}
    d_cores = {tuple(sorted(c.claims)): c for c in d_out.cores}
    for key in sorted(d_cores.keys() - b_cores.keys()):
        out.conflicts.append(ConflictChange("appears", key, tuple(d_cores[key].clauses)))
    for key in sorted(b_cores.keys() - d_cores.keys()):
        out.conflicts.append(ConflictChange("disappears", key, tuple(b_cores[key].clauses)))
    if b_out.status != d_out.status and not out.conflicts:  # e.g. consistent -> unknown
        out.verdicts.append(VerdictChange("consistency", (), "z3", b_out.status, d_out.status, {}))


def diff_rulebooks(base: Rulebook, draft: Rulebook, engines: tuple[str, ...] = DEFAULT_DIFF_ENGINES,
                   bounds=None, timeout_ms: int | None = None, difference: bool = True) -> DiffOutcome:
    from ruleproof.generators.bounded import bounded_worlds
    from ruleproof.model.explore import Bounds
    from ruleproof.orchestrate import _RUNNERS, distrust_proofs

    started = time.perf_counter()
    bounds = bounds or Bounds(x_max=0)
    out = DiffOutcome(base, draft, structural_diff(base, draft), engines=engines)
    opts = {"examples": 0, "bounds": bounds, "timeout_ms": timeout_ms, "conformance_engine": "conformance" in engines}
    agreement: dict = {}  # rulebook -> its conformance results (a Z3 proof on a rulebook that fails it is not trusted)
    engines = tuple(sorted(engines, key=lambda e: e != "conformance"))  # conformance first
    for engine in engines:
        if engine == "consistency":
            _conflicts(base, draft, out)
            continue
        b_run = _RUNNERS[engine](base, {**opts, "rulebook_arg": str(base.path)})
        d_run = _RUNNERS[engine](draft, {**opts, "rulebook_arg": str(draft.path)})
        if engine == "conformance":
            agreement = {"base": b_run.results, "draft": d_run.results}
        elif engine == "z3" and agreement:
            b_run.results = distrust_proofs(b_run.results, agreement["base"])
            d_run.results = distrust_proofs(d_run.results, agreement["draft"])
        b_res = {r.check: r for r in b_run.results}
        d_res = {r.check: r for r in d_run.results}
        if engine == "rulings":
            for rid in d_res.keys() | b_res.keys():
                bv = "passes" if rid in b_res and b_res[rid].holds else "fails"
                dv = "passes" if rid in d_res and d_res[rid].holds else "fails"
                if bv != dv:
                    r = d_res.get(rid) or b_res[rid]
                    out.rulings.append(RulingChange(rid, r.clauses, bv, dv, _message(r)))
            out.rulings.sort(key=lambda c: c.ruling)
        else:
            for pid in b_res.keys() | d_res.keys():
                if pid not in b_res or pid not in d_res:
                    continue
                bv, dv = _verdict(b_res[pid]), _verdict(d_res[pid])
                if bv != dv:
                    out.verdicts.append(VerdictChange(pid, d_res[pid].clauses, engine, bv, dv,
                                                      _message(d_res[pid] if dv != "holds" else b_res[pid])))
            for pid, events in d_run.counterexamples.items():
                if pid not in b_run.counterexamples:
                    out.counterexamples.setdefault(pid, (engine, events))
    out.verdicts.sort(key=lambda v: (v.engine, v.property))
    if difference:
        worlds = bounded_worlds(bounds.x_max, bounds.loadouts)
        out.difference = smallest_difference(base, draft, worlds, bounds)
    out.seconds = time.perf_counter() - started
    return out
