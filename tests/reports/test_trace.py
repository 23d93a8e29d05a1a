"""Traces as data: each event's state diff, and the states rebuilt from the diffs alone."""

from __future__ import annotations

import json

import pytest

from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.scenario import load_scenario, run_scenario, shipped_rulings
from ruleproof.reports.finding import Finding
from ruleproof.reports.trace import flatten_state, format_diff, is_initial, states_from_trace, trace_to_json


def _nest(flat: dict) -> dict:
    out: dict = {}
    for path, v in flat.items():
        node = out
        for k in path[:-1]:
            node = node.setdefault(k, {})
        node[path[-1]] = v
    return out


@pytest.fixture(scope="module")
def kele():
    sc = load_scenario(next(p for p in shipped_rulings() if p.name == "540-kele-attacker.yaml"))
    return run_scenario(sc, load_rulebook()).trace


def test_diffs_rebuild_every_state(kele):
    rows = trace_to_json(kele)
    json.dumps(rows, ensure_ascii=False)  # plain JSON, no default= needed
    assert is_initial(rows[0], 0) and not is_initial(rows[1], 1)
    states = states_from_trace(rows)
    for e, s in zip(kele.events, states):
        assert s == _nest(flatten_state(e.state)), e.seq
    # Келе heals 2 wounds on her strike (540.4.1): the diff says so
    heal = [r for r in rows if any(d["path"] == ["cards", "kele", "wounds"] for d in r["diff"])]
    assert heal and any("kele.wounds: 2 → 0" in format_diff(r["diff"]) for r in heal)


def test_finding_path_is_the_visited_steps(kele):
    rows = tuple(trace_to_json(kele))
    f = Finding(kind="ruling", check="kele-attacker", verdict="violated", engine="interpreter", clauses=("540.3",),
                message={"ru": "", "en": ""}, trace=rows)
    assert f.path == [e.values["step"] for e in kele.events if e.op == "enter"]
    assert f.path[0] == "declaration" and f.path[-1] == "handover"


def test_format_diff_reads_well():
    assert format_diff([{"path": ["action", "die_raw"], "old": None, "new": 4}]) == "action.die_raw: — → 4"
    assert format_diff([{"path": ["visited"], "old": ["dice"], "new": ["dice", "effect"]}]) == "visited += [effect]"
    assert format_diff([{"path": ["cards", "k", "uses"], "old": {}},
                        {"path": ["cards", "k", "uses", "f"], "new": 1}]) == "k.uses.f = 1"
    assert format_diff([{"path": ["x"], "old": 1}]) == "x: 1 → ∅"
    long = [{"path": [f"v{i}"], "old": 0, "new": 1} for i in range(10)]
    assert format_diff(long, limit=3).endswith("… (+7)")
