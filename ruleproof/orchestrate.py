"""What `ruleproof check` runs, as data: load, build the graph, run every available engine.

Engines so far: the structural checks of the phase graph and the property catalogue under
Hypothesis.  Later engines (rulings, exhaustive exploration, Z3) add their :class:`CheckResult`
lists here.

>>> report = run_check()
>>> report.rulebook.spec.id, report.ok
('berserk-rp-4.1-2', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
    properties: list[CheckResult] = field(default_factory=list)
    hypothesis: object | None = None  # generators.run.HypothesisOutcome

    @property
    def results(self) -> list[CheckResult]:
        return [*self.structure, *self.properties]

    @property
    def ok(self) -> bool:
        return all(r.holds for r in self.results)

    def counts(self) -> dict[str, int]:
        ops = [op for n in self.graph for op in self.graph.nodes[n]["operations"]]
        return {"steps": self.graph.number_of_nodes(), "edges": self.graph.number_of_edges(),
                "operations": sum(op["op"] != "window" for op in ops),
                "windows": sum(op["op"] == "window" for op in ops),
                "assumptions": len(self.rulebook.spec.assumptions)}


def run_check(path: str | Path | None = None, examples: int = 0, seed: int | None = None,
              progress=None) -> CheckReport:
    """Structure always; the properties under Hypothesis when ``examples`` > 0."""
    rb = load_rulebook(path)
    G = build_graph(rb)
    report = CheckReport(rb, G, run_structure_checks(G, rb.index))
    if examples > 0:
        from ruleproof.generators.run import hypothesis_pass

        outcome = hypothesis_pass(rb, examples=examples, seed=seed, rulebook_arg=str(path) if path else None,
                                  progress=progress)
        report.properties = outcome.results
        report.hypothesis = outcome
    return report
