"""The shipped rulings: each passes on the bundled rulebook and fails on a rulebook edit that
changes the behaviour it covers; together they cover every clause of 540 and 542 and every step of
512.6–512.7."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from ruleproof.generators.mutants import MUTANTS, write_mutant
from ruleproof.model.clauses import default_index
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.scenario import load_rulings, run_scenario

RULINGS = sorted(Path(str(resources.files("ruleproof.rulings"))).glob("*.yaml"))

#: ruling id → the faulty drafts (generators.mutants) on which it must fail
KILLS: dict[str, list[str]] = {
    "kele-attacker": ["M4", "M5", "conditions-at-payment"],
    "kele-defender": ["return-strike-not-a-strike", "M5"],
    "closes-after-assault-defender": ["assault-closes-on-return-strike"],
    "kele-assault-variant": ["assault-fires-on-return-strike"],
    "modification-on-return-strike": ["return-strike-not-a-strike", "assault-fires-on-return-strike"],
    "payment-per-resource": ["no-payment-triggers", "no-payment"],
    "stays-open-printed": ["M4", "M5", "M6"],
    "needs-resource": ["no-resource-check", "short-declaration-goes-on"],
    "modified-still-blocked": ["modified-skips-blocking", "blocked-goes-on"],
    "no-fight-no-return": ["table-for-every-attack"],
    "closes-after-assault": ["no-payment", "assault-closes-on-nothing"],
    "closes-after-assault-other": ["M5"],
    "die-value/six-stays": ["raw-die-before-reroll", "dice-always-skipped"],
    "die-value/six-rerolled": ["raw-die-before-reroll"],
    "die-value/rerolled-into-six": ["raw-die-before-reroll", "dice-always-skipped"],
    "after-miss/miss": ["miss-skips-effect", "after-window-before-effect"],
    "after-miss/hit": ["no-effect", "after-window-before-effect"],
    "after-miss/modified-into-miss": ["no-dice-modifiers", "miss-skips-effect"],
    "after-by-status/blocked": ["blocked-goes-on", "after-window-before-effect"],
    "after-by-status/not-blocked": ["no-effect", "after-window-before-effect"],
    "per-turn-first": ["marker-before-payment", "M5"],
    "per-turn-second": ["no-payment"],
    "per-turn-lost-marker/marker-lost": ["marker-before-payment", "M5", "M6"],
    "per-turn-lost-marker/marker-kept": ["marker-before-payment", "no-payment"],
    "per-turn-marker-lost-own-action/marker-lost": ["markers-at-declaration"],
    "per-turn-marker-lost-own-action/marker-kept": ["no-payment"],
    "per-turn-one-turn": ["marker-before-payment", "no-payment"],
    "per-turn-times": ["per-turn-uncounted", "no-payment"],
    "per-turn-two-features": ["per-turn-per-feature", "per-turn-uncounted"],
    "per-turn-refused": ["refused-use-counted", "short-declaration-goes-on"],
    "closed-card-cannot-close-again": ["closed-keeps-close", "no-payment"],
    "final-die-within-faces/six-plus-one": ["die-unclamped"],
    "final-die-within-faces/one-minus-one": ["die-unclamped"],
    "miss-then-blocked/both-statuses": ["block-replaces-miss"],
    "miss-then-blocked/blocked-hit": ["after-never-offered"],
    "target-left": ["targets-rechecked", "no-effect"],
    "modified-during-execution": ["no-modification-during-execution", "M5"],
    "text-waives-marker": ["marker-despite-text", "M5"],
    "modification-waives-marker": ["marker-despite-text", "no-modification-during-execution"],
    "cost-x": ["M1", "big-x-refused"],
    "cost-x-all-in": ["big-x-refused", "no-payment"],
    "bare-x/one": ["M1", "no-effect"],
    "bare-x/three-and-a-theft": ["M1", "no-effect"],
    "bare-x/two-and-a-modifier": ["M1", "no-effect"],
    "cost-x-too-high": ["no-resource-check", "M1", "short-declaration-goes-on"],
    "targets-x": ["M2", "no-declaration-fix-targets"],
    "targets-x-computed": ["M2", "no-declaration-fix-targets"],
    "chosen-magnitude": ["chosen-magnitude-at-calculation"],
    "computed-magnitude": ["M3", "computed-x-at-declaration"],
    "x-counts-cards/three-open": ["computed-x-at-declaration", "no-effect"],
    "x-counts-cards/one-closed-before-counting": ["computed-x-at-declaration", "no-effect"],
    "dice-modifier-x": ["dice-x-reads-current", "no-dice-modifiers"],
    "magnitude-modifier-x": ["magnitude-modifier-x-before-window"],
    "magnitude-modifier-x-printed": ["magnitude-modifier-x-reads-current"],
    "serk-modified-movement": ["modifiers-read-current"],
    "serk-printed-two": ["modifiers-read-current"],
    "guard-at-most/printed-one-hastened": ["modifiers-read-current"],
    "guard-at-most/printed-two-slowed": ["modifiers-read-current"],
    "return-strike-roles/attacker-guard": ["return-roles-kept", "return-unmodified"],
    "return-strike-roles/printed-one-raised": ["modifiers-read-current"],
    "return-strike-roles/defender-own-guard": ["return-roles-kept"],
    "named-value-x": ["magnitude-modifier-x-before-window"],
    "leshy-heals-fully": ["implicit-x-at-declaration", "dice-always-skipped"],
    "reroll-last-value": ["raw-die-before-reroll"],
    "two-rerolls": ["two-rerolls-no-dice-modifiers", "raw-die-before-reroll"],
    "dice-modifier-window": ["M8"],
    "spell-skips-dice": ["dice-never-skipped"],
    "attack-always-rolls": ["dice-always-skipped"],
    "illegal-source": ["illegal-goes-on"],
    "legality-checked-once": ["M7"],
    "block-carries-effect": ["M7", "blocked-goes-on"],
    "reduce-to-strength": ["no-reduce-to-strength"],
    "miss-not-reduced": ["no-reduce-to-strength", "miss-skips-effect"],
    "prevention-at-calculation": ["no-prevention"],
    "block-goes-to-completion": ["blocked-goes-on", "after-window-before-effect"],
    "effect-applied": ["no-effect"],
    "completion-after-ability": ["no-role-release", "after-window-before-effect"],
    "compound-returns-to-claim": ["no-compound-loop"],
    # the second part not possible: payment still follows (512.6.6/b4, 512.7); possible: it is declared
    "compound-next-part-not-possible/crystal-lost": ["no-payment", "no-effect", "pays-beyond-available"],
    "compound-next-part-not-possible/crystal-kept": ["no-compound-loop"],
    "payment-stage": ["no-payment-triggers", "stays-on-stack"],
    "assault-own-strike": ["assault-fires-on-nothing", "M5"],
    "computed-x-printed": ["computed-x-reads-current", "computed-x-at-declaration"],
    "implicit-x-printed": ["implicit-x-reads-current", "implicit-x-at-declaration"],
}


@pytest.fixture(scope="module")
def mutant_books(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mutants")
    cache = {}

    def get(mid):
        if mid not in cache:
            cache[mid] = load_rulebook(write_mutant(mid, folder))
        return cache[mid]

    return get


@pytest.fixture(scope="module")
def scenarios():
    return {sc.spec.id: sc for p in RULINGS for sc in load_rulings(p)}


def test_rulings_are_shipped():
    assert len(RULINGS) >= 10


@pytest.mark.parametrize("path", RULINGS, ids=lambda p: p.stem)
def test_ruling_passes_on_the_bundled_rulebook(path, bundled):
    for sc in load_rulings(path):
        res = run_scenario(sc, bundled)
        assert res.passed, (sc.spec.id, [f.text() for f in res.failures])
        assert res.trace.outcome == res.scenario.spec.expect.outcome


@pytest.mark.parametrize("sid,mutant", [(s, m) for s, ms in KILLS.items() for m in ms])
def test_ruling_fails_on_a_rulebook_that_changes_its_behaviour(sid, mutant, scenarios, mutant_books):
    res = run_scenario(scenarios[sid], mutant_books(mutant))
    assert not res.passed, f"{sid} did not notice mutant {mutant}: {MUTANTS[mutant].en}"


def test_every_ruling_is_shown_to_bite(scenarios):
    assert set(scenarios) == set(KILLS), "add each new ruling to KILLS with a mutant it catches"
    for mids in KILLS.values():
        assert mids and all(m in MUTANTS for m in mids)


def test_rulings_cover_every_clause_of_540_and_542(scenarios):
    index = default_index()
    cited = {c for sc in scenarios.values() for c in sc.spec.clauses}
    clauses = [e.id for e in index if e.status == "available" and "/" not in e.id
               and (e.id.startswith("540.") or e.id.startswith("542."))]
    missing = [c for c in clauses if not any(index.covers(c, u) or index.covers(u, c) for u in cited)]
    assert not missing, f"no ruling for {missing}"


def test_rulings_cover_every_step_of_512_6_to_512_7(scenarios):
    index = default_index()
    cited = {c for sc in scenarios.values() for c in sc.spec.clauses}
    steps = ["512.6.2", "512.6.3", "512.6.4", "512.6.5", "512.6.6", "512.7"]
    missing = [c for c in steps if not any(index.covers(c, u) for u in cited)]
    assert not missing, f"no ruling for {missing}"


def test_the_worked_examples_are_rulings(scenarios):
    cited = {c for sc in scenarios.values() for c in sc.spec.clauses}
    assert {"540.4.1/ex1", "542.6/ex1", "542.8/ex1"} <= cited
