"""Monitors run incrementally: :class:`Tracker` takes a track and the next events of a run (the explorer feeds it
each run of its search tree once): a history variable changes at the events it names, a bad condition is asked
where what it reads of the history changes, and at the end of the run (the conditions read the state only
there: :func:`~.probe.bad_reads`) — exactly the states where its truth can change, so the first violation is
the one the Z3 form reaches.  :func:`run` is one monitor over a whole trace.

>>> from ruleproof.model.rulebook import load_rulebook
>>> from ruleproof.model.scenario import load_scenario, run_scenario, shipped_rulings
>>> from ruleproof.properties.catalogue import BY_ID
>>> from ruleproof.properties.monitor_run import View
>>> sc = load_scenario(next(p for p in shipped_rulings() if p.name == "540-kele-attacker.yaml"))
>>> view = View(run_scenario(sc, load_rulebook()).trace.events)
>>> run(BY_ID["P512.6.1-order"].monitor, view) is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import NamedTuple

from ruleproof.model.vocabulary import OPERATIONS

from .monitor import EV_PARAMS, PART_EVENT, Ev, Monitor
from .monitor_run import _ENDS, Concrete, View, Violation
from .probe import _PROBE, _Classify, _dispatch, _Live, _Reads, _Zeros, bad_reads

__all__ = ["Track", "Tracker", "run"]


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
    operation, skipped, step kind, feature played, window kinds, opener, ``EV_PARAMS``): the
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
        self._memo: list[tuple[bool, Callable[[dict], object], dict] | None] = [
            (how == "at", itemgetter(*sorted(keys)), {}) if how != "state" and keys else None
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
        consts: list[tuple[str, int]] = []
        entries: list[tuple] = []
        pulses: list[str] = []
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
    sig: tuple
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
    """The parameters of ``EV_PARAMS`` operation ``op`` takes (the vocabulary's; the loader refuses
    others): those in the signature of its events."""
    spec = OPERATIONS.get(op)
    return tuple(p for p in EV_PARAMS if spec is None or p in spec.params)


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
