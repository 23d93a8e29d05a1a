"""A monitor run over a concrete trace: the trace predicate of a property (:mod:`.monitor`).

:class:`View` is a trace as the monitors read it: its events and its world (the features by the
role of the card holding each).  :class:`Concrete` is the evaluator ``M`` of the monitors over it:
Python values, and each state observation read from the interpreter's
:class:`~ruleproof.model.state.State` — the other half of each observation of :mod:`.monitor_z3`
(the vector's).  :mod:`.tracker` runs monitors over a view, incrementally; :mod:`.probe` finds what each
update and condition reads.

>>> from ruleproof.model.rulebook import load_rulebook
>>> from ruleproof.model.scenario import load_scenario, run_scenario, shipped_rulings
>>> sc = load_scenario(next(p for p in shipped_rulings() if p.name == "540-kele-attacker.yaml"))
>>> view = View(run_scenario(sc, load_rulebook()).trace.events)
>>> view.events[0].op
'enter'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from ruleproof.model.algebra import Concrete as Algebra, exemptions, marker_waived
from ruleproof.model.features import Feature
from ruleproof.model.fields import FIELDS, resolve, x_facts
from ruleproof.model.semantics import condition_holds, guard_text, return_modifiers, static_modifiers, strike_guards
from ruleproof.model.vocabulary import ATTACKS, SWAPPED, X_KINDS

from .monitor import Ev

__all__ = ["View", "Concrete", "Violation", "Handle", "role_of"]


@lru_cache(maxsize=None)
def _guard_test(guard: str):
    """A guard word's compiled test (:meth:`Concrete.holds`)."""
    return guard_text(Algebra(), guard)


_ENDS = ("end", "deadlock")  # a run is over after one of these (the Z3 model's done locations)


@dataclass(frozen=True)
class Violation:
    events: tuple[int, ...]  # seq numbers of the offending events
    ru: str
    en: str


@dataclass(frozen=True)
class Handle:
    """A feature of the world, as a monitor's per-feature variable names it: the card holding it, the
    role of that card in the action, its controller."""

    key: str
    feature: Feature
    card: str
    role: str
    player: str


def role_of(action, card) -> str:
    """The role of ``card`` in ``action``, as the world menu names roles (src, def, tgt, allyA, allyB)."""
    if card.id == action.source:
        return "src"
    if card.id == action.defender:
        return "def"
    if card.id in action.targets:
        return "tgt"
    return "ally" + card.controller


class View:
    """A trace as the monitors read it: its events and the world it was played in (the first state, its
    features by id and by the role of the card holding each)."""

    def __init__(self, events: list) -> None:
        self.events = events
        self.first = events[0].state if events else None
        self._features = {} if self.first is None else {f.id: f for c in self.first.cards for f in c.features}
        self._handles: dict = {}

    @classmethod
    def of_world(cls, first) -> "View":
        """The view of a run not played yet, from its world's first state."""
        view = cls([])
        if first is not None:
            view.first = first
            view._features = {f.id: f for c in first.cards for f in c.features}
        return view

    def handles(self, each) -> list[Handle]:
        """The features of the world ``each(feature, role)`` selects."""
        found = self._handles.get(each)
        if found is None:
            found = []
            if self.first is not None and self.first.action is not None:
                for card in self.first.cards:
                    role = role_of(self.first.action, card)
                    found += [Handle(f.id, f, card.id, role, card.controller) for f in card.features if each(f, role)]
            self._handles[each] = found
        return found


class Concrete:
    """The monitors' evaluator over a concrete trace: Python values; ``done`` is set at the event that
    ends the run, ``ev`` is the event being looked at, ``view`` the trace."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.done_now = False
        self.ev: Ev | None = None

    # --- values and connectives --------------------------------------------------------------------
    def true(self):
        return True

    def false(self):
        return False

    def and_(self, *xs):
        return all(xs)

    def or_(self, *xs):
        return any(xs)

    def not_(self, x):
        return not x

    def ite(self, c, a, b):
        return a if c else b

    def and_then(self, a, rest):
        """``a`` and ``rest()`` (``rest`` asked only when ``a`` holds)."""
        return a and rest()

    def num(self, v: int, width: int):
        return v

    def on(self, x) -> bool:
        return x == 1

    def off(self, x) -> bool:
        return x == 0

    def eq(self, a, b) -> bool:
        return a == b

    def ugt(self, a, b) -> bool:
        return a > b

    def ult(self, a, b) -> bool:
        return a < b

    def bit(self, c) -> int:
        return 1 if c else 0

    def set_if(self, c, cur):
        return 1 if c else cur

    def inc_if(self, c, cur, width: int):
        return min(cur + 1, (1 << width) - 1) if c else cur

    def key(self, name: str, f: Handle | None = None) -> str:
        return name if f is None else name + f.key

    # --- the run --------------------------------------------------------------------------------------
    def done(self, S) -> bool:
        """The run is over (completed or deadlocked)."""
        return self.done_now

    def ended(self, S) -> bool:
        """The run completed."""
        return self.done_now and self.ev is not None and self.ev.op == "end"

    def after_declare(self, S) -> bool:
        """The state right after a part is declared."""
        return self.ev is not None and self.ev.ran("declare")

    def visited_any(self, S) -> bool:
        return bool(S.visited)

    # --- the state, as the vector's variables name its facts -------------------------------------------
    def get(self, S, name: str) -> int:
        """The value of the vector variable ``name`` for the concrete state ``S`` (the abstraction of
        :mod:`ruleproof.model.fields`)."""
        read = _READS.get(name)
        if read is None:
            read = _READS[name] = _reader(name)
        return read(S)

    def field_is(self, S, name: str, value) -> bool:
        return FIELDS[name].get(S) == value

    def is_attack(self, S) -> bool:
        return S.action.kind in ATTACKS

    def legal_is(self, S, value) -> bool:
        return S.action.legal is value

    def has_defender(self, S) -> bool:
        return S.action.defender is not None

    def holds(self, S, guard: str) -> bool:
        """The vocabulary's guard word ``guard`` on ``S`` (its one meaning, :mod:`ruleproof.model.semantics`)."""
        return bool(_guard_test(guard)(S, None))

    # --- 542: X ---------------------------------------------------------------------------------------------
    def cost_x_exceeds(self, S) -> bool:
        """A cost entry's X asks more of the resource than the card has (542.2)."""
        a = S.action
        for card, res, amount in a.cost:
            x = a.x(amount)
            if x is not None and x.value is not None and S.card(resolve(S, card)).resource(res) < x.value:
                return True
        return False

    def reading_matters(self, S, reads: str) -> bool:
        """A target's static magnitude modifier applies to the action under a condition on the source's
        property that holds on one of its printed and ``reads`` values and not on the other (542.6)."""
        src = S.card(S.action.source)
        return any(condition_holds(f, src, "printed") != condition_holds(f, src, reads) for f in static_modifiers(S))

    def return_roles_matter(self, S, roles: str, reads: str) -> bool:
        """The static modifiers that apply to the return strike with the cards cast as ``roles`` are not
        those that apply with 512.6.2/b4.1.4's roles (the defender attacking, the source attacked)."""
        ids = lambda r: [f.id for f in return_modifiers(S, r, reads)]  # noqa: E731
        return ids(roles) != ids(SWAPPED)

    def return_modifiable(self, S) -> bool:
        """A return strike is on and the source — the attacked creature for it — holds a static magnitude
        modifier for simple strikes.  Whether its magnitude is known yet is not asked: magnitudes are
        abstracted away in the Z3 form (form conformance, RC8, found the two apart on a draft that skips
        the strike table's reading)."""
        a = S.action
        return bool(a.return_strike and strike_guards(S.card(a.source)))

    def x_not_printed(self, S, kinds: tuple) -> bool:
        """An X of one of ``kinds`` is fixed at a value other than the printed property it reads (542.6)."""
        return any(x.kind in kinds and x_facts(S, x.kind)[f"x_{x.kind}_not_printed"] for x in S.action.xs)

    def x_reads_modified(self, S) -> bool:
        """A fixed X reads a card property that carries a modifier (where 542.6 matters)."""
        a = S.action
        for x in a.xs:
            if x.value is not None and x.compute and x.compute[0] == "property":
                card = S.card(resolve(S, x.compute[1], x.owner or a.source))
                if card.current_value(x.compute[2]) != card.printed_value(x.compute[2]):
                    return True
        return False

    # --- 540: payment ---------------------------------------------------------------------------------------
    def exempt_any(self, S) -> bool:
        return bool(exemptions(S))

    def reserved_any(self, S) -> bool:
        """Some resource is reserved (540.2)."""
        return bool(S.action.reserved)

    def unpaid_any(self, S, exempt_modified: bool) -> bool:
        """Some reserved entry is not paid: a 540 text or a modification spares it."""
        if not exempt_modified:
            return False
        ex = exemptions(S)
        return any((c, r) in ex for c, r, _ in S.action.reserved)

    def pays_other_than_due(self, pre, new, given: bool = False) -> bool:
        """The payment is not the reserved entries less those 540 spares — 540.3.1 counting the markers on
        each card at payment («находится»; a marker lost during the action is lost, 510.4), less the
        acting card's marker of this very action when it was ``given`` before payment."""
        markers = {c.id: c.action_markers for c in pre.cards}
        if given:
            src = pre.action.source
            markers[src] = max(0, markers[src] - 1)
        exempt = exemptions(pre, markers)
        due = sorted((c, r, n) for c, r, n in pre.action.reserved if (c, r) not in exempt)
        return sorted(tuple(p) for p in new.action.paid) != due

    def closed_owes_close(self, S) -> bool:
        """A card the cost asks to close is closed already (it has no «закрытие»: A-closed-no-close)."""
        return any(r == "close" and S.card(c).closed for c, r, _ in S.action.cost)

    def assault_due(self, S) -> bool:
        """540.1.2: the source holds «Закрывается после [текст] нападения» for this kind of action, the action
        is its own attack — an assault in any reading of «нападение» — its closing is reserved, no other
        540.1 text of the card names its closing (a «не закрывается» or «X раз за ход» text may spare it: the
        menu's source, which Z3 plays, holds one text at most) and no modification of this action spares it
        (540.4): its closing is due."""
        a = S.action
        texts = [f for f in S.card(a.source).features if f.kind == "resource_modifier" and "close" in f.resources]
        held = bool(texts) and all(f.form == "closes_only_after_assault" for f in texts) and \
            any(a.kind in f.applies_to for f in texts)
        reserved = any(c == a.source and r == "close" for c, r, *_ in a.reserved)
        modified = any(m.card == a.source and "close" in m.resources for m in a.modifications)
        return held and a.kind in ATTACKS and reserved and not modified

    def source_closing_paid(self, S) -> bool:
        """The source's closing is among what was paid."""
        return any(c == S.action.source and r == "close" for c, r, _ in S.action.paid)

    def overdrawn(self, new) -> bool:
        """Some card has less than nothing of a resource: a payment took more than the card had (512.7
        pays «всеми доступными ресурсами из числа зарезервированных»)."""
        return any(n < 0 for c in new.cards for _, n in c.resources)

    def reserved_other_than_cost(self, S) -> bool:
        """The reservation is not every entry of the cost at its amount (540.2)."""
        a = S.action
        want = set()
        for card, res, amount in a.cost:
            x = a.x(amount)
            want.add((card, res, int(amount) if amount.isdigit() else (x.value if x and x.value is not None else 0)))
        return {tuple(r) for r in a.reserved} != want

    def marker_waived(self, S) -> bool:
        """The text of a feature that modifies the acting card's resources says it gets no action marker
        (540.3 «если иного не указано в тексте особенности»)."""
        return marker_waived(S)

    def marker_given(self, pre, new) -> bool:
        """The acting card's action markers went up: it got a marker and can no longer move (540.3).
        Read at the event, not against the action's start: a card may lose markers on the way (510.4)."""
        src = new.action.source
        return new.card(src).action_markers > pre.card(src).action_markers

    def all_parts_declared(self, S) -> bool:
        """As many parts were declared as the compound feature has (512.6.6/b4)."""
        return S.action.declared == self._first_action().parts_left + 1

    def parts_at_start(self, S, n: int) -> bool:
        return self._first_action().parts_left == n

    def _first_action(self):
        """The action of the run's first state (a state is looked at only in a run that has one)."""
        first = self.view.first
        assert first is not None and first.action is not None, "a monitor reads the action of a run with no state"
        return first.action

    # --- features: the world's, by handle ----------------------------------------------------------------------
    def features(self, each) -> list[Handle]:
        return self.view.handles(each)

    def has(self, S, f: Handle) -> bool:
        return True

    def offered(self, pre, ev: Ev, f: Handle) -> bool:
        """At a turn: ``f`` is among the options of the player who has priority."""
        return f.key in ev.params.get("offered", ())

    def has_priority(self, pre, ev: Ev, f: Handle) -> bool:
        """At a turn: the player controlling ``f``'s card has priority."""
        return ev.params.get("player") == f.player

    def played(self, ev: Ev, f: Handle) -> bool:
        return ev.op == "play" and ev.key == f.key

    def payers(self, S) -> frozenset:
        """What was paid: (card, resource) pairs."""
        return frozenset((c, r) for c, r, _ in S.action.paid)

    def paid_by(self, payers, f: Handle) -> bool:
        """``f``'s card paid what its «при оплате [X]» speaks of (X: its ``resources``; none: anything)."""
        wanted = f.feature.resources
        return bool(payers) and any(c == f.card and (not wanted or r in wanted) for c, r in payers)


def _reader(name: str):
    """How the vector variable ``name`` is read from a concrete state."""
    if name.startswith("x_") and name.endswith("_declared"):
        kind = name[2:-len("_declared")]

        def declared(S) -> int:
            for x in S.action.xs:
                if x.kind == kind:
                    return 1
            return 0
        return declared
    if name.startswith("x_"):
        kind = next(k for k in X_KINDS if name.startswith(f"x_{k}_"))
        return lambda S: x_facts(S, kind)[name]
    if name == "dice_mods_declared":
        return lambda S: int(bool(S.action.dice_mods))
    f = FIELDS[name]
    get, code = f.get, f.code
    return lambda S: code(get(S))


_READS: dict = {}


if TYPE_CHECKING:
    from .monitor_interface import MonitorAlgebra

    def _conforms(evaluator: Concrete) -> MonitorAlgebra:
        """The type checker holds this evaluator to the monitors' interface (never called)."""
        return evaluator
