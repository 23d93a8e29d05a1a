"""Compare two versions of a rules text and find the model elements that cite what changed.

>>> from ruleproof.model.rules_text import parse_rules_text
>>> old = parse_rules_text([("old.txt", "542.2. X фиксируется при объявлении.\\n● первый")])
>>> new = parse_rules_text([("new.txt", "542.2. X фиксируется при оплате.\\n● первый")])
>>> diff_texts(old, new)
TextDiff(changed=['542.2'], added=[], removed=[])
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from .clauses import ClauseIndex
from .rulebook import Citation
from .rules_text import RulesText, clause_key

__all__ = ["TextDiff", "diff_texts", "citing"]


@dataclass(frozen=True)
class TextDiff:
    changed: list[str]
    added: list[str]
    removed: list[str]

    @property
    def all(self) -> list[str]:
        return sorted(self.changed + self.added + self.removed, key=clause_key)


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def diff_texts(old: RulesText, new: RulesText) -> TextDiff:
    """Units whose wording differs (whitespace ignored), and units only in one version."""
    changed = [u for u in old.units if u in new.units and _norm(old.units[u].text) != _norm(new.units[u].text)]
    added = [u for u in new.units if u not in old.units]
    removed = [u for u in old.units if u not in new.units]
    return TextDiff(changed, added, removed)


def citing(unit: str, citations: Iterable[Citation]) -> list[Citation]:
    """Elements whose citation includes ``unit``: they cite it or a clause that contains it."""
    return [c for c in citations if any(ClauseIndex.covers(cid, unit) for cid in c.clauses)]
