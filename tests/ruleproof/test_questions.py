"""Questions for judges (issue 50): per alternative reading and per clause unit no ruling pins, the game the two
alternatives play apart in what a judge sees, as a ruling draft with a case per alternative — each case passing on
its own rulebook and failing on the other, differing in a card, the action, or what is offered as the game goes; the
world made smaller while it still decides; the same rulebook gives the same questions; `answer` turns one into a
ruling that passes under the chosen reading and fails under the other."""

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
#: an open question (no shipped ruling decides it), one a ruling decides, one whose games end alike but differ in
#: who a window asks first
ONLY = {"R-strike-row-4", "R-defender-marker", "R-non-active-first-late"}
#: units no shipped ruling pins: a draft giving the calculation window's priority to the other player; a draft
#: skipping the dice step for a big X
UNITS = {"512.6.3/b1", "512.6.2"}


@pytest.fixture(scope="module")
def asked():
    from ruleproof.reports.bundle import make_clause_text

    return {q.label: q for q in questions(RB, make_clause_text(), only=ONLY, units=UNITS)}


def _seen(e: dict) -> dict:
    """What a judge sees in a case's expectations: the cards and the action at the end, what is shown as it goes."""
    return {k: e.get(k) for k in ("cards", "action", "events", "no_events")}


def _draft(draft_id: str):
    from ruleproof.generators.selftest import drafts

    [d] = [d for d in drafts() if d.id == draft_id]
    return d.load()


def test_each_question_is_a_game_its_alternatives_play_apart(asked):
    assert set(asked) == ONLY | UNITS
    assert asked["R-defender-marker"].pinned == "kele-defender" and asked["R-strike-row-4"].pinned is None
    for label, q in asked.items():
        other = variant(RB, label) if q.kind == "reading" else _draft(q.draft)
        assert decides(q.doc, RB, other)  # A passes on the rulebook, fails on the alternative; B the other way
        for case in cases_of(q.doc):  # every alternative run on both: they differ in what a judge sees
            a, b = run_scenario(case, RB), run_scenario(case, other)
            assert a.passed != b.passed
        a, b = (c["expect"] for c in q.doc["cases"])
        assert _seen(a) != _seen(b) and any(_seen(a).values())
        assert "Какое верно?" in q.text["ru"] and "Which is right?" in q.text["en"]
        assert all(cid in q.text["ru"] for cid in q.about if RB.index.status(cid) != "referenced")
    assert "R-strike-row-4" in asked["R-strike-row-4"].text["ru"] and asked["R-strike-row-4"].doc["cases"][0]["expect"]["cards"]


def test_games_that_end_alike_ask_what_is_shown_as_they_go(asked):
    order = asked["R-non-active-first-late"].doc["cases"]
    assert order[0]["expect"]["events"][0]["op"] == "window" and order[0]["expect"]["events"][0]["first"] == "A"
    assert order[1]["expect"]["events"][0]["first"] == "B" and "cards" not in order[1]["expect"]
    assert "приоритет сначала у игрока B" in asked["R-non-active-first-late"].text["ru"]
    skipped = asked["512.6.2"]
    assert skipped.kind == "unit" and skipped.draft == "big-x-skips-dice" and skipped.pinned is None
    assert skipped.doc["cases"][1]["expect"]["no_events"] == [{"op": "enter", "step": "dice"}]
    assert "шаг dice пропускается" in skipped.text["ru"] and "step dice is skipped" in skipped.text["en"]


def test_the_game_is_made_smaller_while_it_still_decides(asked):
    from ruleproof.question_game import shrink

    q = asked["512.6.3/b1"]
    other = _draft(q.draft)
    bigger = json.loads(json.dumps(q.doc))
    bystander = json.loads(json.dumps(bigger["cards"][bigger["action"]["targets"][0]]))
    bystander["features"] = [{"id": "idle_block", "kind": "block"}]
    bigger["cards"]["bystander"] = bystander
    assert decides(bigger, RB, other)
    smaller = shrink(bigger, lambda d: decides(d, RB, other))
    assert "bystander" not in smaller["cards"] and smaller["cards"] == q.doc["cards"]


def test_the_same_rulebook_gives_the_same_questions(asked):
    from ruleproof.reports.bundle import make_clause_text

    again = {q.label: q for q in questions(RB, make_clause_text(), only={"R-strike-row-4"}, units=set())}
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


def test_unit_questions_on_the_command_line_and_the_debt_they_add(capsys):
    assert main(["questions", "--units", "512.6.2", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    [q] = doc["questions"]
    assert (q["kind"], q["unit"], q["draft"], q["open"], q["reading"]) == ("unit", "512.6.2", "big-x-skips-dice", True, None)
    debt = {r["clause"]: r for r in doc["debt"]}
    assert debt["512.6.2"]["debt"] == "question" and debt["512.6.2"]["questions"] == [q["id"]]
    # every reading's status is in the map, asked or not: the readings no ruling decides come first
    assert doc["debt"][0] == {**doc["debt"][0], "clause": "512.6.2/b4.1.1", "debt": "reading_open"}
    assert "R-strike-row-4" in doc["debt"][0]["open_readings"] and "R-die-unclamped" in doc["debt"][0]["decided_readings"]
    assert main(["--lang", "ru", "questions", "--units", "512.6.2"]) == 0
    shown = capsys.readouterr().out
    assert "пункт 512.6.2" in shown and "Долг по разъяснениям" in shown and "открытый вопрос (" in shown
    assert main(["--lang", "en", "questions", "--units", "512.6.22"]) == 2
    assert "unknown clause id '512.6.22'" in capsys.readouterr().err


def test_an_order_is_asked_only_where_each_event_is_met_for_the_first_time():
    from types import SimpleNamespace

    from ruleproof.question_game import _order

    def game(*windows, bookkeeping=()):
        """Windows opening in this order (what a judge sees), with operations that change no card between them."""
        return [SimpleNamespace(op=op, step="s", values={"id": w} if op == "window" else {},
                                state=SimpleNamespace(cards=()))
                for w in windows for op in ("window", *bookkeeping)]

    mark = lambda w: {"op": "window", "step": "s", "id": w}  # noqa: E731
    assert _order(game("p", "q", "r"), game("p", "r", "q")) == [mark("q"), mark("r")]
    # P, P, Q against P, Q, P: "P then Q" holds on both (the first P) — not a question
    assert _order(game("p", "p", "q"), game("p", "q", "p")) is None
    assert _order(game("p", "q"), game("p", "q")) is None
    # an order only of operations nobody sees (no card changes) is not asked
    assert _order(game("p", bookkeeping=("fix_x", "check")), game("p", bookkeeping=("check", "fix_x"))) is None
