"""JUnit XML writer: ``report.junit.xml``, so CI systems show every check, property and ruling as a
test.  One ``testsuite`` per engine group; a finding is a ``failure`` (violated) or an ``error``
(inconclusive: Z3 unknown, timeout, engine error) with the message as its ``message`` and the
details — clauses, trace, replay — in its body.  Clause units nothing covers are ``skipped`` tests of
a ``coverage`` suite (information, not a failure).  A test case has a ``time`` where its engine
measured one per check (a structural check, a ruling, a Z3 proof — ``meta["generated"]["check_seconds"]``);
one pass that decides many checks at once (exhaustive, Hypothesis) has its time on the suite only.
Valid against the Jenkins xUnit JUnit schema
(``tests/data/junit-10.xsd``)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from ruleproof.ground.i18n import t

from .bundle import ClauseText, Report
from .common import engine_label, group_title, kind_label, replay_lines, trace_heading, verdict_label
from .finding import Finding, Verdict
from .trace import format_diff, format_values, is_initial, visible_events

__all__ = ["render", "FILENAME", "finding_body"]

FILENAME = "report.junit.xml"


def finding_body(f: Finding, lang: str, clause_text: ClauseText) -> str:
    """A finding as plain text: what, where, the clauses, the trace (offending events marked ▶), the replay."""
    lines = [f"{f.check}: {verdict_label(f, lang)} — {f.text(lang)}",
             f"{t('rep_kind', lang)}: {kind_label(f.kind, lang)}; {t('rep_engine', lang)}: {engine_label(f.engine, lang)}"]
    if f.where:
        lines.append(f"{t('rep_where', lang)}: {f.where}")
    if f.element:
        lines.append(f"{t('rep_element', lang)}: {f.element_text(lang)}")
    if f.assumptions:
        lines.append(f"{t('rep_depends_on', lang)}: {', '.join(f.assumptions)}")
    for cid in f.clauses:
        text = clause_text(cid, lang)
        lines.append(f"  {cid}: «{text}»" if text else f"  {cid}")
    if f.trace:
        lines += ["", trace_heading(f, lang) + ":"]
        for i, r in enumerate(visible_events(list(f.trace), f.highlight)):
            mark = "▶" if r["seq"] in f.highlight else " "
            values = format_values({k: v for k, v in r["values"].items() if k not in ("skipped", "offered")}, lang)
            changes = t("rep_initial_state", lang) if is_initial(r, i) else format_diff(r.get("diff", []), 8, lang)
            lines.append(f"{mark}{r['seq']:>4}  {r['step']:<17} {r['op']:<24} {values}"
                         + (f"  | {changes}" if changes else ""))
    for k, v in replay_lines(f, lang):
        lines.append(f"{t('rep_replay', lang)} — {k}: {v}")
    return "\n".join(lines) + "\n"


def _case(suite: ET.Element, name: str, classname: str, findings, lang: str, clause_text: ClauseText,
          seconds: float | None = None) -> None:
    case = ET.SubElement(suite, "testcase", name=name, classname=classname)
    if seconds is not None:  # measured per check (a ruling, a proof, a structural check)
        case.set("time", f"{seconds:.3f}")
    for f in findings:
        if not f.failed:
            continue
        tag = "error" if f.inconclusive else "failure"
        el = ET.SubElement(case, tag, type=f.verdict, message=f.text(lang))
        el.text = finding_body(f, lang, clause_text)


def render(report: Report, lang: str, clause_text: ClauseText) -> dict[str, str]:
    gen = report.meta.get("generated", {})
    seconds = gen.get("seconds", {})
    root = ET.Element("testsuites", name=f"ruleproof {report.rulebook['id']}")
    total = {"tests": 0, "failures": 0, "errors": 0}
    for s in report.sections:
        failures = sum(r.verdict == Verdict.VIOLATED for r in s.results)
        errors = sum(r.verdict == Verdict.UNKNOWN for r in s.results)
        attrs = {"name": group_title(s.group, lang), "tests": str(len(s.results)), "failures": str(failures),
                 "errors": str(errors), "skipped": "0"}
        if s.group in seconds:
            attrs["time"] = f"{seconds[s.group]:.1f}"
        attrs.update(timestamp=gen.get("at", ""), package=f"ruleproof.{s.group}")
        suite = ET.SubElement(root, "testsuite", attrs)
        props = ET.SubElement(suite, "properties")
        for k, v in (("rulebook", report.rulebook["id"]), ("rulebook_path", report.rulebook.get("path", "")),
                     *((k, str(v)) for k, v in s.stats.items() if v is not None)):
            ET.SubElement(props, "property", name=k, value=str(v))
        for r in s.results:
            _case(suite, r.check, f"ruleproof.{s.group}", r.findings, lang, clause_text,
                  gen.get("check_seconds", {}).get(f"{s.group}/{r.check}"))
        total["tests"] += len(s.results)
        total["failures"] += failures
        total["errors"] += errors
    if report.coverage is not None and report.coverage.uncovered:
        unc = report.coverage.findings
        suite = ET.SubElement(root, "testsuite", {"name": t("rep_coverage", lang), "tests": str(len(unc)),
                                                  "failures": "0", "errors": "0", "skipped": str(len(unc)),
                                                  "timestamp": gen.get("at", ""), "package": "ruleproof.coverage"})
        for f in unc:
            case = ET.SubElement(suite, "testcase", name=f.clauses[0], classname="ruleproof.coverage")
            ET.SubElement(case, "skipped", type=f.verdict, message=f.text(lang)).text = finding_body(f, lang, clause_text)
        total["tests"] += len(unc)
    for k, v in total.items():
        root.set(k, str(v))
    if seconds:
        root.set("time", f"{sum(seconds.values()):.1f}")
    ET.indent(root)
    text = ET.tostring(root, encoding="unicode", xml_declaration=False)
    return {FILENAME: '<?xml version="1.0" encoding="UTF-8"?>\n' + text + "\n"}
