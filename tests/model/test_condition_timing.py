"""When the condition of a resource modification is evaluated (540.4.1/ex1, Келе: «если после этого у
Келе нет ран … не закроется после этой атаки, даже если снова успеет получить раны»): a rulebook says it
with pay_reserved's ``recheck_conditions``; the bundled rulebook (false) follows the example, a draft
that checks the condition again at payment is caught by every engine and by the Келе ruling."""

from __future__ import annotations

from feature_table import Fault, Ruling, agree_test, holds_test, kill_test, load_mutant, ruling_test

from ruleproof.generators.bounded import bounded_worlds
from ruleproof.model.explore import Bounds

PID = "P512.7-payment"
RECHECK = "conditions-at-payment"  # the draft: the condition is checked again at payment


def _kele(res) -> tuple:
    """Kele's closed and wounds (wounded again by the orc after healing to full), and the first payment."""
    kele = res.trace.final.card("kele")
    pay = next(e for e in res.trace.events if e.op == "pay_reserved")
    return kele.closed, kele.wounds, pay.values["paid"], pay.values["unpaid"]


RULINGS = (
    # Kele wounded again before payment stays open only under the example
    Ruling("540-kele-attacker.yaml", RECHECK, fails=("cards.kele.closed",), pid=PID, probe=_kele,
           expect=((False, 1, (), (("kele", "close", "kele_heal"),)), (True, 1, (("kele", "close", 1),), ()))),
)
FAULTS = (
    # Z3's proof of the property on the bundled rulebook is test_per_turn's (the same call)
    Fault(RECHECK, PID, lambda rb: bounded_worlds(0, ("triggers",)), Bounds(x_max=0, die=(1, 2)),
          kills=("explore", "z3"), holds=("explore",)),
)

test_rulings = ruling_test(RULINGS)
test_engines_find_the_fault = kill_test(FAULTS)
test_the_bundled_rulebook_holds = holds_test(FAULTS)
test_the_two_meanings_of_the_parameter_agree = agree_test((RECHECK,))


def test_the_vocabulary_says_when_and_the_bundled_rulebook_says_at_play(bundled):
    from ruleproof.model.vocabulary import OPERATIONS

    assert OPERATIONS["pay_reserved"].params["recheck_conditions"].default is False
    pay = next(op for op in bundled.spec.steps["payment"].operations if op.op == "pay_reserved")
    assert pay.params.get("recheck_conditions", False) is False
    pay = next(op for op in load_mutant(RECHECK).spec.steps["payment"].operations if op.op == "pay_reserved")
    assert pay.params["recheck_conditions"] is True
