"""The ruling-debt map: per clause unit, what pins it and what is still open — the units most in need of a ruling first.

For each unit of the clause coverage: the rulings and properties that cite it, the alternative readings about it
(those no shipped ruling decides are *open*), and — when ``ruleproof questions`` ran — its open questions (a
reading's question no ruling answers, or a unit's question: a one-fault draft every ruling passes).  A unit's
debt, most pressing first:

0. ``reading_no_ruling`` — an open reading about it, and no ruling cites it;
1. ``reading_open`` — an open reading about it, though a ruling cites it;
2. ``question`` — an open question about it (``questions`` only);
3. ``no_ruling`` — no ruling cites it (properties or structural checks may);
4. ``pinned`` — a ruling cites it and no reading or question about it is open.

Within a debt: more open readings first, then the clause index's order.

>>> from ruleproof.reports.coverage import build_coverage
>>> rows = debt_map(build_coverage(), {"R-x": {"about": ["540.3"], "rulings": []}})
>>> rows[0].clause, rows[0].debt, rows[0].open_readings
('540.3', 'reading_open', ('R-x',))
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Iterable

from .coverage import Coverage

__all__ = ["DebtRow", "DEBTS", "debt_map", "debt_to_json"]

#: the debts, most pressing first
DEBTS = ("reading_no_ruling", "reading_open", "question", "no_ruling", "pinned")


@dataclass(frozen=True)
class DebtRow:
    clause: str
    debt: str  # one of DEBTS
    rulings: tuple[str, ...]
    properties: tuple[str, ...]
    open_readings: tuple[str, ...]  # readings about the unit no shipped ruling decides (or: the rulings did not run)
    decided_readings: tuple[str, ...]  # readings about the unit a shipped ruling decides
    questions: tuple[str, ...] = ()  # open questions about the unit (when ``ruleproof questions`` ran)


def _open(r: dict) -> bool | None:
    """Whether a reading is open (no shipped ruling decides it); None: it does not apply to the rulebook."""
    if r.get("not_applicable"):
        return None
    return not r.get("rulings")  # [] none changes; None the rulings did not run: not known to be decided


def _debt(row, open_readings: tuple, questions: tuple) -> str:
    if open_readings:
        return "reading_open" if row.rulings else "reading_no_ruling"
    if questions:
        return "question"
    return "pinned" if row.rulings else "no_ruling"


def debt_map(coverage: Coverage, readings: dict[str, dict], questions: Iterable[dict] = ()) -> tuple[DebtRow, ...]:
    """Every clause unit (not a section heading) of ``coverage`` with its debt, most pressing first.
    ``readings``: a report's (id -> {about, rulings, not_applicable}); ``questions``: ``ruleproof questions``'s JSON
    entries (id, kind, reading, about, open, game)."""
    by_unit: dict[str, list[str]] = {}
    for q in questions:
        if q.get("open") and q.get("game"):
            for cid in (q["about"][:1] if q.get("kind") == "unit" else q.get("about", [])):
                by_unit.setdefault(cid, []).append(q["id"])
    rows = []
    for order, row in enumerate(r for r in coverage.rows if r.kind != "section"):
        about = [(rid, _open(r)) for rid, r in readings.items() if row.clause in r.get("about", [])]
        open_r = tuple(rid for rid, o in about if o)
        decided = tuple(rid for rid, o in about if o is False)
        qs = tuple(by_unit.get(row.clause, ()))
        rows.append((order, DebtRow(row.clause, _debt(row, open_r, qs), row.rulings, row.properties, open_r, decided,
                                    qs)))
    rows.sort(key=lambda x: (DEBTS.index(x[1].debt), -len(x[1].open_readings), x[0]))
    return tuple(r for _, r in rows)


def debt_to_json(rows: Iterable[DebtRow]) -> list[dict]:
    """The map as JSON: one object per unit, in its order."""
    return [{k: list(v) if isinstance(v, tuple) else v for k, v in asdict(r).items()} for r in rows]
