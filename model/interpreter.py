"""Run one game action through a rulebook: ``run(rulebook, state, choices) -> Trace``.

The interpreter holds no rule of its own.  Which steps exist, their order, the operations of each
step and their order, which feature kinds a window admits, who gets priority first, the guards, the
strike table and which strikes fire which trigger words — all come from the rulebook.  What is here
is the meaning of each *word* of the vocabulary (what ``fix_raw_die`` or ``pay_reserved`` does to a
state), so a draft that moves, drops or reorders them behaves differently.

Every event records the step, the operation, the clauses the rulebook cites for it, the values
involved and the state after it.  The same rulebook, state and choices give the same trace.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Callable, NamedTuple, Protocol

from .algebra import Concrete
from .derive import concrete_operation, concrete_play
from .features import Feature
from .rulebook import Rulebook
from .schema import OperationSpec
from .semantics import OPERATIONS, PLAYS as SEM_PLAYS, guard_text, offer
from .state import (
    Card,
    State,
    evolve as replace,  # the fast path: no per-call checks
    other_player,
)
from .vocabulary import parse_guard

_CONCRETE = Concrete()

__all__ = ["Event", "Trace", "Cursor", "NotOffered", "start", "NEEDS_DIE", "Choices", "ScriptedChoices", "RandomChoices", "OutOfChoices", "Ask", "Stepper", "run", "HANDLERS", "MAX_STEPS"]

MAX_STEPS = 100  # steps entered in one run; a compound loop that never ends stops here


class Event(NamedTuple):
    """One step of a trace: an operation, a window turn, an edge — with the state after it.  A named
    tuple (the explorer makes hundreds of thousands: no per-object dict), so it also equals a plain
    tuple of its fields, and is ordered and iterable; not hashable (``values`` is a dict)."""

    seq: int
    step: str
    op: str
    clauses: tuple[str, ...]
    values: dict
    state: State
    assumes: tuple[str, ...] = ()
    where: str = ""  # the rulebook line this behaviour comes from


@dataclass
class Trace:
    events: list[Event] = field(default_factory=list)
    outcome: str = "completed"  # completed | deadlock | step_limit
    unused: list[tuple[str, str, str]] = field(default_factory=list)  # scripted responses never used

    @property
    def final(self) -> State:
        return self.events[-1].state

    def find(self, op: str, **values) -> list[Event]:
        return [e for e in self.events if e.op == op and all(e.values.get(k) == v for k, v in values.items())]


class Choices(Protocol):
    """What the players and the die decide: the interpreter asks, a script or a generator answers."""

    def die(self, state: State, why: str, faces: tuple[int, int]) -> int: ...

    def respond(self, window: str, player: str, options: list[tuple[str, Feature]], state: State) -> str | None: ...


class NotOffered(KeyError):
    """An answer that is not among the options of the pending choice (a replay gone astray)."""


class OutOfChoices(Exception):
    """The choices ran out (a script too short for this rulebook): the run stops, reported as such."""


class ScriptedChoices:
    """Dice in order; responses as (window, player, feature).

    Within a window the scripted responses are taken in their order: a player with priority plays
    the first pending response scripted for that window if it is theirs and the rules offer it, and
    passes otherwise.  When a window closes, its responses that were not played become ``unused``
    (a widened or narrowed window shows up there).
    """

    def __init__(self, dice: list[int], responses: list[tuple[str, str, str]]) -> None:
        self.dice = list(dice)
        self.responses = list(responses)
        self.unused: list[tuple[str, str, str]] = []
        self.used_dice = 0

    def die(self, state: State, why: str, faces: tuple[int, int]) -> int:
        if self.used_dice >= len(self.dice):
            raise OutOfChoices(f"the rules asked for die result #{self.used_dice + 1} ({why}), "
                               f"but only {len(self.dice)} are scripted")
        value = self.dice[self.used_dice]
        self.used_dice += 1
        if not faces[0] <= value <= faces[1]:  # the script's die cannot show this on this rulebook's die
            raise OutOfChoices(f"scripted die result #{self.used_dice} is {value}, which this rulebook's die "
                               f"({faces[0]}–{faces[1]}, table die_faces) never shows")
        return value

    def respond(self, window: str, player: str, options: list[tuple[str, Feature]], state: State) -> str | None:
        pending = next((r for r in self.responses if r[0] == window), None)
        if pending is not None and pending[1] == player and any(f.id == pending[2] for _, f in options):
            self.responses.remove(pending)
            return pending[2]
        return None

    def window_closed(self, window: str) -> None:
        self.unused += [r for r in self.responses if r[0] == window]
        self.responses = [r for r in self.responses if r[0] != window]

    def left_over(self) -> list[tuple[str, str, str]]:
        """Responses never played: those of windows that closed without them, then the rest."""
        return self.unused + self.responses


class RandomChoices:
    """Seeded random dice and responses: each offered feature is played with probability ``play``.

    >>> a, b = RandomChoices(seed=7), RandomChoices(seed=7)
    >>> [a.die(None, "roll", (1, 6)) for _ in range(5)] == [b.die(None, "roll", (1, 6)) for _ in range(5)]
    True
    """

    def __init__(self, seed: int = 0, play: float = 0.5) -> None:
        self.rng = random.Random(seed)
        self.play = play
        self.seed = seed

    def die(self, state: State, why: str, faces: tuple[int, int]) -> int:
        return self.rng.randint(*faces)

    def respond(self, window: str, player: str, options: list[tuple[str, Feature]], state: State) -> str | None:
        if options and self.rng.random() < self.play:
            return self.rng.choice(options)[1].id
        return None


class Ask(NamedTuple):
    """A choice the run needs: a die result, or a player's response in a window (a feature id or
    None to pass).  A named tuple: the explorer makes one per configuration."""

    kind: str  # die | respond
    state: State
    why: str = ""
    faces: tuple[int, int] = (1, 6)
    window: str = ""
    player: str = ""
    options: tuple[tuple[str, Feature], ...] = ()


class Cursor(NamedTuple):
    """Where a run is, as data: with the :class:`State` it is the whole configuration of a run, so
    a run can be stopped at any choice and resumed (or forked) from there.

    ``at`` is ``enter`` (about to enter ``step``), ``op`` (about to run operation ``op`` of it),
    ``die`` (waiting for the die of a ``roll_die``), ``respond`` (waiting in the window of operation
    ``op`` for ``player``'s response), ``play_die`` (waiting for the new roll of a ``feature``
    played in that window whose play takes one), ``next`` (about to take an edge) or ``done`` (with ``outcome``).
    A named tuple: the explorer makes and hashes one per configuration (in C, no per-field calls).
    """

    at: str
    step: str
    op: int = 0
    player: str = ""  # window: who has priority
    passes: int = 0  # window: passes in a row
    played: tuple[str, ...] = ()  # window: features played in it
    feature: str = ""  # play_die: the feature being played, its card and what was offered
    card: str = ""
    offered: tuple[str, ...] = ()
    entered: int = 0  # steps entered so far (MAX_STEPS)
    outcome: str = ""  # done: completed | deadlock | step_limit

    @property
    def waiting(self) -> bool:
        return self.at in _WAITING


_WAITING = frozenset({"die", "respond", "play_die"})
_cursor = partial(tuple.__new__, Cursor)  # a Cursor from a tuple of all its fields, in order
_event = partial(tuple.__new__, Event)  # an Event from a tuple of all its fields (the hot path: no __new__ call)


def start(rb: Rulebook, state: State) -> tuple[State, Cursor]:
    """The configuration a run of ``rb`` starts from."""
    a = state.action
    if a is not None and not a.start_markers:
        a = replace(a, start_markers=tuple((c.id, c.action_markers) for c in state.cards))
    return (replace(state, step=rb.spec.start, action=a,
                    assault_strikes=tuple(rb.table("assault_strikes")["closes_after"])),
            Cursor("enter", rb.spec.start))


class _Run:
    def __init__(self, rb: Rulebook) -> None:
        self.rb = rb
        self.trace = Trace()
        self.seq0 = 0  # seq of the first event (a resumed run continues the numbering: restart())
        self.faces = (rb.table("die_faces")["min"], rb.table("die_faces")["max"])
        self.strikes = rb.table("strike_table")
        self.words = rb.table("trigger_words")
        self.where: str | None = None  # the rulebook location of the element being executed
        self._wheres: dict[tuple, str] = {}
        self._guards: dict[str, Callable[[State, None], bool]] = {}
        self._offers: dict[tuple[Feature, int], Callable[[State, Card], bool]] = {}
        self._plans: dict[str, list] = {}
        self._edges: dict[str, list] = {}
        self.on_closed: Callable[[str], None] | None = None
        # the explorer's fast path: a window turn that can only be a pass (nothing offered, or
        # ``auto_pass`` plays made in the window already) is passed here, and its configuration
        # recorded in ``passed``, instead of returning an Ask the caller can answer only one way
        self.auto_pass: int | None = None
        self.passed: list[tuple[State, "Cursor"]] = []

    # --- events ---------------------------------------------------------------------------------
    def emit(self, state: State, op: str, clauses, values: dict, assumes=()) -> None:
        events = self.trace.events
        events.append(_event((self.seq0 + len(events), state.step, op, tuple(clauses), values, state, tuple(assumes),
                              self.where or "")))

    def restart(self, seq0: int) -> None:
        """Collect the events of a resumed run afresh, numbered from ``seq0`` (the events before)."""
        self.trace.events = []
        self.seq0 = seq0

    def locate(self, path: tuple) -> str:
        """The rulebook location (file:line) of an element, as events carry it."""
        where = self._wheres.get(path)
        if where is None:
            where = self._wheres[path] = str(self.rb.where(path))
        return where

    # --- guards -----------------------------------------------------------------------------------
    def _test(self, text: str) -> Callable[[State, None], bool]:
        """The guard ``text`` as a test ``(state, None) -> bool``: its meaning (:mod:`.semantics`)
        compiled once per run object (validated at load, so it parses)."""
        test = self._guards.get(text)
        if test is None:
            test = self._guards[text] = guard_text(_CONCRETE, text)
        return test

    def _edge_tests(self, step: str) -> list[tuple[int, Callable[[State, None], bool]]]:
        """The guard tests of ``step``'s edges, in order (the first that holds is taken)."""
        tests = self._edges[step] = [(i, self._test(e.when)) for i, e in enumerate(self.rb.spec.steps[step].next)]
        return tests

    def _plan(self, step: str) -> list[tuple[OperationSpec, str, Callable[[State, None], bool] | None]]:
        """The operations of ``step`` with their rulebook locations and guard tests (None: ``always``),
        worked out once per run object: the main loop's index of the rulebook by step."""
        plan = self._plans[step] = [
            (op, self.locate(("steps", step, "operations", i)),
             None if parse_guard(op.when) == _ALWAYS else self._test(op.when))
            for i, op in enumerate(self.rb.spec.steps[step].operations)]
        return plan

    # --- the main loop ------------------------------------------------------------------------------
    def advance(self, s: State, cur: Cursor, answer: object = None,
                options: tuple | None = None) -> tuple[State, Cursor, Ask | None]:
        """Run from configuration (``s``, ``cur``) to the next choice, emitting the events on the way.

        If ``cur`` waits for a choice, ``answer`` is that choice (``options``: the options of the
        :class:`Ask` it answers, when the caller has them, so they are not worked out again).
        Returns the new configuration and the :class:`Ask` it waits at (None when the run is over:
        ``cur.at == "done"``).  With ``auto_pass`` set, a window turn that can only be a pass is
        passed on the way, and its configuration appended to ``passed``.
        """
        if cur.at in _WAITING:
            s, cur = self._answer(s, cur, answer, options)
        while True:
            at = cur.at
            if at == "op":
                s, cur, ask = self._operations(s, cur)
                if ask is not None:
                    return s, cur, ask
            elif at == "enter":
                s, cur = self._enter(s, cur)
            elif at == "next":
                s, cur = self._next(s, cur)
            elif at == "respond":
                op = self.rb.spec.steps[cur.step].operations[cur.op]
                ask = self._ask_response(s, cur, op)
                if self.auto_pass is None or (ask.options and len(cur.played) < self.auto_pass):
                    return s, cur, ask
                self.passed.append((s, cur))
                s, cur = self._answer(s, cur, None, ask.options)
            elif at == "play_die":
                return s, cur, Ask("die", s, why=f"reroll {cur.feature}", faces=self.faces)
            else:  # done
                return s, cur, None

    def _operations(self, s: State, cur: Cursor) -> tuple[State, Cursor, Ask | None]:
        """The step's operations from ``cur.op`` on, up to the next choice (no cursor per operation): a die to
        roll (its Ask), a window's turns (cursor ``respond``), or the step's edges (cursor ``next``)."""
        step = cur.step
        plan = self._plans.get(step) or self._plan(step)
        i = cur.op
        while i < len(plan):
            op, self.where, holds = plan[i]
            if holds is not None and not holds(s, None):
                self.emit(s, op.op, op.cites, {"skipped": True, "guard": op.when, **op.params}, op.assumes)
            elif op.op == "roll_die":
                return s, cur._replace(at="die", op=i), Ask("die", s, why="roll", faces=self.faces)
            elif op.op == "window":
                s, opener = self._open(s, op)
                return s, Cursor("respond", step, i, player=opener, entered=cur.entered), None
            else:
                s = HANDLERS[op.op](self, s, op)
            i += 1
        return s, Cursor("next", step, entered=cur.entered), None

    def _open(self, s: State, op: OperationSpec) -> tuple[State, str]:
        """A window opens: it is seen, its plays counted afresh (plays_at_least); (the state, who goes first)."""
        opener = self._opener(s, op)
        s = replace(s, windows_seen=s.windows_seen + (op.params["id"],))
        if s.action is not None and s.action.window_plays:
            s = s.with_action(window_plays=0)  # plays are counted per window (plays_at_least)
        self.emit(s, "window", op.cites, {"id": op.params["id"], "first": opener,
                                          "allows": tuple(op.params["allows"])}, op.assumes)
        return s, opener

    def _enter(self, s: State, cur: Cursor) -> tuple[State, Cursor]:
        """Enter the cursor's step (past MAX_STEPS entries: the run ends, ``step_limit``)."""
        if cur.entered >= MAX_STEPS:
            self.trace.outcome = "step_limit"
            self.emit(s, "step_limit", (), {"limit": MAX_STEPS})
            return s, Cursor("done", cur.step, entered=cur.entered, outcome="step_limit")
        spec = self.rb.spec.steps[cur.step]
        s = replace(s, step=cur.step, visited=s.visited + (cur.step,))
        self.where = self.locate(("steps", cur.step))
        self.emit(s, "enter", spec.cites, {"step": cur.step, "kind": spec.kind}, spec.assumes)
        return s, Cursor("op", cur.step, 0, entered=cur.entered + 1)

    def _next(self, s: State, cur: Cursor) -> tuple[State, Cursor]:
        """The step's first edge whose guard holds (none: the end of the run, or a deadlock where edges are)."""
        spec = self.rb.spec.steps[cur.step]
        if not spec.next:
            self.where = self.locate(("steps", cur.step))
            self.emit(s, "end", spec.cites, {"step": cur.step})
            return s, Cursor("done", cur.step, entered=cur.entered, outcome="completed")
        taken = None
        for i, holds in self._edges.get(cur.step) or self._edge_tests(cur.step):
            if holds(s, None):
                taken = i
                break
        if taken is None:
            self.where = self.locate(("steps", cur.step))
            self.trace.outcome = "deadlock"
            self.emit(s, "deadlock", spec.cites, {"step": cur.step})
            return s, Cursor("done", cur.step, entered=cur.entered, outcome="deadlock")
        edge = spec.next[taken]
        self.where = self.locate(("steps", cur.step, "next", taken))
        self.emit(s, "goto", edge.cites, {"from": cur.step, "to": edge.to, "guard": edge.when}, edge.assumes)
        s = replace(s, step=edge.to)
        return s, Cursor("enter", edge.to, entered=cur.entered)

    # --- choices: the die, and priority windows (assumption A-priority of the bundled rulebook) ------
    def _opener(self, s: State, op: OperationSpec) -> str:
        return s.active_player if op.params["first"] == "active_player" else other_player(s.active_player)

    def options(self, s: State, cur: Cursor, op: OperationSpec) -> list[tuple[str, Feature]]:
        """What ``cur.player`` may play in the window of ``op`` now."""
        allows = op.params["allows"]
        return [(c.id, f) for c in s.cards if c.controller == cur.player for f in c.features
                if f.kind in allows and f.id not in cur.played and self.offer(f, op.params)(s, c)]

    def _ask_response(self, s: State, cur: Cursor, op: OperationSpec) -> Ask:
        return Ask("respond", s, window=op.params["id"], player=cur.player, options=tuple(self.options(s, cur, op)))

    def _answer(self, s: State, cur: Cursor, answer: object,
                options: Sequence[tuple[str, Feature]] | None = None) -> tuple[State, Cursor]:
        """Take the answer to the choice ``cur`` waits at; return the configuration after it."""
        op, self.where, _ = (self._plans.get(cur.step) or self._plan(cur.step))[cur.op]
        if cur.at == "die":
            s = HANDLERS[op.op](self, s, op, answer)
            return s, cur._replace(at="op", op=cur.op + 1)
        wid = op.params["id"]
        if cur.at == "play_die":
            feature = next(f for f in s.card(cur.card).features if f.id == cur.feature)
            s = concrete_play(feature)(s, cur.card, answer, self.strikes)
            return self._played(s, cur, op, cur.feature, feature.kind, cur.card, cur.offered)
        if options is None:
            options = self.options(s, cur, op)
        offered = tuple([f.id for _, f in options]) if options else ()
        if answer is None:
            self.emit(s, "pass", op.cites, {"window": wid, "player": cur.player, "offered": offered}, op.assumes)
            at, step, i, player, passes, *rest = cur  # a copy without NamedTuple._replace (a forced pass's hot path)
            cur = _cursor((at, step, i, other_player(player), passes + 1, *rest))
            if cur.passes < 2:
                return s, cur
            self.emit(s, "window_closed", op.cites, {"id": wid}, op.assumes)
            if self.on_closed is not None:
                self.on_closed(wid)
            return s, Cursor("op", cur.step, cur.op + 1, entered=cur.entered)
        found = next(((c, f) for c, f in options if f.id == answer), None)
        if found is None:
            raise NotOffered(f"{answer!r} is not offered to player {cur.player} in window {wid} "
                             f"(offered: {', '.join(offered) or 'nothing'})")
        card_id, feature = found
        cur = cur._replace(played=cur.played + (feature.id,))
        if feature.kind in NEEDS_DIE:
            return s, cur._replace(at="play_die", feature=feature.id, card=card_id, offered=offered)
        s = concrete_play(feature)(s, card_id, None, self.strikes)
        return self._played(s, cur, op, feature.id, feature.kind, card_id, offered)

    def _played(self, s: State, cur: Cursor, op: OperationSpec, fid: str, kind: str, card_id: str,
                offered: tuple[str, ...]) -> tuple[State, Cursor]:
        if s.action is not None:
            s = s.with_action(window_plays=s.action.window_plays + 1)
        self.emit(s, "play", op.cites, {"window": op.params["id"], "player": cur.player, "feature": fid,
                                        "kind": kind, "offered": offered, "card": card_id}, op.assumes)
        return s, Cursor("respond", cur.step, cur.op, player=self._opener(s, op), played=cur.played,
                         entered=cur.entered)

    def offer(self, feature: Feature, window: dict | None = None) -> Callable[[State, Card], bool]:
        """May the card holding ``feature`` play it now (in a window with parameters ``window``)?  Its meaning
        (:func:`.semantics.offer`, with this rulebook's trigger words) compiled once per feature and window."""
        key = (feature, id(window))  # a window's parameters: the rulebook's own dict, alive as long as this run
        test = self._offers.get(key)
        if test is None:
            test = self._offers[key] = offer(_CONCRETE, feature, self.words, window)
        return test


_ALWAYS = parse_guard("always")


# --- the meaning of each operation ---------------------------------------------------------------------
class Handler(Protocol):
    """An operation's handler: the state after ``op`` ran on ``s`` (``die``: the result a ``roll_die`` waits for)."""

    def __call__(self, r: _Run, s: State, op: OperationSpec, die: object = None, /) -> State: ...


HANDLERS: dict[str, Handler] = {}


def handles(name: str) -> Callable[[Handler], Handler]:
    def attach(fn: Handler) -> Handler:
        HANDLERS[name] = fn
        return fn

    return attach


def _done(r: _Run, state: State, op: OperationSpec, **values) -> State:
    r.emit(state, op.op, op.cites, {**op.params, **values}, op.assumes)
    return state


#: every operation's handler, derived from its one meaning (semantics.OPERATIONS)
for _name in OPERATIONS:
    HANDLERS[_name] = concrete_operation(_name)


# --- what playing a feature of each kind does: derived from semantics.PLAYS --------------------------------

#: feature kinds whose play needs a die result (the reroll's new roll): the run asks for it
NEEDS_DIE = frozenset(k for k, p in SEM_PLAYS.items() if p.die)


class Stepper:
    """A run taken one choice at a time: ``ask`` is the pending choice (None when finished).

    >>> from ruleproof.model.rulebook import load_rulebook
    >>> from ruleproof.model.scenario import load_scenario, shipped_rulings
    >>> sc = load_scenario(next(p for p in shipped_rulings() if p.name == "540-kele-attacker.yaml"))
    >>> st = Stepper(load_rulebook(), sc.initial_state())
    >>> st.ask.kind, st.ask.why
    ('die', 'roll')
    >>> st.answer(4).kind, st.ask.window, st.ask.player
    ('respond', 'reroll', 'A')
    """

    def __init__(self, rb: Rulebook, state: State, on_closed: Callable[[str], None] | None = None) -> None:
        self.run = _Run(rb)
        self.run.on_closed = on_closed
        self.state, self.cursor = start(rb, state)
        self.ask: Ask | None = None
        self._advance(None)

    @property
    def trace(self) -> Trace:
        return self.run.trace

    @property
    def finished(self) -> bool:
        return self.ask is None

    def _advance(self, value: object) -> None:
        self.state, self.cursor, self.ask = self.run.advance(self.state, self.cursor, value)

    def answer(self, value: object) -> Ask | None:
        """Give the pending choice its answer; return the next one (None when the run is over)."""
        assert self.ask is not None, "the run is over"
        self._advance(value)
        return self.ask

    def stop(self, outcome: str, reason: str) -> None:
        state = self.trace.events[-1].state if self.trace.events else None
        self.trace.outcome = outcome
        if state is not None:
            self.run.emit(state, outcome, (), {"reason": reason})
        self.cursor = Cursor("done", self.cursor.step, entered=self.cursor.entered, outcome=outcome)
        self.ask = None


def run(rb: Rulebook, state: State, choices: Choices) -> Trace:
    """Run the game action in ``state.action`` through ``rb`` from its start step."""
    stepper = Stepper(rb, state, getattr(choices, "window_closed", None))
    try:
        while stepper.ask is not None:
            ask = stepper.ask
            if ask.kind == "die":
                stepper.answer(choices.die(ask.state, ask.why, ask.faces))
            else:
                stepper.answer(choices.respond(ask.window, ask.player, list(ask.options), ask.state))
    except OutOfChoices as exc:
        stepper.stop("out_of_choices", str(exc))
    return stepper.trace
