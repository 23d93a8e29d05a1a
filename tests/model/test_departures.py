"""A failed ruling marks where its run departs from each expectation (what every format shows ▶):
the event that set a rejected value, the skipped event of an expected one, the event that should
not be there, the stuck end, the passes of a window where a scripted response was never offered."""

from __future__ import annotations

from pathlib import Path

from ruleproof.generators.mutants import write_mutant
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.scenario import load_scenario, run_scenario

RULINGS = Path(__file__).resolve().parents[2] / "rulings"
KELE = RULINGS / "540-kele-attacker.yaml"


def _run(path: Path, rulebook=None):
    sc = load_scenario(path)
    res = run_scenario(sc, rulebook or load_rulebook())
    return res, {e.seq: e for e in res.trace.events}, {f.what: f for f in res.failures}


def test_a_missing_marker_points_at_the_skipped_give_and_the_end(tmp_path):
    res, events, fails = _run(KELE, load_rulebook(write_mutant("M4", tmp_path)))
    give = fails["event {'op': 'give_action_marker', 'card': 'kele'}"]
    assert give.events and all(events[n].op == "give_action_marker" and events[n].values.get("skipped")
                               for n in give.events)
    # the marker count never changed: the action ended without it
    assert fails["cards.kele.action_markers"].events == (res.trace.events[-1].seq,)
    assert res.departures == tuple(sorted({*give.events, res.trace.events[-1].seq}))


def test_a_wrong_value_points_at_the_event_that_set_it(edited_copy):
    def wrong_wounds(data):
        data["expect"]["cards"]["kele"]["wounds"] = 3  # the run ends with 1

    res, events, fails = _run(edited_copy(KELE, wrong_wounds))
    (n,) = fails["cards.kele.wounds"].events
    before = res.trace.events[[e.seq for e in res.trace.events].index(n) - 1].state.card("kele").wounds
    assert (before, events[n].state.card("kele").wounds) == (0, 1)  # the orc's spite after the heal
    assert all(events[m].state.card("kele").wounds == 1 for m in events if m >= n)


def test_an_unwanted_event_and_a_never_offered_response(edited_copy):
    def edit(data):
        data["expect"]["no_events"] = [{"op": "play", "feature": "kele_heal"}]
        data["responses"].append({"window": "payment_triggers", "player": "B", "play": "orc_spite"})

    res, events, fails = _run(edited_copy(KELE, edit))
    (n,) = fails["no event {'op': 'play', 'feature': 'kele_heal'}"].events
    assert events[n].op == "play" and events[n].values["feature"] == "kele_heal"
    never = fails["response orc_spite (B in window payment_triggers)"].events
    assert never and all(events[m].op == "pass" and events[m].values["window"] == "payment_triggers"
                         and events[m].values["player"] == "B" for m in never)


def test_a_passing_ruling_marks_nothing():
    res, _, _ = _run(KELE)
    assert res.passed and res.departures == ()


def test_an_order_holds_as_played_and_fails_reversed_at_the_event_out_of_place(edited_copy):
    marker, window = {"op": "give_action_marker", "card": "kele"}, {"op": "window", "id": "payment_triggers"}

    def order(*pair):
        def edit(data):
            data["expect"]["order"] = list(pair)
        return edit

    res, _, _ = _run(edited_copy(KELE, order(marker, window)))
    assert res.passed  # the rulebook gives the marker, then opens the payment triggers' window (540.3, 512.7/b2)
    res, events, fails = _run(edited_copy(KELE, order(window, marker)))
    f = fails["order: event {'op': 'give_action_marker', 'card': 'kele'}"]
    (n,) = f.events
    assert events[n].op == "give_action_marker" and "payment_triggers" in f.wanted("en") and "после" in f.wanted("ru")
