"""The command line under ``--lang ru`` (and a Russian LANG): every ``--help`` and argparse's own
errors are Russian — no Latin-script word outside option names, command names, the values a user
types (engines, formats, bound keys), file names and the names of tools (ruleproof.i18n_cli)."""

from __future__ import annotations

import argparse
import re

import pytest

from ruleproof.cli import _build_parser, argv_lang, build_parser, main
from ruleproof.i18n_cli import HELP_RU, missing

COMMANDS = ("", "check", "clauses", "run", "selftest", "graph", "consistency", "explore", "prove", "diff",
            "readings", "schema")
#: names of tools, formats and variables: the same in both languages
NAMES = {"ruleproof", "Hypothesis", "Z3", "Spacer", "BMC", "JSON", "Schema", "YAML", "RULEPROOF_LANG", "LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES",
         "smt.random_seed", "dot", "mermaid", "svg", "png", "txt", "term", "md", "html", "json", "junit", "itf",
         "auto", "x", "X", "k", "plays", "die", "loadouts", "max-nodes", "max", "rulings", "rulebooks", "scenario", "A", "B", "M1"}


def _identifiers(parser: argparse.ArgumentParser) -> set[str]:
    """What a user types: option strings, command names, choices, engine names."""
    out: set[str] = set()
    stack = [parser]
    while stack:
        p = stack.pop()
        for a in p._actions:
            out |= {s.lstrip("-") for s in a.option_strings}
            out |= {str(c) for c in (a.choices or ()) if not isinstance(a.choices, dict)}
            if isinstance(a, argparse._SubParsersAction):
                out |= set(a.choices)
                stack += list(a.choices.values())
    from ruleproof.engine_registry import NAMES as ENGINES

    return out | set(ENGINES)


def _latin(text: str, allowed: set[str]) -> set[str]:
    text = re.sub(r"[\w./-]*\.(yaml|txt|md|json|html|svg|png)\b|[\w-]*/[\w./-]*|--?[\w-]+|\{[^}]*\}", " ", text)
    text = re.sub(r"\w+:\w[\w:]*", " ", text)  # draft ids such as drop:dice:6
    return {w for w in re.findall(r"[A-Za-z][A-Za-z0-9_.-]*[A-Za-z0-9]|[A-Za-z]", text)
            if w not in allowed and w not in NAMES}


def test_every_help_text_has_its_russian():
    assert missing(_build_parser()) == []
    assert all(re.search("[а-яё]", ru) for ru in HELP_RU.values())


@pytest.mark.parametrize("command", COMMANDS)
def test_help_under_lang_ru_is_russian(command, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")  # argparse would break long comma lists inside words
    with pytest.raises(SystemExit) as exc:
        main(["--lang", "ru", *([command] if command else []), "--help"])
    out = capsys.readouterr().out
    assert exc.value.code == 0 and out.startswith("использование: ruleproof")
    assert "параметры:" in out and "show this help" not in out
    assert not _latin(out, _identifiers(build_parser("ru")))


def test_help_follows_a_russian_environment(monkeypatch, capsys):
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    for name in ("RULEPROOF_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    assert "показать эту справку и выйти" in capsys.readouterr().out
    assert argv_lang(["check", "--lang=en"]) == "en" and argv_lang(["--lang", "ru", "x"]) == "ru"


@pytest.mark.parametrize("argv,says", [
    (["chek"], "недопустимое значение: 'chek'"),
    (["check", "--examples", "x"], "недопустимое значение: 'x'"),
    ([], "не хватает обязательных аргументов"),
    (["check", "--bogus"], "неизвестные аргументы: --bogus"),
])
def test_argparse_errors_under_lang_ru(argv, says, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--lang", "ru", *argv])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and says in err and "ruleproof" in err and "ошибка:" in err
    assert "usage" not in err and "error" not in err and "invalid" not in err
    # …and argparse speaks English again afterwards
    with pytest.raises(SystemExit):
        main(["--lang", "en", *argv])
    assert "error:" in capsys.readouterr().err


def test_english_help_stays_english(capsys):
    with pytest.raises(SystemExit):
        main(["--lang", "en", "check", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("usage: ruleproof check") and "show this help message and exit" in out
    assert not re.search("[а-яё]", out.replace("РП 4.1-2", ""))


@pytest.mark.parametrize("env, lang", [
    ({"LANG": "ru_RU.UTF-8"}, "ru"),
    ({"LANG": "C.UTF-8", "LC_ALL": "ru_RU.UTF-8"}, "ru"),  # LC_ALL before LANG
    ({"LANG": "ru_RU.UTF-8", "LC_MESSAGES": "en_US.UTF-8"}, "en"),  # LC_MESSAGES before LANG
    ({"LANG": "en_US.UTF-8", "LANGUAGE": "uk:ru:en"}, "ru"),  # LANGUAGE's first ru or en, before the locale
    ({"LC_ALL": "C", "LANGUAGE": "ru"}, "en"),  # gettext ignores LANGUAGE in the C locale
    ({"LANG": "ru_RU.UTF-8", "RULEPROOF_LANG": "en"}, "en"),  # ours first
    ({"LANG": "en_US.UTF-8", "RULEPROOF_LANG": "ru_RU.UTF-8"}, "ru"),  # ours may be a locale name too
    ({"LANGUAGE": "ru"}, "ru"),  # no locale set: LANGUAGE says it (LANGUAGE=ru alone was ignored once)
    ({}, "en"),
])
def test_the_language_follows_the_environment_in_gettexts_order(env, lang):
    from ruleproof.ground.i18n import default_lang

    assert default_lang(env) == lang


def test_no_text_key_is_written_twice():
    """A dict literal keeps the last of two equal keys silently: a second ``cited_by`` once replaced the
    first and broke ``clauses --against``.  Every text table of ``ruleproof.ground.i18n`` and ``i18n_cli`` has each
    key once."""
    import ast
    import inspect

    from ruleproof import i18n_cli
    from ruleproof.ground import i18n

    for module in (i18n, i18n_cli):
        for node in ast.walk(ast.parse(inspect.getsource(module))):
            if isinstance(node, ast.Dict):
                keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
                assert len(keys) == len(set(keys)), (module.__name__, sorted({k for k in keys if keys.count(k) > 1}))
