"""P540.1.2-assault-closes: a card with «Закрывается после [текст] нападения» pays its closing for its own attack
(an assault in any reading of the word), unless another 540.1 text of the card spares it."""

from __future__ import annotations

from pathlib import Path

from ruleproof.model.scenario import load_scenario, run_scenario
from ruleproof.properties.catalogue import check_all

RULING = Path(__file__).resolve().parents[2] / "rulings" / "540-closes-after-assault.yaml"
PID = "P540.1.2-assault-closes"


def _violated(path, rb) -> list[str]:
    out = run_scenario(load_scenario(path), rb)
    return [p.id for part in out.parts for p, _ in check_all(part.events)]


def test_the_ruling_pays_the_closing_and_keeps_the_property(bundled):
    assert PID not in _violated(RULING, bundled)


def test_another_text_that_spares_the_closing_is_no_false_alarm(bundled, edited_copy):
    """«Не закрывается после атаки» beside «Закрывается только после нападения»: the closing is spared by the
    other text (the ruling's expectations aside), and the property does not claim it was due."""
    def two_texts(d):
        d["cards"]["raider"]["features"].append({"id": "raider_open", "kind": "resource_modifier",
                                                 "form": "stays_open", "resources": ["close"]})

    assert PID not in _violated(edited_copy(RULING, two_texts), bundled)


def test_a_table_that_leaves_the_attack_out_breaks_it(bundled, write_rulebook):
    from ruleproof.model.rulebook import load_rulebook

    rb = load_rulebook(write_rulebook(lambda d: d["tables"]["assault_strikes"]["rows"].update(closes_after=[])))
    assert PID in _violated(RULING, rb)
