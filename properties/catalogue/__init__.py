"""The property catalogue: what the rules mean to guarantee, independently of the rulebook checked.

Each property is a small frozen record — id, clauses, statement in Russian and English — and one
:class:`~.monitor.Monitor`: what it remembers of a run, how each event updates that, when a state is
bad.  Every engine derives from the monitor: the trace predicate :meth:`Property.check`
(:mod:`.monitor_run`, for the interpreter, the explorer, Hypothesis and the rulings) and the Z3 form
(:mod:`.monitor_z3`, for ``prove``).  A monitor reads the events' vocabulary (operation names, the
step *kinds*, the kinds a window admits, the feature played) and the state — never the rulebook, so
a faulty draft is caught.

>>> from ruleproof.model.rulebook import load_rulebook
>>> from ruleproof.model.scenario import load_scenario, run_scenario, shipped_rulings
>>> sc = load_scenario(next(p for p in shipped_rulings() if p.name == "540-kele-attacker.yaml"))
>>> trace = run_scenario(sc, load_rulebook()).trace
>>> [p.id for p in PROPERTIES if p.check(View(trace.events))]
[]
"""

from __future__ import annotations

from typing import Iterable

from ruleproof.ground.errors import Location
from ruleproof.model.rulebook import Citation
from ruleproof.reports.finding import Finding, Verdict

from ..monitor_run import View, Violation
from ..tracker import Track, Tracker
from .core import MAY_DECLARE, PROPERTIES, STEP_ORDER, Property

# the chapters, in the catalogue's order: importing each adds its properties (:func:`.core.prop`); the order
# is the catalogue's (reports, the Z3 system's variables), so the import sorter keeps off it
# isort: off
from . import x542, dice, steps, payment, windows  # noqa: F401 - registration, in this order
# isort: on

__all__ = ["Property", "Violation", "View", "PROPERTIES", "BY_ID", "check_all", "tracker", "violations", "exercised", "not_exercised", "property_citations", "MAY_DECLARE",
           "STEP_ORDER"]

BY_ID: dict[str, Property] = {p.id: p for p in PROPERTIES}


def check_all(events: list, only: Iterable[str] | None = None) -> list[tuple[Property, Violation]]:
    """Every property's violation on a trace (empty: all hold)."""
    wanted = set(only) if only is not None else None
    if wanted is not None and not wanted:
        return []
    props = [p for p in PROPERTIES if wanted is None or p.id in wanted]
    if not events:
        return []
    t = tracker(props, events[0].state)
    return violations(props, t.feed(t.start(), events))


def tracker(props: list[Property], first) -> Tracker:
    """The monitors of ``props`` run together, incrementally, from a world's first state ``first``."""
    return Tracker([p.monitor for p in props], first)


def violations(props: list[Property], track: Track) -> list[tuple[Property, Violation]]:
    """The properties of ``props`` (those the tracker was made with) that ``track`` found violated."""
    return [(p, v) for p, v in zip(props, track.found) if v is not None]


def exercised(props: list[Property], track: Track) -> list[Property]:
    """The properties of ``props`` whose premise held when the run of ``track`` ended (the run played
    the situation the property speaks of)."""
    return [p for p, held in zip(props, track.premised) if held]


def not_exercised(p: Property, engine: str, runs: int, hint: str | dict):
    """The finding of an engine none of whose ``runs`` played the situation property ``p`` speaks of (its
    premise): inconclusive, never "holds" (a vacuous "holds" is no verdict on the rules).  ``hint``: how to
    reach it (a command-line option, the same in both languages, or ``{"ru": …, "en": …}``)."""
    m = p.monitor
    hints = hint if isinstance(hint, dict) else {"ru": hint, "en": hint}
    return Finding(kind="not_exercised", check=p.id, verdict=Verdict.UNKNOWN, engine=engine, clauses=p.clauses, message={
        "en": f"not exercised: in {runs} runs the situation the property speaks of never occurred ({m.premise_en}), "
              f"so «holds» would say nothing; widen the worlds ({hints['en']}) or add a ruling that plays it",
        "ru": f"не проверено: за {runs} прогонов ни разу не возникла ситуация, о которой говорит свойство "
              f"({m.premise_ru}), так что «выполняется» ничего бы не значило; расширьте миры ({hints['ru']}) или "
              f"добавьте разъяснение, которое её разыгрывает"})


def property_citations():
    """A Citation per property (for `clauses --against`: which properties cite a changed clause)."""
    for p in PROPERTIES:
        yield Citation(f"property {p.id}", "property", p.clauses, Location(p.file, p.line))
