"""The scenario format as the loader reads it: pydantic models of a ruling file (its world, action, responses,
expectations and cases)."""

from __future__ import annotations

import re
from functools import cache
from typing import Annotated, Any, Literal, get_args, get_type_hints

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from ..schema import Text, Word
from ..state import Action

FORMAT = "ruleproof-scenario/1"


#: a number of things on a card (wounds, markers, resources, uses, a printed value): never below 0
Count = Annotated[int, Field(ge=0)]


#: how many of something that must happen at least once (parts of a compound feature, a per-turn limit)
Positive = Annotated[int, Field(ge=1)]


#: the Russian words a judge writes for true and false (any case); true/false, yes/no are YAML's own
FLAG_WORDS = {"да": True, "нет": False}


def _flag(value: Any) -> Any:
    """A yes/no as written: да/нет (any case, spaces around) are true/false; anything else is read as
    pydantic reads a bool (true/false, yes/no, 1/0; a word it does not know is an error)."""
    if isinstance(value, str) and value.strip().casefold() in FLAG_WORDS:
        return FLAG_WORDS[value.strip().casefold()]
    return value


#: true or false, also written да or нет
Flag = Annotated[bool, BeforeValidator(_flag)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


#: the kinds of game action (an action's ``kind``; a use's, 540.1.3)
ActionKind = Literal["simple_strike", "attack", "spell", "effect"]


class UseSpec(_Strict):
    """The uses this turn of a feature the scenario does not declare (540.1.3): the kind of game action it
    was declared as, and how many times («Может атаковать X раз за ход» counts the card's attacks,
    whichever feature declared them)."""

    kind: ActionKind
    times: Count


class EffectSpec(_Strict):
    do: Literal["heal", "wound", "leave_zone", "add_modifier", "close", "lose_resource", "lose_markers"]
    card: Word
    amount: Count = 0
    prop: Word = ""


class FeatureSpec(_Strict):
    id: Word
    kind: Word
    text: str = ""
    mode: Literal["", "add", "sub", "set"] = ""
    amount: int | None = None
    x: tuple[Word, Word, Word] | None = None
    condition: tuple[Word, Word, int] | None = None
    strength: Literal["", "weak", "medium", "strong"] = ""
    trigger: Literal["", "strike", "assault"] = ""
    on_status: Literal["any", "hit", "miss", "blocked", "illegal"] = "any"
    on: Literal["payment", "acts", "closes_after"] = "payment"
    effects: list[EffectSpec] = Field(default_factory=list)
    then_if_healthy: list[Word] = Field(default_factory=list)
    resources: list[Word] = Field(default_factory=list)
    modifies: Word = "source"
    form: Literal["stays_open", "closes_only_after_assault", "per_turn"] = "stays_open"
    limit: Positive | None = None
    times: Positive | None = None
    applies_to: list[ActionKind] = Field(default_factory=lambda: list(get_args(ActionKind)))
    action_marker: Flag = True
    on_die: list[int] = Field(default_factory=list)


class CardSpec(_Strict):
    name: str
    controller: Literal["A", "B"]
    printed: dict[Word, Count] = Field(default_factory=dict)
    modifiers: dict[Word, int] = Field(default_factory=dict)
    wounds: Count = 0
    closed: Flag = False
    action_markers: Count = 0
    in_active_zone: Flag = True
    resources: dict[Word, Count] = Field(default_factory=dict)
    # this turn's uses by feature (540.1.3): a number for a feature the scenario declares (its action's kind),
    # {kind, times} for another
    uses: dict[Word, Count | UseSpec] = Field(default_factory=dict)
    features: list[FeatureSpec] = Field(default_factory=list)


class CostSpec(_Strict):
    card: Word
    resource: Word
    amount: Word = "1"


class XSpec(_Strict):
    name: Word
    kind: Word
    chosen: int | None = None
    compute: tuple[Word, Word, Word] | None = None


def _number_or_name(value: Any) -> Any:
    """A magnitude as written: a number stays a number — quoted too, as a card's numbers are read —
    anything else is a name (of an X)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*\d+\s*", value):
        return int(value)
    return getattr(value, "raw", value)


Magnitude = Annotated[int | str, BeforeValidator(_number_or_name)]


class ActionSpec(_Strict):
    feature: Word
    kind: ActionKind
    source: Word
    targets: list[Word] = Field(default_factory=list)
    defender: Word | None = None
    effect: Literal["damage", "heal"] = "damage"
    needs_magnitude: Flag = True
    magnitude: Magnitude | None = None  # a number, or the name of a cost-X (a bare X, 542.2)
    cost: list[CostSpec] = Field(default_factory=list)
    xs: list[XSpec] = Field(default_factory=list)
    parts: Positive = 1


class ResponseSpec(_Strict):
    window: Word
    player: Literal["A", "B"]
    play: Word


# What a game action must end with.  A value of a field whose type is known (a card's, an X's, the action's)
# is read as the scenario's cards are: «да»/«нет» as true/false, a quoted number as a number
# (read_expected); the loader refuses one that cannot be read so (check.py).  (A comment, not a docstring:
# the JSON Schema would carry a docstring as the model's description.)
class ExpectSpec(_Strict):
    outcome: Literal["completed", "deadlock", "step_limit", "out_of_choices"] = "completed"
    cards: dict[Word, dict[Word, Any]] = Field(default_factory=dict)
    action: dict[Word, Any] = Field(default_factory=dict)
    x: dict[Word, dict[Word, Any]] = Field(default_factory=dict)
    events: list[dict[Word, Any]] = Field(default_factory=list)
    no_events: list[dict[Word, Any]] = Field(default_factory=list)
    order: list[dict[Word, Any]] = Field(default_factory=list)  # events that happen in this order (others between)
    visited: list[Word] | None = None
    unused: list[Word] = Field(default_factory=list)  # scripted plays the rules must NOT offer
    properties: list[Word] = Field(default_factory=list)  # catalogue properties that must hold on the trace

    @model_validator(mode="before")
    @classmethod
    def _read_values(cls, data: Any) -> Any:
        """Each value of a known field as its type reads it (one that cannot be read is left as written,
        for the loader's located error)."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        for section in ("cards", "x"):
            if isinstance(data.get(section), dict):
                data[section] = {k: ({f: _try_read(section, f, v) for f, v in fields.items()}
                                     if isinstance(fields, dict) else fields)
                                 for k, fields in data[section].items()}
        if isinstance(data.get("action"), dict):
            data["action"] = {f: _try_read("action", f, v) for f, v in data["action"].items()}
        return data


class FollowSpec(_Strict):
    """A further game action in the same turn: it starts from the cards as the action before left
    them (wounds, closed, action markers, per-turn uses), with its own dice, responses and expectations."""

    action: ActionSpec
    dice: list[int] = Field(default_factory=list)
    responses: list[ResponseSpec] = Field(default_factory=list)
    expect: ExpectSpec = Field(default_factory=ExpectSpec)


class CardPatch(_Strict):
    """What a case changes in a card of the file's world (any field left out stays as the world has it)."""

    printed: dict[Word, Count] | None = None
    modifiers: dict[Word, int] | None = None
    wounds: Count | None = None
    closed: Flag | None = None
    action_markers: Count | None = None
    in_active_zone: Flag | None = None
    resources: dict[Word, Count] | None = None
    uses: dict[Word, Count | UseSpec] | None = None
    features: list[FeatureSpec] | None = None


class CaseSpec(_Strict):
    """One case of a ruling file with several: the file's world and action, changed where the case says,
    with its own expectations.  ``clauses`` adds to the file's."""

    id: Word
    title: Text | None = None
    clauses: list[Word] = Field(default_factory=list)
    cards: dict[Word, CardPatch] = Field(default_factory=dict)
    action: ActionSpec | None = None
    dice: list[int] | None = None
    responses: list[ResponseSpec] | None = None
    expect: ExpectSpec
    then: list[FollowSpec] | None = None


class ScenarioSpec(_Strict):
    format: Word
    id: Word
    title: Text
    source: str
    clauses: list[Word]
    assumptions: list[Word] = Field(default_factory=list)
    cards: dict[Word, CardSpec]
    action: ActionSpec
    dice: list[int] = Field(default_factory=list)
    responses: list[ResponseSpec] = Field(default_factory=list)
    expect: ExpectSpec | None = None  # required unless the file has cases (then each case has its own)
    then: list[FollowSpec] = Field(default_factory=list)  # further actions in the same turn, in order
    cases: list[CaseSpec] = Field(default_factory=list)  # several rulings on one world, each with its expect
    provenance: dict[Word, Any] = Field(default_factory=dict)  # a saved counterexample's origin


_CARD_FIELDS = ("closed", "wounds", "action_markers", "can_move", "in_active_zone", "healthy", "resources")


_X_FIELDS = ("value", "fixed_at", "fixes")


#: the keys a case may give (its own ``expect``; the others replace the file's)
_CASE_KEYS = ("action", "dice", "responses", "expect", "then", "title")


#: the type of each field an ``expect`` names, by section (``cards``, ``x``, ``action``): the action's from
#: :class:`~..state.Action` (a bool, a number, a word, each maybe absent); a field not named here is compared
#: as written
_EXPECTED_TYPES: dict[str, dict[str, Any]] = {
    "cards": {"closed": Flag, "can_move": Flag, "in_active_zone": Flag, "healthy": Flag, "wounds": Count,
              "action_markers": Count, "resources": dict[Word, Count]},
    "x": {"value": int | None, "fixed_at": Word | None, "fixes": Count},
}

#: an Action field's type -> how an expectation of it is read
_ACTION_READS: dict[Any, Any] = {bool: Flag, bool | None: Flag | None, int: int, int | None: int | None, str: Word,
                                 str | None: Word | None}


@cache
def _reader(section: str, key: str) -> TypeAdapter | None:
    tp: Any
    if section == "action":
        tp = _ACTION_READS.get(get_type_hints(Action).get(key))
    else:
        tp = _EXPECTED_TYPES.get(section, {}).get(key)
    return TypeAdapter(tp) if tp is not None else None


def read_expected(section: str, key: str, value: Any) -> Any:
    """An expected value of field ``key`` of ``section`` (cards, x, action) as a scenario's card reads it;
    pydantic's ValidationError when it cannot be read so.  A field of no known type: as written.

    >>> read_expected("cards", "closed", "да"), read_expected("cards", "wounds", "2"), read_expected("x", "value", None)
    (True, 2, None)
    >>> read_expected("action", "legal", "Нет"), read_expected("action", "magnitude_final", "3")
    (False, 3)
    """
    reader = _reader(section, key)
    return value if reader is None else reader.validate_python(value)


def _try_read(section: str, key: str, value: Any) -> Any:
    try:
        return read_expected(section, key, value)
    except ValidationError:
        return value
