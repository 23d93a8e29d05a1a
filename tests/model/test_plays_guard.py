"""512.6.2/b2: several features may be played in one priority window («после разрешения всех таких
особенностей»). The guard ``plays_at_least(N)`` lets a draft turn its steps on how many the last window
opened played; P512.6-may-declare fails, in every engine, on the public mutant that skips the
dice-modifier window after two rerolls (``two-rerolls-no-dice-modifiers``), and holds on the bundled
rulebook, which reads no such guard."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleproof.generators.bounded import bounded_worlds, two_plays_worlds
from ruleproof.generators.mutants import mutant_yaml
from ruleproof.model.conformance import conformance
from ruleproof.model.explore import Bounds, explore
from ruleproof.model.rulebook import load_rulebook_text
from ruleproof.model.scenario import load_rulings, run_scenario
from ruleproof.model.vocabulary import parse_guard
from ruleproof.properties.prove import prove_one

ROOT = Path(__file__).resolve().parents[2]
RULING = ROOT / "rulings" / "512-two-rerolls.yaml"
PID = "P512.6-may-declare"


@pytest.fixture(scope="module")
def counting():
    """The faulty draft: the dice-modifier window opens only when the reroll window played fewer than two."""
    return load_rulebook_text(mutant_yaml("two-rerolls-no-dice-modifiers"), "two-rerolls-no-dice-modifiers.yaml")


def test_the_guard_reads_a_whole_number():
    g = parse_guard("not plays_at_least( 2 )")
    assert (g.negated, g.name, g.arg, str(g)) == (True, "plays_at_least", "2", "not plays_at_least(2)")
    assert parse_guard("plays_at_least") is None and parse_guard("plays_at_least(16)") is None


def test_the_interpreter_counts_plays_per_window(bundled):
    sc, = load_rulings(RULING)
    res = run_scenario(sc, bundled)
    assert res.passed, [f.text() for f in res.failures]
    at = {(e.op, e.values.get("id") or e.values.get("feature")): e.state.action.window_plays for e in res.trace.events
          if e.op in ("play", "window", "window_closed")}
    assert at[("play", "gnome_luck")] == 1 and at[("play", "goblin_hex")] == 2
    assert at[("window_closed", "reroll")] == 2
    assert at[("window", "dice_modifiers")] == 0 and at[("play", "gnome_aim")] == 1


def test_the_ruling_fails_on_the_draft(counting):
    sc, = load_rulings(RULING)
    bad = run_scenario(sc, counting)
    assert not bad.passed and bad.trace.final.action.die_final == 1
    assert "action.die_final" in {f.what for f in bad.failures}


def test_worlds_with_two_rerolls_only_for_a_draft_that_counts(bundled, counting):
    assert two_plays_worlds(bundled) == [] and two_plays_worlds(None) == []
    named = {w.name for w in bounded_worlds(1, ("dice",), counting)} - {w.name for w in bounded_worlds(1, ("dice",))}
    assert named == {"simple_strike/defender/two-rerolls", "attack/two-rerolls", "spell/two-rerolls"}
    assert {w.plays for w in two_plays_worlds(counting)} == {2}


def test_explore_plays_two_rerolls_and_finds_the_fault(bundled, counting):
    worlds = two_plays_worlds(counting)
    good = explore(bundled, worlds, Bounds(), only=frozenset({PID}))
    assert not good.violations and good.exercised[PID] > 0
    bad = explore(counting, worlds, Bounds(), only=frozenset({PID}))
    assert PID in bad.violations
    plays = [e for e in bad.violations[PID].events if e.op == "play" and e.values["window"] == "reroll"]
    assert len(plays) == 2  # the world's two plays per window, above the bounds' plays=1


def test_z3_refutes_the_draft(counting):
    v = prove_one(counting, PID, timeout_ms=60_000, vacuity=False)
    assert v.verdict == "violated" and v.counterexample.reproduced
    rerolls = [f for c in v.counterexample.world.cards for f in c.features if f.kind == "reroll"]
    assert len(rerolls) >= 2


def test_hypothesis_finds_the_fault(counting):
    from ruleproof.generators.run import hypothesis_pass

    [bad] = hypothesis_pass(counting, examples=200, cache_dir=None, shrinks=30, only=frozenset({PID})).results
    assert not bad.holds and bad.findings[0].engine == "hypothesis"


def test_interpreter_and_z3_agree_on_the_guard(counting):
    out = conformance(counting, runs=40, seed=3)
    assert out.ok, out.disagreement


def test_diff_finds_the_smallest_game_with_two_rerolls(bundled, counting):
    from ruleproof.model.rulebook_diff import smallest_difference

    found = smallest_difference(bundled, counting, bounded_worlds(1, ("dice",), counting), Bounds())
    assert found is not None and found.world.endswith("two-rerolls")
    assert sum(1 for a in found.answers if a in ("a_reroll", "b_reroll")) == 2


def test_explore_says_which_worlds_it_searched_with_two_plays(tmp_path, capsys):
    import json

    from ruleproof.cli import main
    from ruleproof.generators.mutants import write_mutant

    path = write_mutant("two-rerolls-no-dice-modifiers", tmp_path)
    rc = main(["--lang", "en", "explore", str(path), "--only", PID, "--bounds",
               "loadouts=dice", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert rc == 1 and doc["rulebook"]["worlds_more_plays"] == 3
    main(["--lang", "ru", "explore", str(path), "--only", PID, "--bounds", "loadouts=dice"])
    out = capsys.readouterr().out
    assert "из них с plays=2 (условие plays_at_least): 3" in out and "searched with" not in out


def test_a_draft_that_reads_three_plays_gets_three_per_window(bundled):
    """A draft that leaves out the calculation step after three plays in the dice-modifier window: its
    worlds are searched with three plays per window, and the fault is found."""
    import yaml

    from ruleproof.generators.mutants import bundled_data

    d = bundled_data()
    d["steps"]["dice"]["next"].insert(0, {"to": "completion", "when": "plays_at_least(3)", "cites": ["512.6.2"]})
    draft = load_rulebook_text(yaml.safe_dump(d, allow_unicode=True, sort_keys=False), "three-plays.yaml")
    worlds = two_plays_worlds(draft)
    assert {w.plays for w in worlds} == {3}
    assert "P512.6.1-steps-happen" in explore(draft, worlds, Bounds(), only=frozenset({"P512.6.1-steps-happen"})).violations
    assert not explore(bundled, worlds, Bounds(), only=frozenset({"P512.6.1-steps-happen"})).violations
