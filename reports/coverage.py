"""Clause coverage: every clause unit of the index with the checks that cover it.

For each unit: the properties (``property_citations``), the rulings (``ruling_citations``) and the
structural checks that cite it, and the rulebook assumptions that touch it (their ``about``).  A
unit is covered *directly* when one of them cites it, *indirectly* when only a clause around it or a
part of it is cited, and not at all otherwise: an available unit (not a section heading) that
nothing covers is a finding of kind ``coverage`` (verdict ``uncovered``) — information about the
checks, not a verdict on the rules, so it does not change the exit code.

>>> cov = build_coverage(assumptions={"A-die-roll": {"about": ["306"]}})
>>> row = cov.row("540.3")
>>> row.coverage, "P540.3-action-marker" in row.properties
('direct', True)
>>> cov.row("306").assumptions, cov.row("306").status
(('A-die-roll',), 'referenced')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from ruleproof.model.clauses import default_index
from ruleproof.model.scenario import ruling_citations
from ruleproof.model.structure import STRUCTURE_CHECKS
from ruleproof.properties.catalogue import property_citations

from .finding import Finding, Verdict

__all__ = ["CoverageRow", "Coverage", "build_coverage"]


@dataclass(frozen=True)
class CoverageRow:
    clause: str
    kind: str  # section | clause | lead | bullet | paragraph | example | tail (the index's kinds)
    status: str  # available | partial | referenced
    properties: tuple[str, ...] = ()
    rulings: tuple[str, ...] = ()
    checks: tuple[str, ...] = ()  # structural checks
    assumptions: tuple[str, ...] = ()
    via: tuple[str, ...] = ()  # cited clause ids around or inside it (indirect coverage)

    @property
    def coverage(self) -> str:
        """``direct``, ``indirect`` or ``none``."""
        if self.properties or self.rulings or self.checks:
            return "direct"
        return "indirect" if self.via else "none"


@dataclass(frozen=True)
class Coverage:
    rows: tuple[CoverageRow, ...]

    def row(self, cid: str) -> CoverageRow | None:
        return next((r for r in self.rows if r.clause == cid), None)

    @property
    def uncovered(self) -> tuple[CoverageRow, ...]:
        return tuple(r for r in self.rows if r.coverage == "none" and r.status == "available" and r.kind != "section")

    def counts(self) -> dict[str, int]:
        units = [r for r in self.rows if r.kind != "section"]
        return {"units": len(units), "direct": sum(r.coverage == "direct" for r in units),
                "indirect": sum(r.coverage == "indirect" for r in units),
                "none": sum(r.coverage == "none" for r in units), "uncovered": len(self.uncovered)}

    @property
    def findings(self) -> tuple[Finding, ...]:
        """One ``coverage`` finding per available unit that nothing covers."""
        return tuple(Finding(kind="coverage", check="coverage", verdict=Verdict.UNCOVERED, engine="coverage",
                             clauses=(r.clause,), element=f"clause {r.clause}",
                             message={"ru": f"пункт {r.clause} не проверяет ни одно свойство, разъяснение или "
                                            f"структурная проверка",
                                      "en": f"no property, ruling or structural check covers clause {r.clause}"},
                             assumptions=r.assumptions)
                     for r in self.uncovered)


def _strip(element: str) -> str:
    return element.split(" ", 1)[1] if " " in element else element


def build_coverage(index=None, assumptions: dict | None = None, properties: Iterable | None = None,
                   rulings: Iterable | None = None, checks: Iterable | None = None) -> Coverage:
    """Coverage of ``index`` (default: the bundled clause index).  ``properties``/``rulings`` are
    Citations (default: the catalogue's and the shipped rulings'); ``checks`` are (id, clauses) pairs
    (default: the structural checks); ``assumptions``: the rulebook's, id → {about: [...], ...}."""
    index = index or default_index()
    if properties is None:
        properties = property_citations()
    if rulings is None:
        rulings = ruling_citations()
    if checks is None:
        checks = [(c.id, c.clauses) for c in STRUCTURE_CHECKS]
    by = _citing(properties, rulings, checks)
    about = {aid: [str(x) for x in (a.get("about") or [])] for aid, a in (assumptions or {}).items()}
    cited = sorted(by)
    return Coverage(tuple(_row(index, e, by.get(e.id, {}), cited, about) for e in index))


def _citing(properties: Iterable, rulings: Iterable, checks: Iterable) -> dict[str, dict[str, list[str]]]:
    """clause id -> group ("properties", "rulings", "checks") -> the names that cite it, each once, in order."""
    by: dict[str, dict[str, list[str]]] = {}

    def add(group: str, name: str, clauses) -> None:
        for cid in clauses:
            names = by.setdefault(cid, {}).setdefault(group, [])
            if name not in names:
                names.append(name)

    for c in properties:
        add("properties", _strip(c.element), c.clauses)
    for c in rulings:
        add("rulings", _strip(c.element), c.clauses)
    for cid, clauses in checks:
        add("checks", cid, clauses)
    return by


def _row(index, e, own: dict, cited: list[str], about: dict) -> CoverageRow:
    """One unit: what cites it, the units cited around it (containing it or contained), the assumptions about it."""
    via = tuple(c for c in cited if c != e.id and (index.covers(c, e.id) or index.covers(e.id, c)))
    touching = tuple(aid for aid, ids in about.items()
                     if any(x == e.id or index.covers(x, e.id) or index.covers(e.id, x) for x in ids))
    return CoverageRow(e.id, e.kind, e.status, tuple(own.get("properties", ())), tuple(own.get("rulings", ())),
                       tuple(own.get("checks", ())), touching, via)
