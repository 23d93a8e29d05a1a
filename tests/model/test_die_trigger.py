"""Accompanying features tied to a die value («если на кубике выпало …», 512.6.2/b2): offered only on the
die's last value, once it is fixed; the property that says so fails on a draft that fixes the die before
the reroll window, in every engine."""

from __future__ import annotations

import pytest
import yaml
from feature_table import RULINGS_DIR, Fault, Ruling, holds_test, kill_test, ruling, ruling_test

from ruleproof.cli import main
from ruleproof.generators.bounded import bounded_worlds
from ruleproof.model.explore import Bounds
from ruleproof.model.features import Effect, Feature
from ruleproof.model.interpreter import ScriptedChoices, run
from ruleproof.model.state import evolve

RULING = "512-die-value.yaml"
PID = "P512.6.2-die-value"
EARLY = "raw-die-before-reroll"  # the faulty draft: the raw die is fixed before the reroll window

RULINGS = (
    # the feature fires on the last value only; on the draft the 6 that was rerolled away still fires it
    Ruling(RULING, EARLY, case=1, fails=("response lucky_six",), pid=PID),
)
FAULTS = (
    Fault(EARLY, PID, lambda rb: bounded_worlds(0, ("dice",)), Bounds(x_max=0, die=(1, 2)),
          kills=("explore", "z3"), holds=("explore", "z3")),
)

test_rulings = ruling_test(RULINGS)
test_engines_find_the_fault = kill_test(FAULTS)
test_the_bundled_rulebook_holds = holds_test(FAULTS)


def test_a_value_it_does_not_name_is_never_offered(bundled):
    stays = ruling(RULING)[0]
    state = stays.initial_state()
    card = state.card("dicer")
    other = Feature("lucky_five", "die_trigger", on_die=(5,), effects=(Effect("heal", "self", 1),))
    state = state.with_card(evolve(card, features=(*card.features, other)))
    choices = ScriptedChoices([6], [("dice_modifiers", "A", "lucky_five")])
    trace = run(bundled, state, choices)
    assert trace.outcome == "completed" and [u[2] for u in choices.left_over()] == ["lucky_five"]


@pytest.mark.parametrize("values", [[], [0], [16]])
def test_a_feature_with_no_die_value_is_a_load_error(tmp_path, capsys, values):
    data = yaml.safe_load((RULINGS_DIR / RULING).read_text("utf-8"))
    data["cards"]["dicer"]["features"][1]["on_die"] = values
    p = tmp_path / "bad.yaml"
    p.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    assert main(["--lang", "en", "run", str(p)]) == 2
    err = capsys.readouterr().err
    assert "error RP150" in err and "on_die" in err and "Traceback" not in err
    line = next(i for i, t in enumerate(p.read_text("utf-8").splitlines(), 1) if t.strip().startswith("on_die"))
    assert f"{p}:{line}:" in err


def test_on_die_is_refused_on_another_kind(tmp_path, capsys):
    data = yaml.safe_load((RULINGS_DIR / RULING).read_text("utf-8"))
    data["cards"]["dicer"]["features"][0]["on_die"] = [6]  # on the reroll
    p = tmp_path / "bad.yaml"
    p.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    assert main(["--lang", "en", "run", str(p)]) == 2
    assert "error RP164" in capsys.readouterr().err
