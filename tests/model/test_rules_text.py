"""Tests of the rules-text parser (ruleproof.model.rules_text).

The synthetic text in tests/data/rules_synthetic/ uses invented clause numbers (7xx) so it cannot
be confused with the real rules.  Reading order: 001_opening.txt, then 000_continuation.txt (which
starts mid-clause and continues 710.1), and 002_orphan.txt, whose leading bullets continue no other
fragment (they become the tail of a partial clause 729).
"""

from __future__ import annotations

import itertools
import random
import re
import shutil
from pathlib import Path

import pytest

from ruleproof.ground.errors import Location, RuleproofError
from ruleproof.model.clauses import default_index
from ruleproof.model.rules_text import (
    RulesText,
    clause_key,
    load_rules_text,
    parent_of,
    parse_rules_text,
)

HERE = Path(__file__).resolve()
DATA = HERE.parents[1] / "data"
SYNTH = DATA / "rules_synthetic"
SEEDS = HERE.parents[3] / "shared" / "seeds"

OPENING, CONTINUATION, ORPHAN = "001_opening.txt", "000_continuation.txt", "002_orphan.txt"

SYNTH_IDS = [
    "710",
    "710.1",
    "710.1/b1",
    "710.1/b2",
    "710.1/b2.1",
    "710.1/b2.1.1",
    "710.1/b2.1.2",
    "710.1/b2.2",
    "710.1/b2.2.1",
    "710.1/b2.2.2",  # 000_continuation.txt:1, stitched under 710.1/b2.2 of 001_opening.txt
    "710.1/b3",
    "710.1/p1",
    "710.2",
    "710.2/ex1",
    "710.3",
    "729/t1",
    "729/t2",
    "730",
    "730.1",
]


# ---------------------------------------------------------------- helpers / fixtures


def _fragments(folder: Path) -> list[tuple[str, str]]:
    """(file name, text) for every .txt of ``folder``, sorted by name."""
    return [(p.name, p.read_text("utf-8")) for p in sorted(folder.glob("*.txt"))]


def _snapshot(rt: RulesText) -> dict:
    """Everything of a parse result except the input order of sources."""
    return {
        "units": [(u.id, u.kind, u.text, str(u.where), u.parent) for u in rt.units.values()],
        "clauses": list(rt.clauses),
        "partial": set(rt.partial),
        "references": {k: list(v) for k, v in rt.references.items()},
    }


@pytest.fixture(scope="module")
def synth_frags() -> list[tuple[str, str]]:
    frags = _fragments(SYNTH)
    assert [name for name, _ in frags] == [CONTINUATION, OPENING, ORPHAN]
    return frags


@pytest.fixture(scope="module")
def synth(synth_frags) -> RulesText:
    return parse_rules_text(synth_frags)


@pytest.fixture(scope="module")
def seeds_frags() -> list[tuple[str, str]]:
    if not SEEDS.is_dir() or not list(SEEDS.glob("*.txt")):
        pytest.skip(f"the rule excerpts are not available at {SEEDS}")
    return [(str(p), p.read_text("utf-8")) for p in sorted(SEEDS.glob("*.txt"))]


@pytest.fixture(scope="module")
def seeds_text(seeds_frags) -> RulesText:
    return load_rules_text(SEEDS)


def _raises(code: str, fn, *args) -> RuleproofError:
    with pytest.raises(RuleproofError) as info:
        fn(*args)
    assert info.value.code == code, info.value.render("en")
    return info.value


# ---------------------------------------------------------------- synthetic text: structure


def test_unit_ids_in_document_order(synth):
    assert list(synth.units) == SYNTH_IDS
    assert synth.clauses == ["710", "710.1", "710.2", "710.3", "729", "730", "730.1"]


def test_unit_kinds(synth):
    kinds = {uid: u.kind for uid, u in synth.units.items()}
    assert kinds == {
        "710": "lead", "710.1": "lead", "710.2": "lead", "710.3": "lead", "730": "lead", "730.1": "lead",
        "710.1/b1": "bullet", "710.1/b2": "bullet", "710.1/b2.1": "bullet", "710.1/b2.1.1": "bullet",
        "710.1/b2.1.2": "bullet", "710.1/b2.2": "bullet", "710.1/b2.2.1": "bullet",
        "710.1/b2.2.2": "bullet", "710.1/b3": "bullet",
        "710.1/p1": "paragraph",
        "710.2/ex1": "example",
        "729/t1": "tail", "729/t2": "tail",
    }


def test_unit_texts(synth):
    u = synth.units
    assert u["710"].text == "Выдуманный приём «Тройной прыжок»."
    # a wrapped line (lowercase start) is joined to the bullet it continues
    assert u["710.1/b2"].text == "шага проверки, который проходит по-разному в зависимости от вида приёма:"
    assert u["710.1/b2.2.2"].text == "цели сверяются по таблице прыжков."
    # unmarked sentence after a finished bullet is a paragraph, not part of the bullet
    assert u["710.1/b3"].text == "шага завершения."
    assert u["710.1/p1"].text == "Если приём отменён, игра переходит к следующему ходу (см. 777.)."
    # the ПРИМЕР marker is dropped; the wrapped example line is joined
    assert u["710.2/ex1"].text == ("Гном Прыгун готовит «Тройной прыжок» в начале своего хода "
                                   "и не может подготовить его повторно до следующего хода.")


def test_parents_follow_bullet_nesting(synth):
    u = synth.units
    assert u["710"].parent is None
    assert u["710.1"].parent == "710"
    assert u["710.1/b2.1.2"].parent == "710.1/b2.1"
    assert u["710.1/b2.2.2"].parent == "710.1/b2.2"  # across the fragment boundary
    assert u["710.1/b3"].parent == "710.1"
    assert u["710.1/p1"].parent == "710.1"
    assert u["710.2/ex1"].parent == "710.2"
    assert u["729/t1"].parent == "729"
    for uid, unit in synth.units.items():
        assert unit.parent == parent_of(uid), uid


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))),
                         ids=lambda o: "-".join(map(str, o)))
def test_stitching_does_not_depend_on_fragment_order(synth_frags, synth, order):
    rt = parse_rules_text([synth_frags[i] for i in order])
    assert _snapshot(rt) == _snapshot(synth)
    assert list(rt.units) == SYNTH_IDS
    assert rt.units["710.1/b2.2.2"].parent == "710.1/b2.2"
    assert rt.partial == {"729"}
    assert rt.sources == [synth_frags[i][0] for i in order]


def test_location_of_unit_from_second_fragment(synth):
    assert str(synth.units["710.1/b2.2.2"].where) == f"{CONTINUATION}:1"
    assert str(synth.units["710.1/p1"].where) == f"{CONTINUATION}:3"
    # line numbers count blank lines (line 4 of the continuation is empty)
    assert synth.units["710.2"].where == Location(CONTINUATION, 5)
    assert str(synth.units["710.2/ex1"].where) == f"{CONTINUATION}:6"
    assert str(synth.units["710.1/b2"].where) == f"{OPENING}:4"


def test_location_uses_the_path_when_loaded_from_a_folder():
    rt = load_rules_text(SYNTH)
    assert str(rt.units["710.2/ex1"].where) == f"{SYNTH / CONTINUATION}:6"
    assert rt.sources == [str(SYNTH / n) for n in (CONTINUATION, OPENING, ORPHAN)]
    assert _snapshot(rt)["units"][0][0] == "710"


def test_orphan_fragment_makes_partial_clause_with_tail(synth):
    assert synth.partial == {"729"}
    assert "729" in synth.clauses
    assert "729" not in synth.units  # no lead: the beginning of 729 is not in the text
    assert synth.units["729/t1"].text == "Игрок сбрасывает одну карту."
    assert synth.units["729/t2"].text == "Затем игрок берёт новую карту."
    assert synth.units["729/t1"].where == Location(ORPHAN, 1)


def test_orphan_fragment_alone(synth_frags):
    rt = parse_rules_text([f for f in synth_frags if f[0] == ORPHAN])
    assert list(rt.units) == ["729/t1", "729/t2", "730", "730.1"]
    assert rt.partial == {"729"}


def test_continuation_is_not_partial_when_its_predecessor_is_given(synth):
    assert "710.1" not in synth.partial
    assert not any("/t" in uid for uid in synth.units if uid.startswith("710"))


def test_referenced_only(synth):
    assert synth.referenced_only() == ["777"]
    assert synth.references["777"] == ["710.1/p1"]
    # a reference to a clause present in the text is recorded but is not "referenced only"
    assert synth.references["710.1"] == ["710.3"]


def test_referenced_only_is_sorted_numerically():
    rt = parse_rules_text([("x.txt", "701. См. 720.10, 720.9 и 703 (п. 701 — сам пункт).")])
    assert rt.referenced_only() == ["703", "720.9", "720.10"]
    assert "701" not in rt.references  # a clause does not reference itself


def test_text_of_whole_clause(synth):
    assert synth.text_of("710.1") == "\n".join([
        "Приём выполняется в три шага:",
        "шага подготовки;",
        "шага проверки, который проходит по-разному в зависимости от вида приёма:",
        "в случае одиночного приёма:",
        "игрок называет цель;",
        "игрок называет силу прыжка.",
        "в случае парного приёма:",
        "оба игрока называют цели;",
        "цели сверяются по таблице прыжков.",
        "шага завершения.",
        "Если приём отменён, игра переходит к следующему ходу (см. 777.).",
    ])
    assert synth.text_of("710.2") == synth.units["710.2"].text + "\n" + synth.units["710.2/ex1"].text
    assert synth.text_of("729") == "Игрок сбрасывает одну карту.\nЗатем игрок берёт новую карту."


def test_text_of_unit_and_unknown(synth):
    assert synth.text_of("710.1/b2.2.2") == "цели сверяются по таблице прыжков."
    assert synth.text_of("710") == "Выдуманный приём «Тройной прыжок»."  # sub-clauses are not included
    assert synth.text_of("777") is None
    assert synth.text_of("710.1/b9") is None


def test_header_and_bullets_without_text_between():
    rt = parse_rules_text([("a.txt", "701. Шаг.\n● первый;\n○ вложенный\n■ глубже\n● второй.\nПРИМЕР: Пример.")])
    assert list(rt.units) == ["701", "701/b1", "701/b1.1", "701/b1.1.1", "701/b2", "701/ex1"]
    assert rt.units["701/b2"].parent == "701"


def test_crlf_and_bom_are_accepted(tmp_path):
    folder = tmp_path / "crlf"
    folder.mkdir()
    for name, text in _fragments(SYNTH):
        (folder / name).write_bytes(text.replace("\n", "\r\n").encode("utf-8-sig"))
    rt = load_rules_text(folder)
    assert list(rt.units) == SYNTH_IDS
    assert rt.units["710"].text == "Выдуманный приём «Тройной прыжок»."


def test_single_file_path(tmp_path):
    f = tmp_path / "rules.txt"
    f.write_text("730. Завершение хода.\n730.1. Ход завершается.\n", "utf-8")
    rt = load_rules_text(f)
    assert list(rt.units) == ["730", "730.1"]
    assert rt.sources == [str(f)]


# ---------------------------------------------------------------- clause_key / parent_of


def test_clause_key_sorts_document_order(synth):
    shuffled = list(SYNTH_IDS)
    random.Random(7).shuffle(shuffled)
    assert sorted(shuffled, key=clause_key) == SYNTH_IDS
    assert sorted(synth.units, key=clause_key) == list(synth.units)


@pytest.mark.parametrize("before, after", [
    ("710.9", "710.10"),              # numeric, not lexicographic
    ("710.1/b9", "710.1/b10"),
    ("710.1", "710.1/b1"),            # a clause before its units
    ("710.1/b2", "710.1/b2.1"),       # a bullet before its sub-bullets
    ("710.1/b2.9", "710.1/b3"),
    ("710.1/p1", "710.1.1"),          # a clause's own units before its sub-clauses
    ("710.1/b3", "710.1/p1"),
    ("710.1.5", "710.2"),
    ("729/t2", "730"),
    ("99", "710"),
])
def test_clause_key_pairs(before, after):
    assert clause_key(before) < clause_key(after)
    assert sorted([after, before], key=clause_key) == [before, after]


@pytest.mark.parametrize("uid, parent", [
    ("710.1/b2.2.2", "710.1/b2.2"),
    ("710.1/b2.2", "710.1/b2"),
    ("710.1/b2", "710.1"),
    ("710.1/p1", "710.1"),
    ("710.2/ex1", "710.2"),
    ("729/t1", "729"),
    ("710.1", "710"),
    ("710.1.3.4", "710.1.3"),
    ("710", None),
])
def test_parent_of(uid, parent):
    assert parent_of(uid) == parent


# ---------------------------------------------------------------- errors


def test_duplicate_clause_across_fragments_is_rp141():
    a = ("a.txt", "710. Раздел.\n710.2. Первая копия.\n")
    b = ("b.txt", "720. Другой раздел.\n\n710.2. Вторая копия.\n")
    err = _raises("RP141", parse_rules_text, [a, b])
    assert err.params["clause"] == "710.2"
    assert err.location == Location("b.txt", 3)
    assert str(err.params["other"]) == "a.txt:2"
    assert "710.2" in err.render("ru") and "a.txt:2" in err.render("en")


def test_duplicate_file_in_folder_is_rp141(tmp_path):
    folder = tmp_path / "dup"
    folder.mkdir()
    text = (SYNTH / OPENING).read_text("utf-8")
    (folder / "a.txt").write_text(text, "utf-8")
    (folder / "b.txt").write_text(text, "utf-8")
    _raises("RP141", load_rules_text, folder)


def test_text_without_numbered_clause_is_rp140():
    err = _raises("RP140", parse_rules_text, [("plain.txt", "Просто текст без номеров.\n● пункт списка\n")])
    assert err.location == Location("plain.txt")


def test_no_fragments_is_rp140():
    _raises("RP140", parse_rules_text, [])


def test_empty_folder_is_rp142(tmp_path):
    err = _raises("RP142", load_rules_text, tmp_path)
    assert err.location == Location(str(tmp_path))


def test_folder_without_txt_files_is_rp142(tmp_path):
    (tmp_path / "rules.md").write_text("710. Раздел.\n", "utf-8")
    _raises("RP142", load_rules_text, tmp_path)


def test_non_utf8_file_is_rp102_with_line(tmp_path):
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "a.txt").write_text("710. Раздел.\n", "utf-8")
    (folder / "b.txt").write_bytes("720. Раздел.\n● первый;\n".encode("utf-8") + "второй".encode("cp1251") + b"\n")
    err = _raises("RP102", load_rules_text, folder)
    assert err.location is not None
    assert err.location.file == str(folder / "b.txt")
    assert err.location.line == 3
    assert "UTF-8" in err.render("en")


def test_missing_path_is_rp100(tmp_path):
    missing = tmp_path / "no-such-rules"
    err = _raises("RP100", load_rules_text, missing)
    assert err.location == Location(str(missing))


# ---------------------------------------------------------------- regressions
# Each of these failed on commit 224d758 (they were strict xfails when written); the working tree
# has since been fixed.


def test_orphan_sub_bullet_is_numbered_from_one(synth_frags):
    """Was …/t0: a parentless «■» was re-levelled to a top bullet but numbered with a counter at 0."""
    rt = parse_rules_text([f for f in synth_frags if f[0] == CONTINUATION])
    assert rt.partial == {"710.1"}
    assert list(rt.units)[:3] == ["710.1/t1", "710.1/t2", "710.1/p1"]
    assert rt.units["710.1/t1"].text == "цели сверяются по таблице прыжков."
    assert rt.units["710.1/t1"].kind == "tail"
    assert rt.units["710.1/t2"].text == "шага завершения."
    assert all(not re.search(r"/[bt]0", uid) for uid in rt.units)


def test_parentless_sub_bullets_keep_their_text():
    """Was: both «■» got id …/b0 and the first one's text was silently overwritten."""
    rt = parse_rules_text([("a.txt", "701. Шаг.\n■ первый;\n■ второй.")])
    assert list(rt.units) == ["701", "701/b1", "701/b2"]
    assert [u.text for u in rt.units.values()] == ["Шаг.", "первый;", "второй."]


def test_duplicate_orphan_fragment_is_rp141(synth_frags):
    """Was KeyError: a partial clause has no lead unit to point at as the first copy."""
    orphan = next(f for f in synth_frags if f[0] == ORPHAN)
    err = _raises("RP141", parse_rules_text, [orphan, ("copy.txt", orphan[1])])
    assert err.params["clause"] == "729"
    assert err.location == Location("copy.txt", 1)
    assert str(err.params["other"]) == f"{ORPHAN}:1"


def test_bullet_glyph_on_its_own_line():
    """Was: an empty bullet counted as finished, so its text became a paragraph."""
    rt = parse_rules_text([("a.txt", "701. Шаг:\n●\nПриоритет получает Активный Игрок.\n●\nВторой пункт.")])
    assert list(rt.units) == ["701", "701/b1", "701/b2"]
    assert rt.units["701/b1"].text == "Приоритет получает Активный Игрок."
    assert rt.units["701/b2"].text == "Второй пункт."


def test_fragment_without_clause_is_rp143():
    """Was: a fragment holding only bullets was silently dropped."""
    err = _raises("RP143", parse_rules_text,
                  [("a.txt", "701. Шаг:\n● первый;"), ("b.txt", "\n● второй;\n● третий.")])
    assert err.location == Location("b.txt", 2)


def test_empty_file_in_folder_is_ignored(tmp_path):
    folder = tmp_path / "with-empty"
    shutil.copytree(SYNTH, folder)
    (folder / "005_empty.txt").write_text("\n\n", "utf-8")
    rt = load_rules_text(folder)
    assert list(rt.units) == SYNTH_IDS


# ---------------------------------------------------------------- the real excerpts


def test_seeds_agree_with_clause_index(seeds_text):
    index = default_index()
    expected = {e.id for e in index if e.status == "available" and e.kind != "section"}
    assert set(seeds_text.units) == expected
    assert index.compare_with_text(seeds_text) == ([], [])
    assert len(seeds_text.units) == 75


def test_seeds_stitched_continuation(seeds_text):
    unit = seeds_text.units["512.6.2/b4.3.1"]
    assert Path(unit.where.file).name.startswith("002_")
    assert unit.where.line == 1
    assert unit.parent == "512.6.2/b4.3"
    assert unit.text.startswith("определяется числовое значение")
    # the bullet after it is the fifth top bullet of 512.6.2, not a tail of a partial clause
    assert seeds_text.units["512.6.2/b5"].where.line == 2
    assert "512.6.2" not in seeds_text.partial


def test_seeds_partial_512_5(seeds_text):
    assert seeds_text.partial == {"512.5"}
    assert "512.5" not in seeds_text.units
    tail = seeds_text.units["512.5/t1"]
    assert tail.kind == "tail"
    assert Path(tail.where.file).name.startswith("004_") and tail.where.line == 1
    assert seeds_text.text_of("512.5") == tail.text


def test_seeds_referenced_only(seeds_text):
    index = default_index()
    expected = ["122", "306", "510.2", "510.4", "511", "518", "519", "520", "526"]
    assert seeds_text.referenced_only() == expected
    assert all(index.status(cid) == "referenced" for cid in expected)


def test_seeds_examples(seeds_text):
    for uid, start in (("540.4.1/ex1", "Келе"), ("542.6/ex1", "Серк"), ("542.8/ex1", "Леший")):
        unit = seeds_text.units[uid]
        assert unit.kind == "example"
        assert unit.text.startswith(start), (uid, unit.text[:30])
    assert [u for u in seeds_text.units if "/ex" in u] == ["540.4.1/ex1", "542.6/ex1", "542.8/ex1"]


def test_seeds_paragraph_after_bullets(seeds_text):
    p1 = seeds_text.units["542.1/p1"]
    assert p1.kind == "paragraph"
    assert p1.text.startswith("Часто в текстах таких особенностей")
    assert p1.text.endswith("как именно надо определять величину X.")  # the «[текст] …» line is joined


def test_seeds_reverse_order_gives_same_result(seeds_frags, seeds_text):
    forward = parse_rules_text(seeds_frags)
    backward = parse_rules_text(list(reversed(seeds_frags)))
    assert _snapshot(forward) == _snapshot(seeds_text)
    assert _snapshot(backward) == _snapshot(forward)
    assert list(backward.units) == list(forward.units)


# --- edge cases found in review -------------------------------------------------------------------------

def test_a_number_with_a_decimal_part_is_not_a_header():
    rt = parse_rules_text([("x.txt", "701. Пункт.\n100.5 очков за раунд — это не пункт.")])
    assert rt.clauses == ["701"]
    assert rt.units["701"].text == "Пункт. 100.5 очков за раунд — это не пункт."


def test_a_bare_number_is_not_a_reference():
    rt = parse_rules_text([("x.txt", "701. Лечит на 100 единиц (см. 306. Бросок кубика.), согласно 520.")])
    assert rt.referenced_only() == ["306", "520"]


def test_text_of_a_bullet_includes_its_sub_bullets():
    rt = parse_rules_text([("x.txt", "701. Пункт:\n● верх;\n○ середина;\n■ низ.\n● второй.\n701.1. Подпункт.")])
    assert rt.text_of("701/b1") == "верх;\nсередина;\nниз."
    assert rt.text_of("701") == "Пункт:\nверх;\nсередина;\nниз.\nвторой."  # not the sub-clause 701.1


def test_only_the_fragment_that_leaves_the_preceding_clause_open_is_continued():
    a = ("a.txt", "● хвост чего-то до 701.\n701. Первый.")
    b = ("b.txt", "● продолжение 701.\n702. Второй.")
    for order in ([a, b], [b, a]):
        rt = parse_rules_text(order)
        assert rt.clauses == ["700", "701", "702"] and rt.partial == {"700"}
        assert rt.units["700/t1"].text == "хвост чего-то до 701."
        assert rt.units["701/b1"].text == "продолжение 701." and str(rt.units["701/b1"].where) == "b.txt:1"


def test_fragments_in_a_ring_are_not_silently_dropped():
    """Numbering that runs backwards can make two fragments continue each other: a clear error."""
    a = ("a.txt", "● хвост.\n702. Второй.\n700. Нулевой.")
    b = ("b.txt", "● ещё хвост.\n701. Первый.")
    with pytest.raises(RuleproofError) as exc:
        parse_rules_text([a, b])
    assert exc.value.code == "RP141" and "700" in exc.value.render("en")
