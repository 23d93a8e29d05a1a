"""Exhaustive exploration: every play of every bounded world, breadth first, over the interpreter.

A configuration of a run is an immutable, hashable pair (:class:`~.state.State`,
:class:`~.interpreter.Cursor`); :meth:`_Run.advance` takes it from one choice to the next.  The
explorer expands each configuration with every answer the bounds allow — every die face, every
response offered in a window (at most ``plays_per_window`` plays per window) and passing — and
checks every property of the catalogue on every finished trace.

Configurations are hashed and counted (``states``); a node of the search is a configuration *with
the history that led to it*, because the properties read the whole trace: two plays that reach the
same configuration by different histories are both checked, so "holds" covers every trace within
the bounds.  The interpreter still runs once per configuration, answer and trace length, up to the
next choice: advancing from a configuration reached again is deterministic, so its events are
reused (``done``).  A turn that can only be a pass (a *forced* pass) is taken by the interpreter
on the way (``auto_pass``), its configuration counted all the same.  The search is breadth first
in the number of choices, so the first violation found of each property is a shortest
counterexample (fewest choices; ties: fewest events).

>>> from ruleproof.model.rulebook import load_rulebook
>>> from ruleproof.generators.bounded import bounded_worlds
>>> out = explore(load_rulebook(), bounded_worlds(x_max=0, loadouts=("none",)))
>>> out.complete, out.deadlocks, not out.violations
(True, [], True)
"""

from __future__ import annotations

import builtins
import gc
import os
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from ruleproof.generators.bounded import PLAYS_CAP
from ruleproof.generators.uses import uses
from ruleproof.ground.forked import fork_map
from ruleproof.ground.i18n import answers_text
from ruleproof.properties import catalogue
from ruleproof.reports.finding import CheckResult, Finding, Verdict
from ruleproof.reports.trace import trace_to_json

from .interpreter import Ask, Cursor, Event, _Run, start
from .rulebook import Rulebook
from .state import State

if TYPE_CHECKING:
    from ruleproof.properties.tracker import Track, Tracker

__all__ = ["Bounds", "Counterexample", "ExploreOutcome", "explore", "explore_results", "merge"]


@dataclass(frozen=True)
class Bounds:
    """The finite domains of an exhaustive pass."""

    x_max: int = 1  # X values 0..x_max (targets 1..x_max); the `explore` command's default too
    plays_per_window: int = 1  # responses played per window (then only passing)
    die: tuple[int, int] | None = None  # die faces (default: the rulebook's die_faces table)
    loadouts: tuple[str, ...] | None = None  # which feature loadouts (default: all)
    max_nodes: int = 5_000_000  # a safety stop per world: reaching it makes the pass bounded (incomplete)
    max_memory_mb: int = 3072  # a safety stop for the process: its resident memory (likewise bounded)

    def plays_in(self, world) -> int:
        """Plays per window the search allows in ``world``: ``plays_per_window``, or more where the world
        asks for more (:func:`ruleproof.generators.bounded.two_plays_worlds`)."""
        return max(self.plays_per_window, getattr(world, "plays", 0))

    def die_values(self, rb: Rulebook, world=None) -> tuple[int, ...]:
        """Every die face the search tries: ``die``, else the rulebook's ``die_faces`` table — in ``world``
        only the first ``world.faces`` of them where it says so (the many-rerolls worlds)."""
        lo, hi = self.die or (rb.table("die_faces")["min"], rb.table("die_faces")["max"])
        faces = getattr(world, "faces", 0)
        return tuple(range(lo, hi + 1))[:faces or None]


@dataclass(frozen=True)
class Counterexample:
    property: str
    world: str  # the bounded world's name
    world_index: int
    answers: tuple  # the choices, in order (die values; feature ids or None for a pass)
    events: tuple[Event, ...]
    offending: tuple[int, ...]  # seq numbers of the events the property points at
    message: dict[str, str]

    @builtins.property  # the field ``property`` shadows the builtin in this class's body
    def choices(self) -> int:
        return len(self.answers)


@dataclass
class ExploreOutcome:
    states: int = 0  # distinct configurations (state + cursor) at choices and forced passes
    transitions: int = 0  # choices taken (a forced pass is not a choice: counted in ``forced``)
    forced: int = 0
    traces: int = 0  # finished runs checked
    depth: int = 0  # the most answers (choices and forced passes) on any run: in this tree, the longest shortest path
    steps: int = 0  # the most interpreter events of any run (the depth at which an event-level BMC is complete)
    events: int = 0  # events produced
    seconds: float = 0.0
    complete: bool = True
    stopped_by: str = ""  # the bound that stopped an incomplete search: max_nodes | memory
    worlds: int = 0
    deadlocks: list[tuple[str, tuple, str]] = field(default_factory=list)  # (world, answers, outcome)
    violations: dict[str, Counterexample] = field(default_factory=dict)
    exercised: Counter = field(default_factory=Counter)  # property -> finished runs in which its premise held
    # action coverage, counted once per event of the search tree (a prefix shared by many runs once)
    ops_fired: Counter = field(default_factory=Counter)  # rulebook location of an operation -> times executed
    windows_opened: Counter = field(default_factory=Counter)  # window id -> times opened
    roles: Counter = field(default_factory=Counter)  # (window id, feature kind, card) -> times played
    ops_skipped: Counter = field(default_factory=Counter)  # location of a guarded operation -> times its guard failed
    edges_taken: Counter = field(default_factory=Counter)  # rulebook location of an edge -> times taken

    @property
    def responses(self) -> Counter:
        """(window id, feature kind) -> times played, whoever played it."""
        out: Counter = Counter()
        for (window, kind, _), n in self.roles.items():
            out[window, kind] += n
        return out

    @property
    def states_per_second(self) -> float:
        return self.states / self.seconds if self.seconds else 0.0


class _Node(NamedTuple):
    state: State
    cursor: Cursor
    ask: Ask | None
    events: tuple  # the whole trace so far (shared tuples; cheap to extend)
    answers: tuple
    track: Track  # where the property monitors stand after these events


def explore(rb: Rulebook, worlds: list, bounds: Bounds = Bounds(), only: frozenset[str] | None = None,
            progress=None, jobs: int = 1) -> ExploreOutcome:
    """Every play of every world in ``worlds`` (:class:`~ruleproof.generators.bounded.World`).

    ``jobs`` > 1 hands the worlds out, one at a time, to that many processes as they come free (the
    outcomes are merged: the same figures and the same shortest counterexamples as one process)."""
    if jobs > 1 and len(worlds) > 1:
        return _explore_parallel(rb, worlds, bounds, only, jobs)
    return _explore(rb, list(enumerate(worlds)), bounds, only, progress)


def _resident_mb() -> float:
    """This process's resident memory now, in MB (Linux: /proc; elsewhere its peak so far)."""
    try:
        with open("/proc/self/statm", "rb") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20
    except (OSError, ValueError, IndexError):  # pragma: no cover - not Linux
        import resource  # not on every system: only where /proc is missing

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _explore(rb: Rulebook, indexed: list, bounds: Bounds, only, progress=None) -> ExploreOutcome:
    # The search allocates millions of records and frees none until it ends, and it makes no
    # reference cycles: the cyclic collector would only rescan them (measured: ~30% of the time).
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _search(rb, indexed, bounds, only, progress)
    finally:
        if enabled:
            gc.enable()


def _search(rb: Rulebook, indexed: list, bounds: Bounds, only, progress=None) -> ExploreOutcome:
    # the catalogue as it is now (a test plants properties in it)
    search = _Search(rb, bounds, [p for p in catalogue.PROPERTIES if only is None or p.id in only], len(indexed))
    for n, (wi, world) in enumerate(indexed):
        if search.out.stopped_by == "memory":
            break  # the memory is spent: no further world
        if progress:
            progress(f"{n + 1}/{len(indexed)} {world.name}: {search.out.states} states")
        search.world(wi, world)
    search.out.seconds = time.perf_counter() - search.started
    return search.out


class _Search:
    """The breadth-first search over the worlds, one at a time: its outcome, the configurations seen, the runs
    kept for reuse, the shortest counterexample found per property."""

    def __init__(self, rb: Rulebook, bounds: Bounds, props: list, worlds: int) -> None:
        self.rb, self.bounds, self.props = rb, bounds, props
        self.out = ExploreOutcome(worlds=worlds)
        self.monitors: Tracker | None = None  # the world's property monitors (made per world: they know its features)
        self.seen: set = set()
        self.started = time.perf_counter()
        self.runner = _Run(rb)
        self.runner.auto_pass = bounds.plays_per_window  # forced passes are taken inside the interpreter
        self.best: dict[str, tuple[int, int]] = {}  # property -> (choices, events) of its shortest counterexample
        self.done: dict = {}  # (state, cursor, answer, seq) -> what advancing from there gave (per world)
        self.total = 0  # nodes of every world (the memory is the process's)

    def visit(self, configurations) -> None:
        """Count the (state, cursor) pairs not seen before as states."""
        seen = self.seen
        n = len(seen)
        seen.update(configurations)
        self.out.states += len(seen) - n

    def advance(self, s, cur, answer, options, seq: int) -> tuple:
        """The interpreter's :meth:`~.interpreter._Run.advance` from a configuration whose events
        start at ``seq``, run once: a configuration reached again by another history with a trace
        of the same length gives the same events (the run is deterministic), so they are reused.
        The configurations of the forced passes on the way are visited when the run is made (a reuse
        finds them in ``seen`` already: ``seen`` outlives ``done``)."""
        key = (s, cur, answer, seq)
        done = self.done
        found = done.get(key)
        if found is None:
            if len(done) >= _REUSE_LIMIT:  # a cache, not a record: wide bounds must not keep every event
                done.clear()
            runner = self.runner
            runner.restart(seq)
            passed: list[tuple[State, Cursor]] = []
            runner.passed = passed
            s, cur, ask = runner.advance(s, cur, answer, options)
            events = tuple(runner.trace.events)
            found = done[key] = (s, cur, ask, events, len(passed), _covered(events), {})
            if passed:
                self.visit(passed)
        return found

    def step(self, node: _Node, answer, choice: bool = True) -> _Node:
        """Take ``answer`` (``choice``: the node waits for one; else it is a world's start) and run to
        the next choice.  The forced passes on the way (a player offered nothing, or the window's
        plays used up) are not choices, so they make no node of their own."""
        options = None
        if choice:
            assert node.ask is not None, "a node that waits for a choice has its ask"
            options = node.ask.options
        s, cur, ask, new, passes, covered, tracks = self.advance(node.state, node.cursor, answer, options,
                                                                 len(node.events))
        if self.props:  # the monitors along the run: fed once per run and track before it
            key = node.track.key()
            track = tracks.get(key)
            if track is None:
                assert self.monitors is not None, "a world's monitors are made before its first step"
                track = tracks[key] = self.monitors.feed(node.track, new)
        else:
            track = node.track
        out = self.out
        ops, windows, plays, skips, edges = covered
        out.forced += passes
        out.ops_fired.update(ops)  # action coverage: each event of the search tree counted once
        if windows:
            out.windows_opened.update(windows)
        if plays:
            out.roles.update(plays)
        if skips:
            out.ops_skipped.update(skips)
        if edges:
            out.edges_taken.update(edges)
        answers = node.answers + ((answer,) if choice else ()) + (None,) * passes
        return _Node(s, cur, ask, node.events + new, answers, track)

    def world(self, wi: int, world) -> None:
        """Every play of one world, breadth first, within the bounds' node and memory budgets."""
        out, bounds, props = self.out, self.bounds, self.props
        self.done.clear()
        self.runner.auto_pass = bounds.plays_in(world)
        die_values = bounds.die_values(self.rb, world)
        self.monitors = monitors = catalogue.tracker(props, world.state)
        queue = deque([self.step(_Node(*start(self.rb, world.state), None, (), (), monitors.start()), None,
                                 choice=False)])
        nodes = 0  # the budget is per world, so one process and --jobs (a world per task) stop alike
        while queue:
            node = queue.popleft()
            nodes += 1
            self.total += 1  # the memory is the process's: looked at every 256 nodes of any world
            if nodes > bounds.max_nodes or self.total % 256 == 0 and _resident_mb() > bounds.max_memory_mb:
                out.complete = False
                out.stopped_by = "max_nodes" if nodes > bounds.max_nodes else "memory"
                return
            self.visit(((node.state, node.cursor),))
            if node.ask is None:
                # the catalogue's functions looked up when called: a benchmark times the first violation
                _finish(node, world, wi, out, self.best, catalogue.violations(props, node.track))
                out.exercised.update(p.id for p in catalogue.exercised(props, node.track))
                continue
            answers = die_values if node.ask.kind == "die" else (None, *(f.id for _, f in node.ask.options))
            for answer in answers:
                out.transitions += 1
                queue.append(self.step(node, answer))


#: the most runs (from a configuration to the next choice) whose events the search keeps for reuse: the
#: default bounds' largest world makes 1,033 (4,117 look-ups); a run has 26 events on average (forced
#: passes included)
_REUSE_LIMIT = 30_000

_NOT_OPS = frozenset({"enter", "goto", "end", "deadlock", "step_limit", "pass", "play", "window_closed"})


def _explore_parallel(rb: Rulebook, worlds: list, bounds: Bounds, only, jobs: int) -> ExploreOutcome:
    started = time.perf_counter()
    # one world per task, handed out as workers come free: worlds differ in size by an order of
    # magnitude, so fixed shares leave one process idle (measured: 8.9 s against 3.3 s of work)
    parts = fork_map(lambda i: _explore(rb, [(i, worlds[i])], bounds, only), range(len(worlds)), jobs)
    out = merge(parts)
    out.seconds = time.perf_counter() - started
    return out


def merge(parts: list[ExploreOutcome]) -> ExploreOutcome:
    """One outcome from the outcomes of disjoint shares of the worlds (figures add up; a state
    reached in two shares is counted twice — worlds differ in their action, so none is)."""
    out = ExploreOutcome()
    for p in parts:
        for name in ("states", "transitions", "forced", "traces", "events", "worlds"):
            setattr(out, name, getattr(out, name) + getattr(p, name))
        out.depth, out.steps = max(out.depth, p.depth), max(out.steps, p.steps)
        out.complete = out.complete and p.complete
        out.stopped_by = out.stopped_by or p.stopped_by
        out.deadlocks += p.deadlocks
        for c in ("ops_fired", "windows_opened", "roles", "exercised", "ops_skipped", "edges_taken"):
            getattr(out, c).update(getattr(p, c))
        for pid, cx in p.violations.items():
            old = out.violations.get(pid)
            if old is None or (cx.choices, len(cx.events), cx.world_index) < (old.choices, len(old.events),
                                                                                 old.world_index):
                out.violations[pid] = cx
    out.deadlocks.sort()
    return out


def _covered(events: tuple) -> tuple[list, list, list, list, list]:
    """What ``events`` add to the action coverage: the rulebook locations of the operations that ran,
    the windows opened, the (window, feature kind, card) of the responses played, the locations of the
    operations (windows too) whose guard did not hold, and those of the edges taken."""
    ops: list[str] = []
    windows: list[str] = []
    plays: list[tuple[str, str, str]] = []
    skips: list[str] = []
    edges: list[str] = []
    for e in events:
        op = e.op
        skipped = e.values.get("skipped")
        if op == "window" and not skipped:
            windows.append(e.values["id"])
        elif op == "play":
            plays.append((e.values["window"], e.values["kind"], e.values["card"]))
        elif op == "goto":
            edges.append(e.where)
        if op not in _NOT_OPS:
            (skips if skipped else ops).append(e.where)
    return ops, windows, plays, skips, edges


def _finish(node: _Node, world, wi: int, out: ExploreOutcome, best: dict, found: list) -> None:
    out.traces += 1
    events = node.events
    out.depth = max(out.depth, len(node.answers))
    out.steps = max(out.steps, len(events))
    out.events += len(events)
    outcome = node.cursor.outcome
    if outcome != "completed":
        out.deadlocks.append((world.name, node.answers, outcome))
    for prop, violation in found:
        size = (len(node.answers), len(events))
        if prop.id not in best or size < best[prop.id]:
            best[prop.id] = size
            out.violations[prop.id] = Counterexample(prop.id, world.name, wi, node.answers, events,
                                                     violation.events, {"ru": violation.ru, "en": violation.en})


def explore_results(out: ExploreOutcome, rb: Rulebook, replay: str, only: frozenset[str] | None = None) -> list:
    """The outcome as :class:`~ruleproof.reports.finding.CheckResult` records (engine ``exhaustive``):
    one per property, then termination (deadlocks), then action coverage."""
    bounded = "" if out.complete else f" (stopped at {out.stopped_by or 'max_nodes'}: bounded, incomplete)"
    note = f"{out.traces} runs, {out.states} states{bounded}"
    over = _plays_over_cap(rb)
    results = []
    for p in catalogue.PROPERTIES:  # the catalogue as it is now (a test plants properties in it)
        if only is not None and p.id not in only:
            continue
        cx = out.violations.get(p.id)
        findings: tuple = ()
        if cx is not None:
            findings = (Finding(kind="property", check=p.id, verdict=Verdict.VIOLATED, engine="exhaustive",
                                clauses=p.clauses, message=cx.message,
                                element=f"world {cx.world}",
                                where=str(rb.path), replay=f"{replay} --only {p.id} --save-ruling {p.id}.yaml",
                                trace=tuple(trace_to_json(list(cx.events))), highlight=cx.offending),)
        elif not out.complete:
            findings = (Finding(kind="unknown", check=p.id, verdict=Verdict.UNKNOWN, engine="exhaustive",
                                clauses=p.clauses, message={"en": "the bounded search stopped before the end",
                                                            "ru": "ограниченный перебор остановлен до конца"}),)
        elif not out.exercised.get(p.id):
            findings = (catalogue.not_exercised(p, "exhaustive", out.traces, "--bounds x=2,plays=2"),)
        elif over:
            findings = (Finding(kind="unknown", check=p.id, verdict=Verdict.UNKNOWN, engine="exhaustive", clauses=p.clauses,
                                message=over),)
        results.append(CheckResult(p.id, p.clauses, {"ru": p.ru, "en": p.en}, "exhaustive", findings,
                                   note=f"{note}; premise in {out.exercised.get(p.id, 0)}"))
    results.append(_termination(out, rb, replay))
    results.append(_coverage(out, rb))
    return results


def _plays_over_cap(rb: Rulebook) -> dict[str, str] | None:
    """Why a property that holds in the search says nothing past a ``plays_at_least(N)`` guard of ``rb``
    whose N is above the plays per window any world is searched with (None: no such guard)."""
    over = [n for n in uses(rb).play_numbers if n > PLAYS_CAP]
    if not over:
        return None
    return {"en": f"bounded below the guard: plays_at_least({over[-1]}) reads {over[-1]} plays in one window, and "
                  f"the search plays at most {PLAYS_CAP} in a window — what follows the guard was never played",
            "ru": f"перебор ограничен ниже условия: plays_at_least({over[-1]}) требует {over[-1]} розыгрышей в одном "
                  f"окне, а перебор разыгрывает в окне не больше {PLAYS_CAP} — то, что следует за условием, ни разу "
                  f"не разыгрывалось"}


def _termination(out: ExploreOutcome, rb: Rulebook, replay: str):
    findings = []
    for world, answers, outcome in out.deadlocks[:20]:
        findings.append(Finding(
            kind="structure", check="X1-termination", verdict=Verdict.VIOLATED, engine="exhaustive", clauses=("512.6",),
            message={"en": f"the run of world {world} ends in {outcome} after {len(answers)} choices "
                           f"({answers_text(answers, 'en')}): a step with no edge to take, or no end",
                     "ru": f"прогон мира {world} заканчивается {outcome} после {len(answers)} выборов "
                           f"({answers_text(answers, 'ru')}): шаг без перехода или бесконечный цикл"},
            element=f"world {world}", where=str(rb.path), replay=replay))
    return CheckResult("X1-termination", ("512.6", "512.7"),
                       {"en": "Every run of a game action reaches its end (no deadlock, no endless loop).",
                        "ru": "Каждое игродействие доходит до конца (без тупиков и бесконечных циклов)."},
                       "exhaustive", tuple(findings), note=f"{len(out.deadlocks)} runs without an end")


def _operation_coverage(out: ExploreOutcome, rb: Rulebook, sid: str, i: int, op, uncovered) -> list[Finding]:
    """Operation ``i`` of step ``sid``: ran (a window: opened, each kind it admits played), its guard failed."""
    findings = []
    played = out.responses
    where = str(rb.where(("steps", sid, "operations", i)))
    label = op.op + "".join(f" {k}={v}" for k, v in op.params.items() if k in ("x", "id"))
    if op.op == "window":
        wid = op.params["id"]
        missing = [k for k in op.params["allows"] if not played.get((wid, k))]
        missing_ru = ", ".join(missing)
        if not out.windows_opened.get(wid):
            missing, missing_ru = ["(never opened)"], "(ни разу не открыто)"
        if missing:
            findings.append(uncovered(op, where, f"window {wid}",
                                      f"window {wid} of step {sid}: never played in it: {', '.join(missing)}",
                                      f"окно {wid} шага {sid}: ни разу не разыграно: {missing_ru}"))
    elif not out.ops_fired.get(where):
        findings.append(uncovered(op, where, f"{sid}: {label}",
                                  f"operation {label} of step {sid} never ran in any bounded world",
                                  f"операция {label} шага {sid} не выполнилась ни в одном мире перебора"))
    # ops_fired counts a window that opened too (its own event, at its location)
    if (op.when or "always") != "always" and out.ops_fired.get(where) and not out.ops_skipped.get(where):
        wid = op.params.get("id")
        of_en, of_ru = (f"window {wid}", f"окна {wid}") if op.op == "window" else (label, f"операции {label}")
        findings.append(uncovered(op, where, f"{sid}: {label}",
                                  f"the guard «{op.when}» of {of_en} (step {sid}) never failed in any bounded "
                                  f"world: no run played what happens when it does not hold",
                                  f"условие «{op.when}» {of_ru} (шаг {sid}) ни разу не оказалось ложным ни "
                                  f"в одном мире перебора: то, что бывает, когда оно ложно, не разыгрывалось"))
    return findings


def _coverage(out: ExploreOutcome, rb: Rulebook):
    """Every operation executed, every window opened and every feature kind it admits played; every
    guard of an operation or window both held and failed; every edge taken."""
    verdict = Verdict.VIOLATED if out.complete else Verdict.UNKNOWN  # a search stopped early cannot say "never"

    def uncovered(op, where: str, element: str, en: str, ru: str) -> Finding:
        return Finding(kind="coverage", check="X2-action-coverage", verdict=verdict, engine="exhaustive",
                       clauses=tuple(op.cites), message={"en": en, "ru": ru}, element=element, where=where)
    findings = []
    for sid, step in rb.spec.steps.items():
        for i, op in enumerate(step.operations):
            findings += _operation_coverage(out, rb, sid, i, op, uncovered)
        for j, edge in enumerate(step.next):
            where = str(rb.where(("steps", sid, "next", j)))
            if not out.edges_taken.get(where):
                when = f" (when «{edge.when}»)" if (edge.when or "always") != "always" else ""
                when_ru = f" (при «{edge.when}»)" if when else ""
                findings.append(uncovered(edge, where, f"{sid} → {edge.to}",
                                          f"the edge {sid} → {edge.to}{when} was never taken in any bounded world",
                                          f"переход {sid} → {edge.to}{when_ru} не выполнился ни в одном мире перебора"))
    fired = sum(1 for _ in out.ops_fired)
    return CheckResult("X2-action-coverage", ("512.6", "512.7"),
                       {"en": "Every operation runs, every window opens and admits each feature kind it allows, "
                              "every guard of an operation both holds and fails, every edge is taken — in some "
                              "bounded world.",
                        "ru": "Каждая операция выполняется, каждое окно открывается, и в нём разыгрывается каждый "
                              "допустимый вид особенностей, каждое условие операции бывает и истинным, и ложным, "
                              "каждый переход выполняется — хотя бы в одном мире перебора."},
                       "exhaustive", tuple(findings), note=f"{fired} operations ran")
