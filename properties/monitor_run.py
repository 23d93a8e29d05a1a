"""A monitor run over a concrete trace: the trace predicate of a property (:mod:`.monitor`).

:class:`View` is a trace as the monitors read it: its events and its world (the features by the
role of the card holding each).  :class:`Concrete` is the evaluator ``M`` of the monitors over it:
Python values, and each state observation read from the interpreter's
:class:`~ruleproof.model.state.State` — the other half of each observation of :mod:`.monitor_z3`
(the vector's).  :class:`Tracker` runs monitors incrementally (the explorer feeds it each run of its
search tree once): a history variable changes at the events it names, a bad condition is asked where
what it reads of the history changes, and at the end of the run (the conditions read the state only
there: :func:`bad_reads`) — exactly the states where its truth can change, so the first violation
is the one the Z3 form reaches.  :func:`run` is one monitor over a whole trace.

>>> from ruleproof.model.rulebook import load_rulebook
>>> from ruleproof.model.scenario import load_scenario, run_scenario, shipped_rulings
>>> from ruleproof.properties.catalogue import BY_ID
>>> sc = load_scenario(next(p for p in shipped_rulings() if p.name == "540-kele-attacker.yaml"))
>>> view = View(run_scenario(sc, load_rulebook()).trace.events)
>>> run(BY_ID["P512.6.1-order"].monitor, view) is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import NamedTuple

from ruleproof.model.algebra import Concrete as Algebra, exemptions, marker_waived
from ruleproof.model.fields import FIELDS, resolve, x_facts
from ruleproof.model.semantics import condition_holds, guard_text, return_modifiers, static_modifiers, strike_guards
from ruleproof.model.vocabulary import ATTACKS, SWAPPED, X_KINDS


@lru_cache(maxsize=None)
def _guard_test(guard: str):
    """A guard word's compiled test (:meth:`Concrete.holds`)."""
    return guard_text(Algebra(), guard)

from ruleproof.model.vocabulary import OPERATIONS

from .monitor import PART_EVENT, Ev, Monitor

__all__ = ["View", "Concrete", "Violation", "Handle", "Track", "Tracker", "run", "role_of"]

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
    feature: object
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
        return S.action.declared == self.view.first.action.parts_left + 1

    def parts_at_start(self, S, n: int) -> bool:
        return self.view.first.action.parts_left == n

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


_DISPATCH: dict[int, tuple] = {}


def _dispatch(monitor: Monitor) -> dict:
    """The monitor's history variables by the event (operation) that may change them."""
    found = _DISPATCH.get(id(monitor))
    if found is None or found[0] is not monitor:
        table: dict = {}
        for v in monitor.hist:
            for op in v.on:
                table.setdefault(op, []).append(v)
        found = _DISPATCH[id(monitor)] = (monitor, table)
    return found[1]


class Track(NamedTuple):
    """Where a set of monitors stands after a prefix of a run (immutable: a search shares it between the
    runs that extend the prefix): the step kind, the kinds each window opened so far admits, the last
    state, the monitors' history (one dict: their variables' names are distinct), each monitor's
    violation (None: none yet) and the pulse variables the last event set."""

    kind: str
    windows: tuple
    last: object
    hist: dict
    found: tuple
    pulsing: tuple = ()
    premised: tuple = ()  # per monitor: its premise held when the run ended (the property was exercised)

    def key(self) -> tuple:
        """What the rest of the run's verdicts depend on besides the last state (for memoising)."""
        return (self.kind, self.windows, tuple(self.hist.values()), self.found, self.pulsing, self.premised)


class _Live(Exception):
    """A monitor's update read something beyond the event's facts: it may change the variable."""


class _Probe:
    """An evaluator (and a history) that refuses every read: an update that still says "unchanged"
    (None) under it is unchanged at every event with the same facts."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)  # Python's own questions (copy, inspect) are no reads
        raise _Live(name)

    def __getitem__(self, key):
        raise _Live(key)


_PROBE = _Probe()
_CONNECTIVES = frozenset({"true", "false", "and_", "and_then", "or_", "not_", "ite", "num", "on", "off", "eq", "ugt", "ult", "bit",
                          "key"})


class _Gate:
    """A truth value the probe cannot fix: ``MAYBE`` (it depends on the history), ``AT`` (false but at
    the event that ends a run, or right after a declaration)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __bool__(self) -> bool:
        raise _Live(self.name)  # a Python branch on an unknown value: read as reading the state


MAYBE, AT = _Gate("maybe"), _Gate("at")


def _is(x, *gates) -> bool:
    return any(x is g for g in gates)


class _Classify:
    """A three-valued evaluator of bad conditions: over a history it does not know (every variable
    ``MAYBE``) it tells whether a condition reads the state only where ``done``, ``ended`` or
    ``after_declare`` hold (``AT``) — then its truth changes only where its history does, or at those
    events.  Any other read of the state raises :class:`_Live`."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.gated = False  # the condition asked about the end of the run (or a declaration)

    def true(self):
        return True

    def false(self):
        return False

    def num(self, v, width):
        return v

    def key(self, name, f=None):
        return name if f is None else name + f.key

    def _lift(self, xs, fn):
        if any(_is(x, MAYBE, AT) for x in xs):
            return MAYBE
        return fn(*xs)

    def on(self, x):
        return self._lift((x,), lambda a: a == 1)

    def off(self, x):
        return self._lift((x,), lambda a: a == 0)

    def eq(self, a, b):
        return self._lift((a, b), lambda x, y: x == y)

    def ugt(self, a, b):
        return self._lift((a, b), lambda x, y: x > y)

    def ult(self, a, b):
        return self._lift((a, b), lambda x, y: x < y)

    def bit(self, c):
        return self._lift((c,), lambda x: int(bool(x)))

    def not_(self, x):
        return MAYBE if _is(x, MAYBE, AT) else not x

    def ite(self, c, a, b):
        return MAYBE if _is(c, MAYBE, AT) else (a if c else b)

    def and_(self, *xs):
        if any(x is False for x in xs):
            return False
        if any(x is AT for x in xs):
            return AT
        return MAYBE if any(x is MAYBE for x in xs) else True

    def or_(self, *xs):
        if any(x is True for x in xs):
            return True
        if any(x is MAYBE for x in xs):
            return MAYBE
        return AT if any(x is AT for x in xs) else False

    def and_then(self, a, rest):
        if a is False or a is AT:
            return a
        return self.and_(a, rest())

    def done(self, S):
        self.gated = True
        return AT

    ended = after_declare = done

    def features(self, each):
        return self.view.handles(each)

    def has(self, S, f):
        return True  # a feature of the world

    def paid_by(self, payers, f):
        return MAYBE

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise _Live(name)


class _Zeros(dict):
    """A history at its start (every variable 0)."""

    def __missing__(self, key):
        return 0


class _Reads(dict):
    """A history the probe does not know (every variable ``MAYBE``), noting the variables read."""

    def __init__(self) -> None:
        super().__init__()
        self.keys_read: set = set()

    def __missing__(self, key):
        self.keys_read.add(key)
        return MAYBE


def bad_reads(bad, view: View) -> tuple[str, frozenset]:
    """How a bad condition reads a run: ``history`` (only history variables: asked where they change),
    ``at`` (the state too, but only at the end of a run or right after a declaration: asked there as
    well) or ``state`` (the state at any event: asked after every event); and the variables it reads."""
    h, M = _Reads(), _Classify(view)
    try:
        bad.test(M, _PROBE, h)
    except _Live:
        return "state", frozenset(h.keys_read)
    return ("at" if M.gated else "history"), frozenset(h.keys_read)


class _Sig(NamedTuple):
    """What an event of one signature does to the monitors of a tracker: the constants it sets, the
    updates to ask (a variable, its feature, its key, the history key that must be set for a flag's
    condition to hold), the part variables it resets, the bad conditions to ask whatever changed (at
    the end of a run, after a declaration, those reading the state anywhere)."""

    consts: tuple  # (key, value): variables that take a constant at such an event
    entries: tuple
    resets: tuple
    asked: tuple
    pulses: tuple  # the pulse variables among the entries


class _Premise(NamedTuple):
    """A premise in the shape :func:`bad_reads` probes (``test(M, S, h)``)."""

    test: object


def _no_keys(H) -> tuple:
    return ()


class Tracker:
    """Monitors run incrementally: :meth:`feed` takes a track and the next events of the run.  What
    each monitor does at an event depends on the event's facts (:class:`~.monitor.Ev`; its signature: the
    operation, skipped, step kind, feature played, window kinds, opener, ``Ev.PARAMS``): the
    variables that may change at events of one signature are found once, by probing each update.
    The monitors' variables live in one dict; a bad condition is asked where a variable it reads
    changed (:func:`bad_reads`)."""

    def __init__(self, monitors, first) -> None:
        self.monitors = list(monitors)
        self.view = View.of_world(first)
        self.M = Concrete(self.view)
        self._owner: dict[str, int] = {}
        for mi, m in enumerate(self.monitors):
            for v in m.hist:
                for k in self._keys(v):
                    if self._owner.setdefault(k, mi) != mi:
                        raise ValueError(f"two monitors keep a variable {k!r}: name each monitor's own")
        self._part_keys = tuple((k, v.init) for m in self.monitors for v in m.hist if v.part for k in self._keys(v))
        self._read_bads()
        # the premises, asked at the end of a run: one that reads the state only through done/ended is
        # a function of the variables it reads (and of how the run ended): its answers kept
        self._premise_memo = [self._premise_reads(m) for m in self.monitors]
        world = tuple((f.key, f.role, f.player, f.feature) for f in self.view.handles(_any))
        self._live = _LIVE.setdefault((tuple(self.monitors), world), {})

    def _read_bads(self) -> None:
        """Every bad condition once, in the monitors' order — (monitor, condition, how it reads, the keys) — with
        the conditions to ask when each key changes, their kept answers, and which to ask at every event."""
        self._bads = [(mi, b, *bad_reads(b, self.view)) for mi, m in enumerate(self.monitors) for b in m.bad]
        self._by_key: dict[str, tuple] = {}
        for gi, (_, _, how, keys) in enumerate(self._bads):
            for k in keys:
                self._by_key[k] = self._by_key.get(k, ()) + (gi,)
        # a condition that reads only history variables (``history``; ``at``: away from the end of a run
        # and a declaration, where it reads no state) is a function of their values: its answers kept
        self._memo = [(how == "at", itemgetter(*sorted(keys)), {}) if how != "state" and keys else None
                      for _, _, how, keys in self._bads]
        self._state = tuple(gi for gi, (_, _, how, _) in enumerate(self._bads) if how == "state")
        self._at = tuple(gi for gi, (_, _, how, _) in enumerate(self._bads) if how != "history")

    def _premise_reads(self, m) -> tuple | None:
        how, keys = bad_reads(_Premise(m.premise), self.view)
        return None if how == "state" else ((itemgetter(*sorted(keys)) if keys else _no_keys), {})

    def _premises(self, premised: tuple, op: str, S, H) -> tuple:
        """At the end of a run (``op``): which monitors' premises held in it.  A premise that reads only
        history variables (and whether the run ended or deadlocked) is kept by their values."""
        out = list(premised)
        for mi, was in enumerate(premised):
            if was:
                continue
            memo = self._premise_memo[mi]
            if memo is None:
                out[mi] = bool(self.monitors[mi].premise(self.M, S, H))
                continue
            key = (op, memo[0](H))
            held = memo[1].get(key)
            if held is None:
                held = memo[1][key] = bool(self.monitors[mi].premise(self.M, S, H))
            out[mi] = held
        return tuple(out)

    def _keys(self, v) -> list[str]:
        return [v.name] if v.each is None else [v.name + f.key for f in self.view.handles(v.each)]

    def start(self) -> Track:
        hist = {k: v.init for m in self.monitors for v in m.hist for k in self._keys(v)}
        return Track("", (), None, hist, (None,) * len(self.monitors), (), (False,) * len(self.monitors))

    def _probe(self, ev: Ev) -> _Sig | None:
        """What an event with ``ev``'s facts does (None: nothing)."""
        consts, entries, pulses = [], [], []
        for m in self.monitors:
            d = _dispatch(m)
            for var in (*d.get(ev.op, ()), *d.get("*", ())):
                for f in ((None,) if var.each is None else self.view.handles(var.each)):
                    self._probe_var(var, f, ev, consts, entries, pulses)
        end = ev.op in _ENDS
        resets = self._part_keys if ev.op == PART_EVENT and not ev.skipped else ()
        asked = self._at if end or resets else self._state
        if not (consts or entries or resets or asked or end):  # the end of a run always counts: the premises
            return None
        return _Sig(tuple(consts), tuple(entries), resets, asked, tuple(pulses))

    def _probe_var(self, var, f, ev: Ev, consts: list, entries: list, pulses: list) -> None:
        """Variable ``var`` (of feature ``f``, or None) at events like ``ev``: a constant it takes, or an entry to
        update at each such event (a flag with the variable it waits for); a pulse."""
        extra = (f,) if f is not None else ()
        try:
            x = var.update(_PROBE, ev, _PROBE, _PROBE, _PROBE, *extra)
            const = True  # the same value at every such event, whatever came before
        except _Live:
            x, const = True, False
        if x is None:
            return
        key = var.name if f is None else var.name + f.key
        if const:
            consts.append((key, int(x)))
        else:
            watch = self._watch(var, ev, extra) if var.sets is not None else None
            entries.append((var, f, key, watch))
        if var.pulse:
            pulses.append(key)

    def _watch(self, var, ev: Ev, extra: tuple) -> tuple | None:
        """The history variable a flag's condition reads at events like ``ev``, when it reads nothing
        else and is false while that variable is 0 (its start): the flag need not be asked until the
        variable is set.  None: ask it at each such event."""
        h = _Reads()
        try:
            var.sets(_Classify(self.view), ev, _PROBE, _PROBE, h, *extra)
            zero = var.sets(self.M, ev, _PROBE, _PROBE, _Zeros(), *extra)
        except _Live:
            return None
        return next(iter(h.keys_read)) if len(h.keys_read) == 1 and not zero else None

    def feed(self, track: Track, events) -> Track:
        known = self._live
        kind, windows, last = track.kind, dict(track.windows), track.last
        H, found, premised = track.hist, list(track.found), track.premised
        pulsing = track.pulsing
        owned = False  # H is this call's own copy (the track's is shared by the runs that extend it)
        for e in events:
            if pulsing:  # a pulse lasts one state
                if not owned:
                    H, owned = dict(H), True
                for k in pulsing:
                    H[k] = 0
                pulsing = ()
            op, v = e.op, e.values
            new = e.state
            pre = last if last is not None else new
            last = new
            sig, kind, facts = _signature(op, v, kind, windows, new)
            live = known.get(sig, _UNKNOWN)
            ev = None
            if live is _UNKNOWN:
                ev = self._ev(facts)
                live = known[sig] = self._probe(ev)
            if live is None:
                continue
            H, owned, changed, ev = self._apply(live, H, owned, pre, new, ev, facts)
            if live.pulses:
                pulsing = tuple(k for k in live.pulses if H[k])
            asked = live.asked
            if changed is not None:
                asked = self._asked(asked, changed)
            end = op in _ENDS
            if end:  # the run is over: which properties it exercised (their premise holds)
                if ev is None:
                    ev = self._ev(facts)
                self.M.done_now, self.M.ev = True, ev
                if not all(premised):
                    premised = self._premises(premised, op, new, H)
            if asked:
                self._ask(asked, found, e.seq, new, H, end, op == PART_EVENT and not facts[1], ev, facts)
        return Track(kind, tuple(windows.items()), last, H, tuple(found), pulsing, premised)

    def _ev(self, facts: tuple) -> Ev:
        """The event's facts as monitors read them (``facts``: see :func:`_signature`)."""
        op, skipped, kind, v, fkey, allows, first = facts
        return Ev(op, skipped, kind, v, self.view._features.get(fkey), allows, first, v.get("feature"))

    def _apply(self, live: _Sig, H: dict, owned: bool, pre, new, ev, facts: tuple) -> tuple:
        """The event's changes to the variables: (the variables after it — a copy of ``H`` unless ``owned`` —,
        whether that is this call's own copy, the keys changed or None, the event's facts if needed).  A part
        begins: its variables start afresh; then every update reads the variables as they were before."""
        before = H
        changed = None
        if live.resets:  # a part begins: its variables start afresh (``before`` keeps their values)
            H, owned = dict(H), True
            changed = []
            for k, init in live.resets:
                if H[k] != init:
                    H[k] = init
                    changed.append(k)
        writes, ev = self._writes(live, H, before, pre, new, ev, facts)
        if writes:
            if not owned:  # the writes come after every update read ``before``: set in place
                H, owned = dict(H), True
            if changed is None:
                changed = []
            for k, x in writes:
                H[k] = x
                changed.append(k)
        return H, owned, changed, ev

    def _asked(self, asked: tuple, changed: list) -> tuple:
        """The bad conditions to ask after an event: those of its signature and those reading a changed key."""
        if len(changed) == 1 and not asked:  # the common case
            return self._by_key.get(changed[0], _NONE)
        return tuple(sorted({*asked, *[gi for k in changed for gi in self._by_key.get(k, _NONE)]}))

    def _writes(self, live: _Sig, H: dict, before: dict, pre, new, ev, facts: tuple) -> tuple[list, Ev | None]:
        """The variables the event sets to a new value: (key, value) each, and the event's facts if they were
        needed (a flag is set for good where its condition holds; an update gives a value or None: unchanged)."""
        M = self.M
        writes = [(k, x) for k, x in live.consts if x != H[k]]
        for var, f, k, watch in live.entries:
            sets = var.sets
            if sets is not None:  # a flag: set (for good) where its condition holds
                if H[k] == 1 or watch is not None and not before[watch]:
                    continue
                if ev is None:
                    ev = self._ev(facts)
                if not (sets(M, ev, pre, new, before) if f is None else sets(M, ev, pre, new, before, f)):
                    continue
                x = 1
            else:
                if ev is None:
                    ev = self._ev(facts)
                x = var.update(M, ev, pre, new, before) if f is None else var.update(M, ev, pre, new, before, f)
                if x is None:
                    continue
            if x != H[k]:
                writes.append((k, x))
        return writes, ev

    def _ask(self, asked: tuple, found: list, seq: int, new, H: dict, end: bool, part: bool, ev, facts: tuple) -> None:
        """Each bad condition of ``asked`` whose monitor found nothing yet, on the state after the event: a
        violation found is kept in ``found``.  ``gated`` (the end of a run, a part's start): where an ``at``
        condition reads the state."""
        M, bads, memos = self.M, self._bads, self._memo
        gated = end or part
        for gi in asked:
            mi, b, _, _ = bads[gi]
            if found[mi] is not None:
                continue
            memo = memos[gi]
            if memo is not None and not (gated and memo[0]):
                at = memo[1](H)
                bad = memo[2].get(at)
                if bad is None:
                    M.done_now, M.ev = False, None
                    bad = memo[2][at] = bool(b.test(M, new, H))
            else:
                if ev is None:
                    ev = self._ev(facts)
                M.done_now, M.ev = end, ev
                bad = b.test(M, new, H)
            if bad:
                found[mi] = Violation((seq,), b.ru, b.en)


def _signature(op: str, v: dict, kind, windows: dict, new) -> tuple:
    """(the event's signature — its facts, the tuples differing in shape, never in the operation —, the step
    kind after it, its facts: op, skipped, kind, values, the feature played, the window's kinds, whether its
    opener goes first).  ``windows`` (id -> kinds) is updated in place when a window opens."""
    fkey, skipped, first = None, False, True
    if op == "pass" or op == "play":  # a turn: the facts of its window
        allows = windows.get(v["window"], _NONE)
        if op == "play":
            fkey = v["feature"]
        sig = (op, kind, fkey, allows)
    elif op in _STRUCTURE:
        if op == "enter":
            kind = v["kind"]
        elif op == "window":
            windows[v["id"]] = tuple(v.get("allows", ()))
            first = v.get("first") == new.active_player
        allows = windows.get(v["id"], _NONE) if op == "window" or op == "window_closed" else _NONE
        skipped = "skipped" in v and bool(v["skipped"])
        sig = (op, skipped, kind, allows, first)
    else:  # an operation: the parameters monitors may read
        allows = _NONE
        skipped = "skipped" in v and bool(v["skipped"])
        params = _SIG_PARAMS.get(op)
        if params is None:
            params = _SIG_PARAMS[op] = _sig_params(op)
        sig = (op, skipped, kind, *[v.get(p) for p in params]) if params else (op, skipped, kind)
    return sig, kind, (op, skipped, kind, v, fkey, allows, first)


_UNKNOWN = object()
_NONE: tuple = ()
_SIG_PARAMS: dict[str, tuple] = {}


def _sig_params(op: str) -> tuple:
    """The parameters of ``Ev.PARAMS`` operation ``op`` takes (the vocabulary's; the loader refuses
    others): those in the signature of its events."""
    spec = OPERATIONS.get(op)
    return tuple(p for p in Ev.PARAMS if spec is None or p in spec.params)
#: the events that are the rulebook's structure, not operations (they carry no operation parameters)
_STRUCTURE = frozenset({"enter", "window", "window_closed", "goto", "end", "deadlock", "step_limit"})
_LIVE: dict[tuple, dict] = {}  # (monitors, the world's features) -> event signature -> what may change


def _any(f, role) -> bool:
    return True


def run(monitor: Monitor, view: View) -> Violation | None:
    """The first bad state of ``monitor`` along the trace, as a Violation at the event that led to it."""
    if not view.events:
        return None
    t = Tracker((monitor,), view.first)
    return t.feed(t.start(), view.events).found[0]

