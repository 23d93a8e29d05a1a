"""When the condition of a resource modification is evaluated (540.4.1/ex1, Келе: «если после этого у
Келе нет ран … не закроется после этой атаки, даже если снова успеет получить раны»): a rulebook says it
with pay_reserved's ``recheck_conditions``; the bundled rulebook (false) follows the example, a draft
that checks the condition again at payment is caught by every engine and by the Келе ruling."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleproof.generators.bounded import bounded_worlds
from ruleproof.generators.mutants import mutant_yaml
from ruleproof.model.conformance import conformance
from ruleproof.model.explore import Bounds, explore
from ruleproof.model.rulebook import load_rulebook_text
from ruleproof.model.scenario import load_scenario, run_scenario
from ruleproof.properties.catalogue import BY_ID, View
from ruleproof.properties.prove import prove_one

ROOT = Path(__file__).resolve().parents[2]
KELE = ROOT / "rulings" / "540-kele-attacker.yaml"
PID = "P512.7-payment"


@pytest.fixture(scope="module")
def recheck():
    """The draft: the condition is checked again at payment."""
    return load_rulebook_text(mutant_yaml("conditions-at-payment"), "conditions-at-payment.yaml")


def test_the_vocabulary_says_when_and_the_bundled_rulebook_says_at_play(bundled, recheck):
    from ruleproof.model.vocabulary import OPERATIONS

    assert OPERATIONS["pay_reserved"].params["recheck_conditions"].default is False
    pay = [op for op in bundled.spec.steps["payment"].operations if op.op == "pay_reserved"][0]
    assert pay.params.get("recheck_conditions", False) is False
    pay = [op for op in recheck.spec.steps["payment"].operations if op.op == "pay_reserved"][0]
    assert pay.params["recheck_conditions"] is True


def test_kele_wounded_again_before_payment_stays_open_only_under_the_example(bundled, recheck):
    sc = load_scenario(KELE)
    good = run_scenario(sc, bundled)
    assert good.passed and not good.trace.final.card("kele").closed
    assert good.trace.final.card("kele").wounds == 1  # wounded again by the orc after healing to full
    bad = run_scenario(sc, recheck)
    assert "cards.kele.closed" in [f.what for f in bad.failures]
    pay = [e for e in bad.trace.events if e.op == "pay_reserved"][0]
    assert pay.values["paid"] == (("kele", "close", 1),) and pay.values["unpaid"] == ()
    assert BY_ID[PID].check(View(bad.trace.events)) is not None
    assert BY_ID[PID].check(View(good.trace.events)) is None


def test_every_engine_catches_the_draft_and_agrees_with_the_interpreter(bundled, recheck):
    worlds = bounded_worlds(0, ("triggers",))
    small = Bounds(x_max=0, die=(1, 2))
    assert PID in explore(recheck, worlds, small, only=frozenset({PID})).violations
    assert not explore(bundled, worlds, small, only=frozenset({PID})).violations
    v = prove_one(recheck, PID, timeout_ms=60_000, vacuity=False)
    assert v.verdict == "violated" and v.counterexample.reproduced
    assert prove_one(bundled, PID, timeout_ms=60_000).verdict == "proved"
    out = conformance(recheck, runs=40, seed=3)  # the two meanings of the new parameter agree
    assert out.ok, out.disagreement.text()
