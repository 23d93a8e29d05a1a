"""Input a judge writes (issue 48): a ruling file as a Russian-speaking judge types it is read as meant, and
what is wrong with it is said in the judge's language with its fix — each item in Russian and English.

1. yes/no: «да»/«нет» are true/false wherever a ruling takes a yes/no (a card, an expectation, an event),
   and the output prints a yes/no the way the input takes it (да/нет in Russian, true/false in English).
2. a Cyrillic look-alike letter in a player or an id is named («буква В кириллицей — нужна латинская B»).
3. a missing die: the reason in the reader's language, with the fix (``dice: [N]``).
4. a quoted number reads as a number in ``expect`` as it does in a card.
5. no «None»: no value is «ничего» / nothing.
6. a count agrees with its noun (1 ожидание, 3 ожидания, 9 ожиданий, 11 ожиданий).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ruleproof.cli import main
from ruleproof.ground.i18n import plural, reason_text, t

ROOT = Path(__file__).resolve().parents[2]
LESHY = ROOT / "rulings" / "542-leshy.yaml"
LANGS = ("ru", "en")


@pytest.fixture
def leshy(tmp_path):
    """The Leshy ruling with each (old, new) text replaced once, written to a temporary file."""
    def write(*edits: tuple[str, str]) -> Path:
        text = LESHY.read_text("utf-8")
        for old, new in edits:
            assert text.count(old) == 1, old
            text = text.replace(old, new)
        path = tmp_path / "ruling.yaml"
        path.write_text(text, encoding="utf-8")
        return path

    return write


def run(path: Path, lang: str, capsys) -> tuple[int, str, str]:
    rc = main(["--lang", lang, "run", str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


def bad_input(path: Path, lang: str, capsys) -> str:
    """One message on stderr, at file:line, with its fix, exit 2."""
    rc, out, err = run(path, lang, capsys)
    assert rc == 2, out + err
    assert out == "" and re.match(rf"{re.escape(str(path))}:\d+:\d+: ", err), err
    assert ("как исправить:" if lang == "ru" else "fix:") in err
    return err


EXPECTED_CARD = "    leshy: {wounds: 0, healthy: true}"


# 1. yes/no


@pytest.mark.parametrize("lang", LANGS)
def test_da_and_net_are_yes_and_no_in_expect_cards_and_events(leshy, capsys, lang):
    path = leshy((EXPECTED_CARD, "    leshy: {wounds: 0, healthy: да, closed: Да}"),
                 ("    wounds: 2\n", "    wounds: 2\n    closed: нет\n    in_active_zone: ДА\n"),
                 ("  visited:", "  events: [{op: check_resources, ok: да}]\n  visited:"))
    rc, out, _ = run(path, lang, capsys)
    assert rc == 0, out


@pytest.mark.parametrize("lang,says", [("ru", "cards.leshy.closed: ожидалось нет, получено да"),
                                       ("en", "cards.leshy.closed: expected false, got true")])
def test_a_yes_no_is_printed_as_the_input_takes_it(leshy, capsys, lang, says):
    rc, out, _ = run(leshy((EXPECTED_CARD, "    leshy: {wounds: 0, healthy: true, closed: нет}")), lang, capsys)
    assert rc == 1 and says in out, out
    assert "'да'" not in out and "'нет'" not in out
    assert not re.search(r"\b(True|False)\b", out), out  # the trace too: ok=да / ok=true
    assert ("ok=да" if lang == "ru" else "ok=true") in out


@pytest.mark.parametrize("lang,says,fix", [
    ("ru", "expect → cards → leshy → closed: ожидается да или нет, а здесь 'может'", "напишите да или нет"),
    ("en", "expect → cards → leshy → closed: expected true or false, not 'может'", "write true or false")])
def test_a_yes_no_that_is_neither_is_refused_at_load(leshy, capsys, lang, says, fix):
    err = bad_input(leshy((EXPECTED_CARD, "    leshy: {wounds: 0, healthy: true, closed: может}")), lang, capsys)
    assert says in err and fix in err, err


# 2. a Cyrillic look-alike


@pytest.mark.parametrize("lang,says", [
    ("ru", "'В' — не из значений, которые принимает этот ключ (буква В кириллицей — нужна латинская B)"),
    ("en", "'В' is not one of the values this key takes (the letter В is Cyrillic — type the Latin B)")])
def test_a_cyrillic_player_is_named(leshy, capsys, lang, says):
    path = leshy(("{window: calculation, player: B,", "{window: calculation, player: В,"))
    err = bad_input(path, lang, capsys)
    assert " RP119: " in err and says in err, err


@pytest.mark.parametrize("lang,says", [("ru", "буква А кириллицей — нужна латинская A"),
                                       ("en", "the letter А is Cyrillic — type the Latin A")])
def test_a_cyrillic_controller_is_named(leshy, capsys, lang, says):
    err = bad_input(leshy(("    controller: A\n", "    controller: А\n")), lang, capsys)
    assert "controller" in err and says in err, err


@pytest.mark.parametrize("lang,says", [
    ("ru", "неизвестная карта 'lеshy' (буква е кириллицей — нужна латинская e: 'leshy')"),
    ("en", "unknown card 'lеshy' (the letter е is Cyrillic — type the Latin e: 'leshy')")])
def test_a_cyrillic_letter_in_an_id_is_named(leshy, capsys, lang, says):
    err = bad_input(leshy((EXPECTED_CARD, "    lеshy: {wounds: 0, healthy: true}")), lang, capsys)
    assert says in err, err
    assert "возможно, имелось в виду" not in err and "did you mean" not in err  # two names that look the same


@pytest.mark.parametrize("lang,says", [
    ("ru", "похоже на 'lеshy', но там буква е кириллицей, а здесь латинская e"),
    ("en", "looks like 'lеshy', but there the letter е is Cyrillic and here the Latin e")])
def test_an_id_declared_with_a_cyrillic_letter_is_named_where_it_is_used(leshy, capsys, lang, says):
    err = bad_input(leshy(("  leshy:\n    name: Леший", "  lеshy:\n    name: Леший")), lang, capsys)
    assert " RP161: " in err and says in err, err


@pytest.mark.parametrize("lang,says", [
    ("ru", "неизвестный ключ 'hеalthy' в expect → cards → leshy (буква е кириллицей"),
    ("en", "unknown key 'hеalthy' in expect → cards → leshy (the letter е is Cyrillic")])
def test_a_cyrillic_letter_in_a_key_is_named(leshy, capsys, lang, says):
    err = bad_input(leshy((EXPECTED_CARD, "    leshy: {wounds: 0, hеalthy: true}")), lang, capsys)
    assert says in err, err


# 3. a missing die


@pytest.mark.parametrize("lang,reason,fix", [
    ("ru", "получено out_of_choices: правила запросили результат кубика №1 (бросок), а в dice: 0 результатов",
     "допишите в dice: то, что выпало на кубике, по порядку бросков, например dice: [4]"),
    ("en", "got out_of_choices: the rules asked for die result #1 (roll), but dice: lists 0 results",
     "add what the die shows under dice:, in the order of the rolls, e.g. dice: [4]")])
def test_a_missing_die_is_said_in_the_readers_language_with_its_fix(leshy, capsys, lang, reason, fix):
    rc, out, _ = run(leshy(("dice: [4]", "dice: []")), lang, capsys)
    assert rc == 1 and reason in out and fix in out, out
    if lang == "ru":  # the offending event's reason too
        assert "are scripted" not in out and "the rules asked" not in out
        assert "reason=правила запросили результат кубика №1 (бросок)" in out


# 4. a quoted number


@pytest.mark.parametrize("lang", LANGS)
def test_a_quoted_number_reads_the_same_in_expect_as_in_a_card(leshy, capsys, lang):
    path = leshy(("    wounds: 2\n", '    wounds: "2"\n'), (EXPECTED_CARD, '    leshy: {wounds: "0", healthy: true}'),
                 ("action: {magnitude_final: 3,", 'action: {magnitude_final: "3",'),
                 ("X: {value: 3,", 'X: {value: "3",'),
                 ("  visited:", '  events: [{op: finalize_magnitude, magnitude: "3"}]\n  visited:'))
    rc, out, _ = run(path, lang, capsys)
    assert rc == 0, out


@pytest.mark.parametrize("lang,says", [("ru", "cards.leshy.wounds: ожидалось 1, получено 0"),
                                       ("en", "cards.leshy.wounds: expected 1, got 0")])
def test_a_quoted_number_that_differs_is_shown_as_a_number(leshy, capsys, lang, says):
    rc, out, _ = run(leshy((EXPECTED_CARD, '    leshy: {wounds: "1", healthy: true}')), lang, capsys)
    assert rc == 1 and says in out, out


@pytest.mark.parametrize("lang,says", [("ru", "expect → x → X → value: ожидается целое число, а здесь 'три'"),
                                       ("en", "expect → x → X → value: expected a whole number, not 'три'")])
def test_a_word_where_a_number_is_expected_is_refused_at_load(leshy, capsys, lang, says):
    err = bad_input(leshy(("X: {value: 3,", "X: {value: три,")), lang, capsys)
    assert says in err, err


# 5. no «None»


@pytest.mark.parametrize("lang,says", [("ru", "action.magnitude_final: ожидалось 3, получено ничего"),
                                       ("en", "action.magnitude_final: expected 3, got nothing")])
def test_no_value_is_said_in_words(leshy, capsys, lang, says):
    rc, out, _ = run(leshy(("dice: [4]", "dice: []")), lang, capsys)
    assert rc == 1 and says in out, out
    assert "None" not in out


# 6. plural forms


@pytest.mark.parametrize("lang,forms", [
    ("ru", {1: "1 ожидание", 2: "2 ожидания", 4: "4 ожидания", 5: "5 ожиданий", 9: "9 ожиданий", 11: "11 ожиданий",
            14: "14 ожиданий", 21: "21 ожидание", 22: "22 ожидания", 111: "111 ожиданий"}),
    ("en", {1: "1 expectation", 2: "2 expectations", 11: "11 expectations", 21: "21 expectations"})])
def test_a_count_agrees_with_its_noun(leshy, capsys, lang, forms):
    for n, text in forms.items():
        assert f"({text})." in t("scenario_pass", lang, id="s", n=n)
    rc, out, _ = run(LESHY, lang, capsys)
    assert rc == 0 and f"({forms[9] if lang == 'ru' else '9 expectations'})." in out, out
    rc, out, _ = run(leshy((EXPECTED_CARD, "    leshy: {wounds: 1, healthy: true}")), lang, capsys)
    assert rc == 1 and ("исход расходится с ожидаемым — 1 расхождение:" if lang == "ru"
                        else "the outcome differs — 1 difference:") in out, out
    rc, out, _ = run(leshy(("dice: [4]", "dice: []")), lang, capsys)
    assert ("— 10 расхождений:" if lang == "ru" else "— 10 differences:") in out


@pytest.mark.parametrize("lang,few,many", [("ru", "2 результата", "0 результатов"), ("en", "2 results", "0 results")])
def test_counts_in_loader_and_runner_messages_agree(lang, few, many):
    assert plural(12, "ожидание|ожидания|ожиданий", "ru") == "ожиданий"
    assert plural(1, "ожидание|ожидания|ожиданий", "ru") == "ожидание"
    assert reason_text("the rules asked for die result #3 (roll), but only 2 are scripted", lang).endswith(few)
    assert reason_text("the rules asked for die result #1 (roll), but only 0 are scripted", lang).endswith(many)
