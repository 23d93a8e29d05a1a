"""Game state: immutable, hashable snapshots of the cards and of the one executing game action.

Printed card properties are kept apart from modifiers (542.6 reads printed values).  Everything is
a frozen dataclass of tuples, so a state can be hashed and stored by an explorer, and every change
is a new snapshot (``dataclasses.replace``).

>>> c = Card("serk", "Серк", "B", printed=(("movement", 1),), modifiers=(("movement", 1),))
>>> c.printed_value("movement"), c.current_value("movement")
(1, 2)
>>> s = State(cards=(c,), action=None)
>>> hash(s) == hash(State(cards=(c,), action=None))
True
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .features import Feature
from .hashing import HASH_KEY, cached_hash
from .vocabulary import ATTACKS

__all__ = ["Card", "XVar", "Modification", "Action", "State", "PLAYERS", "other_player", "evolve", "use_key", "use_kind", "use_feature"]

PLAYERS = ("A", "B")  # A is the active player


def other_player(p: str) -> str:
    return "B" if p == "A" else "A"


def use_key(feature: str, kind: str) -> str:
    """The key of a card's per-turn use count (540.1.3): the feature declared and the kind of game action
    it was (a «Может атаковать X раз за ход» counts the card's attacks, whichever feature declared them).

    >>> use_key("twin_strike", "simple_strike"), use_kind("twin_strike@simple_strike")
    ('twin_strike@simple_strike', 'simple_strike')
    """
    return f"{feature}@{kind}"


def use_kind(key: str) -> str:
    """The kind of game action of a use count's key (:func:`use_key`)."""
    return key.rpartition("@")[2]


def use_feature(key: str) -> str:
    """The feature of a use count's key (:func:`use_key`)."""
    return key.rpartition("@")[0]


def evolve(obj, **changes):
    """``dataclasses.replace`` for the frozen records of a run, without its per-call checks (the
    interpreter's and explorer's fast path: a run makes hundreds of thousands of these).  Only
    field names are accepted; there is no ``__post_init__`` to run.

    >>> c = Card("k", "Келе", "A", wounds=2)
    >>> evolve(c, wounds=0).wounds, c.wounds
    (0, 2)
    """
    new = object.__new__(obj.__class__)
    d = new.__dict__
    d.update(obj.__dict__)
    d.update(changes)
    d.pop(HASH_KEY, None)  # a cached hash belongs to the original
    return new


def _get(pairs: tuple[tuple[str, int], ...], key: str, default: int = 0) -> int:
    for k, v in pairs:
        if k == key:
            return v
    return default


def _put(pairs: tuple[tuple[str, int], ...], key: str, value: int) -> tuple[tuple[str, int], ...]:
    return tuple(sorted({**dict(pairs), key: value}.items()))


@cached_hash
@dataclass(frozen=True)
class Card:
    id: str
    name: str
    controller: str
    printed: tuple[tuple[str, int], ...] = ()  # health, movement, strike_weak, strike_medium, strike_strong…
    modifiers: tuple[tuple[str, int], ...] = ()  # modifiers of those properties (e.g. Смотритель стойла)
    wounds: int = 0
    closed: bool = False
    action_markers: int = 0
    in_active_zone: bool = True
    resources: tuple[tuple[str, int], ...] = ()  # what the card has: close, crystals, …
    uses: tuple[tuple[str, int], ...] = ()  # per-turn use counts by feature and kind of action (use_key)
    features: tuple[Feature, ...] = ()

    def printed_value(self, prop: str) -> int:
        return _get(self.printed, prop)

    def current_value(self, prop: str) -> int:
        return _get(self.printed, prop) + _get(self.modifiers, prop)

    def value(self, prop: str, reads: str) -> int:
        """The property as a rule reads it: ``printed`` (542.6) or ``current``."""
        return self.printed_value(prop) if reads == "printed" else self.current_value(prop)

    def resource(self, name: str) -> int:
        return _get(self.resources, name)

    def used(self, feature: str, kind: str) -> int:
        """This turn's uses of ``feature``, declared as a game action of ``kind``."""
        return _get(self.uses, use_key(feature, kind))

    def used_kinds(self, kinds) -> int:
        """This turn's uses of any feature as a game action of one of ``kinds`` (540.1.3 «Может [текст] X раз
        за ход» counts the card's acting in the way its text names)."""
        return sum(n for k, n in self.uses if use_kind(k) in kinds)

    def with_use(self, feature: str, kind: str) -> "Card":
        return replace(self, uses=_put(self.uses, use_key(feature, kind), self.used(feature, kind) + 1))

    def with_resource(self, name: str, amount: int) -> "Card":
        """The card holding ``amount`` of resource ``name``."""
        return replace(self, resources=_put(self.resources, name, amount))

    def without_use(self, feature: str, kind: str) -> "Card":
        """The card with one use of ``feature`` taken back (a declaration that did not stand)."""
        return replace(self, uses=_put(self.uses, use_key(feature, kind), max(0, self.used(feature, kind) - 1)))

    @property
    def can_move(self) -> bool:
        """A card with an action marker has acted and cannot move (540.3; when markers come is 510)."""
        return self.action_markers == 0

    @property
    def healthy(self) -> bool:
        return self.wounds == 0


@cached_hash
@dataclass(frozen=True)
class XVar:
    """A variable X of the executing feature (542.1): its kind, how it is determined, its value."""

    name: str
    kind: str  # cost | targets | magnitude_chosen | magnitude_computed | implicit | dice_modifier | magnitude_modifier
    chosen: int | None = None  # the value the player names (cost, targets, chosen magnitude)
    compute: tuple[str, str, str] | None = None  # (what, card, property): e.g. ("wounds", "self", "")
    value: int | None = None
    fixed_at: str | None = None  # step id where it was fixed
    fixes: int = 0  # how many times it was (re)determined
    owner: str | None = None  # the card whose feature has this X ("self"); None: the action's source


@dataclass(frozen=True)
class Modification:
    """A resource modification applied to the executing action (540): who stops paying what."""

    feature: str
    card: str
    resources: tuple[str, ...]
    declared_at: str  # step id, or "printed" for a card's own 540.1 text
    form: str = "stays_open"  # stays_open (540.1.1) | closes_only_after_assault (540.1.2) | per_turn (540.1.3)
    limit: int | None = None  # 540.3.1: stays open while action markers < limit
    action_marker: bool = True  # False: its text says the acting card gets no action marker (540.3)
    # the condition it was made on («если после этого у Келе нет ран»: "healthy"; "" none) — 540.4/ex1:
    # checked when it is played; a rulebook's pay_reserved may check it again (recheck_conditions)
    condition: str = ""


@cached_hash
@dataclass(frozen=True)
class Action:
    """The executing game action."""

    feature: str
    kind: str  # simple_strike | attack | spell | effect
    source: str
    targets: tuple[str, ...] = ()
    defender: str | None = None  # a defender dealing a return strike (512.6.2, 540.4.1)
    return_strike: bool = False
    effect: str = "damage"  # damage | heal
    needs_magnitude: bool = True
    xs: tuple[XVar, ...] = ()
    cost: tuple[tuple[str, str, str], ...] = ()  # (card, resource, amount or X name)
    reserved: tuple[tuple[str, str, int], ...] = ()  # (card, resource, amount)
    reserved_done: bool = False
    modifications: tuple[Modification, ...] = ()
    resources_ok: bool | None = None
    use_void: bool = False  # the declaration did not stand: it is no use of the feature (540.1.3, 540.2)
    # (card, action markers) of every card when the action began (set by the interpreter's start): what a
    # rulebook reads that compares 540.3.1's limit with the markers at declaration (``markers_at_declaration``)
    start_markers: tuple[tuple[str, int], ...] = ()
    declared: int = 0
    parts_left: int = 0  # further parts of a compound feature (512.6.6)
    legality_checks: int = 0
    legal: bool | None = None
    blocked: bool = False
    die_rolls: tuple[int, ...] = ()
    die_raw: int | None = None
    dice_mods: tuple[tuple[str, int | str], ...] = ()  # (add|sub|set, amount or X name)
    dice_mods_applied: bool = False
    die_final: int | None = None
    die_off_table: bool = False  # the strike table has no row for the final die (512.6.2/b4.1.1)
    die_effect_on_stack: bool = False
    strength_base: str | None = None
    strength_final: str | None = None
    return_strength: str | None = None
    magnitude_base: int | None = None
    magnitude_x: str | None = None  # 542.2: a bare X — the magnitude is the cost-X of this name, as named
    return_magnitude: int | None = None
    return_magnitude_final: int | None = None  # 512.6.2/b4.1.4: after the calculation, roles swapped
    mag_mods: tuple[tuple[str, int | str], ...] = ()  # (feature id, delta or X name) played in windows
    reduce_to: str | None = None
    reduced: bool = False  # a feature reducing the attack to a strength was played (512.6.3/b2)
    magnitude_final: int | None = None
    magnitude_known: bool = False
    prevented: bool = False
    effect_applied: bool = False
    status: str = "pending"  # pending | hit | miss | blocked | illegal
    roles_released: bool = False
    paid: tuple[tuple[str, str, int], ...] = ()
    paid_done: bool = False
    #: features played in the last priority window this action opened (a guard may compare it: plays_at_least)
    window_plays: int = 0
    on_stack: bool = True
    fired: tuple[str, ...] = ()  # triggered features that fired, in order

    def x(self, name: str) -> XVar | None:
        return next((x for x in self.xs if x.name == name), None)

    def with_x(self, xv: XVar) -> "Action":
        return replace(self, xs=tuple(xv if x.name == xv.name else x for x in self.xs))

    @property
    def is_attack(self) -> bool:
        return self.kind in ATTACKS

    def next_part(self) -> "Action":
        """The same game action, its execution fields reset for the next part of a compound feature;
        what belongs to the whole action (X values, reservation, modifications, payment, the markers the
        cards had when it began: 540.3.1) is kept."""
        keep = ("feature", "kind", "source", "targets", "defender", "effect", "needs_magnitude", "xs", "cost",
                "reserved", "reserved_done", "modifications", "resources_ok", "use_void", "declared", "parts_left", "paid",
                "paid_done", "on_stack", "fired", "magnitude_base", "magnitude_x", "window_plays", "start_markers")
        fresh = Action(feature=self.feature, kind=self.kind, source=self.source)
        return replace(fresh, **{k: getattr(self, k) for k in keep})


@cached_hash
@dataclass(frozen=True)
class State:
    cards: tuple[Card, ...]
    action: Action | None
    active_player: str = "A"
    step: str = ""
    visited: tuple[str, ...] = ()
    claims: tuple[str, ...] = ()  # claim queue (feature ids)
    stack: tuple[str, ...] = ()  # features on the stack below the executing one
    windows_seen: tuple[str, ...] = field(default=())
    assault_strikes: tuple[str, ...] = ("attack",)  # the rulebook's table of 540.1.2 «нападение» (set by the run)

    def card(self, card_id: str) -> Card:
        for c in self.cards:
            if c.id == card_id:
                return c
        raise KeyError(card_id)

    def with_card(self, card: Card) -> "State":
        return evolve(self, cards=tuple(card if c.id == card.id else c for c in self.cards))

    def with_action(self, **changes) -> "State":
        assert self.action is not None
        return evolve(self, action=evolve(self.action, **changes))
