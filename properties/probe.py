"""What a monitor's update or condition reads, found by probing it once with stand-ins: whether it is the
same value at every event of a signature (a constant), what history variables and state it reads
(:func:`bad_reads`) — what :class:`~.tracker.Tracker` needs to run monitors incrementally."""

from __future__ import annotations

from .monitor import Monitor
from .monitor_run import View

__all__ = ["bad_reads"]

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
