"""Bad scenario files get the rulebook's treatment: one message with file:line and a fix, exit 2."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from ruleproof.cli import main

ROOT = Path(__file__).resolve().parents[2]
KELE = ROOT / "rulings" / "540-kele-attacker.yaml"


@pytest.fixture
def write_scenario(tmp_path):
    base = yaml.safe_load(KELE.read_text("utf-8"))

    def write(edit=None, text: str | None = None) -> Path:
        path = tmp_path / "scenario.yaml"
        if text is not None:
            path.write_text(text, encoding="utf-8")
            return path
        data = yaml.safe_load(yaml.safe_dump(base, allow_unicode=True))
        if edit:
            edit(data)
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        return path

    return write


def bad(path, capsys, code: str, *words: str) -> str:
    rc = main(["--lang", "en", "run", str(path)])
    out, err = capsys.readouterr()
    assert rc == 2, err + out
    assert out == "" and "Traceback" not in err
    assert f"error {code}:" in err and "fix:" in err and err.startswith(f"{path}:")
    for w in words:
        assert w in err, err
    return err


def test_invalid_yaml(write_scenario, capsys):
    bad(write_scenario(text="cards: {kele: [\n"), capsys, "RP103")


def test_unknown_card_in_action(write_scenario, capsys):
    bad(write_scenario(lambda d: d["action"].update(source="kelle")), capsys, "RP161", "'kelle'", "kele, orc")


def test_unknown_feature_in_response(write_scenario, capsys):
    def edit(d):
        d["responses"][0]["play"] = "kele_hel"
    bad(write_scenario(edit), capsys, "RP162", "'kele_hel'", "kele_heal")


def test_unknown_feature_kind(write_scenario, capsys):
    def edit(d):
        d["cards"]["kele"]["features"][0]["kind"] = "on_strike"
    bad(write_scenario(edit), capsys, "RP163", "'on_strike'", "effect_trigger")


@pytest.mark.parametrize("key,value,means", [("on_status", "miss", "after_ability"),
                                             ("strength", "weak", "reduce_to_strength")])
def test_a_key_the_kind_does_not_read(write_scenario, capsys, key, value, means):
    """Kele's «при ударе» feature with a key only another kind reads: refused, never silently dropped."""
    def edit(d):
        d["cards"]["kele"]["features"][0][key] = value
    err = bad(write_scenario(edit), capsys, "RP164", f"'{key}'", "'effect_trigger'", means)
    assert "ignored" in err


def test_trigger_words_on_a_block_are_refused(write_scenario, capsys):
    def edit(d):
        d["cards"]["orc"]["features"] = [{"id": "orc_block", "kind": "block", "trigger": "strike"}]
    bad(write_scenario(edit), capsys, "RP164", "'trigger'", "'block'", "effect_trigger, resource_modification")


def test_a_misspelt_window_in_a_response(write_scenario, capsys):
    """A response in a window no rulebook has: refused (it would only be "never offered", and an
    expectation could pass for the wrong reason); the likeliest window is named first."""
    def edit(d):
        d["responses"][0]["window"] = "effect_trigers"
    bad(write_scenario(edit), capsys, "RP165", "'effect_trigers'", "did you mean 'effect_triggers'?",
        "name one of its windows: reroll, ")


@pytest.mark.parametrize("edit,code,near", [
    (lambda d: d["action"].update(source="kelle"), "RP161", "kele"),
    (lambda d: d["responses"][0].update(play="kele_hel"), "RP162", "kele_heal"),
    (lambda d: d["cards"]["kele"]["features"][0].update(kind="efect_trigger"), "RP163", "effect_trigger"),
    (lambda d: d["responses"][0].update(window="effect_trigers"), "RP165", "effect_triggers"),
    (lambda d: d["cards"]["kele"]["features"][0].update(trigger="strik"), "RP119", "strike"),  # a trigger word
    (lambda d: d["cards"]["kele"]["features"][0]["effects"][0].update(do="heel"), "RP119", "heal"),
    (lambda d: d["expect"].update(outcome="complete"), "RP119", "completed"),
])
@pytest.mark.parametrize("lang,says", [("en", "did you mean '{}'?"), ("ru", "возможно, имелось в виду '{}'?")])
def test_a_misspelt_name_gets_the_nearest_in_the_message_language(write_scenario, capsys, edit, code, near, lang,
                                                                   says):
    path = write_scenario(edit)
    assert main(["--lang", lang, "run", str(path)]) == 2
    err = capsys.readouterr().err
    assert f" {code}:" in err and says.format(near) in err
    if lang == "ru":  # nothing of the English hint in a Russian message
        assert "did you mean" not in err


@pytest.mark.parametrize("edit,ru,en", [
    (lambda d: d["cards"]["kele"].update(wounds=-2), "ожидается число не меньше 0", "greater than or equal to 0"),
    (lambda d: d["cards"]["kele"]["resources"].update(close=-1), "не меньше 0", "greater than or equal to 0"),
    (lambda d: d["cards"]["kele"]["printed"].update(health=5.5), "а здесь дробное", "fractional part"),
    (lambda d: d.update(dice=["four"]), "ожидается целое число", "valid integer"),
    (lambda d: d["action"].update(parts=0), "ожидается число не меньше 1", "greater than or equal to 1"),
])
def test_a_value_of_the_wrong_shape_is_named_in_the_message_language(write_scenario, capsys, edit, ru, en):
    """A negative count is refused at load (it used to run); pydantic's English never reaches a Russian
    message, and the fix points at the scenario format, not the rulebook's."""
    path = write_scenario(edit)
    assert main(["--lang", "ru", "run", str(path)]) == 2
    err = capsys.readouterr().err
    assert "ошибка RP110" in err and ru in err and "docs/rulings.md" in err
    assert not re.search(r"\b(Input|should|valid|greater)\b", err), err
    bad(path, capsys, "RP110", en, "docs/rulings.md")


def test_a_name_nothing_is_close_to_gets_no_guess(write_scenario, capsys):
    err = bad(write_scenario(lambda d: d["action"].update(source="zzzz")), capsys, "RP161", "'zzzz'")
    assert "'zzzz'" in err and "did you mean" not in err


def test_unknown_clause(write_scenario, capsys):
    bad(write_scenario(lambda d: d.update(clauses=["540.9"])), capsys, "RP121", "'540.9'")


def test_missing_expectation_block(write_scenario, capsys):
    bad(write_scenario(lambda d: d.pop("expect")), capsys, "RP111", "'expect'")


def test_unknown_expectation_field(write_scenario, capsys):
    def edit(d):
        d["expect"]["cards"]["kele"]["tapped"] = True
    bad(write_scenario(edit), capsys, "RP112", "'tapped'", "closed")


def test_wrong_player(write_scenario, capsys):
    def edit(d):
        d["responses"][0]["player"] = "C"
    bad(write_scenario(edit), capsys, "RP119", "responses[1] → player", "'C' is not one of the values", "A, B")


def test_x_without_a_way_to_determine_it(write_scenario, capsys):
    def edit(d):
        d["action"]["xs"] = [{"name": "X", "kind": "cost"}]
    bad(write_scenario(edit), capsys, "RP150", "exactly one of 'chosen' and 'compute'")


@pytest.mark.parametrize("xs, says", [
    ([], "known: —"),
    ([{"name": "Y", "kind": "magnitude_chosen", "chosen": 2}], "known: —"),  # an X, but not a cost-X
    ([{"name": "Xc", "kind": "cost", "chosen": 1}], "did you mean 'Xc'?"),
])
def test_a_bare_x_magnitude_names_a_cost_x(write_scenario, capsys, xs, says):
    """542.2's bare X is the cost-X the player named: a magnitude naming anything else is an error."""
    def edit(d):
        d["action"]["magnitude"] = "X"
        d["action"]["xs"] = xs
    bad(write_scenario(edit), capsys, "RP150", "magnitude 'X' is neither a number nor a cost-X", says)


def test_a_count_x_must_say_which_cards(write_scenario, capsys):
    """[count, card, which]: a misspelt «which» is an error with the words it may be (not a count of 0)."""
    def edit(d):
        d["action"]["xs"] = [{"name": "X", "kind": "magnitude_computed", "compute": ["count", "self", "opne"]}]
    path = write_scenario(edit)
    err = bad(path, capsys, "RP150", "which cards to count: 'opne'", "did you mean 'open'?")
    line = next(i for i, text in enumerate(path.read_text("utf-8").splitlines(), 1) if "opne" in text)
    assert err.startswith(f"{path}:{line}:"), err  # the line of the misspelt word itself


def test_rulebook_format_given_as_scenario(capsys):
    bad(ROOT / "rulebooks" / "berserk-rp-4.1-2.yaml", capsys, "RP132", "ruleproof-scenario/1")


def test_missing_scenario_file(tmp_path, capsys):
    rc = main(["run", str(tmp_path / "nope.yaml")])
    err = capsys.readouterr().err
    assert rc == 2 and "RP100" in err and "Traceback" not in err


@pytest.mark.parametrize("lang,says", [
    ("en", "a line is indented differently from the lines of its level"),
    ("ru", "строка сдвинута не так, как строки её уровня"),
])
def test_a_mis_indented_line_is_named_in_the_users_words(write_scenario, capsys, lang, says):
    """The YAML parser's own words ("expected <block end>, but found …") become a sentence in the message's
    language, at the line that is mis-indented."""
    lines = KELE.read_text("utf-8").split("\n")
    i = next(k for k, ln in enumerate(lines) if ln.strip().startswith("controller:"))
    lines[i] = lines[i][1:]  # one space less than its siblings
    path = write_scenario(text="\n".join(lines))
    assert main(["--lang", lang, "run", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:{i + 1}:") and " RP103:" in err and says in err
    assert "block end" not in err


def test_a_target_count_x_other_than_the_targets_listed(write_scenario, capsys):
    """542.3: the player chooses exactly X targets — X = 2 with one target listed is refused."""
    def edit(d):
        d["action"]["xs"] = [{"name": "X", "kind": "targets", "chosen": 2}]

    err = bad(write_scenario(edit), capsys, "RP150", "target-count X 'X' = 2, but action.targets has 1",
              "by 542.3 the player chooses exactly X targets", "write chosen: 1")
    assert re.search(r"scenario\.yaml:\d+:", err)
