"""One game played on two rulebooks (a draft and its base, or two readings), side by side: a few
events either side of the first one where the plays part, that one marked ▶ (:data:`.trace.MARK`)
— the same rows in the terminal, Markdown and HTML.

``d`` is a difference as :mod:`ruleproof.diff` finds it: ``first`` (the index of the first event
that differs) and the two runs' events (``base_events``, ``draft_events``).

>>> from types import SimpleNamespace as E
>>> ev = lambda op: E(step="payment", op=op, values={})
>>> d = E(first=1, base_events=[ev("enter"), ev("pay_reserved")], draft_events=[ev("enter"), ev("give_action_marker")])
>>> side_rows(d)
[(0, 'payment · enter · ', 'payment · enter · '), (1, 'payment · pay_reserved · ', 'payment · give_action_marker · ')]
>>> side_markdown(d, ("base", "draft"))[-1]
'| **▶ 1** | payment · pay_reserved ·  | payment · give_action_marker ·  |'
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text

from .html_report import _e, _table
from .trace import MARK, format_values

__all__ = ["side_rows", "side_table", "side_markdown", "side_html"]

#: events shown either side of the first difference
AROUND = 4


def _cells(e, lang: str) -> tuple[str, str, str]:
    values = {k: v for k, v in e.values.items() if k not in ("offered",)}
    return e.step, e.op, format_values(values, lang)


def side_rows(d, lang: str = "en") -> list[tuple[int, str, str]]:
    """(seq, one run's event, the other's) around the first event where the two runs part ("—": none)."""
    end = min(max(len(d.base_events), len(d.draft_events)), d.first + AROUND)

    def cell(events, k: int) -> str:
        return " · ".join(_cells(events[k], lang)) if k < len(events) else "—"

    return [(k, cell(d.base_events, k), cell(d.draft_events, k)) for k in range(max(0, d.first - AROUND), end)]


def _seq(k: int, d) -> str:
    return f"{MARK} {k}" if k == d.first else str(k)


def side_table(d, lang: str, title: str, heads: tuple[str, str, str]) -> Table:
    """The rows as a rich table (``heads``: the seq column's and each run's heading), the first
    difference in bold red."""
    table = Table(title=title)
    for i, head in enumerate(heads):
        table.add_column(head, overflow="fold", ratio=None if i == 0 else 1)
    for k, a, b in side_rows(d, lang):
        table.add_row(Text(_seq(k, d)), Text(a), Text(b), style="bold red" if k == d.first else "")
    return table


def side_markdown(d, heads: tuple[str, str], lang: str = "en") -> list[str]:
    """The rows as a Markdown table (``heads``: each run's heading), the first difference in bold."""
    def cell(x: str) -> str:
        return x.replace("|", "\\|")

    lines = [f"| # | {cell(heads[0])} | {cell(heads[1])} |", "| --- | --- | --- |"]
    for k, a, b in side_rows(d, lang):
        seq = f"**{_seq(k, d)}**" if k == d.first else str(k)
        lines.append(f"| {seq} | {cell(a)} | {cell(b)} |")
    return lines


def side_html(d, heads: tuple[str, str], lang: str = "en") -> str:
    """The rows as an HTML table (``heads``: each run's heading), the first difference ``on-path``."""
    rows = [(' class="on-path"' if k == d.first else "", [_e(_seq(k, d)), _e(a), _e(b)])
            for k, a, b in side_rows(d, lang)]
    return _table(["#", *heads], rows, "rp-side")
