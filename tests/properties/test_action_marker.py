"""P540.3-action-marker reads the marker at the event that gives it: a card that loses an action marker
during its own resource-modified action (510.4, assumption A-lost-markers) and gets one at payment
ends with as many as it began with — it did get its marker (a comparison with the action's start
called that a violation: Hypothesis found it on the bundled rulebook)."""

from __future__ import annotations

import pytest

from ruleproof.generators.mutants import mutant_yaml
from ruleproof.model.rulebook import load_rulebook_text
from ruleproof.model.scenario import load_rulings, run_scenario
from ruleproof.properties.catalogue import check_all

SCENARIO = """\
format: ruleproof-scenario/1
id: marker-lost-midway
title: {ru: "Маркер снят во время действия", en: "A marker lost during the action"}
source: "РП 4.1-2, 540.3"
clauses: ["540.3"]
assumptions: [A-lost-markers]
cards:
  lancer:
    name: Копейщик
    controller: A
    printed: {health: 3, strike_weak: 1, strike_medium: 1, strike_strong: 2}
    action_markers: 1
    resources: {close: 1}
    features:
      - {id: lancer_open, kind: resource_modifier, form: stays_open, resources: [close],
         applies_to: [simple_strike, attack], text: "Не закрывается после атаки."}
      - {id: lancer_rest, kind: sudden_action, text: "Внезапно: снять с Копейщика маркер действия.",
         effects: [{do: lose_markers, card: self, amount: 1}]}
  wall:
    name: Стена
    controller: B
    printed: {health: 6}
action:
  feature: lancer_strike
  kind: simple_strike
  source: lancer
  targets: [wall]
  cost: [{card: lancer, resource: close, amount: "1"}]
dice: [2]
responses:
  - {window: calculation, player: A, play: lancer_rest}
expect:
  cards:
    lancer: {closed: false, action_markers: 1}
"""

PIDS = ("P540.3-action-marker", "P540.3-unless-text")


@pytest.fixture(scope="module")
def scenario(tmp_path_factory):
    path = tmp_path_factory.mktemp("marker") / "marker-lost-midway.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    sc, = load_rulings(path)
    return sc


def _markers(result) -> list[int]:
    return [e.state.card("lancer").action_markers for e in result.trace.events
            if e.op in ("play", "give_action_marker")]


def test_a_marker_lost_midway_and_given_at_payment_holds(bundled, scenario):
    res = run_scenario(scenario, bundled)
    assert res.passed, [f.text() for f in res.failures]
    assert _markers(res) == [0, 1]  # lost in the calculation window, given at payment
    assert [p.id for p, _ in check_all(res.trace.events) if p.id in PIDS] == []


def test_no_marker_at_all_is_still_caught(scenario):
    """M4 gives no marker: the same play is a violation of P540.3-action-marker."""
    m4 = load_rulebook_text(mutant_yaml("M4"), "M4.yaml")
    res = run_scenario(scenario, m4)
    assert _markers(res) == [0, 0]  # its give_action_marker gives none
    assert [p.id for p, _ in check_all(res.trace.events) if p.id in PIDS] == ["P540.3-action-marker"]
