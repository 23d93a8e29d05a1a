"""Questions for judges (issue 50): per alternative reading, the game whose end it changes, as a ruling draft with a
case per alternative — each case passing on its own reading and failing on the other, differing in a card or the
action as a judge sees them; the same rulebook gives the same questions; `answer` turns one into a ruling that
passes under the chosen reading and fails under the other."""

from __future__ import annotations

import json

import pytest
import yaml

from ruleproof.cli import main
from ruleproof.model.readings import variant
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.scenario import run_scenario
from ruleproof.questions import answer, cases_of, decides, questions

RB = load_rulebook()
#: an open question (no shipped ruling decides it), one a ruling decides, one with no game whose end differs
ONLY = {"R-strike-row-4", "R-defender-marker", "R-non-active-first-late"}


@pytest.fixture(scope="module")
def asked():
    from ruleproof.reports.bundle import make_clause_text

    return {q.label: q for q in questions(RB, make_clause_text(), only=ONLY)}


def test_each_question_is_a_game_its_alternatives_end_apart(asked):
    assert set(asked) == ONLY
    assert asked["R-defender-marker"].pinned == "kele-defender" and asked["R-strike-row-4"].pinned is None
    assert asked["R-non-active-first-late"].doc is None and "не заканчивается" in asked["R-non-active-first-late"].text["ru"]
    for rid in ("R-strike-row-4", "R-defender-marker"):
        q = asked[rid]
        other = variant(RB, rid)
        assert decides(q.doc, RB, other)  # A passes on the rulebook, fails on the reading; B the other way
        a, b = (c["expect"] for c in q.doc["cases"])
        seen = lambda e: {k: e.get(k) for k in ("cards", "action")}  # noqa: E731 - what a judge sees
        assert seen(a) != seen(b) and (a.get("cards") or a.get("action"))
        assert "Какое верно?" in q.text["ru"] and "Which is right?" in q.text["en"] and rid in q.text["ru"]
        assert all(cid in q.text["ru"] for cid in q.about if RB.index.status(cid) != "referenced")


def test_the_same_rulebook_gives_the_same_questions(asked):
    from ruleproof.reports.bundle import make_clause_text

    again = {q.label: q for q in questions(RB, make_clause_text(), only={"R-strike-row-4"})}
    assert again["R-strike-row-4"].id == asked["R-strike-row-4"].id
    assert again["R-strike-row-4"].doc == asked["R-strike-row-4"].doc


@pytest.mark.parametrize("choose", ["A", "B"])
def test_an_answer_is_a_ruling_that_passes_under_the_chosen_reading_only(asked, choose):
    q = asked["R-strike-row-4"]
    ruling = answer(q.doc, choose)
    [sc] = cases_of(ruling)
    chosen, other = (RB, variant(RB, q.label)) if choose == "A" else (variant(RB, q.label), RB)
    assert run_scenario(sc, chosen).passed and not run_scenario(sc, other).passed
    assert ruling["provenance"]["answer"] == {"question": q.id, "chosen": choose,
                                              **({"rulebook": str(RB.path)} if choose == "A" else
                                                 {"rulebook": str(variant(RB, q.label).path), "reading": q.label})}
    assert ("assumptions" in ruling) is (choose == "A")


def test_the_commands(tmp_path, capsys):
    out = tmp_path / "q"
    assert main(["--lang", "ru", "questions", "--only", "R-strike-row-4", "--out", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "открытый вопрос" in shown and "Какое верно?" in shown
    [path] = list(out.glob("q-*.yaml"))
    assert main(["--lang", "en", "run", str(path)]) == 1  # case B fails on the bundled rulebook, A passes
    capsys.readouterr()
    ruling = tmp_path / "ruling.yaml"
    assert main(["--lang", "ru", "answer", str(path), "--choose", "A", "-o", str(ruling)]) == 0
    assert main(["run", str(ruling)]) == 0
    assert yaml.safe_load(ruling.read_text("utf-8"))["provenance"]["answer"]["chosen"] == "A"
    capsys.readouterr()
    assert main(["--lang", "en", "answer", str(path), "--choose", "C"]) == 2
    assert "no case 'C'" in capsys.readouterr().err
    assert main(["--lang", "en", "answer", str(ruling), "--choose", "A"]) == 2  # a ruling is not a question
    assert "not a question" in capsys.readouterr().err
    assert main(["questions", "--only", "R-nope"]) == 2
    capsys.readouterr()
    assert main(["questions", "--only", "R-strike-row-4", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "ruleproof-questions/1" and doc["questions"][0]["open"] is True
