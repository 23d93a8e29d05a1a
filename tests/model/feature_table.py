"""The shared shape of the per-feature test modules (issue 47): a feature is a public mutant (a faulty draft)
that breaks one rule; its tables say which ruling catches it and which engines find it. A module builds its
tests from its rows: ``test_rulings = ruling_test(RULINGS)`` and so on (tests/model is on ``sys.path``: pytest's
default "prepend" import mode puts the folder of a test module without ``__init__.py`` there)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from ruleproof.generators.mutants import mutant_yaml
from ruleproof.model.conformance import conformance
from ruleproof.model.explore import Bounds, explore
from ruleproof.model.rulebook import Rulebook, load_rulebook_text
from ruleproof.model.scenario import load_rulings, run_scenario
from ruleproof.properties.catalogue import BY_ID, View
from ruleproof.properties.prove import prove_one

RULINGS_DIR = Path(__file__).resolve().parents[2] / "rulings"
ENGINES = ("explore", "z3", "hypothesis")
BUNDLED = "bundled"  # in an agreement table: the bundled rulebook, not a mutant


@functools.cache
def load_mutant(mutant: str) -> Rulebook:
    """A public mutant, loaded once per test process (they were module-scoped fixtures)."""
    return load_rulebook_text(mutant_yaml(mutant), f"{mutant}.yaml")


def ruling(file: str) -> list:
    """The rulings (one per case) of a file under rulings/."""
    return load_rulings(RULINGS_DIR / file)


@dataclass(frozen=True)
class Ruling:
    """A ruling file against a mutant: every case passes on the bundled rulebook, case ``case`` fails on the
    mutant, naming ``fails``; the cases in ``also_pass`` pass on the mutant too. ``pid`` holds on every
    bundled trace and is violated (its Russian text saying ``says``) on the mutant's. ``probe`` reads the
    played case's result; ``expect`` is its value on (the bundled rulebook, the mutant)."""

    file: str
    mutant: str
    case: int = 0
    fails: tuple[str, ...] = ()
    also_pass: tuple[int, ...] = ()
    pid: str | None = None
    says: str = ""
    probe: Callable[[Any], object] | None = None
    expect: tuple[object, object] = (None, None)

    def __str__(self) -> str:
        return f"{Path(self.file).stem}#{self.case}-vs-{self.mutant}"


@dataclass(frozen=True)
class Fault:
    """A mutant breaking ``pid``: every engine in ``kills`` finds the fault, every one in ``holds`` says the
    property holds on the bundled rulebook (leave one out where another row checks the same). ``worlds``
    (of the rulebook searched) and ``bounds`` are the exhaustive pass's; ``found[engine]`` reads the fault
    found — explore's counterexample, Z3's counterexample world, Hypothesis's finding."""

    mutant: str
    pid: str
    worlds: Callable[[Rulebook], list] | None = None
    bounds: Bounds = field(default_factory=Bounds)
    kills: tuple[str, ...] = ENGINES
    holds: tuple[str, ...] = ENGINES
    found: Mapping[str, Callable[[Any], bool]] = field(default_factory=dict)
    #: the engines whose kill takes over 30 s of CPU (marked slow: tests/cpu_budget.py)
    slow: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        assert set(self.kills) | set(self.holds) | set(self.found) <= set(ENGINES), self
        assert self.worlds is not None or "explore" not in self.kills + self.holds, self


def check_ruling(row: Ruling, bundled: Rulebook) -> None:
    cases = ruling(row.file)
    results = [run_scenario(sc, bundled) for sc in cases]
    for i, res in enumerate(results):
        assert res.passed, (i, [f.text() for f in res.failures])
        if row.pid:
            assert BY_ID[row.pid].check(View(res.trace.events)) is None, (i, row.pid)
    good = results[row.case]
    bad = run_scenario(cases[row.case], load_mutant(row.mutant))
    named = [f.what for f in bad.failures]
    assert not bad.passed and set(row.fails) <= set(named), named
    for i in row.also_pass:
        assert run_scenario(cases[i], load_mutant(row.mutant)).passed, i
    if row.pid:
        violation = BY_ID[row.pid].check(View(bad.trace.events))
        assert violation is not None and row.says in violation.ru, violation
    if row.probe:
        got = (row.probe(good), row.probe(bad))
        assert got == row.expect, f"(bundled, mutant): {got!r} != {row.expect!r}"


def _explore(row: Fault, rb: Rulebook):
    assert row.worlds is not None
    worlds = row.worlds(rb)
    assert worlds, "no world to search"
    return explore(rb, worlds, row.bounds, only=frozenset({row.pid}))


def check_kill(row: Fault, engine: str) -> None:
    rb = load_mutant(row.mutant)
    if engine == "explore":
        out = _explore(row, rb)
        assert row.pid in out.violations, sorted(out.violations)
        found: Any = out.violations[row.pid]
    elif engine == "z3":
        v = prove_one(rb, row.pid, timeout_ms=60_000, vacuity=False)
        assert v.verdict == "violated" and v.counterexample.reproduced, (v.verdict, v.reason)
        found = v.counterexample.world
    else:
        from ruleproof.generators.run import hypothesis_pass  # imports Hypothesis: only where it runs

        [res] = hypothesis_pass(rb, examples=200, cache_dir=None, shrinks=30, only=frozenset({row.pid})).results
        assert not res.holds, res.verdict
        [found] = res.findings
        assert found.verdict == "violated", found.verdict  # not "not exercised"
        assert found.engine == "hypothesis" and found.replay.startswith("ruleproof check") and found.trace, found
    if engine in row.found:
        assert row.found[engine](found), f"not the fault expected: {found!r:.300}"


def check_holds(row: Fault, engine: str, bundled: Rulebook) -> None:
    if engine == "explore":
        out = _explore(row, bundled)
        assert not out.violations and out.exercised[row.pid] > 0, (sorted(out.violations), out.exercised)
    elif engine == "z3":
        v = prove_one(bundled, row.pid, timeout_ms=60_000)
        assert v.verdict == "proved", (v.verdict, v.reason)
    else:
        from ruleproof.generators.run import hypothesis_pass

        [res] = hypothesis_pass(bundled, examples=200, cache_dir=None, only=frozenset({row.pid})).results
        assert res.holds and res.verdict == "holds", res.verdict  # not "not exercised"


def check_agree(name: str, bundled: Rulebook) -> None:
    out = conformance(bundled if name == BUNDLED else load_mutant(name), runs=40, seed=3)
    assert out.ok, out.disagreement and out.disagreement.text()


def ruling_test(rows: tuple[Ruling, ...]):
    @pytest.mark.parametrize("row", rows, ids=str)
    def test(row: Ruling, bundled) -> None:
        """The ruling passes on the bundled rulebook and catches the mutant."""
        check_ruling(row, bundled)

    return test


def kill_test(rows: tuple[Fault, ...]):
    cases = [pytest.param(row, e, id=f"{e}:{row.mutant}", marks=pytest.mark.slow if e in row.slow else ())
             for row in rows for e in row.kills]

    @pytest.mark.parametrize("row,engine", cases)
    def test(row: Fault, engine: str) -> None:
        """The engine finds the mutant's fault."""
        check_kill(row, engine)

    return test


def holds_test(rows: tuple[Fault, ...]):
    cases = [pytest.param(row, e, id=f"{e}:{row.pid}" + (f"@{row.mutant}" if e == "explore" else ""))
             for row in rows for e in row.holds]

    @pytest.mark.parametrize("row,engine", cases)
    def test(row: Fault, engine: str, bundled) -> None:
        """The property holds on the bundled rulebook (explore: in the row's worlds, its premise played)."""
        check_holds(row, engine, bundled)

    return test


def agree_test(names: tuple[str, ...]):
    @pytest.mark.parametrize("name", names)
    def test(name: str, bundled) -> None:
        """The interpreter and Z3 agree on the rulebook (BUNDLED, or a mutant)."""
        check_agree(name, bundled)

    return test
