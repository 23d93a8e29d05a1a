"""A path Z3 found, replayed on the interpreter: what decides whether it counts.

A counterexample or a vacuity witness is a path of the Z3 model.  It says something about the rules
only if the interpreter plays it too: :func:`replay` runs its world, dice and responses and evaluates
the property on the trace (``reproduced``); :func:`follows` checks the interpreter, answering the
same choices in order, takes the same steps (``follows``).  A path that fails either is a defect of
the model on that rulebook, and the verdict built on it is inconclusive.
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleproof.model.interpreter import ScriptedChoices, Stepper, Trace, run
from ruleproof.model.paths import locate, same_step
from ruleproof.model.rulebook import Rulebook
from ruleproof.model.state import State
from ruleproof.model.symbolic import System
from ruleproof.properties.catalogue import BY_ID, View, Violation

__all__ = ["Counterexample", "replay", "follows", "witnessed"]


@dataclass
class Counterexample:
    world: State
    dice: list[int]
    responses: list[tuple[str, str, str]]
    steps: list[str]  # the disjuncts taken, as rule steps
    answers: list  # every answer in order (die values, feature ids or None for a pass)
    trace: Trace | None = None  # the interpreter's Trace of the replay
    reproduced: bool = False  # the catalogue predicate reports the violation on the replay
    replay_mode: str = "scripted"  # scripted (ScriptedChoices) | exact (every answer in order)
    violation: Violation | None = None  # the property's, on the replay (None: not reproduced)
    path: tuple[int, ...] = ()  # the disjuncts Z3 took (ids)
    follows: bool | None = None  # the replay takes the same steps as Z3's path (None: not compared)


def follows(rb: Rulebook, sy: System, cx: Counterexample) -> bool:
    """Does the interpreter, given the answers of Z3's path in order, take the same steps (the same
    operation, window turn or edge at the same place, the same feature played)?  A witness or a
    counterexample that does not is a path of the Z3 model only: it proves nothing about the rules."""
    trace, _ = _replay_exact(rb, cx.world, cx.answers)
    located = list(locate(sy, trace.events))
    if len(located) < len(cx.path):
        return False
    return all(same_step(sy.disjuncts[did], at) for did, at in zip(cx.path, located))


def witnessed(rb: Rulebook, sy: System, cx: Counterexample) -> Counterexample:
    """A vacuity witness replayed on the interpreter, and whether the replay follows Z3's path."""
    cx = replay(rb, cx, None)
    cx.follows = follows(rb, sy, cx)
    return cx


def _replay_exact(rb: Rulebook, world: State, answers: list) -> tuple[Trace, bool]:
    st = Stepper(rb, world)
    queue = list(answers)
    try:
        while st.ask is not None and queue:
            st.answer(queue.pop(0))
    except (StopIteration, KeyError, TypeError, AssertionError):  # an answer the rules do not offer
        return st.trace, False
    return st.trace, st.finished


def replay(rb: Rulebook, cx: Counterexample, pid: str | None) -> Counterexample:
    """Replay a counterexample on the interpreter; note whether the catalogue predicate fires."""
    trace = run(rb, cx.world, ScriptedChoices(cx.dice, cx.responses))
    cx.trace, cx.replay_mode = trace, "scripted"
    if pid is None:
        return cx
    prop = BY_ID[pid]
    v = prop.check(View(trace.events))
    if v is None:  # the script's priority passing may differ: answer every choice in order instead
        etrace, _ = _replay_exact(rb, cx.world, cx.answers)
        v = prop.check(View(etrace.events))  # the monitor asks every state of the run, prefixes included
        if v is not None:
            cx.trace, cx.replay_mode = etrace, "exact"
    cx.violation = v
    cx.reproduced = v is not None
    return cx
