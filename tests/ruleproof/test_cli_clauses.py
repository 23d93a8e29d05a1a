"""Tests of `ruleproof clauses` (list the clause index, compare rules texts)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ruleproof.cli import main
from ruleproof.model.clauses import default_index

HERE = Path(__file__).resolve()
DATA = HERE.parents[1] / "data"
V1 = DATA / "rules_synthetic"
V2 = DATA / "rules_synthetic_v2"
SEEDS = HERE.parents[3] / "shared" / "seeds"
CYRILLIC = re.compile(r"[А-Яа-яЁё]")


@pytest.fixture
def seeds_dir() -> Path:
    if not SEEDS.is_dir() or not list(SEEDS.glob("*.txt")):
        pytest.skip(f"the rule excerpts are not available at {SEEDS}")
    return SEEDS


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_json(capsys, *argv: str) -> tuple[int, dict]:
    code, out, err = run(capsys, *argv, "--format", "json")
    assert "Traceback" not in err
    return code, json.loads(out)


def header_line(out: str) -> str:
    """The column-header row of a rich table (the line between ┏…┓ and ┡…┩)."""
    rows = [ln for ln in out.splitlines() if ln.startswith("┃")]
    assert rows, out[:500]
    return rows[0]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    for name in ("RULEPROOF_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        env.pop(name, None)
    env["LANG"] = "C.UTF-8"
    env["PYTHONIOENCODING"] = "utf-8"
    return env


# ---------------------------------------------------------------- listing the index


def test_clauses_lists_the_index(capsys):
    code, out, err = run(capsys, "--lang", "en", "clauses")
    assert code == 0
    assert err == ""
    assert "512.6.3/b4" in out
    assert "540.4.1/ex1 (Kele)" in out
    assert "Clause index" in out
    for cid in ("122", "512.5/t1", "542.8/ex1"):
        assert re.search(rf"^│ {re.escape(cid)}\b", out, re.M), cid


def test_clauses_json_has_92_units(capsys):
    code, doc = run_json(capsys, "clauses")
    assert code == 0
    assert doc["schema"] == "ruleproof-clauses/1"
    assert len(doc["units"]) == 92 == len(default_index())
    by_id = {u["id"]: u for u in doc["units"]}
    assert by_id["512.6.3/b4"]["status"] == "available"
    assert by_id["519"]["status"] == "referenced"
    assert by_id["512.5"]["status"] == "partial"
    assert by_id["542.6/ex1"]["title"] == {"ru": "Серк", "en": "Serk"}
    assert set(by_id["512.6.3/b4"]["summary"]) == {"ru", "en"}
    assert not any("official" in u for u in doc["units"])  # no rules text given: no wording
    assert "not_in_index" not in doc


def test_lang_ru_labels(capsys):
    code, out, _ = run(capsys, "clauses", "--lang", "ru")
    assert code == 0
    assert "Указатель пунктов" in out
    header = header_line(out)
    for label in ("номер", "вид", "статус", "суть"):
        assert label in header
    assert "есть в выдержках" in out
    assert "только упоминается, текста нет" in out
    assert "Не в выдержках" in out


def test_lang_en_headers_have_no_cyrillic(capsys):
    code, out, _ = run(capsys, "clauses", "--lang", "en")
    assert code == 0
    header = header_line(out)
    assert not CYRILLIC.search(header), header
    for label in ("id", "kind", "status", "summary"):
        assert label in header
    assert "in the excerpts" in out
    assert "Not in the excerpts" in out


def test_lang_option_before_or_after_the_command(capsys):
    _, before, _ = run(capsys, "--lang", "ru", "clauses")
    _, after, _ = run(capsys, "clauses", "--lang", "ru")
    assert before == after


def test_console_entry_via_subprocess():
    proc = subprocess.run([sys.executable, "-m", "ruleproof", "--lang", "en", "clauses", "--format", "json"],
                          capture_output=True, text=True, encoding="utf-8", env=_env(), timeout=60)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert len(doc["units"]) == 92
    assert "512.6.3/b4" in {u["id"] for u in doc["units"]}


# ---------------------------------------------------------------- with the real rules text


def test_rules_text_json_includes_official_wording(capsys, seeds_dir):
    code, doc = run_json(capsys, "clauses", "--rules-text", str(seeds_dir))
    assert code == 0
    by_id = {u["id"]: u for u in doc["units"]}
    assert by_id["512.6.3/b4"]["official"].startswith("Фиксируется переменное значение X")
    assert by_id["542.6/ex1"]["official"].startswith("Серк")
    assert "official" not in by_id["519"]  # referenced only: no wording
    assert by_id["512.5"]["official"].startswith("После разрешения всех особенностей")  # partial: its tail
    assert doc["not_in_index"] == []
    assert doc["not_in_text"] == []
    assert doc["referenced_only"] == ["122", "306", "510.2", "510.4", "511", "518", "519", "520", "526"]


def test_rules_text_term_shows_sources_and_comparison(capsys, seeds_dir):
    code, out, _ = run(capsys, "--lang", "en", "clauses", "--rules-text", str(seeds_dir))
    assert code == 0
    assert "official text" in header_line(out)
    assert "(75 units)" in out
    assert "In the index but not in the text: —" in out
    assert "Referenced but not contained in the text: 122, 306, 510.2" in out


def test_synthetic_rules_text_is_compared_with_the_index(capsys):
    code, doc = run_json(capsys, "clauses", "--rules-text", str(V1))
    assert code == 0
    assert doc["not_in_index"][:3] == ["710", "710.1", "710.1/b1"]
    assert "512.6.3/b4" in doc["not_in_text"]
    assert doc["referenced_only"] == ["777"]


# ---------------------------------------------------------------- --against


def test_against_lists_changed_added_removed(capsys):
    code, doc = run_json(capsys, "clauses", "--rules-text", str(V1), "--against", str(V2))
    assert code == 1
    assert doc["schema"] == "ruleproof-clause-diff/1"
    assert [c["id"] for c in doc["changed"]] == ["710.1/b1", "710.2/ex1"]
    assert [c["id"] for c in doc["added"]] == ["730.2"]
    assert [c["id"] for c in doc["removed"]] == ["729/t2"]
    changed = {c["id"]: c for c in doc["changed"]}
    assert changed["710.1/b1"]["old"] == "шага подготовки;"
    assert changed["710.1/b1"]["new"] == "шага разминки;"
    assert doc["added"][0]["old"] is None and doc["added"][0]["new"] == "Пас не обязателен в начале хода."
    assert doc["removed"][0]["new"] is None and doc["removed"][0]["old"] == "Затем игрок берёт новую карту."
    # the bundled rulebook cites no 7xx clause
    assert all(c["cited_by"] == [] for group in ("changed", "added", "removed") for c in doc[group])


def test_against_term_output(capsys):
    code, out, _ = run(capsys, "--lang", "en", "clauses", "--rules-text", str(V1), "--against", str(V2))
    assert code == 1
    assert "Wording changed (2)" in out
    assert "Added (1)" in out and "Removed (1)" in out
    assert "− «шага подготовки;»" in out and "+ «шага разминки;»" in out
    assert f"{V2 / '001_opening.txt'}:3" in out  # where the changed unit now is
    assert "cited by: no model element" in out


def test_against_same_text_has_no_changes(capsys):
    code, out, _ = run(capsys, "--lang", "en", "clauses", "--rules-text", str(V1), "--against", str(V1))
    assert code == 0
    assert "No wording changed" in out


def test_against_same_text_json(capsys):
    code, doc = run_json(capsys, "clauses", "--rules-text", str(V1), "--against", str(V1))
    assert code == 0
    assert doc["changed"] == doc["added"] == doc["removed"] == []


def test_against_ignores_whitespace_only_changes(capsys, tmp_path):
    copy = tmp_path / "v1"
    shutil.copytree(V1, copy)
    f = copy / "001_opening.txt"
    f.write_text(f.read_text("utf-8").replace("● шага подготовки;", "●   шага   подготовки;  "), "utf-8")
    code, doc = run_json(capsys, "clauses", "--rules-text", str(V1), "--against", str(copy))
    assert code == 0
    assert doc["changed"] == []


def test_against_without_rules_text_is_bad_input(capsys):
    code, out, err = run(capsys, "--lang", "en", "clauses", "--against", str(V2))
    assert code == 2
    assert out == ""
    assert "RP150" in err
    assert "--against needs --rules-text" in err
    assert "Traceback" not in err


def test_against_without_rules_text_subprocess_has_no_traceback():
    proc = subprocess.run([sys.executable, "-m", "ruleproof", "--lang", "en", "clauses", "--against", str(V2)],
                          capture_output=True, text=True, encoding="utf-8", env=_env(), timeout=60)
    assert proc.returncode == 2
    assert "RP150" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 2  # the message and the fix


@pytest.mark.parametrize("argv", [
    ["clauses", "--rules-text", "{missing}"],
    ["clauses", "--rules-text", "{missing}", "--format", "json"],
    ["clauses", "--rules-text", "{v1}", "--against", "{missing}"],
])
def test_missing_rules_text_is_rp100(capsys, tmp_path, argv):
    missing = tmp_path / "no-such-rules"
    argv = [a.format(missing=missing, v1=V1) for a in argv]
    code, out, err = run(capsys, "--lang", "en", *argv)
    assert code == 2
    assert out == ""
    assert "RP100" in err
    assert str(missing) in err
    assert "Traceback" not in err


def test_bad_rules_text_messages_in_russian(capsys, tmp_path):
    (tmp_path / "plain.txt").write_text("Просто текст без номеров.\n", "utf-8")
    code, _, err = run(capsys, "--lang", "ru", "clauses", "--rules-text", str(tmp_path))
    assert code == 2
    assert "RP140" in err and "ошибка" in err


def test_duplicated_fragment_is_bad_input(capsys, tmp_path):
    """Regression: this crashed with KeyError and a traceback on commit 224d758."""
    folder = tmp_path / "dup"
    shutil.copytree(V1, folder)
    shutil.copy(folder / "002_orphan.txt", folder / "003_orphan_copy.txt")
    code, out, err = run(capsys, "--lang", "en", "clauses", "--rules-text", str(folder))
    assert code == 2
    assert out == ""
    assert "RP141" in err and "clause 729 appears twice" in err
    assert "Traceback" not in err


def test_bullets_only_fragment_is_bad_input(capsys, tmp_path):
    folder = tmp_path / "bullets-only"
    shutil.copytree(V1, folder)
    (folder / "009_bullets.txt").write_text("● лишний пункт без номера\n", "utf-8")
    code, out, err = run(capsys, "--lang", "en", "clauses", "--rules-text", str(folder))
    assert code == 2
    assert out == ""
    assert "RP143" in err and "009_bullets.txt:1" in err


def test_against_real_excerpts_lists_citing_elements(capsys, tmp_path, seeds_dir):
    copy = tmp_path / "copy"
    shutil.copytree(seeds_dir, copy)
    holder = next(p for p in sorted(copy.glob("*.txt")) if "\n542.2. " in "\n" + p.read_text("utf-8"))
    old_text = holder.read_text("utf-8")
    assert old_text.count("в момент объявления этой особенности") == 1
    holder.write_text(old_text.replace("в момент объявления этой особенности",
                                       "на этапе оплаты этой особенности"), "utf-8")

    code, doc = run_json(capsys, "clauses", "--rules-text", str(seeds_dir), "--against", str(copy))
    assert code == 1
    assert [c["id"] for c in doc["changed"]] == ["542.2"]
    assert doc["added"] == [] and doc["removed"] == []
    change = doc["changed"][0]
    assert "в момент объявления" in change["old"] and "на этапе оплаты" in change["new"]
    cited_by = change["cited_by"]
    assert any("fix_x" in el and "declaration" in el for el in cited_by), cited_by
    assert "step declaration" in cited_by
    # exactly the rulebook's elements and the shipped rulings whose citation includes 542.2
    from ruleproof.clause_lookup import every_citation
    from ruleproof.model.clauses import ClauseIndex

    expected = [c.element for c in every_citation(None) if any(ClauseIndex.covers(cid, "542.2") for cid in c.clauses)]
    assert cited_by == expected
    assert "ruling cost-x" in cited_by and "property P542.2-cost-x" in cited_by


@pytest.mark.parametrize("lang, cited", [("en", "Cited by"), ("ru", "На пункт ссылаются")])
def test_a_clause_is_looked_up_with_everything_that_cites_it(capsys, lang, cited):
    """`ruleproof clauses 542.8`: the unit's summary, and the operation, property and rulings that cite it."""
    assert main(["--lang", lang, "clauses", "542.8"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("542.8 — ") and cited in out
    assert "P542.4-computed-x" in out and "leshy-heals-fully" in out and "fix_x" in out


def test_an_unknown_clause_looked_up_is_a_clear_error(capsys):
    assert main(["--lang", "en", "clauses", "542.99"]) == 2
    err = capsys.readouterr().err
    assert "RP121" in err and "542.8" in err and "Traceback" not in err
