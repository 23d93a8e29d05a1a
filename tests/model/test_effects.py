"""The sudden changes of the board a feature's text may make (close, lose a resource, lose action markers),
and 540.3.1's last sentence: a card that lost its action marker may act that way again (510.4)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ruleproof.cli import main
from ruleproof.generators.mutants import mutant_yaml
from ruleproof.model.features import Effect, Feature
from ruleproof.model.interpreter import ScriptedChoices, run
from ruleproof.model.menu import action, card
from ruleproof.model.rulebook import load_rulebook_text
from ruleproof.model.scenario import load_rulings, run_scenario
from ruleproof.model.state import State

ROOT = Path(__file__).resolve().parents[2]
LOST = ROOT / "rulings" / "540-per-turn-lost-marker.yaml"


@pytest.mark.parametrize("effect,check", [
    (Effect("close", "source"), lambda c: c.closed),
    (Effect("lose_resource", "source", 2, "crystal"), lambda c: c.resource("crystal") == 1),
    (Effect("lose_markers", "source", 1), lambda c: c.action_markers == 0),
])
def test_a_sudden_action_changes_the_board_during_execution(bundled, effect, check):
    trick = Feature("b_trick", "sudden_action", effects=(effect,))
    src = card("src", markers=1, crystals=3)
    state = State(cards=(src, card("tgt", (trick,))), action=action("spell"))
    trace = run(bundled, state, ScriptedChoices([4], [("calculation", "B", "b_trick")]))
    played = next(e for e in trace.events if e.op == "play")
    after = next(e for e in trace.events if e.seq == played.seq + 1).state.card("src")
    assert check(after), after


def test_the_card_that_lost_its_marker_stays_open_again(bundled):
    lost, kept = load_rulings(LOST)
    a, b = run_scenario(lost, bundled), run_scenario(kept, bundled)
    assert a.passed and b.passed
    assert not a.trace.final.card("twinblade").closed and b.trace.final.card("twinblade").closed
    early = load_rulebook_text(mutant_yaml("marker-before-payment"), "marker-before-payment.yaml")
    assert not run_scenario(lost, early).passed


def test_lose_resource_names_the_resource(tmp_path, capsys):
    data = yaml.safe_load(LOST.read_text("utf-8"))
    data["cards"]["bearer"]["features"][0]["effects"] = [{"do": "lose_resource", "card": "twinblade", "amount": 1}]
    p = tmp_path / "bad.yaml"
    p.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    assert main(["--lang", "en", "run", str(p)]) == 2
    err = capsys.readouterr().err
    assert "error RP150" in err and "needs a prop" in err and "Traceback" not in err
