"""Several cases in one ruling file (`cases:`): one world, each case changing what it says and
expecting its own outcome; one ruling (test item, report row) per case; bad input names the case."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from ruleproof.cli import main
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.scenario import load_rulings, load_scenario, run_scenario

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "rulings" / "512-after-status.yaml"


def _line(path: Path, needle: str, after: str | None = None) -> int:
    """The line of the first match of the regex ``needle`` (after the first line matching ``after``)."""
    lines = path.read_text("utf-8").splitlines()
    start = next(i for i, t in enumerate(lines) if re.search(after, t)) if after else 0
    return next(i for i, t in enumerate(lines[start:], start + 1) if re.search(needle, t))


def test_each_case_is_a_ruling_of_its_own_on_the_shared_world(bundled):
    blocked, open_ = load_rulings(CASES)
    assert (blocked.spec.id, open_.spec.id) == ("after-by-status/blocked", "after-by-status/not-blocked")
    assert blocked.spec.cards == open_.spec.cards and blocked.spec.action == open_.spec.action
    assert blocked.spec.clauses == ["512.6.6/b2", "512.6.6", "512.6.4/b3"]  # the file's, then the case's
    a, b = run_scenario(blocked, bundled), run_scenario(open_, bundled)
    assert a.passed and b.passed
    assert a.trace.final.action.status == "blocked" and b.trace.final.action.status == "hit"
    assert [u[2] for u in a.trace.unused] == ["rune_spite"] and [u[2] for u in b.trace.unused] == ["rune_recover"]


def test_the_file_itself_is_not_run_whole():
    with pytest.raises(ValueError, match="cases"):
        run_scenario(load_scenario(CASES), load_rulebook())


def test_a_case_changes_a_card_and_its_failures_point_into_the_case(edited_copy, tmp_path, bundled):
    def edit(d):
        d["cases"][1]["cards"] = {"warden": {"wounds": 0}}  # healthy now: expect says 1
    p = edited_copy(CASES, edit)
    blocked, open_ = load_rulings(p)
    assert blocked.initial_state().card("warden").wounds == 1 and open_.initial_state().card("warden").wounds == 0
    res = run_scenario(open_, bundled)
    assert [f.what for f in res.failures] == ["cards.warden.wounds"]
    assert open_.where(("expect", "cards", "warden")).line == _line(p, "warden:", after="id: not-blocked")
    assert open_.where(("cards", "warden", "wounds")).line == _line(p, "wounds: 0", after="id: not-blocked")
    assert open_.where(("cards", "warden", "name")).line == _line(p, "name: Страж рун")  # the file's


@pytest.mark.parametrize("edit,code,needle,after", [
    (lambda d: d.update(expect={"outcome": "completed"}), "RP150", "^expect:", None),
    (lambda d: d["cases"][1].update(id="blocked"), "RP150", "id: blocked$", "expect:"),
    (lambda d: d["cases"][0].update(cards={"wardn": {"wounds": 0}}), "RP161", "wardn", None),
    (lambda d: d["cases"][1]["responses"][0].update(play="rune_spit"), "RP162", "rune_spit$", None),
    (lambda d: d["cases"][0].update(dice="four"), "RP110", "dice: four", None),
    (lambda d: d["cases"][0].pop("expect"), "RP111", "- id: blocked", None),
])
def test_bad_input_in_a_case_points_at_its_line(edited_copy, tmp_path, capsys, edit, code, needle, after):
    p = edited_copy(CASES, edit)
    assert main(["--lang", "en", "run", str(p)]) == 2
    err = capsys.readouterr().err
    assert f"{p}:{_line(p, needle, after)}:" in err and f"error {code}" in err, err
    assert "Traceback" not in err


def test_a_file_without_cases_needs_its_expect(tmp_path, capsys):
    data = yaml.safe_load((ROOT / "rulings" / "512-block.yaml").read_text("utf-8"))
    del data["expect"]
    p = tmp_path / "no-expect.yaml"
    p.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    assert main(["--lang", "ru", "run", str(p)]) == 2
    err = capsys.readouterr().err
    assert "ошибка RP111: в корне файла нет обязательного ключа 'expect'" in err, err


def test_run_runs_every_case_or_the_one_named(tmp_path, capsys):
    assert main(["--lang", "en", "run", str(CASES)]) == 0
    out = capsys.readouterr().out
    assert "Scenario after-by-status/blocked: the outcome is as expected" in out
    assert "Scenario after-by-status/not-blocked: the outcome is as expected" in out
    assert "Cases with the expected outcome: 2 of 2." in out
    assert main(["--lang", "en", "run", str(CASES), "--case", "blocked", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [c["scenario"] for c in doc["cases"]] == ["after-by-status/blocked"] and doc["passed"]
    assert doc["cases"][0]["replay"] == f"ruleproof run {CASES} --case blocked"
    assert main(["--lang", "en", "run", str(CASES), "--case", "blockd"]) == 2
    err = capsys.readouterr().err
    assert "no case 'blockd'" in err and "blocked, not-blocked" in err


def test_a_failing_case_replays_by_its_id(edited_copy, tmp_path, capsys):
    p = edited_copy(CASES, lambda d: d["cases"][0]["expect"]["cards"]["goblin"].update(wounds=2))
    assert main(["--lang", "ru", "run", str(p)]) == 1
    out = capsys.readouterr().out
    assert "cards.goblin.wounds: ожидалось 2, получено 0" in out
    assert f"ruleproof run {p} --case blocked" in out
    assert "Вариантов с ожидаемым исходом: 1 из 2." in out
