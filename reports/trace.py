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
    """``trace``: a Trace, or a list of event dicts (as in a Finding); ``highlight``: seqs to mark."""
    if not hasattr(trace, "events"):
        return _print_rows(console, trace, lang, title, highlight)
    table = Table(title=title or None)
    for key in ("seq", "step", "clauses", "event", "values", "rule"):
        table.add_column(t(f"trace_{key}", lang), no_wrap=key in ("seq", "step", "rule"),
                         overflow="fold", ratio=3 if key == "values" else None)
    for e in trace.events:
        style = "dim" if e.op in ("pass", "enter", "window_closed") else ""
        event = e.op if e.values.get("skipped") is not True else f"{e.op} ({t('skipped', lang)})"
        values = {k: v for k, v in e.values.items() if k != "skipped"}
        rule = ":".join(e.where.rsplit("/", 1)[-1].split(":")[:2]) if e.where else ""
        cells = (str(e.seq), e.step, ", ".join(e.clauses), event, format_values(values), rule)
        table.add_row(*(Text(c) for c in cells), style="bold red" if e.seq in highlight else style)
    console.print(table)


def _print_rows(console: Console, rows: list[dict], lang: str, title: str, highlight: tuple[int, ...]) -> None:
    table = Table(title=title or None)
    for key in ("seq", "step", "clauses", "event", "values", "rule"):
        table.add_column(t(f"trace_{key}", lang), no_wrap=key in ("seq", "step", "rule"), overflow="fold",
                         ratio=3 if key == "values" else None)
    for r in rows:
        if r["op"] in ("pass", "window_closed") and r["seq"] not in highlight:
            continue  # keep a failing trace short: passes are implied
        rule = ":".join(r["rule"].rsplit("/", 1)[-1].split(":")[:2]) if r.get("rule") else ""
        values = {k: v for k, v in r["values"].items() if k not in ("skipped", "offered")}
        cells = (str(r["seq"]), r["step"], ", ".join(r["clauses"]), r["op"], format_values(values), rule)
        table.add_row(*(Text(c) for c in cells), style="bold red" if r["seq"] in highlight else "")
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
