"""Card features as data: the kinds the excerpts name, with what the interpreter needs of each.

A feature is one of:

* a kind a priority window admits (see ``vocabulary.FEATURE_KINDS``): ``reroll``, ``dice_modifier``
  (``mode`` add/sub/set with an ``amount`` or an ``x``), ``magnitude_modifier`` (``amount`` or
  ``x``, optional ``condition``), ``reduce_to_strength``, ``sudden_action``, ``protection``,
  ``prevention``, ``replacement``, ``block``, ``effect_trigger`` (``trigger``: strike or assault —
  «при ударе/атаке» vs «при нападении», 540.4.1), ``after_ability`` (``on_status``),
  ``payment_trigger`` (``on``: payment, acts, closes_after — 512.7/b2), ``resource_modification``
  (540.4), ``die_trigger`` (an accompanying feature «если на кубике выпало …», ``on_die``: the values
  it fires on — 512.6.2/b2: only on the die's last value);
* ``static_modifier`` — a magnitude modifier that is always on (Серк's «−1 от атак существ с 2 …»);
* ``resource_modifier`` — a card's own text of 540.1: ``form`` stays_open (540.1.1 «Не закрывается
  после …»), closes_only_after_assault (540.1.2 «Закрывается после … нападения»), per_turn (540.1.3
  «Может … X раз за ход», ``times`` its X — absent: «любое количество раз» — and ``limit`` for 540.3.1
  «после i-го … не закрывается»).

An ``x`` is ``[what, card, property]``: ``[property, source, movement]`` reads a card property
(printed or current, as the rulebook says: 542.6), ``[wounds, self, ""]`` a card's wounds,
``[resource, self, crystal]`` what it has of a resource, ``[count, self, open]`` counts the cards in
the active zone of that card's controller that are open (``closed``, ``wounded``, ``any``: see
:data:`COUNTS`) — «число ваших открытых существ».

>>> f = Feature("serk_guard", "static_modifier", amount=-1, condition=("source_at_least", "movement", 2))
>>> f.kind, f.amount
('static_modifier', -1)
"""

from __future__ import annotations

from dataclasses import dataclass

from .hashing import cached_hash

__all__ = ["Effect", "Feature", "CARD_FEATURE_KINDS", "CARD_FEATURE_KEYS", "EFFECTS", "X_SOURCES", "COUNTS", "CONDITIONS",
           "counts", "condition_met"]

#: features that are not played in a window
CARD_FEATURE_KINDS = ("static_modifier", "resource_modifier")
#: the kind-specific keys (``vocabulary.FEATURE_KEYS``) each card feature kind reads
CARD_FEATURE_KEYS = {"static_modifier": ("applies_to",), "resource_modifier": ("form", "limit", "times", "resources", "applies_to",
                                                                                   "action_marker")}
#: what a feature's text does to a card: heal / wound (``amount``), leave the active zone, a modifier of a
#: property (``prop``, ``amount``), and the sudden changes judges rule on — close the card, take away
#: ``amount`` of its resource ``prop``, take away ``amount`` of its action markers (510.4, an assumption)
EFFECTS = ("heal", "wound", "leave_zone", "add_modifier", "close", "lose_resource", "lose_markers")
X_SOURCES = ("property", "wounds", "resource", "count")
#: which cards an X of source ``count`` counts (of one controller's cards in the active zone)
COUNTS = ("open", "closed", "wounded", "any")
#: a static modifier's condition on the acting card's property: «от атак существ с N или больше»
#: (source_at_least), «… с N или меньше» (source_at_most) — read as the rulebook says (542.6)
CONDITIONS = ("source_at_least", "source_at_most")


@dataclass(frozen=True)
class Effect:
    do: str  # heal | wound | leave_zone | add_modifier | close | lose_resource | lose_markers
    card: str  # self | source | target | defender | a card id
    amount: int = 0
    prop: str = ""


@cached_hash
@dataclass(frozen=True)
class Feature:
    id: str
    kind: str
    text: str = ""
    mode: str = ""  # dice modifier: add | sub | set
    amount: int | None = None
    x: tuple[str, str, str] | None = None
    condition: tuple[str, str, int] | None = None
    strength: str = ""  # reduce_to_strength
    trigger: str = ""  # effect_trigger, resource_modification: strike | assault (540.4.1)
    on_status: str = "any"  # after_ability: hit | miss | blocked | illegal | any
    on: str = "payment"  # payment_trigger: payment | acts | closes_after
    effects: tuple[Effect, ...] = ()
    then_if_healthy: tuple[str, ...] = ()  # resources whose payment is modified if the card is healthy after
    resources: tuple[str, ...] = ()  # resource_modification / resource_modifier: resources not paid;
    # payment_trigger «при оплате X»: the resources whose payment fires it (none: any)
    modifies: str = "source"  # resource_modification: whose resources (a card reference)
    form: str = "stays_open"
    limit: int | None = None
    # resource_modifier of form per_turn: 540.1.3's X in «X раз за ход» (None: «любое количество раз»)
    times: int | None = None
    applies_to: tuple[str, ...] = ("simple_strike", "attack", "spell", "effect")
    # resource_modification / resource_modifier: False — the text says the acting card gets no action
    # marker (540.3 «если иного не указано в тексте особенности»)
    action_marker: bool = True
    on_die: tuple[int, ...] = ()  # die_trigger: the die values it fires on (512.6.2/b2)


def counts(card, which: str) -> bool:
    """``card`` is one that an X ``[count, …, which]`` counts: in the active zone and ``which`` (a
    word of :data:`COUNTS`).  The cards of a scenario are creatures; their state is what the X reads
    when it is fixed (542.4/b2: «исходя из игровой ситуации»), so a card closed by a sudden action
    before that is not counted as open.

    >>> from ruleproof.model.state import Card
    >>> counts(Card("wolf", "Волк", "A"), "open"), counts(Card("bear", "Медведь", "A", closed=True), "open")
    (True, False)
    """
    if not card.in_active_zone:
        return False
    return {"open": not card.closed, "closed": card.closed, "wounded": card.wounds > 0, "any": True}[which]


def condition_met(kind: str, value, n):
    """The one meaning of a condition word of :data:`CONDITIONS`: the acting card's ``value`` against the
    text's ``n`` — for the interpreter's numbers and the Z3 model's bit-vectors alike.

    >>> condition_met("source_at_least", 2, 2), condition_met("source_at_most", 2, 1)
    (True, False)
    """
    if kind == "source_at_least":
        return value >= n
    if kind == "source_at_most":
        return value <= n
    raise ValueError(f"unknown condition {kind!r}")
