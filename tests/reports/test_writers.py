"""Every writer on the bundled rulebook (all hold) and on mutants (findings): Markdown, HTML, JSON
(round trip), JUnit (valid against the Jenkins JUnit XSD), ITF, terminal; atomic writing,
determinism, and both languages reading naturally."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ruleproof.ground.errors import RuleproofError
from ruleproof.ground.i18n import _LABELS
from ruleproof.reports import writers as writers_mod
from ruleproof.reports.bundle import Report, Section, make_clause_text, mask_generated
from ruleproof.reports.finding import KINDS, CheckResult, Finding
from ruleproof.reports.json_report import (REPORT_SCHEMA, finding_from_json, finding_to_json, load_json,
                                           report_to_json)
from ruleproof.reports.writers import WRITERS, parse_formats, render_reports, write_reports

DATA = Path(__file__).resolve().parents[1] / "data"
ALL = "md,html,json,junit,itf"
M4_PROP = "P540.3-action-marker"


def _files(report, lang):
    return render_reports(report, ALL, lang, make_clause_text())


# --- what each report holds ---------------------------------------------------------------------------


def test_bundled_all_hold(bundled_report, tmp_path):
    assert bundled_report.verdict == "holds" and bundled_report.exit_code == 0
    assert [s.group for s in bundled_report.sections] == ["structure", "hypothesis"]
    paths = write_reports(bundled_report, tmp_path / "out", ALL, "en")
    assert sorted(p.name for p in paths) == ["report.html", "report.json", "report.junit.xml", "report.md"]
    md = (tmp_path / "out" / "report.md").read_text("utf-8")
    assert "Every check holds (11)." in md and "Exit code: 0" in md and "No findings." in md
    assert "| `S7-placement` |" in md and "✓ holds on 5 examples" in md
    assert not list((tmp_path / "out").glob("*.itf.json"))  # no counterexample, no trace file


def test_mutant_property_violation_in_every_format(m4_report, tmp_path):
    assert m4_report.verdict == "violated" and m4_report.exit_code == 1
    (f,) = m4_report.findings
    assert (f.check, f.kind, f.engine, f.seed) == (M4_PROP, "property", "hypothesis", 0)
    paths = write_reports(m4_report, tmp_path, ALL, "en")
    assert f"{M4_PROP}.itf.json" in {p.name for p in paths}
    md = (tmp_path / "report.md").read_text("utf-8")
    assert f"### ✗ {M4_PROP} — violated" in md
    assert "**Counterexample: the highlighted events (▶) break the property**" in md
    offending = [ln for ln in md.splitlines() if ln.startswith("| **▶ ")]
    assert [int(re.search(r"▶ (\d+)", ln).group(1)) for ln in offending] == list(f.highlight)
    assert "> **540.3** — When applied to an action" in md  # the clause quoted (ruleproof's summary)
    assert f"- Command: `{f.replay}`" in md and "- Seed: `0`" in md
    html = (tmp_path / "report.html").read_text("utf-8")
    assert f'data-check="{M4_PROP}" data-kind="property" data-verdict="violated"' in html
    assert html.count('class="rp-offending"') == len(f.highlight)
    assert 'data-path="declaration claim_resolution' in html
    doc = json.loads((tmp_path / "report.json").read_text("utf-8"))
    assert doc["schema"] == REPORT_SCHEMA and doc["verdict"] == "violated" and doc["exit_code"] == 1
    assert doc["quotes"]["clauses"]["540.3"].startswith("When applied")


def test_structural_violation_reports(m1_report, tmp_path):
    assert m1_report.exit_code == 1 and [s.group for s in m1_report.sections] == ["structure"]
    files = _files(m1_report, "ru")
    assert "### ✗ S7-placement — нарушено" in files["report.md"]
    assert "Вид:** структурная проверка; **Движок:** граф фаз" in files["report.md"]
    assert "M1.yaml:" in files["report.md"]  # file:line of the faulty element
    assert not [n for n in files if n.endswith(".itf.json")]


def test_inconclusive_is_exit_3_and_a_junit_error():
    unknown = Finding(kind="unknown", check="Z-consistency", verdict="unknown", engine="z3", clauses=("540.3",),
                      message={"ru": "Z3 вернул unknown", "en": "Z3 returned unknown"})
    rep = Report(rulebook={"id": "x"}, sections=(Section("z3", (CheckResult("Z-consistency", ("540.3",),
                                                 {"ru": "р", "en": "e"}, "z3", (unknown,)),)),))
    assert rep.verdict == "unknown" and rep.exit_code == 3 and not rep.ok
    files = _files(rep, "en")
    assert '<error type="unknown" message="Z3 returned unknown">' in files["report.junit.xml"]
    assert "inconclusive" in files["report.md"] and "holds" not in files["report.md"].split("## Summary")[0]
    violated = dataclasses.replace(unknown, verdict="violated", kind="conflict")
    rep2 = dataclasses.replace(rep, sections=rep.sections + (Section("consistency", (CheckResult(
        "C1", ("540.3",), {"ru": "р", "en": "e"}, "z3", (violated,)),)),))
    assert rep2.exit_code == 1  # a violation outweighs an unknown


# --- JSON round trip --------------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["bundled_report", "m4_report", "m1_report"])
def test_json_round_trip(which, request):
    report = request.getfixturevalue(which)
    text = render_reports(report, "json", "ru", make_clause_text())["report.json"]
    back = load_json(text)
    assert back == report
    assert back.findings == report.findings and back.coverage == report.coverage
    assert report_to_json(back)["schema"] == "ruleproof-report/1"


def test_json_rejects_other_documents():
    with pytest.raises(RuleproofError) as err:
        load_json('{"schema": "ruleproof-check/1"}')
    assert err.value.code == "RP150"


_text = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
_leaf = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), _text)
_value = st.recursive(_leaf, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text("abcxyz_", min_size=1, max_size=5), inner, max_size=3), max_leaves=8)
_event = st.fixed_dictionaries({"seq": st.integers(0, 99), "step": _text, "op": _text,
                                "clauses": st.lists(_text, max_size=3), "values": st.dictionaries(_text, _value, max_size=3)})
_findings = st.builds(
    Finding, kind=st.sampled_from(KINDS), check=_text, verdict=st.sampled_from(("holds", "violated", "unknown")),
    engine=st.sampled_from(("graph", "hypothesis", "z3")), clauses=st.lists(_text, max_size=3).map(tuple),
    message=st.fixed_dictionaries({"ru": _text, "en": _text}), element=_text, where=st.none() | _text,
    assumptions=st.lists(_text, max_size=2).map(tuple), replay=st.none() | _text,
    trace=st.lists(_event, max_size=3).map(tuple), highlight=st.lists(st.integers(0, 99), max_size=3).map(tuple),
    seed=st.none() | st.integers(0, 2**32), scenario=st.none() | _text)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(_findings)
def test_generated_findings_round_trip(f):
    assert finding_from_json(json.loads(json.dumps(finding_to_json(f), ensure_ascii=False))) == f


# --- JUnit --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["bundled_report", "m4_report", "m1_report"])
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_junit_valid_against_xsd(which, lang, request):
    lxml = pytest.importorskip("lxml.etree")
    report = request.getfixturevalue(which)
    text = render_reports(report, "junit", lang, make_clause_text())["report.junit.xml"]
    schema = lxml.XMLSchema(lxml.parse(str(DATA / "junit-10.xsd")))
    doc = lxml.fromstring(text.encode("utf-8"))
    assert schema.validate(doc), schema.error_log
    cases = doc.findall(".//testcase")
    assert len(cases) == len(report.results) + len(report.coverage.uncovered)
    assert int(doc.get("tests")) == len(cases)
    for suite in doc.findall("testsuite"):
        assert int(suite.get("tests")) == len(suite.findall("testcase"))
        assert int(suite.get("failures")) == len(suite.findall("testcase/failure"))
    failures = doc.findall(".//failure")
    assert len(failures) == len(report.findings)
    for f, el in zip(report.findings, failures):
        assert el.get("message") == f.text(lang) and el.get("type") == "violated"
        assert el.getparent().get("name") == f.check
        if f.trace:
            assert "▶" in el.text and (f.replay in el.text)
    # a time per test case where the engine measured one per check: here the structural checks
    timed = {c.get("name") for c in doc.findall(".//testsuite[@package='ruleproof.structure']/testcase[@time]")}
    assert timed == {r.check for r in report.section("structure").results}
    assert all(float(c.get("time")) >= 0 for c in doc.findall(".//testcase[@time]"))


def test_junit_rejects_what_the_xsd_forbids():
    """The schema is not vacuous: a testcase without a name does not validate."""
    lxml = pytest.importorskip("lxml.etree")
    schema = lxml.XMLSchema(lxml.parse(str(DATA / "junit-10.xsd")))
    bad = lxml.fromstring(b'<testsuites><testsuite name="s" tests="1" failures="0" errors="0">'
                          b'<testcase classname="c"/></testsuite></testsuites>')
    assert not schema.validate(bad)


# --- HTML: self-contained -----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_html_is_self_contained(m4_report, lang):
    html = _files(m4_report, lang)["report.html"]
    assert html.startswith("<!doctype html>") and f'<html lang="{lang}">' in html
    assert "<script" not in html and "<link" not in html and "@import" not in html
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
    assert not re.search(r"url\((?!#)", html)  # only in-document references (SVG markers)
    assert re.findall(r'href="([^"]+)"', html) == [f"#{a}" for a in re.findall(r'<li><a href="#([^"]+)"', html)]
    svg = re.search(r'<figure class="rp-path"[^>]*>.*?</figure>', html, re.S).group(0)
    on_path = re.findall(r'<g class="rp-step on-path" data-step="([^"]+)"', svg)
    assert set(on_path) == set(m4_report.findings[0].path) and "payment" in on_path
    path = m4_report.findings[0].path
    for a, b in zip(path, path[1:]):  # every edge the counterexample took is drawn on its path
        assert re.search(rf'<g class="rp-edge on-path" data-from="{a}" data-to="{b}"', svg), (a, b)
    assert 'class="rp-coverage"' in html and 'id="assumptions"' in html


# --- ITF ----------------------------------------------------------------------------------------------


def _decode(v, path=(), optional=frozenset(), present=False):
    """ITF → plain values (the inverse of the writer's encoding); ``optional``: the paths the trace's
    ``#meta`` lists as possibly absent, kept as ``[]``/``[v]``."""
    if path in optional and not present:
        assert isinstance(v, list) and len(v) <= 1, (path, v)
        return _decode(v[0], path, optional, True) if v else None
    if isinstance(v, list):
        return [_decode(i, path + ("#item",), optional) for i in v]
    if isinstance(v, dict):
        if "#bigint" in v:
            return int(v["#bigint"])
        if "#tup" in v:
            return [_decode(i, path + ("#item",), optional) for i in v["#tup"]]
        if "#set" in v:
            return sorted(_decode(i) for i in v["#set"])
        if "#map" in v:
            return {k: _decode(x, path + (k,), optional) for k, x in v["#map"]}
        assert not any(k.startswith("#") for k in v), v
        return {k: _decode(x, path + (k,), optional) for k, x in v.items()}
    assert isinstance(v, (bool, str)), f"a raw JSON value in ITF: {v!r}"
    return v


def _no_raw_numbers(v, path="") -> None:
    if isinstance(v, dict):
        for k, x in v.items():
            if k != "#meta":
                _no_raw_numbers(x, f"{path}.{k}")
    elif isinstance(v, list):
        for i, x in enumerate(v):
            _no_raw_numbers(x, f"{path}[{i}]")
    else:
        assert not isinstance(v, (int, float)) or isinstance(v, bool), f"JSON number at {path}"
        assert v is not None, f"null at {path}"


def test_itf_structure(m4_report):
    from ruleproof.reports.trace import states_from_trace

    (f,) = m4_report.counterexamples
    files = _files(m4_report, "en")
    doc = json.loads(files[f"{M4_PROP}.itf.json"])
    assert set(doc) == {"#meta", "vars", "states"}
    assert doc["#meta"]["format"] == "ITF" and doc["#meta"]["ruleproof"]["check"] == M4_PROP
    assert doc["vars"][0] == "event" and {"cards", "action", "step", "visited"} <= set(doc["vars"])
    assert len(doc["states"]) == len(f.trace)
    for i, (state, event) in enumerate(zip(doc["states"], f.trace)):
        assert state["#meta"] == {"index": i}
        assert set(state) == {"#meta", *doc["vars"]}
        _no_raw_numbers(state)
        assert _decode(state["event"]["seq"]) == event["seq"] and state["event"]["op"] == event["op"]
        assert state["event"]["offending"] is (event["seq"] in f.highlight)
        assert state["event"]["clauses"] == {"#set": sorted(event["clauses"])}
        assert "#map" in state["cards"]
    # the states rebuilt from the ITF file are the states the trace went through
    rebuilt = states_from_trace(list(f.trace))
    optional = frozenset(tuple(p) for p in doc["#meta"]["ruleproof"]["optional"])
    assert ("action", "die_raw") in optional or ("action",) in optional
    for itf_state, plain in zip(doc["states"], rebuilt):
        assert {k: _decode(v, (k,), optional) for k, v in itf_state.items() if k not in ("#meta", "event")} == plain
    last = rebuilt[-1]
    assert last["cards"][last["action"]["source"]]["action_markers"] == 0  # M4: no action marker, the violation


# --- atomic writing, determinism ----------------------------------------------------------------------


def test_a_failing_writer_leaves_no_file(m4_report, tmp_path, monkeypatch):
    out = tmp_path / "out"

    def boom(report, lang, clause_text):
        raise RuntimeError("writer failed midway")

    monkeypatch.setitem(WRITERS, "junit", dataclasses.replace(WRITERS["junit"], render=boom))
    with pytest.raises(RuntimeError):
        write_reports(m4_report, out, ALL, "en")
    assert not out.exists() or not list(out.iterdir())


def test_interrupted_write_leaves_no_file(m4_report, tmp_path, monkeypatch):
    """Ctrl-C while the files are being written: no report, no temporary file."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.md").write_text("the previous report\n", encoding="utf-8")
    calls = {"n": 0}
    real = Path.write_bytes

    def write_bytes(self, data):
        calls["n"] += 1
        if calls["n"] == 3:
            real(self, data[: len(data) // 2])
            raise KeyboardInterrupt
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", write_bytes)
    with pytest.raises(KeyboardInterrupt):
        write_reports(m4_report, out, ALL, "en")
    assert sorted(p.name for p in out.iterdir()) == ["report.md"]  # no temporary file left
    assert (out / "report.md").read_text("utf-8") == "the previous report\n"


def test_bad_formats_and_folders(m4_report, tmp_path):
    assert parse_formats(["md,html", "json"]) == ("md", "html", "json")
    with pytest.raises(RuleproofError) as err:
        parse_formats("md,pdf")
    assert "pdf" in err.value.render("en") and "term, md, html, json, junit, itf" in err.value.render("en")
    afile = tmp_path / "taken"
    afile.write_text("x")
    with pytest.raises(RuleproofError):
        write_reports(m4_report, afile, "md", "en")


def test_deterministic(m4_check, tmp_path):
    """Two bundles of the same check, written twice: equal once the generation time is masked."""
    from ruleproof.reports.bundle import report_from_check

    a = report_from_check(m4_check, timestamp="2026-01-01T00:00:00Z")
    b = report_from_check(m4_check)  # now
    for lang in ("ru", "en"):
        fa, fb = _files(a, lang), _files(b, lang)
        assert fa.keys() == fb.keys()
        for name in fa:
            assert mask_generated(fa[name]) == mask_generated(fb[name]), name
        assert fa["report.md"] != fb["report.md"]  # the masked part is really the only difference


def test_deterministic_from_scratch(tmp_path):
    """The whole pipeline twice (load, check, bundle, write) on the bundled rulebook."""
    from ruleproof.orchestrate import run_check
    from ruleproof.reports.bundle import report_from_check

    texts = []
    for i in range(2):
        out = tmp_path / str(i)
        write_reports(report_from_check(run_check()), out, ALL, "ru")
        texts.append({p.name: mask_generated(p.read_text("utf-8")) for p in sorted(out.iterdir())})
    assert texts[0] == texts[1]


def test_terminal_writer(m4_report, capsys):
    from rich.console import Console

    from ruleproof.reports.terminal import render

    text = render(m4_report, "en", make_clause_text())
    assert "Counterexample: the highlighted events (▶) break the property" in text
    assert "State changes" in text and "initial state" in text and M4_PROP in text
    assert "1 of 11 checks violated; findings: 1." in text and "Exit code: 1" in text
    ru = render(m4_report, "ru", make_clause_text())
    assert "Контрпример: выделенные события (▶) нарушают свойство" in ru and "Код выхода: 1" in ru
    assert write_reports(m4_report, "unused", "term", "en", console=Console(width=120)) == []
    assert "Summary" in capsys.readouterr().out


# --- both languages read naturally --------------------------------------------------------------------

#: words that stay as they are in Russian text: names and identifiers
_NAMES = {"ruleproof", "Hypothesis", "hypothesis", "Z3", "ITF", "JSON", "JUnit", "rules", "text", "yaml"}


def _headings(files: dict[str, str]) -> list[str]:
    """Headings, table headers and labels of every text report."""
    out = []
    md = files["report.md"]
    out += [ln.lstrip("#").strip() for ln in md.splitlines() if ln.startswith("#")]
    lines = md.splitlines()
    out += [ln for i, ln in enumerate(lines[:-1]) if ln.startswith("| ") and lines[i + 1].startswith("|---")]
    out += re.findall(r"\*\*([^*`]+):\*\*", md)
    html = files["report.html"]
    out += [re.sub(r"<[^>]+>", "", h) for h in re.findall(r"<h[1-4][^>]*>(.*?)</h[1-4]>", html, re.S)]
    out += re.findall(r"<th>([^<]*)</th>", html) + re.findall(r"<dt>([^<]*)</dt>", html)
    out += re.findall(r'<testsuite name="([^"]+)"', files["report.junit.xml"])
    return out


def _strip_ids(text: str) -> str:
    """Leave out check ids, clause ids, file names and rulebook ids: they are the same in both languages."""
    text = re.sub(r"\b[PSCMZ]\d[\w.-]*", " ", text)
    text = re.sub(r"[\w./+-]*\.(yaml|py|json|xml)\b|berserk[\w.+-]*|\d[\d./tbpex]*", " ", text)
    return text


@pytest.mark.parametrize("which", ["bundled_report", "m4_report", "m1_report"])
def test_russian_reads_russian(which, request):
    files = _files(request.getfixturevalue(which), "ru")
    english = set(v[1] for v in _LABELS.values())
    headings = _headings(files)
    assert len(headings) > 20 and "Итог" in headings and "Покрытие пунктов" in headings
    for h in headings:
        words = set(re.findall(r"[A-Za-z][A-Za-z'-]+", _strip_ids(h))) - _NAMES
        assert not words, f"English in a Russian heading: {h!r} ({words})"
    for name, text in files.items():
        assert not re.search(r"\brep_[a-z_]+\b", text), f"raw i18n key in {name}"
    for en in ("Summary", "Findings", "Clause coverage", "Counterexample", "How to replay", "holds on", "Exit code"):
        assert en not in files["report.md"] and en not in files["report.html"]
        assert any(en in label for label in english)  # …and is what the English report says


@pytest.mark.parametrize("which", ["bundled_report", "m4_report", "m1_report"])
def test_english_reads_english(which, request):
    files = _files(request.getfixturevalue(which), "en")
    headings = _headings(files)
    assert len(headings) > 20 and "Summary" in headings and "Clause coverage" in headings
    for h in headings:
        if h.startswith("ruleproof report:"):
            continue
        assert not re.search(r"[А-Яа-яЁё]", h), f"Russian in an English heading: {h!r}"
    for name, text in files.items():
        assert not re.search(r"\brep_[a-z_]+\b", text), f"raw i18n key in {name}"
    assert "Итог" not in files["report.md"] and "Находки" not in files["report.md"]


def test_every_report_label_is_translated():
    rep = {k: v for k, v in _LABELS.items() if k.startswith("rep_")}
    assert len(rep) > 80
    for key, (ru, en) in rep.items():
        assert ru and en, key
        names = {"Hypothesis", "Z3", "№"}
        if ru not in names:
            assert re.search(r"[А-Яа-яЁё]", ru), f"{key}: the Russian label is not Russian: {ru!r}"
        assert not re.search(r"[А-Яа-яЁё]", en), f"{key}: Cyrillic in the English label: {en!r}"
    assert set(WRITERS) == {"term", "md", "html", "json", "junit", "itf"}
    assert writers_mod.FORMATS[0] == "term"


def test_module_entry_point(mutants_dir, tmp_path, capsys):
    """``python -m ruleproof.reports``: the calls ``check --report`` makes, end to end."""
    from ruleproof.generators.mutants import write_mutant
    from ruleproof.reports.__main__ import main

    m1 = write_mutant("M1", mutants_dir)
    assert main([str(m1), "--report", str(tmp_path / "a"), "--format", "md,junit", "--lang", "ru"]) == 1
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == ["report.junit.xml", "report.md"]
    assert "Отчёты записаны:" in capsys.readouterr().err
    assert main(["--report", str(tmp_path / "b"), "--format", "md,pdf"]) == 2
    assert "RP150" in capsys.readouterr().err and not (tmp_path / "b").exists()
    assert main(["--report", str(tmp_path / "c"), "--format", "json"]) == 0
    assert load_json((tmp_path / "c" / "report.json").read_text("utf-8")).verdict == "holds"


def test_later_engines_join_the_report(bundled_check):
    """An engine outcome on the CheckReport (e.g. Z3's: results, seconds, seed) becomes a section;
    durations in notes go to the volatile line, so the rest stays deterministic."""
    from types import SimpleNamespace

    from ruleproof.reports.bundle import report_from_check

    def z3_outcome(seconds):
        proved = CheckResult("P540.3-action-marker", ("540.3",), {"ru": "маркер", "en": "marker"}, "z3",
                             note=f"proved (bmc, {seconds} s)")
        return SimpleNamespace(results=[proved], seconds=seconds, seed=0, timeout_ms=5000, max_depth=20,
                               z3_version="4.13.0")

    def bundle(seconds):
        check = SimpleNamespace(**{k: getattr(bundled_check, k) for k in ("rulebook", "graph", "structure",
                                                                           "properties", "hypothesis")},
                                z3=z3_outcome(seconds))
        return report_from_check(check, timestamp="2026-01-01T00:00:00Z")

    a, b = bundle(0.12), bundle(3.5)
    assert [s.group for s in a.sections] == ["structure", "hypothesis", "z3"]
    z3 = a.section("z3")
    assert z3.results[0].note == "proved (bmc)" and z3.stats["timeout_ms"] == 5000
    assert a.meta["generated"]["seconds"]["z3"] == 0.1
    fa, fb = _files(a, "en"), _files(b, "en")
    assert "| `P540.3-action-marker` | 540.3 | marker | ✓ proved |" in fa["report.md"]
    assert "*seed 0; timeout 5000 ms per query; depth up to 20; Z3 4.13.0*" in fa["report.md"]
    assert "## Proof with Z3" in fa["report.md"] and "## Доказательство в Z3" in _files(a, "ru")["report.md"]
    for name in fa:
        assert mask_generated(fa[name]) == mask_generated(fb[name]), name


def test_a_draft_is_marked_as_a_draft_in_every_report(tmp_path):
    """A draft's title says it is a draft in the terminal, Markdown, HTML and JSON reports; one that keeps the
    bundled rulebook's id with other rules is called a changed copy; the bundled rulebook is not marked."""
    from ruleproof.orchestrate import run_check
    from ruleproof.reports.bundle import make_clause_text, report_from_check
    from ruleproof.reports.writers import render_reports

    draft = (Path(__file__).resolve().parents[2] / "rulebooks" / "drafts" / "marker-only-when-paid.yaml").read_text("utf-8")
    copy = tmp_path / "copy.yaml"
    copy.write_text(draft.replace("id: draft-marker-only-when-paid", "id: berserk-rp-4.1-2"), "utf-8")
    for path, copied in ((copy, True), (None, False)):
        report = report_from_check(run_check(path, engines=("structure",)), lang="ru")
        out = render_reports(report, ("term", "md", "html", "json"), "ru", make_clause_text())
        texts = "\n".join(out.values())
        assert ("Проект правил:" in texts) is (path is not None)
        assert ("изменённая копия встроенного свода" in texts) is copied
        assert all(("Проект правил:" in v) is (path is not None) for k, v in out.items() if not k.endswith(".json"))
        assert report.rulebook["draft"] is (path is not None)


def test_findings_come_first_and_long_quotes_fold(tmp_path, seeds):
    """Markdown lists the findings before the engines' tables (as HTML does); in HTML a quote of the rules text
    longer than a few lines is folded (its first words open it), a short one is shown whole; a Markdown quote
    keeps every line of a clause inside the quote."""
    from ruleproof.orchestrate import run_check
    from ruleproof.reports.bundle import make_clause_text, report_from_check
    from ruleproof.reports.common import group_title
    from ruleproof.reports.writers import render_reports

    draft = Path(__file__).resolve().parents[2] / "rulebooks" / "drafts" / "marker-only-when-paid.yaml"
    report = report_from_check(run_check(draft, engines=("structure", "rulings")), lang="ru")
    out = render_reports(report, ("md", "html"), "ru", make_clause_text(seeds))
    md, html = out["report.md"], out["report.html"]
    assert report.findings and md.index("## Находки") < md.index(f"## {group_title('structure', 'ru')}")
    assert '<details class="rp-quote-fold"' in html and '<blockquote class="rp-quote" data-clause=' in html
    assert all(line.startswith("> ") for block in md.split("\n\n") if block.startswith("> **")
               for line in block.splitlines())
