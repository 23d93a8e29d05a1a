"""The shape of a rulebook file (pydantic).  Meaning is checked in :mod:`.rulebook`.

A rulebook (YAML)::

    format: ruleproof-rulebook/1
    id: berserk-rp-4.1-2
    title: {ru: …, en: …}
    edition: "РП 4.1-2 от 09.11.2024"
    start: declaration
    assumptions:
      A-die-roll: {about: ["306"], statement: {ru, en}, reason: {ru, en}}
    steps:
      dice:
        kind: dice
        name: {ru: Шаг броска кубика, en: Dice step}
        cites: ["512.6.2"]
        assumes: [A-die-roll]
        operations:
          - {op: roll_die, cites: ["512.6.2/b1"], assumes: [A-die-roll]}
          - {op: window, id: reroll, first: active_player, allows: [reroll], cites: ["512.6.2/b2"]}
        next:
          - {to: calculation, cites: ["512.6.2/b5"]}
"""

from __future__ import annotations

from functools import cached_property
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

__all__ = ["Text", "TableSpec", "AssumptionSpec", "OperationSpec", "EdgeSpec", "StepSpec", "PatchStep", "ReadingSpec",
           "RulebookSpec", "FORMAT"]

FORMAT = "ruleproof-rulebook/1"


def _as_written(value: Any) -> Any:
    """Numbers keep their source text: an unquoted 540.3 is the clause id '540.3'."""
    raw = getattr(value, "raw", None)
    if raw is not None:
        return raw
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return value


Word = Annotated[str, BeforeValidator(_as_written)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Text(_Strict):
    ru: str
    en: str


class AssumptionSpec(_Strict):
    about: list[Word] = Field(default_factory=list)
    statement: Text
    reason: Text


class _Cited(_Strict):
    cites: list[Word] = Field(default_factory=list)
    assumes: list[Word] = Field(default_factory=list)
    note: Text | None = None


class OperationSpec(_Cited):
    """``op`` names the operation; other keys are its parameters (checked against the vocabulary)."""

    model_config = ConfigDict(extra="allow", frozen=True)
    op: Word
    when: Word = "always"

    @cached_property
    def params(self) -> dict[str, Any]:
        """The operation's parameters (read-only: computed once, shared by every run)."""
        return dict(self.model_extra or {})


class EdgeSpec(_Cited):
    to: Word
    when: Word = "always"


class StepSpec(_Cited):
    kind: Word
    name: Text
    operations: list[OperationSpec] = Field(default_factory=list)
    next: list[EdgeSpec] = Field(default_factory=list)


class TableSpec(_Cited):
    rows: dict[Word, Any]


class PatchStep(_Strict):
    """One step of a reading's patch: a JSON Patch (RFC 6902) operation on the rulebook's data;
    ``path`` and ``from`` are JSON Pointers such as ``/steps/payment/operations/1``."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    op: Literal["add", "remove", "replace", "move", "copy", "test"]
    path: str
    value: Any = None
    from_: str | None = Field(default=None, alias="from")


class ReadingSpec(_Strict):
    """An alternative reading (:mod:`.readings`): ``of`` the assumption it replaces, ``about`` the
    clauses it reads otherwise (at least one of the two), what it says, and its patch."""

    of: Word | None = None
    about: list[Word] = Field(default_factory=list)
    statement: Text
    patch: list[PatchStep] = Field(min_length=1)


class RulebookSpec(_Strict):
    format: Word
    id: Word
    title: Text
    edition: str = ""
    start: Word
    assumptions: dict[str, AssumptionSpec] = Field(default_factory=dict)
    tables: dict[str, TableSpec] = Field(default_factory=dict)
    steps: dict[str, StepSpec]
    readings: dict[str, ReadingSpec] = Field(default_factory=dict)
