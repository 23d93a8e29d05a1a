"""Alternative readings: a cited patch of the rulebook, its list elements named by what they hold, applied and
validated like a draft; a reading that does not apply to a rulebook is reported as not applicable and never
blocks a check; a patch that is not one is one error at the reading's line (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from ruleproof.cli import main
from ruleproof.ground.errors import RuleproofError
from ruleproof.model.readings import NotApplicable, applicable, not_applicable, readings, resolve, variant
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
def test_a_reading_whose_test_fails_does_not_apply_and_does_not_block(tmp_path, capsys, lang):
    """A ``test`` step that finds another value: the reading is not applicable to that rulebook — said in the
    report with the step and both values — and the check runs (no exit 2)."""
    old = "{op: test, path: /tables/strike_table/rows/4/0, value: medium}"
    p = _bad(tmp_path, old, old.replace("medium", "weak"))
    rc = main(["--lang", lang, "check", str(p), "--engines", "structure", "--format", "json"])
    out, err = capsys.readouterr()
    assert rc == 0 and "Traceback" not in err and "RP136" not in err
    gone = json.loads(out)["readings"]["R-strike-row-4"]["not_applicable"]
    assert "'medium'" in gone[lang] and "'weak'" in gone[lang]
    assert ("шаг правки 1" in gone["ru"]) and ("patch step 1" in gone["en"])
    assert [r.id for r in applicable(load_rulebook(p))] == [r.id for r in readings(BUNDLED) if r.id != "R-strike-row-4"]


def test_a_named_element_that_is_not_there_makes_the_reading_not_applicable(tmp_path):
    old = '{op: remove, path: "/steps/claim_resolution/next/{when=dice_step_skippable}"}'
    p = _bad(tmp_path, old, old.replace("dice_step_skippable", "is_attack"))
    rb = load_rulebook(p)
    with pytest.raises(NotApplicable):
        variant(rb, "R-dice-step-kept")
    assert "/steps/claim_resolution/next/{when=is_attack}" in not_applicable(rb)["R-dice-step-kept"].en


def test_a_selector_naming_several_elements_is_an_error_at_its_line(tmp_path):
    old = '{op: add, path: "/steps/declaration/operations/{op=check_resources}/closed_keeps_close", value: true}'
    p = _bad(tmp_path, old, old.replace("{op=check_resources}", "{op=fix_x}"))
    with pytest.raises(RuleproofError) as exc:
        not_applicable(load_rulebook(p))
    assert exc.value.code == "RP136" and exc.value.location.line == _line(TEXT, old)
    assert "names 3 elements" in exc.value.render("en") and "{op=fix_x,x=cost}" in exc.value.render("ru")


def test_selectors_name_elements_by_what_they_hold():
    data = BUNDLED.data
    assert resolve("/steps/dice/operations/{op=determine_base,table=true}/return_by", data) == \
        "/steps/dice/operations/8/return_by"
    assert resolve("/steps/dice/operations/{op=determine_base,table=false}", data) == "/steps/dice/operations/9"
    assert resolve("/steps/payment/operations/1", data) == "/steps/payment/operations/1"  # a position as written
    with pytest.raises(LookupError):
        resolve("/steps/payment/operations/{op=roll_die}", data)


def _draft(tmp_path: Path, move_to: str) -> Path:
    """The bundled rulebook, readings and all, with give_action_marker moved: to the start of payment, or into
    the completion step (after release_roles)."""
    data = yaml.safe_load(TEXT)
    ops = data["steps"]["payment"]["operations"]
    marker = ops.pop(next(i for i, o in enumerate(ops) if o["op"] == "give_action_marker"))
    if move_to == "payment":
        ops.insert(0, marker)
    else:
        data["steps"]["completion"]["operations"].append(marker)
    p = tmp_path / f"moved-{move_to}.yaml"
    p.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    return p


def test_a_draft_that_moves_give_action_marker_keeps_every_reading_that_still_applies(tmp_path, capsys):
    """Readings name elements, not places: moving the marker within payment leaves all 14 applying (positional
    patches broke three, two unrelated to the move, and refused the draft); moving it out of payment leaves
    exactly the three readings about it not applicable, and the draft is checked with the other eleven."""
    within = load_rulebook(_draft(tmp_path, "payment"))
    assert not_applicable(within) == {} and len(applicable(within)) == 14
    out_of = _draft(tmp_path, "completion")
    rb = load_rulebook(out_of)
    assert sorted(not_applicable(rb)) == ["R-defender-marker", "R-marker-before-payment",
                                          "R-payment-triggers-before-marker"]
    assert len(applicable(rb)) == 11
    rc = main(["check", str(out_of), "--engines", "structure,rulings", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert rc in (0, 1) and doc["readings"]["R-defender-marker"]["not_applicable"]["en"].startswith("patch step 1")
    assert doc["readings"]["R-strike-row-4"]["not_applicable"] is None


def test_a_patch_that_makes_the_rulebook_invalid(tmp_path):
    old = '{op: add, path: "/steps/completion/operations/{id=after_ability}/allows/-", value: resource_modification}'
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
    p = _bad(tmp_path, '{op: move, from: "/steps/payment/operations/{op=give_action_marker}"',
             '{op: shift, from: "/steps/payment/operations/{op=give_action_marker}"')
    with pytest.raises(RuleproofError) as exc:
        load_rulebook(p)
    assert exc.value.location.line == _line(TEXT, '{op: move, from: "/steps/payment/operations/{op=give_action_marker}"')
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


def test_the_readings_command_compares_the_applicable_and_lists_the_others(tmp_path):
    from ruleproof.commands.readings import to_json, to_markdown
    from ruleproof.readings import compare_readings

    rb = load_rulebook(_draft(tmp_path, "completion"))
    out = compare_readings(rb, engines=("rulings",), only=["R-strike-row-4", "R-defender-marker"])
    assert [r.reading.id for r in out.rows] == ["R-strike-row-4"] and list(out.not_applicable) == ["R-defender-marker"]
    assert "R-defender-marker" in to_json(out, lambda cid: None)["not_applicable"]
    assert "Прочтение R-defender-marker к этому своду не применимо" in to_markdown(out, "ru")
