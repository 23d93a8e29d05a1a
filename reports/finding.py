"""The one result type every engine produces.  Engines never format text; writers do.

>>> f = Finding(kind="structure", check="S3-order", verdict="violated", engine="graph",
...             clauses=("512.6.1",), message={"ru": "порядок нарушен", "en": "order broken"},
...             element="edge dice → blocking", where="draft.yaml:40:9")
>>> f.text("en"), f.failed
('order broken', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Finding", "CheckResult", "KINDS", "VERDICTS"]

KINDS = ("structure", "property", "vacuous", "conflict", "ruling", "unknown", "coverage")
VERDICTS = ("holds", "violated", "unknown")


@dataclass(frozen=True)
class Finding:
    """Something an engine found: what, where in the rules, where in the input, and on what it rests."""

    kind: str
    check: str
    verdict: str
    engine: str
    clauses: tuple[str, ...]
    message: dict[str, str]
    element: str = ""
    where: str | None = None
    assumptions: tuple[str, ...] = ()
    replay: str | None = None
    trace: tuple[dict, ...] = ()  # the counterexample, as event dicts (step, clauses, op, values, rule)
    highlight: tuple[int, ...] = ()  # the offending events' seq numbers

    def text(self, lang: str = "en") -> str:
        return self.message.get(lang) or self.message.get("en", "")

    @property
    def failed(self) -> bool:
        return self.verdict != "holds"


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one named check: what it covers and the findings it produced."""

    check: str
    clauses: tuple[str, ...]
    statement: dict[str, str]
    engine: str
    findings: tuple[Finding, ...] = field(default_factory=tuple)
    note: str = ""  # e.g. "500 examples"

    @property
    def holds(self) -> bool:
        return not any(f.failed for f in self.findings)
