"""Terminal writer (rich): summary table of checks, findings with locations and clause texts.

``print_report`` shows a whole report bundle; ``render`` gives the same as plain text (the
terminal writer writes no file: ``write_reports`` prints it)."""

from __future__ import annotations

import io
from typing import Callable

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ruleproof.ground.i18n import t

from .common import (
    READING_COLS,
    depends_line,
    engine_label,
    generated_line,
    group_stats,
    group_title,
    kind_label,
    note_text,
    overall_line,
    readings_rows,
    replay_lines,
    rulebook_title,
    trace_heading,
    verdict_label,
)
from .finding import CheckResult, Verdict
from .trace import print_offending, print_trace

__all__ = ["print_check_results", "print_assumptions", "print_report", "print_summary", "render"]

ClauseText = Callable[[str], str | None]


def _statement(r: CheckResult, lang: str) -> str:
    """A check's statement, and (dim, on its own line) the readings it depends on, where asked."""
    deps = depends_line(r, lang)
    return escape(r.statement.get(lang, "")) + (f"\n[dim]{escape(deps)}[/]" if deps else "")


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
            verdict = t("passed_note", lang, note=note_text(r.note, lang))
        else:  # an inconclusive check (Z3 unknown, not exercised, stopped by a bound) is not "violated"
            verdict = t("holds", lang) if r.holds else verdict_label(r, lang)
        style = "green" if r.holds else "yellow" if r.verdict == Verdict.UNKNOWN else "bold red"
        table.add_row(r.check, ", ".join(r.clauses), _statement(r, lang), f"[{style}]{verdict}[/]")
    console.print(table)
    for r in results:
        for f in r.findings:
            mark = "[bold yellow]?" if f.inconclusive else "[bold red]✗"
            console.print(f"{mark} {f.check}[/] {escape(f.where or '')}", highlight=False)
            console.print(f"  {t('element', lang)}: {escape(f.element_text(lang))}", highlight=False)
            console.print(f"  {escape(f.text(lang))}", highlight=False)
            for cid in f.clauses:
                text = clause_text(cid)
                if text:
                    console.print(f"  [dim]{cid}:[/] «{escape(text)}»", highlight=False)
            if f.trace:
                print_offending(console, f.trace, f.highlight, lang)
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


def print_summary(console: Console, report, lang: str) -> None:
    """The report in brief (``check --summary``): the rulebook, the table of engines, the verdict and exit code."""
    _print_head(console, report, lang)
    console.print(f"[bold]{escape(overall_line(report, lang))}[/] {t('rep_exit_code', lang, code=report.exit_code)}")


def print_report(console: Console, report, lang: str, clause_text) -> None:
    """The whole report bundle on a terminal: a summary table per engine, each finding with the
    clauses it cites, its failing trace as a table (with the state changes) and its replay, the
    clause coverage figures and the assumptions.  (Progress while engines run is the caller's.)"""
    _print_head(console, report, lang)
    for s in report.sections:
        _print_group(console, s, lang)
    for f in report.findings:
        _print_finding(console, f, lang, clause_text)
    if report.coverage is not None:
        console.print(t("rep_coverage_summary", lang, **report.coverage.counts()))
        for f in report.coverage_findings:
            console.print(f"  [yellow]{escape(f.text(lang))}[/]", highlight=False)
    if report.assumptions:
        _print_assumptions(console, report, lang)
    if report.readings:
        _print_readings(console, report, lang)
    console.print(f"[bold]{escape(overall_line(report, lang))}[/] {t('rep_exit_code', lang, code=report.exit_code)}")
    console.print(f"[dim]{generated_line(report, lang)}[/]", highlight=False)


def _print_head(console: Console, report, lang: str) -> None:
    """The rulebook's title and counts, and the summary table (a row per engine)."""
    rb = report.rulebook
    console.print(f"[bold]{escape(rulebook_title(rb, lang))}[/]")
    counts = rb.get("counts") or {}
    console.print(f"{t('rep_rulebook', lang)}: {escape(str(rb.get('path', rb['id'])))}"
                  + (f" — {t('rep_rulebook_counts', lang, **counts)}" if counts else ""), soft_wrap=True)
    summary = Table(title=t("rep_summary", lang))
    for key in ("rep_col_group", "rep_col_checks_n", "rep_col_violated_n", "rep_col_unknown_n", "rep_col_result"):
        summary.add_column(t(key, lang))
    for s in report.sections:
        bad = sum(r.verdict == Verdict.VIOLATED for r in s.results)
        unk = sum(r.verdict == Verdict.UNKNOWN for r in s.results)
        sv = "violated" if bad else ("unknown" if unk else "holds")
        summary.add_row(t(f"rep_short_{s.group}", lang), str(len(s.results)), str(bad), str(unk),
                        f"[{_STYLE[sv]}]{verdict_label(sv, lang)}[/]")
    console.print(summary)


def _print_group(console: Console, s, lang: str) -> None:
    """One engine's table: a row per check."""
    table = Table(title=group_title(s.group, lang), caption=escape(group_stats(s, lang)) or None)
    for key in ("rep_col_check", "rep_col_clauses", "rep_col_statement", "rep_col_result"):
        table.add_column(t(key, lang), no_wrap=key == "rep_col_check")
    for r in s.results:
        table.add_row(r.check, ", ".join(r.clauses), _statement(r, lang),
                      f"[{_STYLE[r.verdict]}]{escape(verdict_label(r, lang))}[/]")
    console.print(table)


def _print_finding(console: Console, f, lang: str, clause_text) -> None:
    """One finding: what, where, the clauses it cites quoted, its trace and what replays it."""
    console.print(f"[{_STYLE.get(f.verdict, 'bold red')}]✗ {escape(f.check)}[/] — {escape(verdict_label(f, lang))} "
                  f"({kind_label(f.kind, lang)}, {engine_label(f.engine, lang)}) {escape(f.where or '')}",
                  highlight=False, soft_wrap=True)
    if f.element:
        console.print(f"  {t('rep_element', lang)}: {escape(f.element_text(lang))}", highlight=False)
    console.print(f"  {escape(f.text(lang))}", highlight=False)
    for cid in f.clauses:
        text = clause_text(cid, lang)
        if text:
            console.print(f"  [dim]{cid}:[/] «{escape(text)}»", highlight=False)
    if f.assumptions:
        console.print(f"  {t('rep_depends_on', lang)}: {escape(', '.join(f.assumptions))}", highlight=False)
    print_offending(console, f.trace, f.highlight, lang)
    if f.trace:
        print_trace(console, list(f.trace), lang, title=trace_heading(f, lang), highlight=f.highlight,
                    diff=True)
    for k, v in replay_lines(f, lang):
        console.print(f"  {t('rep_replay', lang)} — {k}: {escape(v)}", soft_wrap=True, highlight=False)


def _print_assumptions(console: Console, report, lang: str) -> None:
    table = Table(title=t("rep_assumptions", lang))
    for key in ("rep_col_id", "rep_col_about", "rep_col_assumption", "rep_col_reason"):
        table.add_column(t(key, lang), no_wrap=key == "rep_col_id")
    for aid, a in report.assumptions.items():
        table.add_row(escape(aid), ", ".join(a.get("about", [])) or "—", escape(a["statement"][lang]),
                      escape(a["reason"][lang]))
    console.print(table)


def _print_readings(console: Console, report, lang: str) -> None:
    table = Table(title=t("rep_readings", lang), caption=t("rep_readings_note", lang))
    for key in READING_COLS:
        table.add_column(t(key, lang), no_wrap=key == "rd_col_reading")
    for row in readings_rows(report, lang):
        table.add_row(*(escape(x) for x in row))
    console.print(table)


_STYLE = {"holds": "green", "violated": "bold red", "unknown": "yellow", "timeout": "yellow", "error": "yellow",
          "uncovered": "yellow"}


def render(report, lang: str, clause_text, width: int = 140) -> str:
    """The terminal report as plain text (no colours)."""
    buf = io.StringIO()
    print_report(Console(file=buf, width=width, color_system=None, highlight=False, emoji=False), report, lang,
                 clause_text)
    return buf.getvalue()
