"""Both engines' code for a word, derived from its one meaning in :mod:`.semantics`.

An operation's meaning (:class:`~.semantics.Operation`) and a feature kind's play
(:class:`~.semantics.Play`) give the new values of the fields they change, as one or several
*stages* (each read from the state the stage before left).  Here they are compiled:

* for the interpreter, with :class:`~.algebra.Concrete`, into a function of the state (a handler
  ``(run, state, op) -> state`` that also emits the operation's event, or a play
  ``(state, card, die, strikes) -> state``), built once per word and parameters;
* for the Z3 transition system, with :class:`~.algebra_z3.Symbolic`, into ``(guard, updates)`` over
  the vector: each field written into its variables as :mod:`.fields` says (a field the model
  abstracts away is left out; a model variable computed from one is refused).

>>> from ruleproof.model.menu import menu_world, world_state
>>> s = world_state(menu_world(lambda d: d[0], lambda: False))
>>> s = concrete_play(Feature("b_block", "block"))(s, "tgt", None, {})
>>> s.action.blocked, s.action.status
(True, 'blocked')
"""

from __future__ import annotations

from functools import lru_cache

import z3

from .algebra import OPAQUE, Concrete, Ctx
from .algebra_z3 import Rec, Symbolic, bit
from .features import Feature
from .fields import FIELDS, setter
from .semantics import OPERATIONS, PLAYS

__all__ = ["concrete_operation", "symbolic_operation", "concrete_play", "symbolic_play", "write"]

_CONCRETE = Concrete()


def _stages(update) -> list[dict]:
    return update if isinstance(update, list) else [update]


def _hashable(params: dict) -> tuple:
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in params.items()))


# --- the interpreter's side ------------------------------------------------------------------------------------

def _compiled_stages(stages: list[dict]):
    compiled = [(setter(tuple(stage)), tuple(stage.values())) for stage in stages]
    if len(compiled) == 1:
        [(set_, tests)] = compiled
        if all(hasattr(test, "const") for test in tests):  # constants (a flag set): the values once
            values = [test.const for test in tests]
            return lambda s, ctx: set_(s, values, ctx.card)
        if len(tests) == 1:
            [test] = tests
            return lambda s, ctx: set_(s, [test(s, ctx)], ctx.card)
        return lambda s, ctx: set_(s, [test(s, ctx) for test in tests], ctx.card)

    def run(s, ctx):
        for set_, tests in compiled:
            s = set_(s, [test(s, ctx) for test in tests], ctx.card)
        return s
    return run


@lru_cache(maxsize=None)
def _concrete_update(name: str, params: tuple):
    return _compiled_stages(_stages(OPERATIONS[name].update(_CONCRETE, dict(params))))


def concrete_operation(name: str):
    """The interpreter's handler ``(run, state, op, die=None) -> state`` of operation ``name``: the new
    values computed from the state before (stage by stage), set, then the event emitted with the
    values the meaning reports."""
    meaning = OPERATIONS[name]
    report = tuple((key, FIELDS[f].get if isinstance(f, str) else None, f) for key, f in meaning.report.items())

    compiled: dict[int, tuple] = {}  # id(op) -> (op, its update): an op's params are compiled once

    def handler(r, s, op, die=None):
        before = s
        entry = compiled.get(id(op))
        if entry is None or entry[0] is not op:
            entry = compiled[id(op)] = (op, _concrete_update(name, _hashable(op.params)))
        s = entry[1](s, Ctx(None, die, r.strikes, r.faces))
        values = dict(op.params)
        for key, get, fn in report:
            if get is not None:
                values[key] = get(s)
            elif key == "*":
                values.update(fn(before, s, op.params))
            else:
                values[key] = fn(before, s, op.params)
        r.emit(s, op.op, op.cites, values, op.assumes)
        return s

    # derived from semantics.OPERATIONS (tests/model/test_one_meaning.py reads this function attribute)
    handler.meaning = name  # type: ignore[attr-defined]
    return handler


@lru_cache(maxsize=None)
def concrete_play(feature: Feature):
    """What playing ``feature`` does, ``(state, card, die, strikes) -> state`` (``card``: the card
    holding it; ``die``: the new roll of a play that takes one)."""
    run = _compiled_stages(_stages(PLAYS[feature.kind].update(_CONCRETE, feature)))

    def play(s, card, die, strikes):
        return run(s, Ctx(card, die, strikes))

    play.meaning = feature.kind  # type: ignore[attr-defined]  # a function attribute, as above
    return play


# --- the Z3 side --------------------------------------------------------------------------------------------------

def write(sy, name: str, value, word: str) -> dict:
    """The vector variables field ``name`` takes when it gets ``value``: none for what the model
    abstracts away (a model variable computed from it is refused: ``word`` names the culprit)."""
    f = FIELDS[name]
    if isinstance(value, Rec) and f.kind not in ("die", "rolls", "opt"):
        return dict(value.terms)
    if not f.var:
        return {}
    if value is OPAQUE:  # the abstraction would be unsound: say so where the word is compiled
        raise ValueError(f"{word}: the model's {name} would depend on a field it abstracts away")
    if f.kind == "bool":
        return {name: bit(sy, value)}
    if f.kind in ("die", "rolls"):
        t = value.terms
        raw = t.get("raw")
        return {name: raw if raw is not None else z3.If(t["p"], z3.Extract(3, 0, t["v"]), sy.val(0, 4))}
    if f.kind == "opt":
        return {name: value.terms["v"], f"{name}_set": bit(sy, value.terms["p"])}
    return {name: value}


def _symbolic(sy, S, die, meaning, arg, role: str | None, word: str) -> tuple:
    """(guard, updates) of a meaning (an operation's with its parameters, a play's with its feature)
    over the vector ``S``: stage ``i`` read from the vector stages ``0..i-1`` left (the meaning is
    built again over that vector: a Symbolic algebra is bound to one); a meaning that takes a die
    result is guarded by the rulebook's faces."""
    out: dict = {}
    i = 0
    while True:
        E = Symbolic(sy, {**S, **out}, role, die=die)
        stages = _stages(meaning.update(E, arg))
        if i == len(stages):
            break
        for name, value in stages[i].items():
            if isinstance(name, tuple):  # ("card", ref, attr)
                written = E.card_term(name[1], name[2], value, word)
                if written is not None:
                    out[written[0]] = written[1]
            else:
                out.update(write(sy, name, value, word))
        i += 1
    if not meaning.die:
        return sy.true(), out
    lo, hi = sy.faces
    return z3.And(z3.UGE(die, sy.val(lo & 0xF, 4)), z3.ULE(die, sy.val(hi & 0xF, 4))), out


def symbolic_operation(name: str):
    """The encoding's body ``(sy, S, die, params, step_kind) -> (guard, updates)`` of operation ``name``."""
    meaning = OPERATIONS[name]

    def body(sy, S, die, p, k):
        return _symbolic(sy, S, die, meaning, p, None, f"operation {name}")

    body.meaning = name  # type: ignore[attr-defined]  # a function attribute, as above
    return body


def symbolic_play(sy, S, die, feature: Feature, role: str):
    """(guard, updates) of playing ``feature`` held by the menu card ``role``."""
    return _symbolic(sy, S, die, PLAYS[feature.kind], feature, role, f"play of {feature.kind}")
