"""Clause coverage: every unit of the index, what covers it, and the uncovered ones as findings."""

from __future__ import annotations

import dataclasses

from ruleproof.model.clauses import default_index
from ruleproof.reports.bundle import make_clause_text
from ruleproof.reports.coverage import build_coverage
from ruleproof.reports.json_report import load_json
from ruleproof.reports.writers import render_reports


def test_every_unit_has_a_row_with_what_covers_it(bundled_report):
    cov = bundled_report.coverage
    index = default_index()
    assert [r.clause for r in cov.rows] == [e.id for e in index]
    r = cov.row("540.3")
    assert r.coverage == "direct" and "P540.3-action-marker" in r.properties and r.rulings
    assert "kele-attacker" in cov.row("540.4.1/ex1").rulings
    assert cov.row("512.6.2/b2").checks == ("S5-active-player-first",)
    assert cov.row("306").assumptions == ("A-die-roll",) and cov.row("306").status == "referenced"
    c = cov.counts()
    assert c["direct"] + c["indirect"] + c["none"] == c["units"] == sum(e.kind != "section" for e in index)
    assert c["uncovered"] == 0 and not cov.findings  # the bundled checks cover every unit of the excerpts


def test_uncovered_units_are_findings_of_their_own_kind(bundled_report):
    bare = build_coverage(assumptions=bundled_report.assumptions, properties=[], rulings=[], checks=[])
    assert {r.coverage for r in bare.rows} == {"none"}
    available = [e.id for e in default_index() if e.status == "available" and e.kind != "section"]
    assert [r.clause for r in bare.uncovered] == available
    f = bare.findings[0]
    assert (f.kind, f.verdict, f.engine, f.check, f.clauses) == ("coverage", "uncovered", "coverage", "coverage",
                                                                 (available[0],))
    # one property alone covers its clauses directly and their neighbours indirectly
    from ruleproof.properties.catalogue import property_citations

    one = [c for c in property_citations() if c.element == "property P540.3-action-marker"]
    cov = build_coverage(properties=one, rulings=[], checks=[])
    assert cov.row("540.3").coverage == "direct" and cov.row("540").coverage == "indirect"
    assert cov.row("540.3.1").coverage == "indirect" and cov.row("542.2").coverage == "none"


def test_uncovered_units_in_every_writer(bundled_report):
    bare = build_coverage(assumptions=bundled_report.assumptions, properties=[], rulings=[], checks=[])
    rep = dataclasses.replace(bundled_report, coverage=bare)
    assert rep.exit_code == 0  # coverage informs; it is no verdict on the rules
    n = len(bare.uncovered)
    for lang, heading in (("en", "Uncovered clauses"), ("ru", "Непокрытые пункты")):
        files = render_reports(rep, "md,html,json,junit", lang, make_clause_text())
        assert f"### {heading}" in files["report.md"] and "- **540.3** — " in files["report.md"]
        assert files["report.html"].count('class="rp-quote rp-uncovered"') == n
        assert files["report.junit.xml"].count("<skipped ") == n
        assert load_json(files["report.json"]).coverage == bare
    md = render_reports(rep, "md", "en", make_clause_text())["report.md"]
    assert "| 540.3 | in the excerpts | none |" in md


def test_reports_quote_the_official_wording_when_given(m4_report, seeds):
    """With a rules text, the clauses are quoted in the official Russian wording (in both languages);
    without, in ruleproof's summary."""
    rep = dataclasses.replace(m4_report, meta={**m4_report.meta, "rules_text": str(seeds)})
    official = make_clause_text(seeds)
    assert official("540.3", "en").startswith("Если особенность, модифицирующая ресурсы")
    assert official("306", "ru") == default_index().summary("306", "ru")  # not in the text: the summary
    for lang, note in (("en", "Official wording from:"), ("ru", "Официальный текст из:")):
        files = render_reports(rep, "md,html,junit", lang, official)
        assert "> **540.3** — Если особенность, модифицирующая ресурсы" in files["report.md"]
        assert f"*{note} {seeds}" in files["report.md"]
        assert 'data-clause="540.3"><b>540.3</b>«Если особенность' in files["report.html"]
        assert "540.3: «Если особенность" in files["report.junit.xml"]
    summary = render_reports(m4_report, "md", "en", make_clause_text())["report.md"]
    assert "> **540.3** — When applied to an action" in summary and "*ruleproof's summary" in summary
