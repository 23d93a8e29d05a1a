"""542.3 «не проверяется»: once declared, the number of targets is not checked again. The guard
``target_gone`` lets a draft read whether a target left the active zone; P542.3-targets-unchecked
fails, in every engine, on the public mutant that ends the action for it (``targets-rechecked``), and
holds on the bundled rulebook, which writes no edge on it."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleproof.generators.bounded import bounded_worlds
from ruleproof.generators.mutants import mutant_yaml
from ruleproof.model.conformance import conformance
from ruleproof.model.explore import Bounds, explore
from ruleproof.model.menu import OPT_INDEX, menu_world, world_of, world_state
from ruleproof.model.rulebook import load_rulebook_text
from ruleproof.model.scenario import load_rulings, run_scenario
from ruleproof.properties.prove import prove_one

ROOT = Path(__file__).resolve().parents[2]
RULING = ROOT / "rulings" / "542-target-left.yaml"
PID = "P542.3-targets-unchecked"


@pytest.fixture(scope="module")
def rechecked():
    """The faulty draft: an action whose target left goes from calculation to completion."""
    return load_rulebook_text(mutant_yaml("targets-rechecked"), "targets-rechecked.yaml")


def test_the_effect_is_applied_though_a_target_left(bundled, rechecked):
    sc, = load_rulings(RULING)
    res = run_scenario(sc, bundled)
    assert res.passed, [f.text() for f in res.failures]
    assert not res.trace.final.card("goblin").in_active_zone and res.trace.final.card("orc").wounds == 1
    bad = run_scenario(sc, rechecked)
    assert not bad.passed and bad.trace.final.card("orc").wounds == 0
    assert {"visited", "action.effect_applied"} <= {f.what for f in bad.failures}


def test_the_menu_world_round_trips_a_fleeing_target():
    v = menu_world(lambda d: d[0], lambda: False)
    v = {**v, **{k: 0 for k in v if k.startswith("w_holds")}, f"w_holds{OPT_INDEX['b_flee']}": 1}
    state = world_state(v)
    assert [f.id for f in state.card("tgt").features] == ["b_flee"]
    assert world_of(state)[f"w_holds{OPT_INDEX['b_flee']}"] == 1


def test_explore_plays_the_target_leaving_and_finds_the_fault(bundled, rechecked):
    worlds = [w for w in bounded_worlds(0, ("calculation",)) if w.name == "spell/calculation"]
    assert worlds
    small = Bounds(x_max=0, die=(2, 2))
    good = explore(bundled, worlds, small, only=frozenset({PID}))
    assert not good.violations and good.exercised[PID] > 0
    assert PID in explore(rechecked, worlds, small, only=frozenset({PID})).violations


def test_z3_proves_it_and_refutes_the_draft(bundled, rechecked):
    assert prove_one(bundled, PID, timeout_ms=60_000).verdict == "proved"
    v = prove_one(rechecked, PID, timeout_ms=60_000, vacuity=False)
    assert v.verdict == "violated" and v.counterexample.reproduced
    assert "b_flee" in {f.id for f in v.counterexample.world.card("tgt").features}


def test_hypothesis_finds_the_fault_and_plays_the_premise(bundled, rechecked):
    from ruleproof.generators.run import hypothesis_pass

    [bad] = hypothesis_pass(rechecked, examples=200, cache_dir=None, shrinks=30, only=frozenset({PID})).results
    assert not bad.holds and bad.findings[0].engine == "hypothesis"
    [good] = hypothesis_pass(bundled, examples=200, cache_dir=None, only=frozenset({PID})).results
    assert good.verdict == "holds"  # not "not exercised": a drawn target leaves now and then


def test_interpreter_and_z3_agree_on_the_guard(rechecked):
    out = conformance(rechecked, runs=40, seed=3)
    assert out.ok, out.disagreement
