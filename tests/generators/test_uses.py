"""The worlds are drawn for the rulebook under test (issue 22): its windows, trigger words and guards."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from ruleproof.generators.strategies import TRIGGERS, worlds
from ruleproof.generators.uses import uses
from ruleproof.model.rulebook import load_rulebook, load_rulebook_text
from ruleproof.model.vocabulary import FEATURE_KINDS, GUARDS


def test_what_the_bundled_rulebook_uses():
    u = uses(load_rulebook())
    assert [w for w, _ in u.windows] == ["reroll", "dice_modifiers", "calculation", "blocking", "effect_triggers",
                                         "after_ability", "payment_triggers"]
    assert {k for _, allows in u.windows for k in allows} <= set(FEATURE_KINDS)
    assert u.triggers == TRIGGERS and set(u.guards) >= {"action_illegal", "action_blocked", "dice_step_skippable"}
    assert u.guarded_kinds == ("sudden_action", "block")
    assert not u.after_last  # every «после …» window reads every status that came about (A-status-kept)


def test_a_window_that_reads_the_last_status_is_seen():
    from ruleproof.generators.mutants import mutant_yaml
    from ruleproof.model.rulebook import load_rulebook_text

    assert uses(load_rulebook_text(mutant_yaml("block-replaces-miss"), "b.yaml")).after_last


def test_every_guard_names_real_feature_kinds():
    from ruleproof.generators.strategies import FEATURE_KINDS_ALL

    assert {k for g in GUARDS.values() for k in g.features} <= set(FEATURE_KINDS_ALL)


def _features(rb, n: int = 120) -> list:
    got = []

    @settings(max_examples=n, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(worlds(uses(rb)))
    def collect(s):
        got.extend(f for c in s.cards for f in c.features)

    collect()
    return got


def test_a_guard_a_draft_reads_favours_the_features_that_make_it_hold(bundled_data):
    """The blocking window skipped when resources are modified: resource modifiers come up more often."""
    import copy

    import yaml

    data = copy.deepcopy(bundled_data)
    window = next(o for o in data["steps"]["blocking"]["operations"] if o["op"] == "window")
    window["when"] = "not resource_modified"
    rb = load_rulebook_text(yaml.safe_dump(data, allow_unicode=True), "draft.yaml")
    assert "resource_modified" in uses(rb).guards

    def share(fs):
        return sum(f.kind in ("resource_modifier", "resource_modification") for f in fs) / max(len(fs), 1)

    assert share(_features(rb)) > share(_features(load_rulebook()))
