"""One universe of games (model/universe.py): one body per feature id, the combinations a rulebook admits,
what each family covers — and the marker lost during the card's own action (540.3.1, 510.4), which no
engine played before and which the payment property read the other way."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import HealthCheck, find, settings

from ruleproof.generators.bounded import ALLIES, DEFENDERS, LOADOUTS, bounded_worlds, worlds_scope
from ruleproof.generators.mutants import mutant_yaml
from ruleproof.generators.run import hypothesis_pass
from ruleproof.generators.strategies import worlds
from ruleproof.generators.uses import uses
from ruleproof.model.explore import Bounds, explore
from ruleproof.model.menu import OPTIONS, menu_scope
from ruleproof.model.rulebook import load_rulebook, load_rulebook_text
from ruleproof.model.scenario import load_scenario, run_scenario
from ruleproof.model.universe import FEATURES, Combo, admitted, aimed_feature, covered, scope
from ruleproof.properties.catalogue import check_all
from ruleproof.properties.prove import prove_one

ROOT = Path(__file__).resolve().parents[2]
RULING = ROOT / "rulings" / "540-per-turn-marker-lost-own-action.yaml"
MARKER_GAME = Combo("calculation", "sudden_action", "lose_markers", "src")


def _literal_feature_ids() -> dict[str, list[str]]:
    """id -> the places (file:line) that build a feature with that literal id (``Feature("id", …)``,
    ``_f("id", …)``) in the package's code."""
    found: dict[str, list[str]] = {}
    for folder in ("model", "generators", "properties", "ruleproof", "reports"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("Feature", "_f")
                        and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                    found.setdefault(node.args[0].value, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_no_feature_id_is_defined_in_two_places():
    twice = {fid: where for fid, where in _literal_feature_ids().items() if len(where) > 1}
    assert not twice, f"one body per feature id (model/universe.py FEATURES): {twice}"


def test_the_families_hold_the_universes_bodies():
    fixed = [f for a, b in LOADOUTS.values() for f in (*a, *b)] + [f for fs in DEFENDERS.values() for f in fs]
    fixed += [f for a, b in ALLIES.values() for f in (*a, *b)] + [o.feature for o in OPTIONS]
    assert fixed and all(FEATURES[f.id] is f for f in fixed)


def test_the_bundled_rulebook_admits_every_effect_on_every_role_in_each_window_of_a_kind_with_effects():
    rb = load_rulebook()
    every = admitted(rb)
    assert MARKER_GAME in every
    calc = {c for c in every if c.window == "calculation" and c.kind == "sudden_action"}
    assert len(calc) == 7 * 5  # features.EFFECTS × the five roles
    # a block feature may carry effects (512.6.4/b2 «вида "блокировать …"»: its text may say more), or none
    assert Combo("blocking", "block", "-", "tgt") in every and Combo("blocking", "block", "leave_zone", "src") in every
    assert len({c for c in every if c.window == "blocking"}) == (7 + 1) * 5 and len(every) == 345


def test_covered_and_scope_name_what_is_left_out():
    rb = load_rulebook()
    got = covered(rb, [("allyA", FEATURES["xa_unmark"]), ("tgt", FEATURES["b_block"])])
    assert got == {MARKER_GAME, Combo("blocking", "block", "-", "tgt")}
    s = scope(rb, [("allyA", FEATURES["xa_unmark"])])
    assert s.covered == 1 and s.admitted == len(admitted(rb)) and MARKER_GAME not in s.missing
    assert "1 of" in s.text("en") and "1 из" in s.text("ru")


def test_the_z3_menu_and_the_explorer_play_the_marker_game_and_say_what_they_leave_out():
    rb = load_rulebook()
    z3, ex = menu_scope(rb), worlds_scope(rb, bounded_worlds(1, None, rb))
    for s in (z3, ex):
        assert MARKER_GAME not in s.missing and 0 < s.covered < s.admitted and len(s.missing) == s.admitted - s.covered


def test_an_aimed_feature_plays_its_combination():
    rb = load_rulebook()
    for combo in sorted(admitted(rb)):
        # a kind without effects plays its combination in the holder's role; one with effects from any card
        holder = combo.role if combo.effect == "-" else ("allyB" if combo.role != "allyB" else "tgt")
        assert combo in covered(rb, [(holder, aimed_feature(combo, holder, "x"))]), combo


def test_hypothesis_draws_the_marker_game():
    """The strategies, aimed at the marker game's combination (as the pass's aimed round aims at those not
    yet played), reach the game where a source under 540.3.1's limit, with a marker, faces a feature that
    takes its marker away."""
    used = uses(load_rulebook())

    def marker_game(s):
        src = s.card("src")
        limit = any(f.limit for f in src.features)
        takes = any(e.do == "lose_markers" and e.card in ("source", "src")
                    for c in s.cards if c.id != "src" for f in c.features for e in f.effects)
        return limit and src.action_markers >= 1 and takes

    w = find(worlds(used, (MARKER_GAME,)), marker_game, settings=settings(max_examples=500, database=None,
                                                                         suppress_health_check=list(HealthCheck)))
    assert marker_game(w)


# --- 540.3.1: the marker lost during the card's own action -----------------------------------------------------

def test_the_ruling_holds_and_breaks_no_property_on_the_bundled_rulebook():
    rb = load_rulebook()
    for sc in load_scenario(RULING).cases():
        res = run_scenario(sc, rb)
        assert res.passed, [f.text("en") for f in res.failures]
        assert not check_all(res.trace.events), sc.spec_case.id


@pytest.fixture(scope="module")
def declared_draft():
    return load_rulebook_text(mutant_yaml("markers-at-declaration"), "markers-at-declaration.yaml")


def test_the_ruling_refutes_a_draft_that_counts_the_markers_at_declaration(declared_draft):
    lost = next(sc for sc in load_scenario(RULING).cases() if sc.spec_case.id == "marker-lost")
    assert not run_scenario(lost, declared_draft).passed


def test_z3_refutes_the_draft_with_a_counterexample_the_interpreter_confirms(declared_draft):
    v = prove_one(declared_draft, "P512.7-payment")
    assert v.verdict == "violated" and v.counterexample is not None


def test_the_exhaustive_pass_refutes_the_draft(declared_draft):
    out = explore(declared_draft, [w for w in bounded_worlds(1, ("printed",), declared_draft)
                                   if "marker-lost" in w.name], Bounds(x_max=1, loadouts=("printed",)))
    assert "P512.7-payment" in out.violations
    base = load_rulebook()
    clean = explore(base, [w for w in bounded_worlds(1, ("printed",), base) if "marker-lost" in w.name],
                    Bounds(x_max=1, loadouts=("printed",)))
    assert "P512.7-payment" not in clean.violations


def test_hypothesis_aimed_at_the_combination_refutes_the_draft(declared_draft):
    """The aimed round of the Hypothesis pass, aimed at the combinations that take the source's markers
    (an ally's sudden action, a trigger, an «after …» feature …): P512.7-payment falls on the draft — as in
    the exhaustive pass and Z3 — and holds on the bundled rules."""
    from hypothesis import Phase, seed

    from ruleproof.generators.machine import PropertyViolated, games_test

    def run(rb):
        aims = tuple(c for c in sorted(admitted(rb)) if c.effect == "lose_markers" and c.role == "src")
        test = games_test(rb, only=frozenset({"P512.7-payment"}), eager=True, aims=aims)
        test = settings(max_examples=100, deadline=None, database=None, derandomize=False, phases=[Phase.generate],
                        suppress_health_check=list(HealthCheck))(test)
        seed(0)(test)()

    with pytest.raises(PropertyViolated) as found:
        run(declared_draft)
    assert found.value.prop.id == "P512.7-payment"
    run(load_rulebook())  # no violation on the bundled rules


def test_the_whole_pass_refutes_the_draft_at_its_default_examples(declared_draft):
    """The Hypothesis pass as ``check`` runs it (200 examples, the default seed, every property): the
    aimed round meets a game in which the source loses its marker, and P512.7-payment falls."""
    out = hypothesis_pass(declared_draft, examples=200, cache_dir=None, shrinks=0)
    assert sorted(out.violations) == ["P512.7-payment"]


def test_the_world_rules_are_stated_once_for_both_engines():
    """menu_world mends a drawn valuation by WORLD_RULES and the Z3 system's init states the same rules:
    every drawn world is an initial state, and a world against a rule (a defender without an attack) is not."""
    import random

    import z3

    from ruleproof.model.menu import menu_world
    from ruleproof.model.symbolic import compile_rulebook

    sy = compile_rulebook(load_rulebook())
    s = z3.Solver(ctx=sy.ctx)
    s.add(sy.init())

    def world_is(w):
        return [(sy.has(sy.pre, int(k[7:])) if v else z3.Not(sy.has(sy.pre, int(k[7:])))) if k.startswith("w_holds")
                else sy.pre[k] == sy.val(v, k) for k, v in w.items()]

    rng = random.Random(7)
    for _ in range(40):
        w = menu_world(rng.choice, lambda: rng.random() < 0.5)
        s.push()
        s.add(world_is(w))
        assert s.check() == z3.sat, w
        s.pop()
    w = {**menu_world(rng.choice, lambda: rng.random() < 0.5), "w_kind": 2, "w_has_defender": 1}
    s.add(world_is(w))
    assert s.check() == z3.unsat


def test_z3_worlds_hold_a_closed_source_and_refute_a_draft_where_it_keeps_its_closing():
    """540.2: a closed card no longer has its closing.  The menu's worlds hold a source that is closed
    already (``w_src_closed``), so Z3 refutes the draft that lets such a card declare an action costing
    its closing — which the exhaustive pass and Hypothesis refuted while Z3 said «proved within the menu»."""
    from ruleproof.model.menu import menu_world, world_of, world_state

    v = {**menu_world(lambda d: d[0], lambda: False), "w_src_closed": 1}
    assert world_state(v).card("src").closed and world_of(world_state(v))["w_src_closed"] == 1
    draft = load_rulebook_text(mutant_yaml("closed-keeps-close"), "closed-keeps-close.yaml")
    got = prove_one(draft, "P540.2-refused", timeout_ms=60_000, vacuity=False)
    assert got.verdict == "violated" and got.counterexample.reproduced
    assert got.counterexample.world.card("src").closed


def test_a_later_part_keeps_the_markers_its_action_began_with():
    """A compound feature's next part (512.6.6/b4) is the same action: the markers the cards had when it
    began (what a draft with ``markers_at_declaration`` compares 540.3.1's limit with) are kept — the
    interpreter dropped them and disagreed with Z3 on a defender's closing."""
    from ruleproof.model.state import Action

    a = Action(feature="act", kind="attack", source="src", start_markers=(("src", 1), ("def", 1)))
    assert a.next_part().start_markers == (("src", 1), ("def", 1))
