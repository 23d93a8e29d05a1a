"""The engines, listed once: adding an engine is one :class:`Engine` here (and its runner).

``check`` runs them in this order after the phase graph's structural checks (``structure``, which always runs
and has no entry), its reports show a section per engine in this order, ``diff`` and ``readings`` compare the
engines marked ``diff``, and a pool of worker processes takes the costliest first.  A runner is named by its
module and function and imported only when it runs (the command line starts without loading any engine).

>>> [e.name for e in ENGINES][:3], NAMES[0], "consistency" in DIFF_ENGINES
(['rulings', 'hypothesis', 'exhaustive'], 'structure', True)
>>> BY_NAME["z3"].load().__name__
'run_z3'
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Callable

__all__ = ["Engine", "ENGINES", "NAMES", "BY_NAME", "DIFF_ENGINES", "DIFF_EXAMPLES", "longest_first", "soonest_answers"]


@dataclass(frozen=True)
class Engine:
    """One engine as the orchestration runs it."""

    name: str  #: as ``--engines`` names it and the report's section is called
    runner: str  #: "module:function", a function (rulebook, options) -> ``orchestrate.EngineRun``
    field: str  #: the ``orchestrate.CheckReport`` field that holds its results
    cost: int  #: how long it takes, relative to the others: a pool of workers starts the costliest first
    diff: bool = True  #: ``diff`` and ``readings`` compare its results on two rulebooks
    #: its place in ``diff`` and ``readings`` (their default ``--engines`` and the order they report in): where
    #: several engines find a counterexample to one property, the first one's game is the one shown and saved —
    #: the exhaustive pass's (the shortest) before Hypothesis's
    diff_rank: int = 0

    def load(self) -> Callable:
        """The runner function (its module imported now)."""
        module, _, function = self.runner.partition(":")
        return getattr(import_module(module), function)


#: the engines in report order
ENGINES: tuple[Engine, ...] = (
    Engine("rulings", "ruleproof.orchestrate:run_rulings", "rulings", cost=30, diff_rank=1),
    Engine("hypothesis", "ruleproof.orchestrate:run_hypothesis", "properties", cost=70, diff_rank=3),
    Engine("exhaustive", "ruleproof.orchestrate:run_exhaustive", "exhaustive", cost=80, diff_rank=2),
    Engine("z3", "ruleproof.orchestrate:run_z3", "z3", cost=100, diff_rank=4),
    Engine("consistency", "ruleproof.orchestrate:run_consistency", "consistency", cost=10, diff_rank=5),
    Engine("conformance", "ruleproof.orchestrate:run_conformance", "conformance", cost=20, diff_rank=0),
)

#: what ``check --engines`` accepts: the structural checks and every engine
NAMES: tuple[str, ...] = ("structure", *(e.name for e in ENGINES))
BY_NAME: dict[str, Engine] = {e.name: e for e in ENGINES}
#: the engines ``diff`` and ``readings`` run on both rulebooks (all of them by default), in their order
DIFF_ENGINES: tuple[str, ...] = tuple(e.name for e in sorted(ENGINES, key=lambda e: e.diff_rank) if e.diff)
#: the Hypothesis examples per rulebook in ``diff`` and ``readings``, as in ``check`` (fewer leave some properties
#: not exercised: measured, 100 left 0–4 of the 27 unplayed on the bundled rulebook, 200 none)
DIFF_EXAMPLES = 200


def longest_first(names, extra: dict[str, int] | None = None) -> list:
    """``names`` (engine names, or (name, …) tuples) the costliest first; ``extra``: the cost of tasks
    that are not engines (``diff``'s search for the smallest differing game).

    >>> longest_first(["rulings", "z3", "consistency"])
    ['z3', 'rulings', 'consistency']
    """
    cost = {**{e.name: e.cost for e in ENGINES}, **(extra or {})}
    return sorted(names, key=lambda n: -cost[n if isinstance(n, str) else n[0]])


def soonest_answers(names) -> list:
    """``names`` (engine names) so that answers come soon from a pool: the costliest first (it decides how long
    the whole takes), then the cheapest to the costliest — the other workers give the quick engines' verdicts
    while it runs (``check --watch``: an edit's rulings are judged in seconds).

    >>> soonest_answers(["rulings", "z3", "exhaustive", "consistency"])
    ['z3', 'consistency', 'rulings', 'exhaustive']
    """
    order = longest_first(names)
    return order[:1] + order[1:][::-1]

