"""The meanings of model/semantics.py evaluated both ways: the concrete test and the Z3 term agree on
the abstraction of the same state, word by word; an abstraction that would be unsound is refused."""

from __future__ import annotations

import random

import pytest

from ruleproof.model import semantics
from ruleproof.model.abstraction import abstract
from ruleproof.model.algebra import Concrete
from ruleproof.model.derive import symbolic_operation
from ruleproof.model.conformance import sample_play
from ruleproof.model.menu import OPTIONS
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.symbolic import compile_rulebook
from ruleproof.model.z3eval import compile_terms

RB = load_rulebook()
SY = compile_rulebook(RB)


def _states(n=40, seed=5):  # 40 plays: with 25, no sampled state had an illegal action
    rng = random.Random(seed)
    for _ in range(n):
        world, events, _ = sample_play(RB, rng)
        for e in events[::7]:
            yield world, e.state


@pytest.mark.parametrize("text", ["always", "dice_step_skippable", "is_attack", "action_illegal", "action_blocked",
                                  "compound_has_next", "resource_modified", "visited(blocking)",
                                  "not visited(dice)"])
def test_every_guard_means_the_same_to_both_evaluators(text):
    concrete = semantics.guard_text(Concrete(), text)
    term = compile_terms([SY.guard(text, SY.pre)])
    seen = set()
    for world, state in _states():
        want = concrete(state, None)
        got = term(abstract(SY, state, world, SY.start_pc))[0]
        assert got == want, (text, state.step)
        seen.add(want)
    assert seen == {True, False} or text == "always"


def test_every_offer_means_the_same_to_both_evaluators():
    checked = 0
    for world, state in _states():
        vec = abstract(SY, state, world, SY.start_pc)
        for oi, o in enumerate(OPTIONS):
            if o.card not in {c.id for c in state.cards}:
                continue
            want = semantics.offer(Concrete(), o.feature, RB.table("trigger_words"))(state, state.card(o.card))
            assert compile_terms([SY.playable(SY.pre, oi)])(vec)[0] == want, o.feature.id
            checked += 1
    assert checked > 500


def test_an_operation_that_would_read_an_abstracted_field_into_the_model_is_refused(monkeypatch):
    bogus = semantics.Operation(lambda E, p: {"on_stack": E.is_none(E.get("magnitude_final"))})
    monkeypatch.setitem(semantics.OPERATIONS, "remove_from_stack", bogus)
    with pytest.raises(ValueError, match="abstracts away"):
        symbolic_operation("remove_from_stack")(SY, SY.pre, SY.die, {}, "payment")


def test_a_concrete_only_field_is_left_out_of_the_model():
    _, ups = symbolic_operation("finalize_magnitude")(SY, SY.pre, SY.die, {}, "calculation")
    assert set(ups) == {"magnitude_known"}
