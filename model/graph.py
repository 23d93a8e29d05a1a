"""The phase graph: a plain ``nx.DiGraph`` of a rulebook's steps.

Nodes are step ids with attributes ``kind``, ``stage``, ``rank``, ``name`` (ru/en), ``cites``,
``assumes``, ``operations`` (list of dicts, in order, windows included), ``where`` and ``terminal``.
Edges carry ``guard``, ``cites``, ``assumes``, ``order`` (their place in the step's ``next``),
``loop`` (the compound-feature loop of 512.6.6), ``refused`` (taken when the declaration does not
stand: 540.2, 542.2) and ``where``.  Graph attributes: ``start``,
``rulebook``, ``assumptions``.

>>> from ruleproof.model.rulebook import load_rulebook
>>> G = build_graph(load_rulebook())
>>> G.graph["start"], G.nodes["dice"]["kind"], G.edges["calculation", "completion"]["guard"]
('declaration', 'dice', 'action_illegal')
>>> [n for n in G if G.nodes[n]["terminal"]]
['handover']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import networkx as nx

from .vocabulary import STEP_KINDS, parse_guard

if TYPE_CHECKING:  # annotations only: the rulebook's loader builds the graph to check reachability
    from .rulebook import Rulebook

__all__ = ["build_graph", "windows", "operations_by_step", "is_guard", "LOOP_GUARD", "REFUSED_GUARD"]

#: the only guard under which an edge may lead back: 512.6.6/b4's compound-feature loop
LOOP_GUARD = "compound_has_next"
#: the guard of a declaration that does not stand (540.2, 542.2): its edge may skip the payment stage
REFUSED_GUARD = "resources_short"


def is_guard(when: str | None, name: str) -> bool:
    """``when`` is the guard word ``name`` itself (not negated).

    >>> is_guard("compound_has_next", LOOP_GUARD), is_guard("not resources_short", REFUSED_GUARD)
    (True, False)
    """
    g = parse_guard(when) if when is not None else None
    return g is not None and g.name == name and not g.negated


def build_graph(rb: Rulebook) -> nx.DiGraph:
    """Build the phase graph of a validated rulebook."""
    G = nx.DiGraph(start=rb.spec.start, rulebook=rb.spec.id, path=rb.path,
                   assumptions={aid: a.model_dump() for aid, a in rb.spec.assumptions.items()},
                   tables={name: {"cites": list(t.cites), "assumes": list(t.assumes),
                                  "where": str(rb.where(("tables", name))), "rows": t.rows}
                           for name, t in rb.spec.tables.items()})
    for sid, step in rb.spec.steps.items():
        kind = STEP_KINDS[step.kind]
        ops = []
        for i, op in enumerate(step.operations):
            entry = {"op": op.op, "cites": list(op.cites), "assumes": list(op.assumes), "when": op.when,
                     "where": str(rb.where(("steps", sid, "operations", i))), **op.params}
            ops.append(entry)
        G.add_node(sid, kind=step.kind, stage=kind.stage, rank=kind.rank, name=step.name.model_dump(),
                   cites=list(step.cites), assumes=list(step.assumes), operations=ops,
                   where=str(rb.where(("steps", sid))), terminal=kind.terminal)
    for sid, step in rb.spec.steps.items():
        for i, edge in enumerate(step.next):
            G.add_edge(sid, edge.to, guard=str(parse_guard(edge.when)), cites=list(edge.cites),
                       assumes=list(edge.assumes), order=i, where=str(rb.where(("steps", sid, "next", i))),
                       loop=is_guard(edge.when, LOOP_GUARD), refused=is_guard(edge.when, REFUSED_GUARD))
    return G


def windows(G: nx.DiGraph, step: str) -> list[dict]:
    """The priority windows of a step, in order.

    >>> from ruleproof.model.rulebook import load_rulebook
    >>> [w["id"] for w in windows(build_graph(load_rulebook()), "dice")]
    ['reroll', 'dice_modifiers']
    """
    return [op for op in G.nodes[step]["operations"] if op["op"] == "window"]


def operations_by_step(G: nx.DiGraph) -> dict[str, list[dict]]:
    """Step id → its ordered operations: the index interpreters and explorers dispatch on."""
    return {n: list(G.nodes[n]["operations"]) for n in G}
