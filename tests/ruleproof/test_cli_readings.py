"""`ruleproof readings`: which alternative readings of the rulebook matter (issue 25), and `check`
naming the readings each ruling depends on."""

from __future__ import annotations

import pytest

import json
import re

from ruleproof.cli import main

KELE = "kele-defender"


def _json(capsys, *args) -> tuple[int, dict]:
    rc = main(["readings", *args, "--format", "json", "--jobs", "2"])
    out, err = capsys.readouterr()
    return rc, json.loads(out)


@pytest.mark.slow
def test_a_material_reading_names_the_property_and_the_smallest_differing_game(capsys):
    rc, doc = _json(capsys, "--only", "R-non-active-first-late", "--engines", "rulings,exhaustive,consistency")
    [row] = doc["readings"]
    assert rc == 0 and row["status"] == "material" and row["of"] == "A-active-first-late"
    assert row["properties"] == ["P512.6-active-player-first"]
    # broken in the bounded worlds and in the games of the shipped rulings (every property judges each)
    assert [(v["engine"], v["base"], v["draft"]) for v in row["verdicts"]] == [("exhaustive", "holds", "violated"),
                                                                                ("rulings", "holds", "violated")]
    d = row["smallest_difference"]
    assert d["base"][-1]["values"]["first"] == "A" and d["draft"][-1]["values"]["first"] == "B"
    assert doc["depends"] == {"P512.6-active-player-first": ["R-non-active-first-late"]}


@pytest.mark.slow
def test_a_reading_that_changes_no_check_is_immaterial_by_proof(capsys, monkeypatch, tmp_path):
    """The strike table's row 4 with a return strike: the games part (the return strike is there), but
    Z3 proves every property under both readings, every ruling and the clause consistency come out
    the same: immaterial, proved — not merely within the bounds — where the Z3 worlds hold every
    combination the rulebook admits; on the bundled menu (20 of 345) the proofs are *within the menu*,
    so the reading is immaterial within the bounds, exit 3."""
    rc, doc = _json(capsys, "--only", "R-strike-row-4", "--engines", "rulings,z3,consistency")
    [row] = doc["readings"]
    assert rc == 3 and row["status"] == "immaterial-bounded" and row["verdicts"] == []
    from ruleproof.model import menu
    from ruleproof.model.universe import Scope

    monkeypatch.setattr(menu, "menu_scope", lambda rb: Scope(345, 345, ()))  # a menu that held them all
    monkeypatch.setattr("ruleproof.properties.prove.menu_scope", lambda rb: Scope(345, 345, ()))
    monkeypatch.setattr("ruleproof.generators.run.CACHE_DIR", tmp_path)  # not the base's runs over the real menu
    rc, doc = _json(capsys, "--only", "R-strike-row-4", "--engines", "rulings,z3,consistency")
    [row] = doc["readings"]
    assert rc == 0 and row["status"] == "immaterial-proved"
    assert row["verdicts"] == row["rulings"] == row["conflicts"] == []
    assert row["smallest_difference"] is not None  # the games do part
    # without Z3 the same reading is only immaterial within the bounds: inconclusive, exit 3
    rc, doc = _json(capsys, "--only", "R-strike-row-4", "--engines", "rulings,exhaustive,consistency")
    assert rc == 3 and doc["readings"][0]["status"] == "immaterial-bounded"


def test_a_reading_that_changes_rulings(capsys):
    rc, doc = _json(capsys, "--only", "R-dice-step-kept", "--engines", "rulings")
    [row] = doc["readings"]
    assert row["status"] == "material"
    assert [r["ruling"] for r in row["rulings"]] == ["closes-after-assault-other", "implicit-x-printed",
                                                     "spell-skips-dice"]


def test_the_table_in_russian_has_no_english_prose_and_the_report_has_every_format(capsys, tmp_path):
    rc = main(["--lang", "ru", "readings", "--only", "R-dice-step-kept", "--engines", "rulings",
               "--jobs", "1", "--report", str(tmp_path)])
    out, err = capsys.readouterr()
    assert rc == 0
    assert "значимо" in out and "Та же партия при обоих прочтениях" in out and "▶" in out
    prose = re.sub(r"[A-Za-z0-9_.\-]+(?:=[^;│]*)?", "", out)  # ids, clause ids, event values
    assert not re.search(r"\b(the|reading|material|rulings?|verdict)\b", prose, re.I), prose
    assert "прочтение 1 из 1: R-dice-step-kept" in err
    assert {p.name for p in tmp_path.iterdir()} == {"readings.md", "readings.json", "readings.html"}
    html = (tmp_path / "readings.html").read_text("utf-8")
    assert 'data-reading="R-dice-step-kept"' in html and 'lang="ru"' in html and "<table" in html
    assert "▶" in (tmp_path / "readings.md").read_text("utf-8")


def test_an_unknown_reading_is_bad_input(capsys):
    rc = main(["readings", "--only", "R-strike-row-5", "--engines", "rulings"])
    out, err = capsys.readouterr()
    assert rc == 2 and "RP139" in err and "did you mean 'R-strike-row-4'" in err and out == ""
    rc = main(["--lang", "ru", "readings", "--only", "R-nope", "--engines", "rulings"])
    out, err = capsys.readouterr()
    assert rc == 2 and "неизвестное прочтение 'R-nope'" in err and "R-dice-step-kept" in err


def test_check_names_the_readings_each_ruling_depends_on(capsys):
    assert main(["check", "--engines", "rulings", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    [section] = [s for s in doc["sections"] if s["group"] == "rulings"]
    # (the properties on the rulings' games follow the rulings; which reading changes them: ruleproof readings)
    deps = {r["check"]: r["depends_on"] for r in section["results"] if not r["check"].startswith("P")}
    assert deps["per-turn-first"] == ["R-marker-before-payment (A-action-marker)"]
    assert deps["spell-skips-dice"] == ["R-dice-step-kept"]
    assert deps[KELE] == ["R-defender-marker (A-defender-no-marker)"]  # the defender gets no action marker
    assert deps["reduce-to-strength"] == []  # depends on none of the readings, and says so
    main(["--lang", "ru", "check", "--engines", "rulings"])
    out = capsys.readouterr().out
    # (the 140-column table folds the cell: «…свода» may go to the next line)
    assert "не меняется ни при одном из прочтений" in out and "меняется при прочтениях" in out


def test_the_check_report_lists_the_readings_with_the_rulings_each_changes(tmp_path, capsys):
    assert main(["--lang", "ru", "check", "--engines", "rulings", "--report", str(tmp_path),
                 "--format", "json,md,html"]) == 0
    capsys.readouterr()
    doc = json.loads((tmp_path / "report.json").read_text("utf-8"))
    assert sorted(doc["readings"]["R-marker-before-payment"]["rulings"]) == [
        "closed-card-cannot-close-again", "per-turn-first", "per-turn-lost-marker/marker-kept", "per-turn-lost-marker/marker-lost",
        "per-turn-marker-lost-own-action/marker-lost", "per-turn-one-turn"]
    assert doc["readings"]["R-strike-row-4"]["rulings"] == []
    assert doc["readings"]["R-closed-keeps-close"]["rulings"] == ["closed-card-cannot-close-again"]
    html = (tmp_path / "report.html").read_text("utf-8")
    assert '<section id="readings">' in html and 'data-reading="R-dice-step-kept"' in html
    assert "Другие прочтения свода" in (tmp_path / "report.md").read_text("utf-8")
    # without the rulings the report says they did not run, not that nothing changes
    main(["check", "--engines", "structure", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert doc["readings"]["R-strike-row-4"]["rulings"] is None


def test_check_names_the_readings_a_findings_counterexample_rests_on(tmp_path, capsys):
    """A draft that keeps the readings (here M4 written over the bundled rulebook with them): its
    violated property names the readings under which the same game (world, dice, choices) no longer
    breaks it, and its finding the assumptions those replace; a property that holds names none."""
    import yaml

    from ruleproof.generators.mutants import mutate
    from ruleproof.model.rulebook import bundled_rulebook_path

    data = mutate("M4", yaml.safe_load(bundled_rulebook_path().read_text("utf-8")))
    assert "readings" in data
    p = tmp_path / "m4.yaml"
    p.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    assert main(["check", str(p), "--engines", "exhaustive", "--format", "json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    results = {r["check"]: r for s in doc["sections"] for r in s["results"]}
    broken = results["P540.3-action-marker"]
    assert broken["depends_on"] == ["R-dice-step-kept"]
    assert [f["assumptions"] for f in broken["findings"] if f["verdict"] == "violated"] == [["R-dice-step-kept"]]
    assert "depends_on" not in results["P512.6.1-order"]  # holds: there is no game to replay
