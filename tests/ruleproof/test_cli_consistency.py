"""`ruleproof consistency`: verdicts, cores with clause text and file:line, JSON, languages, exit codes."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import z3

from ruleproof.cli import main
from ruleproof.properties.claims import CLAIMS

DRAFTS = Path(str(resources.files("ruleproof.rulebooks").joinpath("drafts")))
COST = str(DRAFTS / "cost-x-at-payment.yaml")
MAGNITUDE = str(DRAFTS / "magnitude-modifiers-first.yaml")
CYRILLIC = re.compile("[А-Яа-яЁё]")


def _fix_x_cost_line() -> int:
    lines = Path(COST).read_text("utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if "fix_x, x: cost" in line)


def test_bundled_rulebook_is_consistent(capsys):
    assert main(["--lang", "en", "consistency"]) == 0
    out = capsys.readouterr().out
    assert f"Claims checked: {len(CLAIMS)}" in out and "542.2" in out
    assert "Verdict: consistent" in out and "Z3 " in out and "seed 0" in out


def test_cost_draft_prints_the_core_with_clauses_and_lines(capsys):
    assert main(["--lang", "en", "consistency", COST]) == 1
    out = capsys.readouterr().out
    assert "Verdict: CONFLICT — minimal cores: 2." in out
    assert "Core 2: C540.2-reservation-needs-cost-x" in out
    assert "540.2 «" in out and "542.2 «" in out  # the clause with its (summary) text
    assert f"{COST}:{_fix_x_cost_line()}:" in out  # the moved operation, file:line
    assert f"replay: ruleproof consistency {COST}" in out
    assert not CYRILLIC.search(out)


def test_russian_output(capsys):
    assert main(["--lang", "ru", "consistency", MAGNITUDE]) == 1
    out = capsys.readouterr().out
    assert "Итог: ПРОТИВОРЕЧИЕ" in out and "Ядро 1:" in out and "элементы свода:" in out
    assert "Verdict" not in out and "Core 1" not in out


def test_rules_text_quotes_the_official_wording(seeds, capsys):
    assert main(["--lang", "ru", "consistency", MAGNITUDE, "--rules-text", str(seeds)]) == 1
    out = capsys.readouterr().out
    assert "непосредственно перед наложением модификаторов величины на Шаге расчёта" in out  # 542.4/b2


def test_json(capsys):
    assert main(["consistency", COST, "--format", "json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "ruleproof-consistency/1" and doc["status"] == "conflict"
    assert doc["rulebook"]["id"] == "draft-cost-x-at-payment" and doc["core"] == ["540.2", "542.2"]
    assert doc["z3"]["version"] == z3.get_version_string() and doc["z3"]["seed"] == 0
    assert len(doc["claims"]) == len(CLAIMS)
    verdicts = {c["id"]: c["verdict"] for c in doc["claims"]}
    assert verdicts["C540.2-reservation-needs-cost-x"] == "violated" and verdicts["C512.6.1-step-order"] == "holds"
    joint = doc["cores"][1]
    assert [c["id"] for c in joint["clauses"]] == ["540.2", "542.2"] and all(c["text"] for c in joint["clauses"])
    assert any(e["where"].startswith(f"{COST}:{_fix_x_cost_line()}:") for e in joint["elements"])


def test_json_bundled(capsys):
    assert main(["consistency", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["status"] == "consistent" and doc["cores"] == [] and doc["core"] == []
    assert {c["verdict"] for c in doc["claims"]} == {"holds"}


def test_unknown_exits_3(monkeypatch, capsys):
    monkeypatch.setattr(z3.Solver, "check", lambda self, *a: z3.unknown)
    monkeypatch.setattr(z3.Solver, "reason_unknown", lambda self: "timeout")
    assert main(["--lang", "en", "consistency"]) == 3
    out = capsys.readouterr().out
    assert "Verdict: unknown" in out and "timeout" in out and "consistent" not in out.replace("«consistent»", "")


def test_bad_input_exits_2(tmp_path, capsys):
    assert main(["consistency", str(tmp_path / "missing.yaml")]) == 2
    err = capsys.readouterr().err
    assert "RP100" in err and "Traceback" not in err
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: ruleproof-rulebook/1\nid: [\n", encoding="utf-8")
    assert main(["consistency", str(bad), "--format", "json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "bad.yaml" in captured.err
    assert main(["consistency", "--rules-text", str(tmp_path / "nowhere")]) == 2


def test_readme_lists_every_claim():
    """The claims table moved from the README to docs/consistency.md."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "consistency.md").read_text("utf-8")
    section = doc[doc.index("# Clause consistency"):]
    for c in CLAIMS:
        assert f"| `{c.id}` | {', '.join(c.clauses)} |" in section, c.id
