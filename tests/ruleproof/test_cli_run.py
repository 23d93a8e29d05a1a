"""`ruleproof run SCENARIO [--rulebook R]`: the trace as a table, the verdict, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from ruleproof.cli import main
from ruleproof.generators.mutants import write_mutant

ROOT = Path(__file__).resolve().parents[2]
KELE = str(ROOT / "rulings" / "540-kele-attacker.yaml")


def test_run_prints_the_trace_and_the_verdict(capsys):
    assert main(["--lang", "en", "run", KELE]) == 0
    out = capsys.readouterr().out
    assert "(pay_reserved)" in out and "unpaid=kele:close:k" in out
    assert "berserk-rp-4.1-2.yaml:" in out  # the rulebook line of each event
    assert "Scenario kele-attacker: the outcome is as expected" in out


def test_run_on_a_faulty_draft_fails_with_a_replay(tmp_path, capsys):
    draft = write_mutant("M4", tmp_path)
    assert main(["--lang", "ru", "run", KELE, "--rulebook", str(draft)]) == 1
    out = capsys.readouterr().out
    assert "исход расходится с ожидаемым" in out
    assert "cards.kele.action_markers: ожидалось 1, получено 0" in out
    assert f"повторить: ruleproof run {KELE} --rulebook {draft}" in out


def test_run_json(tmp_path, capsys):
    draft = write_mutant("M5", tmp_path)
    assert main(["run", KELE, "--rulebook", str(draft), "--format", "json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["passed"] is False and doc["scenario"] == "kele-attacker"
    assert any(f["what"] == "cards.kele.closed" for f in doc["failures"])
    assert doc["trace"][0]["op"] == "enter" and doc["trace"][0]["rule"].endswith(":3")


def test_run_quotes_the_official_text_on_failure(tmp_path, capsys, seeds):
    draft = write_mutant("M4", tmp_path)
    assert main(["--lang", "ru", "run", KELE, "--rulebook", str(draft), "--rules-text", str(seeds)]) == 1
    assert "«Если особенность, модифицирующая ресурсы, применяется в отношении действия" in capsys.readouterr().out
