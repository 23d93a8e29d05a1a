"""JSON writers: the check results (``ruleproof-check/1``, what ``check --format json`` prints) and the
whole report bundle (``ruleproof-report/1``), which reads back into an equal :class:`Report`.

>>> from ruleproof.reports.finding import CheckResult
>>> doc = results_to_json([CheckResult("S1", ("512.6.1",), {"ru": "р", "en": "e"}, "graph")], {"id": "x"})
>>> doc["schema"], doc["checks"][0]["holds"]
('ruleproof-check/1', True)
>>> from ruleproof.reports.bundle import Report, Section
>>> rep = Report(rulebook={"id": "x"}, sections=(Section("structure", (CheckResult("S1", ("512.6.1",),
...              {"ru": "р", "en": "e"}, "graph"),)),))
>>> load_json(dumps(report_to_json(rep))) == rep
True
"""

from __future__ import annotations

import json
from dataclasses import asdict, fields
from typing import Any

from ruleproof.ground.errors import Localized, RuleproofError

from .bundle import ClauseText, Report, Section
from .common import quoted_clauses, report_debt
from .coverage import Coverage, CoverageRow
from .debt import debt_to_json
from .finding import CheckResult, Finding

__all__ = ["SCHEMA", "REPORT_SCHEMA", "results_to_json", "dumps", "report_to_json", "load_json",
           "finding_to_json", "finding_from_json", "result_to_json", "result_from_json", "render"]

SCHEMA = "ruleproof-check/1"
REPORT_SCHEMA = "ruleproof-report/1"
FILENAME = "report.json"


def results_to_json(results: list[CheckResult], rulebook: dict, assumptions: dict | None = None) -> dict:
    return {
        "schema": SCHEMA,
        "rulebook": rulebook,
        "ok": all(r.holds for r in results),
        "checks": [{"check": r.check, "engine": r.engine, "clauses": list(r.clauses), "statement": r.statement,
                    "holds": r.holds, "findings": [asdict(f) for f in r.findings]} for r in results],
        "assumptions": assumptions or {},
    }


def dumps(doc: dict) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=2, sort_keys=False) + "\n"


# --- the report bundle ------------------------------------------------------------------------------

_TUPLES = ("clauses", "assumptions", "highlight", "trace")


def finding_to_json(f: Finding) -> dict:
    out = {}
    for fl in fields(Finding):
        v = getattr(f, fl.name)
        out[fl.name] = [dict(e) for e in v] if fl.name == "trace" else (list(v) if isinstance(v, tuple) else v)
    return out


def finding_from_json(d: dict) -> Finding:
    known = {fl.name for fl in fields(Finding)}
    kw: dict[str, Any] = {k: (tuple(v) if k in _TUPLES else v) for k, v in d.items() if k in known}
    kw["message"] = dict(kw.get("message", {}))
    return Finding(**kw)


def result_to_json(r: CheckResult) -> dict:
    return {"check": r.check, "engine": r.engine, "clauses": list(r.clauses), "statement": dict(r.statement),
            "note": r.note, "verdict": r.verdict, "holds": r.holds,
            "findings": [finding_to_json(f) for f in r.findings],
            **({} if r.depends_on is None else {"depends_on": list(r.depends_on)})}


def result_from_json(d: dict) -> CheckResult:
    deps = d.get("depends_on")
    return CheckResult(d["check"], tuple(d["clauses"]), dict(d["statement"]), d["engine"],
                       tuple(finding_from_json(f) for f in d.get("findings", ())), d.get("note", ""),
                       depends_on=None if deps is None else tuple(deps))


def _coverage_to_json(c: Coverage) -> dict:
    return {"counts": c.counts(),
            "rows": [{fl.name: (list(getattr(r, fl.name)) if isinstance(getattr(r, fl.name), tuple)
                                else getattr(r, fl.name)) for fl in fields(CoverageRow)} | {"coverage": r.coverage}
                     for r in c.rows],
            "findings": [finding_to_json(f) for f in c.findings]}


def _coverage_from_json(d: dict) -> Coverage:
    names = {fl.name for fl in fields(CoverageRow)}
    return Coverage(tuple(_row_from_json(row, names) for row in d["rows"]))


def _row_from_json(row: dict, names: set[str]) -> CoverageRow:
    """A coverage row from its JSON object (the keys of ``names``; lists back to tuples)."""
    kw: dict[str, Any] = {k: (tuple(v) if isinstance(v, list) else v) for k, v in row.items() if k in names}
    return CoverageRow(**kw)


def report_to_json(report: Report, clause_text: ClauseText | None = None, lang: str = "en") -> dict:
    """The report as a ``ruleproof-report/1`` document.  ``quotes`` (the cited clauses' text in
    ``lang``) is for readers only: :func:`load_json` does not need it."""
    doc = {"schema": REPORT_SCHEMA, "rulebook": report.rulebook, "verdict": report.verdict,
           "exit_code": report.exit_code,
           "sections": [{"group": s.group, "stats": s.stats, "ok": s.ok,
                         "results": [result_to_json(r) for r in s.results]} for s in report.sections],
           "assumptions": report.assumptions, "readings": report.readings,
           "coverage": _coverage_to_json(report.coverage) if report.coverage else None,
           "debt": debt_to_json(report_debt(report)),  # derived, for readers: load_json does not read it
           "graph": report.graph, "meta": report.meta}
    if clause_text is not None:
        doc["quotes"] = {"lang": lang, "clauses": dict(quoted_clauses(report, clause_text, lang))}
    return doc


def load_json(text: str | bytes | dict) -> Report:
    """Read a ``ruleproof-report/1`` document back into the :class:`Report` that was written."""
    doc = text if isinstance(text, dict) else json.loads(text)
    if not isinstance(doc, dict) or doc.get("schema") != REPORT_SCHEMA:
        found = doc.get("schema") if isinstance(doc, dict) else type(doc).__name__
        raise RuleproofError("RP150", None, problem=Localized(f"это не документ {REPORT_SCHEMA} (schema: {found})",
                                                              f"not a {REPORT_SCHEMA} document (schema: {found})"),
                             fix=Localized("дайте report.json, записанный командой ruleproof check --report ПАПКА",
                                           "give a report.json written by ruleproof check --report DIR"))
    return Report(rulebook=doc["rulebook"],
                  sections=tuple(Section(s["group"], tuple(result_from_json(r) for r in s["results"]),
                                         s.get("stats", {})) for s in doc["sections"]),
                  assumptions=doc.get("assumptions", {}), readings=doc.get("readings", {}),
                  coverage=_coverage_from_json(doc["coverage"]) if doc.get("coverage") else None,
                  graph=doc.get("graph"), meta=doc.get("meta", {}))


def render(report: Report, lang: str, clause_text: ClauseText) -> dict[str, str]:
    """The JSON writer: ``report.json``."""
    return {FILENAME: dumps(report_to_json(report, clause_text, lang))}
