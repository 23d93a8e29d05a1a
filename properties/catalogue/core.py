"""What a property is: the record (id, clauses, statements, monitor), how a chapter of the catalogue adds one
(:func:`prop`, in definition order), the step order and the may-declare table the properties read, and the small
pieces monitors are made of."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from pathlib import Path

from ruleproof.model.vocabulary import STEP_KINDS

from ..monitor import Monitor
from ..monitor_run import View, Violation
from ..tracker import run

#: a trace to (the vocabulary's ranks, not the order of the rulebook under test)
STEP_ORDER = tuple(sorted(STEP_KINDS, key=lambda k: STEP_KINDS[k].rank))

#: feature kinds the clauses let players declare at a step kind, with no further condition
MAY_DECLARE = {
    "reroll": ("dice",), "dice_modifier": ("dice",),
    "magnitude_modifier": ("calculation",), "reduce_to_strength": ("calculation",),
    "sudden_action": ("calculation",), "protection": ("calculation",), "prevention": ("calculation",),
    "replacement": ("calculation",), "block": ("blocking",),
}  # 540.4's resource modifications are declared «по общим правилам» (not in the excerpts): no step named


@dataclass(frozen=True)
class Property:
    id: str
    clauses: tuple[str, ...]
    ru: str
    en: str
    monitor: Monitor
    line: int = 0  # where the property is defined (for `clauses --against`)
    #: the clauses whose «must» it holds the rules to (an obligation: it fails when something that must
    #: happen does not), beside what it forbids; () — a prohibition only
    obliges: tuple[str, ...] = ()
    file: str = "properties/catalogue/__init__.py"  # the module it is defined in, as a path of the repository

    def check(self, view: View) -> Violation | None:
        """The property's violation on the trace ``view`` shows, or None."""
        return run(self.monitor, view)


PROPERTIES: list[Property] = []


def prop(pid: str, clauses: tuple[str, ...], ru: str, en: str, monitor: Monitor, obliges: tuple[str, ...] = ()) -> None:
    """A property: ``obliges`` — the clauses (of ``clauses``) whose «must» it holds the rules to."""
    if not set(obliges) <= set(clauses):
        raise ValueError(f"{pid}: obliges {sorted(set(obliges) - set(clauses))}, which it does not cite")
    here = inspect.currentframe()
    caller = here.f_back if here is not None else None
    if caller is None:  # an interpreter without stack frames: nowhere to say the property is defined
        raise RuntimeError(f"{pid}: prop() needs the caller's frame")
    where = f"properties/catalogue/{Path(caller.f_code.co_filename).name}"
    PROPERTIES.append(Property(pid, clauses, ru, en, monitor, caller.f_lineno, obliges, where))


# --- the pieces monitors are made of ------------------------------------------------------------------------

def _true(M, ev, pre, new, h):
    return True


def _on_run(op: str, f):
    """``f``'s update at the events where operation ``op`` ran (None elsewhere: not at this event)."""
    return lambda M, ev, pre, new, h: f(M, ev, pre, new, h) if ev.ran(op) else None


def _fixes(kinds: tuple[str, ...]):
    """The ``fix_x`` events (not skipped) of an X of one of ``kinds``."""
    return lambda ev: ev.ran("fix_x") and ev.param("x") in kinds


