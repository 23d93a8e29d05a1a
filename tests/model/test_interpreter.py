"""The interpreter: deterministic, immutable states, and every behaviour traceable to a rulebook line."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

from ruleproof.model import interpreter
from ruleproof.model.interpreter import MAX_STEPS, ScriptedChoices, run
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.scenario import load_scenario, run_scenario

ROOT = Path(__file__).resolve().parents[2]
KELE = ROOT / "rulings" / "540-kele-attacker.yaml"


@pytest.fixture(scope="module")
def rb():
    return load_rulebook()


@pytest.fixture(scope="module")
def kele():
    return load_scenario(KELE)


def _elements(rb) -> dict[str, tuple[str, ...]]:
    """rulebook location → the clauses cited there (steps, operations, edges)."""
    out = {}
    for sid, step in rb.spec.steps.items():
        out[str(rb.where(("steps", sid)))] = tuple(step.cites)
        for i, op in enumerate(step.operations):
            out[str(rb.where(("steps", sid, "operations", i)))] = tuple(op.cites)
        for i, edge in enumerate(step.next):
            out[str(rb.where(("steps", sid, "next", i)))] = tuple(edge.cites)
    return out


def test_every_event_of_the_kele_trace_points_to_its_rulebook_line(rb, kele):
    res = run_scenario(kele, rb)
    elements = _elements(rb)
    for e in res.trace.events:
        assert e.where in elements, (e.seq, e.op, e.where)
        assert e.clauses == elements[e.where], (e.seq, e.op)
    lines = Path(rb.path).read_text("utf-8").splitlines()
    pay = next(e for e in res.trace.events if e.op == "pay_reserved")
    line = int(pay.where.split(":")[-2])
    assert "op: pay_reserved" in lines[line - 1]


def test_the_interpreter_names_no_clause(rb):
    """Clause logic lives in the rulebook: no string constant in the interpreter is a clause id."""
    tree = ast.parse(Path(interpreter.__file__).read_text("utf-8"))
    docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                  if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef)) and n.body
                  and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    constants = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
                 and id(n) not in docstrings]
    assert not [c for c in constants if re.search(r"\b\d{3}(\.\d+)+\b", c)]


def test_same_choices_same_trace(rb, kele):
    a = run_scenario(kele, rb).trace
    b = run_scenario(kele, rb).trace
    assert [(e.op, e.step, e.values, e.clauses) for e in a.events] == [(e.op, e.step, e.values, e.clauses)
                                                                        for e in b.events]
    assert [hash(e.state) for e in a.events] == [hash(e.state) for e in b.events]


def test_states_are_immutable_snapshots(rb, kele):
    trace = run_scenario(kele, rb).trace
    first, last = trace.events[0].state, trace.final
    assert first.card("kele").wounds == 2 and last.card("kele").wounds == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        last.card("kele").wounds = 5  # type: ignore[misc]
    assert len({e.state for e in trace.events}) > 10


def test_window_offers_only_allowed_kinds_to_the_player_with_priority(rb, kele):
    seen = []

    class Spy(ScriptedChoices):
        def respond(self, window, player, options, state):
            seen.append((window, player, sorted(f.kind for _, f in options)))
            return super().respond(window, player, options, state)

    run(rb, kele.initial_state(), Spy([4], [("effect_triggers", "A", "kele_heal")]))
    assert seen[0][:2] == ("reroll", "A")  # the active player first
    for window, player, kinds in seen:
        allowed = next(op.params["allows"] for s in rb.spec.steps.values() for op in s.operations
                       if op.op == "window" and op.params["id"] == window)
        assert set(kinds) <= set(allowed)
    assert ("effect_triggers", "A", ["effect_trigger"]) in seen
    assert ("after_ability", "B", ["after_ability"]) in seen


def test_running_out_of_scripted_dice_is_reported(rb, kele):
    trace = run(rb, kele.initial_state(), ScriptedChoices([], []))
    assert trace.outcome == "out_of_choices"
    assert "die result #1" in trace.events[-1].values["reason"]


def test_a_loop_that_never_ends_stops_at_the_step_limit(write_rulebook, kele):
    def edit(d):
        d["steps"]["completion"]["next"][0]["when"] = "not action_blocked"  # always loops back
    trace = run(load_rulebook(write_rulebook(edit)), kele.initial_state(), ScriptedChoices([4] * 50, []))
    assert trace.outcome in ("step_limit", "out_of_choices")
    assert len([e for e in trace.events if e.op == "enter"]) <= MAX_STEPS


def test_skipped_operations_are_in_the_trace(rb):
    sc = load_scenario(KELE)
    trace = run_scenario(sc, rb).trace
    assert not trace.find("fix_x", skipped=True)  # the action stays legal: nothing skipped


def test_random_choices_are_reproducible_from_the_seed(rb, kele):
    from ruleproof.model.interpreter import RandomChoices

    def trace(seed):
        return [(e.op, e.values) for e in run(rb, kele.initial_state(), RandomChoices(seed)).events]

    assert trace(3) == trace(3)
    assert any(trace(s) != trace(3) for s in range(4, 20))
    plays = {e[1].get("feature") for s in range(30) for e in trace(s) if e[0] == "play"}
    assert {"kele_heal", "orc_spite"} <= plays


def test_the_fast_cursor_copy_follows_the_fields():
    """A forced pass copies its cursor from a plain tuple (the explorer's hot path): the unpacking
    there relies on the fields' order."""
    from ruleproof.model.interpreter import Cursor, _cursor

    assert Cursor._fields[:5] == ("at", "step", "op", "player", "passes")
    assert _cursor(("next", "s", 0, "", 0, (), "", "", (), 3, "")) == Cursor("next", "s", entered=3)


def test_a_compound_feature_is_one_use_however_many_parts(rb):
    """540.1.3 counts a feature's uses in a turn: the second part of a compound feature (512.6.6/b4) is
    the same use — it was counted once per declared part (2 for a two-part feature)."""
    res = run_scenario(load_scenario(ROOT / "rulings" / "512-compound.yaml"), rb)
    declared = [e for e in res.trace.events if e.op == "declare"]
    assert len(declared) == 2  # both parts were declared
    assert res.trace.events[-1].state.card("thrower").used("double_throw", "attack") == 1
