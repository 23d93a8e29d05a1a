"""Markdown writer: ``report.md`` — summary, one table per engine, each finding with its trace,
replay and the clauses it cites, the clause coverage, the assumptions and the run details."""

from __future__ import annotations

from ruleproof.ground.i18n import t

from .bundle import ClauseText, Report
from .common import (
    DEBT_COLS,
    READING_COLS,
    coverage_label,
    debt_rows,
    debt_summary,
    depends_line,
    engine_label,
    generated_line,
    group_stats,
    group_title,
    kind_label,
    overall_line,
    quoted_clauses,
    quotes_note,
    readings_rows,
    replay_lines,
    report_debt,
    rulebook_title,
    status_label,
    trace_heading,
    verdict_label,
)
from .coverage import Coverage
from .finding import Finding, Verdict
from .trace import event_cells, offending_line, visible_events

__all__ = ["render", "FILENAME"]

FILENAME = "report.md"


def _cell(text) -> str:
    return str(text).replace("\\", "\\\\").replace("|", "\\|").replace("\n", "<br>") or " "


def _table(head: list[str], rows: list[list]) -> list[str]:
    out = ["| " + " | ".join(_cell(h) for h in head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return out + [""]


def _code(text: str) -> str:
    tick = "``" if "`" in text else "`"
    return f"{tick}{text}{tick}"


def trace_table(f: Finding, lang: str) -> list[str]:
    rows = []
    keys = ("seq", "step", "clauses", "event", "values", "changes")
    for i, r in enumerate(visible_events(list(f.trace), f.highlight)):
        c = event_cells(r, i, lang, f.highlight)
        if r["seq"] in f.highlight:
            c.update(seq=f"**{c['seq']}**", event=f"**{c['event']}**")
        rows.append([c[k] for k in keys])
    head = [t(f"rep_col_{k}", lang) for k in keys]
    return _table(head, rows)


def _head(report: Report, lang: str) -> list[str]:
    """Title, rulebook, the overall verdict and when it was made."""
    rb = report.rulebook
    out = [f"# {t('rep_title', lang)}: {rulebook_title(rb, lang)}", ""]
    counts = rb.get("counts") or {}
    line = f"**{t('rep_rulebook', lang)}:** {_code(rb['id'])} — {_code(rb.get('path', ''))}"
    if counts:
        line += f"; {t('rep_rulebook_counts', lang, **counts)}"
    out += [line + (f" ({t('rep_edition', lang, edition=rb['edition'])})" if rb.get("edition") else ""), ""]
    out += [f"**{overall_line(report, lang)}** {t('rep_exit_code', lang, code=report.exit_code)}.", ""]
    out += [f"*{generated_line(report, lang)}*", ""]
    return out


def _summary(report: Report, lang: str) -> list[str]:
    """A row per engine: its checks, how many failed or are open."""
    out = [f"## {t('rep_summary', lang)}", ""]
    out += _table([t(k, lang) for k in ("rep_col_group", "rep_col_checks_n", "rep_col_violated_n",
                                        "rep_col_unknown_n", "rep_col_result")],
                  [[t(f"rep_short_{s.group}", lang), len(s.results), sum(r.verdict == Verdict.VIOLATED for r in s.results),
                    sum(r.verdict == Verdict.UNKNOWN for r in s.results),
                    verdict_label(s.verdict, lang)]
                   for s in report.sections])
    return out


def _group(s, lang: str) -> list[str]:
    """One engine's figures and a row per check."""
    out = [f"## {group_title(s.group, lang)}", ""]
    stats = group_stats(s, lang)
    if stats:
        out += [f"*{stats}*", ""]
    out += _table([t(k, lang) for k in ("rep_col_check", "rep_col_clauses", "rep_col_statement", "rep_col_result")],
                  [[_code(r.check), ", ".join(r.clauses),
                    r.statement.get(lang, "") + (f" *({depends_line(r, lang)})*" if depends_line(r, lang) else ""),
                    ("✗ " if not r.holds else "✓ ") + verdict_label(r, lang)] for r in s.results])
    return out


def _findings(report: Report, lang: str) -> list[str]:
    """Every finding, with its trace and what replays it."""
    out = [f"## {t('rep_findings', lang)}", ""]
    findings = report.findings
    if not findings:
        out += [t("rep_no_findings", lang), ""]
    for f in findings:
        out += _finding(f, lang)
    return out


def _finding(f, lang: str) -> list[str]:
    """One finding."""
    out = [f"### ✗ {f.check} — {verdict_label(f, lang)}", ""]
    out += [f"- **{t('rep_kind', lang)}:** {kind_label(f.kind, lang)}; **{t('rep_engine', lang)}:** "
            f"{engine_label(f.engine, lang)}"]
    if f.where:
        out.append(f"- **{t('rep_where', lang)}:** {_code(f.where)}")
    if f.element:
        out.append(f"- **{t('rep_element', lang)}:** {f.element_text(lang)}")
    out.append(f"- **{t('rep_col_clauses', lang)}:** {', '.join(f.clauses)}")
    if f.assumptions:
        out.append(f"- **{t('rep_depends_on', lang)}:** {', '.join(f.assumptions)}")
    out += ["", f.text(lang), ""]
    if offending_line(f.trace, f.highlight, lang):
        out += [f"**{t('rep_offending', lang)}:** {_code(offending_line(f.trace, f.highlight, lang))}", ""]
    if f.trace:
        out += [f"**{trace_heading(f, lang)}**", ""] + trace_table(f, lang)
    replay = replay_lines(f, lang)
    if replay:
        out += [f"**{t('rep_replay', lang)}**", ""] + [f"- {k}: {_code(v)}" for k, v in replay] + [""]
    return out


def _quotes(report: Report, lang: str, clause_text: ClauseText) -> list[str]:
    """The clauses the findings cite, quoted."""
    out: list[str] = []
    quotes = quoted_clauses(report, clause_text, lang)
    if quotes:
        out += [f"## {t('rep_quotes', lang)}", "", f"*{quotes_note(report, lang)}*", ""]
        for cid, text in quotes:  # every line of a quote quoted (a bare newline would end it)
            out += [f"> **{cid}** — " + "\n> ".join(text.splitlines()), ""]
    return out


def _coverage(cov: Coverage, lang: str, clause_text: ClauseText) -> list[str]:
    """Which clause units a property, ruling or check covers (the report's ``coverage``)."""
    out: list[str] = []
    out += [f"## {t('rep_coverage', lang)}", "", t("rep_coverage_summary", lang, **cov.counts()), ""]
    if cov.uncovered:
        out += [f"### {t('rep_uncovered', lang)}", ""]
        out += [f"- **{r.clause}** — {clause_text(r.clause, lang) or ''}" for r in cov.uncovered] + [""]
    out += _table([t(k, lang) for k in ("rep_col_unit", "rep_col_text_status", "rep_col_coverage",
                                        "rep_col_properties", "rep_col_rulings", "rep_col_structure",
                                        "rep_col_assumptions")],
                  [[r.clause, status_label(r.status, lang), coverage_label(r.coverage, lang),
                    ", ".join(r.properties), ", ".join(r.rulings), ", ".join(r.checks), ", ".join(r.assumptions)]
                   for r in cov.rows])
    return out


def _debt(report: Report, lang: str) -> list[str]:
    """The ruling-debt map: per clause unit what pins it and what is open, the most pressing first."""
    rows = report_debt(report)
    out = [f"## {t('rep_debt', lang)}", "", f"*{t('rep_debt_note', lang)}*", "", debt_summary(rows, lang), ""]
    return out + _table([t(k, lang) for k in DEBT_COLS], [list(r) for r in debt_rows(rows, lang)])


def _assumptions(report: Report, lang: str) -> list[str]:
    """The assumptions the rulebook makes, with their reasons."""
    out = [f"## {t('rep_assumptions', lang)}", ""]
    out += _table([t(k, lang) for k in ("rep_col_id", "rep_col_about", "rep_col_assumption", "rep_col_reason")],
                  [[aid, ", ".join(a.get("about", [])) or "—", a["statement"][lang], a["reason"][lang]]
                   for aid, a in report.assumptions.items()])
    return out


def _readings(report: Report, lang: str) -> list[str]:
    """The alternative readings and what each changes."""
    out = [f"## {t('rep_readings', lang)}", "", f"*{t('rep_readings_note', lang)}*", ""]
    out += _table([t(k, lang) for k in READING_COLS], [list(row) for row in readings_rows(report, lang)])
    return out


def _run(report: Report, lang: str) -> list[str]:
    """How the run was made: versions, language, seed."""
    out: list[str] = []
    meta = report.meta
    out += [f"## {t('rep_run', lang)}", ""]
    if meta.get("versions"):
        out.append(f"- {t('rep_versions', lang)}: " + ", ".join(f"{k} {v}" for k, v in meta["versions"].items()))
    out.append(f"- {t('rep_language', lang)}: {lang}")
    if meta.get("seed") is not None:
        out.append(f"- {t('rep_seed', lang)}: {meta['seed']}")
    return out


def render(report: Report, lang: str, clause_text: ClauseText) -> dict[str, str]:
    out = _head(report, lang) + _summary(report, lang) + _findings(report, lang)  # findings first, as in HTML
    for s in report.sections:
        out += _group(s, lang)
    out += _quotes(report, lang, clause_text)
    if report.coverage is not None:
        out += _coverage(report.coverage, lang, clause_text) + _debt(report, lang)
    if report.assumptions:
        out += _assumptions(report, lang)
    if report.readings:
        out += _readings(report, lang)
    out += _run(report, lang)
    return {FILENAME: "\n".join(out).rstrip() + "\n"}
