"""The state fields the vocabulary's meanings read and write, as both engines hold them.

A field is one fact of the game state with two forms: where the interpreter keeps it (an attribute
of the executing :class:`~ruleproof.model.state.Action`, of the acting card or of the state) and
the bit-vector variable(s) of the Z3 model's vector (:mod:`.symbolic`) — this table is the
abstraction of each, stated once.  ``kind`` says how a value of one is a value of the other:

* ``bool`` (a flag, one bit), ``code`` (a Python value and its number, ``codes``), ``counter`` (a
  count the vector saturates at its width), ``count`` (a tuple the vector holds as its length);
* ``die`` (a die value or None, 0 in the vector), ``rolls`` (the dice rolled: the vector holds the
  last one, as a ``die``), ``opt`` (a number or None: the vector holds the number and a
  ``<name>_set`` bit);
* a **collection** the vector holds as a summary (``dice_mods``, ``xs``, ``reserved``, ``paid``,
  ``modifications``, ``cards``): the evaluators of :mod:`.algebra` give the operations on it
  (push a dice modifier, fix the X of a kind, …) in both forms;
* ``concrete``: only the interpreter holds it (``var`` False; the Z3 model abstracts it away).

``part``: the field belongs to one part of a compound feature and starts afresh with the next one
(512.6.6/b4; :meth:`~ruleproof.model.state.Action.next_part` keeps the others).

>>> from ruleproof.model.menu import menu_world, world_state
>>> s = world_state(menu_world(lambda d: d[0], lambda: False))
>>> FIELDS["legal"].get(s), FIELDS["src_in_zone"].get(s), FIELDS["raw_die"].get(s)
(None, True, None)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .menu import COST_ENTRIES, X_KINDS_SYM
from .state import evolve

#: how the vector holds the action's legality (None: not checked yet)
LEGAL = {None: 0, True: 1, False: 2}
#: how the vector holds the action's status
STATUS_CODES = {"pending": 0, "hit": 1, "miss": 2, "blocked": 3, "illegal": 4}

__all__ = ["LEGAL", "STATUS_CODES", "Field", "FIELDS", "CARD_VARS", "SUMMARY_VARS", "summary", "x_facts", "apply", "setter", "resolve", "card_value"]


@dataclass(frozen=True)
class Field:
    name: str  # the vector variable's name, when the model has one
    kind: str  # bool | code | counter | count | die | rolls | opt | a collection | concrete
    where: str  # action | source (the acting card) | state
    attr: str  # the attribute there ("*": the value is a dict of the action's attributes)
    codes: dict | None = None
    var: bool = True  # the Z3 model holds it (a variable of this name)
    part: bool = False  # reset for the next part of a compound feature
    initial: object = None  # its value when an action (or a part) begins

    def get(self, s):
        if self.where == "action":
            return getattr(s.action, self.attr)
        if self.where == "source":
            return getattr(s.card(s.action.source), self.attr)
        return getattr(s, self.attr)

    def code(self, value) -> int:
        """The vector's number for a value of this field."""
        if self.kind == "code":
            assert self.codes is not None, f"the code field {self.name} has its codes"
            return self.codes[value]
        if self.kind == "die" or self.kind == "opt":
            return 0 if value is None else value
        if self.kind == "rolls":
            return value[-1] if value else 0
        if self.kind == "count":
            return len(value)
        return int(value)


def _f(name, kind, where, attr, **kw) -> Field:
    return Field(name, kind, where, attr, **kw)


FIELDS: dict[str, Field] = {f.name: f for f in (
    # the action, part by part
    _f("part", "counter", "action", "declared", initial=0),
    _f("parts_left", "counter", "action", "parts_left"),
    _f("legal", "code", "action", "legal", codes=LEGAL, part=True),
    _f("legality_checks", "counter", "action", "legality_checks", part=True, initial=0),
    _f("status", "code", "action", "status", codes=STATUS_CODES, part=True, initial="pending"),
    _f("blocked", "bool", "action", "blocked", part=True, initial=False),
    _f("last_roll", "rolls", "action", "die_rolls", part=True, initial=()),
    _f("raw_die", "die", "action", "die_raw", part=True),
    _f("dice_mods", "dice_mods", "action", "dice_mods", var=False, part=True, initial=()),
    _f("dice_mods_applied", "bool", "action", "dice_mods_applied", part=True, initial=False),
    _f("final_die", "opt", "action", "die_final", part=True),
    _f("die_off_table", "bool", "action", "die_off_table", part=True, initial=False),
    _f("die_on_stack", "bool", "action", "die_effect_on_stack", part=True, initial=False),
    _f("return_strike", "bool", "action", "return_strike", part=True, initial=False),
    _f("reduced", "bool", "action", "reduced", part=True, initial=False),
    _f("magnitude_known", "bool", "action", "magnitude_known", part=True, initial=False),
    _f("effect_applied", "bool", "action", "effect_applied", part=True, initial=False),
    _f("roles_released", "bool", "action", "roles_released", part=True, initial=False),
    # the whole action
    _f("resources_ok", "code", "action", "resources_ok", codes=LEGAL),
    _f("use_void", "bool", "action", "use_void", initial=False),
    _f("xs", "xs", "action", "xs", var=False),
    _f("reserved", "reserved", "action", "reserved", var=False),
    _f("reserved_done", "bool", "action", "reserved_done"),
    _f("paid", "paid", "action", "paid", var=False),
    _f("paid_done", "bool", "action", "paid_done"),
    _f("modifications", "modifications", "action", "modifications", var=False),
    _f("on_stack", "bool", "action", "on_stack"),
    # the acting card
    _f("src_markers", "counter", "source", "action_markers"),
    _f("src_in_zone", "bool", "source", "in_active_zone"),
    _f("uses", "concrete", "source", "uses", var=False),
    # the state
    _f("claims", "count", "state", "claims"),
    _f("cards", "cards", "state", "cards", var=False),
    _f("action", "concrete", "state", "action", var=False),
    # what the model abstracts away
    *[_f(n, "concrete", "action", a, var=False) for n, a in (
        ("magnitude_final", "magnitude_final"), ("magnitude_base", "magnitude_base"), ("feature", "feature"),
        ("source", "source"), ("mag_mods", "mag_mods"), ("reduce_to", "reduce_to"), ("prevented", "prevented"),
        ("fired", "fired"), ("strike", "*"), ("magnitude", "*"))],
)}

#: (card role, card attribute) -> the vector variable that holds it (the other cards' values and
#: attributes are abstracted away); an attribute is a Card field, ("modifier", property) or
#: ("resource", name)
CARD_VARS: dict[tuple, str] = {
    ("src", "closed"): "src_closed", ("def", "closed"): "def_closed", ("src", "in_active_zone"): "src_in_zone",
    ("tgt", "in_active_zone"): "tgt_in_zone",
    ("src", ("modifier", "movement")): "src_movement_mod", ("src", ("resource", "crystal")): "src_crystals",
    ("def", "wounds"): "def_wounds", ("src", "action_markers"): "src_markers",
}


#: collection kind -> the vector variables that summarise it (``xs``: per X kind, see :func:`summary`)
SUMMARY_VARS: dict[str, tuple[str, ...]] = {
    "dice_mods": ("dice_const", "dice_x_count", "dice_mods_declared"),
    "modifications": ("modified_src", "modified_def", "waived_src", "cond_def"),
    "reserved": ("reserved", "reserved_crystals"),
    "paid": ("paid",),
}


def _entry_bits(entries) -> int:
    """The cost entries present, one bit each in the order of the menu's COST_ENTRIES."""
    keys = {(c, r) for c, r, *_ in entries}
    return sum(1 << i for i, (c, r, _, _) in enumerate(COST_ENTRIES) if (c, r) in keys)


def x_facts(s, k: str) -> dict[str, int]:
    """The vector's facts of the X of kind ``k``: declared, fixed, fixed at a value that is not the
    printed one (542.6); for a dice modifier's X, its value."""
    a = s.action
    xv = next((x for x in a.xs if x.kind == k), None)
    value = None if xv is None else xv.value
    fixed = value is not None
    np = 0
    if xv is not None and value is not None and xv.compute and xv.compute[0] == "property":
        card = s.card(resolve(s, xv.compute[1], xv.owner or a.source))
        np = int(value != card.printed_value(xv.compute[2]))
    out = {f"x_{k}_declared": int(xv is not None), f"x_{k}_fixed": int(fixed), f"x_{k}_not_printed": np}
    if k == "dice_modifier":
        out["dice_x_value"] = (value if value is not None else 0) & 0xFF
    return out


def _x_summary(s) -> dict[str, int]:
    """Per X kind, :func:`x_facts`."""
    out: dict[str, int] = {}
    for k in X_KINDS_SYM:
        out.update(x_facts(s, k))
    return out


def _dice_summary(s) -> dict[str, int]:
    const, n = 0, 0
    for mode, amount in s.action.dice_mods:
        if isinstance(amount, int):
            const += amount if mode == "add" else -amount
        else:
            n += 1
    return {"dice_const": const & 0xFF, "dice_x_count": min(n, 3), "dice_mods_declared": int(bool(s.action.dice_mods))}


def _card_summary(s) -> dict[str, int]:
    """The card attributes of CARD_VARS (the defender's only when there is one)."""
    out = {}
    for (role, attr), var in CARD_VARS.items():
        try:
            card = s.card(role)
        except KeyError:
            out[var] = 0
            continue
        v = card_value(card, attr)
        out[var] = min(v, 15) if attr == "wounds" else int(v) & 0xFF  # the vector's 4 bits of wounds
    return out


def summary(s) -> dict[str, int]:
    """The vector variables that summarise the collections of a concrete state (the other half of
    the abstraction: the fields of FIELDS are read one by one)."""
    a = s.action
    mods = {(m.card, r) for m in a.modifications for r in m.resources}
    return {**_x_summary(s), **_dice_summary(s), **_card_summary(s),
            "reserved": _entry_bits(a.reserved), "reserved_crystals": next((n for c, r, n in a.reserved if r == "crystal"), 0),
            "paid": _entry_bits(a.paid),
            "modified_src": int(("src", "close") in mods), "modified_def": int(("def", "close") in mods),
            "waived_src": int(any(m.card == "src" and not m.action_marker for m in a.modifications)),
            "cond_def": int(("def", "close") in mods and all(m.condition for m in a.modifications
                                                               if m.card == "def" and "close" in m.resources))}


def resolve(s, ref: str, owner: str | None = None) -> str:
    """The card a feature's text names: ``self`` (its ``owner``), ``source``, ``target``, ``defender``
    or a card id."""
    a = s.action
    if ref == "self":
        return owner or ref
    if ref == "source":
        return a.source
    if ref == "target":
        return a.targets[0] if a.targets else ref
    if ref == "defender":
        return a.defender or ref
    return ref


_PAIRS = {"modifier": "modifiers", "resource": "resources"}  # a card attribute ("modifier", p) -> the pairs holding it


def card_value(card, attr):
    """A card attribute: a Card field, or ("modifier", property) / ("resource", name) (0 if absent)."""
    if isinstance(attr, tuple):
        which, name = attr
        return dict(getattr(card, _PAIRS[which])).get(name, 0)
    return getattr(card, attr)


def _set_card_attr(card, attr, value):
    if isinstance(attr, tuple):
        which, name = attr
        pairs = dict(getattr(card, _PAIRS[which]))
        pairs[name] = value
        return evolve(card, **{_PAIRS[which]: tuple(sorted(pairs.items()))})
    return evolve(card, **{attr: value})


@lru_cache(maxsize=None)
def setter(keys: tuple):
    """A compiled :func:`apply` for changes to the fields ``keys`` (in that order): ``(state, values,
    owner) -> state`` (the interpreter's hot path: the keys are sorted out once)."""
    on_state: list[tuple[int, str]] = []
    on_source: list[tuple[int, str]] = []
    on_cards: list[tuple[int, str, str]] = []
    on_action: list[tuple[int, str]] = []
    spread: list[int] = []
    for i, name in enumerate(keys):
        if isinstance(name, tuple):
            on_cards.append((i, name[1], name[2]))
            continue
        f = FIELDS[name]
        if f.attr == "*":
            spread.append(i)
        else:
            {"action": on_action, "source": on_source, "state": on_state}[f.where].append((i, f.attr))

    def set_(s, vals, owner=None):
        if on_state:
            s = evolve(s, **{attr: vals[i] for i, attr in on_state})
        if on_source:
            s = s.with_card(evolve(s.card(s.action.source), **{attr: vals[i] for i, attr in on_source}))
        for i, ref, attr in on_cards:
            if vals[i] is None:  # a card the action lacks (no defender): nothing to set (no card attribute is None)
                continue
            s = s.with_card(_set_card_attr(s.card(resolve(s, ref, owner)), attr, vals[i]))
        if on_action or spread:
            action = s.action
            # only the values that are not already there (the same object): an update that changes
            # nothing keeps the state, and its cached hash
            changes = {attr: vals[i] for i, attr in on_action if getattr(action, attr) is not vals[i]}
            for i in spread:
                changes.update(vals[i])
            if changes:
                s = evolve(s, action=evolve(action, **changes))
        return s
    return set_


def apply(s, changes: dict, owner: str | None = None):
    """The state ``s`` with the fields ``changes`` names set: the whole state's fields first, then the
    acting card's, the cards a key ``("card", ref, attr)`` names (``ref`` resolved with ``owner``),
    then the action's."""
    keys = tuple(changes)
    return setter(keys)(s, tuple(changes.values()), owner)
