"""The exhaustive pass's worlds follow the rulebook: every kind its windows admit is held in every role
(the fixed loadouts, and a computed ``roles-<window>`` loadout for what they leave out), and a window
or a trigger row that a draft widens gets a loadout in which the attacker's side, the opponent, a
defender and the bystanders each hold the widened kind, so the widening is played in every role; the
bundled rulebook widens nothing."""

from __future__ import annotations

from pathlib import Path

from ruleproof.generators.bounded import (LOADOUTS, ROLE_CARDS, TRIGGERED, bounded_worlds, role_loadouts,
                                          widened_loadouts, widenings)
from ruleproof.generators.uses import uses
from ruleproof.model.explore import Bounds, explore
from ruleproof.model.rulebook import load_rulebook

ROOT = Path(__file__).resolve().parents[2]
ASSAULT = ROOT / "rulebooks" / "drafts" / "assault-on-return-strike.yaml"


def test_the_bundled_rulebook_widens_nothing():
    rb = load_rulebook()
    assert widenings(rb) == () and widened_loadouts(rb) == {}
    assert [w.name for w in bounded_worlds(1, None, rb)] == [w.name for w in bounded_worlds(1)]


def _admitted(rb) -> set[tuple[str, str]]:
    """(feature kind, trigger word) for each kind a window of ``rb`` admits, a triggered kind per word."""
    words = tuple(rb.table("trigger_words"))
    return {(k, w) for _, allows in uses(rb).windows for k in allows for w in (words if k in TRIGGERED else ("",))}


def test_every_admitted_kind_is_held_in_every_role():
    """Every kind the bundled rulebook's windows admit (a triggered kind with each trigger word) is held
    by the source, the target, a defender and a bystander of each side in some bounded world.  Without
    the role loadouts 52 (role, kind, word) triples were missing: a defender held only its triggers (12
    missing), the target no reroll or magnitude modifier (8), the source no block or sudden action (7),
    the bystanders 12 and 13."""
    rb = load_rulebook()
    held: dict[str, set] = {role: set() for role in ROLE_CARDS}
    for w in bounded_worlds(1, None, rb):
        for c in w.state.cards:
            held[c.id] |= {(f.kind, f.trigger) for f in c.features}
    assert len(_admitted(rb)) == 16
    for role in ROLE_CARDS:
        assert _admitted(rb) <= held[role], (role, sorted(_admitted(rb) - held[role]))


def test_the_role_loadouts_are_played_in_every_role():
    """The role loadouts' worlds (few: a strike and an attack with a defender, a spell, an effect) play
    what they hand out: the source and a defender play every kind they hold there; the target and the
    bystanders every kind outside the trigger windows (a «при ударе»/«при нападении»/«при оплате» of a
    card that neither strikes nor pays is not offered to it — the rules, not the worlds)."""
    rb = load_rulebook()
    loadouts = role_loadouts()
    out = explore(rb, bounded_worlds(0, tuple(loadouts), rb), Bounds(x_max=0))
    assert out.complete and not out.violations and out.traces > 0
    played: dict[str, set] = {role: set() for role in ROLE_CARDS}
    for (_, kind, card) in out.roles:
        played[card].add(kind)
    triggered = {k for w, allows in uses(rb).windows for k in allows if w in ("effect_triggers", "payment_triggers")}
    for i, role in enumerate(ROLE_CARDS):
        held = {f.kind for sides in loadouts.values() for f in sides[i]}
        expected = held if role in ("src", "def") else held - triggered
        assert expected and expected <= played[role], (role, sorted(expected - played[role]))


def test_a_changed_trigger_row_gives_every_role_the_word():
    rb = load_rulebook(ASSAULT)  # trigger_words.assault: [attack, return_strike]
    assert widenings(rb) == (("effect_triggers", "effect_trigger", "assault"),
                             ("effect_triggers", "resource_modification", "assault"))
    (name, (a, b, d, xa, xb)), = widened_loadouts(rb).items()
    assert name == "widened-effect_triggers" and name not in LOADOUTS
    for side in (a, b, d, xa, xb):  # the attacker's side, the opponent, a defender, a bystander of each side
        assert sorted((f.kind, f.trigger) for f in side) == [("effect_trigger", "assault"),
                                                              ("resource_modification", "assault")]
    worlds = [w for w in bounded_worlds(1, None, rb) if w.name.endswith(name)]
    assert any(w.state.action.defender for w in worlds)
    assert {f.id for w in worlds for c in w.state.cards if c.id == "def" for f in c.features} == {f.id for f in d}
    assert all({f.id for c in w.state.cards if c.id == "allyB" for f in c.features} == {f.id for f in xb}
               for w in worlds)


def test_a_widened_window_is_played_by_each_side(edited_copy):
    """A draft whose blocking window also admits a sudden action: the fixed loadouts hold sudden
    actions only on the opponent's side; the widened loadout has the attacker's side play one there."""
    def widen(data):
        for op in data["steps"]["blocking"]["operations"]:
            if op.get("op") == "window":
                op["allows"] = [*op["allows"], "sudden_action"]

    rb = load_rulebook(edited_copy(ROOT / "rulebooks" / "berserk-rp-4.1-2.yaml", widen))
    assert widenings(rb) == (("blocking", "sudden_action", ""),)
    assert not any(f.kind == "sudden_action" for a, _ in LOADOUTS.values() for f in a)
    worlds = [w for w in bounded_worlds(0, None, rb) if w.name.endswith("widened-blocking")]
    src = {f.id: f.kind for w in worlds for c in w.state.cards if c.id == "src" for f in c.features}
    assert src == {"wa_sudden_action": "sudden_action"}
    out = explore(rb, worlds, Bounds(x_max=0))
    assert out.complete and out.responses[("blocking", "sudden_action")] > 0


def test_the_family_plays_where_a_condition_is_read(tmp_path):
    """A draft whose magnitude modifiers read the current value (mutant modifiers-read-current): the
    family's guards compare both ways, so the exhaustive pass finds it (before, the family's source
    met Серк's «2 или больше» on its printed and current value alike, and the pass said «holds»)."""
    from ruleproof.generators.mutants import write_mutant

    worlds = bounded_worlds(0, ("printed",))
    only = frozenset({"P542.6-printed"})
    assert not explore(load_rulebook(), worlds, Bounds(x_max=0), only).violations
    bad = explore(load_rulebook(write_mutant("modifiers-read-current", tmp_path)), worlds, Bounds(x_max=0), only)
    assert set(bad.violations) == {"P542.6-printed"}


def test_the_family_holds_the_new_x_words():
    """A spell's computed X counts cards; an effect's cost-X is its magnitude (542.2's bare X)."""
    ws = {w.name: w.state.action for w in bounded_worlds(1)}
    assert ws["spell/computed"].xs[0].compute == ("count", "source", "open")
    assert ws["effect/cost=1"].magnitude_x == ws["effect/cost=1"].xs[0].name
    assert ws["spell/cost=1"].magnitude_x is None


def test_a_bystander_of_each_side_holds_features():
    """Issue 22's roles: besides the attacker's side, the opponent and a defender, an ally of each side
    (a card that takes no part in the action) holds the kinds whose offer turns on who holds them; the
    pass plays those its windows offer a bystander (a block, «после …», an accompanying die feature) and
    never the ones that need a part in the action («при ударе», a modification of its own resources,
    «при оплате»)."""
    from ruleproof.generators.bounded import ALLIES

    worlds = bounded_worlds(1, ("allies",))
    assert worlds and all({c.id for c in w.state.cards} >= {"allyA", "allyB"} for w in worlds)
    held = {f.kind for fs in ALLIES["allies"] for f in fs}
    out = explore(load_rulebook(), worlds, Bounds())
    played = {kind for (_, kind) in out.responses}
    assert played == {"block", "after_ability", "die_trigger"} and played < held
    assert not out.violations


def test_a_target_count_x_has_as_many_targets():
    """542.3: the player chooses exactly X targets — the family's X = 2 worlds name two (the target and its
    ally), the Hypothesis worlds too."""
    from hypothesis import given, settings

    from ruleproof.generators.strategies import worlds

    def count(state):
        return next((x.chosen for x in state.action.xs if x.kind == "targets"), None)

    family = [w.state for w in bounded_worlds(2, None)]
    assert {len(s.action.targets) for s in family if count(s) == 2} == {2}
    assert all(len(s.action.targets) == count(s) for s in family if count(s) is not None)

    @settings(max_examples=150, database=None, derandomize=True)
    @given(worlds())
    def drawn(state):
        assert count(state) is None or len(state.action.targets) == count(state)

    drawn()
