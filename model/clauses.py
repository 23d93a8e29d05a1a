"""The clause index: every clause unit of the excerpts, with a summary in the project's own words.

The index is package data (``data/clauses.yaml``).  It carries ids, kinds, status and short ru/en
summaries, never the rules' wording: that comes from a rules text the user supplies
(:mod:`ruleproof.model.rules_text`).  Status is ``available`` (the text is in the excerpts),
``partial`` (only part of the clause is) or ``referenced`` (the excerpts only refer to it: citing it
needs an explicit assumption).

>>> idx = default_index()
>>> idx.status("512.6.3/b4"), idx.status("519")
('available', 'referenced')
>>> idx.needs_assumption("519"), idx.needs_assumption("512.6.3/b4")
(True, False)
>>> idx.covers("512.6.3", "512.6.3/b4"), idx.covers("512.6.3/b4", "512.6.3")
(True, False)
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import yaml

from .rules_text import RulesText, clause_key, parent_of

__all__ = ["ClauseEntry", "ClauseIndex", "default_index", "CLAUSE_ID_RE", "is_clause_id"]

CLAUSE_ID_RE = re.compile(r"^\d{3}(\.\d+)*(/(b|t)\d+(\.\d+){0,2}|/p\d+|/ex\d+)?$")


def is_clause_id(text: str) -> bool:
    """True when ``text`` has the form of a clause or unit id.

    >>> is_clause_id("512.6.2/b4.1.2"), is_clause_id("540.4.1/ex1"), is_clause_id("5.12")
    (True, True, False)
    """
    return bool(CLAUSE_ID_RE.fullmatch(text))


@dataclass(frozen=True)
class ClauseEntry:
    id: str
    kind: str
    status: str
    summary: dict[str, str]
    title: dict[str, str] | None = None
    referenced_by: tuple[str, ...] = ()

    def label(self, lang: str = "en") -> str:
        return (self.title or {}).get(lang) or self.id


class ClauseIndex:
    """Clause units by id, in document order."""

    def __init__(self, entries: list[ClauseEntry], edition: str = "") -> None:
        self.entries = {e.id: e for e in sorted(entries, key=lambda e: clause_key(e.id))}
        self.edition = edition

    def __contains__(self, cid: str) -> bool:
        return cid in self.entries

    def __iter__(self):
        return iter(self.entries.values())

    def __len__(self) -> int:
        return len(self.entries)

    def get(self, cid: str) -> ClauseEntry | None:
        return self.entries.get(cid)

    def status(self, cid: str) -> str | None:
        e = self.entries.get(cid)
        return e.status if e else None

    def needs_assumption(self, cid: str) -> bool:
        """Citing a clause whose text is not (fully) in the excerpts needs an assumption."""
        return self.status(cid) in ("referenced", "partial")

    def summary(self, cid: str, lang: str = "en") -> str:
        e = self.entries.get(cid)
        return e.summary.get(lang, e.summary.get("en", "")) if e else ""

    def suggest(self, cid: str) -> str | None:
        close = difflib.get_close_matches(cid, list(self.entries), n=1, cutoff=0.6)
        return close[0] if close else None

    @staticmethod
    def covers(outer: str, inner: str) -> bool:
        """Does citing ``outer`` include ``inner`` (equal, or ``inner`` lies inside ``outer``)?"""
        cur: str | None = inner
        while cur is not None:
            if cur == outer:
                return True
            cur = parent_of(cur)
        return False

    def units_under(self, cid: str) -> list[str]:
        return [u for u in self.entries if self.covers(cid, u)]

    def compare_with_text(self, text: RulesText) -> tuple[list[str], list[str]]:
        """(units in the text but not in the index, available units of the index not in the text)."""
        new = [u for u in text.units if u not in self.entries]
        missing = [e.id for e in self if e.status == "available" and e.kind != "section"
                   and e.id not in text.units]
        return new, missing


@lru_cache(maxsize=1)
def default_index() -> ClauseIndex:
    """The index shipped with ruleproof (РП 4.1-2 excerpts)."""
    raw = resources.files("ruleproof.model").joinpath("data/clauses.yaml").read_text("utf-8")
    data = yaml.safe_load(raw)
    entries = [
        ClauseEntry(id=str(cid), kind=e["kind"], status=e["status"], summary=dict(e["summary"]),
                    title=dict(e["title"]) if e.get("title") else None,
                    referenced_by=tuple(e.get("referenced_by", ())))
        for cid, e in data["units"].items()
    ]
    return ClauseIndex(entries, data.get("edition", ""))
