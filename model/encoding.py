"""What each operation and each feature kind's play does to the abstract state vector (the Z3 side).

Each function takes the compiled system ``sy``, the pre-state ``S`` (a dict of bit-vector terms), the
die input and the operation's parameters, and returns ``(guard, updates)``: the variables it
changes and their new values.  The guard words, the offers and 540's exemptions are not here: they
are :mod:`.semantics`, evaluated with :class:`~.algebra.Symbolic`.  The concrete meanings of the same
words are the interpreter's ``HANDLERS`` and ``PLAYS``; :mod:`.conformance` checks on every rulebook
the tool is given that the two agree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import z3

from .algebra import STATUS_CODES, symbolic_operation
from .menu import OPTIONS
from .semantics import OPERATIONS

if TYPE_CHECKING:
    from .symbolic import System

__all__ = ["OPS", "op_body", "play_body"]

STATUS = STATUS_CODES


def _bv(ctx, v: int, w: int):
    return z3.BitVecVal(v, w, ctx)

def op_body(sy: System, S, die, gtext: str, nxt: int, meaning, params: dict, step_kind: str):
    g, upd = meaning(sy, S, die, params, step_kind)
    upd = dict(upd)
    upd["pc"] = sy.val(nxt, "pc")
    return z3.And(sy.guard(gtext, S), g), upd


def _declare(sy: System, S, die, p, k):
    part = sy.sat_inc(S["part"])
    fresh = S["part"] != sy.val(0, 3)
    upd = {"part": part, "claims": sy.sat_inc(S["claims"]),
           "parts_left": z3.If(z3.And(fresh, S["parts_left"] != sy.val(0, 2)), S["parts_left"] - sy.val(1, 2), S["parts_left"])}
    reset = {"legal": 0, "legality_checks": 0, "blocked": 0, "last_roll": 0, "raw_die": 0, "dice_const": 0, "dice_x_count": 0, "dice_mods_declared": 0,
             "dice_mods_applied": 0, "final_die": 0, "final_die_set": 0, "die_on_stack": 0, "return_strike": 0, "magnitude_known": 0, "effect_applied": 0,
             "status": 0, "roles_released": 0}
    for n, v in reset.items():
        upd[n] = z3.If(fresh, sy.val(v, n), S[n])
    return sy.true(), upd


def _prop_read(sy: System, S, card: str, reads: str):
    """(printed, value as read) of a card's movement allowance."""
    printed = {"src": S["w_src_movement"], "tgt": S["w_tgt_movement"]}[card]
    printed = z3.ZeroExt(4, printed)
    mod = {"src": S["src_movement_mod"], "tgt": S["w_tgt_movement_mod"]}[card]
    return printed, (printed if reads == "printed" else printed + mod)


def _fix_x(sy: System, S, die, p, k):
    kind, reads = p["x"], p.get("reads", "printed")
    ex = S[f"x_{kind}_declared"]
    upd = {f"x_{kind}_fixed": z3.If(sy.t(ex), sy.val(1, 1), S[f"x_{kind}_fixed"])}
    card = None
    if kind in ("magnitude_computed", "implicit"):
        card = "tgt"  # compute option ("property", "target", "movement") when w_magprop
        printed, read = _prop_read(sy, S, card, reads)
        bad = z3.And(sy.t(S["w_magnitude_x_reads_property"]), read != printed)
        upd[f"x_{kind}_not_printed"] = z3.If(sy.t(ex), sy.b(bad), S[f"x_{kind}_not_printed"])
    elif kind in ("dice_modifier", "magnitude_modifier"):
        printed, read = _prop_read(sy, S, "src", reads)
        upd[f"x_{kind}_not_printed"] = z3.If(sy.t(ex), sy.b(read != printed), S[f"x_{kind}_not_printed"])
        if kind == "dice_modifier":
            upd["dice_x_value"] = z3.If(sy.t(ex), read, S["dice_x_value"])
    return sy.true(), upd


def _reserve(sy: System, S, die, p, k):
    include = p.get("include_modified", True)
    es, ed = sy.exempt(S, True)
    want = [sy.true(), sy.t(S["w_has_defender"]), sy.t(S["x_cost_declared"])]
    if not include:
        want = [z3.And(want[0], z3.Not(es)), z3.And(want[1], z3.Not(ed)), want[2]]
    rsv = z3.Concat(sy.b(want[2]), sy.b(want[1]), sy.b(want[0]))
    amt = z3.If(sy.t(S["x_cost_fixed"]), S["w_cost_x_value"], sy.val(0, 4))
    return sy.true(), {"reserved": rsv, "reserved_done": sy.val(1, 1), "reserved_crystals": z3.If(want[2], amt, sy.val(0, 4))}


def _roll(sy: System, S, die, p, k):
    lo, hi = sy.faces
    return (z3.And(z3.UGE(die, _bv(sy.ctx, lo, 4)), z3.ULE(die, _bv(sy.ctx, hi, 4))),
            {"last_roll": die, "die_on_stack": sy.val(1, 1)})


def _raw_or_last(sy, S):
    v = z3.If(S["raw_die"] != sy.val(0, 4), S["raw_die"], S["last_roll"])
    return v != sy.val(0, 4), z3.ZeroExt(4, v)


def _apply_dice(sy: System, S, die, p, k):
    have, v = _raw_or_last(sy, S)
    xpart = z3.If(sy.t(S["x_dice_modifier_fixed"]), z3.ZeroExt(6, S["dice_x_count"]) * S["dice_x_value"], sy.val(0, 8))
    final = v + S["dice_const"] + xpart
    return sy.true(), {"final_die": z3.If(have, final, sy.val(0, 8)), "final_die_set": sy.b(have), "dice_mods_applied": sy.val(1, 1)}


def _fix_final(sy: System, S, die, p, k):
    have, v = _raw_or_last(sy, S)
    app = sy.t(S["dice_mods_applied"])
    return sy.true(), {"final_die": z3.If(app, S["final_die"], z3.If(have, v, sy.val(0, 8))),
                       "final_die_set": z3.If(app, S["final_die_set"], sy.b(have))}


def _determine(sy: System, S, die, p, k):
    rets = [int(v) for v, row in sy.strikes.items() if row[1] != "none" and str(v).lstrip("-").isdigit()]
    hit = z3.Or([S["final_die"] == sy.val(v & 0xFF, 8) for v in rets]) if rets else sy.false()
    ret = z3.And(sy.is_attack(S), sy.t(S["w_has_defender"]), sy.t(S["final_die_set"]), hit)
    return sy.true(), {"return_strike": z3.If(sy.is_attack(S), sy.b(ret), S["return_strike"])}


def _nothing(sy, S, die, p, k):
    return sy.true(), {}


def _pay(sy: System, S, die, p, k):
    es, ed = sy.exempt(S, p.get("exempt_modified", True))
    r = S["reserved"]
    pay_sc = z3.And(sy.bit(r, 0), z3.Not(es))
    pay_dc = z3.And(sy.bit(r, 1), z3.Not(ed))
    pay_cr = sy.bit(r, 2)
    paid = z3.Concat(sy.b(pay_cr), sy.b(pay_dc), sy.b(pay_sc))
    return sy.true(), {"paid": paid, "paid_done": sy.val(1, 1),
                       "src_closed": z3.If(pay_sc, sy.val(1, 1), S["src_closed"]),
                       "def_closed": z3.If(pay_dc, sy.val(1, 1), S["def_closed"]),
                       "src_crystals": z3.If(pay_cr, S["src_crystals"] - z3.ZeroExt(4, S["reserved_crystals"]), S["src_crystals"])}


OPS: dict[str, Callable] = {
    **{name: symbolic_operation(name) for name in OPERATIONS},  # written once: semantics.OPERATIONS
    "declare": _declare, "fix_x": _fix_x, "reserve_resources": _reserve,
    "roll_die": _roll, "apply_dice_modifiers": _apply_dice,
    "fix_final_die": _fix_final, "determine_base": _determine,
    "apply_magnitude_modifiers": _nothing,
    "pay_reserved": _pay,
}


def play_body(sy: System, S, die, oi: int, opener: int):
    o = OPTIONS[oi]
    f = o.feature
    guard = [sy.offered(S, oi, (f.kind,), S["window_player"])]
    upd = {f"played{oi}": sy.val(1, 1), "window_passes": sy.val(0, 2), "window_player": sy.val(opener, 1)}
    if f.kind == "reroll":
        lo, hi = sy.faces
        guard += [z3.UGE(die, _bv(sy.ctx, lo, 4)), z3.ULE(die, _bv(sy.ctx, hi, 4))]
        upd["last_roll"] = die
    elif f.kind == "dice_modifier":
        upd["dice_mods_declared"] = sy.val(1, 1)
        if f.x is not None:
            new = z3.Not(sy.t(S["x_dice_modifier_declared"]))
            upd.update({"x_dice_modifier_declared": sy.val(1, 1),
                        "dice_x_count": sy.sat_inc(S["dice_x_count"]),
                        "x_dice_modifier_fixed": z3.If(new, sy.val(0, 1), S["x_dice_modifier_fixed"]),
                        "x_dice_modifier_not_printed": z3.If(new, sy.val(0, 1), S["x_dice_modifier_not_printed"]),
                        "dice_x_value": z3.If(new, sy.val(0, 8), S["dice_x_value"])})
        else:
            n = sy.val(f.amount & 0xFF, 8)
            upd["dice_const"] = S["dice_const"] + n if f.mode == "add" else S["dice_const"] - n
            assert f.mode in ("add", "sub")
    elif f.kind == "magnitude_modifier":
        if f.x is not None:
            new = z3.Not(sy.t(S["x_magnitude_modifier_declared"]))
            upd.update({"x_magnitude_modifier_declared": sy.val(1, 1),
                        "x_magnitude_modifier_fixed": z3.If(new, sy.val(0, 1), S["x_magnitude_modifier_fixed"]),
                        "x_magnitude_modifier_not_printed": z3.If(new, sy.val(0, 1), S["x_magnitude_modifier_not_printed"])})
    elif f.kind == "block":
        upd.update({"blocked": sy.val(1, 1),
                    "status": sy.val(STATUS["blocked"], 3)})
    elif f.kind == "resource_modification":
        assert f.modifies == "source"
        upd["modified_src"] = sy.val(1, 1)
    elif f.kind == "reduce_to_strength":
        pass
    else:  # effects
        for e in f.effects:
            ref = o.card if e.card == "self" else {"source": "src", "target": "tgt"}.get(e.card, e.card)
            if e.do == "leave_zone" and ref == "src":
                upd["src_in_zone"] = sy.val(0, 1)
            elif e.do == "add_modifier" and ref == "src" and e.prop == "movement":
                upd["src_movement_mod"] = S["src_movement_mod"] + sy.val(e.amount, 8)
            elif e.do == "heal" and ref == "def":
                w = S["def_wounds"]
                upd["def_wounds"] = z3.If(z3.UGE(w, sy.val(e.amount, 2)), w - sy.val(e.amount, 2), sy.val(0, 2))
        if f.then_if_healthy:
            assert o.card == "def" and f.then_if_healthy == ("close",)
            upd["modified_def"] = z3.If(upd.get("def_wounds", S["def_wounds"]) == sy.val(0, 2), sy.val(1, 1), S["modified_def"])
    return z3.And(guard), upd
