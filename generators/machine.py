"""A Hypothesis test that plays game actions through a rulebook and checks every property.

One example: a world is drawn, then every choice the rulebook asks for — a die (within the rulebook's
die faces) or a response in the current window (one of the features the rulebook offers, or a pass) —
is drawn in turn until the action is over, and whenever a step ends every property of the catalogue is
checked.  The test is built for a given rulebook, so a draft is tested exactly like the current rules.
(A Hypothesis state machine would add nothing: exactly one rule applies at each point.  It also ended
games at a random step and spent examples on rule draws it then rejected; every example here is a whole
game.)

>>> from hypothesis import settings
>>> from ruleproof.model.rulebook import load_rulebook
>>> test = settings(max_examples=3, database=None, deadline=None)(games_test(load_rulebook()))
>>> test()  # three games, every property holds
"""

from __future__ import annotations

import contextlib
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Iterator

from hypothesis import given, strategies as st

from ruleproof.model.interpreter import Stepper
from ruleproof.model.rulebook import Rulebook
from ruleproof.model.state import State
from ruleproof.model.universe import played as played_combos
from ruleproof.properties.catalogue import (
    PROPERTIES,
    Property,
    Violation,
    exercised as played_premise,
    tracker,
    violations,
)

from .strategies import worlds
from .uses import uses

__all__ = ["PropertyViolated", "Played", "games_test", "play_game", "ANSWERS"]

#: the most responses drawn in one game (a player offered nothing passes without a draw; a compound
#: feature has two parts): beyond it every player passes, so a game always ends
ANSWERS = 50


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


@contextlib.contextmanager
def no_local_constants() -> Iterator[None]:
    """Hypothesis (6.13x on) now and then draws a number from the constants it finds in the *local* modules
    loaded so far — which of ours are loaded, and whether ruleproof is installed as a local (editable) copy
    or in site-packages, would then change the games a seed draws (the same command gave other results
    inside pytest than on the command line).  Within this context it finds none: a seed means one thing."""
    from hypothesis.internal.conjecture import providers  # hypothesis is slow to import: only when it is used

    found = getattr(providers, "_get_local_constants", None)
    cache = getattr(providers, "CONSTANTS_CACHE", None)
    if found is None or cache is None or not hasattr(providers, "Constants"):  # a Hypothesis without them
        yield
        return
    empty = providers.Constants()
    providers._get_local_constants = lambda: empty
    cache.cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = found
        cache.cache.clear()


def games_test(rb: Rulebook, only: frozenset[str] | None = None, skip: frozenset[str] = frozenset(),
               exercised: Counter | None = None, family: tuple[tuple[State, ...], ...] = (),
               eager: bool = False, aims: tuple = (), combos_played: set | None = None) -> Callable[[], None]:
    """A Hypothesis test (``@given``; call it to run, after ``settings`` and ``seed`` decorators) whose every
    example plays one whole game action of ``rb``, checking ``only`` these properties (minus ``skip``)
    whenever a step of the rulebook ends.  ``exercised`` counts, per property, the finished runs that played
    its premise (key ``""``: the finished runs).  Its worlds are drawn for ``rb``
    (:func:`~.strategies.worlds`), or picked from ``family`` when one is given (groups of bounded worlds:
    a group, then a world of it; the dice and responses are still drawn).  ``eager``: a player's choices are
    listed plays first, passing last — Hypothesis leans to the first of a list, so an eager test plays what
    it is offered (the rounds drawn for situations never played: most premises need some feature played).
    ``aims``: the drawn worlds are aimed at these combinations of the universe; ``combos_played`` collects
    the combinations the finished runs played (:func:`~ruleproof.model.universe.played`).

    The games a seed draws depend on the seed and the rulebook only (:func:`no_local_constants`).
    """
    wanted = [p.id for p in PROPERTIES if (only is None or p.id in only) and p.id not in skip]
    props = [p for p in PROPERTIES if p.id in wanted]
    if family:
        world_strategy = st.integers(0, len(family) - 1).flatmap(
            lambda g: st.integers(0, len(family[g]) - 1).map(family[g].__getitem__))
    else:
        world_strategy = worlds(uses(rb), aims)  # drawn for this rulebook: its windows, trigger words and guards

    @given(data=st.data())
    def play_games(data) -> None:
        with no_local_constants():
            play_game(rb, props, data.draw(world_strategy, label="world"), data.draw, eager, exercised, combos_played)

    return play_games


def _answer(ask, draw: Callable, eager: bool, answered: int):
    """What ``draw`` answers the interpreter's question ``ask`` (None: nothing asked, or a pass): a die within its
    faces; a response by its index, passing first — or, ``eager``, last — while fewer than ANSWERS were given."""
    if ask is None:
        return None
    if ask.kind == "die":
        return draw(st.integers(*ask.faces), label="die")
    if ask.kind == "respond" and ask.options and answered < ANSWERS:
        plays = [f.id for _, f in ask.options]
        i = draw(st.integers(0, len(plays)), label=f"{ask.window}:{ask.player}")
        return (plays + [None])[i] if eager else ([None] + plays)[i]
    if ask.kind == "respond":
        return None
    raise AssertionError(f"unexpected ask {ask.kind!r}")  # pragma: no cover - the interpreter asks for nothing else


def play_game(rb: Rulebook, props: list[Property], world: State, draw: Callable, eager: bool = False,
              exercised: Counter | None = None, combos_played: set | None = None) -> Played:
    """One game action of ``rb`` from ``world``, every choice taken by ``draw`` (a die within the rulebook's
    faces; a response by its index, passing first — or, ``eager``, last; a player offered nothing passes
    without a draw); ``props`` checked whenever a step ends and at the end (:class:`PropertyViolated`)."""
    played = Played(world)
    stepper = Stepper(rb, world)
    t = track = None
    seen = 0
    while True:
        ask = stepper.ask
        value = _answer(ask, draw, eager, len(played.answers))
        events = stepper.trace.events
        if len(events) > seen and (ask is None or any(
                e.op in ("goto", "end", "deadlock", "step_limit") for e in events[seen:])):
            if t is None:
                t = tracker(props, events[0].state)
            track, seen = t.feed(t.start() if track is None else track, events[seen:]), len(events)
            if ask is None:
                if combos_played is not None:
                    combos_played.update(played_combos(events))
                if exercised is not None:
                    exercised[""] += 1
                    exercised.update(p.id for p in played_premise(props, track))
            found = violations(props, track)
            if found:
                prop, violation = found[0]
                raise PropertyViolated(prop, violation, played, list(events))
        if ask is None:
            return played
        played.answers.append(value)
        stepper.answer(value)
