"""«Промах» (512.6.6/b2): the strike table may call an attack a miss; the miss is the ability's status — the
«после промаха» features read it — and not a way out of the execution: a missed attack still goes
through the effect (a return strike there is the table's: the bundled one a placeholder). The property that says so fails on a draft that
sends a miss straight to completion, in every engine; a table cell that is no strength is a load error."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleproof.cli import main
from ruleproof.generators.bounded import bounded_worlds
from ruleproof.generators.mutants import mutant_yaml
from ruleproof.model.explore import Bounds, explore
from ruleproof.model.rulebook import load_rulebook, load_rulebook_text
from ruleproof.model.scenario import load_rulings, run_scenario
from ruleproof.properties.catalogue import BY_ID, View
from ruleproof.properties.prove import prove_one

ROOT = Path(__file__).resolve().parents[2]
RULING = ROOT / "rulings" / "512-after-miss.yaml"
PID = "P512.6.6-miss"


@pytest.fixture(scope="module")
def skipping():
    """The faulty draft: a miss goes from the dice step straight to completion."""
    return load_rulebook_text(mutant_yaml("miss-skips-effect"), "miss-skips-effect.yaml")


def test_a_miss_is_a_status_and_the_effect_step_still_runs(bundled, skipping):
    miss, hit, modified = load_rulings(RULING)
    for sc in (miss, hit, modified):
        res = run_scenario(sc, bundled)
        assert res.passed, [f.text() for f in res.failures]
        assert BY_ID[PID].check(View(res.trace.events)) is None
    assert run_scenario(miss, bundled).trace.final.action.status == "miss"
    assert run_scenario(hit, bundled).trace.final.action.status == "hit"
    # on the faulty draft the return strike is never dealt and the property names the skip
    res = run_scenario(miss, skipping)
    assert "cards.goblin.wounds" in [f.what for f in res.failures]
    violation = BY_ID[PID].check(View(res.trace.events))
    assert violation is not None and "без наложения эффекта" in violation.ru


def test_each_engine_finds_the_fault_and_proves_the_rule(bundled, skipping):
    worlds = bounded_worlds(0, ("none",))
    small = Bounds(x_max=0, die=(1, 2))
    good = explore(bundled, worlds, small, only=frozenset({PID}))
    assert not good.violations and good.exercised[PID] > 0  # played, never violated
    bad = explore(skipping, worlds, small, only=frozenset({PID}))
    assert PID in bad.violations
    assert prove_one(bundled, PID, timeout_ms=60_000).verdict == "proved"
    v = prove_one(skipping, PID, timeout_ms=60_000, vacuity=False)
    assert v.verdict == "violated" and v.counterexample.reproduced


def test_without_a_miss_row_the_premise_is_never_played(write_rulebook):
    """A table with no miss: the property is not exercised (never 'holds' by default)."""
    rb = load_rulebook(write_rulebook(lambda d: d["tables"]["strike_table"]["rows"].update({"1": ["weak", "medium"]})))
    out = explore(rb, bounded_worlds(0, ("none",)), Bounds(x_max=0, die=(1, 2)), only=frozenset({PID}))
    assert not out.violations and out.exercised[PID] == 0


@pytest.mark.parametrize("row,position", [(["none", "weak"], 1), (["weak", "miss"], 2), (["mis", "none"], 1)])
def test_a_cell_outside_its_column_is_a_load_error(write_rulebook, capsys, row, position):
    p = write_rulebook(lambda d: d["tables"]["strike_table"]["rows"].update({"3": row}), "bad.yaml")
    assert main(["--lang", "en", "check", str(p), "--engines", "structure"]) == 2
    err = capsys.readouterr().err
    assert "RP134" in err and "bad.yaml:" in err and f"(position {position})" in err
    assert "Traceback" not in err
    assert main(["--lang", "ru", "check", str(p), "--engines", "structure"]) == 2
    err = capsys.readouterr().err
    assert f"(позиция {position})" in err and "position" not in err


def test_the_guard_reads_the_miss(bundled):
    from ruleproof.model.algebra import Concrete
    from ruleproof.model.semantics import guard_text

    miss = run_scenario(load_rulings(RULING)[0], bundled).trace.final
    hit = run_scenario(load_rulings(RULING)[1], bundled).trace.final
    missed = guard_text(Concrete(), "missed")
    assert missed(miss, None) and not missed(hit, None)



def test_a_miss_does_not_overwrite_a_block_that_came_first(write_rulebook):
    """On a draft that opens a blocking window before the strike is read, a blocked action on a 1 stays
    blocked (and «после блокирования» is offered): a miss is the result of an ability still pending."""
    from ruleproof.generators.mutants import find_op
    from ruleproof.model.features import Effect, Feature
    from ruleproof.model.interpreter import ScriptedChoices, run
    from ruleproof.model.state import evolve

    def block_first(d):
        dice = d["steps"]["dice"]["operations"]
        dice.insert(find_op(d, "dice", "determine_base"),
                    {"op": "window", "id": "early_block", "first": "active_player", "allows": ["block"],
                     "cites": ["512.6.4/b2"]})

    rb = load_rulebook(write_rulebook(block_first))
    state = load_rulings(RULING)[0].initial_state()
    warden = state.card("warden")
    extra = (Feature("warden_block", "block"),
             Feature("warden_relief", "after_ability", on_status="blocked", effects=(Effect("heal", "self", 1),)))
    state = state.with_card(evolve(warden, features=(*warden.features, *extra)))
    choices = ScriptedChoices([1], [("early_block", "B", "warden_block"), ("after_ability", "B", "warden_relief")])
    trace = run(rb, state, choices)
    assert trace.final.action.status == "blocked"
    assert not choices.left_over()  # «после блокирования» was offered and played


AFTER = "P512.6.6-after-offered"
BLOCKED_MISS = ROOT / "rulings" / "512-miss-then-blocked.yaml"


@pytest.fixture(scope="module")
def replacing():
    """The faulty draft (R-block-replaces-miss): the completion window reads the last status only."""
    return load_rulebook_text(mutant_yaml("block-replaces-miss"), "block-replaces-miss.yaml")


def test_a_miss_then_blocked_keeps_both_statuses(bundled, replacing):
    """A-status-kept (512.6.6/b2): an attack that missed and was then blocked keeps «промах» and is blocked —
    «после промаха» and «после блокирования» are both offered; the draft that replaces the miss offers only
    the second, and the ruling and the obligation say so."""
    both, hit = load_rulings(BLOCKED_MISS)
    res = run_scenario(both, bundled)
    assert res.passed, [f.text() for f in res.failures]
    final = res.trace.final.action
    assert (final.status, final.blocked) == ("miss", True)
    assert BY_ID[AFTER].check(View(res.trace.events)) is None
    assert run_scenario(hit, bundled).passed and run_scenario(hit, replacing).passed
    bad = run_scenario(both, replacing)
    assert not bad.passed
    offered = [e.values["offered"] for e in bad.trace.events if e.op == "pass" and e.values["window"] == "after_ability"]
    assert offered and all("warden_riposte" not in o for o in offered)

