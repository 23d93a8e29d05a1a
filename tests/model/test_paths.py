"""An interpreter run as a path of the transition system (model/paths.py)."""

from __future__ import annotations

import random

from ruleproof.model.paths import disjunct_path, locate
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.scenario import load_scenario, run_scenario, shipped_rulings
from ruleproof.model.symbolic import menu_world, world_state
from ruleproof.properties.hints import _play
from ruleproof.properties.prove import _pc_successors, follow, shared_system

RB = load_rulebook()
SY = shared_system(RB, [])
SUCC = _pc_successors(SY)


def _run(seed: int) -> list:
    rng = random.Random(seed)
    return _play(RB, world_state(menu_world(rng.choice, lambda: rng.random() < 0.7)), rng)


def test_each_event_gets_the_disjuncts_from_its_location_to_the_next():
    for seed in range(5):
        events = _run(seed)
        path = disjunct_path(SY, events, SUCC)
        located = list(locate(SY, events))
        assert path is not None and len(path) == len(located) == len(events)
        for at, group in zip(located, path):
            assert group and all(d.loc == at.loc and SUCC[d.id][0] == at.nxt and d.event == at.event.op
                                 for d in group)
        assert path[-1][0].event == "end"


def test_z3_follows_every_path_and_rejects_a_broken_one():
    for seed in range(3):
        path = disjunct_path(SY, _run(seed), SUCC)
        assert follow(SY, lambda sy, S: sy.true(), path) is not None
    broken = path[:3] + path[4:]  # one event left out: the next one leaves from elsewhere
    assert follow(SY, lambda sy, S: sy.true(), broken) is None


def test_a_run_with_a_feature_off_the_menu_is_no_path():
    sc = load_scenario(next(p for p in shipped_rulings() if p.name == "540-kele-attacker.yaml"))
    events = run_scenario(sc, RB).trace.events
    assert any(e.op == "play" for e in events)  # kele's own features: not in the symbolic menu
    assert disjunct_path(SY, events, SUCC) is None
