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
from typing import NamedTuple

from ruleproof.model.algebra import exemptions
from ruleproof.model.fields import FIELDS, _entry_bits, _x_summary, resolve
from ruleproof.model.vocabulary import ATTACKS

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

    @property
    def final(self):
        return self.events[-1].state


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
        a = S.action
        src = S.card(a.source)
        for t in a.targets:
            for f in S.card(t).features:
                if f.kind == "static_modifier" and a.kind in f.applies_to and f.condition is not None:
                    _, prop, n = f.condition
                    if (src.printed_value(prop) >= n) != (src.value(prop, reads) >= n):
                        return True
        return False

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

    def unpaid_any(self, S, exempt_modified: bool) -> bool:
        """Some reserved entry is not paid: a 540 text or a modification spares it."""
        if not exempt_modified:
            return False
        ex = exemptions(S)
        return any((c, r) in ex for c, r, _ in S.action.reserved)

    def pays_other_than_due(self, pre, new) -> bool:
        """The payment is not the reserved entries less those 540 spares (540.3.1 counting the markers
        each card had when the action began)."""
        start = {c.id: c.action_markers for c in self.view.first.cards}
        exempt = exemptions(pre, start)
        due = sorted((c, r, n) for c, r, n in pre.action.reserved if (c, r) not in exempt)
        return sorted(tuple(p) for p in new.action.paid) != due

    def reserved_other_than_cost(self, S) -> bool:
        """The reservation is not every entry of the cost at its amount (540.2)."""
        a = S.action
        want = set()
        for card, res, amount in a.cost:
            x = a.x(amount)
            want.add((card, res, int(amount) if amount.isdigit() else (x.value if x and x.value is not None else 0)))
        return {tuple(r) for r in a.reserved} != want

    def marker_missing(self, S) -> bool:
        """The acting card has no more action markers than when the action began, or can still move (540.3)."""
        src = S.action.source
        card = S.card(src)
        return card.action_markers <= self.view.first.card(src).action_markers or card.can_move

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
        """The cards that paid something."""
        return frozenset(c for c, _, _ in S.action.paid)

    def paid_by(self, payers, f: Handle) -> bool:
        return bool(payers) and f.card in payers

    def no_payers(self):
        return frozenset()


def _reader(name: str):
    """How the vector variable ``name`` is read from a concrete state."""
    if name.startswith("x_") and name.endswith("_declared"):
        kind = name[2:-len("_declared")]
        return lambda S: int(any(x.kind == kind for x in S.action.xs))
    if name.startswith("x_"):
        return lambda S: _x_facts(S)[name]
    if name == "dice_mods_declared":
        return lambda S: int(bool(S.action.dice_mods))
    if name in ("reserved", "paid"):
        return lambda S: _entry_bits(getattr(S.action, name))
    f = FIELDS[name]
    get, code = f.get, f.code
    return lambda S: code(get(S))


_READS: dict = {}
_LAST_X: list = [None, None]  # the last state whose X facts were read, and those facts


def _x_facts(S) -> dict:
    """The X facts of the vector (:func:`~ruleproof.model.fields.summary`) of ``S``: several monitors
    read them of the same state."""
    if _LAST_X[0] is not S:
        _LAST_X[0], _LAST_X[1] = S, _x_summary(S)
    return _LAST_X[1]


def _reset(monitor: Monitor, h: dict, view: View) -> None:
    """The part variables of ``h`` back at their start (a part of a compound feature begins)."""
    for v in monitor.hist:
        if v.part:
            if v.each is None:
                h[v.name] = v.init
            else:
                for f in view.handles(v.each):
                    h[v.name + f.key] = v.init


def initial(monitor: Monitor, view: View) -> dict:
    """The monitor's history at the start of a run (per-feature variables: one per feature of the world)."""
    h: dict = {}
    for v in monitor.hist:
        if v.each is None:
            h[v.name] = v.init
        else:
            for f in view.handles(v.each):
                h[v.name + f.key] = v.init
    return h


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
    state, each monitor's history and its violation (None: none yet)."""

    kind: str
    windows: tuple
    last: object
    hist: tuple
    found: tuple
    pulsing: tuple = ()  # the monitors with a pulse variable set by the last event

    def key(self) -> tuple:
        """What the rest of the run's verdicts depend on besides the last state (for memoising)."""
        return (self.kind, self.windows, tuple(tuple(h.values()) for h in self.hist), self.found, self.pulsing)


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


class Tracker:
    """Monitors run incrementally: :meth:`feed` takes a track and the next events of the run.  What
    each monitor does at an event depends on the event's facts (:meth:`~.monitor.Ev.signature`): the
    variables that may change at events of one signature are found once, by probing each update."""

    def __init__(self, monitors, first) -> None:
        self.monitors = list(monitors)
        self.view = View.of_world(first)
        self.M = Concrete(self.view)
        self._part_keys = [[k for v in m.hist if v.part for k in self._keys(v)] for m in self.monitors]
        self._pulse_keys = [[v.name for v in m.hist if v.pulse] for m in self.monitors]
        # at the end of a run only the bad conditions that read the state can change (the others were
        # asked whenever the history changed)
        # a bad condition is asked where the history it reads changes; one that reads the state at the end
        # of a run (or right after a declaration) there too; one that reads it anywhere, after every event
        reads = [[(b, *bad_reads(b, self.view)) for b in m.bad] for m in self.monitors]
        self._bads = [tuple((b, how, keys) for b, how, keys in r) for r in reads]
        self._at_end = [tuple(b for b, how, _ in r if how != "history") for r in reads]
        self._always = frozenset(mi for mi, r in enumerate(reads) if any(how == "state" for _, how, _ in r))
        world = tuple((f.key, f.role, f.player, f.feature) for f in self.view.handles(_any))
        self._live = _LIVE.setdefault((tuple(m.pid for m in self.monitors), world), {})

    def _keys(self, v) -> list[str]:
        return [v.name] if v.each is None else [v.name + f.key for f in self.view.handles(v.each)]

    def start(self) -> Track:
        return Track("", (), None, tuple(initial(m, self.view) for m in self.monitors), (None,) * len(self.monitors))

    def _probe(self, ev: Ev) -> list:
        """For each monitor, the variables (with their feature) that an event with ``ev``'s facts may
        change, whether it begins a part, and whether it ends the run."""
        live = []
        end = ev.op in _ENDS
        reset = ev.op == PART_EVENT and not ev.skipped
        for mi, m in enumerate(self.monitors):
            d = _dispatch(m)
            entries = []
            for var in (*d.get(ev.op, ()), *d.get("*", ())):
                for f in ((None,) if var.each is None else self.view.handles(var.each)):
                    try:
                        x = var.update(_PROBE, ev, _PROBE, _PROBE, _PROBE, *((f,) if f is not None else ()))
                        const = True  # the same value at every such event, whatever came before
                    except _Live:
                        x, const = True, False
                    if x is not None:
                        entries.append((var, f, var.name if f is None else var.name + f.key, x if const else _LIVE_MARK))
            part = reset and bool(self._part_keys[mi])
            if entries or part or end and self._at_end[mi] or mi in self._always:
                live.append((mi, tuple(entries), part))
        return live

    def feed(self, track: Track, events) -> Track:
        M, known = self.M, self._live
        kind, windows, last = track.kind, dict(track.windows), track.last
        hists, found = list(track.hist), list(track.found)
        pulsing = list(track.pulsing)
        features = self.view._features
        for e in events:
            if pulsing:  # a pulse lasts one state
                for mi in pulsing:
                    h = hists[mi] = dict(hists[mi])
                    for k in self._pulse_keys[mi]:
                        h[k] = 0
                pulsing = []
            op, v = e.op, e.values
            new = e.state
            pre = last if last is not None else new
            last = new
            fkey = None
            if op == "pass" or op == "play":  # a turn: the facts of its window
                allows = windows.get(v["window"], _NONE)
                if op == "play":
                    fkey = v["feature"]
                sig = (op, False, kind, fkey, allows, True, None, None, None)
            elif op in _STRUCTURE:
                if op == "enter":
                    kind = v["kind"]
                elif op == "window":
                    windows[v["id"]] = tuple(v.get("allows", ()))
                allows = windows.get(v["id"], _NONE) if op == "window" or op == "window_closed" else _NONE
                sig = (op, "skipped" in v and bool(v["skipped"]), kind, None, allows,
                       v.get("first") == new.active_player if op == "window" else True, None, None, None)
            else:  # an operation: its parameters
                allows = _NONE
                sig = (op, "skipped" in v and bool(v["skipped"]), kind, None, _NONE, True, v.get(_P0), v.get(_P1),
                       v.get(_P2))
            skipped, first = sig[1], sig[5]
            live = known.get(sig)
            ev = None
            if live is None:
                ev = Ev(op, skipped, kind, v, features.get(fkey), allows, first, v.get("feature"))
                live = known[sig] = self._probe(ev)
            if not live:
                continue
            if ev is None:
                ev = Ev(op, skipped, kind, v, features.get(fkey), allows, first, v.get("feature"))
            end = op in _ENDS
            for mi, entries, part in live:
                if found[mi] is not None:
                    continue
                before = h = hists[mi]
                changed = None
                if part:  # a part begins: its variables start afresh
                    h = dict(h)
                    changed = set()
                    for k in self._part_keys[mi]:
                        if h[k]:
                            h[k] = 0
                            changed.add(k)
                for var, f, k, x in entries:
                    if x is _LIVE_MARK:
                        sets = var.sets
                        if sets is not None:  # a flag: set (for good) where its condition holds
                            if h[k] == 1:
                                continue
                            c = sets(M, ev, pre, new, before) if f is None else sets(M, ev, pre, new, before, f)
                            if not c:
                                continue
                            x = 1
                        else:
                            x = var.update(M, ev, pre, new, before) if f is None else \
                                var.update(M, ev, pre, new, before, f)
                    if x is not None and x != h[k]:
                        if h is before:
                            h = dict(h)
                        h[k] = x
                        if changed is None:
                            changed = {k}
                        else:
                            changed.add(k)
                if h is not before or mi in self._always:
                    hists[mi] = h
                    if self._pulse_keys[mi] and any(h[k] for k in self._pulse_keys[mi]):
                        pulsing.append(mi)
                    M.done_now, M.ev = end, ev
                    for b, how, keys in self._bads[mi]:
                        if how == "state" or end or changed is not None and not changed.isdisjoint(keys) or \
                                how == "at" and op == PART_EVENT:
                            if b.test(M, new, h):
                                found[mi] = Violation((e.seq,), b.ru, b.en)
                                break
                elif end:
                    M.done_now, M.ev = end, ev
                    for b in self._at_end[mi]:
                        if b.test(M, new, h):
                            found[mi] = Violation((e.seq,), b.ru, b.en)
                            break
        return Track(kind, tuple(windows.items()), last, tuple(hists), tuple(found), tuple(pulsing))


_NONE: tuple = ()
_P0, _P1, _P2 = Ev.PARAMS  # the parameters of an event's signature (Ev.signature, unrolled)
#: the events that are the rulebook's structure, not operations (they carry no operation parameters)
_STRUCTURE = frozenset({"enter", "window", "window_closed", "goto", "end", "deadlock", "step_limit"})
_LIVE_MARK = object()  # an entry whose update must be asked at each event
_LIVE: dict[tuple, dict] = {}  # (monitors, the world's features) -> event signature -> what may change


def _any(f, role) -> bool:
    return True


def run(monitor: Monitor, view: View) -> Violation | None:
    """The first bad state of ``monitor`` along the trace, as a Violation at the event that led to it."""
    if not view.events:
        return None
    t = Tracker((monitor,), view.first)
    return t.feed(t.start(), view.events).found[0]

