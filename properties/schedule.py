"""How the proofs of a run are cut into tasks for worker processes: one per property (one per part of
a split form), and the vacuity-witness searches of runs of the catalogue; heaviest first.

>>> [(t.kind, t.part) for t in plan(["P512.6-may-declare", "P512.5-claims-resolved"], 2)][:2]
[('prove', 0), ('prove', 1)]
"""

from __future__ import annotations

from dataclasses import dataclass

from .monitor_z3 import FORMS

__all__ = ["Task", "plan"]


@dataclass(frozen=True)
class Task:
    """One unit of the work of :func:`prove` under ``jobs`` > 1: the proof of a property (``part``: of
    one part of a split form), the vacuity witnesses of a group of properties (``kind`` witness), or
    the check that the interpreter and the Z3 model agree on the rulebook (``kind`` conformance)."""

    kind: str  # prove | witness | conformance
    pids: tuple[str, ...]
    part: int | None = None

    @property
    def weight(self) -> int:
        """A rough cost in tenths of a second, for handing out the heaviest first (measured on the bundled
        rulebook, benchmarks/README.md; it orders the tasks, nothing else): a part of a split form about
        1.8 s, the witnesses of the whole catalogue 1.3 s, the conformance check 2.5 s (the property forms
        checked on its runs included), the few heavier proofs as listed, the rest 0.1–0.5 s."""
        if self.kind == "witness":
            return max(1, len(self.pids) // 2)
        if self.kind == "conformance":
            return 25
        if self.part is not None:
            return 18
        return _COST.get(self.pids[0], 3)


#: tenths of a second: the proofs well above the others' 0.1–0.5 s (measured, see :attr:`Task.weight`)
_COST = {"P512.7-payment-triggers": 12, "P512.6.6-compound": 11, "P512.7-payment": 11,
         "P542.5-magnitude-modifier-x": 10, "P542.4-computed-x": 8, "P542.2-cost-x": 7, "P540.4-modification-offered": 8}


def plan(pids: list[str], jobs: int, vacuity: bool = True, agree: bool = False) -> list[Task]:
    """The tasks of a run over ``jobs`` processes, heaviest first: one per property (one per part of a
    split form) and, with ``vacuity``, the witnesses of consecutive runs of the catalogue, one run per
    two processes (the fewer the groups, the more premises one path serves: on the bundled rulebook,
    4–6 interpreter paths and one Spacer query give all 27).  The witnesses are looked for alongside
    the proofs, not after them; so is the conformance check, with ``agree``.

    >>> [(t.kind, t.part) for t in plan(["P512.6.1-order", "P512.6-may-declare"], 2)]
    [('prove', 0), ('prove', 1), ('prove', 2), ('prove', None), ('witness', None)]
    """
    tasks = []
    for pid in pids:
        split = FORMS[pid].split
        tasks += [Task("prove", (pid,), i) for i in range(len(split))] if split else [Task("prove", (pid,))]
    if vacuity:
        n = max(1, min(-(-jobs // 2), len(pids)))
        size = -(-len(pids) // n)
        tasks += [Task("witness", tuple(pids[i:i + size])) for i in range(0, len(pids), size)]
    if agree:
        tasks.append(Task("conformance", ()))
    return sorted(tasks, key=lambda t: -t.weight)
