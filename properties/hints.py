"""Hints for the vacuity witnesses: paths of the transition system taken from interpreter runs.

A premise is shown reachable by Z3 on a *fixed* path (:func:`ruleproof.properties.prove.follow`: the
path executed symbolically, the world and the dice left to the solver, the premise asked of the last
state) — far cheaper than a Spacer query of its own.  Any path of the system will do, and the
interpreter makes plenty: worlds drawn from the symbolic menu, dice and responses drawn at random
from a seeded generator (the run is the same for the same seed), each run mapped to the disjuncts
that make it (:func:`ruleproof.model.paths.disjunct_path`).  A run the system does not have gives no
hint; a premise no hint reaches gets its own Spacer query, as before.

The hints come ordered by what they add: each next one covers the most disjuncts the ones before it
did not (a run through rare steps early), then the rest in the order drawn.

>>> from ruleproof.model.rulebook import load_rulebook
>>> from ruleproof.model.symbolic import compile_rulebook
>>> from ruleproof.properties.prove import _pc_successors
>>> rb = load_rulebook()
>>> sy = compile_rulebook(rb)
>>> paths = hint_paths(rb, sy, _pc_successors(sy), seed=0, runs=5)
>>> len(paths), all(p[0][0].event == "enter" for p in paths)
(5, True)
"""

from __future__ import annotations

import random

from ruleproof.model.interpreter import Stepper
from ruleproof.model.paths import disjunct_path
from ruleproof.model.rulebook import Rulebook
from ruleproof.model.symbolic import System, menu_world, world_state

__all__ = ["HINT_RUNS", "hint_paths"]

#: interpreter runs drawn for hints (a run of the bundled rulebook takes about 2 ms)
HINT_RUNS = 100


def hint_paths(rb: Rulebook, sy: System, successors: dict, seed: int = 0, runs: int = HINT_RUNS) -> list[list]:
    """Paths of ``sy`` from ``runs`` seeded random interpreter runs of ``rb``, most novel first."""
    rng = random.Random(seed)
    paths = []
    for _ in range(runs):
        world = menu_world(rng.choice, lambda: rng.random() < 0.7)
        path = disjunct_path(sy, _play(rb, world_state(world), rng), successors)
        if path is not None:
            paths.append(path)
    return _by_novelty(paths)


def _play(rb: Rulebook, state, rng: random.Random) -> list:
    run = Stepper(rb, state)
    while run.ask is not None:
        ask = run.ask
        if ask.kind == "die":
            run.answer(rng.randint(*ask.faces))
        else:
            ids = [f.id for _, f in ask.options]
            run.answer(rng.choice([None, *ids]) if ids else None)
    return run.trace.events


def _by_novelty(paths: list[list]) -> list[list]:
    """Greedy set cover over the disjuncts: first the path adding the most not yet covered, then the
    next…; the paths that add nothing follow in their order."""
    cands = [({d.id for group in p for d in group}, i) for i, p in enumerate(paths)]
    covered: set = set()
    order: list[int] = []
    while cands:
        best = max(cands, key=lambda c: (len(c[0] - covered), -c[1]))
        if not best[0] - covered:
            break
        order.append(best[1])
        covered |= best[0]
        cands.remove(best)
    order += sorted(i for _, i in cands)
    return [paths[i] for i in order]
