"""The verdicts, typed: what a check says (:class:`Verdict`) and what Z3 says of a property
(:class:`ProofVerdict`).  A member is its string (``StrEnum``): JSON, the reports and the exit codes read
it as before, and a word that is no verdict is refused where a finding is made.

>>> Verdict("violated") is Verdict.VIOLATED, f"{ProofVerdict.BOUNDED}"
(True, 'holds to depth k')
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

__all__ = ["ProofVerdict", "ReadingStatus", "Verdict"]


class Verdict(StrEnum):
    """What a finding or a check says: it ``holds``; it is ``violated``; inconclusive (``unknown``: e.g. Z3
    unknown, ``timeout``, ``error``: the engine failed); ``uncovered``: a clause unit no property or ruling
    covers (information, not a verdict on the rules).  A member is its string (JSON and reports print it)."""

    HOLDS = "holds"
    VIOLATED = "violated"
    UNKNOWN = "unknown"
    TIMEOUT = "timeout"
    ERROR = "error"
    UNCOVERED = "uncovered"

    @classmethod
    def overall(cls, verdicts: Iterable[Verdict]) -> Verdict:
        """The verdict of several checks: ``violated`` if one is, else ``unknown`` if one is, else ``holds``.

        >>> str(Verdict.overall([Verdict.HOLDS, Verdict.UNKNOWN])), str(Verdict.overall([]))
        ('unknown', 'holds')
        """
        seen = set(verdicts)
        return cls.VIOLATED if cls.VIOLATED in seen else cls.UNKNOWN if cls.UNKNOWN in seen else cls.HOLDS


class ProofVerdict(StrEnum):
    """What Z3 says of a property: ``proved`` (every game of the worlds), ``violated`` (a counterexample),
    ``holds to depth k`` (no counterexample up to a depth: bounded, not a proof) or ``unknown``."""

    PROVED = "proved"
    VIOLATED = "violated"
    BOUNDED = "holds to depth k"
    UNKNOWN = "unknown"


class ReadingStatus(StrEnum):
    """What an alternative reading does to a rulebook (most telling first): it changes a verdict, a ruling or a
    conflict (``material``); it changes nothing, Z3 proving every property on both (``immaterial-proved``);
    or nothing within the engines' bounds (``immaterial-bounded``: inconclusive)."""

    MATERIAL = "material"
    IMMATERIAL_PROVED = "immaterial-proved"
    IMMATERIAL_BOUNDED = "immaterial-bounded"
