"""`ruleproof check`: what it prints, its JSON, its languages, and the README that documents it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from ruleproof.cli import main
from ruleproof.model.structure import STRUCTURE_CHECKS
from ruleproof.model.vocabulary import FEATURE_KINDS, GUARDS, OPERATIONS, STEP_KINDS

ROOT = Path(__file__).resolve().parents[2]
CYRILLIC = re.compile("[А-Яа-яЁё]")


def test_json_output(capsys):
    assert main(["check", "--format", "json", "--engines", "structure"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "ruleproof-report/1" and doc["verdict"] == "holds" and doc["exit_code"] == 0
    assert doc["rulebook"]["id"] == "berserk-rp-4.1-2" and doc["rulebook"]["counts"]["steps"] == 9
    [section] = doc["sections"]
    assert [c["check"] for c in section["results"]] == [c.id for c in STRUCTURE_CHECKS]
    assert set(doc["assumptions"]) >= {"A-die-roll", "A-strike-table", "A-action-marker"}


def test_json_output_with_a_finding(write_rulebook, op_index, capsys):
    def edit(d):
        d["steps"]["dice"]["operations"][op_index(d, "dice", "window", id="reroll")]["first"] = "non_active_player"
    path = write_rulebook(edit)
    assert main(["check", str(path), "--format", "json", "--engines", "structure"]) == 1
    doc = json.loads(capsys.readouterr().out)
    [bad] = [c for c in doc["sections"][0]["results"] if c["verdict"] != "holds"]
    [f] = bad["findings"]
    assert f["check"] == "S5-active-player-first" and f["clauses"] == ["512.6.2/b2"]
    assert f["where"].startswith(f"{path}:") and f["message"]["ru"] and f["message"]["en"]


def test_english_output_has_no_russian_labels(capsys):
    assert main(["--lang", "en", "check", "--engines", "structure"]) == 0
    out = capsys.readouterr().out
    headers = [ln for ln in out.splitlines() if "┃" in ln]
    assert headers and not any(CYRILLIC.search(h) for h in headers)
    assert "Structural checks of the phase graph" in out and "Assumptions" in out


def test_russian_output_has_russian_labels(capsys):
    assert main(["check", "--lang", "ru", "--engines", "structure"]) == 0
    out = capsys.readouterr().out
    headers = [ln for ln in out.splitlines() if "┃" in ln]
    assert all(CYRILLIC.search(h) for h in headers)
    assert "Все проверки выполнены (7)." in out and "Допущения" in out


def test_console_script_and_module_entry():
    for cmd in ([sys.executable, "-m", "ruleproof", "check"], [str(Path(sys.executable).parent / "ruleproof"), "check"]):
        proc = subprocess.run(cmd + ["--lang", "en", "--engines", "structure"], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        assert "Every check holds (7)." in proc.stdout


def test_readme_documents_the_vocabulary_and_checks():
    readme = (ROOT / "README.md").read_text("utf-8")
    for name in [*STEP_KINDS, *OPERATIONS, *FEATURE_KINDS, *GUARDS, *(c.id for c in STRUCTURE_CHECKS)]:
        assert f"`{name}" in readme, name


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text("utf-8")
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    blocks = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    assert len(blocks) == 2
    install, tests = blocks
    assert install in ci and tests in ci
    assert "rc\" -eq 5" in ci
