"""The ruling-debt map (issue 50): per clause unit the rulings, properties, readings and open questions, the units
with a reading no ruling decides first — in the Markdown, HTML and JSON reports alike."""

from __future__ import annotations

import json
import re

import pytest

from ruleproof.orchestrate import run_check
from ruleproof.reports.bundle import report_from_check
from ruleproof.reports.coverage import Coverage, CoverageRow, build_coverage
from ruleproof.reports.debt import DEBTS, debt_map
from ruleproof.reports.writers import render_reports

FIXED = "2026-01-02T03:04:05Z"

#: the bundled rulebook's most pressing units: each has a reading no shipped ruling decides (R-strike-row-4,
#: R-non-active-first-late, R-payment-triggers-before-marker, R-modification-after-ability), in the index's order
FIRST = ["512.6.2/b4.1.1", "512.6.5", "512.7", "512.7/b2", "540.3", "540.4"]


@pytest.fixture(scope="module")
def rulings_report():
    return report_from_check(run_check(None, engines=("rulings",)), timestamp=FIXED)


def test_the_order_is_by_debt_then_open_readings_then_the_index():
    cov = Coverage((CoverageRow("1", "clause", "available", rulings=("r1",)),
                    CoverageRow("2", "clause", "available", properties=("P",)),
                    CoverageRow("3", "clause", "available", rulings=("r3",)),
                    CoverageRow("4", "clause", "available"),
                    CoverageRow("5", "clause", "available", rulings=("r5",)),
                    CoverageRow("6", "clause", "available", rulings=("r6",))))
    readings = {"R-a": {"about": ["3", "6"], "rulings": []}, "R-b": {"about": ["6"], "rulings": None},
                "R-c": {"about": ["4"], "rulings": []}, "R-d": {"about": ["1"], "rulings": ["r1"]},
                "R-e": {"about": ["5"], "rulings": [], "not_applicable": {"ru": "…", "en": "…"}}}
    questions = [{"id": "q-1", "kind": "unit", "about": ["5", "1"], "open": True, "game": True},
                 {"id": "q-2", "kind": "unit", "about": ["1"], "open": False, "game": True}]
    rows = debt_map(cov, readings, questions)
    assert [(r.clause, r.debt) for r in rows] == [
        ("4", "reading_no_ruling"), ("6", "reading_open"), ("3", "reading_open"), ("5", "question"),
        ("2", "no_ruling"), ("1", "pinned")]
    six = rows[1]
    assert six.open_readings == ("R-a", "R-b") and rows[5].decided_readings == ("R-d",) and rows[3].questions == ("q-1",)
    assert rows[3].open_readings == ()  # a reading that does not apply to the rulebook is neither open nor decided


def test_the_bundled_rulebooks_map_puts_the_undecided_readings_first(rulings_report):
    rows = debt_map(rulings_report.coverage, rulings_report.readings)
    assert [r.clause for r in rows[:len(FIRST)]] == FIRST
    assert all(r.debt == "reading_open" and r.rulings for r in rows[:len(FIRST)])
    assert [DEBTS.index(r.debt) for r in rows] == sorted(DEBTS.index(r.debt) for r in rows)
    assert {r.clause for r in rows} == {r.clause for r in build_coverage().rows if r.kind != "section"}
    by = {r.clause: r for r in rows}
    assert "R-strike-row-4" in by["512.6.2/b4.1.1"].open_readings
    assert "R-die-unclamped" in by["512.6.2/b4.1.1"].decided_readings  # a shipped ruling decides it


def test_every_writer_shows_the_map_in_the_same_order(rulings_report):
    files = render_reports(rulings_report, ("md", "html", "json"), "ru")
    order = [r.clause for r in debt_map(rulings_report.coverage, rulings_report.readings)]
    doc = json.loads(files["report.json"])
    assert [r["clause"] for r in doc["debt"]] == order
    md = files["report.md"].split("## Долг по разъяснениям", 1)[1].split("\n## ", 1)[0]
    assert [line.split("|")[1].strip() for line in md.splitlines() if line.startswith("| ") and "|---" not in line][1:] == order
    assert "прочтение не решено" in md and "закреплён" in md
    html = files["report.html"].split('<section id="debt">', 1)[1].split("</section>", 1)[0]
    assert re.findall(r'<tr class="rp-debt-[a-z_]+" data-clause="([^"]+)"', html) == order
    assert '<a href="#debt">' in files["report.html"]
