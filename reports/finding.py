"""The one result type every engine produces.  Engines never format text; writers do.

A :class:`Finding` says what was found (``kind``, ``verdict``), by which ``check`` and ``engine``,
which clauses it rests on (ids only: the clause text is looked up when a report is written, through
a ``clause_text(cid, lang)`` callable, so the official wording is quoted when a rules text is given),
where in the input, the counterexample ``trace`` with the offending events (``highlight``), what
replays it (``replay`` command, ``seed``, ``scenario`` file) and the ``assumptions`` it depends on.

>>> f = Finding(kind="structure", check="S3-order", verdict=Verdict.VIOLATED, engine="graph",
...             clauses=("512.6.1",), message={"ru": "порядок нарушен", "en": "order broken"},
...             element="edge dice → blocking", where="draft.yaml:40:9")
>>> f.text("en"), f.failed, f.inconclusive
('order broken', True, False)
>>> f.element_text("ru")
'переход dice → blocking'
>>> r = CheckResult("S3-order", ("512.6.1",), {"ru": "порядок", "en": "order"}, "graph", (f,))
>>> r.holds, str(r.verdict)
(False, 'violated')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ruleproof.ground.i18n import t
from ruleproof.ground.verdicts import Verdict

__all__ = ["Finding", "CheckResult", "Verdict", "KINDS", "VERDICTS", "INCONCLUSIVE", "ENGINES", "WITHIN_MENU"]

#: a Z3 proof over worlds that leave out a combination the rulebook admits (model/universe.py): the verdict
#: ``prove`` reports and the prefix of the Z3 check result's note, which the reports and ``diff`` read
WITHIN_MENU = "proved within the menu"

#: what a finding is about
KINDS = ("structure", "property", "vacuous", "not_exercised", "conflict", "ruling", "ruling_property", "unknown",
         "coverage", "conformance")


VERDICTS = tuple(Verdict)
INCONCLUSIVE = (Verdict.UNKNOWN, Verdict.TIMEOUT, Verdict.ERROR)
#: the engines that produce findings
ENGINES = ("graph", "interpreter", "hypothesis", "exhaustive", "z3", "coverage", "conformance")


@dataclass(frozen=True)
class Finding:
    """Something an engine found: what, where in the rules, where in the input, and on what it rests.

    Construct with keyword arguments.  ``trace`` is a tuple of event dicts as
    :func:`ruleproof.reports.trace.trace_to_json` makes them (seq, step, op, clauses, assumes, rule,
    values and the state ``diff`` against the previous event)."""

    kind: str
    check: str
    verdict: Verdict
    engine: str
    clauses: tuple[str, ...]
    message: dict[str, str]
    element: str = ""
    where: str | None = None
    assumptions: tuple[str, ...] = ()
    replay: str | None = None  # the command that replays it
    trace: tuple[dict, ...] = ()  # the counterexample, as event dicts
    highlight: tuple[int, ...] = ()  # the offending events' seq numbers
    seed: int | None = None  # the seed the replay command uses (Hypothesis)
    scenario: str | None = None  # a scenario file that replays it (rulings, saved counterexamples)

    def __post_init__(self) -> None:
        # a verdict read back from JSON (a cached run, a saved report) is a string: held as the member
        # it names, and a word that is none is refused here, not printed
        object.__setattr__(self, "verdict", Verdict(self.verdict))

    def text(self, lang: str = "en") -> str:
        return self.message.get(lang) or self.message.get("en", "")

    def element_text(self, lang: str = "en") -> str:
        """``element`` for a reader: its kind words (step, edge, op, …) in the reader's language; the
        ids stay as the rulebook spells them."""
        if lang == "en" or not self.element:
            return self.element

        return _ELEMENT_WORD.sub(lambda m: t(f"el_{m.group(1)}", lang), self.element)

    @property
    def failed(self) -> bool:
        return self.verdict != Verdict.HOLDS

    @property
    def violated(self) -> bool:
        return self.verdict == Verdict.VIOLATED

    @property
    def inconclusive(self) -> bool:
        return self.verdict in INCONCLUSIVE

    @property
    def path(self) -> list[str]:
        """The steps the trace visited, in order (its ``enter`` events): the path in the phase graph."""
        return [e["values"].get("step", e["step"]) for e in self.trace if e.get("op") == "enter"]


#: the kind words engines put in ``element`` ("step payment / op 1 fix_x", "world spell/…", "events #5")
_ELEMENT_WORD = re.compile(r"\b(step|edge|op|window|world|events|depth|clause)\b(?= )")


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one named check: what it covers and the findings it produced."""

    check: str
    clauses: tuple[str, ...]
    statement: dict[str, str]
    engine: str
    findings: tuple[Finding, ...] = field(default_factory=tuple)
    note: str = ""  # e.g. "500 examples"
    # the check's own time, where the engine measures one per check (a ruling, a proof, a structural
    # check); None where one pass decides many checks at once (exhaustive, Hypothesis, consistency)
    seconds: float | None = None
    # the alternative readings of the rulebook under which the check comes out otherwise (their ids,
    # with the assumption each replaces: "R-x (A-y)"); () none does; None: not asked
    depends_on: tuple[str, ...] | None = None

    @property
    def holds(self) -> bool:
        return not any(f.failed for f in self.findings)

    @property
    def verdict(self) -> Verdict:
        """``violated`` if a finding is, else ``unknown`` if one is inconclusive, else ``holds``."""
        if any(f.violated or (f.failed and not f.inconclusive) for f in self.findings):
            return Verdict.VIOLATED
        if any(f.inconclusive for f in self.findings):
            return Verdict.UNKNOWN
        return Verdict.HOLDS
