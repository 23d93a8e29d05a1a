"""JSON writer: check results as a versioned, machine-readable document.

>>> from ruleproof.reports.finding import CheckResult
>>> doc = results_to_json([CheckResult("S1", ("512.6.1",), {"ru": "р", "en": "e"}, "graph")], {"id": "x"})
>>> doc["schema"], doc["checks"][0]["holds"]
('ruleproof-check/1', True)
"""

from __future__ import annotations

import json
from dataclasses import asdict

from .finding import CheckResult

__all__ = ["SCHEMA", "results_to_json", "dumps"]

SCHEMA = "ruleproof-check/1"


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
