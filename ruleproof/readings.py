"""`ruleproof readings [RULEBOOK]` as data: which alternative readings matter.

Each reading of the rulebook (:mod:`ruleproof.model.readings`) is run against the rulebook's own
reading with the engines of ``diff`` (:func:`ruleproof.diff.diff_rulebooks`): the properties whose
verdict changes (per engine), the rulings whose outcome changes, the clause conflicts that appear or
vanish, and the smallest game the two readings play differently.  A reading is

* **material** when a property, a ruling or a conflict changes;
* **immaterial, proved** when none changes and that is settled for every play: every ruling ran
  (a ruling is one exact game), the clause consistency was decided by Z3, and Z3 *proved* every
  property under both readings over worlds that hold every combination the rulebook admits (so no
  play, of any length, in any world, breaks one under either);
* **immaterial within the bounds** otherwise (some verdict rests on a bounded search only — or on a Z3
  proof *within the menu*, whose worlds leave out combinations the rulebook admits: :mod:`.model.universe`).

The base rulebook's runs are done once and reused for every reading (the run cache).

>>> from ruleproof.model.rulebook import load_rulebook
>>> out = compare_readings(load_rulebook(), engines=("rulings",), only=["R-non-active-first-late", "R-strike-row-4"],
...                        difference=False)
>>> [(r.reading.id, str(r.status), r.properties) for r in out.rows]  # a property on the rulings' games changes, or none
[('R-non-active-first-late', 'material', ['P512.6-active-player-first']), ('R-strike-row-4', 'immaterial-bounded', [])]
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass, field

from ruleproof.diff import DiffOutcome, diff_rulebooks
from ruleproof.engine_registry import DIFF_ENGINES, DIFF_EXAMPLES
from ruleproof.ground.verdicts import ProofVerdict, ReadingStatus
from ruleproof.model.readings import Reading, applicable, not_applicable, variant
from ruleproof.model.rulebook import Rulebook

__all__ = ["ReadingOutcome", "ReadingsOutcome", "compare_readings", "STATUSES"]

#: a reading's status, most telling first
STATUSES = tuple(ReadingStatus)


@dataclass
class ReadingOutcome:
    reading: Reading
    diff: DiffOutcome

    @property
    def status(self) -> ReadingStatus:
        d = self.diff
        if d.changed:
            return ReadingStatus.MATERIAL
        z3 = d.sides.get("z3")
        exact = {"rulings", "consistency"} <= set(d.engines)
        if exact and z3 and all(v == ProofVerdict.PROVED for side in z3 for v in side.values()):
            return ReadingStatus.IMMATERIAL_PROVED
        return ReadingStatus.IMMATERIAL_BOUNDED

    @property
    def properties(self) -> list[str]:
        """The properties whose verdict changes under some engine (catalogue ids, each once)."""
        return sorted({v.property for v in self.diff.verdicts})


@dataclass
class ReadingsOutcome:
    rulebook: Rulebook
    rows: list[ReadingOutcome]
    engines: tuple[str, ...]
    seconds: float = 0.0
    extra: dict = field(default_factory=dict)
    #: the readings that do not apply to this rulebook, each with why (not compared; never an error)
    not_applicable: dict = field(default_factory=dict)

    @property
    def material(self) -> list[ReadingOutcome]:
        return [r for r in self.rows if r.status == ReadingStatus.MATERIAL]

    def depends(self) -> dict[str, list[str]]:
        """Per property and per ruling: the readings that change it (reading ids)."""
        out: dict[str, list[str]] = {}
        for r in self.rows:
            for check in [*r.properties, *(x.ruling for x in r.diff.rulings)]:
                out.setdefault(check, []).append(r.reading.id)
        return out


def compare_readings(rb: Rulebook, engines: tuple[str, ...] = DIFF_ENGINES, bounds=None, jobs: int = 1,
                     examples: int = DIFF_EXAMPLES, seed: int | None = None, cache_dir=None, only=None,
                     difference: bool = True, progress=None, rulings: tuple = ()) -> ReadingsOutcome:
    """Every reading of ``rb`` (or ``only`` these ids) against ``rb``'s own reading, with ``engines``.
    ``progress(i, n, reading_id)`` is called before each.  ``rulings``: a team's ruling files
    (:func:`ruleproof.orchestrate.team_rulings`), judged with the shipped ones."""
    started = time.perf_counter()
    chosen = [r for r in applicable(rb) if only is None or r.id in set(only)]
    gone = {rid: why for rid, why in not_applicable(rb).items() if only is None or rid in set(only)}
    rows = []
    with tempfile.TemporaryDirectory(prefix="ruleproof-readings-") as tmp:
        cache = cache_dir if cache_dir is not None else tmp  # the base's runs are done once in any case
        for i, r in enumerate(chosen):
            if progress:
                progress(i, len(chosen), r.id)
            d = diff_rulebooks(rb, variant(rb, r.id), engines, bounds, jobs=jobs, examples=examples, seed=seed,
                               cache_dir=cache, difference=difference, rulings=rulings)
            rows.append(ReadingOutcome(r, d))
    return ReadingsOutcome(rb, rows, engines, time.perf_counter() - started, not_applicable=gone)
