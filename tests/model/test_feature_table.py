"""The per-feature tables can fail: a row of test_miss.py with one expectation made wrong is refused by each
table's check (feature_table), and the agreement check by a planted interpreter fault."""

from __future__ import annotations

from dataclasses import replace

import pytest
from feature_table import BUNDLED, check_agree, check_holds, check_kill, check_ruling
from test_miss import FAULTS, RULINGS

from ruleproof.model.explore import Bounds

RULING, FAULT = RULINGS[0], FAULTS[0]  # 512-after-miss against miss-skips-effect
NO_MISS = Bounds(x_max=0, die=(2, 2))  # a 2 is never a miss: the premise is not played

WRONG_RULINGS = {
    "a-check-that-passes": replace(RULING, fails=("cards.drummer.wounds",)),
    "a-case-that-fails": replace(RULING, also_pass=(2,)),
    "other-words": replace(RULING, says="без броска кубика"),
    "a-property-not-broken": replace(RULING, pid="P542.3-targets-unchecked"),
    "a-wrong-probe-value": replace(RULING, probe=lambda r: r.trace.final.card("goblin").wounds, expect=(2, 2)),
}


@pytest.mark.parametrize("row", WRONG_RULINGS.values(), ids=WRONG_RULINGS.keys())
def test_a_wrong_ruling_row_fails(row, bundled):
    with pytest.raises(AssertionError):
        check_ruling(row, bundled)


@pytest.mark.parametrize("row", [replace(FAULT, bounds=NO_MISS), replace(FAULT, found={"explore": lambda cx: False})],
                         ids=["premise-never-played", "not-the-fault-expected"])
def test_a_wrong_kill_row_fails(row):
    with pytest.raises(AssertionError):
        check_kill(row, "explore")


def test_a_wrong_holds_row_fails(bundled):
    """Worlds that never play the premise: 'holds' would be vacuous, and is refused."""
    with pytest.raises(AssertionError):
        check_holds(replace(FAULT, bounds=NO_MISS), "explore", bundled)


def test_a_planted_disagreement_fails_the_agreement_row(bundled, monkeypatch):
    from ruleproof.model import interpreter

    monkeypatch.setitem(interpreter.HANDLERS, "give_action_marker", lambda r, s, op: interpreter._done(r, s, op))
    with pytest.raises(AssertionError):
        check_agree(BUNDLED, bundled)
