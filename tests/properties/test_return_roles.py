"""512.6.2/b4.1.4 (a return strike is calculated with the defender as the attacking creature): the
interpreter's monitor and the Z3 monitor say the same about where the roles a rulebook gives the return
strike change the modifiers that apply to it, in every world of the menu with a source guard."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
import z3

from ruleproof.model.menu import OPTIONS, WORLD_DOMAINS, menu_world, world_of, world_state
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.symbolic import compile_rulebook
from ruleproof.model.vocabulary import RETURN_ROLES
from ruleproof.properties.monitor_run import Concrete as RunM
from ruleproof.properties.monitor_z3 import Symbolic as Z3M


@pytest.fixture(scope="module")
def system():
    return compile_rulebook(load_rulebook())


def test_the_menus_defender_holds_no_static_modifier():
    """The Z3 meaning of ``kept`` and ``unmodified`` (no modifier applies) rests on it."""
    assert not [o for o in OPTIONS if o.card == "def" and o.feature.kind == "static_modifier"]


def test_world_of_refuses_what_the_source_guard_does_not_stand_for():
    v = menu_world(lambda d: d[0], lambda: False)
    v.update(w_kind=0, w_has_defender=1, w_src_guard_threshold=2)
    state = world_state(v)
    assert world_of(state)["w_src_guard_threshold"] == 2
    d = state.card("def")
    moved = replace(state, cards=tuple(replace(c, modifiers=(("movement", 1),)) if c is d else c for c in state.cards))
    assert world_of(moved) is None  # the menu's defender carries no movement modifier


@pytest.mark.parametrize("reads", ["printed", "current"])
@pytest.mark.parametrize("roles", RETURN_ROLES)
def test_z3_and_the_interpreter_agree_where_the_roles_matter(system, roles, reads):
    S, seen = system.pre, set()
    for thr, returns in itertools.product(WORLD_DOMAINS["w_src_guard_threshold"], (True, False)):
        v = menu_world(lambda d: d[0], lambda: False)
        v.update(w_kind=0, w_has_defender=1, w_src_guard_threshold=thr)
        state = world_state(v)
        # the state the calculation step reads: the strike table gave (or did not give) a return strike
        state = replace(state, action=replace(state.action, return_strike=returns,
                                              return_magnitude=2 if returns else None))
        subst = [(S[n], system.val(x, n)) for n, x in v.items() if n in S]
        subst.append((S["return_strike"], system.val(int(returns), "return_strike")))
        for name in ("return_roles_matter", "return_modifiable"):
            args = (roles, reads) if name == "return_roles_matter" else ()
            concrete = getattr(RunM(None), name)(state, *args)  # reads the state only, not the trace
            symbolic = z3.simplify(z3.substitute(getattr(Z3M(system), name)(S, *args), *subst))
            assert z3.is_true(symbolic) == concrete, (name, v, returns, concrete, symbolic)
            seen.add((name, concrete))
    # both answers of both observations (the swapped roles never differ from themselves)
    assert seen == ({("return_roles_matter", False), ("return_modifiable", True), ("return_modifiable", False)}
                    | ({("return_roles_matter", True)} if roles != "swapped" else set()))
