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

from .vocabulary import ATTACKS, parse_guard

__all__ = ["GUARDS", "OFFERS", "OPERATIONS", "Operation", "guard", "guard_text", "offer", "exempts", "strikes",
           "ATTACKS"]

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
    from the state before it); ``report`` says what its event records: event value -> a field (read
    after it) or a function ``(before, after) -> value`` (the interpreter's account, for the reader)."""

    update: Callable
    report: dict = field(default_factory=dict)


def _legality(E):
    """512.6.3/b3 with 526: the source in the active zone makes the action legal; else it is illegal
    and goes to completion.  Each check is counted (526: checked once)."""
    zone = E.get("src_in_zone")
    return {"legality_checks": E.inc(E.get("legality_checks")),
            "legal": E.ite(zone, E.lit("legal", True), E.lit("legal", False)),
            "status": E.ite(zone, E.get("status"), E.lit("status", "illegal"))}


def cost_short(E, card: str, res: str, amount: str):
    """540.2, 542.2: the card lacks what one entry of the cost asks — its X is not named yet, or the card
    has less of the resource than it."""
    return E.or_(E.not_(E.cost_fixed(amount)), E.lt(E.resource(card, res), E.cost_need(amount)))


def _short_text(before, after) -> tuple[str, ...]:
    """The check_resources event's account of what is short (for the reader), read with the same
    pieces :func:`cost_short` is made of."""
    from .algebra import Concrete, short_entries

    E, out = Concrete(), []
    for card, res, amount in short_entries(before, cost_short):
        if not E.cost_fixed(amount)(before, None):
            out.append(f"{card}:{res} {amount} not fixed yet")
        else:
            out.append(f"{card}:{res} {E.resource(card, res)(before, None)}<{E.cost_need(amount)(before, None)}")
    return tuple(out)


def _applications(s) -> list[tuple[str, str, int]]:
    """511 (an assumption of the bundled rulebook: A-effect-order): what applying the effect does — the
    final magnitude to each target (wounds, or healing) unless prevented, and a return strike's
    magnitude to the source — as (card, effect, amount).  The model abstracts wounds away: this is
    the interpreter's part only."""
    a = s.action
    amount = a.magnitude_final or 0
    done = [] if a.prevented else [(t, a.effect, amount) for t in a.targets]
    if a.return_strike and a.return_magnitude:
        done.append((a.source, "return_strike", a.return_magnitude))
    return done


def _apply_effect(s):
    """The cards after :func:`_applications` (healing stops at no wounds)."""
    from .state import evolve

    for card_id, effect, amount in _applications(s):
        card = s.card(card_id)
        wounds = max(0, card.wounds - amount) if effect == "heal" else card.wounds + amount
        s = s.with_card(evolve(card, wounds=wounds))
    return s.cards


#: operation -> its meaning (the operations not here still have one meaning per engine)
OPERATIONS: dict[str, Operation] = {
    # 512.6.2/b2: the raw die is the last value rolled (after any reroll)
    "fix_raw_die": Operation(lambda E: {"raw_die": E.get("last_roll")}, {"die_raw": "raw_die", "rolls": "die_rolls"}),
    # 540.2, 542.2: the card must have the resources to declare the action (a cost-X within them)
    "check_resources": Operation(lambda E: {"resources_ok": E.ite(E.cost_short(cost_short), E.lit("resources_ok", False),
                                                                  E.lit("resources_ok", True))},
                                 {"ok": "resources_ok", "short": _short_text}),
    # 512.5/t1: the claims are resolved
    "resolve_claims": Operation(lambda E: {"claims": E.lit("claims", ())}, {"resolved": lambda before, after: before.claims}),
    # 512.6.5: the effect is applied
    "apply_effect": Operation(lambda E: {"cards": E.concrete(_apply_effect), "effect_applied": E.lit("effect_applied", True),
                                         "status": E.lit("status", "hit")},
                              {"applied": lambda before, after: tuple(_applications(before)), "prevented": lambda before, after: before.action.prevented}),
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
