"""Ruling scenarios: a world, the action declared, scripted dice and responses, the expected outcome.

A scenario file (YAML)::

    format: ruleproof-scenario/1
    id: kele-attacker
    title: {ru: …, en: …}
    source: "РП 4.1-2 от 09.11.2024, пример к 540.4.1"   # where the ruling comes from
    clauses: ["540.4.1/ex1", "540.3"]                      # what it is a ruling on
    assumptions: [A-strike-table]                           # rulebook assumptions the outcome rests on
    cards:
      kele:
        name: Келе
        controller: A                                       # A is the active player
        printed: {health: 5, strike_weak: 1, strike_medium: 2, strike_strong: 3}
        wounds: 1
        resources: {close: 1}
        features:
          - {id: kele_heal, kind: effect_trigger, trigger: strike,
             effects: [{do: heal, card: self, amount: 2}], then_if_healthy: [close]}
    action:
      feature: kele_strike
      kind: simple_strike                                   # simple_strike | attack | spell | effect
      source: kele
      targets: [goblin]
      cost: [{card: kele, resource: close, amount: 1}]      # amount: a number or an X name
    dice: [3]
    responses:
      - {window: effect_triggers, player: A, play: kele_heal}
    expect:
      outcome: completed
      cards: {kele: {closed: false, action_markers: 1, can_move: false}}
      action: {status: hit}
      x: {X: {value: 2, fixed_at: declaration, fixes: 1}}
      events: [{op: pay_reserved, unpaid: [[kele, close, kele_heal]]}]
      no_events: [{op: check_source_legality, step: blocking}]
      unused: []                    # scripted plays the rules must not offer (e.g. a widened window)
      properties: [P540.3-action-marker]   # catalogue properties that must hold on the run's trace
    provenance: {engine: hypothesis, …}    # where a saved counterexample came from (free-form, optional)

``events``/``no_events`` match an event by ``op``, ``step`` and any of its values.  A scripted
response that the rules never offer fails the scenario, unless it is listed under ``unused``.
``properties`` checks the named properties of ``properties/catalogue.py`` on the whole trace (as
complete when the outcome is ``completed``); a violation fails the scenario with the property's
clauses and the offending events — the expectation of a counterexample saved as a ruling
(``model/scenario_write.py``).

The package: the format (:mod:`.spec`), loading (:mod:`.load`) and its checks (:mod:`.check`), running
(:mod:`.run`) and comparing with what a ruling expects (:mod:`.expect`).
"""

from .expect import Failure, ScenarioResult
from .load import (
                   Scenario,
                   load_rulings,
                   load_scenario,
                   ruling_citations,
                   ruling_files,
                   shipped_rulings,
                   shipped_scenarios,
)
from .run import check_assumptions, check_windows, run_scenario, window_ids
from .spec import FORMAT, ScenarioSpec

__all__ = ["ScenarioSpec", "Scenario", "ScenarioResult", "Failure", "load_scenario", "load_rulings", "run_scenario",
           "FORMAT", "shipped_rulings", "shipped_scenarios", "ruling_citations", "ruling_files", "check_assumptions",
           "check_windows", "window_ids"]
