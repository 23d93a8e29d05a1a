"""A run written as a ruling scenario reads back as the same world and replays the same game;
a counterexample saved as a ruling fails on the draft that produced it and passes on the rules."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings

from ruleproof.cli import main
from ruleproof.ground.errors import RuleproofError
from ruleproof.generators.strategies import worlds
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.scenario import load_rulings, load_scenario, run_scenario, shipped_rulings
from ruleproof.model.scenario_write import (choices_from_trace, save_ruling, scenario_from_run,
                                            scenario_from_trace)
from ruleproof.model.state import State

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def rb():
    return load_rulebook()


def _fresh(world: State) -> State:
    from dataclasses import replace

    return replace(world, step="", visited=(), claims=(), windows_seen=())


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(world=worlds())
def test_generated_world_round_trips(tmp_path_factory, world: State) -> None:
    doc = scenario_from_run(world, [3, 4], [], properties=["P540.3-action-marker"], clauses=("540.3",),
                            provenance={"engine": "test"})
    path = save_ruling(tmp_path_factory.mktemp("w") / "w.yaml", doc)
    sc = load_scenario(path)
    assert sc.initial_state() == _fresh(world)
    assert sc.spec.dice == [3, 4] and sc.spec.expect.properties == ["P540.3-action-marker"]
    assert sc.spec.provenance == {"engine": "test"}


@pytest.mark.parametrize("path", shipped_rulings(), ids=lambda p: p.stem)
def test_shipped_ruling_trace_replays(tmp_path: Path, rb, path: Path) -> None:
    """Every shipped ruling's run, written back from its trace, gives the very same events (a turn of
    several actions: its first action, the one a counterexample is; a file of several cases: each)."""
    for n, sc in enumerate(load_rulings(path)):
        if sc.spec.then:
            sc.spec = sc.spec.model_copy(update={"then": []})
        res = run_scenario(sc, rb)
        doc = scenario_from_trace(res.trace.events, properties=[], clauses=("512.6",), provenance={"engine": "test"})
        again = run_scenario(load_scenario(save_ruling(tmp_path / f"{n}-{path.name}", doc)), rb)
        assert again.passed, [f.text() for f in again.failures]
        assert [(e.op, e.values) for e in again.trace.events] == [(e.op, e.values) for e in res.trace.events]


def test_choices_from_trace_reads_rerolls(rb) -> None:
    sc = load_scenario(ROOT / "rulings" / "512-reroll.yaml")
    dice, responses = choices_from_trace(run_scenario(sc, rb).trace.events)
    assert dice == [2, 5] and responses == [("reroll", "A", "gnome_luck")]


def test_save_is_deterministic_and_keeps_order(tmp_path: Path, rb) -> None:
    res = run_scenario(load_scenario(ROOT / "rulings" / "540-kele-attacker.yaml"), rb)
    doc = scenario_from_trace(res.trace.events, properties=["P540.3-action-marker"], clauses=("540.3",),
                              provenance={"engine": "test", "command": "ruleproof check --seed 1"})
    a = save_ruling(tmp_path / "a.yaml", doc).read_text("utf-8")
    b = save_ruling(tmp_path / "b.yaml", doc).read_text("utf-8")
    assert a == b and "Келе" in a and "# found by: ruleproof check --seed 1" in a
    assert list(yaml.safe_load(a)) == ["format", "id", "title", "source", "clauses", "cards", "action", "dice",
                                       "responses", "expect", "provenance"]


def test_save_refuses_an_invalid_document_and_writes_nothing(tmp_path: Path, rb) -> None:
    res = run_scenario(load_scenario(ROOT / "rulings" / "540-kele-attacker.yaml"), rb)
    doc = scenario_from_trace(res.trace.events, properties=["P999-nonsense"], clauses=("540.3",),
                              provenance={"engine": "test"})
    with pytest.raises(RuleproofError) as err:
        save_ruling(tmp_path / "bad.yaml", doc)
    assert err.value.code == "RP200" and "P999-nonsense" in str(err.value)
    assert list(tmp_path.iterdir()) == []


def test_unknown_property_is_located(tmp_path: Path, capsys) -> None:
    data = yaml.safe_load((ROOT / "rulings" / "540-kele-attacker.yaml").read_text("utf-8"))
    data["expect"]["properties"] = ["P540.3-action-marker", "P-nope"]
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    line = next(i for i, t in enumerate(path.read_text("utf-8").splitlines(), 1) if "P-nope" in t)
    rc = main(["--lang", "en", "run", str(path)])
    out, err = capsys.readouterr()
    assert rc == 2 and out == "" and "Traceback" not in err
    assert err.startswith(f"{path}:{line}:") and "error RP200:" in err and "P540.3-action-marker" in err


def test_property_expectation_fails_with_clauses_and_events(tmp_path: Path, rb) -> None:
    """The same ruling with a property expectation: holds on the rules, fails on mutant M4."""
    from ruleproof.generators.mutants import write_mutant
    from ruleproof.properties.catalogue import BY_ID

    data = yaml.safe_load((ROOT / "rulings" / "540-kele-attacker.yaml").read_text("utf-8"))
    data["expect"] = {"properties": ["P540.3-action-marker"]}
    path = tmp_path / "s.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    sc = load_scenario(path)
    assert run_scenario(sc, rb).passed
    bad = run_scenario(sc, load_rulebook(write_mutant("M4", tmp_path)))
    [f] = bad.failures
    assert f.what == "property P540.3-action-marker" and f.expected == "holds"
    assert f.clauses == BY_ID["P540.3-action-marker"].clauses and f.events
    assert "violated at events #" in f.actual


# --- counterexamples found by Hypothesis on the public mutants, saved as rulings -----------------------

_FOUND: dict[str, tuple] = {}


def _found(mutant: str, folder: Path):
    """The mutant written to ``folder`` and the counterexample Hypothesis finds on it (searched once)."""
    from ruleproof.generators.mutants import PUBLIC, write_mutant
    from ruleproof.generators.run import hypothesis_pass

    path = write_mutant(mutant, folder)
    draft = load_rulebook(path)
    if mutant not in _FOUND:
        out = hypothesis_pass(draft, examples=300, only=frozenset({PUBLIC[mutant]}), cache_dir=None, shrinks=5)
        _FOUND[mutant] = out.violations[PUBLIC[mutant]]
    return path, draft, _FOUND[mutant]


@pytest.mark.parametrize("mutant", ["M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8"])
def test_saved_counterexample_fails_on_its_mutant_and_passes_on_the_rules(tmp_path: Path, rb, mutant: str) -> None:
    from ruleproof.generators.mutants import PUBLIC
    from ruleproof.model.scenario_write import save_hypothesis_violation

    _, draft, violation = _found(mutant, tmp_path)
    replay = f"ruleproof check {mutant}.yaml --examples 300"
    saved = save_hypothesis_violation(violation, draft, tmp_path / "cx.yaml", replay=replay)
    sc = load_scenario(saved)
    assert sc.spec.expect.properties == [PUBLIC[mutant]] and sc.spec.provenance["command"] == replay
    on_draft = run_scenario(sc, draft)
    assert f"property {PUBLIC[mutant]}" in [f.what for f in on_draft.failures]
    on_rules = run_scenario(sc, rb)
    assert on_rules.passed, [f.text() for f in on_rules.failures]


@pytest.mark.parametrize("mutant", ["M4", "M8"])
def test_saved_counterexample_through_the_cli(tmp_path: Path, capsys, mutant: str) -> None:
    from ruleproof.model.scenario_write import save_hypothesis_violation

    path, draft, violation = _found(mutant, tmp_path)
    saved = save_hypothesis_violation(violation, draft, tmp_path / "cx.yaml", replay="test")
    assert main(["--lang", "en", "run", str(saved), "--rulebook", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"property {violation.prop.id}" in out and "violated at events" in out
    assert main(["--lang", "en", "run", str(saved)]) == 0


def test_widened_window_play_is_expected_unused(tmp_path: Path, rb) -> None:
    """M8 offers a dice modifier in the reroll window: the saved ruling says the rules must not."""
    from ruleproof.model.scenario_write import save_hypothesis_violation

    _, draft, violation = _found("M8", tmp_path)
    sc = load_scenario(save_hypothesis_violation(violation, draft, tmp_path / "cx.yaml", replay="test"))
    # the counterexample may also hold a reroll the rules allow there: the widened plays are among the
    # reroll window's, and those are what the saved ruling expects unused
    widened = {r.play for r in sc.spec.responses if r.window == "reroll"}
    unused = set(sc.spec.expect.unused)
    assert unused and unused <= widened
    assert any(f.what.startswith("response ") for f in run_scenario(sc, draft).failures)


def test_a_trace_stopped_early_is_completed_and_saved(tmp_path: Path, rb) -> None:
    """Any engine's trace (here: a ruling's run on M4 cut right after its last play) saves as a ruling."""
    from ruleproof.generators.mutants import write_mutant
    from ruleproof.model.scenario_write import save_trace_violation

    draft = load_rulebook(write_mutant("M4", tmp_path))
    events = run_scenario(load_scenario(ROOT / "rulings" / "540-kele-attacker.yaml"), draft).trace.events
    last_play = max(e.seq for e in events if e.op == "play")
    events = events[: last_play + 1]
    assert events[-1].op == "play" and not any(e.op == "give_action_marker" for e in events)
    saved = save_trace_violation(events, draft, tmp_path / "cx.yaml", property="P540.3-action-marker",
                                 replay="test", engine="explore")
    sc = load_scenario(saved)
    assert sc.spec.provenance["engine"] == "explore" and sc.spec.provenance["reference"] == "bundled"
    assert not run_scenario(sc, draft).passed and run_scenario(sc, rb).passed


def test_a_trace_that_violates_nothing_is_refused(tmp_path: Path, rb) -> None:
    from ruleproof.model.scenario_write import save_trace_violation

    events = run_scenario(load_scenario(ROOT / "rulings" / "540-kele-attacker.yaml"), rb).trace.events
    with pytest.raises(RuleproofError) as err:
        save_trace_violation(events, rb, tmp_path / "cx.yaml", property="P540.3-action-marker", replay="r",
                             engine="explore")
    assert err.value.code == "RP201" and not (tmp_path / "cx.yaml").exists()


def test_clause_ids_are_written_in_quotes(tmp_path) -> None:
    """Every clause id of a saved ruling is quoted alike — "512.7" (which YAML would read as a number)
    as much as "540.4.1/ex1" — and reads back as the same text."""
    from ruleproof.model.menu import action, card

    world = State(cards=(card("src"), card("tgt")), action=action("spell"))
    doc = scenario_from_run(world, [3], [], properties=[], clauses=("512.7", "540.4.1/ex1", "540.3"),
                            provenance={"engine": "test"})
    path = save_ruling(tmp_path / "q.yaml", doc)
    line = next(t for t in path.read_text("utf-8").splitlines() if t.startswith("clauses:"))
    assert line == 'clauses: ["512.7", "540.4.1/ex1", "540.3"]'
    assert load_scenario(path).spec.clauses == ["512.7", "540.4.1/ex1", "540.3"]


def test_a_saved_ruling_keeps_only_what_the_violation_needs(tmp_path: Path, rb) -> None:
    """Келе's ruling on M4 also scripts the orc's spite (a wound after the strike); the missing action
    marker does not need it: the saved ruling drops the feature and its response, keeps the heal that
    modifies the action, and still fails on the draft and passes on the rules."""
    from ruleproof.generators.mutants import write_mutant
    from ruleproof.model.scenario_write import save_trace_violation

    draft = load_rulebook(write_mutant("M4", tmp_path))
    events = run_scenario(load_scenario(ROOT / "rulings" / "540-kele-attacker.yaml"), draft).trace.events
    world = events[0].state
    assert {f.id for c in world.cards for f in c.features} == {"kele_heal", "orc_spite"}
    saved = save_trace_violation(events, draft, tmp_path / "cx.yaml", property="P540.3-action-marker",
                                 replay="test", engine="explore")
    sc = load_scenario(saved)
    assert {f.id for c in sc.spec.cards.values() for f in c.features} == {"kele_heal"}
    assert [r.play for r in sc.spec.responses] == ["kele_heal"]
    assert not run_scenario(sc, draft).passed and run_scenario(sc, rb).passed


def test_shrinking_drops_a_bystander_card(tmp_path: Path) -> None:
    """A card outside the action's roles, whose feature the run never plays, is not in the saved world."""
    from ruleproof.generators.mutants import write_mutant
    from dataclasses import replace

    from ruleproof.model.menu import card
    from ruleproof.model.scenario_write import shrink_world
    from ruleproof.properties.catalogue import BY_ID

    draft = load_rulebook(write_mutant("M4", tmp_path))
    events = run_scenario(load_scenario(ROOT / "rulings" / "540-kele-attacker.yaml"), draft).trace.events
    world = events[0].state
    crowded = replace(world, cards=world.cards + (card("allyB"),))
    w, dice, responses = shrink_world(draft, BY_ID["P540.3-action-marker"], crowded, [4], [
        ("effect_triggers", "A", "kele_heal"), ("after_ability", "B", "orc_spite")])
    assert [c.id for c in w.cards] == ["kele", "orc"] and responses == [("effect_triggers", "A", "kele_heal")]
