"""An interpreter run as a path of the Z3 transition system: where each event happens (its location)
and which disjuncts may have made it.

:func:`locate` walks a trace the way the compiled system walks its locations (step entry, each
operation, a window's turns and close, step exit); :func:`disjunct_path` turns the locations into
the disjuncts that go from each location to the next with the same event — what
:func:`ruleproof.properties.prove.follow` executes symbolically.  The conformance test checks every
located step against ``trans``; the prover uses the paths as hints for its vacuity witnesses.

>>> import random
>>> from ruleproof.model.interpreter import Stepper
>>> from ruleproof.model.rulebook import load_rulebook
>>> from ruleproof.model.symbolic import compile_rulebook, menu_world, world_state
>>> from ruleproof.properties.prove import _pc_successors
>>> rb = load_rulebook()
>>> sy = compile_rulebook(rb)
>>> rng = random.Random(1)
>>> run = Stepper(rb, world_state(menu_world(rng.choice, lambda: False)))
>>> while run.ask is not None:
...     _ = run.answer(3 if run.ask.kind == "die" else None)
>>> path = disjunct_path(sy, run.trace.events, _pc_successors(sy))
>>> len(path) == len(run.trace.events), path[0][0].event, path[-1][0].event
(True, 'enter', 'end')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, NamedTuple

from .symbolic import OPT_INDEX, OPTIONS, Disjunct, System

if TYPE_CHECKING:
    from .interpreter import Event

__all__ = ["Located", "locate", "disjunct_path", "same_step"]

_TURNS = ("pass", "play")
_MOVES = ("enter", "goto", "end", "deadlock", "window", "window_closed")


class Located(NamedTuple):
    event: Event  # the event of the interpreter's run
    loc: int  # the location the event leaves
    nxt: int  # the location it goes to
    wpl: int  # after the event: the player with priority in the open window (0: A, 1: B)
    wps: int  # after the event: passes in a row in it
    played: int  # after the event: the options of the menu played in it (bit i: OPTIONS[i])


def locate(sy: System, events: list) -> Iterator[Located]:
    """The location of each event of a run of ``sy``'s rulebook, and of the one it leads to (the run's
    events up to a ``step_limit``, which has no transition)."""
    rb = sy.rb
    step, i = rb.spec.start, 0
    wpl = wps = played = opener = 0
    for e in events:
        op = e.op
        if op == "step_limit":
            return
        spec = rb.spec.steps[step]
        if op == "enter":
            step, i = e.values["step"], 0
            spec = rb.spec.steps[step]
            loc = sy.enter_loc[step]
            nxt = sy.op_loc[(step, 0)] if spec.operations else sy.exit_loc[step]
        elif op in ("goto", "end", "deadlock"):
            loc = sy.exit_loc[step]
            nxt = (sy.enter_loc[e.values["to"]] if op == "goto" else sy.done_end if op == "end"
                   else sy.done_deadlock)
        elif op == "window" and not e.values.get("skipped"):
            loc = sy.op_loc[(step, i)]
            opener = "AB".index(e.values["first"])
            wpl, wps, played = opener, 0, 0
            nxt = sy.turn_loc[(step, i)]
        elif op == "pass":
            loc = sy.turn_loc[(step, i)]
            wps, wpl = wps + 1, 1 - wpl
            nxt = loc if wps < 2 else sy.close_loc[(step, i)]
        elif op == "play":
            loc = nxt = sy.turn_loc[(step, i)]
            opt = OPT_INDEX.get(e.values["feature"])
            if opt is not None:  # a feature off the menu has no disjunct: disjunct_path gives None
                played |= 1 << opt
            wpl, wps = opener, 0
        else:  # window_closed, or an operation (done or skipped)
            loc = sy.close_loc[(step, i)] if op == "window_closed" else sy.op_loc[(step, i)]
            i += 1
            nxt = sy.op_loc[(step, i)] if i < len(spec.operations) else sy.exit_loc[step]
        yield Located(e, loc, nxt, wpl, wps, played)


#: events that are never an operation a guard skips
_UNSKIPPABLE = ("play", "pass", "enter", "goto", "end", "deadlock", "window_closed")


def _feature(d: Disjunct) -> str:
    """The id of the feature a ``play`` disjunct plays."""
    assert d.option is not None, "a play disjunct plays an option of the menu"
    return OPTIONS[d.option].feature.id


def same_step(d: Disjunct, at: Located) -> bool:
    """Does disjunct ``d`` take the located interpreter event ``at``: the same place, the same event,
    an operation done or skipped alike, the same feature played?"""
    e = at.event
    if d.loc != at.loc or d.event != e.op:
        return False
    if e.op not in _UNSKIPPABLE and d.skipped != bool(e.values.get("skipped")):
        return False
    return d.event != "play" or _feature(d) == e.values.get("feature")


def disjunct_path(sy: System, events: list, successors: dict[int, tuple[int, ...]]) -> list[tuple] | None:
    """Per event, the disjuncts at its location that lead to the next one (``successors``: per disjunct
    id, the location it goes to first) with the same event — a play: of the same feature; an
    operation: done or skipped alike.  Several where the system tells them apart only by values
    (the solver picks).  None when an event has none (a run the system does not have) or the run
    stopped at a step limit."""
    out = []
    for at in locate(sy, events):
        e = at.event
        group = []
        for d in sy.by_loc.get(at.loc, ()):
            if successors[d.id][0] != at.nxt or d.event != e.op:
                continue
            if e.op == "play" and _feature(d) != e.values["feature"]:
                continue
            if e.op not in _TURNS and e.op not in _MOVES and d.skipped != bool(e.values.get("skipped")):
                continue
            group.append(d)
        if not group:
            return None
        out.append(tuple(group))
    return out if len(out) == len(events) else None
