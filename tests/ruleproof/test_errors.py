"""Every bad-input message is said in one language at a time: what goes into a Russian message is
Russian (or an identifier), never an English phrase written at the place that raises the error."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from ruleproof.ground.errors import MESSAGES, Localized, RuleproofError, one_of

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("ruleproof", "model", "properties", "generators", "reports")
WORD = re.compile(r"(?<![\w'])[A-Za-z]{3,}(?![\w'])")  # a Latin word outside quotes and identifiers
PATH = re.compile(r"[\w\[\]{} ]*→[\w\[\]{} →]*")  # a YAML path («expect → cards → kele»): keys, not prose


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def _raises():
    """(file:line, code, keyword, value node) for every RuleproofError(...) the package writes."""
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            tree = ast.parse(path.read_text("utf-8"))
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None))
                        == "RuleproofError" and node.args and isinstance(node.args[0], ast.Constant)):
                    continue
                for kw in node.keywords:
                    yield f"{path.relative_to(ROOT)}:{node.lineno}", node.args[0].value, kw.arg, kw.value


def _literal_text(value: ast.expr) -> str | None:
    """The words a string literal or an f-string writes itself (its holes left out)."""
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return value.value
    if isinstance(value, ast.JoinedStr):
        return " {} ".join(v.value for v in value.values if isinstance(v, ast.Constant))
    return None


def test_no_english_phrase_reaches_a_russian_message():
    """A parameter the Russian text shows (``{problem}``, ``{field}``, ``{fix}``) is a Localized or an
    identifier; an English phrase needs its ``…_ru`` twin.  At 24dddc8 it found 37 English parameters in 22
    raises (RP150 for unknown engines, report formats, bounds, X kinds; RP112/RP111 «operation 'fix_x'»;
    RP114's «more than …»; RP106's «merge key»)."""
    offenders = []
    for where, code, key, value in _raises():
        ru = set().union(*map(_fields, MESSAGES[code]["ru"]))
        text = _literal_text(value)
        if key not in ru or key.endswith("_ru") or text is None:
            continue
        is_name = isinstance(value, ast.Constant) and not re.search(r"\s", text.strip())
        if not is_name and WORD.search(PATH.sub("", text)):
            offenders.append(f"{where} {code} {key}={text!r}")
    assert not offenders, "\n".join(offenders)


def test_the_scan_sees_the_raises():
    """The scan above is not vacuous: it finds the package's raises, RP150's among them."""
    codes = {code for _, code, _, _ in _raises()}
    assert {"RP150", "RP110", "RP119", "RP128", "RP134"} <= codes and len(codes) > 40


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_code_has_both_languages_with_the_same_slots(code):
    """en and ru of a code take the same parameters (a ``…_ru`` twin stands for its English one)."""
    en = set().union(*map(_fields, MESSAGES[code]["en"]))
    ru = {f.removesuffix("_ru") for f in set().union(*map(_fields, MESSAGES[code]["ru"]))}
    assert en == ru, (code, en, ru)


def test_a_localized_parameter_renders_in_each_language():
    err = RuleproofError("RP150", None, problem=Localized("плохо", "bad"), fix=one_of(["A", "B"]))
    assert err.render("ru") == "ошибка RP150: плохо\n  как исправить: используйте одно из: A, B"
    assert err.render("en") == "error RP150: bad\n  fix: use one of: A, B"
