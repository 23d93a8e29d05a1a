"""542.2: a cost-X is a number the player names «исходя из собственного желания и ресурсов, которыми
карта фактически обладает». The guard ``cost_x_at_least(N)`` lets a draft turn its steps on that number;
P542.2-x-as-wished fails, in every engine, on the public mutant that refuses a declaration with X ≥ 2
(``big-x-refused``), and holds on the bundled rulebook, which reads no such guard."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleproof.generators.bounded import bounded_worlds
from ruleproof.generators.mutants import mutant_yaml
from ruleproof.generators.uses import uses
from ruleproof.model.conformance import conformance
from ruleproof.model.explore import Bounds, explore
from ruleproof.model.rulebook import load_rulebook_text
from ruleproof.model.scenario import load_rulings, run_scenario
from ruleproof.model.vocabulary import parse_guard
from ruleproof.properties.prove import prove_one

ROOT = Path(__file__).resolve().parents[2]
RULING = ROOT / "rulings" / "542-cost-x-all-in.yaml"
PID = "P542.2-x-as-wished"


@pytest.fixture(scope="module")
def refusing():
    """The faulty draft: a declaration with a cost-X of 2 or more is refused (void, to the handover)."""
    return load_rulebook_text(mutant_yaml("big-x-refused"), "big-x-refused.yaml")


def test_the_guard_reads_a_whole_number():
    g = parse_guard("not cost_x_at_least( 3 )")
    assert (g.negated, g.name, g.arg, str(g)) == (True, "cost_x_at_least", "3", "not cost_x_at_least(3)")
    assert parse_guard("cost_x_at_least") is None and parse_guard("missed(2)") is None


def test_all_the_crystals_may_be_named(bundled, refusing):
    sc, = load_rulings(RULING)
    res = run_scenario(sc, bundled)
    assert res.passed, [f.text() for f in res.failures]
    assert res.trace.final.card("goblin").wounds == 3
    bad = run_scenario(sc, refusing)
    assert not bad.passed and bad.trace.final.card("goblin").wounds == 0
    assert {"action.use_void", "action.paid"} <= {f.what for f in bad.failures}


def test_worlds_are_drawn_at_the_number_the_draft_reads(bundled, refusing):
    assert uses(refusing).cost_numbers == (2,) and uses(bundled).cost_numbers == ()
    named = {w.name for w in bounded_worlds(1, ("none",), refusing)} - {w.name for w in bounded_worlds(1, ("none",))}
    assert named == {"spell/cost=2"}


def test_explore_plays_a_cost_x_of_two_and_finds_the_fault(bundled, refusing):
    good = explore(bundled, bounded_worlds(1, ("none",), bundled), Bounds(), only=frozenset({PID}))
    assert not good.violations and good.exercised[PID] > 0
    bad = explore(refusing, bounded_worlds(1, ("none",), refusing), Bounds(), only=frozenset({PID}))
    assert PID in bad.violations


def test_z3_proves_it_and_refutes_the_draft(bundled, refusing):
    assert prove_one(bundled, PID, timeout_ms=60_000).verdict == "proved"
    v = prove_one(refusing, PID, timeout_ms=60_000, vacuity=False)
    assert v.verdict == "violated" and v.counterexample.reproduced
    x, = [x for x in v.counterexample.world.action.xs if x.kind == "cost"]
    assert x.chosen >= 2


def test_hypothesis_finds_the_fault_and_plays_the_premise(bundled, refusing):
    from ruleproof.generators.run import hypothesis_pass

    [bad] = hypothesis_pass(refusing, examples=200, cache_dir=None, shrinks=30, only=frozenset({PID})).results
    assert not bad.holds and bad.findings[0].engine == "hypothesis"
    [good] = hypothesis_pass(bundled, examples=200, cache_dir=None, only=frozenset({PID})).results
    assert good.verdict == "holds"


def test_interpreter_and_z3_agree_on_the_guard(refusing):
    out = conformance(refusing, runs=40, seed=3)
    assert out.ok, out.disagreement
