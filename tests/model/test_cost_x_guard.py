"""542.2: a cost-X is a number the player names «исходя из собственного желания и ресурсов, которыми
карта фактически обладает». The guard ``cost_x_at_least(N)`` lets a draft turn its steps on that number;
P542.2-x-as-wished fails, in every engine, on the public mutant that refuses a declaration with X ≥ 2
(``big-x-refused``), and holds on the bundled rulebook, which reads no such guard."""

from __future__ import annotations

from feature_table import Fault, Ruling, agree_test, holds_test, kill_test, load_mutant, ruling_test

from ruleproof.generators.bounded import bounded_worlds
from ruleproof.generators.uses import uses
from ruleproof.model.vocabulary import parse_guard

PID = "P542.2-x-as-wished"
REFUSING = "big-x-refused"  # the faulty draft: a cost-X of 2 or more is refused (void, to the handover)

RULINGS = (
    # all the crystals may be named
    Ruling("542-cost-x-all-in.yaml", REFUSING, fails=("action.use_void", "action.paid"), pid=PID,
           probe=lambda r: r.trace.final.card("goblin").wounds, expect=(3, 0)),
)
FAULTS = (
    # explore plays a cost-X of two (in the worlds drawn for the rulebook searched); Z3's counterexample names one
    Fault(REFUSING, PID, lambda rb: bounded_worlds(1, ("none",), rb),
          found={"z3": lambda world: [x.chosen >= 2 for x in world.action.xs if x.kind == "cost"] == [True]}),
)

test_rulings = ruling_test(RULINGS)
test_engines_find_the_fault = kill_test(FAULTS)
test_the_bundled_rulebook_holds = holds_test(FAULTS)
test_interpreter_and_z3_agree_on_the_guard = agree_test((REFUSING,))


def test_the_guard_reads_a_whole_number():
    g = parse_guard("not cost_x_at_least( 3 )")
    assert (g.negated, g.name, g.arg, str(g)) == (True, "cost_x_at_least", "3", "not cost_x_at_least(3)")
    assert parse_guard("cost_x_at_least") is None and parse_guard("missed(2)") is None


def test_worlds_are_drawn_at_the_number_the_draft_reads(bundled):
    refusing = load_mutant(REFUSING)
    assert uses(refusing).cost_numbers == (2,) and uses(bundled).cost_numbers == ()
    named = {w.name for w in bounded_worlds(1, ("none",), refusing)} - {w.name for w in bounded_worlds(1, ("none",))}
    assert named == {"spell/cost=2"}
