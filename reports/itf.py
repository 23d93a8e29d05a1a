"""ITF writer: every counterexample trace in the Informal Trace Format of Apalache and Quint
(ADR-015), one ``<check>.itf.json`` file each, so existing trace tools open them.

A state is one event of the trace: the variable ``event`` (seq, step, op, clauses as a set, values as
a map, the rulebook line, whether it is an offending event) and the game state after it (``cards`` — a map
by card id —, ``action``, ``active_player``, ``step``, ``visited``, …), rebuilt from the events'
state diffs.  Encoding as ADR-015 (revision 2023-09-14) asks: every integer ``{"#bigint": "…"}``,
sets ``{"#set": […]}``, maps ``{"#map": [[k, v], …]}``, tuples ``{"#tup": […]}``, records as JSON
objects, sequences as JSON arrays.  ITF has no null: a state field that is absent in some state of
the trace is, in every state, a sequence of at most one element (``[]`` or ``[v]``, the TLA+ idiom
for an optional value — readers such as itf-py take it as it is, where a variant's tag ``None`` or a
non-record payload trips them); in an event's values an absent value simply has no key.

>>> encode(3), encode([["kele", "close", 1]]), encode(True)
({'#bigint': '3'}, [{'#tup': ['kele', 'close', {'#bigint': '1'}]}], True)
>>> encode({"die_raw": None}, optional=frozenset({("die_raw",)})), encode({"die_raw": 4}, optional=frozenset({("die_raw",)}))
({'die_raw': []}, {'die_raw': [{'#bigint': '4'}]})
"""

from __future__ import annotations

import json

from .bundle import ClauseText, Report
from .common import file_stem
from .finding import Finding
from .trace import states_from_trace

__all__ = ["render", "trace_to_itf", "encode", "FORMAT_URL"]

FORMAT_URL = "https://apalache-mc.org/docs/adr/015adr-trace.html"
#: state fields that are maps (keyed by card id, property name, X name, feature id)
_MAPS = ("cards", "printed", "modifiers", "resources", "uses", "xs", "modifications")


def encode(v, path: tuple = (), optional: frozenset = frozenset(), nested: bool = False, maps: bool = False,
           _present: bool = False):
    """A plain value as an ITF value; ``optional``: the paths whose values may be absent (``[]``/``[v]``);
    ``maps``: every dict is a map (for free-form keys such as an event's values: ``from``, ``to``…)."""
    if path in optional and not _present:
        return [] if v is None else [encode(v, path, optional, nested, maps, _present=True)]
    if v is None:
        return {"#unserializable": "null"}
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return {"#bigint": str(v)}
    if isinstance(v, float):
        return {"#unserializable": repr(v)}
    if isinstance(v, str):
        return v
    if isinstance(v, (list, tuple)):
        items = [encode(i, path + ("#item",), optional, True, maps) for i in v]
        return {"#tup": items} if nested else items
    if isinstance(v, dict):
        if maps or (path and path[-1] in _MAPS):
            return {"#map": [[k, encode(x, path + (k,), optional, False, maps)] for k, x in sorted(v.items())
                             if not (maps and x is None)]}  # in a free-form map an absent value has no key
        return {str(k): encode(x, path + (str(k),), optional) for k, x in v.items()}
    return {"#unserializable": str(v)}


def _paths(v, path: tuple = ()):
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, path + (str(k),))
    else:
        yield path, v


def trace_to_itf(f: Finding, source: str = "") -> dict:
    """One counterexample as an ITF trace document."""
    rows = list(f.trace)
    states = states_from_trace(rows)
    optional = frozenset(p for s in states for p, v in _paths(s) if v is None)
    state_vars = sorted({k for s in states for k in s})
    out_states = []
    for i, (r, s) in enumerate(zip(rows, states)):
        event = {"seq": {"#bigint": str(r["seq"])}, "step": r["step"], "op": r["op"],
                 "clauses": {"#set": sorted(r["clauses"])}, "values": encode(r["values"], ("values",), maps=True),
                 "rule": r.get("rule") or "", "offending": r["seq"] in f.highlight}
        state = {"#meta": {"index": i}, "event": event}
        for k in state_vars:
            state[k] = encode(s.get(k), (k,), optional)
        out_states.append(state)
    meta = {"format": "ITF", "format-description": FORMAT_URL, "source": source,
            "description": f"ruleproof counterexample to {f.check}: {f.text('en')}",
            "ruleproof": {"check": f.check, "kind": f.kind, "engine": f.engine, "verdict": f.verdict,
                          "clauses": list(f.clauses), "offending": list(f.highlight), "replay": f.replay,
                          "seed": f.seed, "scenario": f.scenario, "message": dict(f.message),
                          "optional": [list(p) for p in sorted(optional)]}}
    return {"#meta": meta, "vars": ["event", *state_vars], "states": out_states}


def render(report: Report, lang: str, clause_text: ClauseText) -> dict[str, str]:
    """One ``<check>.itf.json`` per counterexample (``<check>-2.itf.json`` … when a check has several)."""
    out: dict[str, str] = {}
    ces = report.counterexamples
    totals = {c: sum(f.check == c for f in ces) for c in {f.check for f in ces}}
    seen: dict[str, int] = {}
    for f in ces:
        n = seen.get(f.check, 0)
        seen[f.check] = n + 1
        name = f"{file_stem(f.check, n, totals[f.check])}.itf.json"
        doc = trace_to_itf(f, report.rulebook.get("path", ""))
        out[name] = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    return out
