"""Terminal writer (rich): summary table of checks, findings with locations and clause texts."""

from __future__ import annotations

from typing import Callable

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ruleproof.i18n import t

from .finding import CheckResult

__all__ = ["print_check_results", "print_assumptions"]

ClauseText = Callable[[str], str | None]


def print_check_results(console: Console, title: str, results: list[CheckResult], lang: str,
                        clause_text: ClauseText) -> None:
    """One row per check, then each finding: where, element, message, and the clauses it cites."""
    table = Table(title=title, show_lines=False)
    table.add_column(t("check", lang), no_wrap=True)
    table.add_column(t("clauses", lang))
    table.add_column(t("statement", lang))
    table.add_column(t("result", lang), no_wrap=True)
    for r in results:
        if r.holds and r.note:
            verdict = t("passed_note", lang, note=r.note)
        else:
            verdict = t("holds", lang) if r.holds else f"{t('violated', lang)} ({len(r.findings)})"
        style = "green" if r.holds else "bold red"
        table.add_row(r.check, ", ".join(r.clauses), escape(r.statement[lang]), f"[{style}]{verdict}[/]")
    console.print(table)
    for r in results:
        for f in r.findings:
            console.print(f"[bold red]✗ {f.check}[/] {escape(f.where or '')}", highlight=False)
            console.print(f"  {t('element', lang)}: {escape(f.element)}", highlight=False)
            console.print(f"  {escape(f.text(lang))}", highlight=False)
            for cid in f.clauses:
                text = clause_text(cid)
                if text:
                    console.print(f"  [dim]{cid}:[/] «{escape(text)}»", highlight=False)
            if f.trace:
                from .trace import print_trace

                print_trace(console, list(f.trace), lang, title=t("counterexample", lang, check=f.check),
                            highlight=f.highlight)
            if f.replay:
                console.print(f"  {t('replay', lang)}: {escape(f.replay)}", soft_wrap=True)


def print_assumptions(console: Console, assumptions: dict[str, dict], lang: str) -> None:
    if not assumptions:
        return
    table = Table(title=t("assumptions", lang))
    table.add_column("id", no_wrap=True)
    table.add_column(t("about", lang))
    table.add_column(t("assumption", lang))
    table.add_column(t("reason", lang))
    for aid, a in assumptions.items():
        table.add_row(escape(aid), ", ".join(a["about"]) or "—", escape(a["statement"][lang]), escape(a["reason"][lang]))
    console.print(table)
