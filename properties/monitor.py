"""Properties as monitors: what a property remembers of a run, how each event updates it, when it is bad.

A :class:`Monitor` is the one definition of a property of the catalogue.  It keeps *history
variables* (:class:`Hist`: a flag, a counter, a value), each updated at the events it names
(``on``), and states its *bad conditions* (:class:`Bad`) over them and the state: the property
holds on a run exactly when no state of it is bad.  Both engines derive from the same record,
through an evaluator ``M`` each supplies:

* :mod:`.monitor_run` runs it over a concrete trace (the interpreter's, the explorer's, a ruling's)
  with Python values — the trace predicate;
* :mod:`.monitor_z3` compiles it into history variables of the Z3 transition system and a ``bad``
  state predicate over the vector — the Z3 form.

A monitor reads what an engine has of the game the same way in both: the event's *facts*, which are
plain data in both engines (:class:`Ev`: the operation, whether a guard skipped it, the step kind it
happened in, its parameters, the feature played, the kinds its window admits) and the state through
``M``'s observations (:mod:`.observe`).  It never reads the rulebook under test.  A history
variable may be kept per feature (``each``: a test of the feature and of the role of the card holding
it): per feature of the world in a concrete run, per option of the world menu in the Z3 model.

>>> m = Monitor("P0", (flag("seen", ("roll_die",), lambda M, ev, pre, new, h: M.true()),),
...             (Bad(lambda M, S, h: M.on(h["seen"]), "брошено", "rolled"),), lambda M, S, h: M.true(), "", "")
>>> [v.name for v in m.hist], m.ops()
(['seen'], frozenset({'roll_die'}))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, NamedTuple

if TYPE_CHECKING:
    from ruleproof.model.features import Feature

    from .monitor_interface import MonitorAlgebra

    #: a bad condition or a premise: ``(M, S, h) -> value``
    StateTest = Callable[[MonitorAlgebra, Any, dict], Any]

__all__ = ["Ev", "EV_PARAMS", "Hist", "Bad", "Monitor", "flag", "counter", "value", "pulse", "PART_EVENT"]

#: the event that begins a part of a compound feature (512.6.6/b4): a part variable starts afresh
PART_EVENT = "declare"


#: the operation parameters a monitor may read (an event's facts are these and :class:`Ev`'s fields: the
#: engines key what a monitor does at an event by them)
EV_PARAMS = ("x", "reads", "exempt_modified", "return_roles", "table")


class Ev(NamedTuple):
    """The facts of one event that are plain data in both engines: ``op`` (an operation, ``enter``,
    ``window``, ``window_closed``, ``play``, ``pass``, ``end``, ``deadlock``), whether a guard
    skipped it, the step kind it happened in, the operation's parameters, the feature played (a
    :class:`~ruleproof.model.features.Feature`), the kinds its window admits, whether a window gave
    the active player priority first, and ``key`` — what names the feature played (a feature id in a
    run, an option of the menu in the Z3 model)."""

    op: str
    skipped: bool = False
    kind: str = ""
    params: dict = {}
    feature: Feature | None = None
    allows: tuple = ()
    first_active: bool = True
    key: Any = None

    @property
    def turn(self) -> bool:
        return self.op in ("play", "pass")

    def ran(self, *ops: str) -> bool:
        """The event is one of ``ops`` and no guard skipped it."""
        return self.op in ops and not self.skipped

    def plays(self, kind: str) -> bool:
        """A play of a feature of kind ``kind``."""
        return self.op == "play" and self.feature is not None and self.feature.kind == kind

    def param(self, name: str, default=None):
        if name not in EV_PARAMS:
            raise KeyError(f"a monitor reads the parameter {name!r}: list it in EV_PARAMS")
        return self.params.get(name, default)


@dataclass(frozen=True)
class Hist:
    """A history variable: ``width`` bits in the Z3 model, ``init`` at the start; at an event of
    ``on`` it takes ``update(M, ev, pre, new, h)`` (None: unchanged), where ``pre`` and ``new`` are
    the states before and after the event and ``h`` the history before it.  ``part``: it starts
    afresh with each part of a compound feature.  ``each``: one variable per feature ``f`` held by
    a card of role ``role`` with ``each(f, role)`` (the update then takes the feature's handle last)."""

    name: str
    width: int
    on: frozenset
    update: Callable
    part: bool = False
    init: int = 0
    each: Callable | None = None
    pulse: bool = False  # 0 again at the next event (whatever it is): true only in the state right after
    sets: Callable | None = None  # a flag's condition (``update`` sets the flag where it holds)


@dataclass(frozen=True)
class Bad:
    """One way a state is bad: ``test(M, S, h)`` over the state and the history, with what it means."""

    test: StateTest
    ru: str
    en: str


@dataclass(frozen=True)
class Monitor:
    """A property's definition: its history variables, its bad conditions, its premise (a state that
    shows the property's subject happens: ``premise(M, S, h)``, with what it says) and, for the Z3
    engine only, how to prove it: ``split`` (parts proved on their own), ``windows`` (the cone needs
    the windows' shape from the start), ``options`` (the Fixedpoint's), ``note``."""

    pid: str
    hist: tuple[Hist, ...]
    bad: tuple[Bad, ...]
    premise: StateTest
    premise_en: str
    premise_ru: str
    note: str = ""
    windows: bool = False
    options: tuple = ()
    split: tuple["Monitor", ...] = ()

    def ops(self) -> frozenset:
        """The events at which some history variable may change."""
        out: set = set()
        for v in self.hist:
            out |= v.on
            if v.part:
                out.add(PART_EVENT)
        return frozenset(out)


def _on(on) -> frozenset:
    return frozenset((on,) if isinstance(on, str) else on)


def flag(name: str, on, when: Callable, part: bool = False, each: Callable | None = None) -> Hist:
    """A 1-bit variable set (for good) at an event of ``on`` where ``when(M, ev, pre, new, h[, f])``
    holds (None: not at this event)."""

    def update(M, ev, pre, new, h, *f):
        c = when(M, ev, pre, new, h, *f)
        if c is None:
            return None
        if c is True:  # set at every such event: a constant, which the engines need not evaluate
            return 1
        return M.set_if(c, h[M.key(name, *f)])

    return Hist(name, 1, _on(on), update, part, 0, each, sets=when)


def counter(name: str, width: int, on, when: Callable, part: bool = False) -> Hist:
    """A ``width``-bit count (saturating) of the events of ``on`` where ``when`` holds."""

    def update(M, ev, pre, new, h):
        c = when(M, ev, pre, new, h)
        if c is None:
            return None
        return M.inc_if(c, h[name], width)

    return Hist(name, width, _on(on), update, part)


def pulse(name: str, on, when: Callable) -> Hist:
    """A 1-bit variable that is 1 only in the state right after an event of ``on`` where ``when(M, ev,
    pre, new, h)`` holds (0 after any other event)."""

    def update(M, ev, pre, new, h):
        c = when(M, ev, pre, new, h)
        if c is False:
            return 0
        return M.ite(c, M.num(1, 1), M.num(0, 1))

    return Hist(name, 1, _on(on), update, pulse=True)


def value(name: str, width: int, on, update: Callable, part: bool = False, each: Callable | None = None) -> Hist:
    """A ``width``-bit variable that takes ``update(M, ev, pre, new, h[, f])`` at the events of ``on``
    (None: unchanged; a Python int: that constant)."""
    return Hist(name, width, _on(on), update, part, 0, each)
