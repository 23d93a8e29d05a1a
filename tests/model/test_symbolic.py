"""The compiled Z3 transition system: built from the rulebook data, labelled with clauses, and mapped
back to concrete worlds."""

from __future__ import annotations

import z3

from ruleproof.generators.mutants import mutant_yaml
from ruleproof.model.interpreter import RandomChoices, run
from ruleproof.model.rulebook import load_rulebook, load_rulebook_text
from ruleproof.model.symbolic import OPT_INDEX, OPTIONS, WORLD_DOMAINS, abstract, compile_rulebook, world_of, world_state

RB = load_rulebook()


def _mutant(mid: str):
    return load_rulebook_text(mutant_yaml(mid), f"{mid}.yaml")


def test_one_labelled_disjunct_per_operation_and_window_turn():
    sy = compile_rulebook(RB)
    ops = sum(len(s.operations) for s in RB.spec.steps.values())
    windows = sum(o.op == "window" for s in RB.spec.steps.values() for o in s.operations)
    assert sum(d.event not in ("enter", "goto", "end", "deadlock", "pass", "play", "window_closed") and not d.skipped
               for d in sy.disjuncts) == ops
    assert sum(d.event == "window_closed" for d in sy.disjuncts) == windows
    for d in sy.disjuncts:
        assert d.clauses, d.label  # every transition cites the rulebook's clauses
        assert d.where.startswith(RB.path), d.where
    reserve = next(d for d in sy.disjuncts if d.event == "reserve_resources" and not d.skipped)
    assert "540.2" in reserve.label


def test_a_mutant_compiles_to_a_different_system():
    """M8 lets dice modifiers into the reroll window: the reroll window's turn gains their plays."""
    def plays(rb):
        sy = compile_rulebook(rb)
        loc = next(loc for (s, i), loc in sy.turn_loc.items() if rb.spec.steps[s].operations[i].params["id"] == "reroll")
        return {OPTIONS[d.option].feature.id for d in sy.by_loc[loc] if d.event == "play"}

    assert plays(RB) == {"a_reroll", "b_reroll"}
    assert {"a_dmod", "a_dmodx", "b_dmod"} <= plays(_mutant("M8"))
    # M4 guards the action marker: the guard is the rulebook's, so the disjunct's guard differs
    m4 = compile_rulebook(_mutant("M4"))
    marker = [d for d in m4.disjuncts if d.event == "give_action_marker"]
    assert len(marker) == 2 and {d.skipped for d in marker} == {True, False}


def test_fresh_context_per_system():
    a, b = compile_rulebook(RB), compile_rulebook(RB)
    assert a.ctx is not b.ctx and a.pre["pc"].ctx is a.ctx


def test_init_and_trans_are_satisfiable_and_start_at_declaration():
    sy = compile_rulebook(RB)
    s = z3.SolverFor("QF_BV", ctx=sy.ctx)
    s.add(sy.init(), sy.trans())
    assert s.check() == z3.sat
    m = s.model()
    assert m.eval(sy.pre["pc"]).as_long() == sy.enter_loc["declaration"]
    assert sy.disjuncts[m.eval(sy.act).as_long()].event == "enter"


def test_world_roundtrip_and_abstraction_of_the_initial_state():
    sy = compile_rulebook(RB)
    values = {n: dom[-1] & 0xFF for n, dom in WORLD_DOMAINS.items()}
    values.update({"w_kind": 0, "w_has_defender": 1, "w_magnitude_x": 0, "w_magnitude_x_reads_property": 0,
                   "w_needs_magnitude": 1, "w_src_rm_limit": 2, "w_def_rm_limit": 2},
                  **{f"w_holds{i}": 1 for i in range(len(OPTIONS))})
    world = world_state(values)
    assert world_of(world) == values
    assert {f.id for c in world.cards for f in c.features} >= set(OPT_INDEX)
    vec = abstract(sy, world, values, sy.start_pc)
    s = z3.SolverFor("QF_BV", ctx=sy.ctx)
    s.add(sy.init(), *[sy.pre[n] == sy.val(v, n) for n, v in vec.items()])
    assert s.check() == z3.sat  # the concrete initial state is an initial state of the system
    trace = run(RB, world, RandomChoices(seed=3))
    assert trace.outcome == "completed"
