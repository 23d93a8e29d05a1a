"""The expression layer the vocabulary's meanings are written in, and its two evaluators.

A meaning (:mod:`.semantics`) is a Python function of an *algebra* ``E``: it builds its value only
from ``E``'s constants, connectives and observations of the game state (``E.blocked()``,
``E.is_source(card)``, …).  The same function evaluated with

* :class:`Concrete` (here) gives a compiled test: a closure ``(state, context) -> value`` over the
  interpreter's :class:`~ruleproof.model.state.State` (built once per word, then only called), and
* :class:`~.algebra_z3.Symbolic` gives a Z3 term over the abstract state vector of a compiled
  rulebook (:class:`~ruleproof.model.symbolic.System`), for one card of the world menu,

so what a word means is written once and both engines derive from it.  An observation is the only
thing each evaluator says in its own terms — how a fact of the game is read from a concrete state
and from the vector, and what the operations on a collection (:mod:`.fields`) do to each form: the
abstraction, which the conformance check tests on every rulebook.

>>> from ruleproof.model.state import Action, Card, State
>>> E = Concrete()
>>> test = E.and_(E.kind_in("spell", "effect"), E.not_(E.needs_magnitude()))
>>> s = State(cards=(), action=Action("f", "spell", "src", needs_magnitude=False))
>>> test(s, None)
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, NamedTuple

from .exempts import exempts
from .features import counts
from .fields import FIELDS, apply, card_value, resolve
from .state import Modification, XVar, evolve

__all__ = ["Concrete", "Ctx", "OPAQUE", "exemptions", "marker_waived", "short_entries", "number",
           "dice_fold"]


Test = Callable  # (state, context) -> value


class Ctx(NamedTuple):
    """What an operation or a play is done with, besides the state: the card whose feature is played
    (``self`` in its text), the die result it takes, the rulebook's strike table and die faces."""

    card: str | None = None
    die: int | None = None
    strikes: dict | None = None
    faces: tuple[int, int] | None = None


class _Opaque:
    """The value of a field the Z3 model abstracts away (and of anything computed from it)."""

    def __repr__(self) -> str:
        return "OPAQUE"


OPAQUE = _Opaque()


def _c(v):
    test = lambda s, c: v  # noqa: E731
    test.const = v  # a constant: :mod:`.derive` computes it once, not per call
    return test


def _junction(xs: tuple, conj: bool) -> Test:
    """All of ``xs`` (``conj``) or any of them, as one closure (two tests without a generator: the
    guards' hot path)."""
    if not xs:
        return _c(conj)
    if len(xs) == 1:
        return xs[0]
    if len(xs) == 2:
        a, b = xs
        if conj:
            return lambda s, c: a(s, c) and b(s, c)
        return lambda s, c: a(s, c) or b(s, c)
    quantifier = all if conj else any
    return lambda s, c: quantifier(x(s, c) for x in xs)


class Concrete:
    """Meanings as compiled closures ``(state, context) -> value`` over the interpreter's state.  The
    context is what the meaning is asked about: the :class:`~ruleproof.model.state.Card` a feature's
    offer is asked for, the :class:`Ctx` of an operation or a play, the item of a collection (an
    :class:`~ruleproof.model.state.XVar` for :meth:`fix_xs`)."""

    # --- constants and connectives ---------------------------------------------------------------
    def const(self, v) -> Test:
        return _c(v)

    def true(self) -> Test:
        return _c(True)

    def false(self) -> Test:
        return _c(False)

    def not_(self, a: Test) -> Test:
        return lambda s, c: not a(s, c)

    def and_(self, *xs: Test) -> Test:
        return _junction(xs, True)

    def or_(self, *xs: Test) -> Test:
        return _junction(xs, False)

    def lt(self, a: Test, b: Test) -> Test:
        return lambda s, c: a(s, c) < b(s, c)

    # --- the executing action ----------------------------------------------------------------------
    def kind_in(self, *kinds: str) -> Test:
        ks = frozenset(kinds)
        return lambda s, c: s.action.kind in ks

    def needs_magnitude(self) -> Test:
        return lambda s, c: s.action.needs_magnitude

    def legal_is(self, value: bool | None) -> Test:
        return lambda s, c: s.action.legal is value

    def resources_ok_is(self, value: bool | None) -> Test:
        return lambda s, c: s.action.resources_ok is value

    def blocked(self) -> Test:
        return lambda s, c: s.action.blocked

    def parts_left(self) -> Test:
        return lambda s, c: s.action.parts_left > 0

    def window_plays(self) -> Test:
        """How many features were played in the last priority window the action opened."""
        return lambda s, c: s.action.window_plays

    def visited(self, step: str) -> Test:
        return lambda s, c: step in s.visited

    def status_is(self, status: str) -> Test:
        return lambda s, c: s.action.status == status

    def return_strike(self) -> Test:
        return lambda s, c: s.action.return_strike

    def counts_as_assault(self, strike: str) -> Test:
        """The rulebook's ``assault_strikes`` table (carried by the state) counts ``strike`` as an assault (540.1.2)."""
        return lambda s, c: strike in s.assault_strikes

    # --- the card asked about --------------------------------------------------------------------------
    def is_source(self) -> Test:
        return lambda s, c: c.id == s.action.source

    def is_defender(self) -> Test:
        return lambda s, c: c.id == s.action.defender

    def closed(self) -> Test:
        return lambda s, c: c.closed

    def paid_any(self) -> Test:
        return lambda s, c: any(p[0] == c.id for p in s.action.paid)

    def paid_resource(self, resource: str) -> Test:
        """The card asked about paid ``resource`` in this action's payment."""
        return lambda s, c: any(p[0] == c.id and p[1] == resource for p in s.action.paid)

    def markers(self) -> Test:
        return lambda s, c: c.action_markers

    def uses(self, kinds: tuple[str, ...] | None = None) -> Test:
        """540.1.3: the card's uses this turn (this action counted once declared) of game actions of
        ``kinds`` — None: of the declared feature only; a card that declared nothing in this action — a
        defender — has made none."""
        if kinds is None:
            return lambda s, c: c.used(s.action.feature, s.action.kind) if c.id == s.action.source else 0
        return lambda s, c: c.used_kinds(kinds) if c.id == s.action.source else 0

    # --- the fields operations read and write (:mod:`.fields`) ------------------------------------------
    def get(self, name: str) -> Test:

        get = FIELDS[name].get
        return lambda s, c: get(s)

    def lit(self, name: str, value) -> Test:
        return _c(value)

    def initial(self, name: str) -> Test:

        return _c(FIELDS[name].initial)

    def none(self) -> Test:
        return _c(None)

    def ite(self, cond: Test, a: Test, b: Test) -> Test:
        return lambda s, c: a(s, c) if cond(s, c) else b(s, c)

    def inc(self, a: Test) -> Test:
        return lambda s, c: a(s, c) + 1

    def nonzero(self, a: Test) -> Test:
        return lambda s, c: a(s, c) != 0

    def add(self, a: Test, n: int) -> Test:
        return lambda s, c: a(s, c) + n

    def sub(self, a: Test, b: Test) -> Test:
        return lambda s, c: a(s, c) - b(s, c)

    def sub_to_zero(self, a: Test, b: Test) -> Test:
        """``a - b``, never below 0 (paying what is there: 512.7)."""
        return lambda s, c: max(0, a(s, c) - b(s, c))

    def sub_floor(self, a: Test, n: int) -> Test:
        """``a - n``, never below 0 (healing stops at no wounds)."""
        return lambda s, c: max(0, a(s, c) - n)

    def is_none(self, a: Test) -> Test:
        return lambda s, c: a(s, c) is None

    def last(self, a: Test) -> Test:
        """The last of a sequence (None if empty): the last die rolled."""
        return lambda s, c: (v[-1] if (v := a(s, c)) else None)

    def push(self, a: Test, item: Test) -> Test:
        """A sequence with ``item`` added at its end."""
        return lambda s, c: a(s, c) + (item(s, c),)

    def concrete(self, fn) -> Test:
        """A value only the interpreter holds, computed by ``fn(state, context)`` (the model abstracts
        it away)."""
        return fn

    # --- inputs and the cards a text names ------------------------------------------------------------
    def die(self) -> Test:
        """The die result the operation or play takes (its context's)."""
        return lambda s, c: c.die

    def card(self, ref: str, attr) -> Test:
        """An attribute of the card ``ref`` names (see :func:`.fields.resolve`; ``self``: the card whose
        feature is played): a Card field, ("modifier", property) or ("resource", name)."""

        return lambda s, c: card_value(s.card(resolve(s, ref, c.card if c is not None else None)), attr)

    def has_defender(self) -> Test:
        return lambda s, c: s.action.defender is not None

    def targets_in_zone(self) -> Test:
        """Every target of the action is in the active zone (542.3: whether one left is not checked)."""
        return lambda s, c: all(s.card(t).in_active_zone for t in s.action.targets)

    def struck_open(self) -> Test:
        """The card the action strikes — its defender, else its first target — is open (512.6.2/b4.2)."""
        def test(s, c):
            a = s.action
            struck = a.defender or (a.targets[0] if a.targets else None)
            return struck is None or not s.card(struck).closed
        return test

    def die_in(self, die: Test, values: tuple[int, ...]) -> Test:
        """The die value ``die`` is there (not None) and one of ``values``."""
        faces = frozenset(values)
        return lambda s, c: die(s, c) in faces

    def strike_returns(self, die: Test) -> Test:
        """The rulebook's strike table gives a return strike for the final die ``die`` (512.6.2/b4)."""
        return self._strike_row(die, lambda row: row[1] != "none")

    def strike_misses(self, die: Test) -> Test:
        """The rulebook's strike table calls the strike a miss for the final die ``die`` (512.6.6/b2)."""
        return self._strike_row(die, lambda row: row[0] == "miss")

    def strike_has_row(self, die: Test) -> Test:
        """The rulebook's strike table has a row for the final die ``die`` (512.6.2/b4.1.1)."""
        return self._strike_row(die, lambda row: row[0] is not None)

    def clamp_die(self, die: Test) -> Test:
        """``die`` within the die's faces (A-die-clamp): above the highest it reads as the highest, below
        the lowest as the lowest; no die stays no die."""
        def test(s, c):
            v = die(s, c)
            return v if v is None else min(max(v, c.faces[0]), c.faces[1])
        return test

    @staticmethod
    def _strike_row(die: Test, says: Callable) -> Test:
        def test(s, c):
            v = die(s, c)
            return v is not None and says(c.strikes.get(str(v), (None, "none")))
        return test

    # --- the collections of :mod:`.fields` ---------------------------------------------------------------
    def push_dice_mod(self, mods: Test, mode: str, amount) -> Test:
        """The dice modifiers with one more: ``mode`` (add, sub, set) and a number or an X's name."""
        entry = (mode, amount)
        return lambda s, c: mods(s, c) + (entry,)

    def dice_total(self, mods: Test, die: Test) -> Test:
        """A die value with the dice modifiers applied in order (:func:`dice_fold`): 512.6.2/b3."""
        return lambda s, c: dice_fold(s.action, die(s, c), mods(s, c))[0]

    def declare_x(self, kind: str, name: str, compute) -> Test:
        """The action's X variables with one more, of ``kind``, computed by ``compute``, belonging to the
        card whose feature is played."""

        return lambda s, c: s.action.xs + (XVar(name, kind, compute=compute, owner=c.card),)

    def fix_xs(self, kind: str, value) -> Test:
        """The action's X variables, each of ``kind`` fixed at the value ``value(x)`` gives it (a meaning
        of one X: its closures are asked about the X)."""

        test = value(None)

        def fixed(s, c):
            xs = s.action.xs
            if not any(x.kind == kind for x in xs):
                return xs  # nothing to fix: the same tuple (the setter then keeps the state)
            return tuple(evolve(x, value=test(s, x), fixed_at=s.step, fixes=x.fixes + 1) if x.kind == kind else x
                         for x in s.action.xs)
        return fixed

    def x_fixed(self, kind: str) -> Test:
        """The action has an X of ``kind`` and it is fixed (has its value)."""
        return lambda s, c: any(x.kind == kind and x.value is not None for x in s.action.xs)

    def x_value(self, kind: str) -> Test:
        """The value of the action's fixed X of ``kind`` (asked only where :meth:`x_fixed` holds)."""
        return lambda s, c: next(x.value for x in s.action.xs if x.kind == kind and x.value is not None)

    def x_computed(self, x) -> Test:
        return lambda s, xv: xv.compute is not None

    def x_chosen(self, x) -> Test:
        return lambda s, xv: xv.chosen

    def x_read(self, x, reads: str) -> Test:
        """The value an X's ``compute`` reads (542.6: ``printed`` or ``current`` card values)."""

        def read(s, xv):
            what, who, prop = xv.compute
            card = s.card(resolve(s, who, xv.owner or s.action.source))
            if what == "count":  # «число ваших открытых существ»: the cards of that card's controller
                return sum(1 for other in s.cards if other.controller == card.controller and counts(other, prop))
            if what == "wounds":
                return card.wounds
            if what == "resource":
                return card.resource(prop)
            return card.value(prop, reads)
        return read

    def reserve(self, entry) -> Test:
        """The action's cost entries ``entry(E, card, res, amount) -> (taken, amount)`` keeps, with the
        amounts it gives."""
        def reserved(s, c):
            out = []
            for e in s.action.cost:
                take, amount = _entry_tests(entry, e)
                if take(s, c):
                    out.append((e[0], e[1], amount(s, c)))
            return tuple(out)
        return reserved

    def exempt_entry(self, card: str, res: str, recheck: bool = False, count: str | None = "kind",
                     declared: bool = False) -> Test:
        """The card's ``res`` is spared (540.2); ``recheck``: a modification made on a condition spares it
        only if the condition holds now (Келе: no wounds); ``count``: what a «X раз за ход» text counts
        (:func:`~.semantics.per_turn_count`: "kind", "feature", or None: its X is not read); ``declared``:
        540.3.1's limit is compared with the markers each card had when the action began."""
        key = (card, res)
        if declared:
            return lambda s, c: key in exemptions(s, dict(s.action.start_markers), lapse=recheck, count=count)
        if recheck or count != "kind":
            return lambda s, c: key in exemptions(s, lapse=recheck, count=count)
        return lambda s, c: key in exemptions(s)

    def paid(self, pays) -> Test:
        """The reserved entries ``pays(E, card, res)`` says are paid."""
        return lambda s, c: tuple(e for e in s.action.reserved if _entry_tests(pays, e[:2])(s, c))

    def spend(self, pays, spend) -> Test:
        """The cards after paying each reserved entry ``pays`` says is paid, as ``spend(E, card, res,
        amount)`` says (card changes, keyed ``("card", ref, attr)``)."""

        def cards(s, c):
            t = s
            for e in s.action.reserved:
                if _entry_tests(pays, e[:2])(s, c):
                    changes = _entry_tests(spend, e, key=("spend",))
                    t = apply(t, {k: v(t, c) for k, v in changes.items()})
            return t.cards
        return cards

    def push_modification(self, mods: Test, feature: str, ref: str, resources: tuple, form: str = "stays_open",
                          limit: int | None = None, action_marker: bool = True, condition: str = "") -> Test:
        """The action's resource modifications (540.4) with one more: ``feature`` spares the card ``ref``
        names paying ``resources`` (``action_marker`` False: its text says the acting card gets no
        action marker, 540.3; ``condition``: the one it was made on, 540.4/ex1)."""

        return lambda s, c: mods(s, c) + (Modification(feature, resolve(s, ref, c.card), resources, s.step, form,
                                                        limit, action_marker, condition),)

    # --- what an action costs (540.2, 542.2) ---------------------------------------------------------------
    def resource(self, card: str, res: str) -> Test:
        return lambda s, c: s.card(card).resource(res)

    def cost_fixed(self, amount: str) -> Test:
        if amount.isdigit():
            return _c(True)
        return lambda s, c: (x := s.action.x(amount)) is not None and x.value is not None

    def cost_need(self, amount: str) -> Test:
        if amount.isdigit():
            return _c(int(amount))
        return lambda s, c: s.action.x(amount).value

    def cost_short(self, short) -> Test:
        """Some entry of the action's cost is short by the meaning ``short(E, card, res, amount)``."""
        return lambda s, c: bool(short_entries(s, short))

    # --- aggregates over the world (the concrete world: its cards and their features) ------------------
    def any_exempt(self) -> Test:
        return lambda s, c: bool(exemptions(s))

    def marker_waived(self) -> Test:
        """540.3 «если иного не указано в тексте особенности»: a feature that modifies the acting card's
        resources in this action says in its text that the card gets no action marker."""
        return lambda s, c: marker_waived(s)


def number(action, amount):
    """A modifier's amount: the number it is, or the value of the X it names (None: not fixed yet)."""
    if isinstance(amount, int):
        return amount
    x = action.x(amount)
    return x.value if x is not None else None


def dice_fold(action, value, mods) -> tuple:
    """``value`` with the dice modifiers ``mods`` ((add|sub|set, amount)) applied in order, and the
    account of each: (mode, number, value after), or (mode, amount, "unknown") for one that could not
    be applied (no die, or its X not fixed yet: it is left out)."""
    applied = []
    for mode, amount in mods:
        n = number(action, amount)
        if value is None or n is None:
            applied.append((mode, amount, "unknown"))
            continue
        value = n if mode == "set" else value + n if mode == "add" else value - n
        applied.append((mode, n, value))
    return value, tuple(applied)


_EXEMPT_TESTS: dict = {}
_SHORT_TESTS: dict = {}
_ENTRY_TESTS: dict = {}


def _entry_tests(meaning, entry: tuple, key: tuple = ()):
    """``meaning(E, *entry)`` compiled once per entry (a cost entry, a reserved one, a card and resource)."""
    k = (meaning, entry, key)
    test = _ENTRY_TESTS.get(k)
    if test is None:
        E = Concrete()
        args = [E.const(a) if key and i == 2 else a for i, a in enumerate(entry)]  # spend: an amount paid
        test = _ENTRY_TESTS[k] = meaning(E, *args)
    return test


def short_entries(s, short) -> list[tuple[str, str, str]]:
    """The entries of the executing action's cost that ``short`` (a meaning of an entry) says the card
    lacks, in a concrete state (each entry's test compiled once)."""
    out = []
    for entry in s.action.cost:
        test = _SHORT_TESTS.get((short, entry))
        if test is None:
            test = _SHORT_TESTS[(short, entry)] = short(Concrete(), *entry)
        if test(s, None):
            out.append(entry)
    return out


def _exempt_test(f, count: str | None = "kind") -> Test:
    test = _EXEMPT_TESTS.get((f, count))
    if test is None:
        E = Concrete()
        lim = None if f.limit is None else E.const(f.limit)
        times = None if f.times is None or not count else E.const(f.times)
        test = _EXEMPT_TESTS[(f, count)] = exempts(E, f.form, lim, f.applies_to, times, per=count or "kind")
    return test


def exemptions(s, markers: dict[str, int] | None = None, lapse: bool = False,
               count: str | None = "kind") -> dict[tuple[str, str], str]:
    """(card, resource) -> the feature that stops it being paid (540.2), in a concrete state: every
    card's own 540.1 text that :func:`~.exempts.exempts` applies, and every modification of the
    executing action (540.4).  ``markers``: the action markers to count per card instead of the
    current ones (540.3.1 counts those the card had when it acted); ``lapse``: a modification made on
    a condition counts only while its condition holds (a rulebook that checks it again at payment);
    ``count``: what a «X раз за ход» text counts — "kind" (the rules: the card's game actions of the text's
    kinds), "feature" (the uses of the declared feature), None: it spares every use (its X not read)."""

    cache = markers is None and not lapse and count == "kind"
    if cache and _LAST_EXEMPT[0] is s:  # asked again of the same state (payment, offers, reports)
        return _LAST_EXEMPT[1]
    out: dict[tuple[str, str], str] = {}
    for card in s.cards:
        for f in card.features:
            if f.kind != "resource_modifier":
                continue
            c = card if markers is None else evolve(card, action_markers=markers.get(card.id, 0))
            if _exempt_test(f, count)(s, c):
                for r in f.resources:
                    out[(card.id, r)] = f.id
    for m in s.action.modifications:
        if lapse and not holds_now(s, m):
            continue
        for r in m.resources:
            out[(m.card, r)] = m.feature
    if cache:
        _LAST_EXEMPT[:] = (s, out)
    return out


def holds_now(s, m) -> bool:
    """The condition a modification was made on holds in ``s`` ("healthy": the card has no wounds)."""
    return not m.condition or (m.condition == "healthy" and s.card(m.card).wounds == 0)


def marker_waived(s) -> bool:
    """In a concrete state: a modification of the executing action that spares the acting card, or a
    540.1 text of that card that applies to the action (:func:`~.exempts.exempts`), says the card
    gets no action marker (540.3)."""
    src = s.action.source
    if any(m.card == src and not m.action_marker for m in s.action.modifications):
        return True
    card = s.card(src)
    return any(f.kind == "resource_modifier" and not f.action_marker and f.resources and _exempt_test(f)(s, card)
               for f in card.features)


#: the last state :func:`exemptions` was asked of, and its answer (states are immutable; callers only read it)
_LAST_EXEMPT: list = [None, None]


if TYPE_CHECKING:
    from .algebra_interface import MeaningAlgebra

    def _conforms(evaluator: Concrete) -> MeaningAlgebra:
        """The type checker holds this evaluator to the meanings' interface (never called)."""
        return evaluator
