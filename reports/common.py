"""What every writer says the same way: labels of verdicts, kinds, engines and groups, a result's
short verdict, the clauses a report quotes, the replay lines.  Writers only lay these out.

>>> from ruleproof.reports.finding import CheckResult
>>> verdict_label(CheckResult("P", (), {"ru": "", "en": ""}, "hypothesis", note="200 examples"), "ru")
'выполнено на 200 примерах'
"""

from __future__ import annotations

import re

from ruleproof.ground.i18n import t
from ruleproof.model.universe import Combo

from .bundle import ClauseText, Report
from .debt import DebtRow, debt_map
from .finding import WITHIN_MENU, CheckResult, Finding, Verdict

__all__ = ["report_debt", "debt_rows", "debt_summary", "DEBT_COLS", "depends_line", "note_text", "readings_rows", "READING_COLS", "verdict_label", "kind_label", "engine_label", "group_title", "group_stats", "overall_line",
           "quoted_clauses", "replay_lines", "generated_line", "quotes_note", "file_stem", "path_of",
           "coverage_label", "status_label", "trace_heading"]


def verdict_label(r: CheckResult | Finding | str, lang: str) -> str:
    """A check's result in words: ``holds`` / ``holds on N examples`` / ``violated (2)`` / …"""
    if isinstance(r, str):
        return t(f"rep_verdict_{r}", lang)
    if isinstance(r, Finding):
        return t(f"rep_verdict_{r.verdict}", lang)
    v = r.verdict
    if v == "holds":
        m = re.fullmatch(r"(\d+) examples(?:; premise in (\d+) of (\d+) runs)?"
                         r"(?:; (\d+) more examples drawn for situations not yet played)?", r.note or "")
        if m and m.group(2) is not None:
            label = t("rep_passed_examples_premise", lang, n=m.group(1), k=m.group(2), runs=m.group(3))
            return label + (t("rep_topped_up", lang, n=m.group(4)) if m.group(4) else "")
        if m:
            return t("rep_passed_examples", lang, n=m.group(1))
        if r.note.startswith(WITHIN_MENU):
            return t("rep_scope_within_z3", lang)
        if r.note.startswith("proved"):
            return t("rep_proved", lang)
        return t("rep_verdict_holds", lang)
    n = sum(f.failed for f in r.findings)
    return f"{t(f'rep_verdict_{v}', lang)} ({n})" if n > 1 else t(f"rep_verdict_{v}", lang)


#: the note of a property judged on the rulings' games (the rulings engine)
_RULINGS_NOTE = re.compile(r"(?P<n>\d+) game actions of (?P<m>\d+) rulings; premise in (?P<k>\d+)")

#: the notes engines write on a passing check (English, as JSON keeps them) -> their i18n key
_NOTES = (
    (_RULINGS_NOTE, "note_rulings"),
    (re.compile(r"(?P<runs>\d+) runs, (?P<states>\d+) states(?P<bounded> \(stopped at (?P<by>\w+): bounded, incomplete\))?"
                r"(?:; premise in (?P<k>\d+))?"), "note_explore"),
    (re.compile(r"(?P<n>\d+) runs without an end"), "note_deadlocks"),
    (re.compile(r"(?P<n>\d+) operations ran"), "note_operations"),
    (re.compile(r"(?P<steps>\d+) steps, (?P<runs>\d+) runs; (?P<walked>\d+) steps of Z3 paths replayed"),
     "note_conformance"),
)


#: Z3's note on a proof carried from an earlier check (properties/carry.py: ``carried_reason``)
_Z3_CARRIED = re.compile(r"(?P<verdict>proved within the menu|proved) \((?P<engine>[\w+]+), (?P<s>[\d.]+) s\); carried: an "
                         r"earlier proof's invariant re-checked on (?P<checked>\d+) rules \((?P<unchanged>\d+) unchanged\)"
                         r"(?:; (?P<fresh>\d+) of (?P<queries>\d+) queries proved afresh)?")


def note_text(note: str, lang: str) -> str:
    """An engine's note on a passing check in ``lang`` (English notes are kept as written).

    >>> note_text("15828 runs, 119080 states; premise in 6712", "ru")
    '15828 прогонов, 119080 состояний; ситуация свойства — в 6712'
    >>> note_text("proved (spacer, 0.03 s); carried: an earlier proof's invariant re-checked on 2 rules (150 unchanged)", "ru")
    'доказано (spacer, 0.03 с); перенесено с прежней проверки: инвариант проверен на 2 правилах (150 без изменений)'
    """
    if lang == "en" or not note:
        return note
    m = _Z3_CARRIED.fullmatch(note)
    if m:
        verdict = t("rep_scope_within_z3" if m["verdict"].endswith("menu") else "rep_proved", lang)
        text = t("note_z3_carried", lang, verdict=verdict, engine=m["engine"], s=m["s"], checked=int(m["checked"]),
                 unchanged=int(m["unchanged"]))
        return text + (t("note_z3_afresh", lang, fresh=int(m["fresh"]), queries=int(m["queries"])) if m["fresh"] else "")
    for pattern, key in _NOTES:
        m = pattern.fullmatch(note)
        if m:
            g = {k: v for k, v in m.groupdict().items()}
            text = t(key, lang, **{k: v or "" for k, v in g.items()})
            if g.get("bounded"):
                text += t("note_bounded", lang, by=g["by"])
            if g.get("k") is not None:
                text += t("note_premise", lang, k=g["k"])
            return text
    return note


def kind_label(kind: str, lang: str) -> str:
    return t(f"rep_kind_{kind}", lang)


def engine_label(engine: str, lang: str) -> str:
    return t(f"rep_engine_{engine}", lang)


def status_label(status: str, lang: str) -> str:
    return t(status, lang)  # available | partial | referenced (the clause index's labels)


def coverage_label(coverage: str, lang: str) -> str:
    return t(f"rep_cov_{coverage}", lang)


def group_title(group: str, lang: str) -> str:
    return t(f"rep_group_{group}", lang)


def group_stats(section, lang: str) -> str:
    """The figures of an engine group in words: examples, seed, timeout, depth, …"""
    st = section.stats
    if section.group == "hypothesis" and "examples" in st:
        line = t("rep_stats_hypothesis", lang, examples=st["examples"],
                 seed=st.get("seed") if st.get("seed") is not None else "—")
        return line + ("; " + scope_text(st["scope"], lang, "hypothesis") if st.get("scope") else "")
    parts = [t(f"rep_stat_{k}", lang, v=st[k]) for k in ("seed", "timeout_ms", "max_depth", "states", "traces", "runs", "steps")
             if st.get(k) is not None]
    if st.get("complete") is False:
        parts.append(t("rep_stat_incomplete", lang))
    if st.get("z3_version"):
        parts.append(f"Z3 {st['z3_version']}")
    if st.get("scope"):
        parts.append(scope_text(st["scope"], lang, section.group))
    if st.get("outside_menu"):
        parts.append(outside_text(st["outside_menu"], lang))
    return "; ".join(parts)


def outside_text(outside: dict, lang: str, most: int = 3) -> str:
    """The rulings whose games the Z3 proofs do not cover, with what their games play outside the menu."""
    items = [f"{rid} ({'; '.join(Combo.parse(c).text(lang) for c in combos)})" for rid, combos in
             list(outside.items())[:most]]
    return t("rep_outside_menu", lang, n=len(outside), rulings=", ".join(items) + (" …" if len(outside) > most else ""))


def scope_text(scope: dict, lang: str, group: str = "z3", most: int = 4) -> str:
    """What an engine's games cover of the combinations the rulebook admits (model/universe.py), and the
    first ``most`` left out; a Z3 or exhaustive verdict over less than the whole is *within the menu*."""
    missing = scope.get("missing", [])
    left = "; ".join(Combo.parse(c).text(lang) for c in missing[:most]) + (" …" if len(missing) > most else "")
    key = "rep_scope_whole" if not missing else "rep_scope_partial"
    return t(key, lang, covered=scope["covered"], admitted=scope["admitted"], n=len(missing), left=left,
             within=t("rep_scope_within_" + ({"z3": "z3", "hypothesis": "sample"}.get(group, "bounds")), lang)
             if missing else "")


def depends_line(r: CheckResult, lang: str) -> str:
    """What a check depends on among the rulebook's readings ("" when not asked)."""
    if r.depends_on is None:
        return ""
    if not r.depends_on:
        return t("rep_depends_none", lang)
    return t("rep_depends_readings", lang, ids=", ".join(r.depends_on))


def readings_rows(report: Report, lang: str) -> list[tuple[str, str, str, str]]:
    """One row per alternative reading: (id, its assumption and clauses, what it says, the rulings it
    changes — "—" none, or a note that the rulings did not run)."""
    rows = []
    for rid, r in report.readings.items():
        rulings, gone = r.get("rulings"), r.get("not_applicable")
        changed = (t("rep_reading_not_applicable", lang, why=gone[lang]) if gone else
                   t("rep_rulings_not_run", lang) if rulings is None else (", ".join(rulings) or "—"))
        rows.append((rid, ", ".join(([r["of"]] if r.get("of") else []) + list(r.get("about", []))),
                     r["statement"][lang], changed))
    return rows


def report_debt(report: Report, questions=()) -> tuple[DebtRow, ...]:
    """The report's ruling-debt map (:func:`~ruleproof.reports.debt.debt_map`; none without a coverage)."""
    return debt_map(report.coverage, report.readings, questions) if report.coverage else ()


def debt_rows(rows: tuple[DebtRow, ...], lang: str) -> list[tuple[str, ...]]:
    """The ruling-debt map's rows as a reader sees them (the columns of :data:`DEBT_COLS`)."""
    return [(r.clause, t(f"debt_{r.debt}", lang), ", ".join(r.open_readings) or "—",
             ", ".join(r.decided_readings) or "—", ", ".join(r.rulings) or "—", ", ".join(r.properties) or "—",
             ", ".join(r.questions) or "—") for r in rows]


def debt_summary(rows: tuple[DebtRow, ...], lang: str) -> str:
    return t("rep_debt_summary", lang, units=len(rows), open=sum(bool(r.open_readings) for r in rows),
             bare=sum(not r.rulings for r in rows), pinned=sum(r.debt == "pinned" for r in rows))


#: the column labels of :func:`debt_rows`
DEBT_COLS = ("rep_col_unit", "rep_col_debt", "rep_col_open_readings", "rep_col_decided_readings", "rep_col_rulings",
             "rep_col_properties", "rep_col_questions")


#: the column labels of :func:`readings_rows`
READING_COLS = ("rd_col_reading", "rd_col_of", "rd_col_says", "rd_col_rulings")


def rulebook_title(rb: dict, lang: str) -> str:
    """The rulebook's title as every report heads it: a draft marked as a draft, and one that keeps the bundled
    rulebook's id with other rules said to be a changed copy.

    >>> rulebook_title({"id": "x", "title": {"ru": "Свод", "en": "Rules"}, "draft": True}, "ru")
    'Проект правил: Свод'
    """
    title = rb.get("title", {}).get(lang, rb["id"])
    if not rb.get("draft"):
        return title
    out = t("rep_draft_title", lang, title=title)
    return out + (f" ({t('rep_copy_of_bundled', lang, id=rb['id'])})" if rb.get("copy_of_bundled") else "")


def overall_line(report: Report, lang: str) -> str:
    results = report.results
    if report.verdict == Verdict.VIOLATED:
        bad = [r for r in results if r.verdict == Verdict.VIOLATED]
        return t("rep_overall_violated", lang, bad=len(bad), n=len(results),
                 count=sum(sum(f.failed for f in r.findings) for r in bad))
    if report.verdict == Verdict.UNKNOWN:
        return t("rep_overall_unknown", lang, bad=sum(r.verdict == Verdict.UNKNOWN for r in results), n=len(results))
    return t("rep_overall_holds", lang, n=len(results))


def quoted_clauses(report: Report, clause_text: ClauseText, lang: str) -> list[tuple[str, str]]:
    """(id, text) of every clause the findings cite, in order of first citation."""
    seen: dict[str, str] = {}
    for f in [*report.findings, *report.coverage_findings]:
        for cid in f.clauses:
            if cid not in seen:
                seen[cid] = clause_text(cid, lang) or ""
    return [(cid, text) for cid, text in seen.items() if text]


def quotes_note(report: Report, lang: str) -> str:
    src = report.meta.get("rules_text")
    return t("rep_quote_official", lang, src=src) if src else t("rep_quote_summary", lang)


def replay_lines(f: Finding, lang: str) -> list[tuple[str, str]]:
    out = []
    if f.replay:
        out.append((t("rep_command", lang), f.replay))
    if f.seed is not None:
        out.append((t("rep_seed", lang), str(f.seed)))
    if f.scenario:
        out.append((t("rep_scenario", lang), f.scenario))
    return out


def generated_line(report: Report, lang: str) -> str:
    """The one volatile line of every report: when it was made and how long the engines took."""
    gen = report.meta.get("generated", {})
    secs = ", ".join(t("rep_seconds", lang, engine=t(f"rep_short_{k}", lang), seconds=v)
                     for k, v in sorted(gen.get("seconds", {}).items()))
    return f"{t('rep_generated', lang)}: {gen.get('at', '')}" + (f" ({secs})" if secs else "")


def file_stem(check: str, n: int = 0, total: int = 1) -> str:
    """A file name for a check id: ``P540.3-action-marker`` → ``P540.3-action-marker`` (safe chars only)."""
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", check).strip("._") or "check"
    return f"{stem}-{n + 1}" if total > 1 else stem


def path_of(f: Finding) -> list[str]:
    return f.path


def trace_heading(f, lang: str) -> str:
    """The heading over a finding's trace: a counterexample breaks a property; a ruling's run departs
    from the ruling."""
    return t("rep_counterexample_ruling" if f.kind == "ruling" else "rep_counterexample", lang)
