"""Accompanying features tied to a die value («если на кубике выпало …», 512.6.2/b2): offered only on the
die's last value, once it is fixed; the property that says so fails on a draft that fixes the die before
the reroll window, in every engine."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ruleproof.cli import main
from ruleproof.generators.bounded import bounded_worlds
from ruleproof.generators.mutants import mutant_yaml
from ruleproof.model.explore import Bounds, explore
from ruleproof.model.features import Effect, Feature
from ruleproof.model.interpreter import ScriptedChoices, run
from ruleproof.model.rulebook import load_rulebook_text
from ruleproof.model.scenario import load_rulings, run_scenario
from ruleproof.model.state import evolve
from ruleproof.properties.catalogue import BY_ID, View
from ruleproof.properties.prove import prove_one

ROOT = Path(__file__).resolve().parents[2]
RULING = ROOT / "rulings" / "512-die-value.yaml"
PID = "P512.6.2-die-value"


@pytest.fixture(scope="module")
def early():
    """The faulty draft: the raw die is fixed before the reroll window."""
    return load_rulebook_text(mutant_yaml("raw-die-before-reroll"), "raw-die-before-reroll.yaml")


def test_the_feature_fires_on_the_last_value_only(bundled, early):
    stays, rerolled, into = load_rulings(RULING)
    assert all(run_scenario(sc, bundled).passed for sc in (stays, rerolled, into))
    # on the faulty draft the 6 that was rerolled away still fires the feature
    res = run_scenario(rerolled, early)
    assert "response lucky_six" in [f.what for f in res.failures]
    assert BY_ID[PID].check(View(res.trace.events)) is not None
    assert BY_ID[PID].check(View(run_scenario(rerolled, bundled).trace.events)) is None


def test_a_value_it_does_not_name_is_never_offered(bundled):
    stays = load_rulings(RULING)[0]
    state = stays.initial_state()
    card = state.card("dicer")
    other = Feature("lucky_five", "die_trigger", on_die=(5,), effects=(Effect("heal", "self", 1),))
    state = state.with_card(evolve(card, features=(*card.features, other)))
    choices = ScriptedChoices([6], [("dice_modifiers", "A", "lucky_five")])
    trace = run(bundled, state, choices)
    assert trace.outcome == "completed" and [u[2] for u in choices.left_over()] == ["lucky_five"]


def test_each_engine_finds_the_fault_and_proves_the_rule(bundled, early):
    worlds = bounded_worlds(0, ("dice",))
    small = Bounds(x_max=0, die=(1, 2))
    good = explore(bundled, worlds, small, only=frozenset({PID}))
    assert not good.violations and good.exercised[PID] > 0  # played, never violated
    bad = explore(early, worlds, small, only=frozenset({PID}))
    assert PID in bad.violations
    assert prove_one(bundled, PID, timeout_ms=60_000).verdict == "proved"
    v = prove_one(early, PID, timeout_ms=60_000, vacuity=False)
    assert v.verdict == "violated" and v.counterexample.reproduced


@pytest.mark.parametrize("values", [[], [0], [16]])
def test_a_feature_with_no_die_value_is_a_load_error(tmp_path, capsys, values):
    data = yaml.safe_load(RULING.read_text("utf-8"))
    data["cards"]["dicer"]["features"][1]["on_die"] = values
    p = tmp_path / "bad.yaml"
    p.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    assert main(["--lang", "en", "run", str(p)]) == 2
    err = capsys.readouterr().err
    assert "error RP150" in err and "on_die" in err and "Traceback" not in err
    line = next(i for i, t in enumerate(p.read_text("utf-8").splitlines(), 1) if t.strip().startswith("on_die"))
    assert f"{p}:{line}:" in err


def test_on_die_is_refused_on_another_kind(tmp_path, capsys):
    data = yaml.safe_load(RULING.read_text("utf-8"))
    data["cards"]["dicer"]["features"][0]["on_die"] = [6]  # on the reroll
    p = tmp_path / "bad.yaml"
    p.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    assert main(["--lang", "en", "run", str(p)]) == 2
    assert "error RP164" in capsys.readouterr().err
