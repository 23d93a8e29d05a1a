"""The state fields an operation's meaning reads and writes, as both engines hold them.

A field is one fact of the game state with two forms: where the interpreter keeps it (an attribute
of the executing :class:`~ruleproof.model.state.Action` or of the acting card) and the bit-vector
variable of the same name in the Z3 model's vector (:mod:`.symbolic`).  ``kind`` says how a value
of one is a value of the other: ``bool`` (a flag, one bit), ``code`` (a Python value and its number,
``codes``), ``counter`` (a count that the vector saturates at its width), ``die`` (a die value or
None, 0 in the vector), ``count`` (a tuple the vector holds as its length), ``concrete`` (only
the interpreter holds it: ``var`` False; the Z3 model abstracts it away).

>>> from ruleproof.model.menu import menu_world, world_state
>>> s = world_state(menu_world(lambda d: d[0], lambda: False))
>>> FIELDS["legal"].get(s), FIELDS["src_in_zone"].get(s), FIELDS["raw_die"].get(s)
(None, True, None)
"""

from __future__ import annotations

from dataclasses import dataclass

from .algebra import LEGAL, STATUS_CODES
from .state import evolve

__all__ = ["Field", "FIELDS", "apply"]


@dataclass(frozen=True)
class Field:
    name: str  # also the vector variable's name, when the model has it
    kind: str  # bool | code | counter | die | count | concrete
    where: str  # action | source (the acting card) | state | derived (read only)
    attr: str
    codes: dict | None = None
    var: bool = True  # the Z3 model holds it

    def get(self, s):
        if self.where == "action":
            return getattr(s.action, self.attr)
        if self.where == "source":
            return getattr(s.card(s.action.source), self.attr)
        if self.where == "state":
            return getattr(s, self.attr)
        return _DERIVED[self.attr](s)

    def code(self, value) -> int:
        """The vector's number for a value of this field."""
        if self.kind == "code":
            return self.codes[value]
        if self.kind == "die":
            return 0 if value is None else value
        if self.kind == "count":
            return len(value)
        return int(value)


_DERIVED = {
    "last_roll": lambda s: s.action.die_rolls[-1] if s.action.die_rolls else None,
}

FIELDS: dict[str, Field] = {f.name: f for f in (
    Field("die_on_stack", "bool", "action", "die_effect_on_stack"),
    Field("roles_released", "bool", "action", "roles_released"),
    Field("on_stack", "bool", "action", "on_stack"),
    Field("legal", "code", "action", "legal", LEGAL),
    Field("status", "code", "action", "status", STATUS_CODES),
    Field("legality_checks", "counter", "action", "legality_checks"),
    Field("raw_die", "die", "action", "die_raw"),
    Field("last_roll", "die", "derived", "last_roll"),
    Field("src_markers", "counter", "source", "action_markers"),
    Field("src_in_zone", "bool", "source", "in_active_zone"),
    Field("magnitude_known", "bool", "action", "magnitude_known"),
    Field("resources_ok", "code", "action", "resources_ok", LEGAL),
    Field("effect_applied", "bool", "action", "effect_applied"),
    Field("claims", "count", "state", "claims"),
    Field("cards", "concrete", "state", "cards", var=False),
    Field("magnitude_final", "concrete", "action", "magnitude_final", var=False),
    Field("magnitude_base", "concrete", "action", "magnitude_base", var=False),
    Field("feature", "concrete", "action", "feature", var=False),
    Field("source", "concrete", "action", "source", var=False),
    Field("die_rolls", "concrete", "action", "die_rolls", var=False),
)}


def apply(s, changes: dict[str, object]):
    """The state ``s`` with the fields ``changes`` names set (one new action, one new card at most)."""
    on_action, on_source, on_state = {}, {}, {}
    for name, value in changes.items():
        f = FIELDS[name]
        if f.where == "action":
            on_action[f.attr] = value
        elif f.where == "source":
            on_source[f.attr] = value
        elif f.where == "state":
            on_state[f.attr] = value
        else:
            raise ValueError(f"field {name} is read only")
    if on_state:
        s = evolve(s, **on_state)
    if on_source:
        s = s.with_card(evolve(s.card(s.action.source), **on_source))
    if on_action:
        s = evolve(s, action=evolve(s.action, **on_action))
    return s
