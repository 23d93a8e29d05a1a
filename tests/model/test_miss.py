"""«Промах» (512.6.6/b2): the strike table may call an attack a miss; the miss is the ability's status — the
«после промаха» features read it — and not a way out of the execution: a missed attack still goes
through the effect (a return strike there is the table's: the bundled one a placeholder). The property that says so fails on a draft that
sends a miss straight to completion, in every engine; a table cell that is no strength is a load error."""

from __future__ import annotations

import pytest
from feature_table import Fault, Ruling, holds_test, kill_test, ruling, ruling_test

from ruleproof.cli import main
from ruleproof.generators.bounded import bounded_worlds
from ruleproof.model.explore import Bounds, explore
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.scenario import run_scenario

PID = "P512.6.6-miss"


def _after_ability(res) -> list:
    return [e.values["offered"] for e in res.trace.events if e.op == "pass" and e.values["window"] == "after_ability"]


RULINGS = (
    # the return strike is never dealt on the draft that sends a miss to completion, and the property names the skip
    Ruling("512-after-miss.yaml", "miss-skips-effect", fails=("cards.goblin.wounds",), pid=PID,
           says="без наложения эффекта"),
    # A-status-kept (512.6.6/b2): an attack that missed and was then blocked keeps «промах» and is blocked —
    # «после промаха» and «после блокирования» are both offered; the draft that replaces the miss (the completion
    # window reads the last status only) offers only the second; the hit case plays the same on both
    Ruling("512-miss-then-blocked.yaml", "block-replaces-miss", also_pass=(1,), pid="P512.6.6-after-offered",
           probe=lambda r: (r.trace.final.action.status, r.trace.final.action.blocked, _after_ability(r)),
           expect=(("miss", True, [(), (), (), ()]), ("miss", True, [(), ("shield_rest",)]))),
)
FAULTS = (
    Fault("miss-skips-effect", PID, lambda rb: bounded_worlds(0, ("none",)), Bounds(x_max=0, die=(1, 2)),
          kills=("explore", "z3"), holds=("explore", "z3")),
)

test_rulings = ruling_test(RULINGS)
test_engines_find_the_fault = kill_test(FAULTS)
test_the_bundled_rulebook_holds = holds_test(FAULTS)


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
    """The miss is the action's status, and the guard ``missed`` reads it."""
    from ruleproof.model.algebra import Concrete
    from ruleproof.model.semantics import guard_text

    miss_case, hit_case = ruling("512-after-miss.yaml")[:2]
    miss = run_scenario(miss_case, bundled).trace.final
    hit = run_scenario(hit_case, bundled).trace.final
    assert (miss.action.status, hit.action.status) == ("miss", "hit")
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
    state = ruling("512-after-miss.yaml")[0].initial_state()
    warden = state.card("warden")
    extra = (Feature("warden_block", "block"),
             Feature("warden_relief", "after_ability", on_status="blocked", effects=(Effect("heal", "self", 1),)))
    state = state.with_card(evolve(warden, features=(*warden.features, *extra)))
    choices = ScriptedChoices([1], [("early_block", "B", "warden_block"), ("after_ability", "B", "warden_relief")])
    trace = run(rb, state, choices)
    assert trace.final.action.status == "blocked"
    assert not choices.left_over()  # «после блокирования» was offered and played
