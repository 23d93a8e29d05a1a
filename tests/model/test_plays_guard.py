"""512.6.2/b2: several features may be played in one priority window («после разрешения всех таких
особенностей»). The guard ``plays_at_least(N)`` lets a draft turn its steps on how many the last window
opened played; P512.6-may-declare fails, in every engine, on the public mutant that skips the
dice-modifier window after two rerolls (``two-rerolls-no-dice-modifiers``), and holds on the bundled
rulebook, which reads no such guard."""

from __future__ import annotations

import pytest
from feature_table import Fault, Ruling, agree_test, holds_test, kill_test, load_mutant, ruling, ruling_test

from ruleproof.generators.bounded import bounded_worlds, two_plays_worlds
from ruleproof.generators.mutants import mutant_yaml
from ruleproof.model.explore import Bounds, explore
from ruleproof.model.rulebook import load_rulebook_text
from ruleproof.model.scenario import run_scenario
from ruleproof.model.vocabulary import parse_guard

RULING = "512-two-rerolls.yaml"
PID = "P512.6-may-declare"
COUNTING = "two-rerolls-no-dice-modifiers"  # the faulty draft: no dice-modifier window after two rerolls


def _reroll_plays(cx) -> int:
    return sum(1 for e in cx.events if e.op == "play" and e.values["window"] == "reroll")


RULINGS = (
    Ruling(RULING, COUNTING, fails=("action.die_final",), pid=PID,
           probe=lambda r: r.trace.final.action.die_final, expect=(2, 1)),
)
FAULTS = (
    # explore searches the worlds with two rerolls (two plays per window, above the bounds' plays=1); Z3's
    # counterexample world holds two rerolls; Hypothesis finds the fault (neither is run on the bundled rulebook)
    Fault(COUNTING, PID, lambda rb: two_plays_worlds(load_mutant(COUNTING)), holds=("explore",),
          found={"explore": lambda cx: _reroll_plays(cx) == 2,
                 "z3": lambda world: sum(f.kind == "reroll" for c in world.cards for f in c.features) >= 2}),
)

test_rulings = ruling_test(RULINGS)
test_engines_find_the_fault = kill_test(FAULTS)
test_the_bundled_rulebook_holds = holds_test(FAULTS)
test_interpreter_and_z3_agree_on_the_guard = agree_test((COUNTING,))


def test_the_guard_reads_a_whole_number():
    g = parse_guard("not plays_at_least( 2 )")
    assert (g.negated, g.name, g.arg, str(g)) == (True, "plays_at_least", "2", "not plays_at_least(2)")
    assert parse_guard("plays_at_least") is None and parse_guard("plays_at_least(16)") is None


def test_the_interpreter_counts_plays_per_window(bundled):
    sc, = ruling(RULING)
    res = run_scenario(sc, bundled)
    assert res.passed, [f.text() for f in res.failures]
    at = {(e.op, e.values.get("id") or e.values.get("feature")): e.state.action.window_plays for e in res.trace.events
          if e.op in ("play", "window", "window_closed")}
    assert at[("play", "gnome_luck")] == 1 and at[("play", "goblin_hex")] == 2
    assert at[("window_closed", "reroll")] == 2
    assert at[("window", "dice_modifiers")] == 0 and at[("play", "gnome_aim")] == 1


def test_worlds_with_two_rerolls_only_for_a_draft_that_counts(bundled):
    counting = load_mutant(COUNTING)
    assert two_plays_worlds(bundled) == [] and two_plays_worlds(None) == []
    named = {w.name for w in bounded_worlds(1, ("dice",), counting)} - {w.name for w in bounded_worlds(1, ("dice",))}
    assert named == {"simple_strike/defender/two-rerolls", "attack/two-rerolls", "spell/two-rerolls"}
    assert {w.plays for w in two_plays_worlds(counting)} == {2}


def test_diff_finds_the_smallest_game_with_two_rerolls(bundled):
    from ruleproof.model.rulebook_diff import smallest_difference

    counting = load_mutant(COUNTING)
    found = smallest_difference(bundled, counting, bounded_worlds(1, ("dice",), counting), Bounds())
    assert found is not None and found.world.endswith("two-rerolls")
    assert sum(1 for a in found.answers if a in ("a_reroll", "b_reroll")) == 2


def test_explore_says_which_worlds_it_searched_with_two_plays(tmp_path, capsys):
    import json

    from ruleproof.cli import main
    from ruleproof.generators.mutants import write_mutant

    path = write_mutant(COUNTING, tmp_path)
    rc = main(["--lang", "en", "explore", str(path), "--only", PID, "--bounds",
               "loadouts=dice", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    dice = len(bounded_worlds(1, ("dice",)))
    assert rc == 1 and doc["rulebook"]["worlds_more_plays"] == dice + 3  # every world: two plays per window
    main(["--lang", "ru", "explore", str(path), "--only", PID, "--bounds", "loadouts=dice"])
    out = " ".join(capsys.readouterr().out.split())
    assert f"из них с большим числом розыгрышей в окне (условие plays_at_least): plays=2 — {dice + 3}" in out
    assert "searched with" not in out and "кубик в них" not in out
    path3 = tmp_path / "three.yaml"
    path3.write_text(path.read_text("utf-8").replace("not plays_at_least(2)", "not plays_at_least(3)"), "utf-8")
    main(["--lang", "en", "explore", str(path3), "--only", PID, "--bounds", "loadouts=dice"])
    out = " ".join(capsys.readouterr().out.split())
    assert (f"of them searched with more plays per window (the guard plays_at_least): plays=2 — {dice}, "
            f"plays=3 — 3 (their die showing only 1–2)") in out


def test_a_guard_in_any_window_is_played_with_two_plays_everywhere(tmp_path, bundled):
    """A draft that goes from the calculation step straight to completion after two plays in the
    calculation window: every world of such a draft is searched with two plays per window, so the
    fault is found (with one, the edge was never taken: X2 said so, and the properties held)."""
    import yaml

    from ruleproof.generators.mutants import bundled_data

    d = bundled_data()
    d["steps"]["calculation"]["next"].insert(0, {"to": "completion", "when": "plays_at_least(2)", "cites": ["512.6.3"]})
    draft = load_rulebook_text(yaml.safe_dump(d, allow_unicode=True, sort_keys=False), "calc-two.yaml")
    worlds = bounded_worlds(1, ("calculation",), draft)
    assert worlds and {w.plays for w in worlds} == {2} and two_plays_worlds(draft) != []
    assert "P512.6.1-steps-happen" in explore(draft, worlds, Bounds(), only=frozenset({"P512.6.1-steps-happen"})).violations
    assert {w.plays for w in bounded_worlds(1, ("calculation",), bundled)} == {0}


def test_a_draft_that_reads_three_plays_gets_three_per_window(bundled):
    """A draft that leaves out the calculation step after three plays in the dice-modifier window: its
    worlds are searched with three plays per window, and the fault is found."""
    import yaml

    from ruleproof.generators.mutants import bundled_data

    d = bundled_data()
    d["steps"]["dice"]["next"].insert(0, {"to": "completion", "when": "plays_at_least(3)", "cites": ["512.6.2"]})
    draft = load_rulebook_text(yaml.safe_dump(d, allow_unicode=True, sort_keys=False), "three-plays.yaml")
    worlds = two_plays_worlds(draft)
    assert {w.plays for w in worlds} == {3}
    assert "P512.6.1-steps-happen" in explore(draft, worlds, Bounds(), only=frozenset({"P512.6.1-steps-happen"})).violations
    assert not explore(bundled, worlds, Bounds(), only=frozenset({"P512.6.1-steps-happen"})).violations


def _reroll_guard(n: int):
    """The public mutant with the dice-modifier window skipped after ``n`` plays in the reroll window."""
    text = mutant_yaml(COUNTING)
    assert "not plays_at_least(2)" in text
    return load_rulebook_text(text.replace("not plays_at_least(2)", f"not plays_at_least({n})"), f"rerolls-{n}.yaml")


@pytest.mark.parametrize("n", [3, pytest.param(4, marks=pytest.mark.slow)])
def test_n_rerolls_in_one_window_are_played_by_explore_and_hypothesis(bundled, n):
    """A draft that turns on three or four rerolls: the worlds hold that many rerolls and dice modifiers
    (searched on the die's first two faces), and both interpreter engines find the fault — before, the
    worlds held two rerolls and both said «holds»."""
    from ruleproof.generators.run import hypothesis_pass

    draft = _reroll_guard(n)
    worlds = two_plays_worlds(draft)
    assert {w.plays for w in worlds} == {n} and {w.faces for w in worlds} == {2}
    src, tgt = worlds[0].state.cards[:2]
    assert sum(f.kind == "reroll" for c in (src, tgt) for f in c.features) == n
    assert sum(f.kind == "dice_modifier" for c in (src, tgt) for f in c.features) == n
    assert Bounds().die_values(draft, worlds[0]) == (1, 2) and len(Bounds().die_values(draft)) == 6
    assert PID in explore(draft, worlds, Bounds(), only=frozenset({PID})).violations
    good = explore(bundled, worlds, Bounds(), only=frozenset({PID}))
    assert not good.violations and good.exercised[PID] > 0
    [bad] = hypothesis_pass(draft, examples=200, cache_dir=None, shrinks=5, only=frozenset({PID})).results
    assert bad.findings and bad.findings[0].verdict == "violated"


def test_z3_says_not_exercised_where_its_worlds_cannot_play_the_guard():
    """The Z3 worlds hold two rerolls: a guard that reads three plays after the reroll window is never
    true there, so nothing Z3 would prove on that draft is called proved — not exercised, with the reason
    (two plays it can: the public mutant's verdicts stand)."""
    from ruleproof.model.menu import beyond_menu
    from ruleproof.properties.prove import prove

    counting = load_mutant(COUNTING)
    assert beyond_menu(counting) is None
    draft = _reroll_guard(3)
    why = beyond_menu(draft)
    assert why is not None and "plays_at_least(3)" in why["en"] and "at most 2" in why["en"]
    assert "не больше 2" in why["ru"]
    out = prove(draft, only=["P540.2-reserved"], agree=False)
    [v] = out.verdicts
    assert v.verdict == "unknown" and "not exercised in the Z3 worlds" in v.reason
    assert "не проверено в мирах Z3" in out.results[0].findings[0].message["ru"]
    assert prove(counting, only=["P540.2-reserved"], agree=False).verdicts[0].verdict == "proved"


def test_explore_says_bounded_below_a_guard_above_its_plays(bundled):
    """plays_at_least(7): no world is searched with seven plays per window (at most four), so a property
    that holds in the search is inconclusive there, with the reason, in both languages."""
    from ruleproof.generators.bounded import PLAYS_CAP
    from ruleproof.model.explore import explore_results

    draft = _reroll_guard(PLAYS_CAP + 3)
    assert {w.plays for w in two_plays_worlds(draft)} == {PLAYS_CAP}
    worlds = bounded_worlds(0, ("none",))[:2]
    for rb, verdict in ((draft, "unknown"), (bundled, None)):
        out = explore(rb, worlds, Bounds(x_max=0), only=frozenset({"P512.6.3-legality-once"}))
        [res] = [r for r in explore_results(out, rb, "replay", only=frozenset({"P512.6.3-legality-once"}))
                 if r.check == "P512.6.3-legality-once"]
        if verdict is None:
            assert res.holds and not res.findings
        else:
            [f] = res.findings
            assert f.verdict == "unknown" and "bounded below the guard: plays_at_least(7)" in f.message["en"]
            assert "перебор ограничен ниже условия" in f.message["ru"]
