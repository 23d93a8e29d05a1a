"""The README stays short and opens in Russian; the rest lives in docs/ (the pages a judge or editor reads
have a Russian twin in docs/ru/), and every relative link between them resolves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
README_EN = ROOT / "README.en.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
RU_DOCS = sorted((ROOT / "docs" / "ru").glob("*.md"))
#: the pages a judge or a rules editor reads: each has a Russian twin docs/ru/<name>.md
TWINS = ("rulings", "rulebook-format", "reports", "diff", "readings", "questions")
#: the two set-up commands, byte for byte (.ci/run runs them; tests/ruleproof/test_cli_check.py reads them)
SETUP = ("python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/ruleproof check",
         ".venv/bin/python -m pytest -q -n auto")
#: a markdown link or image: [text](target) — the target up to the first space or closing parenthesis
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)


def _links(text: str) -> list[str]:
    return LINK.findall(FENCE.sub("", text))


def _prose(text: str) -> str:
    """The text a reader reads as prose: without fenced blocks, inline code, link targets and web addresses."""
    text = FENCE.sub("", text)
    text = re.sub(r"`[^`\n]*`", "", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    return re.sub(r"https?://\S+", "", text)


def _cyrillic_share(text: str) -> float:
    """The share of Cyrillic among the letters of ``text``'s prose (0 when it has no letter).

    >>> round(_cyrillic_share("Свод правил — data `ruleproof check`"), 2)
    0.71
    """
    prose = _prose(text)
    cyr = len(re.findall(r"[А-Яа-яЁё]", prose))
    lat = len(re.findall(r"[A-Za-z]", prose))
    return cyr / (cyr + lat) if cyr + lat else 0.0


def _relative(target: str) -> str | None:
    """The file a link points to, or None for a web link, a mail link or a pure #anchor."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
        return None
    return target.split("#", 1)[0]


def test_readme_is_at_most_10000_characters():
    n = len(README.read_text("utf-8"))
    assert n <= 10_000, f"README.md has {n} characters; move detail to docs/"


def test_docs_exist():
    assert DOCS, "no docs/*.md"


@pytest.mark.parametrize("md", [README, README_EN, *DOCS, *RU_DOCS], ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(md: Path):
    broken = []
    for target in _links(md.read_text("utf-8")):
        path = _relative(target)
        if path and not (md.parent / path).resolve().is_file():
            broken.append(target)
    assert not broken, f"{md.relative_to(ROOT)}: links to missing files: {broken}"


def _targets(md: Path) -> set[Path]:
    """The files ``md`` links to, resolved."""
    return {(md.parent / p).resolve() for p in filter(None, map(_relative, _links(md.read_text("utf-8"))))}


def test_every_docs_file_is_linked_from_the_readme():
    """Every page of docs/ and of docs/ru/ is linked from README.md, and the English README too."""
    linked = _targets(README)
    missing = [str(d.relative_to(ROOT)) for d in [README_EN, *DOCS, *RU_DOCS] if d.resolve() not in linked]
    assert not missing, f"not linked from README.md: {missing}"


def test_docs_files_have_a_title_and_a_link_back():
    for d in DOCS:
        text = d.read_text("utf-8")
        assert text.startswith("# "), d.name
        assert "](../README.md)" in text, d.name
    for d in RU_DOCS:
        text = d.read_text("utf-8")
        assert text.startswith("# "), d.name
        assert "](../../README.md)" in text, d.name


# --- Russian first ----------------------------------------------------------------------------------------

def test_readme_opens_in_russian_with_the_set_up_and_the_language():
    """The first screen (40 lines) is mostly Russian prose, holds both set-up commands exactly, each in its
    own ```sh block, and says how to get Russian output."""
    head = "\n".join(README.read_text("utf-8").splitlines()[:40])
    for command in SETUP:
        assert f"```sh\n{command}\n```" in head, f"the first 40 lines of README.md lack: {command}"
    assert "--lang ru" in head
    for name in ("RULEPROOF_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        assert f"`{name}" in head, name
    share = _cyrillic_share(head)
    assert share >= 0.8, f"the first 40 lines of README.md are {share:.0%} Cyrillic (prose outside code)"
    lines = [ln for ln in _prose(head).splitlines() if re.search(r"[^\W\d_]{3}", ln)]
    russian = [ln for ln in lines if _cyrillic_share(ln) >= 0.5]
    assert len(russian) >= 0.8 * len(lines) and len(russian) >= 15, (len(russian), len(lines))


def test_the_two_readmes_link_each_other():
    assert README_EN.resolve() in _targets(README)
    assert README.resolve() in _targets(README_EN)
    assert _cyrillic_share(README_EN.read_text("utf-8")) < 0.2, "README.en.md is the English text"
    en = README_EN.read_text("utf-8")
    for command in SETUP:
        assert f"```sh\n{command}\n```" in en, command


@pytest.mark.parametrize("name", TWINS)
def test_a_judges_page_has_a_russian_twin_and_they_link_each_other(name: str):
    en, ru = ROOT / "docs" / f"{name}.md", ROOT / "docs" / "ru" / f"{name}.md"
    assert ru.is_file(), f"docs/{name}.md has no Russian twin docs/ru/{name}.md"
    assert en.resolve() in _targets(ru), f"docs/ru/{name}.md does not link to its original ../{name}.md"
    assert ru.resolve() in _targets(en), f"docs/{name}.md does not link to its Russian twin ru/{name}.md"
    top = "\n".join(en.read_text("utf-8").splitlines()[:5])
    assert f"По-русски: [ru/{name}.md](ru/{name}.md)" in top, f"docs/{name}.md: no «По-русски» line at its top"
    assert _cyrillic_share(ru.read_text("utf-8")) >= 0.8, f"docs/ru/{name}.md is not Russian prose"


def test_every_russian_page_is_a_twin():
    """docs/ru/ holds only twins of English pages (and all of them are listed in TWINS)."""
    assert sorted(p.stem for p in RU_DOCS) == sorted(TWINS)


def test_the_russian_checks_see_english():
    """The checker itself: an English page is not taken for Russian, a Russian one with code in it is."""
    en = "The rulebook is data: `ruleproof check` runs every engine.\n```sh\nruleproof check\n```\n"
    ru = "Свод правил — это данные: `ruleproof check` запускает все движки ([подробнее](docs/checks.md)).\n"
    assert _cyrillic_share(en) == 0 and _cyrillic_share(ru) == 1


def test_the_rulings_page_says_what_a_heal_and_a_missing_die_do(tmp_path):
    """docs/rulings.md (and its twin) on «полностью излечится» and scripted dice, held to the interpreter:
    Леший's heal is an implicit X; without a scripted die it stops at the dice step (out_of_choices); with
    needs_magnitude: false it needs none; without the X the heal heals nothing."""
    from ruleproof.model.rulebook import load_rulebook
    from ruleproof.model.scenario import load_scenario, run_scenario

    for page in (ROOT / "docs" / "rulings.md", ROOT / "docs" / "ru" / "rulings.md"):
        text = page.read_text("utf-8")
        for said in ("полностью излечится", "kind: implicit, compute: [wounds, self, \"\"]", "needs_magnitude: false",
                     "out_of_choices", "rulings/542-leshy.yaml", "dice: [4]"):
            assert said in text, (page.name, said)
    source = (ROOT / "rulings" / "542-leshy.yaml").read_text("utf-8")
    assert "- {name: X, kind: implicit, compute: [wounds, self, \"\"]}" in source and "\ndice: [4]" in source
    rulebook = load_rulebook()

    def run(text: str, name: str):
        (tmp_path / name).write_text(text, "utf-8")
        return run_scenario(load_scenario(tmp_path / name), rulebook)

    assert run(source, "as-shipped.yaml").passed
    no_die = run(re.sub(r"(?m)^dice: \[4\].*$", "", source), "no-die.yaml")
    assert no_die.trace.outcome == "out_of_choices" and not no_die.passed
    assert "die result #1" in no_die.trace.events[-1].values["reason"]
    skipped = run(re.sub(r"(?m)^dice: \[4\].*$", "", source).replace("  effect: heal\n",
                                                                      "  effect: heal\n  needs_magnitude: false\n"),
                  "no-magnitude.yaml")
    assert skipped.trace.outcome == "completed" and skipped.trace.final.card("leshy").wounds == 0
    no_x = re.sub(r"(?m)^  xs:\n    - \{name: X, kind: implicit.*\n", "", source)
    no_x = re.sub(r"(?m)^  x:\n    X: .*\n", "", no_x)
    heals_nothing = run(no_x, "no-x.yaml")
    assert heals_nothing.trace.outcome == "completed" and heals_nothing.trace.final.card("leshy").wounds == 3


def test_the_link_checker_sees_a_broken_link(tmp_path):
    """The checker itself: a missing target is reported, web links, anchors and fragments are not."""
    md = tmp_path / "x.md"
    (tmp_path / "here.md").write_text("", "utf-8")
    md.write_text("[a](here.md#part) [b](https://example.org/x) [c](#top) [d](gone.md)\n"
                  "```\n[e](inside-a-code-block.md)\n```\n", "utf-8")
    targets = [t for t in map(_relative, _links(md.read_text("utf-8"))) if t]
    assert targets == ["here.md", "gone.md"]
    assert [t for t in targets if not (tmp_path / t).is_file()] == ["gone.md"]
