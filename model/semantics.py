"""What the vocabulary's words mean, written once against the expression layer of :mod:`.algebra`.

Each meaning is one function of an algebra ``E`` (and of the word's parameters, which are data:
a feature's fields, a table of the rulebook).  The interpreter evaluates it with
:class:`~.algebra.Concrete` (a compiled closure), the Z3 transition system with
:class:`~.algebra_z3.Symbolic` (a term), through :mod:`.derive`; neither holds a meaning of its own
for any word:

* the **guards** a rulebook writes after ``when:`` (``GUARDS``): one meaning each;
* the **offers**: when a feature a player holds may be played, by feature kind (``OFFERS``; a kind
  not listed may always be played when its window admits it);
* the **resource exemptions** of 540: when a card's own text (540.1.x, with 540.3.1's limit) stops
  a resource being paid (:func:`exempts`);
* the **operations** (``OPERATIONS``, every one but ``window``, which is the rulebook's structure):
  what each changes, as new values of the fields of :mod:`.fields`, and what its event reports;
* the **plays** (``PLAYS``): what playing a feature of each kind does.

Where the model abstracts a value away (wounds, magnitudes, strengths), the meaning computes it with
``E.concrete(fn)``: the interpreter's part only, which the Z3 side leaves out (and refuses to write
into a variable it holds).

>>> from ruleproof.model.algebra import Concrete
>>> from ruleproof.model.state import Action, State
>>> s = State(cards=(), action=Action("f", "attack", "src", legal=False))
>>> [name for name in ("is_attack", "action_illegal", "action_blocked") if guard(Concrete(), name)(s, None)]
['is_attack', 'action_illegal']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .algebra import Concrete, dice_fold, exemptions, number, short_entries
from .algebra_interface import MeaningAlgebra, Term
from .exempts import STRIKES, strikes
from .features import condition_met
from .fields import FIELDS
from .state import evolve
from .vocabulary import ATTACKS, SWAPPED, parse_guard

__all__ = ["GUARDS", "OFFERS", "OPERATIONS", "PLAYS", "Operation", "Play", "PART_FIELDS", "guard", "guard_text", "offer", "per_turn_count",
           "spend", "ATTACKS"]

# --- guards (``when:``) -------------------------------------------------------------------------------

#: the strike table's result «промах» (512.6.6/b2): an action status
MISS = "miss"


def _argument(arg: str | None) -> str:
    """A guard word's argument (the loader refuses the words that take one written without it)."""
    if arg is None:
        raise ValueError("this guard word takes an argument: name(N)")
    return arg


def _resource_modified(E: MeaningAlgebra, arg):
    return E.any_exempt()


#: guard word -> meaning(E, argument); the argument is the step of ``visited(step)``, the number (as
#: written) of ``cost_x_at_least(N)`` and ``plays_at_least(N)``
GUARDS: dict[str, Callable[[MeaningAlgebra, str | None], Term]] = {
    "always": lambda E, arg: E.true(),
    # 512.6.2: the dice step may be skipped for a spell or an effect needing no numeric magnitude
    "dice_step_skippable": lambda E, arg: E.and_(E.kind_in("spell", "effect"), E.not_(E.needs_magnitude())),
    "is_attack": lambda E, arg: E.kind_in(*ATTACKS),
    # 512.6.2: the ability needs the numeric magnitude of its effect determined (what the card's feature says)
    "needs_magnitude": lambda E, arg: E.needs_magnitude(),
    # 512.6.2/b4.1: a creature fight by simple strike; b4.2: not so for another attack or a closed card
    "strike_fight": lambda E, arg: E.and_(E.kind_in("simple_strike"), E.struck_open()),
    "action_illegal": lambda E, arg: E.legal_is(False),  # 512.6.3/b3: the legality check failed
    "action_blocked": lambda E, arg: E.blocked(),  # 512.6.4/b3
    # 512.6.6/b4 «к следующему этапу формирования заявки, если это возможно»: a next part, and the card has
    # the resources to declare it (540.2; A-next-part) — else play goes on to the payment stage
    "compound_has_next": lambda E, arg: E.and_(E.parts_left(), E.not_(E.cost_short(cost_short))),
    "resource_modified": _resource_modified,  # 540.2: some resource of the action is not paid
    # 540.2, 542.2: the resource check at declaration failed (the card lacks what the cost needs)
    "resources_short": lambda E, arg: E.resources_ok_is(False),
    # 512.6.6/b2 «промах в случае атаки»: the strike table called the attack a miss
    "missed": lambda E, arg: E.status_is(MISS),
    # 542.3: a target of the action is no longer in the active zone (X of targets is not re-checked)
    "target_gone": lambda E, arg: E.not_(E.targets_in_zone()),
    # 542.2: the cost-X the player named is fixed (at declaration, or where a draft fixes it) and >= N
    "cost_x_at_least": lambda E, arg: E.and_(E.x_fixed("cost"), E.not_(E.lt(E.x_value("cost"), E.const(int(_argument(arg)))))),
    # 512.6.2/b2, 512.6.4/b3: a window's features resolve one by one («после разрешения всех таких
    # особенностей»); a draft may turn on how many were played in the last window (N or more)
    "plays_at_least": lambda E, arg: E.not_(E.lt(E.window_plays(), E.const(int(_argument(arg))))),
    "visited": lambda E, arg: E.visited(_argument(arg)),
}


def guard(E: MeaningAlgebra, name: str, arg: str | None = None):
    """The meaning of guard word ``name`` in algebra ``E``."""
    return GUARDS[name](E, arg)


def guard_text(E: MeaningAlgebra, text: str):
    """The meaning of a guard as a rulebook writes it (``[not ]name[(step)]``, validated at load)."""
    g = parse_guard(text)
    if g is None:
        raise ValueError(f"not a guard: {text!r}")
    value = guard(E, g.name, g.arg)
    return E.not_(value) if g.negated else value


# --- offers: when a held feature may be played -------------------------------------------------------------

def _effect_trigger(E: MeaningAlgebra, f, words, window=None):
    """540.4.1: «при ударе/атаке» and «при нападении» fire on the strikes the rulebook's
    ``trigger_words`` table lists for them."""
    return E.or_(*[strikes(E, s) for s in STRIKES if s in words.get(f.trigger, ())])


def _after_ability(E: MeaningAlgebra, f, words, window=None):
    """512.6.6/b2: «после …» by the status of the ability (``any``: whatever it is).  A status that came about
    stays (A-status-kept): a missed attack that is then blocked is both — «после промаха» reads the status,
    «после блокирования» whether the action was blocked.  A window with ``after_status: last`` reads the last
    status only (a block replaces the miss: R-block-replaces-miss)."""
    if f.on_status == "any":
        return E.true()
    if f.on_status == "blocked":
        return E.blocked()
    came = E.status_is(f.on_status)
    return E.and_(came, E.not_(E.blocked())) if (window or {}).get("after_status") == "last" else came


def _payment_trigger(E: MeaningAlgebra, f, words, window=None):
    """512.7/b2: «закрывается после» once the card is closed, «когда действует» for the acting card,
    «при оплате» for a card that paid something — «при оплате X» (``resources``) one that paid X."""
    if f.on == "closes_after":
        return E.closed()
    if f.on == "acts":
        return E.is_source()
    return E.or_(*[E.paid_resource(r) for r in f.resources]) if f.resources else E.paid_any()


def _resource_modification(E: MeaningAlgebra, f, words, window=None):
    """540.4.1: a modification «при ударе/атаке» or «при нападении» (``trigger``) is offered on the
    strikes its trigger words fire on, as a triggered feature is; one without trigger words always."""
    return _effect_trigger(E, f, words) if f.trigger else E.true()


def _die_trigger(E: MeaningAlgebra, f, words, window=None):
    """512.6.2/b2: an accompanying feature fires on the die's value once it is fixed — after a reroll, on
    the last value only — and only on the values its text names."""
    return E.die_in(E.get("raw_die"), f.on_die)


def _block(E: MeaningAlgebra, f, words, window=None):
    """512.6.4: an action can be blocked once."""
    return E.not_(E.blocked())


#: feature kind -> meaning(E, feature, trigger-words table, the window's parameters) of "the card holding it
#: may play it now"
OFFERS: dict[str, Callable[..., Term]] = {
    "effect_trigger": _effect_trigger, "after_ability": _after_ability, "payment_trigger": _payment_trigger,
    "block": _block, "resource_modification": _resource_modification, "die_trigger": _die_trigger,
}


def offer(E: MeaningAlgebra, feature, words: dict, window: dict | None = None):
    """May the card asked about play ``feature`` now (its window, with parameters ``window``, admitting the
    kind)?"""
    meaning = OFFERS.get(feature.kind)
    return E.true() if meaning is None else meaning(E, feature, words, window)


# --- operations: what each changes -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Operation:
    """An operation's meaning: ``update(E, params)`` gives the new value of each field it changes (all
    read from the state before it; a list of such dicts: stages, each read from the state the one
    before left); ``report`` says what its event records: event value -> a field (read after it) or a
    function ``(before, after) -> value`` (the interpreter's account, for the reader; key ``*``: a
    dict of values); ``die``: it takes a die result (an input within the rulebook's faces)."""

    update: Callable[[MeaningAlgebra, dict], Any]
    report: dict = field(default_factory=dict)
    die: bool = False


def _legality(E: MeaningAlgebra, p):
    """512.6.3/b3 with 526: the source in the active zone makes the action legal; else it is illegal
    and goes to completion.  Each check is counted (526: checked once)."""
    zone = E.get("src_in_zone")
    return {"legality_checks": E.inc(E.get("legality_checks")),
            "legal": E.ite(zone, E.lit("legal", True), E.lit("legal", False)),
            "status": E.ite(zone, E.get("status"), E.lit("status", "illegal"))}


def cost_short(E: MeaningAlgebra, card: str, res: str, amount: str):
    """540.2, 542.2: the card lacks what one entry of the cost asks — its X is not named yet, or the card
    has less of the resource than it; a closed card has no «закрытие» to pay (A-closed-no-close)."""
    short = cost_short_closed_kept(E, card, res, amount)
    return E.or_(short, E.card(card, "closed")) if res == "close" else short


def cost_short_closed_kept(E: MeaningAlgebra, card: str, res: str, amount: str):
    """:func:`cost_short` of a draft with ``closed_keeps_close``: a closed card still has its «закрытие»."""
    return E.or_(E.not_(E.cost_fixed(amount)), E.lt(E.resource(card, res), E.cost_need(amount)))


def _short_text(before, after, p) -> tuple[str, ...]:
    """The check_resources event's account of what is short (for the reader), read with the same
    pieces :func:`cost_short` is made of."""
    E, out = Concrete(), []
    for card, res, amount in short_entries(before, cost_short_closed_kept if p.get("closed_keeps_close", False)
                                           else cost_short):
        if not E.cost_fixed(amount)(before, None):
            out.append(f"{card}:{res} {amount} not fixed yet")
        elif res == "close" and E.card(card, "closed")(before, None):
            out.append(f"{card}:close closed")
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
    done = [] if a.prevented or a.status == MISS else [(t, a.effect, amount) for t in a.targets]
    ret = a.return_magnitude if a.return_magnitude_final is None else a.return_magnitude_final
    if a.return_strike and ret:
        done.append((a.source, "return_strike", ret))
    return done


def _apply_effect(s, c):
    """The cards after :func:`_applications` (healing stops at no wounds)."""
    for card_id, effect, amount in _applications(s):
        card = s.card(card_id)
        wounds = max(0, card.wounds - amount) if effect == "heal" else card.wounds + amount
        s = s.with_card(evolve(card, wounds=wounds))
    return s.cards


def _declare(E: MeaningAlgebra, p):
    """512.4 (outside the excerpts): the feature is declared and claims; a compound feature's next part
    (512.6.6/b4) is a fresh execution of the same game action — its per-part fields start afresh."""
    fresh = E.nonzero(E.get("part"))  # a part was declared before: this is the next one
    stage = {"part": E.inc(E.get("part")),
             "parts_left": E.ite(E.and_(fresh, E.parts_left()), E.add(E.get("parts_left"), -1), E.get("parts_left")),
             "claims": E.push(E.get("claims"), E.get("feature")),
             # 540.1.3 counts uses of the feature in a turn: a compound feature's next part is the same use
             "uses": E.ite(fresh, E.get("uses"), E.concrete(_used)),
             "action": E.ite(fresh, E.concrete(_next_part), E.get("action"))}
    for f in PART_FIELDS:
        stage[f] = E.ite(fresh, E.initial(f), E.get(f))
    return stage


def _used(s, c):
    """The per-turn use count of the declared feature, one more (540.1.3's count, read by a «X раз за
    ход» text: :func:`exempts`; 540.3.1's limit is read on the action markers)."""
    return s.card(s.action.source).with_use(s.action.feature, s.action.kind).uses


def _remove_from_stack(E: MeaningAlgebra, p):
    """512.7/b3, 540.2: the feature leaves the stack; ``void``: its declaration did not stand
    (A-refused-declaration), so the use :func:`_declare` counted is taken back — unless it was a
    compound feature's later part, whose use the first part made."""
    stage = {"on_stack": E.lit("on_stack", False)}
    if p.get("void", False):
        stage["use_void"] = E.lit("use_void", True)  # what the Z3 side reads (:meth:`uses`)
        stage["uses"] = E.concrete(_unused)
    return stage


def _unused(s, c):
    """The per-turn use count of the declared feature with a void declaration's use taken back."""
    card = s.card(s.action.source)
    return card.without_use(s.action.feature, s.action.kind).uses if s.action.declared == 1 else card.uses


def _next_part(s, c):
    return s.action.next_part()


def _fix_x(E: MeaningAlgebra, p):
    """542: each X of kind ``x`` takes its value — the one the player named, or what its text computes,
    reading card properties as ``reads`` says (542.6: printed)."""
    reads = p.get("reads", "printed")
    return {"xs": E.fix_xs(p["x"], lambda x: E.ite(E.x_computed(x), E.x_read(x, reads), E.x_chosen(x)))}


def _fixed_text(before, after, p) -> tuple:
    return tuple((x.name, x.value) for x in after.action.xs if x.kind == p["x"])


def _reserve(E: MeaningAlgebra, p):
    """540.2: every resource of the cost is reserved (``include_modified: false``: not those a 540 text
    spares), each at its amount (an X not named yet: 0)."""
    include = p.get("include_modified", True)

    def entry(E: MeaningAlgebra, card, res, amount):
        take = E.true() if include else E.not_(E.exempt_entry(card, res))
        return take, E.ite(E.cost_fixed(amount), E.cost_need(amount), E.const(0))

    return {"reserved": E.reserve(entry), "reserved_done": E.lit("reserved_done", True)}


def _roll(E: MeaningAlgebra, p):
    """512.6.2: the die is rolled; its effect is on the stack until the final value is fixed."""
    return {"last_roll": E.push(E.get("last_roll"), E.die()), "die_on_stack": E.lit("die_on_stack", True)}


def _die_now(E: MeaningAlgebra):
    """The die before modifiers: the raw value if fixed, else the last rolled (None: no die)."""
    raw = E.get("raw_die")
    return E.ite(E.is_none(raw), E.last(E.get("last_roll")), raw)


_DIE_NOW = _die_now(Concrete())  # compiled once, for the event's account


def _apply_dice(E: MeaningAlgebra, p):
    """512.6.2/b3: the declared dice modifiers are applied to the die; the value stays within the die's faces
    (A-die-clamp: 6 + 1 reads as 6 — the strike table has rows for the faces only; ``unclamped: true``, a
    draft's: it may leave them, 7 with no row)."""
    die = _die_now(E)
    total = E.dice_total(E.get("dice_mods"), die)
    return {"final_die": E.ite(E.is_none(die), E.none(), total if p.get("unclamped", False) else E.clamp_die(total)),
            "dice_mods_applied": E.lit("dice_mods_applied", True)}


def _dice_applied_text(before, after, p) -> tuple:
    """The apply_dice_modifiers event's account, modifier by modifier (for the reader), and the clamp to
    the die's faces where it changed the value (A-die-clamp)."""
    value, account = dice_fold(before.action, _DIE_NOW(before, None), before.action.dice_mods)
    final = after.action.die_final
    if value is not None and final is not None and final != value:
        account += (("clamp", "A-die-clamp", final),)
    return account


def _fix_final(E: MeaningAlgebra, p):
    """512.6.2/b3: the final die is the modified value (or the die, when no modifier was applied)."""
    return {"final_die": E.ite(E.get("dice_mods_applied"), E.get("final_die"), _die_now(E))}


def _determine(E: MeaningAlgebra, p):
    """512.6.2/b4.1 with the rulebook's strike table (``table: true``; an assumption: A-strike-table): an
    attack's strength and magnitude, and whether the defender strikes back; another action's base
    magnitude (its X).  ``table: false`` (512.6.2/b4.2, b4.3): the strength and magnitude only — no
    return strike (how the strength is found then is A-no-fight-strength)."""
    attack = E.kind_in(*ATTACKS)
    # 512.6.6/b2: an attack's result may be a miss — the status the completion step's «после промаха» reads
    # (without the table, A-no-fight-strength reads the attacker's column all the same)
    # (only an ability still pending misses: a block or a failed legality check that came first stands)
    missed = E.and_(attack, E.status_is("pending"), E.strike_misses(E.get("final_die")))
    status = E.ite(missed, E.lit("status", MISS), E.get("status"))
    if not p.get("table", True):
        return {"strike": E.concrete(_strike_alone), "status": status}
    by_attacked = p.get("return_by", "defender") == "attacked"  # the creature attacked strikes back too
    striker = E.true() if by_attacked else E.has_defender()
    returns = E.and_(striker, E.strike_returns(E.get("final_die")))
    # 512.6.2/b4.1.1 «определяется результат сражения по Таблице ударов»: a final die with no row has no result
    off = E.and_(attack, E.not_(E.is_none(E.get("final_die"))), E.not_(E.strike_has_row(E.get("final_die"))))
    strike = (lambda s, c: _strike(s, c, by_attacked)) if by_attacked else _strike
    return {"return_strike": E.ite(attack, returns, E.get("return_strike")), "strike": E.concrete(strike),
            "status": status, "die_off_table": off}


def _magnitude_x(a):
    """The X that is the action's magnitude: a bare X (542.2 «X без дополнительных комментариев … всегда
    равен количеству ресурсов, которое определил игрок»: the cost-X it names), else an X of a magnitude kind."""
    if a.magnitude_x is not None:
        return a.x(a.magnitude_x)
    return next((x for x in a.xs if x.kind in ("magnitude_chosen", "magnitude_computed", "implicit")), None)


def _strike(s, c, by_attacked: bool = False) -> dict:
    """What the model abstracts of determining the base: strengths and magnitudes (the interpreter's);
    the return strike's by the defender, or (``by_attacked``) where there is none by the creature attacked."""
    a = s.action
    if a.kind not in ATTACKS:
        x = _magnitude_x(a)
        return {"magnitude_base": x.value if x is not None else a.magnitude_base}
    die = a.die_final
    strength, ret = c.strikes.get(str(die), [None, "none"]) if die is not None else (None, "none")
    magnitude = s.card(a.source).printed_value(f"strike_{strength}") if strength and strength != MISS else None
    striker = return_striker(a, by_attacked)
    ret_strength = ret if (striker and ret != "none") else None
    ret_mag = s.card(striker).printed_value(f"strike_{ret_strength}") if ret_strength else None
    return {"strength_base": strength, "strength_final": strength, "magnitude_base": magnitude,
            "return_strength": ret_strength, "return_magnitude": ret_mag}


def return_striker(a, by_attacked: bool) -> str | None:
    """The card that deals the action's return strike: its defender, or where there is none and the rulebook
    says so (``by_attacked``, a reading of A-return-by-defender) the creature attacked; None: no card."""
    return a.defender or (a.targets[0] if by_attacked and a.targets else None)


def _strike_alone(s, c) -> dict:
    """:func:`_strike` with no return strike (512.6.2/b4.2)."""
    out = _strike(s, c)
    if "return_strength" in out:
        out.update(return_strength=None, return_magnitude=None)
    return out


def _strike_text(before, after, p) -> dict:
    a = after.action
    if a.kind not in ATTACKS:
        return {"magnitude": a.magnitude_base}
    return {"strength": a.strength_base, "magnitude": a.magnitude_base, "return_strength": a.return_strength,
            "return_magnitude": a.return_magnitude}


def _fold(base, mods, a) -> tuple:
    """520 (an assumption: A-magnitude-modifiers): ``mods`` (feature id, delta or X name) applied in turn
    to ``base``, never below 0; returns (the value, what each did)."""
    applied, value = [], base
    for fid, delta in mods:
        n = number(a, delta)
        if value is None or n is None:
            applied.append((fid, delta, "unknown"))
            continue
        value = max(0, value + n)
        applied.append((fid, n, value))
    return value, tuple(applied)


def _magnitude(s, reads: str, roles: str = SWAPPED, reduces_miss: bool = False) -> tuple[dict, dict]:
    """512.6.3/b4, 542.6: the magnitude modifiers (those played, and the targets' static ones whose
    condition holds, read as ``reads``) applied to the base; a reduction to a strength takes that
    strike's magnitude; a return strike is calculated too, with the roles ``roles`` says
    (:func:`return_modifiers`).  The model abstracts magnitudes away: the interpreter's part only.
    Returns (the action's new values, the event's account)."""
    a = s.action
    x = _magnitude_x(a)
    base = x.value if x is not None and x.value is not None else a.magnitude_base
    strength = a.strength_final
    # a miss has no magnitude to reduce (A-miss-not-reduced; ``reduces_miss``: it is reduced all the same)
    if a.reduce_to and a.kind in ATTACKS and (a.status != MISS or reduces_miss):
        strength = a.reduce_to
        base = s.card(a.source).printed_value(f"strike_{strength}")
    mods = list(a.mag_mods)
    src = s.card(a.source)
    mods += _deltas(f for f in static_modifiers(s) if condition_holds(f, src, reads))
    value, applied = _fold(base, mods, a)
    new = {"magnitude_final": value, "strength_final": strength}
    account = {"base": base, "magnitude": value, "applied": applied, "reads": reads}
    if a.return_magnitude is not None:
        ret, ret_applied = _fold(a.return_magnitude, _deltas(return_modifiers(s, roles, reads)), a)
        new["return_magnitude_final"] = ret
        account.update(return_base=a.return_magnitude, return_magnitude=ret, return_applied=ret_applied)
    return new, account


def _deltas(features) -> list[tuple]:
    """(feature id, delta) of static magnitude modifiers, as :func:`_fold` takes them (no amount: 0)."""
    return [(f.id, f.amount if f.amount is not None else 0) for f in features]


def static_modifiers(s):
    """The targets' always-on magnitude modifiers (Серк's) that apply to the action's kind."""
    a = s.action
    return [f for t in a.targets for f in s.card(t).features if f.kind == "static_modifier" and a.kind in f.applies_to]


def return_modifiers(s, roles: str, reads: str) -> list:
    """The static magnitude modifiers that apply to the action's return strike — a simple strike — with the
    cards cast as ``roles`` says: ``swapped`` (512.6.2/b4.1.4): the attacked creature's are the
    attacker's (the source's), their condition read on the defender; ``kept``: the defender's, read on
    the source; ``unmodified``: none."""
    a = s.action
    hit_back = return_striker(a, True)  # (a return strike there is: the defender's, or by the rulebook the target's)
    if a.return_magnitude is None or hit_back is None or roles == "unmodified":
        return []
    striker, struck = (hit_back, a.source) if roles == SWAPPED else (a.source, hit_back)
    card = s.card(striker)
    return [f for f in strike_guards(s.card(struck)) if condition_holds(f, card, reads)]


def strike_guards(card) -> list:
    """``card``'s always-on magnitude modifiers that apply to a simple strike (a return strike is one)."""
    return [f for f in card.features if f.kind == "static_modifier" and "simple_strike" in f.applies_to]


def condition_holds(f, source, reads: str) -> bool:
    """``f``'s condition on the acting card ``source``, its property read as ``reads`` (542.6: printed)."""
    if f.condition is None:
        return True
    what, prop, n = f.condition
    return condition_met(what, source.value(prop, reads), n)


def _magnitude_params(p) -> tuple[str, str, bool]:
    """``apply_magnitude_modifiers``' (reads, return_roles, reduces_miss), with the rules' defaults (542.6,
    512.6.2) and the rulebook's reading of A-miss-not-reduced."""
    return p.get("reads", "printed"), p.get("return_roles", SWAPPED), p.get("reduces_miss", False)


def _apply_magnitude(E: MeaningAlgebra, p):
    reads, roles, reduces_miss = _magnitude_params(p)
    out = {"magnitude": E.concrete(lambda s, c: _magnitude(s, reads, roles, reduces_miss)[0])}
    if reduces_miss:  # the reduced miss is an attack of that strength: no longer a miss (512.6.6/b2)
        undone = E.and_(E.get("reduced"), E.kind_in(*ATTACKS), E.status_is(MISS))
        out["status"] = E.ite(undone, E.lit("status", "pending"), E.get("status"))
    return out


def _pay(E: MeaningAlgebra, p):
    """512.7/b1, 540.2: the reserved resources are paid, except those a 540 text or a modification spares
    (``exempt_modified: false``: those too; ``recheck_conditions: true``: a modification made on a
    condition — Келе's «если после этого у Келе нет ран» — spares only if the condition still holds
    at payment, against 540.4/ex1; ``per_turn_count: false``: a card's «X раз за ход» spares every use
    of the turn, its X never read — against 540.1.3; ``per_turn_uses: feature``: the X counts the uses of
    the feature declared now only, not the card's other game actions of the kinds its text names; ``markers_at_declaration: true``: 540.3.1's limit is
    compared with the markers the card had when the action began, not those on it at payment;
    ``beyond_available: true``: the whole reserved amount is taken even where the card has less now — 512.7
    pays «всеми доступными ресурсами из числа зарезервированных»: what is left of the reserved, never below
    zero)."""
    exempt_modified = p.get("exempt_modified", True)
    recheck = p.get("recheck_conditions", False)
    count = per_turn_count(p)
    declared = p.get("markers_at_declaration", False)

    def pays(E: MeaningAlgebra, card, res):
        return E.not_(E.exempt_entry(card, res, recheck, count, declared)) if exempt_modified else E.true()

    return {"paid": E.paid(pays), "cards": E.spend(pays, spend_beyond if p.get("beyond_available", False) else spend),
            "paid_done": E.lit("paid_done", True)}


def per_turn_count(p: dict) -> str | None:
    """What a «X раз за ход» text (540.1.3) counts at a ``pay_reserved`` with parameters ``p``: "kind" — the
    card's game actions this turn of the kinds the text names (the rules: «Может атаковать …» counts its
    attacks), "feature" (``per_turn_uses: feature``: the uses of the feature declared now only), or None
    (``per_turn_count: false``: the X is not read, every use is spared).

    >>> per_turn_count({}), per_turn_count({"per_turn_uses": "feature"}), per_turn_count({"per_turn_count": False})
    ('kind', 'feature', None)
    """
    return p.get("per_turn_uses", "kind") if p.get("per_turn_count", True) else None


def spend(E: MeaningAlgebra, card: str, res: str, amount):
    """Paying ``amount`` of ``res`` (512.7 «всеми доступными ресурсами из числа зарезервированных»): the
    resource «close» closes the card (it is not used up); another is taken from the card's, as much of it
    as the card has (a crystal it lost during the action is not paid: it is not there)."""
    if res == "close":
        return {("card", card, "closed"): E.true()}
    return {("card", card, ("resource", res)): E.sub_to_zero(E.card(card, ("resource", res)), amount)}


def spend_beyond(E: MeaningAlgebra, card: str, res: str, amount):
    """:func:`spend` of a draft with ``beyond_available``: the whole ``amount``, the card's resource going
    below zero where it has less."""
    if res == "close":
        return spend(E, card, res, amount)
    return {("card", card, ("resource", res)): E.sub(E.card(card, ("resource", res)), amount)}


def _give_marker(E: MeaningAlgebra, p):
    """540.3: the acting card gets an action marker, unless the text of a feature that modified its
    resources in this action says otherwise (``unless_text: false``: whatever the text says).
    ``defender: true`` (a reading of A-defender-no-marker): a defender whose resources a feature
    modified in this action (540.4.1) gets one too, unless (``unless_text``) that modification's text
    says otherwise (the Z3 model abstracts the defender's markers away: nothing in one action reads
    them after payment)."""
    given, unless = E.inc(E.get("src_markers")), p.get("unless_text", True)
    out: dict[str | tuple, Term] = {"src_markers": E.ite(E.marker_waived(), E.get("src_markers"), given)
                                    if unless else given}
    if p.get("defender", False):
        out[("card", "defender", "action_markers")] = E.concrete(lambda s, c: _defender_markers(s, unless))
    return out


def _defender_markers_text(before, after, p):
    """The defender and its markers after the operation, where it got one (``defender: true``)."""
    d = after.action.defender
    if not p.get("defender", False) or d is None or after.card(d) == before.card(d):
        return {}
    return {"defender": d, "defender_markers": after.card(d).action_markers}


def _defender_markers(s, unless_text: bool) -> int | None:
    """The defender's action markers after 540.3 read as giving one to a defender whose resources a
    feature modified in this action (None: there is no defender)."""
    d = s.action.defender
    if d is None:
        return None
    mods = [m for m in s.action.modifications if m.card == d]
    markers = s.card(d).action_markers
    if not mods or (unless_text and any(not m.action_marker for m in mods)):
        return markers
    return markers + 1


def _unpaid_text(before, after, p) -> tuple:
    """The reserved entries not paid, with the feature that spares each (for the reader)."""
    markers = dict(before.action.start_markers) if p.get("markers_at_declaration", False) else None
    exempt = exemptions(before, markers, lapse=p.get("recheck_conditions", False),
                        count=per_turn_count(p)) if p.get("exempt_modified", True) else {}
    return tuple((c, r, exempt[(c, r)]) for c, r, _ in before.action.reserved if (c, r) in exempt)


#: the per-part fields (512.6.6/b4: a compound feature's next part starts them afresh)
PART_FIELDS: tuple[str, ...] = tuple(n for n, f in FIELDS.items() if f.part)

#: operation -> its meaning
OPERATIONS: dict[str, Operation] = {
    "declare": Operation(_declare, {"feature": "feature", "part": "part"}),
    "fix_x": Operation(_fix_x, {"fixed": _fixed_text}),
    # 540.2, 542.2: the card must have the resources to declare the action (a cost-X within them)
    "check_resources": Operation(lambda E, p: {"resources_ok": E.ite(E.cost_short(
        cost_short_closed_kept if p.get("closed_keeps_close", False) else cost_short),
                                                                     E.lit("resources_ok", False),
                                                                     E.lit("resources_ok", True))},
                                 {"ok": "resources_ok", "short": _short_text}),
    "reserve_resources": Operation(_reserve, {"reserved": "reserved"}),
    # 512.5/t1: the claims are resolved
    "resolve_claims": Operation(lambda E, p: {"claims": E.lit("claims", ())},
                                {"resolved": lambda before, after, p: before.claims}),
    "roll_die": Operation(_roll, {"die": lambda before, after, p: after.action.die_rolls[-1]}, die=True),
    # 512.6.2/b2: the raw die is the last value rolled (after any reroll)
    "fix_raw_die": Operation(lambda E, p: {"raw_die": E.last(E.get("last_roll"))},
                             {"die_raw": "raw_die", "rolls": "last_roll"}),
    "apply_dice_modifiers": Operation(_apply_dice, {"die": "final_die", "applied": _dice_applied_text}),
    "fix_final_die": Operation(_fix_final, {"die_final": "final_die"}),
    # 512.6.2/b3: the die-roll effect leaves the stack
    "remove_die_effect": Operation(lambda E, p: {"die_on_stack": E.lit("die_on_stack", False)}),
    "determine_base": Operation(_determine, {"*": _strike_text}),
    "check_source_legality": Operation(_legality, {"legal": "legal", "checks": "legality_checks"}),
    "apply_magnitude_modifiers": Operation(_apply_magnitude,
                                           {"*": lambda before, after, p: _magnitude(before, *_magnitude_params(p))[1]}),
    # 512.6.3/b4: the final magnitude (with its modifiers, or the base) is known; nothing changes it after
    "finalize_magnitude": Operation(lambda E, p: {
        "magnitude_final": E.ite(E.is_none(E.get("magnitude_final")), E.get("magnitude_base"), E.get("magnitude_final")),
        "magnitude_known": E.lit("magnitude_known", True)}, {"magnitude": "magnitude_final"}),
    # 512.6.5: the effect is applied
    # (a miss stays a miss: its strike reaches no target; a return strike is dealt where the strike table gives one)
    "apply_effect": Operation(lambda E, p: {"cards": E.concrete(_apply_effect),
                                            "effect_applied": E.lit("effect_applied", True),
                                            "status": E.ite(E.status_is(MISS), E.get("status"),
                                                            E.lit("status", "hit"))},
                              {"applied": lambda before, after, p: tuple(_applications(before)),
                               "prevented": lambda before, after, p: before.action.prevented}),
    # 512.6.6/b3: cards stop being sources, targets, attackers…
    "release_roles": Operation(lambda E, p: {"roles_released": E.lit("roles_released", True)}),
    # 540.3: the acting card gets an action marker «если иного не указано в тексте особенности»
    "give_action_marker": Operation(_give_marker, {"card": "source", "markers": "src_markers",
                                                   "*": _defender_markers_text}),
    "pay_reserved": Operation(_pay, {"paid": "paid", "unpaid": _unpaid_text}),
    # 512.7/b3: the feature leaves the stack (void: a declaration that did not stand, 540.2)
    "remove_from_stack": Operation(_remove_from_stack, {"feature": "feature"}),
}


# --- plays: what playing a feature of each kind does ---------------------------------------------------------

@dataclass(frozen=True)
class Play:
    """A feature kind's play: ``update(E, feature)`` as an operation's (``E.card("self", …)`` is the
    card holding it); ``die``: it takes a new roll (a reroll)."""

    update: Callable[[MeaningAlgebra, Any], Any]
    die: bool = False


def _x_amount(E: MeaningAlgebra, f, kind: str):
    """The amount a modifier adds: its number, or its X (declared with it, 542.5) by name."""
    if f.x is None:
        return f.amount, {}
    name = f"{f.id}.X"
    return name, {"xs": E.declare_x(kind, name, f.x)}


def _play_dice_mod(E: MeaningAlgebra, f):
    amount, x = _x_amount(E, f, "dice_modifier")
    return {"dice_mods": E.push_dice_mod(E.get("dice_mods"), f.mode, amount), **x}


def _play_magnitude_mod(E: MeaningAlgebra, f):
    amount, x = _x_amount(E, f, "magnitude_modifier")
    return {"mag_mods": E.push(E.get("mag_mods"), E.const((f.id, amount))), **x}


def _effect(E: MeaningAlgebra, e):
    """One effect of a feature's text on the card it names."""
    ref = e.card
    if e.do == "heal":
        return {("card", ref, "wounds"): E.sub_floor(E.card(ref, "wounds"), e.amount)}
    if e.do == "wound":
        return {("card", ref, "wounds"): E.add(E.card(ref, "wounds"), e.amount)}
    if e.do == "leave_zone":
        return {("card", ref, "in_active_zone"): E.false()}
    if e.do == "close":
        return {("card", ref, "closed"): E.true()}
    if e.do == "lose_markers":  # 510.4 (an assumption): the card loses action markers
        return {("card", ref, "action_markers"): E.sub_floor(E.card(ref, "action_markers"), e.amount)}
    if e.do == "lose_resource":
        attr = ("resource", e.prop)
        return {("card", ref, attr): E.sub_floor(E.card(ref, attr), e.amount)}
    attr = ("modifier", e.prop)  # add_modifier
    return {("card", ref, attr): E.add(E.card(ref, attr), e.amount)}


def _play_effects(E: MeaningAlgebra, f):
    """A feature with effects: each applied in turn; a prevention prevents the effect (512.6.3), a
    triggered feature fires; «then, if healthy» (540.4's Келе) modifies the card's resources."""
    stages = [_effect(E, e) for e in f.effects]
    last = {}
    if f.kind == "prevention":
        last["prevented"] = E.const(True)
    if f.kind in ("effect_trigger", "after_ability", "payment_trigger", "die_trigger"):
        last["fired"] = E.push(E.get("fired"), E.const(f.id))
    if last:
        stages.append(last)
    if f.then_if_healthy:
        mods = E.get("modifications")
        stages.append({"modifications": E.ite(E.not_(E.nonzero(E.card("self", "wounds"))),
                                              E.push_modification(mods, f.id, "self", f.then_if_healthy,
                                                                  condition="healthy"), mods)})
    return stages


def _play_block(E: MeaningAlgebra, f):
    """512.6.4: the action is blocked — a status that came about stays (A-status-kept): a missed attack that
    is blocked keeps «промах» — then the rest of the block feature's text, its effects (:func:`_play_effects`)."""
    block = {"blocked": E.true(), "status": E.ite(E.status_is(MISS), E.get("status"), E.lit("status", "blocked"))}
    rest = _play_effects(E, f)
    return [block, *rest] if rest else block


#: feature kind -> what playing it does
PLAYS: dict[str, Play] = {
    "reroll": Play(lambda E, f: {"last_roll": E.push(E.get("last_roll"), E.die())}, die=True),  # 512.6.2/b2
    "dice_modifier": Play(_play_dice_mod),  # 512.6.2/b3
    "magnitude_modifier": Play(_play_magnitude_mod),  # 512.6.3/b2
    "reduce_to_strength": Play(lambda E, f: {"reduce_to": E.const(f.strength), "reduced": E.true()}),
    # 512.6.4; a status that came about stays (A-status-kept): a missed attack that is blocked keeps «промах»
    "block": Play(_play_block),
    "resource_modification": Play(lambda E, f: {"modifications": E.push_modification(
        E.get("modifications"), f.id, f.modifies, f.resources, f.form, f.limit, f.action_marker)}),  # 540.4, 540.3
    **{k: Play(_play_effects) for k in ("sudden_action", "protection", "prevention", "replacement", "effect_trigger",
                                        "after_ability", "payment_trigger", "die_trigger")},
}
