"""Hint paths for the vacuity witnesses (properties/hints.py)."""

from __future__ import annotations

from ruleproof.model.rulebook import load_rulebook
from ruleproof.properties.hints import _by_novelty, hint_paths
from ruleproof.properties.prove import _pc_successors, shared_system

RB = load_rulebook()
SY = shared_system(RB, [])
SUCC = _pc_successors(SY)


def _ids(path) -> list:
    return [tuple(d.id for d in group) for group in path]


def test_the_same_seed_gives_the_same_paths_another_seed_others():
    a, b = hint_paths(RB, SY, SUCC, seed=3, runs=10), hint_paths(RB, SY, SUCC, seed=3, runs=10)
    assert [_ids(p) for p in a] == [_ids(p) for p in b]
    c = hint_paths(RB, SY, SUCC, seed=4, runs=10)
    assert [_ids(p) for p in a] != [_ids(p) for p in c]


def test_novelty_order_puts_first_the_path_adding_most_and_keeps_every_path_once():
    paths = hint_paths(RB, SY, SUCC, seed=0, runs=20)
    cover = lambda p: {d.id for g in p for d in g}  # noqa: E731
    assert max(len(cover(p)) for p in paths) == len(cover(paths[0]))
    again = _by_novelty(list(reversed(paths)))
    assert sorted(map(str, map(_ids, again))) == sorted(map(str, map(_ids, paths)))
    seen: set = set()
    gains = []
    for p in paths:
        gains.append(len(cover(p) - seen))
        seen |= cover(p)
    nonzero = [g for g in gains if g]
    assert nonzero == sorted(nonzero, reverse=True)  # greedy: each adds the most of what is left
    assert all(g == 0 for g in gains[len(nonzero):])  # the ones adding nothing come last
