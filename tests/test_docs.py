"""The README stays short; the rest lives in docs/, and every relative link between them resolves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
#: a markdown link or image: [text](target) — the target up to the first space or closing parenthesis
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.S | re.M)


def _links(text: str) -> list[str]:
    return LINK.findall(FENCE.sub("", text))


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


@pytest.mark.parametrize("md", [README, *DOCS], ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(md: Path):
    broken = []
    for target in _links(md.read_text("utf-8")):
        path = _relative(target)
        if path and not (md.parent / path).resolve().is_file():
            broken.append(target)
    assert not broken, f"{md.relative_to(ROOT)}: links to missing files: {broken}"


def test_every_docs_file_is_linked_from_the_readme():
    linked = {(ROOT / p).resolve() for p in filter(None, map(_relative, _links(README.read_text("utf-8"))))}
    missing = [str(d.relative_to(ROOT)) for d in DOCS if d.resolve() not in linked]
    assert not missing, f"not linked from README.md: {missing}"


def test_docs_files_have_a_title_and_a_link_back():
    for d in DOCS:
        text = d.read_text("utf-8")
        assert text.startswith("# "), d.name
        assert "](../README.md)" in text, d.name


def test_the_link_checker_sees_a_broken_link(tmp_path):
    """The checker itself: a missing target is reported, web links, anchors and fragments are not."""
    md = tmp_path / "x.md"
    (tmp_path / "here.md").write_text("", "utf-8")
    md.write_text("[a](here.md#part) [b](https://example.org/x) [c](#top) [d](gone.md)\n"
                  "```\n[e](inside-a-code-block.md)\n```\n", "utf-8")
    targets = [t for t in map(_relative, _links(md.read_text("utf-8"))) if t]
    assert targets == ["here.md", "gone.md"]
    assert [t for t in targets if not (tmp_path / t).is_file()] == ["gone.md"]
