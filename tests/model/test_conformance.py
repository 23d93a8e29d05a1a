"""Conformance: every step the interpreter takes is a step of the Z3 transition system, and no other.

Worlds are drawn from the symbolic world menu (``symbolic.WORLD_DOMAINS`` / ``OPTIONS``, mirroring
generators/strategies.py) and played with drawn dice and responses.  For each interpreter event the
checker abstracts the state before and after it (``symbolic.abstract``), evaluates every disjunct at
that location on the concrete pre-state and demands: exactly the interpreter's successor for the
choice made (determinism), and — at a choice — the same set of enabled choices as the interpreter
offered (the window's options plus a pass, or every die face).
"""

from __future__ import annotations

import pytest
import z3
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from ruleproof.model import symbolic
from ruleproof.model.interpreter import HANDLERS, Stepper
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.paths import locate
from ruleproof.model.symbolic import OPTIONS, abstract, compile_rulebook, menu_world, world_state

RB = load_rulebook()
SYS = compile_rulebook(RB)
COUNT = {"steps": 0}


class Disagreement(AssertionError):
    pass


@st.composite
def menu_worlds(draw):
    """A world of the symbolic menu, drawn like generators/strategies.py draws one."""
    return menu_world(lambda dom: draw(st.sampled_from(dom)), lambda: draw(st.booleans()))


class _Env:
    """The pre-state's values substituted for the variables (through the C API: z3.substitute checks
    every pair's sorts in Python, which would dominate the run)."""

    def __init__(self, sys_, pre: dict, die: int) -> None:
        names = list(pre)
        self.n = len(names) + 1
        self.ctx = sys_.ctx
        self.frm = (z3.Ast * self.n)(*[sys_.pre[k].as_ast() for k in names], sys_.die.as_ast())
        vals = [sys_.val(v, k) for k, v in pre.items()] + [z3.BitVecVal(die, 4, sys_.ctx)]
        self.keep = vals
        self.to = (z3.Ast * self.n)(*[v.as_ast() for v in vals])

    def eval(self, expr):
        ast = z3.z3core.Z3_substitute(self.ctx.ref(), expr.as_ast(), self.n, self.frm, self.to)
        r = z3.simplify(z3.z3._to_expr_ref(ast, self.ctx))
        return z3.is_true(r) if z3.is_bool(r) else r.as_long()


_STEPS: dict = {}


def _step(sys_, d):
    key = (id(sys_), d.id)
    if key not in _STEPS:
        _STEPS[key] = (sys_, sys_.step_of(d, sys_.pre, sys_.die))
    return _STEPS[key][1]


def _successors(sys_, pre: dict, loc: int, die: int | None):
    env = _Env(sys_, pre, sys_.faces[0] if die is None else die)
    out = []
    for d in sys_.by_loc.get(loc, ()):
        guard, changes = _step(sys_, d)
        if env.eval(guard):
            post = dict(pre)
            post.update({n: env.eval(e) for n, e in changes.items()})
            out.append((d, post))
    return out


def _diff(a: dict, b: dict) -> dict:
    return {k: (a.get(k), b.get(k)) for k in set(a) | set(b) if a.get(k) != b.get(k)}


def check_trace(sys_, world_vars: dict, events: list) -> int:
    """Check every event of an interpreter run against ``sys_``; return the number of steps checked."""
    world = world_state(world_vars)
    pre = abstract(sys_, world, world_vars, sys_.start_pc)
    n = 0
    for e, loc, nxt, wpl, wps, played in locate(sys_, events):
        die = None
        chosen = None
        if e.op == "pass":
            chosen = "pass"
        elif e.op == "play":
            chosen = e.values["feature"]
            if e.values["kind"] == "reroll":
                die = e.state.action.die_rolls[-1]
        elif e.op == "roll_die" and not e.values.get("skipped"):
            die = e.values["die"]
        post = abstract(sys_, e.state, world_vars, nxt, wpl, wps, played)
        succ = _successors(sys_, pre, loc, die)
        if chosen is not None:  # a choice: the enabled responses are the interpreter's
            offered = {f for f in e.values.get("offered", ())} | {"pass"}
            enabled = {"pass" if d.event == "pass" else OPTIONS[d.option].feature.id for d, _ in succ}
            if enabled != offered:
                raise Disagreement(f"event #{e.seq} {e.op} at {sys_.loc_name(loc)}: trans offers {sorted(enabled)}, "
                                   f"the interpreter {sorted(offered)}\npre: {pre}")
            succ = [(d, s) for d, s in succ if (d.event == "pass") == (chosen == "pass") and (
                d.event != "play" or OPTIONS[d.option].feature.id == chosen)]
        elif die is not None:  # a die: every face is a successor; this one is the interpreter's
            lo, hi = sys_.faces
            for face in (lo, hi):
                if not _successors(sys_, pre, loc, face):
                    raise Disagreement(f"event #{e.seq}: trans allows no die {face} at {sys_.loc_name(loc)}")
        if len(succ) != 1:
            raise Disagreement(f"event #{e.seq} {e.op} at {sys_.loc_name(loc)}: trans has {len(succ)} successors "
                               f"({[d.label for d, _ in succ]})\npre: {pre}")
        d, got = succ[0]
        if got != post:
            raise Disagreement(f"event #{e.seq} {e.op} ({d.label}) at {sys_.loc_name(loc)}: trans and the interpreter "
                               f"disagree on {_diff(got, post)} (trans, interpreter)\npre: {pre}")
        pre = post
        n += 1
    return n


def play(world_vars: dict, data, rb=RB) -> list:
    st_ = Stepper(rb, world_state(world_vars))
    while st_.ask is not None:
        ask = st_.ask
        if ask.kind == "die":
            st_.answer(data.draw(st.integers(*ask.faces)))
        else:
            ids = [f.id for _, f in ask.options]
            st_.answer(data.draw(st.sampled_from([None, None, *ids])) if ids else None)
    return st_.trace.events


@settings(max_examples=170, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(w=menu_worlds(), data=st.data())
def _conformance(w, data):
    COUNT["steps"] += check_trace(SYS, w, play(w, data))


def test_conformance_10000_steps():
    """Every interpreter step on generated worlds and plays is a step of trans, and the only one."""
    COUNT["steps"] = 0
    _conformance()
    assert COUNT["steps"] >= 10_000, COUNT


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True,
          phases=(Phase.generate,))
@given(w=menu_worlds(), data=st.data())
def _quick(w, data):
    check_trace(SYS, w, play(w, data))


def test_conformance_catches_an_interpreter_divergence(monkeypatch):
    """A planted fault in the interpreter (no action marker) is reported with the step and the states."""
    monkeypatch.setitem(HANDLERS, "give_action_marker", _noop)
    with pytest.raises(Disagreement, match="give_action_marker|src_mk"):
        _quick()


def _noop(r, s, op):
    from ruleproof.model.interpreter import _done

    return _done(r, s, op)


def test_conformance_catches_an_encoding_divergence(monkeypatch):
    """A planted fault in the encoding (removing the feature from the stack does nothing) is reported."""
    monkeypatch.setitem(symbolic.OPS, "remove_from_stack", symbolic.OPS["apply_magnitude_modifiers"])
    broken = compile_rulebook(RB)

    @settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True,
          phases=(Phase.generate,))
    @given(w=menu_worlds(), data=st.data())
    def run(w, data):
        check_trace(broken, w, play(w, data))

    with pytest.raises(Disagreement, match="onstack"):
        run()
