"""542.3 «не проверяется»: once declared, the number of targets is not checked again. The guard
``target_gone`` lets a draft read whether a target left the active zone; P542.3-targets-unchecked
fails, in every engine, on the public mutant that ends the action for it (``targets-rechecked``), and
holds on the bundled rulebook, which writes no edge on it."""

from __future__ import annotations

from feature_table import Fault, Ruling, agree_test, holds_test, kill_test, ruling_test

from ruleproof.generators.bounded import bounded_worlds
from ruleproof.model.explore import Bounds
from ruleproof.model.menu import OPT_INDEX, menu_world, world_of, world_state

PID = "P542.3-targets-unchecked"
RECHECKED = "targets-rechecked"  # the faulty draft: an action whose target left goes from calculation to completion

RULINGS = (
    # the effect is applied though a target left; on the draft the action ends before it
    Ruling("542-target-left.yaml", RECHECKED, fails=("visited", "action.effect_applied"), pid=PID,
           probe=lambda r: (r.trace.final.card("goblin").in_active_zone, r.trace.final.card("orc").wounds),
           expect=((False, 1), (False, 0))),
)
FAULTS = (
    # explore plays the target leaving; Z3's counterexample has it flee; Hypothesis's drawn target leaves now and then
    Fault(RECHECKED, PID, lambda rb: [w for w in bounded_worlds(0, ("calculation",)) if w.name == "spell/calculation"],
          Bounds(x_max=0, die=(2, 2)),
          found={"z3": lambda world: "b_flee" in {f.id for f in world.card("tgt").features}}, slow=("hypothesis",)),
)

test_rulings = ruling_test(RULINGS)
test_engines_find_the_fault = kill_test(FAULTS)
test_the_bundled_rulebook_holds = holds_test(FAULTS)
test_interpreter_and_z3_agree_on_the_guard = agree_test((RECHECKED,))


def test_the_menu_world_round_trips_a_fleeing_target():
    v = menu_world(lambda d: d[0], lambda: False)
    v = {**v, **{k: 0 for k in v if k.startswith("w_holds")}, f"w_holds{OPT_INDEX['b_flee']}": 1}
    state = world_state(v)
    assert [f.id for f in state.card("tgt").features] == ["b_flee"]
    assert world_of(state)[f"w_holds{OPT_INDEX['b_flee']}"] == 1
