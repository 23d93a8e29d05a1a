"""`--rulings DIR` on `check`, `diff` and `readings`: a team's own rulings run with the shipped ones, and
every property judged on every ruling's game (issue 45: rulings probe the universe of games)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from ruleproof.cli import main
from ruleproof.generators.mutants import write_mutant
from ruleproof.model.rulebook import bundled_rulebook_path
from ruleproof.properties.catalogue import PROPERTIES

ROOT = Path(__file__).resolve().parents[2]
BASE = str(bundled_rulebook_path())
#: the engines of these tests: the rulings engine alone is what --rulings feeds (and it is fast)
ENGINES = ["--engines", "structure,rulings", "--jobs", "1"]


def _team(folder: Path, source: str, rid: str, edit=None, name: str | None = None) -> Path:
    """A copy of the shipped ruling ``rulings/<source>`` in the team's ``folder``, with the id ``rid``
    (and ``edit(data)`` applied)."""
    data = yaml.safe_load((ROOT / "rulings" / source).read_text("utf-8"))
    data["id"] = rid
    if edit:
        edit(data)
    folder.mkdir(exist_ok=True)
    path = folder / (name or f"{rid}.yaml")
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def _rulings(doc: dict) -> dict[str, dict]:
    [section] = [s for s in doc["sections"] if s["group"] == "rulings"]
    return {r["check"]: r for r in section["results"]}


def test_a_team_folder_runs_with_the_shipped_rulings(tmp_path, capsys):
    team = tmp_path / "team"
    _team(team, "540-kele-attacker.yaml", "team-kele")
    assert main(["check", *ENGINES, "--rulings", str(team), "--format", "json"]) == 0
    results = _rulings(json.loads(capsys.readouterr().out))
    assert results["team-kele"]["verdict"] == "holds" and "kele-attacker" in results
    # every property of the catalogue judged on the rulings' games, one row each, after the rulings
    assert [r for r in results if r.startswith("P")] == [p.id for p in PROPERTIES]
    rulings = len(results) - len(PROPERTIES)
    assert re.fullmatch(rf"\d+ game actions of {rulings} rulings; premise in \d+", results["P540.3-action-marker"]["note"])
    assert main(["--lang", "ru", "check", *ENGINES, "--rulings", str(team), "--rulings", str(team)]) == 0
    out = capsys.readouterr().out
    assert "team-kele" in out and "в играх разъяснений (ситуация" in out


@pytest.mark.parametrize("write, code, line", [
    (lambda p: p.write_text("format: ruleproof-scenario/1\nid: x\n  bad: [\n", encoding="utf-8"), "RP103", 3),
    (lambda p: p.write_text((ROOT / "rulings" / "540-kele-attacker.yaml").read_text("utf-8")
                            .replace("id: kele-attacker", "id: team-kele").replace('"540.3"', '"540.99"', 1),
                            encoding="utf-8"), "RP121", None),
    (lambda p: p.write_text((ROOT / "rulings" / "540-kele-attacker.yaml").read_text("utf-8"), encoding="utf-8"),
     "RP167", None),  # the id of a shipped ruling
])
def test_a_bad_ruling_file_is_bad_input_with_its_place(tmp_path, capsys, write, code, line):
    team, out = tmp_path / "team", tmp_path / "out"
    team.mkdir()
    out.mkdir()
    bad = team / "bad.yaml"
    write(bad)
    for argv in (["check", *ENGINES, "--rulings", str(team), "--report", str(out), "--format", "md,json"],
                 ["diff", BASE, BASE, "--engines", "rulings", "--jobs", "1", "--no-cache", "--rulings", str(team)],
                 ["readings", "--only", "R-strike-row-4", "--engines", "rulings", "--jobs", "1", "--rulings", str(team)]):
        assert main(["--lang", "en", *argv]) == 2, argv
        stdout, err = capsys.readouterr()
        assert err.startswith(f"{bad}:{line or ''}") and f"error {code}" in err, err
        assert "Traceback" not in err and err.count("\n") == 2 and stdout == ""
    assert list(out.iterdir()) == []  # nothing written


def test_a_folder_that_is_missing_or_holds_no_ruling_is_bad_input(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("not a ruling", encoding="utf-8")
    for folder in (tmp_path / "missing", tmp_path / "empty", tmp_path / "empty" / "notes.txt"):
        assert main(["--lang", "ru", "check", *ENGINES, "--rulings", str(folder)]) == 2
        out, err = capsys.readouterr()
        assert err.startswith(f"ошибка RP166: --rulings {folder}: ") and "Traceback" not in err and out == ""


def test_a_ruling_whose_game_violates_a_property_is_a_finding(tmp_path, capsys):
    """M4 gives no action marker to an action whose resources were modified (540.3).  The team's ruling
    expects only that the action completes, so it passes — but its game breaks P540.3-action-marker:
    the property or the rulebook is wrong there, and the report says so, with its events and replay."""
    draft, team = write_mutant("M4", tmp_path), tmp_path / "team"
    loose = _team(team, "540-kele-attacker.yaml", "team-kele-loose", lambda d: d.update(expect={"outcome": "completed"}))
    out = tmp_path / "out"
    assert main(["check", str(draft), *ENGINES, "--rulings", str(team), "--report", str(out),
                 "--format", "term,md,html,json,junit"]) == 1
    term = capsys.readouterr().out
    results = _rulings(json.loads((out / "report.json").read_text("utf-8")))
    assert results["team-kele-loose"]["verdict"] == "holds"  # its own expectations hold
    prop = results["P540.3-action-marker"]
    assert prop["verdict"] == "violated" and prop["engine"] == "interpreter"
    [f] = [f for f in prop["findings"] if f["where"] == str(loose)]
    assert f["kind"] == "ruling_property" and f["verdict"] == "violated"
    assert f["replay"] == f"ruleproof run {loose} --rulebook {draft}" and f["scenario"] == str(loose)
    assert f["message"]["en"].startswith("property P540.3-action-marker is violated in the game of ruling "
                                         "team-kele-loose: the property or the rulebook is wrong here (clauses 540.3")
    assert f["message"]["ru"].startswith("свойство P540.3-action-marker нарушено в игре разъяснения team-kele-loose: "
                                         "свойство или свод правил здесь неверны (пункты 540.3")
    assert f["highlight"] and f["trace"]  # the team's own rulings are shown with their run first
    assert {e["seq"] for e in f["trace"]} >= set(f["highlight"])
    assert "property violated in a ruling's game" in term and f"ruleproof run {loose}" in term
    md = (out / "report.md").read_text("utf-8")
    assert "team-kele-loose" in md and "property violated in a ruling's game" in md
    assert "team-kele-loose" in (out / "report.html").read_text("utf-8")
    # a report stays bounded: the shipped rulings that break it too are listed, only the first few with a trace
    shown = [g for g in prop["findings"] if g["trace"]]
    assert len(prop["findings"]) > 3 and len(shown) == 3
    assert all("replay command shows it" in g["message"]["en"] for g in prop["findings"] if not g["trace"])


def test_each_game_action_of_a_turn_is_judged_on_its_own(tmp_path, capsys):
    """A ruling of several game actions (``then:``): each action's trace is judged, and the violation in
    the second one is marked on the whole turn's numbering."""
    draft, team = write_mutant("M4", tmp_path), tmp_path / "team"

    def loose(d):
        d["expect"] = {"outcome": "completed"}
        for f in d["then"]:
            f["expect"] = {"outcome": "completed"}

    _team(team, "540-per-turn-one-turn.yaml", "team-one-turn", loose)
    assert main(["check", str(draft), *ENGINES, "--rulings", str(team), "--format", "json"]) == 1
    results = _rulings(json.loads(capsys.readouterr().out))
    assert results["team-one-turn"]["verdict"] == "holds"
    mine = [f for f in results["P540.3-action-marker"]["findings"] if "team-one-turn" in f["message"]["en"]]
    first, second = mine
    assert "team-one-turn (game action 1 of 2):" in first["message"]["en"]
    assert "team-one-turn (game action 2 of 2):" in second["message"]["en"]
    assert "team-one-turn (игродействие 2 из 2):" in second["message"]["ru"]
    trace = first["trace"]
    ends = [e["seq"] for e in trace if e["op"] == "end"]
    assert first["highlight"] == [ends[0]] and second["highlight"] == [ends[1]]


def test_diff_compares_the_team_rulings_too(tmp_path, capsys):
    draft, team = write_mutant("M4", tmp_path), tmp_path / "team"
    _team(team, "540-kele-attacker.yaml", "team-kele")
    argv = ["diff", BASE, str(draft), "--engines", "rulings", "--jobs", "1", "--no-cache", "--format", "json",
            "--bounds", "x=0,loadouts=none"]  # small bounds: the smallest differing game is found at once
    assert main([*argv, "--rulings", str(team)]) == 1
    doc = json.loads(capsys.readouterr().out)
    changed = {r["ruling"]: (r["base"], r["draft"]) for r in doc["rulings"]}
    assert changed["team-kele"] == ("passes", "fails") and changed["kele-attacker"] == ("passes", "fails")
    # and the property on the rulings' games: holds on the base, violated on the draft
    assert {(v["property"], v["engine"], v["base"], v["draft"]) for v in doc["verdicts"]} == {
        ("P540.3-action-marker", "rulings", "holds", "violated")}
    assert main(argv) == 1
    assert "team-kele" not in {r["ruling"] for r in json.loads(capsys.readouterr().out)["rulings"]}


def test_readings_judge_by_the_team_rulings_too(tmp_path, capsys):
    team = tmp_path / "team"
    _team(team, "540-per-turn-first.yaml", "team-per-turn-first")
    assert main(["readings", "--only", "R-marker-before-payment", "--engines", "rulings", "--jobs", "1",
                 "--rulings", str(team), "--format", "json"]) == 0
    out, _ = capsys.readouterr()
    [row] = json.loads(out)["readings"]
    rulings = {r["ruling"] for r in row["rulings"]}
    assert row["status"] == "material" and {"per-turn-first", "team-per-turn-first"} <= rulings
