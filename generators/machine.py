"""A Hypothesis state machine that plays game actions through a rulebook and checks every property.

One machine run: ``start`` draws a world, then one rule answers whatever the rulebook asks next — a
die (within the rulebook's die faces) or a response in the current window (one of the features the
rulebook offers, or a pass) — and after every step every property of the catalogue is checked as an
invariant.  When the action is over, ``finished`` is the only rule enabled.  The machine is built
for a given rulebook, so a draft is tested exactly like the current rules.

>>> from ruleproof.model.rulebook import load_rulebook
>>> M = machine_for(load_rulebook())
>>> M.__name__
'RulebookMachine'
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from ruleproof.model.interpreter import Stepper
from ruleproof.model.rulebook import Rulebook
from ruleproof.model.state import State
from ruleproof.model.universe import played as played_combos
from ruleproof.properties.catalogue import PROPERTIES, Property, Violation, tracker, violations
from ruleproof.properties.catalogue import exercised as played_premise

from .strategies import worlds
from .uses import uses

__all__ = ["PropertyViolated", "Played", "machine_for", "STEP_COUNT"]

#: steps per machine run: a whole game action fits (passes with nothing to play are not steps; a
#: compound feature has two parts)
STEP_COUNT = 50


@dataclass
class Played:
    """What a run chose: the world and each answer, in order (enough to replay it)."""

    world: State
    answers: list = field(default_factory=list)


class PropertyViolated(AssertionError):
    def __init__(self, prop: Property, violation: Violation, played: Played, events: list) -> None:
        super().__init__(f"{prop.id} violated: {violation.en}")
        self.prop = prop
        self.violation = violation
        self.played = played
        self.events = events


def machine_for(rb: Rulebook, only: frozenset[str] | None = None, skip: frozenset[str] = frozenset(),
                exercised: Counter | None = None, family: tuple[tuple[State, ...], ...] = (),
                eager: bool = False, aims: tuple = (), combos_played: set | None = None) -> type:
    """The state machine class for ``rb`` (checking ``only`` these properties, minus ``skip``);
    ``exercised`` counts, per property, the finished runs that played its premise (key ``""``: the
    finished runs).  Its worlds are drawn for ``rb`` (:func:`~.strategies.worlds`), or picked from
    ``family`` when one is given (groups of bounded worlds: a group, then a world of it; the dice and
    responses are still drawn).  ``eager``: a player's choices are listed plays first, passing last —
    Hypothesis leans to the first of a list, so an eager machine plays what it is offered (the rounds
    drawn for situations never played: most premises need some feature played).  ``aims``: the drawn
    worlds are aimed at these combinations of the universe; ``combos_played`` collects the combinations
    the finished runs played (:func:`~ruleproof.model.universe.played`)."""
    wanted = [p.id for p in PROPERTIES if (only is None or p.id in only) and p.id not in skip]
    used = uses(rb)  # the worlds are drawn for this rulebook: its windows, trigger words and guards
    props = [p for p in PROPERTIES if p.id in wanted]

    class RulebookMachine(RuleBasedStateMachine):
        stepper: Stepper | None = None
        seen = 0

        @initialize(world=st.sampled_from(family).flatmap(st.sampled_from) if family else worlds(used, aims))
        def start(self, world: State) -> None:
            self.played = Played(world)
            self.stepper = Stepper(rb, world)
            self._pass_without_options()

        def _pass_without_options(self) -> None:
            """A player offered nothing can only pass: answered here, not drawn (short runs, short shrinks)."""
            ask = self.stepper.ask
            while ask is not None and ask.kind == "respond" and not ask.options:
                self.played.answers.append(None)
                ask = self.stepper.answer(None)

        def _asks(self, kind: str) -> bool:
            return self.stepper is not None and self.stepper.ask is not None and self.stepper.ask.kind == kind

        @precondition(lambda self: self._asks("die"))
        @rule(data=st.data())
        def roll(self, data) -> None:
            value = data.draw(st.integers(*self.stepper.ask.faces), label="die")
            self.played.answers.append(value)
            self.stepper.answer(value)
            self._pass_without_options()

        @precondition(lambda self: self._asks("respond"))
        @rule(data=st.data())
        def respond(self, data) -> None:
            ask = self.stepper.ask
            plays = [f.id for _, f in ask.options]
            choice = data.draw(st.sampled_from([*plays, None] if eager else [None, *plays]),
                               label=f"{ask.window}:{ask.player}")
            self.played.answers.append(choice)
            self.stepper.answer(choice)
            self._pass_without_options()

        @precondition(lambda self: self.stepper is not None and self.stepper.finished)
        @rule()
        def finished(self) -> None:
            """The action is over; nothing is left to choose."""

        @invariant()
        def properties_hold(self) -> None:
            """Every property, checked whenever a step of the rulebook has ended (and at the end)."""
            if self.stepper is None:
                return
            events = self.stepper.trace.events
            if self.seen == len(events):
                return  # nothing new since the last check (e.g. after the end)
            boundaries = sum(1 for e in events[self.seen:] if e.op in ("goto", "end", "deadlock", "step_limit"))
            if not boundaries and not self.stepper.finished:
                return
            self.seen = len(events)
            t = tracker(props, events[0].state)
            track = t.feed(t.start(), events)
            if self.stepper.finished and combos_played is not None:
                combos_played.update(played_combos(events))
            if self.stepper.finished and exercised is not None:
                exercised[""] += 1
                exercised.update(p.id for p in played_premise(props, track))
            found = violations(props, track)
            if found:
                prop, violation = found[0]
                raise PropertyViolated(prop, violation, self.played, list(events))

    RulebookMachine.TestCase.settings = settings(stateful_step_count=STEP_COUNT, deadline=None,
                                                 suppress_health_check=list(HealthCheck))
    return RulebookMachine
