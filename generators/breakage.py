"""Clause coverage by failure: what fails when the rulebook element carrying a clause unit is broken.

Every self-test draft breaks one element of the bundled rulebook (an operation, a window, an edge, the
trigger-word table; a named mutant names the clauses it violates), and so breaks the clause units that
element cites.  For each unit of the clause index this module gathers those drafts and what killed
each one, and sorts every draft into one class:

- ``property`` — a property of the catalogue fails (on a ruling's trace or under Hypothesis);
- ``check`` — no property, but a structural check or a clause claim (consistency) fails;
- ``rulings`` — only shipped rulings fail (the self-test searched for a property violation too);
- ``reading`` — only rulings fail, and the draft is the rulebook read another way where the excerpts are
  silent (one of its alternative readings, :func:`reading_drafts`): no property may decide it — rulings do;
- ``unnoticed`` — nothing fails though behaviour changes (a self-test survivor);
- ``no change`` — the draft plays every ruling and random game as before (equivalent), or the
  excerpts do not decide it (undecided).

A unit's coverage is its *weakest* draft that changes behaviour and is no reading: one draft only rulings
notice makes the unit ``rulings`` however many others a property catches.  A unit no draft breaks is ``not broken``
(no element cites it, so no operator can break it): what cites it is the citation index's business.

>>> from ruleproof.generators.selftest import MutantResult
>>> rows = breakage([MutantResult("d1", "drop operation", "", "killed", ["P512.6.4-block"], ("512.6.4/b3",)),
...                  MutantResult("d2", "flip guard", "", "killed", ["ruling:block"], ("512.6.4/b3",))])
>>> row = next(r for r in rows if r.clause == "512.6.4/b3")
>>> row.coverage, row.properties, row.rulings, row.classes
('rulings', ('P512.6.4-block',), ('block',), {'d1': 'property', 'd2': 'rulings'})
>>> next(r for r in rows if r.clause == "540.3").coverage
'not broken'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from ruleproof.model.clauses import ClauseIndex, default_index
from ruleproof.model.readings import applicable, variant
from ruleproof.model.rulebook import load_rulebook
from ruleproof.properties.catalogue import PROPERTIES

from .selftest import by_property, drafts

__all__ = ["BreakRow", "CLASSES", "breakage", "draft_class", "reading_drafts"]

#: the classes of a draft, strongest first (a unit's coverage is the weakest that changes behaviour; a
#: ``reading`` and ``no change`` do not count)
CLASSES = ("property", "check", "rulings", "unnoticed", "reading", "no change")
_UNCOUNTED = ("reading", "no change")


def draft_class(result) -> str:
    """The class of one self-test result (see the module docstring)."""
    if result.status in ("equivalent", "undecided", "invalid"):
        return "no change"
    kills = result.killed_by
    if by_property(kills):
        return "property"
    if any(not k.startswith("ruling:") for k in kills):
        return "check"
    return "rulings" if kills else "unnoticed"


def _class(result, readings: dict[str, str]) -> str:
    cls = draft_class(result)
    return "reading" if cls == "rulings" and result.id in readings else cls


@dataclass(frozen=True)
class BreakRow:
    """One clause unit: the drafts that break it and what fails on each."""

    clause: str
    kind: str
    status: str  # available | partial | referenced (the index's status)
    classes: dict = field(default_factory=dict)  # draft id → class
    properties: tuple[str, ...] = ()
    checks: tuple[str, ...] = ()  # structural checks and clause claims
    rulings: tuple[str, ...] = ()

    @property
    def coverage(self) -> str:
        """The weakest class among the drafts that change behaviour; ``no change`` when none does;
        ``not broken`` when no draft breaks the unit."""
        if not self.classes:
            return "not broken"
        changing = [c for c in self.classes.values() if c not in _UNCOUNTED]
        if changing:
            return max(changing, key=CLASSES.index)
        return "reading" if "reading" in self.classes.values() else "no change"

    def count(self, cls: str) -> int:
        return sum(c == cls for c in self.classes.values())


def reading_drafts(rb=None) -> dict[str, str]:
    """Self-test draft id -> the alternative reading of ``rb`` (default: the bundled rulebook) whose steps
    and tables it has: the draft *is* that reading, not a fault.

    >>> reading_drafts()["dice-never-skipped"]
    'R-dice-step-kept'
    """
    rb = rb or load_rulebook()
    key = lambda d: (d["steps"], d["tables"])  # noqa: E731
    by_key = [(key(variant(rb, r.id).data), r.id) for r in applicable(rb)]
    return {d.id: rid for d in drafts() for k, rid in by_key if key(d.data) == k}


def breakage(results: Iterable, index: ClauseIndex | None = None,
             readings: dict[str, str] | None = None) -> tuple[BreakRow, ...]:
    """One row per unit of ``index`` (not section headings), from self-test ``results``; ``readings``
    (:func:`reading_drafts`): a draft only rulings catch that is one of them is of class ``reading``."""
    index = index or default_index()
    pids = [p.id for p in PROPERTIES]
    by_unit: dict[str, list] = {}
    for r in results:
        for cid in r.clauses:
            by_unit.setdefault(cid, []).append(r)
    rows = []
    for e in index:
        if e.kind == "section":
            continue
        mine = by_unit.get(e.id, [])
        kills = [k for r in mine for k in r.killed_by]
        rows.append(BreakRow(
            e.id, e.kind, e.status, {r.id: _class(r, readings or {}) for r in mine},
            properties=tuple(p for p in pids if p in kills),
            checks=tuple(dict.fromkeys(k for k in kills if k not in pids and not k.startswith("ruling:"))),
            rulings=tuple(dict.fromkeys(k.split(":", 1)[1] for k in kills if k.startswith("ruling:")))))
    return tuple(rows)
