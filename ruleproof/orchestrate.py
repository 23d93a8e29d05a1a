"""What `ruleproof check` runs, as data: load, build the graph, run every available engine.

Engines so far: the structural checks of the phase graph.  Later engines (rulings, Hypothesis,
exhaustive exploration, Z3) add their :class:`CheckResult` lists here.

>>> report = run_check()
>>> report.rulebook.spec.id, report.ok
('berserk-rp-4.1-2', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import networkx as nx

from ruleproof.model.graph import build_graph
from ruleproof.model.rulebook import Rulebook, load_rulebook
from ruleproof.model.structure import run_structure_checks
from ruleproof.reports.finding import CheckResult

__all__ = ["CheckReport", "run_check"]


@dataclass
class CheckReport:
    rulebook: Rulebook
    graph: nx.DiGraph
    structure: list[CheckResult]

    @property
    def results(self) -> list[CheckResult]:
        return list(self.structure)

    @property
    def ok(self) -> bool:
        return all(r.holds for r in self.results)

    def counts(self) -> dict[str, int]:
        ops = [op for n in self.graph for op in self.graph.nodes[n]["operations"]]
        return {"steps": self.graph.number_of_nodes(), "edges": self.graph.number_of_edges(),
                "operations": sum(op["op"] != "window" for op in ops),
                "windows": sum(op["op"] == "window" for op in ops),
                "assumptions": len(self.rulebook.spec.assumptions)}


def run_check(path: str | Path | None = None) -> CheckReport:
    rb = load_rulebook(path)
    G = build_graph(rb)
    return CheckReport(rb, G, run_structure_checks(G, rb.index))
