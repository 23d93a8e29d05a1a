"""Alternative readings: a cited patch of the rulebook, applied and validated like a draft; a patch
that does not apply is one error at the reading's line (exit 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleproof.cli import main
from ruleproof.ground.errors import RuleproofError
from ruleproof.model.readings import readings, variant
from ruleproof.model.rulebook import bundled_rulebook_path, load_rulebook

BUNDLED = load_rulebook()
TEXT = bundled_rulebook_path().read_text("utf-8")


def test_every_bundled_reading_applies_and_cites_clauses():
    rs = readings(BUNDLED)
    assert [r.id for r in rs] == ["R-marker-before-payment", "R-non-active-first-late",
                                  "R-payment-triggers-before-marker", "R-modification-after-ability",
                                  "R-closed-keeps-close", "R-die-unclamped", "R-per-turn-per-feature", "R-block-replaces-miss", "R-dice-step-kept", "R-strike-row-4",
                                  "R-assault-includes-return-strike", "R-defender-marker", "R-miss-reduced",
                                  "R-return-by-target"]
    for r in rs:
        assert r.about and all(c in BUNDLED.index for c in r.about), r.id
        assert r.of is None or r.of in BUNDLED.spec.assumptions
        other = variant(BUNDLED, r.id)
        assert not other.spec.readings  # a reading's rulebook carries no readings of its own
        assert other.spec.steps != BUNDLED.spec.steps or other.spec.tables != BUNDLED.spec.tables, r.id


def test_a_reading_changes_exactly_what_its_patch_says():
    other = variant(BUNDLED, "R-strike-row-4")
    assert other.table("strike_table")["4"] == ["medium", "weak"]
    assert {k: v for k, v in other.table("strike_table").items() if k != "4"} == \
           {k: v for k, v in BUNDLED.table("strike_table").items() if k != "4"}
    assert [e.when for e in variant(BUNDLED, "R-dice-step-kept").spec.steps["claim_resolution"].next] == ["always"]
    # the rulebook itself is untouched
    assert BUNDLED.table("strike_table")["4"] == ["medium", "none"]


def _line(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n") + 1


def _bad(tmp_path: Path, old: str, new: str) -> Path:
    assert old in TEXT
    p = tmp_path / "rb.yaml"
    p.write_text(TEXT.replace(old, new, 1), "utf-8")
    return p


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_patch_whose_test_fails_is_one_error_at_its_line(tmp_path, capsys, lang):
    old = "{op: test, path: /steps/payment/operations/1/op, value: give_action_marker}"
    p = _bad(tmp_path, old, old.replace("give_action_marker", "pay_reserved"))
    rc = main(["--lang", lang, "check", str(p), "--engines", "structure"])
    out, err = capsys.readouterr()
    assert rc == 2 and out == "" and "Traceback" not in err
    assert err.startswith(f"{p}:{_line(TEXT, old)}:") and "RP136" in err and err.count("RP1") == 1
    assert ("'pay_reserved'" in err and "'give_action_marker'" in err)
    assert ("шаг правки 1" in err) if lang == "ru" else ("patch step 1" in err)


def test_a_patch_path_that_is_not_there(tmp_path):
    old = "{op: remove, path: /steps/claim_resolution/next/0}"
    p = _bad(tmp_path, old, "{op: remove, path: /steps/claim_resolution/next/7}")
    rb = load_rulebook(p)
    with pytest.raises(RuleproofError) as exc:
        variant(rb, "R-dice-step-kept")
    assert exc.value.code == "RP136" and exc.value.location.line == _line(TEXT, old)
    assert "/steps/claim_resolution/next/7" in exc.value.render("en")


def test_a_patch_that_makes_the_rulebook_invalid(tmp_path):
    old = "{op: add, path: /steps/completion/operations/0/allows/-, value: resource_modification}"
    p = _bad(tmp_path, old, old.replace("resource_modification", "resource_modifcation"))
    with pytest.raises(RuleproofError) as exc:
        variant(load_rulebook(p), "R-modification-after-ability")
    assert exc.value.code == "RP137" and exc.value.location.line == _line(TEXT, "  R-modification-after-ability:")
    assert "resource_modifcation" in exc.value.render("en") and "R-modification-after-ability" in exc.value.render("ru")


def test_a_reading_of_an_unknown_assumption_or_of_nothing(tmp_path):
    p = _bad(tmp_path, "    of: A-action-marker\n", "    of: A-action-markr\n")
    with pytest.raises(RuleproofError) as exc:
        load_rulebook(p)
    assert exc.value.code == "RP127" and "A-action-markr" in exc.value.render("en")
    p = _bad(tmp_path, "  R-dice-step-kept:\n    about: [\"512.6.2\"]\n", "  R-dice-step-kept:\n")
    with pytest.raises(RuleproofError) as exc:
        load_rulebook(p)
    assert exc.value.code == "RP138"


def test_an_unknown_patch_operation_is_a_schema_error(tmp_path):
    p = _bad(tmp_path, "{op: move, from: /steps/payment/operations/1",
             "{op: shift, from: /steps/payment/operations/1")
    with pytest.raises(RuleproofError) as exc:
        load_rulebook(p)
    assert exc.value.location.line == _line(TEXT, "{op: move, from: /steps/payment/operations/1")
    assert exc.value.code == "RP119" and "'shift' is not one of the values" in exc.value.render("en")
    assert "move, copy, test" in exc.value.render("en") and "move, copy, test" in exc.value.render("ru")


def test_the_540_1_2_reading_decides_whether_a_defender_with_closes_after_assault_closes():
    """«[текст] нападения» (540.1.2): read as the card's own strike only (A-assault-strikes), a defender
    dealing a return strike is spared the closing; read as any strike of the card, it closes."""
    from ruleproof.model.scenario import load_scenario, run_scenario

    sc = load_scenario(Path(__file__).parents[2] / "rulings" / "540-closes-after-assault-defender.yaml")
    assert run_scenario(sc, BUNDLED).passed
    res = run_scenario(sc, variant(BUNDLED, "R-assault-includes-return-strike"))
    assert not res.passed
    final = res.trace.events[-1].state
    assert final.card("guard").closed and final.card("guard").action_markers == 0


def test_mutants_leave_the_readings_out():
    from ruleproof.generators.mutants import bundled_data

    assert "readings" not in bundled_data()
