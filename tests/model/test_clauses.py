"""Tests of the shipped clause index (ruleproof.model.clauses)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ruleproof.model.clauses import ClauseEntry, ClauseIndex, default_index, is_clause_id
from ruleproof.model.rules_text import clause_key, load_rules_text, parse_rules_text

HERE = Path(__file__).resolve()
SYNTH = HERE.parents[1] / "data" / "rules_synthetic"
SEEDS = HERE.parents[3] / "shared" / "seeds"

RUN = 6  # a summary may not share this many consecutive words with the official wording


@pytest.fixture(scope="module")
def index() -> ClauseIndex:
    return default_index()


@pytest.fixture(scope="module")
def seeds_text():
    if not SEEDS.is_dir() or not list(SEEDS.glob("*.txt")):
        pytest.skip(f"the rule excerpts are not available at {SEEDS}")
    return load_rules_text(SEEDS)


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def _shared_run(a: str, b: str, n: int = RUN) -> tuple[str, ...] | None:
    """A run of ``n`` consecutive words present in both texts, or None."""
    wa, wb = _words(a), _words(b)
    grams = {tuple(wb[i:i + n]) for i in range(len(wb) - n + 1)}
    for i in range(len(wa) - n + 1):
        if tuple(wa[i:i + n]) in grams:
            return tuple(wa[i:i + n])
    return None


# ---------------------------------------------------------------- the helper itself


def test_shared_run_helper_detects_copying():
    official = "Приоритет получает Активный Игрок. Игроки могут заявлять срабатывающие особенности."
    assert _shared_run("итак: ПРИОРИТЕТ получает активный игрок, игроки могут — и всё", official) == (
        "приоритет", "получает", "активный", "игрок", "игроки", "могут")
    assert _shared_run("приоритет получает активный игрок, и только", official) is None


# ---------------------------------------------------------------- content of the index


def test_index_size_and_order(index):
    assert len(index) == 92
    ids = [e.id for e in index]
    assert ids == sorted(ids, key=clause_key)
    assert len(set(ids)) == len(ids)
    assert index.edition == "РП 4.1-2 от 09.11.2024"


def test_every_id_is_well_formed(index):
    bad = [e.id for e in index if not is_clause_id(e.id)]
    assert bad == []


def test_kinds_and_statuses_are_known(index):
    assert {e.kind for e in index} <= {"section", "clause", "lead", "bullet", "paragraph", "example", "tail"}
    assert {e.status for e in index} == {"available", "partial", "referenced"}


def test_every_entry_has_ru_and_en_summaries(index):
    for e in index:
        assert set(e.summary) >= {"ru", "en"}, e.id
        assert e.summary["ru"].strip(), e.id
        assert e.summary["en"].strip(), e.id
        assert re.search(r"[А-Яа-яЁё]", e.summary["ru"]), f"{e.id}: ru summary has no Cyrillic"
        # the en summary is English (a Russian card name in parentheses is allowed)
        assert re.search(r"[A-Za-z]{3}", e.summary["en"]), f"{e.id}: en summary is not English"
        assert e.summary["en"] != e.summary["ru"], e.id


def test_summary_lookup(index):
    assert index.summary("512.6.3/b4", "ru") == index.get("512.6.3/b4").summary["ru"]
    assert index.summary("512.6.3/b4", "en") == index.get("512.6.3/b4").summary["en"]
    assert index.summary("512.6.3/b4", "de") == index.get("512.6.3/b4").summary["en"]  # falls back to en
    assert index.summary("999.9") == ""


def test_referenced_summaries_say_not_in_excerpts(index):
    referenced = [e for e in index if e.status == "referenced"]
    assert len(referenced) == 15
    for e in referenced:
        assert e.summary["ru"].startswith("Не в выдержках"), e.id
        assert e.summary["en"].startswith("Not in the excerpts"), e.id
    for e in index:
        if e.status != "referenced":
            assert not e.summary["en"].startswith("Not in the excerpts"), e.id


def test_partial_entry(index):
    assert [e.id for e in index if e.status == "partial"] == ["512.5"]
    assert index.status("512.5/t1") == "available"
    assert index.get("512.5/t1").kind == "tail"


def test_examples_have_titles(index):
    examples = [e for e in index if e.kind == "example"]
    assert [e.id for e in examples] == ["540.4.1/ex1", "542.6/ex1", "542.8/ex1"]
    for e in examples:
        assert e.title and e.title.get("ru") and e.title.get("en"), e.id
    assert [e.label("ru") for e in examples] == ["Келе", "Серк", "Леший"]
    assert [e.label("en") for e in examples] == ["Kele", "Serk", "Leshy"]
    assert index.get("512.6.3").label("ru") == "512.6.3"  # no title: the id


def test_summaries_do_not_copy_the_rules(index, seeds_text):
    checked = 0
    for e in index:
        unit = seeds_text.units.get(e.id)
        official = unit.text if unit is not None else seeds_text.text_of(e.id)
        if not official:
            continue
        checked += 1
        for lang in ("ru", "en"):
            run = _shared_run(e.summary[lang], official)
            assert run is None, f"{e.id} [{lang}] copies the rules: {' '.join(run)}"
    assert checked >= 75


def test_summaries_do_not_copy_any_wording_of_the_clause(index, seeds_text):
    """Stricter: compare with the whole clause (lead and all its units), not only the unit."""
    for e in index:
        clause = e.id.partition("/")[0]
        official = seeds_text.text_of(clause)
        if not official:
            continue
        run = _shared_run(e.summary["ru"], official)
        assert run is None, f"{e.id} copies {clause}: {' '.join(run)}"


def test_examples_titles_match_the_text(index, seeds_text):
    for e in index:
        if e.kind == "example":
            assert seeds_text.units[e.id].text.startswith(e.title["ru"]), e.id


def test_referenced_by_matches_the_text(index, seeds_text):
    for e in index:
        if e.referenced_by:
            assert sorted(seeds_text.references.get(e.id, []), key=clause_key) == \
                sorted(e.referenced_by, key=clause_key), e.id
    for cid in seeds_text.referenced_only():
        assert cid in index, cid


# ---------------------------------------------------------------- is_clause_id


@pytest.mark.parametrize("text", [
    "512", "542", "512.6", "512.6.2", "512.6.2.1.1",
    "512.6.2/b4", "512.6.2/b4.1", "512.6.2/b4.1.2", "512.6.2/b10",
    "512.5/t1", "512.5/t1.2",
    "542.1/p1", "540.4.1/ex1", "540.4.1/ex12", "710.1/b2.2.2",
])
def test_is_clause_id_accepts(text):
    assert is_clause_id(text)


@pytest.mark.parametrize("text", [
    "", "5.12", "51", "5120", "512.", "512.6.", ".512", " 512.6", "512.6 ", "512,6", "512.6a",
    "512.6.2/", "512.6.2/b", "512.6.2/b4.1.2.3", "512.6.2/x1", "512.6.2/B4", "512.6.2/p1.1",
    "512.6.2/ex", "512.6.2/ex1.1", "512.6.2/b4/b1", "b4", "/b4", "абв", "512.6.2/е1",
])
def test_is_clause_id_rejects(text):
    assert not is_clause_id(text)


def test_is_clause_id_rejects_trailing_newline():
    """Regression: with re.match and `$`, '512.6\\n' passed as a clause id (fails on commit 224d758)."""
    assert not is_clause_id("512.6\n")
    assert not is_clause_id("512.6.2/b4\n")


# ---------------------------------------------------------------- covers / needs_assumption / suggest


@pytest.mark.parametrize("outer, inner, expected", [
    ("512.6.3", "512.6.3", True),
    ("512.6.3", "512.6.3/b4", True),
    ("512.6.2", "512.6.2/b4.3.1", True),
    ("512.6.2/b4", "512.6.2/b4.3.1", True),
    ("512.6", "512.6.2/b4.3.1", True),   # a clause covers its sub-clauses
    ("512", "512.6.3/b4", True),
    ("512.6.3/b4", "512.6.3", False),     # never the other way round
    ("512.6.2/b4.1", "512.6.2/b4.3.1", False),
    ("512.6.3", "512.6.2/b1", False),
    ("512.6", "512.7", False),
    ("512.6.3", "512.6.30", False),       # not a string-prefix test
    ("512.6.2/b1", "512.6.2/b10", False),
    ("542", "540.4.1/ex1", False),
])
def test_covers(outer, inner, expected):
    assert ClauseIndex.covers(outer, inner) is expected


def test_units_under(index):
    assert index.units_under("512.6.2/b4.1") == [
        "512.6.2/b4.1", "512.6.2/b4.1.1", "512.6.2/b4.1.2", "512.6.2/b4.1.3", "512.6.2/b4.1.4"]
    assert index.units_under("542.8") == ["542.8", "542.8/ex1"]
    assert index.units_under("999") == []


@pytest.mark.parametrize("cid, expected", [
    ("519", True), ("510.2", True), ("512.1", True), ("512", True),   # referenced
    ("512.5", True),                                                  # partial
    ("512.5/t1", False), ("512.6.3/b4", False), ("542.2", False), ("540", False),
    ("999.1", False),                                                 # not in the index at all
])
def test_needs_assumption(index, cid, expected):
    assert index.needs_assumption(cid) is expected


def test_status_and_contains(index):
    assert index.status("512.6.3/b4") == "available"
    assert index.status("519") == "referenced"
    assert index.status("999") is None
    assert "542.8/ex1" in index and "542.9" not in index
    assert index.get("999") is None


@pytest.mark.parametrize("typo, suggestion", [
    ("512.6.3/b44", "512.6.3/b4"),
    ("542.9", "542.8"),
    ("512.6.7", "512.6.6"),
    ("540.4.1/ex2", "540.4.1/ex1"),
    ("zzz", None),
])
def test_suggest(index, typo, suggestion):
    assert index.suggest(typo) == suggestion


def test_suggest_returns_an_index_entry(index):
    for typo in ("512.6.3/b9", "542.1/p2", "540.1.4"):
        near = index.suggest(typo)
        assert near in index, typo


# ---------------------------------------------------------------- a small index against a text


def test_compare_with_text_on_synthetic_text():
    frags = [(p.name, p.read_text("utf-8")) for p in sorted(SYNTH.glob("*.txt"))]
    rt = parse_rules_text(frags)
    summary = {"ru": "Своими словами.", "en": "In our own words."}
    idx = ClauseIndex([
        ClauseEntry("710.1/b2", "bullet", "available", summary),
        ClauseEntry("710", "lead", "available", summary),
        ClauseEntry("710.1/b9", "bullet", "available", summary),
        ClauseEntry("700", "section", "available", summary),
        ClauseEntry("777", "section", "referenced", summary),
    ], edition="test")
    assert [e.id for e in idx] == ["700", "710", "710.1/b2", "710.1/b9", "777"]
    new, missing = idx.compare_with_text(rt)
    assert missing == ["710.1/b9"]  # sections and referenced entries are never "missing"
    assert "710" not in new and "710.1/b2" not in new
    assert new == [u for u in rt.units if u not in ("710", "710.1/b2")]


def test_a_rulebooks_citations_include_its_readings_with_their_line():
    """A reading cites the clauses whose wording it reads otherwise: `clauses UNIT` and `clauses --against`
    list it among what cites a unit, with the rulebook line it is written on."""
    from ruleproof.model.rulebook import load_rulebook

    rb = load_rulebook()
    got = {c.element: c for c in rb.citations() if c.kind == "reading"}
    assert set(got) == {f"reading {rid}" for rid in rb.spec.readings} and len(got) == 14
    closed = got["reading R-closed-keeps-close"]
    assert closed.clauses == ("540.2", "512.7") and closed.where.line > 1


def test_the_strike_results_change_of_targets_is_an_assumption_not_a_silence():
    """512.6.2/b4.1.2 (the fight's result may add to or change the effect's targets) is not modelled: the
    placeholder table has no column for it.  The rulebook says so where the table is read — the fight's
    determine_base cites the bullet and assumes A-strike-targets, which the reports list."""
    from ruleproof.model.rulebook import load_rulebook

    rb = load_rulebook()
    direct = {c.element: c for c in rb.citations() if "512.6.2/b4.1.2" in c.clauses}
    assert "assumption A-strike-targets" in direct
    fight = [op for op in rb.spec.steps["dice"].operations if op.op == "determine_base" and op.params.get("table")]
    assert fight and all("512.6.2/b4.1.2" in op.cites and "A-strike-targets" in op.assumes for op in fight)
