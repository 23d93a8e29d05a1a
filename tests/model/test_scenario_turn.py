"""Several game actions in one turn (`then:` in a scenario): each starts from the cards the one before
left, expectations are per action, failures and bad input name the action."""

from __future__ import annotations

from pathlib import Path

from ruleproof.cli import main
from ruleproof.model.scenario import load_scenario, run_scenario

ROOT = Path(__file__).resolve().parents[2]
TURN = ROOT / "rulings" / "540-per-turn-one-turn.yaml"


def test_the_second_action_starts_from_what_the_first_left(bundled):
    res = run_scenario(load_scenario(TURN), bundled)
    assert res.passed and len(res.parts) == 2
    first, second = res.parts
    assert first.final.card("twinblade").action_markers == 1 and not first.final.card("twinblade").closed
    assert second.events[0].state.card("twinblade").action_markers == 1  # it sees the first one's marker
    assert second.final.card("twinblade").closed
    # one trace for the whole turn, numbered through
    assert [e.seq for e in res.trace.events] == list(range(len(first.events) + len(second.events)))
    assert res.trace.final is second.final


def test_a_later_action_s_failure_names_that_action(edited_copy, tmp_path, bundled):
    p = edited_copy(TURN, lambda d: d["then"][0]["expect"]["cards"]["twinblade"].update(closed=False))
    res = run_scenario(load_scenario(p), bundled)
    assert [f.what for f in res.failures] == ["then[0].cards.twinblade.closed"]
    assert (res.failures[0].expected, res.failures[0].actual) == (False, True)


def test_a_turn_whose_second_action_differs_on_a_draft(bundled):
    """Without the turn, the first attack's marker would have to be written into the second by hand;
    here the draft that gives the marker before payment closes the card already after the first attack."""
    from ruleproof.model.readings import variant

    res = run_scenario(load_scenario(TURN), variant(bundled, "R-marker-before-payment"))
    assert "cards.twinblade.closed" in [f.what for f in res.failures]


def test_bad_input_in_a_later_action_points_at_its_line(edited_copy, tmp_path, capsys):
    p = edited_copy(TURN, lambda d: d["then"][0]["action"].update(source="twinblad"))
    rc = main(["--lang", "en", "run", str(p)])
    out, err = capsys.readouterr()
    assert rc == 2 and out == "" and "RP161" in err and "did you mean 'twinblade'" in err
    line = next(i for i, ln in enumerate(p.read_text("utf-8").splitlines(), 1) if ln.strip() == "source: twinblad")
    assert err.startswith(f"{p}:{line}:")


def test_an_unknown_key_in_a_later_action_is_refused(edited_copy, tmp_path, capsys):
    p = edited_copy(TURN, lambda d: d["then"][0].update(dices=[2]))
    rc = main(["--lang", "en", "run", str(p)])
    out, err = capsys.readouterr()
    assert rc == 2 and out == "" and "dices" in err and "Traceback" not in err
