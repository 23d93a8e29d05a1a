"""Structural checks over the phase graph: free functions, each returning findings.

Each check is registered as a :class:`StructureCheck` record (id, clauses, statement ru/en, the
function).  ``run_structure_checks`` runs them all.

>>> from ruleproof.model.rulebook import load_rulebook
>>> from ruleproof.model.graph import build_graph
>>> results = run_structure_checks(build_graph(load_rulebook()))
>>> [(r.check, r.holds) for r in results][:3]
[('S1-reachable', True), ('S2-reaches-payment-end', True), ('S3-execution-order', True)]
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

import networkx as nx

from ruleproof.reports.finding import CheckResult, Finding, Verdict

from .clauses import ClauseIndex, default_index
from .vocabulary import EXECUTION_ORDER, FEATURE_KINDS, OPERATIONS, STEP_KINDS

__all__ = ["StructureCheck", "STRUCTURE_CHECKS", "run_structure_checks", "unreachable_steps",
           "check_reachable", "check_reaches_payment_end", "check_execution_order", "check_cycles",
           "check_priority", "check_citations", "check_placement", "check_die_faces"]

Check = Callable[[nx.DiGraph, ClauseIndex], list[Finding]]


@dataclass(frozen=True)
class StructureCheck:
    id: str
    clauses: tuple[str, ...]
    ru: str
    en: str
    run: Check


STRUCTURE_CHECKS: list[StructureCheck] = []


def _check(check_id: str, clauses: tuple[str, ...], ru: str, en: str) -> Callable[[Check], Check]:
    """Attach a StructureCheck record for ``fn`` to the registry; return ``fn`` unchanged."""

    def attach(fn: Check) -> Check:
        STRUCTURE_CHECKS.append(StructureCheck(check_id, clauses, ru, en, fn))
        return fn

    return attach


def _finding(check: str, clauses, ru: str, en: str, element: str = "", where: str | None = None,
             assumptions=()) -> Finding:
    return Finding(kind="structure", check=check, verdict=Verdict.VIOLATED, engine="graph",
                   clauses=tuple(dict.fromkeys(clauses)), message={"ru": ru, "en": en}, element=element,
                   where=where, assumptions=tuple(assumptions))


def _name(G: nx.DiGraph, n: str, lang: str) -> str:
    return f"{n} ({G.nodes[n]['name'][lang]})"


def unreachable_steps(G: nx.DiGraph) -> list[str]:
    """Steps that no path from the start step reaches, in rulebook order."""
    seen = nx.descendants(G, G.graph["start"]) | {G.graph["start"]}
    return [n for n in G if n not in seen]


@_check("S1-reachable", ("512.5/t1", "512.6.1"),
        "каждый шаг достижим из объявления", "every step is reachable from the declaration")
def check_reachable(G: nx.DiGraph, index: ClauseIndex) -> list[Finding]:
    return [_finding("S1-reachable", G.nodes[n]["cites"] + ["512.6.1"],
                     f"шаг {_name(G, n, 'ru')} недостижим из начального шага {G.graph['start']}",
                     f"step {_name(G, n, 'en')} cannot be reached from the start step {G.graph['start']}",
                     f"step {n}", G.nodes[n]["where"]) for n in unreachable_steps(G)]


@_check("S2-reaches-payment-end", ("512.6.6/b4", "512.7", "512.7/b3", "540.2"),
        "из каждого шага можно дойти до конца оплаты, и всякий путь к концу, кроме несостоявшегося объявления, "
        "проходит этап оплаты",
        "every step can reach the end of payment, and every path to the end but a refused declaration's passes "
        "the payment stage")
def check_reaches_payment_end(G: nx.DiGraph, index: ClauseIndex) -> list[Finding]:
    out = []
    ends = [n for n in G if G.nodes[n]["terminal"]]
    payments = [n for n in G if G.nodes[n]["kind"] == "payment"]
    can_end = set(ends).union(*(nx.ancestors(G, e) for e in ends)) if ends else set()
    for n in G:
        if n not in can_end:
            out.append(_finding("S2-reaches-payment-end", G.nodes[n]["cites"] + ["512.6.6/b4", "512.7/b3"],
                                f"из шага {_name(G, n, 'ru')} нельзя дойти до конца этапа оплаты",
                                f"from step {_name(G, n, 'en')} the end of the payment stage cannot be reached",
                                f"step {n}", G.nodes[n]["where"]))
    # a refused declaration (540.2, 542.2) has nothing to pay: its edge is not a path of an action
    H = nx.subgraph_view(G, filter_node=lambda n: n not in payments,
                         filter_edge=lambda u, v: not G.edges[u, v].get("refused"))
    start = G.graph["start"]
    for e in ends:
        if start in H and e in H and nx.has_path(H, start, e):
            path = nx.shortest_path(H, start, e)
            out.append(_finding("S2-reaches-payment-end", ["512.6.6/b4", "512.7"],
                                f"путь {' → '.join(path)} доходит до конца, минуя этап оплаты",
                                f"the path {' → '.join(path)} reaches the end without the payment stage",
                                f"step {e}", G.nodes[e]["where"]))
    return out


@_check("S3-execution-order", ("512.6.1", "512.5/t1", "512.6.6/b4"),
        "этап выполнения состоит из шагов 512.6.1 в их порядке; заявка до них, оплата после",
        "the execution stage has 512.6.1's steps in their order; the claim before them, payment after")
def check_execution_order(G: nx.DiGraph, index: ClauseIndex) -> list[Finding]:
    out = []
    kinds = {G.nodes[n]["kind"] for n in G}
    for i, kind in enumerate(EXECUTION_ORDER, 1):
        if kind not in kinds:
            k = STEP_KINDS[kind]
            out.append(_finding("S3-execution-order", (f"512.6.1/b{i}", "512.6.1"),
                                f"в этапе выполнения нет шага «{k.ru}» (512.6.1/b{i})",
                                f"the execution stage has no {k.en} (512.6.1/b{i})", "rulebook"))
    for u, v, d in G.edges(data=True):
        if d["loop"]:
            continue
        ru_, rv = G.nodes[u]["rank"], G.nodes[v]["rank"]
        if rv <= ru_:
            ku, kv = STEP_KINDS[G.nodes[u]["kind"]], STEP_KINDS[G.nodes[v]["kind"]]
            out.append(_finding("S3-execution-order", ("512.6.1", *ku.cites, *kv.cites, *d["cites"]),
                                f"переход {u} → {v} ведёт из «{ku.ru}» назад или на месте — в «{kv.ru}»",
                                f"the edge {u} → {v} goes from the {ku.en} back (or sideways) to the {kv.en}",
                                f"edge {u} → {v}", d["where"]))
    return out


@_check("S4-no-cycle", ("512.6.6/b4",),
        "циклов нет, кроме возврата составной особенности к формированию заявки",
        "no cycle except a compound feature's return to claim forming")
def check_cycles(G: nx.DiGraph, index: ClauseIndex) -> list[Finding]:
    out = []
    for u, v, d in G.edges(data=True):
        if d["loop"] and G.nodes[v]["kind"] != "declaration":
            out.append(_finding("S4-no-cycle", ("512.6.6/b4", *d["cites"]),
                                f"возврат составной особенности {u} → {v} ведёт не к формированию заявки",
                                f"the compound-feature return {u} → {v} does not lead to claim forming",
                                f"edge {u} → {v}", d["where"]))
    H = nx.DiGraph([(u, v) for u, v, d in G.edges(data=True) if not d["loop"]])
    reported = set()
    for cycle in sorted(nx.simple_cycles(H), key=len):  # one finding per back edge, its shortest cycle
        edges = list(zip(cycle, cycle[1:] + cycle[:1]))
        back = [e for e in edges if G.nodes[e[1]]["rank"] <= G.nodes[e[0]]["rank"]]
        u, v = (back or edges[-1:])[0]
        if (u, v) in reported:
            continue
        reported.add((u, v))
        at = cycle.index(v)
        cycle = cycle[at:] + cycle[:at]
        d = G.edges[u, v]
        loop = " → ".join(cycle + [cycle[0]])
        out.append(_finding("S4-no-cycle", ("512.6.6/b4", *d["cites"]),
                            f"цикл {loop} не является возвратом составной особенности (условие {LOOP})",
                            f"the cycle {loop} is not a compound feature's return (guard {LOOP})",
                            f"edge {u} → {v}", d["where"]))
    return out


LOOP = "compound_has_next"


@_check("S5-active-player-first", ("512.6.2/b2", "512.6.2/b3", "512.6.3/b1", "512.6.4/b1", "512.6.6/b1"),
        "в каждом окне приоритет первым получает Активный Игрок",
        "in every window the active player gets priority first")
def check_priority(G: nx.DiGraph, index: ClauseIndex) -> list[Finding]:
    out = []
    for n in G:
        for op in G.nodes[n]["operations"]:
            if op["op"] == "window" and op.get("first") != "active_player":
                out.append(_finding("S5-active-player-first", op["cites"] or G.nodes[n]["cites"],
                                    f"в окне {op['id']} шага {n} первым приоритет получает не Активный Игрок",
                                    f"in window {op['id']} of step {n} the active player does not get priority first",
                                    f"step {n} / window {op['id']}", op["where"]))
    return out


@_check("S6-citations", ("512.6", "540", "542"),
        "каждый элемент ссылается на известный пункт; пункт вне выдержек — только через допущение",
        "every element cites a known clause; a clause outside the excerpts only through an assumption")
def check_citations(G: nx.DiGraph, index: ClauseIndex) -> list[Finding]:
    out = []
    assumptions = G.graph.get("assumptions", {})

    def visit(element: str, cites: list[str], assumes: list[str], where: str) -> None:
        if not cites:
            out.append(_finding("S6-citations", (), f"{element}: нет ни одной ссылки на пункт правил",
                                f"{element}: cites no clause", element, where))
        for cid in cites:
            if cid not in index:
                out.append(_finding("S6-citations", (), f"{element}: неизвестный пункт {cid}",
                                    f"{element}: unknown clause {cid}", element, where))
            elif index.needs_assumption(cid) and not any(
                    index.covers(about, cid) or index.covers(cid, about)
                    for aid in assumes for about in assumptions.get(aid, {}).get("about", ())):
                out.append(_finding("S6-citations", (cid,),
                                    f"{element}: пункт {cid} отсутствует в выдержках, но допущение не указано",
                                    f"{element}: clause {cid} is not in the excerpts, yet no assumption is given",
                                    element, where))

    for n in G:
        node = G.nodes[n]
        visit(f"step {n}", node["cites"], node["assumes"], node["where"])
        for i, op in enumerate(node["operations"], 1):
            visit(f"step {n} / op {i} {op['op']}", op["cites"], op["assumes"] + node["assumes"], op["where"])
    for u, v, d in G.edges(data=True):
        visit(f"edge {u} → {v}", d["cites"], d["assumes"], d["where"])
    for name, t in G.graph.get("tables", {}).items():
        visit(f"table {name}", t["cites"], t["assumes"], t["where"])
    return out


@_check("S7-placement", ("542.2", "542.3", "542.4", "542.5", "512.6.2", "512.6.3", "512.6.4", "512.6.6", "512.7"),
        "каждая операция и каждый вид особенности — только в шаге, где его допускает его пункт",
        "every operation and feature kind appears only in a step where its clause allows it")
def check_placement(G: nx.DiGraph, index: ClauseIndex) -> list[Finding]:
    out = []
    for n in G:
        kind = G.nodes[n]["kind"]
        for i, op in enumerate(G.nodes[n]["operations"], 1):
            params = {k: v for k, v in op.items() if k not in ("op", "cites", "assumes", "when", "where")}
            allowed, clauses = OPERATIONS[op["op"]].placement(params)
            label = op["op"] + (f" {op['x']}" if "x" in op else "")
            if allowed is not None and kind not in allowed:
                out.append(_finding("S7-placement", clauses,
                                    f"операция {label} стоит в шаге {n} ({STEP_KINDS[kind].ru}), а {', '.join(clauses)} "
                                    f"допускает её только в: {', '.join(STEP_KINDS[a].ru for a in allowed)}",
                                    f"operation {label} is in step {n} ({STEP_KINDS[kind].en}), but "
                                    f"{', '.join(clauses)} allows it only in: {', '.join(STEP_KINDS[a].en for a in allowed)}",
                                    f"step {n} / op {i} {label}", op["where"]))
            for feat in op.get("allows", []) if op["op"] == "window" else []:
                fk = FEATURE_KINDS[feat]
                if kind not in fk.steps:
                    out.append(_finding("S7-placement", fk.cites,
                                        f"окно {op['id']} шага {n} допускает «{fk.ru}», а {', '.join(fk.cites)} "
                                        f"допускает их только в: {', '.join(STEP_KINDS[a].ru for a in fk.steps)}",
                                        f"window {op['id']} of step {n} admits {fk.en}, but {', '.join(fk.cites)} "
                                        f"allows them only in: {', '.join(STEP_KINDS[a].en for a in fk.steps)}",
                                        f"step {n} / window {op['id']}", op["where"]))
    return out


def run_structure_checks(G: nx.DiGraph, index: ClauseIndex | None = None) -> list[CheckResult]:
    """Run every registered structural check on ``G``."""
    index = index or default_index()
    out = []
    for c in STRUCTURE_CHECKS:
        started = time.perf_counter()
        findings = tuple(c.run(G, index))
        out.append(CheckResult(c.id, c.clauses, {"ru": c.ru, "en": c.en}, "graph", findings,
                               seconds=time.perf_counter() - started))
    return out


@_check("S8-die-faces", ("512.6.2/b1", "512.6.2/b3", "512.6.2/b4.1.1"),
        "у каждой грани кубика есть строка в таблице ударов, каждая строка — грань кубика, и модификаторы броска "
        "не выводят итоговый бросок за грани",
        "every face of the die has a row in the strike table, every row is a face of the die, and the dice "
        "modifiers do not take the final die beyond the faces")
def check_die_faces(G: nx.DiGraph, index: ClauseIndex) -> list[Finding]:
    """The strike table (512.6.2/b4.1.1) is read by the die's value (512.6.2/b1, section 306): a face
    without a row leaves a roll with no result, a row without a face is dead text.  The final die is the
    value with the dice modifiers (512.6.2/b3): applied without the clamp to the faces (A-die-clamp), a
    «+1» on the highest face or a «−1» on the lowest gives a value no row reads.

    >>> G = nx.DiGraph(tables={"die_faces": {"rows": {"min": 1, "max": 5}, "where": "d.yaml:1"},
    ...                        "strike_table": {"rows": {str(k): [] for k in range(1, 7)}, "where": "d.yaml:2",
    ...                                         "assumes": ["A-strike-table"]}})
    >>> [f.message["en"] for f in check_die_faces(G, None)]
    ['the strike table has rows for 6, which the die (1–5) never shows']
    """
    tables = G.graph.get("tables", {})
    die, strike = tables.get("die_faces"), tables.get("strike_table")
    if not die or not strike:
        return []
    lo, hi = die["rows"]["min"], die["rows"]["max"]
    faces = set(range(lo, hi + 1))
    rows = {int(k) for k in strike["rows"] if str(k).lstrip("-").isdigit()}
    assumes = (*die.get("assumes", ()), *strike.get("assumes", ()))
    extra, missing = (", ".join(map(str, sorted(x))) for x in (rows - faces, faces - rows))
    texts = ((extra, f"в таблице ударов есть строки для {extra}, а кубик ({lo}–{hi}) таких граней не имеет",
              f"the strike table has rows for {extra}, which the die ({lo}–{hi}) never shows"),
             (missing, f"для граней {missing} кубика ({lo}–{hi}) в таблице ударов нет строки",
              f"the strike table has no row for the die's faces {missing} (die {lo}–{hi})"))
    out = [_finding("S8-die-faces", ("512.6.2/b4.1.1", "512.6.2/b1"), ru, en, "table strike_table", strike["where"],
                    assumes) for which, ru, en in texts if which]
    for n in G:
        for i, op in enumerate(G.nodes[n].get("operations", ()), 1):
            if op["op"] == "apply_dice_modifiers" and op.get("unclamped"):
                out.append(_finding(
                    "S8-die-faces", ("512.6.2/b3", "512.6.2/b4.1.1"),
                    f"модификаторы броска применяются без ограничения гранями (unclamped): итоговый бросок {hi} + 1 = "
                    f"{hi + 1} или {lo} − 1 = {lo - 1} не имеет строки в таблице ударов ({lo}–{hi}); уберите unclamped "
                    "(допущение A-die-clamp) или дайте таблице строки для таких значений",
                    f"the dice modifiers are applied without the clamp to the faces (unclamped): a final die of {hi} + 1 "
                    f"= {hi + 1} or {lo} − 1 = {lo - 1} has no row in the strike table ({lo}–{hi}); drop unclamped "
                    "(assumption A-die-clamp) or give the table rows for such values",
                    f"step {n} / op {i} apply_dice_modifiers", op["where"], assumes))
    return out
