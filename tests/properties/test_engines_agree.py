"""A draft that guards a window, an operation or an edge with ``when:`` gets the same verdicts from Z3,
Hypothesis and the exhaustive pass (the Z3 encoding once ignored a window's guard and "proved" a
property the other engines refuted)."""

from __future__ import annotations

import pytest
import yaml

from ruleproof.generators.bounded import bounded_worlds
from ruleproof.generators.mutants import bundled_data
from ruleproof.generators.run import hypothesis_pass
from ruleproof.model.explore import Bounds, explore
from ruleproof.model.rulebook import load_rulebook_text
from ruleproof.properties.prove import prove


def _draft(edit) -> object:
    d = bundled_data()
    edit(d)
    return load_rulebook_text(yaml.safe_dump(d, allow_unicode=True, sort_keys=False), "draft.yaml")


def _window(d):
    next(o for o in d["steps"]["blocking"]["operations"] if o["op"] == "window")["when"] = "not is_attack"


def _operation(d):
    next(o for o in d["steps"]["payment"]["operations"] if o["op"] == "give_action_marker")["when"] = \
        "not resource_modified"


def _window_modified(d):
    """The issue's own draft: the blocking window skipped when resources were modified."""
    next(o for o in d["steps"]["blocking"]["operations"] if o["op"] == "window")["when"] = "not resource_modified"


def _edge(d):
    d["steps"]["claim_resolution"]["next"].insert(0, {"to": "calculation", "when": "is_attack", "cites": ["512.6.2"]})


@pytest.mark.parametrize("edit, broken", [
    (_window, {"P512.6-may-declare"}),
    # a block against a resource-modified action: the worlds drawn for a rulebook whose guard reads
    # ``resource_modified`` favour resource modifiers, and half the examples are the bounded worlds
    (_window_modified, {"P512.6-may-declare"}),
    (_operation, {"P540.3-action-marker"}),
    # an attack that leaves out the dice step: 512.6.2 says it always rolls, and no clause lets it
    # leave the step out (512.6.1); it reaches the calculation step with no strength found (512.6.2/b4)
    (_edge, {"P512.6.2-attacks-roll", "P512.6.1-steps-happen", "P512.6.2-fight"}),
], ids=["window", "window-resource-modified", "operation", "edge"])
@pytest.mark.slow
def test_three_engines_agree_on_a_guarded_draft(edit, broken):
    rb = _draft(edit)
    z3_out = prove(rb, jobs=2)
    assert all(v.verdict in ("proved", "violated") for v in z3_out.verdicts), \
        [(v.pid, v.verdict, v.reason) for v in z3_out.verdicts]
    z3_bad = {v.pid for v in z3_out.verdicts if v.verdict == "violated"}
    hyp = hypothesis_pass(rb, examples=200, seed=0, cache_dir=None)  # no example database: the same runs each time
    hyp_bad = {r.check for r in hyp.results if r.verdict == "violated"}
    exh = explore(rb, bounded_worlds(1), Bounds())
    assert exh.complete
    assert z3_bad == set(exh.violations) == broken
    assert hyp_bad == broken


def test_a_guarded_window_is_skipped_by_the_encoding_too():
    """The issue's draft: the blocking window skipped when resources were modified.  Z3 finds
    may-declare violated (it once said "proved"), with a counterexample the interpreter replays."""
    rb = _draft(lambda d: next(o for o in d["steps"]["blocking"]["operations"] if o["op"] == "window").update(
        when="not resource_modified"))
    out = prove(rb, only=["P512.6-may-declare", "P512.6.4-block"])
    verdicts = {v.pid: v for v in out.verdicts}
    assert verdicts["P512.6-may-declare"].verdict == "violated"
    assert verdicts["P512.6-may-declare"].counterexample.reproduced
    assert verdicts["P512.6.4-block"].verdict == "proved" and verdicts["P512.6.4-block"].witness.follows


def _loose_payment_trigger(real):
    """«при оплате кристаллов» offered to any card that paid anything (``resources`` ignored)."""
    return lambda E, f, words, window=None: E.paid_any() if f.on == "payment" else real(E, f, words, window)


@pytest.mark.parametrize("kind, planted, pid", [
    # 540.4.1 for resource modifications: «при нападении» offered on a return strike (``trigger`` dropped)
    ("resource_modification", lambda real: lambda E, f, words, window=None: E.true(), "P540.4.1-return-strike"),
    # 512.7/b2 per resource: «при оплате X» offered to a card that paid no X
    ("payment_trigger", _loose_payment_trigger, "P512.7-payment-triggers"),
])
def test_a_planted_fault_in_an_offer_is_caught_by_both_engines(monkeypatch, kind, planted, pid):
    """A fault planted in the one meaning of a feature kind's offer: the exhaustive pass and Z3 both
    report the property that speaks of it."""
    from ruleproof.model import semantics
    from ruleproof.model.rulebook import load_rulebook

    monkeypatch.setitem(semantics.OFFERS, kind, planted(semantics.OFFERS.get(kind)))
    rb = load_rulebook()
    only = frozenset({pid})
    b = Bounds()
    out = explore(rb, bounded_worlds(b.x_max, b.loadouts), b, only=only)
    assert list(out.violations) == [pid]
    assert [v.verdict for v in prove(rb, only=only).verdicts] == ["violated"]
