"""`ruleproof explain SCENARIO`: a ruling's game told step by step (position, each step with its clauses quoted,
the cards before and after each play, the outcome, why an expectation is not met), in Russian and English;
and `run`'s compact trace (the choices, the guards' decisions and the changes; `--full` every event)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ruleproof.cli import main
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.rules_text import load_rules_text
from ruleproof.model.scenario import run_scenario, shipped_scenarios
from ruleproof.reports.narrative import narrate, render_text

ROOT = Path(__file__).resolve().parents[2]
KELE = str(ROOT / "rulings" / "540-kele-attacker.yaml")
DRAFT = str(ROOT / "rulebooks" / "drafts" / "marker-only-when-paid.yaml")
SEEDS = ROOT.parent / "shared" / "seeds"


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_shipped_ruling_is_told_with_the_clause_of_each_step(lang):
    """Each step names the clause units it applies, and each is quoted in that step or one before it (the rules
    text's wording where ../shared/seeds is present, else ruleproof's summary), or said to lie outside the
    excerpts."""
    rb = load_rulebook(None)
    rules = load_rules_text(SEEDS) if SEEDS.is_dir() else None
    told = 0
    for _, sc in shipped_scenarios():
        res = run_scenario(sc, rb)
        story = narrate(res, rb, lang, rules=rules)
        quoted: set[str] = set()
        steps = [b for b in story.blocks if b.kind == "step"]
        assert steps, sc.spec.id
        for b in steps:
            quoted |= {cid for cid, text, _ in b.quotes if text}
            assert b.clauses, (sc.spec.id, b.heading)
            unquoted = [c for c in b.clauses if c not in quoted and rb.index.status(c) != "referenced"]
            assert not unquoted, (sc.spec.id, b.heading, unquoted)
        assert story.blocks[0].kind == "position" and story.blocks[-1].kind in ("outcome", "why_not")
        assert render_text(story, lang).count("\n") > 10
        told += 1
    assert told >= 84


def test_explain_tells_the_plays_with_the_cards_before_and_after(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["--lang", "ru", "explain", KELE]) == 0
    out = capsys.readouterr().out
    assert "Исходное положение" in out and "Келе (kele), игрок A: ран 2; открыта; ресурсы: close 1" in out
    assert "Розыгрыш: игрок A разыгрывает kele_heal карты kele в окне effect_triggers" in out
    assert "до: Келе (kele), игрок A: ран 2" in out and "после: Келе (kele), игрок A: ран 0" in out
    assert "Брошен кубик: 4." in out and "пункты: 512.6.1/b1, 512.6.2/b1" in out
    assert "Итог" in out and "Всё, что ожидает разъяснение, выполнено." in out
    assert main(["--lang", "en", "explain", KELE]) == 0
    out = capsys.readouterr().out
    assert "A play: player A plays kele_heal of kele in window effect_triggers" in out
    assert "before: Келе (kele), player A: wounds 2" in out and "The die is rolled: 4." in out


@pytest.mark.parametrize("lang, why, choice", [
    ("ru", "Почему не так: cards.kele.action_markers: ожидалось 1, получено 0",
     "№67 (payment): «выдать маркер действия» не выполняется: «ресурсы игродействия модифицированы» — так и есть "
     "(условие свода: not resource_modified)"),
    ("en", "Why not: cards.kele.action_markers: expected 1, got 0",
     "#67 (payment): «give the action marker» is not performed: «the game action's resources are modified» is so "
     "(the rulebook's guard: not resource_modified)"),
])
def test_explain_says_why_an_expectation_is_not_met(lang, why, choice, capsys, monkeypatch):
    """The draft gives no marker to a card whose resources a feature modified: the story names the guard that
    skipped the marker, its rulebook line, and the assumptions the operation rests on."""
    monkeypatch.setenv("COLUMNS", "400")
    assert main(["--lang", lang, "explain", KELE, "--rulebook", DRAFT]) == 1
    out = capsys.readouterr().out
    assert why in out and choice in out
    assert "marker-only-when-paid.yaml:420" in out and "A-action-marker" in out


def test_explain_quotes_the_rules_text_when_given(capsys, seeds, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")
    assert main(["--lang", "ru", "explain", KELE, "--rules-text", str(seeds), "--full"]) == 0
    out = capsys.readouterr().out
    assert "540.3: «Если особенность, модифицирующая ресурсы, применяется в отношении действия" in out
    assert "(пересказ ruleproof)" not in out  # every unit quoted is in the rules text given: its wording


def test_explain_json_and_bad_case(capsys):
    assert main(["explain", KELE, "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "ruleproof-explain/1" and doc["passed"] is True
    kinds = [b["kind"] for b in doc["stories"][0]["blocks"]]
    assert kinds[0] == "position" and "play" in kinds and kinds[-1] == "outcome"
    assert main(["explain", KELE, "--case", "nope"]) == 2
    assert "RP150" in capsys.readouterr().err


def test_run_is_compact_by_default_and_full_on_request(capsys):
    """By default `run` shows the position, the choices, the guards' decisions and what changed, each event named
    in the reader's language; `--full` every event."""
    from ruleproof.commands.run import shown_events
    from ruleproof.model.scenario import load_scenario

    rb = load_rulebook(None)
    res = run_scenario(load_scenario(KELE, rb.index), rb)
    compact, full = shown_events(res, "ru", False), shown_events(res, "ru", True)
    assert len(full) == len(res.trace.events) and 0 < len(compact) < len(full) // 2
    ops = [r["op"] for r in compact]
    assert "pass" not in ops and "pass" in [r["op"] for r in full]
    assert {"roll_die", "play", "pay_reserved", "give_action_marker", "end"} <= set(ops)
    assert any(d["path"] == ["cards", "kele", "wounds"] for r in compact for d in r["diff"])
    assert dict((r["op"], r["label"]) for r in compact)["roll_die"] == "бросить кубик"
    assert main(["--lang", "ru", "run", KELE]) == 0
    short = capsys.readouterr().out
    assert f"Показано событий: {len(compact)} из {len(full)}" in short
    assert main(["--lang", "en", "run", KELE, "--full"]) == 0
    out = capsys.readouterr().out
    assert "Events shown" not in out and out.count("\n") > short.count("\n")


def test_explain_tells_a_findings_counterexample_from_a_check_report(tmp_path, capsys, monkeypatch):
    """`explain REPORT.json --check ID`: the counterexample's game, then why the check fails there (the offending
    event, the rulebook's guard choices with their lines) and what replays it."""
    monkeypatch.setenv("COLUMNS", "400")
    assert main(["check", DRAFT, "--engines", "rulings", "--format", "json"]) == 1
    report = tmp_path / "report.json"
    report.write_text(capsys.readouterr().out, "utf-8")
    assert main(["--lang", "ru", "explain", str(report), "--check", "kele-attacker"]) == 1
    out = capsys.readouterr().out
    assert "Исходное положение" in out and "Почему нарушено: kele-attacker" in out
    assert "«выдать маркер действия» не выполняется" in out and "marker-only-when-paid.yaml:420" in out
    assert "повторить: ruleproof run" in out
    assert main(["--lang", "en", "explain", str(tmp_path), "--check", "nope"]) == 2  # the folder holding report.json
    assert "no counterexample with a trace for nope" in capsys.readouterr().err

