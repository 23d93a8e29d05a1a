"""The expression layer the vocabulary's meanings are written in, and its two evaluators.

A meaning (:mod:`.semantics`) is a Python function of an *algebra* ``E``: it builds its value only
from ``E``'s constants, connectives and observations of the game state (``E.blocked()``,
``E.is_source(card)``, …).  The same function evaluated with

* :class:`Concrete` gives a compiled test: a closure ``(state, card) -> value`` over the
  interpreter's :class:`~ruleproof.model.state.State` (built once per word, then only called), and
* :class:`Symbolic` gives a Z3 term over the abstract state vector of a compiled rulebook
  (:class:`~ruleproof.model.symbolic.System`), for one card of the world menu,

so what a word means is written once and both engines derive from it.  An observation is the only
thing each evaluator says in its own terms — how a fact of the game is read from a concrete state
and from the vector (the abstraction, which the conformance check tests on every rulebook).

>>> from ruleproof.model.state import Action, Card, State
>>> E = Concrete()
>>> test = E.and_(E.kind_in("spell", "effect"), E.not_(E.needs_magnitude()))
>>> s = State(cards=(), action=Action("f", "spell", "src", needs_magnitude=False))
>>> test(s, None)
True
"""

from __future__ import annotations

from typing import Callable

import z3

__all__ = ["Concrete", "Symbolic", "LEGAL", "STATUS_CODES", "exemptions"]

#: how the vector holds the action's legality (None: not checked yet)
LEGAL = {None: 0, True: 1, False: 2}
#: how the vector holds the action's status
STATUS_CODES = {"pending": 0, "hit": 1, "miss": 2, "blocked": 3, "illegal": 4}

Test = Callable  # (state, card) -> value


def _c(v):
    return lambda s, c: v


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
    """Meanings as compiled closures ``(state, card) -> value`` over the interpreter's state; ``card``
    is the :class:`~ruleproof.model.state.Card` a feature's offer is asked for (None elsewhere)."""

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

    def blocked(self) -> Test:
        return lambda s, c: s.action.blocked

    def parts_left(self) -> Test:
        return lambda s, c: s.action.parts_left > 0

    def visited(self, step: str) -> Test:
        return lambda s, c: step in s.visited

    def status_is(self, status: str) -> Test:
        return lambda s, c: s.action.status == status

    def return_strike(self) -> Test:
        return lambda s, c: s.action.return_strike

    # --- the card asked about --------------------------------------------------------------------------
    def is_source(self) -> Test:
        return lambda s, c: c.id == s.action.source

    def is_defender(self) -> Test:
        return lambda s, c: c.id == s.action.defender

    def closed(self) -> Test:
        return lambda s, c: c.closed

    def paid_any(self) -> Test:
        return lambda s, c: any(p[0] == c.id for p in s.action.paid)

    def markers(self) -> Test:
        return lambda s, c: c.action_markers

    # --- the fields operations read and write (:mod:`.fields`) ------------------------------------------
    def get(self, name: str) -> Test:
        from .fields import FIELDS

        get = FIELDS[name].get
        return lambda s, c: get(s)

    def lit(self, name: str, value) -> Test:
        return _c(value)

    def ite(self, cond: Test, a: Test, b: Test) -> Test:
        return lambda s, c: a(s, c) if cond(s, c) else b(s, c)

    def inc(self, a: Test) -> Test:
        return lambda s, c: a(s, c) + 1

    def is_none(self, a: Test) -> Test:
        return lambda s, c: a(s, c) is None

    def concrete(self, fn) -> Test:
        """A value only the interpreter holds, computed by ``fn(state)`` (the model abstracts it away)."""
        return lambda s, c: fn(s)

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


_EXEMPT_TESTS: dict = {}
_SHORT_TESTS: dict = {}


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


def _exempt_test(f) -> Test:
    test = _EXEMPT_TESTS.get(f)
    if test is None:
        from .semantics import exempts

        E = Concrete()
        test = _EXEMPT_TESTS[f] = exempts(E, f.form, None if f.limit is None else E.const(f.limit), f.applies_to)
    return test


def exemptions(s, markers: dict[str, int] | None = None) -> dict[tuple[str, str], str]:
    """(card, resource) -> the feature that stops it being paid (540.2), in a concrete state: every
    card's own 540.1 text that :func:`~.semantics.exempts` applies, and every modification of the
    executing action (540.4).  ``markers``: the action markers to count per card instead of the
    current ones (540.3.1 counts those the card had when it acted)."""
    from .state import evolve

    out: dict[tuple[str, str], str] = {}
    for card in s.cards:
        for f in card.features:
            if f.kind != "resource_modifier":
                continue
            c = card if markers is None else evolve(card, action_markers=markers.get(card.id, 0))
            if _exempt_test(f)(s, c):
                for r in f.resources:
                    out[(card.id, r)] = f.id
    for m in s.action.modifications:
        for r in m.resources:
            out[(m.card, r)] = m.feature
    return out


class _Opaque:
    """The value of a field the Z3 model abstracts away (and of anything computed from it)."""

    def __repr__(self) -> str:
        return "OPAQUE"


OPAQUE = _Opaque()


class Symbolic:
    """Meanings as Z3 terms over the vector ``S`` of a compiled system, for the menu card ``card``
    (``src``, ``tgt``, ``def``, ``allyA``, ``allyB``; None where no card is asked about).
    ``markers``: the source's action markers to read instead of the vector's (a property's Z3 form
    reads those the card had when it acted)."""

    def __init__(self, sy, S, card: str | None = None, markers=None) -> None:
        self.sy, self.S, self.card, self._markers = sy, S, card, markers

    def const(self, v):
        return self.sy.true() if v is True else self.sy.false() if v is False else v

    def true(self):
        return self.sy.true()

    def false(self):
        return self.sy.false()

    def not_(self, a):
        return z3.Not(a)

    def and_(self, *xs):
        return self.sy.true() if not xs else xs[0] if len(xs) == 1 else z3.And(*xs)

    def or_(self, *xs):
        return self.sy.false() if not xs else xs[0] if len(xs) == 1 else z3.Or(*xs)

    def lt(self, a, b):
        return a < b  # signed: a count left negative by a payment is below any need

    def kind_in(self, *kinds: str):
        return self.sy.is_kind(self.S, *kinds)

    def needs_magnitude(self):
        return self.sy.t(self.S["w_needs_magnitude"])

    def legal_is(self, value: bool | None):
        return self.S["legal"] == self.sy.val(LEGAL[value], "legal")

    def blocked(self):
        return self.sy.t(self.S["blocked"])

    def parts_left(self):
        return self.S["parts_left"] != self.sy.val(0, "parts_left")

    def visited(self, step: str):
        steps = self.sy.steps
        return self.sy.bit(self.S["visited"], steps.index(step)) if step in steps else self.sy.false()

    def status_is(self, status: str):
        return self.S["status"] == self.sy.val(STATUS_CODES[status], "status")

    def return_strike(self):
        return self.sy.t(self.S["return_strike"])

    def is_source(self):
        return self.const(self.card == "src")

    def is_defender(self):
        return self.sy.t(self.S["w_has_defender"]) if self.card == "def" else self.sy.false()

    def closed(self):
        return self.sy.t(self.S[f"{self.card}_closed"]) if self.card in ("src", "def") else self.sy.false()

    def paid_any(self):
        paid = self.S["paid"]
        if self.card == "src":
            return z3.Or(self.sy.bit(paid, 0), self.sy.bit(paid, 2))
        if self.card == "def":
            return self.sy.bit(paid, 1)
        return self.sy.false()

    def markers(self):
        """A card's action markers as a 4-bit value (the vector holds the source's as 2 bits, the
        defender's in the world: they do not change in an action of the source)."""
        if self.card == "src":
            mk = self.S["src_markers"] if self._markers is None else self._markers
            return z3.ZeroExt(2, mk)
        if self.card == "def":
            return self.S["w_def_markers"]
        return self.sy.val(0, 4)

    def any_exempt(self):
        return z3.Or(*self.sy.exempt(self.S, True, markers_src=self._markers))

    def get(self, name: str):
        from .fields import FIELDS

        f = FIELDS[name]
        if not f.var:
            return OPAQUE  # the model abstracts it away
        v = self.S[name]
        return self.sy.t(v) if f.kind == "bool" else v

    def lit(self, name: str, value):
        from .fields import FIELDS

        f = FIELDS[name]
        if f.kind == "bool":
            return self.sy.true() if value else self.sy.false()
        return self.sy.val(f.code(value), name)

    def ite(self, cond, a, b):
        return OPAQUE if any(x is OPAQUE for x in (cond, a, b)) else z3.If(cond, a, b)

    def inc(self, a):
        return OPAQUE if a is OPAQUE else self.sy.sat_inc(a)

    def is_none(self, a):
        return OPAQUE if a is OPAQUE else a == self.sy.val(0, a.size())

    def concrete(self, fn):
        return OPAQUE

    def resource(self, card: str, res: str):
        """A card's resource as the model holds it: the source's crystals (8 bits, signed); every card
        of the menu has one «close» resource, which paying does not spend (it closes the card)."""
        if card == "src" and res == "crystal":
            return self.S["src_crystals"]
        return self.sy.val(1 if res == "close" else 0, 8)

    def cost_fixed(self, amount: str):
        if amount.isdigit():
            return self.sy.true()
        return self.sy.t(self.S["x_cost_fixed"])

    def cost_need(self, amount: str):
        if amount.isdigit():
            return self.sy.val(int(amount), 8)
        return z3.ZeroExt(4, self.S["w_cost_x_value"])

    def cost_short(self, short):
        from .menu import COST_ENTRIES

        present = {"always": self.sy.true(), "defender": self.sy.t(self.S["w_has_defender"]),
                   "cost_x": self.sy.t(self.S["x_cost_declared"])}
        return z3.Or([z3.And(present[when], short(self, card, res, amount)) for card, res, amount, when in COST_ENTRIES])


# --- an operation's meaning, compiled for each engine ----------------------------------------------------------

def concrete_operation(name: str):
    """The interpreter's handler ``(run, state, op) -> state`` of operation ``name`` (its meaning in
    :data:`.semantics.OPERATIONS`): every new value computed from the state before, then set, then the
    event emitted with the reported fields."""
    from .fields import FIELDS, apply
    from .semantics import OPERATIONS

    meaning = OPERATIONS[name]
    updates = tuple(meaning.update(Concrete()).items())
    report = tuple((key, FIELDS[f].get if isinstance(f, str) else None, f) for key, f in meaning.report.items())

    def handler(r, s, op):
        before = s
        s = apply(s, {f: test(s, None) for f, test in updates})
        values = {key: get(s) if get is not None else fn(before, s) for key, get, fn in report}
        r.emit(s, op.op, op.cites, {**op.params, **values}, op.assumes)
        return s

    handler.meaning = name  # derived from semantics.OPERATIONS (tests/model/test_one_meaning.py reads this)
    return handler


def symbolic_operation(name: str):
    """The encoding's body ``(sy, S, die, params, step_kind) -> (guard, updates)`` of operation ``name``."""
    from .fields import FIELDS
    from .semantics import OPERATIONS

    meaning = OPERATIONS[name]

    def body(sy, S, die, p, k):
        out = {}
        for f, v in meaning.update(Symbolic(sy, S)).items():
            if not FIELDS[f].var:
                continue  # a field the model abstracts away
            if v is OPAQUE:  # the abstraction would be unsound: say so where the word is compiled
                raise ValueError(f"operation {name}: the model's {f} would depend on a field it abstracts away")
            out[f] = sy.b(v) if FIELDS[f].kind == "bool" else v
        return sy.true(), out

    body.meaning = name
    return body
