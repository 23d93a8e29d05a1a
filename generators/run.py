"""Run the property catalogue under Hypothesis on a rulebook and turn the outcome into check results.

One Hypothesis test (:mod:`.machine`: every example a whole game action) checks every property; when one is violated, its shrunk counterexample is
kept and the run is repeated without it, until the rest hold.  Deterministic by default (seed 0);
``seed`` makes a different but reproducible run.  Failing examples are saved in a
Hypothesis database under the cache folder, so a re-run replays them first.  Under ``CI=true`` the
``ci`` profile is loaded: no database is read or written, and the same seed plays the same games as on
a judge's machine (a CI run that drew other games than the user's would pass or fail on its own).
"""

from __future__ import annotations

import contextlib
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from hypothesis import HealthCheck, seed as hyp_seed, settings
from hypothesis.database import DirectoryBasedExampleDatabase
from hypothesis.reporting import with_reporter

from ruleproof.model.rulebook import Rulebook
from ruleproof.model.universe import Scope, admitted
from ruleproof.properties.catalogue import PROPERTIES, not_exercised
from ruleproof.reports.finding import CheckResult, Finding, Verdict
from ruleproof.reports.trace import trace_to_json

from .bounded import ALLIES, LOADOUTS, bounded_worlds, two_plays_worlds
from .machine import PropertyViolated, games_test

__all__ = ["HypothesisOutcome", "hypothesis_pass", "load_profile", "CACHE_DIR"]

CACHE_DIR = Path(".ruleproof-cache")
DEFAULT_SEED = 0

settings.register_profile("ruleproof", deadline=None, derandomize=False, print_blob=False, suppress_health_check=list(HealthCheck))
settings.register_profile("ci", deadline=None, derandomize=False, database=None, print_blob=False,
                          suppress_health_check=list(HealthCheck))


def load_profile() -> str:
    """``ci`` under CI=true (no database), else ``ruleproof``."""
    name = "ci" if os.environ.get("CI", "").lower() in ("1", "true", "yes") else "ruleproof"
    settings.load_profile(name)
    return name


@contextlib.contextmanager
def _shrink_budget(shrinks: int, seconds: int = 120) -> Iterator[None]:
    """Bound the shrinking of one failure by a number of successful shrinks — a count, so the result
    stays reproducible — with a time cap as a safety net (Hypothesis's own bounds: 500 and 300 s)."""
    from hypothesis.internal.conjecture import engine  # hypothesis is slow to import: only when it is used

    saved = {name: getattr(engine, name) for name in ("MAX_SHRINKS", "MAX_SHRINKING_SECONDS") if hasattr(engine, name)}
    engine.MAX_SHRINKS, engine.MAX_SHRINKING_SECONDS = shrinks, seconds
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(engine, name, value)


def reaching(rb: Rulebook, family: tuple, missing: frozenset, seed: int, tries: int = 3) -> tuple:
    """The worlds of ``family`` (groups of bounded worlds) in which one of ``tries`` seeded random plays
    reaches the situation of some property of ``missing``, as one group (``family`` itself if none
    does): the rounds for situations never played draw from them."""
    from ruleproof.model.interpreter import RandomChoices, run  # looked up when called: a test replaces it
    from ruleproof.properties.catalogue import BY_ID, exercised, tracker  # read when called (a test plants properties)

    props = [BY_ID[pid] for pid in sorted(missing)]
    out = []
    for group in family:
        for world in group:
            for k in range(tries):
                trace = run(rb, world, RandomChoices(seed=seed * 101 + k, play=0.7))
                t = tracker(props, world)
                if exercised(props, t.feed(t.start(), trace.events)):
                    out.append(world)
                    break
    return (tuple(out),) if out else family


@dataclass
class HypothesisOutcome:
    results: list[CheckResult]
    examples: int
    seed: int | None
    seconds: float
    first_failure_seconds: float | None = None
    violations: dict[str, PropertyViolated] = field(default_factory=dict)
    scope: Scope | None = None  # what the runs played of the combinations the rulebook admits


def hypothesis_pass(rb: Rulebook, examples: int = 200, seed: int | None = None, rulebook_arg: str | None = None,
                    cache_dir: Path | None = CACHE_DIR, shrinks: int = 100,
                    progress: Callable[[str], None] | None = None,
                    only: frozenset[str] | None = None) -> HypothesisOutcome:
    """Check the properties on ``examples`` generated worlds and plays of ``rb``."""
    if seed is None:
        seed = DEFAULT_SEED  # deterministic by default (under CI too), and still able to keep failures in the database
    base = _base_settings(examples, cache_dir)
    found: dict[str, PropertyViolated] = {}
    exercised: Counter = Counter()  # property -> finished runs that played its premise ("": all finished runs)
    started = time.perf_counter()
    first: float | None = None
    wanted = [p for p in PROPERTIES if only is None or p.id in only]
    extra = 0
    combos_played: set = set()
    every = admitted(rb)
    for world_family, n, phase_seed, top_up, aimed in _rounds(examples, seed, _family(rb)):
        checked = only
        aims = tuple(sorted(every - combos_played)) if aimed else ()
        if aimed and (not aims or n < 1):
            continue
        if top_up is not None:
            missing = _unplayed(wanted, found, exercised)
            if not missing:
                break
            checked, extra = missing, extra + n
            if world_family:
                world_family = reaching(rb, world_family, missing, phase_seed)
        phase = settings(base, max_examples=max(n, 1))
        if top_up:
            phase = settings(phase, derandomize=False)

        def make_test(checked=checked, world_family=world_family, eager=top_up is not None or bool(aims), aims=aims):
            return games_test(rb, only=checked, skip=frozenset(found), exercised=exercised, family=world_family,
                              eager=eager, aims=aims, combos_played=combos_played)

        told = (lambda: progress(f"{len(wanted) - len(found)} properties, {examples + extra} examples")) if progress else None
        when = _play(make_test, phase, phase_seed, found, len(wanted), shrinks, told)
        if first is None and when is not None:
            first = when - started
    elapsed = time.perf_counter() - started
    results = _results(rb, wanted, found, exercised, examples, extra, _replay(rulebook_arg, examples, seed))
    return HypothesisOutcome(results, examples, seed, elapsed, first, found, Scope.of(every, combos_played))


def _replay(rulebook_arg: str | None, examples: int, seed: int | None) -> str:
    return "ruleproof check" + (f" {rulebook_arg}" if rulebook_arg else "") + f" --engines hypothesis --examples {examples}" + (
        f" --seed {seed}" if seed is not None else "")


def _unplayed(wanted: list, found: dict, exercised: Counter) -> frozenset[str]:
    """The properties not broken whose situation no run has played yet."""
    return frozenset(p.id for p in wanted if p.id not in found and not exercised[p.id])


def _play(make_test, phase: settings, phase_seed: int | None, found: dict, wanted: int, shrinks: int,
          told: Callable[[], None] | None) -> float | None:
    """One round: the test run again after each violation (the property it broke left out) until a run finds
    none or every property is broken; returns when the first violation of the round was found (None: none)."""
    first = None
    while len(found) < wanted:
        test = phase(make_test())
        if phase_seed is not None:
            test = hyp_seed(phase_seed)(test)
        if told:
            told()
        try:
            with _shrink_budget(shrinks), with_reporter(lambda _msg: None):
                test()
            break
        except PropertyViolated as exc:
            found[exc.prop.id] = exc
            first = first if first is not None else time.perf_counter()
    return first


def _base_settings(examples: int, cache_dir: Path | None) -> settings:
    """The profile's settings with ``examples``; outside CI, a database of failures under ``cache_dir``."""
    profile = load_profile()
    database = None
    if profile != "ci" and cache_dir is not None:
        database = DirectoryBasedExampleDatabase(str(Path(cache_dir) / "hypothesis"))
    base = settings(settings.get_profile(profile), max_examples=examples)
    return settings(base, database=database) if profile != "ci" else base


def _family(rb: Rulebook) -> tuple:
    """The bounded worlds' states grouped by loadout."""
    # two phases, half the examples each: worlds drawn for the rulebook, then the bounded worlds (their
    # loadouts put each feature kind before the window that admits it; Hypothesis draws the plays)
    groups: dict[str, list] = {}
    # by loadout (the last part of the name; none: no suffix); a draft that reads plays_at_least adds its
    # two-, three- or four-rerolls worlds as a group of their own
    for w in bounded_worlds(x_max=1) + two_plays_worlds(rb):
        last = w.name.rsplit("/", 1)[-1]
        mine = last in LOADOUTS or last in ALLIES or last.endswith("-rerolls")
        groups.setdefault(last if mine else "none", []).append(w.state)
    return tuple(tuple(ws) for ws in groups.values())


def _rounds(examples: int, seed: int, family: tuple) -> list[tuple]:
    """(worlds: a family or () for drawn ones, examples, seed, top-up round number or None, aimed) per round."""
    # then, only while some property's situation was never played: up to four more rounds of half the
    # examples — the bounded worlds in which a random play reaches such a situation, then worlds drawn
    # for the rulebook, twice — each with a seed of its own (a rare situation, such as a defender's
    # trigger after its return strike, is seldom drawn by chance)
    # the drawn worlds come in two rounds: a quarter of the examples as drawn, then a quarter aimed at the
    # combinations of the universe (model/universe.py) the runs so far have not played — the way a
    # coverage-guided fuzzer schedules its inputs (the last field: an aimed round)
    first = examples - examples // 2
    rounds = [((), first - first // 2, seed, None, False), ((), first // 2, seed, None, True),
              (family, examples // 2, seed, None, False),
              *(((family, ())[(k - 1) % 2], examples // 2, (seed or 0) + k, k, False) for k in range(1, 5))]
    return rounds


def _results(rb: Rulebook, wanted: list, found: dict, exercised: Counter, examples: int, extra: int,
             replay: str) -> list[CheckResult]:
    """A result per property: violated (with its game), not exercised (no run played its situation), or holds."""
    results = []
    for p in wanted:
        exc = found.get(p.id)
        findings: tuple[Finding, ...] = ()
        if exc is not None:
            findings = (Finding(kind="property", check=p.id, verdict=Verdict.VIOLATED, engine="hypothesis",
                                clauses=p.clauses, message={"ru": exc.violation.ru, "en": exc.violation.en},
                                element=f"events {', '.join(f'#{n}' for n in exc.violation.events)}",
                                where=rb.path, replay=replay, trace=tuple(trace_to_json(exc.events)),
                                highlight=exc.violation.events),)
        elif not exercised[p.id]:  # no run played the situation: inconclusive, never "holds"
            findings = (not_exercised(p, "hypothesis", exercised[""], {
                "en": f"--examples above {examples}, or --seed", "ru": f"--examples больше {examples} или --seed"}),)
        results.append(CheckResult(p.id, p.clauses, {"ru": p.ru, "en": p.en}, "hypothesis", findings,
                                   note=f"{examples} examples; premise in {exercised[p.id]} of {exercised['']} runs"
                                   + (f"; {extra} more examples drawn for situations not yet played" if extra else "")))
    return results
