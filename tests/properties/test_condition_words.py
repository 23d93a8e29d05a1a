"""A condition word of a static modifier (``source_at_least``, ``source_at_most``) has one meaning,
:func:`~ruleproof.model.features.condition_met`: the interpreter's monitor and the Z3 monitor say the
same about where 542.6 matters in every world of the menu with a guard."""

from __future__ import annotations

import itertools

import pytest
import z3

from ruleproof.model.features import CONDITIONS, condition_met
from ruleproof.model.menu import GUARD_CONDITIONS, WORLD_DOMAINS, menu_world, world_state
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.symbolic import compile_rulebook
from ruleproof.properties.monitor_run import Concrete as RunM
from ruleproof.properties.monitor_z3 import Symbolic as Z3M


def test_each_condition_word_compares_its_way():
    assert [condition_met(k, 1, 2) for k in CONDITIONS] == [False, True]
    assert [condition_met(k, 2, 2) for k in CONDITIONS] == [True, True]
    with pytest.raises(ValueError):
        condition_met("source_equals", 1, 1)
    assert set(GUARD_CONDITIONS) == set(CONDITIONS)  # the Z3 menu has a world for each word


@pytest.fixture(scope="module")
def system():
    return compile_rulebook(load_rulebook())


@pytest.mark.parametrize("reads", ["current", "printed"])
def test_z3_and_the_interpreter_agree_where_the_reading_matters(system, reads):
    S, seen = system.pre, set()
    for thr, at_most, mv, mod in itertools.product((1, 2, 3), (0, 1), WORLD_DOMAINS["w_src_movement"],
                                                   WORLD_DOMAINS["w_src_movement_mod"]):
        v = menu_world(lambda d: d[0], lambda: False)
        v.update(w_kind=0, w_tgt_guard_threshold=thr, w_tgt_guard_at_most=at_most, w_src_movement=mv,
                 w_src_movement_mod=mod & 0xFF)
        state = world_state(v)
        concrete = RunM(None).reading_matters(state, reads)  # reads the state only, not the trace
        subst = [(S[n], system.val(x, n)) for n, x in v.items() if n in S]
        subst.append((S["src_movement_mod"], system.val(mod & 0xFF, "src_movement_mod")))
        symbolic = z3.simplify(z3.substitute(Z3M(system).reading_matters(S, reads), *subst))
        assert z3.is_true(symbolic) == concrete, (v, concrete, symbolic)
        seen.add((at_most, concrete))
    if reads == "current":  # both words, both answers: the comparison is not vacuous
        assert seen == {(0, True), (0, False), (1, True), (1, False)}
