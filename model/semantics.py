"""What the vocabulary's words mean, written once against the expression layer of :mod:`.algebra`.

Each meaning is one function of an algebra ``E`` (and of the word's parameters, which are data:
a feature's fields, a table of the rulebook).  The interpreter evaluates it with
:class:`~.algebra.Concrete` (a compiled closure), the Z3 transition system with
:class:`~.algebra.Symbolic` (a term); neither holds a meaning of its own for these words:

* the **guards** a rulebook writes after ``when:`` (``GUARDS``): one meaning each;
* the **offers**: when a feature a player holds may be played, by feature kind (``OFFERS``; a kind
  not listed may always be played when its window admits it);
* the **resource exemptions** of 540: when a card's own text (540.1.x, with 540.3.1's limit) stops
  a resource being paid (:func:`exempts`);
* the **operations** of ``OPERATIONS``: what each changes, as new values of the fields of
  :mod:`.fields`, and which fields its event reports (the other operations are still written twice,
  as the interpreter's ``HANDLERS`` and the encoding's ``OPS``, and held together by conformance).

>>> from ruleproof.model.algebra import Concrete
>>> from ruleproof.model.state import Action, State
>>> s = State(cards=(), action=Action("f", "attack", "src", legal=False))
>>> [name for name in ("is_attack", "action_illegal", "action_blocked") if guard(Concrete(), name)(s, None)]
['is_attack', 'action_illegal']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .vocabulary import parse_guard

__all__ = ["GUARDS", "OFFERS", "OPERATIONS", "Operation", "guard", "guard_text", "offer", "exempts", "strikes",
           "ATTACKS"]

ATTACKS = ("simple_strike", "attack")


# --- guards (``when:``) -------------------------------------------------------------------------------

def _resource_modified(E, arg):
    return E.any_exempt()


#: guard word -> meaning(E, argument); the argument is the step of ``visited(step)``
GUARDS: dict[str, Callable] = {
    "always": lambda E, arg: E.true(),
    # 512.6.2: the dice step may be skipped for a spell or an effect needing no numeric magnitude
    "dice_step_skippable": lambda E, arg: E.and_(E.kind_in("spell", "effect"), E.not_(E.needs_magnitude())),
    "is_attack": lambda E, arg: E.kind_in(*ATTACKS),
    "action_illegal": lambda E, arg: E.legal_is(False),  # 512.6.3/b3: the legality check failed
    "action_blocked": lambda E, arg: E.blocked(),  # 512.6.4/b3
    "compound_has_next": lambda E, arg: E.parts_left(),  # 512.6.6/b4
    "resource_modified": _resource_modified,  # 540.2: some resource of the action is not paid
    "visited": lambda E, arg: E.visited(arg),
}


def guard(E, name: str, arg: str | None = None):
    """The meaning of guard word ``name`` in algebra ``E``."""
    return GUARDS[name](E, arg)


def guard_text(E, text: str):
    """The meaning of a guard as a rulebook writes it (``[not ]name[(step)]``, validated at load)."""
    g = parse_guard(text)
    if g is None:
        raise ValueError(f"not a guard: {text!r}")
    value = guard(E, g.name, g.arg)
    return E.not_(value) if g.negated else value


# --- offers: when a held feature may be played -------------------------------------------------------------

def strikes(E, strike: str):
    """The card asked about deals ``strike`` in this action: ``attack`` (its own, as the attacking
    source) or ``return_strike`` (as the defender, 512.6.2/b4.1.4)."""
    if strike == "attack":
        return E.and_(E.kind_in(*ATTACKS), E.is_source())
    return E.and_(E.return_strike(), E.is_defender())


def _effect_trigger(E, f, words):
    """540.4.1: «при ударе/атаке» and «при нападении» fire on the strikes the rulebook's
    ``trigger_words`` table lists for them."""
    return E.or_(*[strikes(E, s) for s in ("attack", "return_strike") if s in words.get(f.trigger, ())])


def _after_ability(E, f, words):
    """512.6.6/b2: «после …» by the status of the ability (``any``: whatever it is)."""
    return E.true() if f.on_status == "any" else E.status_is(f.on_status)


def _payment_trigger(E, f, words):
    """512.7/b2: «закрывается после» once the card is closed, «когда действует» for the acting card,
    «при оплате» for a card that paid something."""
    if f.on == "closes_after":
        return E.closed()
    if f.on == "acts":
        return E.is_source()
    return E.paid_any()


def _block(E, f, words):
    """512.6.4: an action can be blocked once."""
    return E.not_(E.blocked())


#: feature kind -> meaning(E, feature, trigger-words table) of "the card holding it may play it now"
OFFERS: dict[str, Callable] = {
    "effect_trigger": _effect_trigger, "after_ability": _after_ability, "payment_trigger": _payment_trigger,
    "block": _block,
}


def offer(E, feature, words: dict):
    """May the card asked about play ``feature`` now (its window admitting the kind)?"""
    meaning = OFFERS.get(feature.kind)
    return E.true() if meaning is None else meaning(E, feature, words)


# --- 540: resources a card's own text stops being paid -------------------------------------------------------

def exempts(E, form: str, limit, kinds: tuple[str, ...]):
    """A card's «не закрывается после …» text of form ``form`` (540.1.1 stays_open, 540.1.2
    closes_only_after_assault, 540.1.3 per_turn with 540.3.1's ``limit``, an E-value or None) applies
    to the action asked about, for the card asked about: it takes part in the action (the source or
    a defender), the action is of one of ``kinds``, it was no assault of its own (540.1.2) and it has
    fewer action markers than the limit (540.3.1)."""
    parts = [E.or_(E.is_source(), E.is_defender()), E.kind_in(*kinds)]
    if form == "closes_only_after_assault":
        parts.append(E.not_(strikes(E, "attack")))
    if limit is not None:
        parts.append(E.lt(E.markers(), limit))
    return E.and_(*parts)


# --- operations: what each changes -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Operation:
    """An operation's meaning: ``update(E)`` gives the new value of each field it changes (all read
    from the state before it); ``report`` names the fields its event records, read after it (event
    value -> field)."""

    update: Callable
    report: dict = field(default_factory=dict)


def _legality(E):
    """512.6.3/b3 with 526: the source in the active zone makes the action legal; else it is illegal
    and goes to completion.  Each check is counted (526: checked once)."""
    zone = E.get("src_in_zone")
    return {"legality_checks": E.inc(E.get("legality_checks")),
            "legal": E.ite(zone, E.lit("legal", True), E.lit("legal", False)),
            "status": E.ite(zone, E.get("status"), E.lit("status", "illegal"))}


#: operation -> its meaning (the operations not here still have one meaning per engine)
OPERATIONS: dict[str, Operation] = {
    # 512.6.2/b2: the raw die is the last value rolled (after any reroll)
    "fix_raw_die": Operation(lambda E: {"raw_die": E.get("last_roll")}, {"die_raw": "raw_die", "rolls": "die_rolls"}),
    # 512.6.2/b3: the die-roll effect leaves the stack
    "remove_die_effect": Operation(lambda E: {"die_on_stack": E.lit("die_on_stack", False)}),
    "check_source_legality": Operation(_legality, {"legal": "legal", "checks": "legality_checks"}),
    # 512.6.3/b4: the final magnitude (with its modifiers, or the base) is known; nothing changes it after
    "finalize_magnitude": Operation(lambda E: {
        "magnitude_final": E.ite(E.is_none(E.get("magnitude_final")), E.get("magnitude_base"), E.get("magnitude_final")),
        "magnitude_known": E.lit("magnitude_known", True)}, {"magnitude": "magnitude_final"}),
    # 512.6.6/b3: cards stop being sources, targets, attackers…
    "release_roles": Operation(lambda E: {"roles_released": E.lit("roles_released", True)}),
    # 540.3: the acting card gets an action marker
    "give_action_marker": Operation(lambda E: {"src_markers": E.inc(E.get("src_markers"))},
                                    {"card": "source", "markers": "src_markers"}),
    # 512.7/b3: the feature leaves the stack
    "remove_from_stack": Operation(lambda E: {"on_stack": E.lit("on_stack", False)}, {"feature": "feature"}),
}
