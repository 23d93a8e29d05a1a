"""Trace writer: an interpreter trace as a table a judge can read (step, clauses, event, values)."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ruleproof.i18n import t

__all__ = ["print_trace", "format_values", "trace_to_json"]


def format_values(values: dict) -> str:
    """``{'die': 4, 'applied': ()}`` → ``die=4``; empty values are left out."""
    parts = []
    for k, v in values.items():
        if v in ((), [], None, ""):
            continue
        if isinstance(v, (tuple, list)):
            v = ", ".join(":".join(map(str, i)) if isinstance(i, (tuple, list)) else str(i) for i in v)
        parts.append(f"{k}={v}")
    return "; ".join(parts)


def print_trace(console: Console, trace, lang: str, title: str = "", highlight: tuple[int, ...] = ()) -> None:
    """A Trace, or its events as dicts (as a Finding keeps them); ``highlight``: seqs to mark.
    A counterexample (a list of dicts) is shown compact: passes and window closings are implied."""
    compact = not hasattr(trace, "events")
    rows = trace if compact else trace_to_json(trace)
    table = Table(title=title or None)
    for key in ("seq", "step", "clauses", "event", "values", "rule"):
        table.add_column(t(f"trace_{key}", lang), no_wrap=key in ("seq", "step", "rule"), overflow="fold",
                         ratio=3 if key == "values" else None)
    for r in rows:
        if compact and r["op"] in ("pass", "window_closed") and r["seq"] not in highlight:
            continue
        values = {k: v for k, v in r["values"].items() if k not in ("skipped", "offered")}
        event = r["op"] if r["values"].get("skipped") is not True else f"{r['op']} ({t('skipped', lang)})"
        rule = ":".join(r["rule"].rsplit("/", 1)[-1].split(":")[:2]) if r.get("rule") else ""
        style = "bold red" if r["seq"] in highlight else ("dim" if r["op"] in ("pass", "enter", "window_closed") else "")
        cells = (str(r["seq"]), r["step"], ", ".join(r["clauses"]), event, format_values(values), rule)
        table.add_row(*(Text(c) for c in cells), style=style)
    console.print(table)


def trace_to_json(trace) -> list[dict]:
    """A trace (or its list of events) as plain JSON-ready dicts."""
    def plain(v):
        if isinstance(v, (tuple, list)):
            return [plain(i) for i in v]
        return v

    return [{"seq": e.seq, "step": e.step, "op": e.op, "clauses": list(e.clauses), "assumes": list(e.assumes),
             "rule": e.where,
             "values": {k: plain(v) for k, v in e.values.items()}} for e in getattr(trace, "events", trace)]
