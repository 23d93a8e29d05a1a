"""What a rulebook uses of the vocabulary — the windows and the feature kinds each admits, the
trigger words of its table, the guard words it reads — so that the worlds drawn
for it (:mod:`.strategies`) play what *this* rulebook can do: a draft that widens a window, adds a
trigger word or skips a step under a guard gets worlds that exercise the widening.

>>> from ruleproof.model.rulebook import load_rulebook
>>> u = uses(load_rulebook())
>>> dict(u.windows)["blocking"], u.triggers
(('block',), ('strike', 'assault'))
>>> u.guarded_kinds
('sudden_action', 'block')
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleproof.model.rulebook import Rulebook
from ruleproof.model.vocabulary import GUARDS, Guard, parse_guard

__all__ = ["Uses", "uses"]

@dataclass(frozen=True)
class Uses:
    windows: tuple[tuple[str, tuple[str, ...]], ...]  # (window id, the feature kinds it admits), in order
    triggers: tuple[str, ...]  # the rows of the trigger_words table
    guards: tuple[str, ...]  # the guard words its steps, operations and edges read
    #: the numbers its ``cost_x_at_least(N)`` guards compare a cost-X with (542.2)
    cost_numbers: tuple[int, ...] = ()
    #: the numbers its ``plays_at_least(N)`` guards compare a window's plays with
    play_numbers: tuple[int, ...] = ()
    #: a window of it reads the last status of the ability only (``after_status: last``, 512.6.6/b2)
    after_last: bool = False

    @property
    def guarded_kinds(self) -> tuple[str, ...]:
        """The feature kinds that make a guard the rulebook reads hold."""
        return tuple(dict.fromkeys(k for g in self.guards for k in GUARDS[g].features))


def _guard(text) -> list[Guard]:
    g = parse_guard(text or "always")
    return [] if g is None or g.name == "always" else [g]


def _numbers(guards: list[Guard], name: str) -> tuple[int, ...]:
    """The numbers the guards named ``name`` (``name(N)``: :func:`parse_guard` gives each its N) compare with."""
    return tuple(sorted({int(g.arg) for g in guards if g.name == name and g.arg is not None}))


def uses(rb: Rulebook) -> Uses:
    windows: list[tuple[str, tuple[str, ...]]] = []
    guards: list[Guard] = []
    for step in rb.spec.steps.values():
        for op in step.operations:
            if op.op == "window":
                windows.append((op.params["id"], tuple(op.params["allows"])))
            guards += _guard(op.when)
        for edge in step.next:
            guards += _guard(edge.when)
    return Uses(tuple(windows), tuple(rb.table("trigger_words")), tuple(dict.fromkeys(g.name for g in guards)),
                _numbers(guards, "cost_x_at_least"), _numbers(guards, "plays_at_least"),
                any(op.op == "window" and op.params.get("after_status") == "last"
                    for step in rb.spec.steps.values() for op in step.operations))
