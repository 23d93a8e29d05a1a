"""The symbolic evaluator's parts (:class:`~.algebra_z3.Symbolic` is made of them): the fields operations read and
write, the inputs and the cards a text names (:class:`SymbolicFields`), and the collections the vector holds as
summaries — dice modifiers, X, the cost and its payment (:class:`SymbolicCollections`).  Each reads ``self.sy``
(the compiled system), ``self.S`` (the state vector) and ``self.card`` (the card asked about)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import z3

from .algebra import OPAQUE
from .fields import CARD_VARS, FIELDS, SUMMARY_VARS as _SUMMARY
from .menu import COST_ENTRIES, ROLES

if TYPE_CHECKING:
    from .symbolic import System

__all__ = ["Rec", "XVal", "X_READS", "bit", "SymbolicFields", "SymbolicCollections"]

#: card attributes that are flags
_BOOL_ATTRS = frozenset({"closed", "in_active_zone"})
#: the X kinds computed from a card's property in the menu: (the card's role, whether only some worlds
#: compute it so — the others from wounds)
X_READS = {"magnitude_computed": ("tgt", True), "implicit": ("tgt", True), "dice_modifier": ("src", False),
           "magnitude_modifier": ("src", False)}


@dataclass(frozen=True)
class Rec:
    """A field held by several vector variables: ``kind`` and the term of each (``opt``: ``v`` the
    number, ``p`` whether there is one, ``raw`` the 4-bit die variable it was read from)."""

    kind: str
    terms: dict


@dataclass(frozen=True)
class XVal:
    """The value of an X as the vector holds it: the number (or OPAQUE) and whether it differs from the
    printed value (a Bool, or None: it reads no card property)."""

    value: object
    np: object


def bit(sy, cond):
    """A Bool as a 1-bit value, as small a term as it can be: a constant as a constant, ``v == 1`` of a
    1-bit ``v`` as ``v``, an ``If`` of Bools as an ``If`` of bits (Spacer is sensitive to term size)."""
    if z3.is_true(cond):
        return sy.val(1, 1)
    if z3.is_false(cond):
        return sy.val(0, 1)
    if z3.is_eq(cond):
        a, b = cond.children()
        if z3.is_bv(a) and a.size() == 1 and z3.is_bv_value(b) and b.as_long() == 1:
            return a
    if z3.is_app_of(cond, z3.Z3_OP_ITE):
        c, a, b = cond.children()
        return z3.If(c, bit(sy, a), bit(sy, b))
    return sy.b(cond)


def _die(sy, v):
    """A 4-bit die variable (0: no die) as an optional number."""
    return Rec("opt", {"v": z3.ZeroExt(4, v), "p": v != sy.val(0, 4), "raw": v})


def _ite_np(cond, a, b):
    if a is None and b is None:
        return None
    return z3.If(cond, a if a is not None else z3.BoolVal(False, cond.ctx), b if b is not None else z3.BoolVal(False, cond.ctx))


class _Vector:
    """What every part reads: the compiled system ``sy``, the state vector ``S`` (variable name -> term),
    the menu card asked about (``role``), the source's markers to read instead of the vector's, the die."""

    sy: System
    S: dict[str, Any]
    role: str | None
    _markers: Any
    _die: Any

    def _role(self, ref: str) -> str | None:
        if ref == "self":
            return self.role
        return {"source": "src", "target": "tgt", "defender": "def"}.get(ref, ref if ref in ROLES else None)


class SymbolicFields(_Vector):
    """The fields of :mod:`.fields` as vector terms, the inputs (the die) and the cards a text names."""

    # --- the fields operations read and write (:mod:`.fields`) ------------------------------------------
    def get(self, name: str):
        f = FIELDS[name]
        S, sy = self.S, self.sy
        if f.kind == "bool":
            return sy.t(S[name])
        if f.kind in ("code", "counter", "count"):
            return S[name]
        if f.kind in ("die", "rolls"):
            return _die(sy, S[name])
        if f.kind == "opt":
            return Rec("opt", {"v": S[name], "p": sy.t(S[f"{name}_set"])})
        if f.kind in _SUMMARY:
            return Rec(f.kind, {n: S[n] for n in _SUMMARY[f.kind]})
        return OPAQUE  # the model abstracts it away

    def lit(self, name: str, value):
        f = FIELDS[name]
        if f.kind == "bool":
            return self.sy.true() if value else self.sy.false()
        if f.kind in ("die", "rolls", "opt"):
            assert value in (None, ()), value
            return self.none()
        if f.kind in _SUMMARY:
            return Rec(f.kind, {n: self.sy.val(0, n) for n in _SUMMARY[f.kind]})
        return self.sy.val(f.code(value), name)

    def initial(self, name: str):
        return self.lit(name, FIELDS[name].initial)

    def none(self):
        return Rec("opt", {"v": self.sy.val(0, 8), "p": self.sy.false(), "raw": self.sy.val(0, 4)})

    def ite(self, cond, a, b):
        if isinstance(cond, bool):  # decided when the meaning is compiled (an X kind's own form)
            return a if cond else b
        if any(x is OPAQUE for x in (cond, a, b)):
            return OPAQUE
        if isinstance(a, Rec) or isinstance(b, Rec):
            return Rec(a.kind, {k: z3.If(cond, a.terms[k], b.terms[k]) for k in a.terms if k in b.terms})
        if isinstance(a, XVal):
            return XVal(self.ite(cond, a.value, b.value), _ite_np(cond, a.np, b.np))
        return z3.If(cond, a, b)

    def inc(self, a):
        return OPAQUE if a is OPAQUE else self.sy.sat_inc(a)

    def nonzero(self, a):
        return OPAQUE if a is OPAQUE else a != self.sy.val(0, a.size())

    def add(self, a, n: int):
        return OPAQUE if a is OPAQUE else a + self.sy.val(n & ((1 << a.size()) - 1), a.size())

    def sub(self, a, b):
        return OPAQUE if a is OPAQUE or b is OPAQUE else a - b

    def sub_to_zero(self, a, b):
        if a is OPAQUE or b is OPAQUE:
            return OPAQUE
        return z3.If(a >= b, a - b, self.sy.val(0, a.size()))

    def sub_floor(self, a, n: int):
        if a is OPAQUE:
            return OPAQUE
        k = self.sy.val(n, a.size())
        return z3.If(z3.UGE(a, k), a - k, self.sy.val(0, a.size()))

    def is_none(self, a):
        if a is OPAQUE:
            return OPAQUE
        if isinstance(a, Rec):
            return z3.Not(a.terms["p"])
        return a == self.sy.val(0, a.size())

    def last(self, a):
        return a  # the vector holds the last die rolled only

    def push(self, a, item):
        if a is OPAQUE:
            return OPAQUE
        if isinstance(a, Rec):  # the dice rolled: the vector holds the last
            return item
        return self.sy.sat_inc(a)  # a queue the vector holds as its length

    def concrete(self, fn):
        return OPAQUE

    # --- inputs and the cards a text names ------------------------------------------------------------
    def die(self):
        return _die(self.sy, self._die)

    def card_var(self, ref: str, attr) -> str | None:
        """The vector variable of a card attribute, if the model holds it."""
        return CARD_VARS.get((self._role(ref), attr))

    def card_term(self, ref: str, attr, value, word: str) -> tuple[str, object] | None:
        """(the vector variable, its new term) when the card attribute ``ref``/``attr`` gets ``value``;
        None when the model does not hold it (a value computed from what it abstracts away, for one it
        holds, is refused: ``word`` names the culprit)."""
        var = self.card_var(ref, attr)
        if var is None:
            return None
        if value is OPAQUE:
            raise ValueError(f"{word}: the model's {var} would depend on a field it abstracts away")
        return var, (bit(self.sy, value) if attr in _BOOL_ATTRS else value)

    def card(self, ref: str, attr):
        var = self.card_var(ref, attr)
        if var is None:
            return OPAQUE
        return self.sy.t(self.S[var]) if attr in _BOOL_ATTRS else self.S[var]

    def has_defender(self):
        return self.sy.t(self.S["w_has_defender"])

    def targets_in_zone(self):
        """The menu's target (its one target) is in the active zone."""
        return self.sy.t(self.S["tgt_in_zone"])

    def struck_open(self):
        """The menu's target is open (its closing is no world variable); a defender may have closed."""
        return z3.Or(z3.Not(self.has_defender()), z3.Not(self.sy.t(self.S["def_closed"])))

    def die_in(self, die, values):
        v = die.terms["v"]
        hit = z3.Or([v == self.sy.val(n & 0xFF, 8) for n in values]) if values else self.sy.false()
        return z3.And(die.terms["p"], hit)

    def strike_returns(self, die):
        return self._strike_row(die, lambda row: row[1] != "none")

    def strike_misses(self, die):
        return self._strike_row(die, lambda row: row[0] == "miss")

    def strike_has_row(self, die):
        return self._strike_row(die, lambda row: True)

    def clamp_die(self, die):
        """The 8-bit value (two's complement: ``<`` is signed) within the die's faces."""
        lo, hi = (self.sy.val(n, 8) for n in self.sy.faces)
        v = die.terms["v"]
        return Rec("opt", {"v": z3.If(v < lo, lo, z3.If(v > hi, hi, v)), "p": die.terms["p"]})

    def _strike_row(self, die, says):
        """The final die ``die`` is one of the strike table's rows that ``says`` holds of: a constant table."""
        return self.die_in(die, tuple(int(v) for v, row in self.sy.strikes.items()
                                      if says(row) and str(v).lstrip("-").isdigit()))


class SymbolicCollections(_Vector):
    """The collections of :mod:`.fields` as their summaries in the vector: dice modifiers, X, the cost, payment."""

    # --- the collections of :mod:`.fields`: their summaries in the vector -----------------------------------------
    def push_dice_mod(self, mods, mode: str, amount):
        """The vector counts the dice modifiers with an X and sums the others (add and sub: the menu's)."""
        t, sy = dict(mods.terms), self.sy
        t["dice_mods_declared"] = sy.val(1, 1)
        if isinstance(amount, int):
            if mode not in ("add", "sub"):
                raise ValueError(f"a dice modifier that sets the die ({mode}) is beyond the model")
            n = sy.val(amount & 0xFF, 8)
            t["dice_const"] = t["dice_const"] + n if mode == "add" else t["dice_const"] - n
        else:
            t["dice_x_count"] = sy.sat_inc(t["dice_x_count"])
        return Rec("dice_mods", t)

    def dice_total(self, mods, die):
        S, sy = self.S, self.sy
        t = mods.terms
        xpart = z3.If(sy.t(S["x_dice_modifier_fixed"]), z3.ZeroExt(6, t["dice_x_count"]) * S["dice_x_value"],
                      sy.val(0, 8))
        return Rec("opt", {"v": die.terms["v"] + t["dice_const"] + xpart, "p": die.terms["p"]})

    def _x_vars(self, kind: str) -> list[str]:
        names = [f"x_{kind}_declared", f"x_{kind}_fixed", f"x_{kind}_not_printed"]
        return names + (["dice_x_value"] if kind == "dice_modifier" else [])

    def declare_x(self, kind: str, name: str, compute):
        """A new X of ``kind``: declared, not fixed yet (the vector holds one X per kind)."""
        S, sy = self.S, self.sy
        new = z3.Not(sy.t(S[f"x_{kind}_declared"]))
        t = {n: z3.If(new, sy.val(0, n), S[n]) for n in self._x_vars(kind)[1:]}
        t[f"x_{kind}_declared"] = sy.val(1, 1)
        return Rec("xs", t)

    def fix_xs(self, kind: str, value):
        """The X of ``kind``, if declared, fixed: the vector records whether its value differs from the
        printed one (542.6) and, for a dice modifier's X, the value."""
        S, sy = self.S, self.sy
        ex = sy.t(S[f"x_{kind}_declared"])
        val = value(kind)
        t = {f"x_{kind}_fixed": z3.If(ex, sy.val(1, 1), S[f"x_{kind}_fixed"])}
        if val.np is not None:
            t[f"x_{kind}_not_printed"] = z3.If(ex, sy.b(val.np), S[f"x_{kind}_not_printed"])
        if kind == "dice_modifier":
            t["dice_x_value"] = z3.If(ex, val.value, S["dice_x_value"])
        return Rec("xs", t)

    def x_fixed(self, kind: str):
        return z3.And(self.sy.t(self.S[f"x_{kind}_declared"]), self.sy.t(self.S[f"x_{kind}_fixed"]))

    def x_value(self, kind: str):
        """A fixed X's value: the vector holds the cost-X's (the world's choice, 542.2); another kind's
        is abstracted away."""
        return z3.ZeroExt(4, self.S["w_cost_x_value"]) if kind == "cost" else OPAQUE

    def x_computed(self, kind: str) -> bool:
        return kind in X_READS

    def x_chosen(self, kind: str):
        return XVal(OPAQUE, None)

    def _prop_read(self, role: str, reads: str):
        """(printed, as read) of a card's movement allowance (the property the menu's X read)."""
        S = self.S
        printed = z3.ZeroExt(4, S[f"w_{role}_movement"])
        mod = S["src_movement_mod"] if role == "src" else S["w_tgt_movement_mod"]
        return printed, (printed if reads == "printed" else printed + mod)

    def x_read(self, kind: str, reads: str):
        if kind not in X_READS:
            return XVal(OPAQUE, None)  # chosen by the player: it reads no card
        role, gated = X_READS[kind]
        printed, read = self._prop_read(role, reads)
        np = read != printed
        if gated:  # the magnitude's X reads the target's property only in some worlds (else its wounds)
            np = z3.And(self.sy.t(self.S["w_magnitude_x_reads_property"]), np)
        return XVal(read, np)

    def _cost_present(self):
        return {"always": self.sy.true(), "defender": self.sy.t(self.S["w_has_defender"]),
                "cost_x": self.sy.t(self.S["x_cost_declared"])}

    def reserve(self, entry):
        sy, present = self.sy, self._cost_present()
        bits, crystals = [], sy.val(0, 4)
        for card, res, amount, when in COST_ENTRIES:
            take, n = entry(self, card, res, amount)
            bit = self.and_(present[when], take)
            bits.append(sy.b(bit))
            if res == "crystal":
                crystals = z3.If(bit, z3.Extract(3, 0, n), crystals)
        return Rec("reserved", {"reserved": z3.Concat(*reversed(bits)), "reserved_crystals": crystals})

    def exempt_entry(self, card: str, res: str, recheck: bool = False, count: str | None = "kind",
                     declared: bool = False):
        if res != "close" or card not in ("src", "def"):
            return self.sy.false()  # the menu's 540 texts and modifications spare a card's closing only
        if recheck and card == "def":  # a conditional modification (the menu's: «if healthy») lapses with wounds
            S, sy = self.S, self.sy
            kept = z3.And(sy.t(S["modified_def"]), z3.Or(z3.Not(sy.t(S["cond_def"])), S["def_wounds"] == sy.val(0, 4)))
            return z3.Or(sy.own_text_applies(S, "def"), kept)
        # declared: the source's markers when the action began (the world's); a defender's do not change here
        start = z3.Extract(1, 0, self.S["w_src_markers"]) if declared else None
        es, ed = self.sy.exempt(self.S, True, markers_src=start, count=count)
        return es if card == "src" else ed

    def _pays(self, pays):
        r = self.S["reserved"]
        return [(card, res, self.and_(self.sy.bit(r, i), pays(self, card, res)))
                for i, (card, res, _, _) in enumerate(COST_ENTRIES)]

    def paid(self, pays):
        return Rec("paid", {"paid": z3.Concat(*reversed([self.sy.b(p) for _, _, p in self._pays(pays)]))})

    def spend(self, pays, spend):
        S, out = self.S, {}
        for card, res, paying in self._pays(pays):
            amount = z3.ZeroExt(4, S["reserved_crystals"]) if res == "crystal" else self.sy.val(1, 8)
            for (_, ref, attr), value in spend(self, card, res, amount).items():
                written = self.card_term(ref, attr, value, "spend")
                if written is not None:
                    var, new = written
                    out[var] = z3.If(paying, new, out.get(var, S[var]))
        return Rec("cards", out)

    def push_modification(self, mods, feature: str, ref: str, resources: tuple, form: str = "stays_open",
                          limit: int | None = None, action_marker: bool = True, condition: str = ""):
        """The vector records, per card, that a modification spares its closing (and, for the source,
        that its text waives the action marker, 540.3; for the defender, whether every one sparing it
        was made on a condition, 540.4/ex1)."""
        role = self._role(ref)
        if "close" not in resources or role not in ("src", "def") or (condition and role != "def"):
            raise ValueError(f"a resource modification of {ref} sparing {resources} is beyond the model")
        t = dict(mods.terms)
        if role == "def":
            was = z3.And(self.sy.t(t["modified_def"]), self.sy.t(t["cond_def"]))
            t["cond_def"] = self.sy.b(z3.Or(was, z3.Not(self.sy.t(t["modified_def"])))) if condition else self.sy.val(0, 1)
        t[f"modified_{role}"] = self.sy.val(1, 1)
        if not action_marker and role == "src":
            t["waived_src"] = self.sy.val(1, 1)
        return Rec("modifications", t)

    def resource(self, card: str, res: str):
        """A card's resource as the model holds it: the source's crystals (8 bits, signed); every card
        of the menu has one «close» resource, which paying does not spend (it closes the card)."""
        if card == "src" and res == "crystal":
            return self.S["src_crystals"]
        return self.sy.val(1 if res == "close" else 0, 8)

    def cost_fixed(self, amount: str):
        if amount.isdigit():
            return self.sy.true()
        return self.sy.t(self.S["x_cost_fixed"])

    def cost_need(self, amount: str):
        if amount.isdigit():
            return self.sy.val(int(amount), 8)
        return z3.ZeroExt(4, self.S["w_cost_x_value"])

    def cost_short(self, short):
        present = self._cost_present()
        return z3.Or([z3.And(present[when], short(self, card, res, amount)) for card, res, amount, when in COST_ENTRIES])


