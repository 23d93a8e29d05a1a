"""The mutation self-test: operators make one-fault drafts; each is killed, equivalent, undecided or
a survivor (a gap) — and the bundled rules' checks kill nearly all of them."""

from __future__ import annotations

import json

from ruleproof.cli import main
from ruleproof.generators.selftest import drafts, selftest


def test_operators_make_many_distinct_drafts():
    ds = list(drafts())
    ids = [d.id for d in ds]
    assert len(ids) == len(set(ids)) and len(ids) > 200
    assert {d.operator for d in ds} >= {"named", "drop operation", "swap operations", "move fixation", "priority",
                                        "narrow window", "widen window", "flip parameter", "flip guard",
                                        "trigger words"}


def test_statuses_on_a_sample():
    rep = selftest(examples=0, random_plays=20,
                   only=["M1", "M8", "drop:dice:6", "swap:declaration:2", "widen:reroll:resource_modification"])
    status = {r.id: r for r in rep.results}
    assert status["M1"].status == "killed" and "P542.2-cost-x" in status["M1"].killed_by
    assert status["M8"].status == "killed" and "P512.6.2-dice-modifier-window" in status["M8"].killed_by
    assert status["drop:dice:6"].status == "killed"  # dropping fix_final_die
    assert status["swap:declaration:2"].status == "equivalent"  # two independent fixations swapped
    assert status["widen:reroll:resource_modification"].status == "undecided"


def test_full_selftest_kill_rate_and_every_property_bites():
    """The whole self-test without Hypothesis (structure, rulings, properties on ruling traces)."""
    rep = selftest(examples=0, random_plays=15)
    assert len(rep.results) > 200 and rep.kill_rate >= 0.95, rep.kill_rate
    kills = rep.property_kills()
    assert all(kills.values()), [p for p, k in kills.items() if not k]


def test_selftest_command_json(capsys):
    rc = main(["selftest", "--examples", "0", "--format", "json", "--only", "M1", "swap:declaration:2"])
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) >= {"mutants", "killed", "equivalent", "survivors", "results", "kill_rate"}
    assert doc["mutants"] == 2 and doc["killed"] == 1 and doc["equivalent"] == 1 and doc["survivors"] == 0
    [m1] = [r for r in doc["results"] if r["id"] == "M1"]
    assert "P542.2-cost-x" in m1["killed_by"]
    assert rc == 1  # properties that killed nothing in so small a sample are reported
