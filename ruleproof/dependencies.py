"""What a verdict rests on: the readings of a rulebook (:mod:`ruleproof.model.readings`) under which a
ruling's outcome or a property's counterexample would be otherwise — ``check`` names them beside each
finding, ``diff`` and ``readings`` beside each change."""

from __future__ import annotations

from ruleproof.model.interpreter import ScriptedChoices, run
from ruleproof.model.readings import applicable, variant
from ruleproof.model.rulebook import Rulebook
from ruleproof.model.scenario import run_scenario
from ruleproof.model.scenario_write import choices_from_trace, world_from_trace
from ruleproof.properties import catalogue
from ruleproof.properties.monitor_run import View

__all__ = ["reading_labels", "counterexample_dependencies", "ruling_dependencies"]


def reading_labels(rb: Rulebook) -> dict[str, str]:
    """How a reading is named in a dependency list: "R-x (A-y)" (its assumption), or "R-x"."""
    return {r.id: f"{r.id} ({r.of})" if r.of else r.id for r in applicable(rb)}


def counterexample_dependencies(rb: Rulebook, counterexamples: dict[str, list]) -> dict[str, tuple[str, ...]]:
    """Per violated property (``counterexamples``: property id -> the events of the game that breaks
    it): the readings of ``rb`` under which the same game — the same world, dice and choices — no
    longer breaks it (the finding rests on the rulebook's own reading there)."""
    others = [(r.id, variant(rb, r.id)) for r in applicable(rb)]
    out = {}
    for pid, events in counterexamples.items():  # the catalogue as it is now (a test plants properties in it)
        world, (dice, responses) = world_from_trace(events), choices_from_trace(events)
        out[pid] = tuple(rid for rid, other in others
                         if catalogue.BY_ID[pid].check(View(run(other, world, ScriptedChoices(dice, responses)).events)) is None)
    return out


def ruling_dependencies(rb: Rulebook, scenarios, passed: dict[str, bool]) -> dict[str, tuple[str, ...]]:
    """Per ruling (its id): the readings of ``rb`` under which its outcome differs from ``passed`` —
    each ruling run again on each reading's rulebook (an exact game each: cheap)."""
    out: dict[str, list[str]] = {sc.spec.id: [] for sc in scenarios}
    for r in applicable(rb):
        other = variant(rb, r.id)
        for sc in scenarios:
            if run_scenario(sc, other).passed != passed[sc.spec.id]:
                out[sc.spec.id].append(r.id)
    return {k: tuple(v) for k, v in out.items()}
