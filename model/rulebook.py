"""Load and validate a rulebook file; every problem is a RuleproofError with file:line.

>>> rb = load_rulebook()            # the bundled rules, РП 4.1-2
>>> rb.spec.start, len(rb.spec.steps) >= 9
('declaration', True)
>>> where = rb.where(("steps", "dice"))
>>> open(where.file, encoding="utf-8").read().splitlines()[where.line - 1]
'  dice:'

"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from pydantic import ValidationError

from ruleproof.ground.errors import Location, RuleproofError

from .clauses import ClauseIndex, default_index
from .graph import build_graph
from .loader_errors import from_pydantic
from .rulebook_checks import _Semantics
from .schema import FORMAT, RulebookSpec
from .structure import unreachable_steps
from .yaml_source import LocMap, load_yaml, load_yaml_text

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["Rulebook", "Citation", "load_rulebook", "load_rulebook_text", "bundled_rulebook_path", "BUNDLED",
           "validate_data"]

BUNDLED = "berserk-rp-4.1-2.yaml"


@dataclass(frozen=True)
class Citation:
    """One model element and the clauses it cites (for `clauses --against` and coverage)."""

    element: str  # e.g. "step dice", "step dice / op 2 roll_die", "edge dice → calculation"
    kind: str  # step | operation | window | edge | table | assumption | reading
    clauses: tuple[str, ...]
    where: Location


@dataclass
class Rulebook:
    """A validated rulebook: its spec, where each part was written, and the clause index used."""

    spec: RulebookSpec
    locs: LocMap
    path: str
    index: ClauseIndex = field(default_factory=default_index)
    data: dict | None = field(default=None, repr=False, compare=False)  # as loaded (for readings' patches)

    def where(self, path: tuple) -> Location:
        return self.locs.at(path)

    @cached_property
    def graph(self) -> nx.DiGraph:
        """The phase graph (:func:`.graph.build_graph`), built once per rulebook: every engine and report
        of a run reads this one (nothing changes a graph once built)."""
        return build_graph(self)

    def table(self, name: str) -> dict:
        """A table's rows with string keys (``strike_table``: die → [strength, return strength])."""
        return {str(getattr(k, "raw", k)): v for k, v in self.spec.tables[name].rows.items()}

    def citations(self) -> Iterator[Citation]:
        for aid, a in self.spec.assumptions.items():
            yield Citation(f"assumption {aid}", "assumption", tuple(a.about), self.where(("assumptions", aid)))
        for rid, r in self.spec.readings.items():
            yield Citation(f"reading {rid}", "reading", tuple(r.about), self.where(("readings", rid)))
        for name, table in self.spec.tables.items():
            yield Citation(f"table {name}", "table", tuple(table.cites), self.where(("tables", name)))
        for sid, step in self.spec.steps.items():
            yield Citation(f"step {sid}", "step", tuple(step.cites), self.where(("steps", sid)))
            for i, op in enumerate(step.operations):
                kind = "window" if op.op == "window" else "operation"
                label = f"window {op.params.get('id')}" if kind == "window" else f"op {i + 1} {op.op}"
                yield Citation(f"step {sid} / {label}", kind, tuple(op.cites),
                               self.where(("steps", sid, "operations", i)))
            for i, edge in enumerate(step.next):
                yield Citation(f"edge {sid} → {edge.to}", "edge", tuple(edge.cites),
                               self.where(("steps", sid, "next", i)))


def bundled_rulebook_path() -> Path:
    return Path(str(resources.files("ruleproof.rulebooks").joinpath(BUNDLED)))


def load_rulebook(path: str | Path | None = None, index: ClauseIndex | None = None,
                  check_reachable: bool = True) -> Rulebook:
    """Load a rulebook file (default: the bundled one) and validate it fully."""
    path = bundled_rulebook_path() if path is None else path
    data, locs = load_yaml(path, "rulebook")
    return _validate(data, locs, str(path), index or default_index(), check_reachable)


def load_rulebook_text(text: str, name: str = "<input>", index: ClauseIndex | None = None,
                       check_reachable: bool = True) -> Rulebook:
    data, locs = load_yaml_text(text, name, "rulebook")
    return _validate(data, locs, name, index or default_index(), check_reachable)


def validate_data(data: Any, locs: LocMap, name: str, index: ClauseIndex, check_reachable: bool = True) -> Rulebook:
    """A rulebook from already loaded data (``locs``: where each part was written), validated fully."""
    return _validate(data, locs, name, index, check_reachable)


def _validate(data: Any, locs: LocMap, name: str, index: ClauseIndex, check_reachable: bool) -> Rulebook:
    if not isinstance(data, dict):
        raise RuleproofError("RP108", locs.at(()), found=type(data).__name__)
    fmt = data.get("format")
    if fmt is not None and str(getattr(fmt, "raw", fmt)) != FORMAT:
        raise RuleproofError("RP132", locs.at(("format",)), found=fmt, expected=FORMAT)
    try:
        spec = RulebookSpec.model_validate(data)
    except ValidationError as exc:
        raise from_pydantic(exc, locs, RulebookSpec) from None
    rb = Rulebook(spec, locs, name, index, data)
    _Semantics(rb).run()
    if check_reachable:
        for sid in unreachable_steps(rb.graph):
            raise RuleproofError("RP126", rb.where(("steps", sid)), step=sid, start=spec.start)
    return rb
