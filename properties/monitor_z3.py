"""A monitor as a Z3 form: history variables of the transition system and a ``bad`` state predicate.

:func:`form` compiles a :class:`~.monitor.Monitor` for :mod:`.prove`: each history variable becomes a
:class:`~ruleproof.model.symbolic.HistVar` whose update, at a transition, is the monitor's update
evaluated by :class:`Symbolic` on the transition's facts (:class:`~.monitor.Ev`, static per
disjunct) and the vector before and after it; a per-feature variable becomes one per option of the
world menu.  ``bad`` is the disjunction of the monitor's bad conditions, so "``bad`` is unreachable"
is the property for every play.  Each observation here is the vector's form of the one of
:class:`~.monitor_run.Concrete` (the interpreter's).

>>> f = FORMS["P512.6.1-order"]
>>> [h.name for h in f.hist]
['ho_last', 'ho_bad']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

import z3

from ruleproof.model.features import Feature, condition_met
from ruleproof.model.fields import FIELDS, LEGAL
from ruleproof.model.menu import DEF_MOVEMENT, GUARD_CONDITIONS, OPTIONS, RM_FORMS, SRC_GUARD_CONDITION
from ruleproof.model.symbolic import HistVar, System
from ruleproof.model.vocabulary import SWAPPED

from .monitor import PART_EVENT, Ev, Monitor

__all__ = ["Form", "FORMS", "Symbolic", "form", "facts"]


@dataclass(frozen=True)
class Form:
    """What :mod:`.prove` proves: the monitor's history variables, ``bad`` and ``premise`` as terms."""

    pid: str
    hist: tuple[HistVar, ...]
    bad: Callable[[System, dict], Any]  # (sy, S) -> a Z3 Bool
    premise: Callable[[System, dict], Any]  # (sy, S) -> a Z3 Bool
    premise_en: str
    premise_ru: str
    note: str = ""
    split: tuple["Form", ...] = ()
    windows: bool = False
    options: tuple = ()


@dataclass(frozen=True)
class Opt:
    """An option of the world menu as a monitor's per-feature variable names it."""

    key: str
    index: int
    feature: Feature
    role: str
    player: str


_FACTS: dict[int, tuple[object, Ev]] = {}


def facts(d) -> Ev:
    """The facts of disjunct ``d`` (cached by identity: a system's disjuncts live as long as it)."""
    found = _FACTS.get(id(d))
    if found is None or found[0] is not d:
        feature = OPTIONS[d.option].feature if d.option is not None else None
        ev = Ev(d.event, d.skipped, d.step_kind, d.params, feature, d.allows, d.opener in ("A", ""),
                d.option)
        found = _FACTS[id(d)] = (d, ev)
    return found[1]


def _opts(each) -> list[Opt]:
    return [Opt(str(i), i, o.feature, o.card, o.player) for i, o in enumerate(OPTIONS) if each(o.feature, o.card)]


class Symbolic:
    """The monitors' evaluator over the vector of a compiled system ``sy``."""

    def __init__(self, sy: System) -> None:
        self.sy = sy

    def _b(self, c):
        if isinstance(c, bool):
            return self.sy.true() if c else self.sy.false()
        return c

    # --- values and connectives --------------------------------------------------------------------
    def true(self):
        return self.sy.true()

    def false(self):
        return self.sy.false()

    # an empty And/Or is built in the system's context, never z3's default one
    def and_(self, *xs):
        return z3.And([self._b(x) for x in xs]) if xs else self.sy.true()

    def or_(self, *xs):
        return z3.Or([self._b(x) for x in xs]) if xs else self.sy.false()

    def not_(self, x):
        return z3.Not(self._b(x))

    def ite(self, c, a, b):
        return z3.If(self._b(c), a, b)

    def and_then(self, a, rest):
        return z3.And(self._b(a), self._b(rest()))

    def num(self, v: int, width: int):
        return self.sy.val(v, width)

    def on(self, x):
        return self.sy.t(x)

    def off(self, x):
        return x == self.sy.val(0, x.size())

    def eq(self, a, b):
        return a == b

    def ugt(self, a, b):
        return z3.UGT(a, b)

    def ult(self, a, b):
        return z3.ULT(a, b)

    def bit(self, c):
        return self.sy.b(self._b(c))

    def set_if(self, c, cur):
        c = self._b(c)
        return self.sy.val(1, 1) if z3.is_true(c) else z3.If(c, self.sy.val(1, 1), cur)

    def inc_if(self, c, cur, width: int):
        return z3.If(self._b(c), self.sy.sat_inc(cur), cur)

    def key(self, name: str, f: Opt | None = None) -> str:
        return name if f is None else name + f.key

    # --- the run --------------------------------------------------------------------------------------
    def done(self, S):
        sy = self.sy
        return z3.Or(S["pc"] == sy.val(sy.done_end, "pc"), S["pc"] == sy.val(sy.done_deadlock, "pc"))

    def ended(self, S):
        return S["pc"] == self.sy.val(self.sy.done_end, "pc")

    def after_declare(self, S):
        sy = self.sy
        after = sorted({sy.next_loc(d.step, d.op_index) for d in sy.disjuncts if d.event == "declare" and not d.skipped})
        # a rulebook with no declaration (a draft that dropped it) has no such state
        return z3.Or([S["pc"] == sy.val(loc, "pc") for loc in after]) if after else sy.false()

    def visited_any(self, S):
        return self.sy.bit(S["visited"], 0)

    # --- the state --------------------------------------------------------------------------------------
    def get(self, S, name: str):
        return S[name]

    def field_is(self, S, name: str, value):
        f = FIELDS[name]
        return S[name] == self.sy.val(f.code(value), name)

    def is_attack(self, S):
        return self.sy.is_attack(S)

    def legal_is(self, S, value):
        return S["legal"] == self.sy.val(LEGAL[value], "legal")

    def has_defender(self, S):
        return self.sy.t(S["w_has_defender"])

    def holds(self, S, guard: str):
        return self.sy.guard(guard, S)

    # --- 542: X ---------------------------------------------------------------------------------------------
    def cost_x_exceeds(self, S):
        return S["src_crystals"] < z3.ZeroExt(4, S["w_cost_x_value"])

    def reading_matters(self, S, reads: str):
        """The menu's target guard (``w_tgt_guard_threshold``, its condition ``w_tgt_guard_at_most``)
        decides differently on the source's printed and current movement — each condition word read
        by its one meaning, :func:`~ruleproof.model.features.condition_met`."""
        sy = self.sy
        thr = z3.ZeroExt(4, S["w_tgt_guard_threshold"])
        printed = z3.ZeroExt(4, S["w_src_movement"])
        current = printed if reads == "printed" else printed + S["src_movement_mod"]  # the value as ``reads`` reads it
        differs = self._by_guard_word(S, lambda kind: condition_met(kind, printed, thr) != condition_met(kind, current, thr))
        return z3.And(S["w_tgt_guard_threshold"] != sy.val(0, 4), sy.is_attack(S), differs)

    def _by_guard_word(self, S, test):
        """``test(word)`` of the menu target guard's condition word (``w_tgt_guard_at_most`` picks it)."""
        return z3.Or(*[z3.And(S["w_tgt_guard_at_most"] == self.sy.val(i, 4), test(kind))
                       for i, kind in enumerate(GUARD_CONDITIONS)])

    def _src_guard_on_return(self, S, reads: str):
        """The menu's source guard (``w_src_guard_threshold``) holds against the return strike, read on the
        creature striking back: the defender (its printed movement, which carries no modifier in the menu)
        or, where there is none (a rulebook whose attacked creature strikes back), the target (its movement
        as ``reads`` reads it)."""
        sy = self.sy
        thr = z3.ZeroExt(4, S["w_src_guard_threshold"])
        tgt = z3.ZeroExt(4, S["w_tgt_movement"])
        tgt = tgt if reads == "printed" else tgt + S["w_tgt_movement_mod"]
        striker = z3.If(sy.t(S["w_has_defender"]), sy.val(DEF_MOVEMENT, 8), tgt)
        return z3.And(S["w_src_guard_threshold"] != sy.val(0, 4), condition_met(SRC_GUARD_CONDITION, striker, thr))

    def _tgt_guard_on_return(self, S, reads: str):
        """The target's guard holds against the source's strike at it — the return strike with the roles kept,
        where the target strikes back (no defender): its condition read on the source's movement."""
        sy = self.sy
        thr = z3.ZeroExt(4, S["w_tgt_guard_threshold"])
        printed = z3.ZeroExt(4, S["w_src_movement"])
        value = printed if reads == "printed" else printed + S["src_movement_mod"]
        holds = self._by_guard_word(S, lambda kind: condition_met(kind, value, thr))
        return z3.And(z3.Not(sy.t(S["w_has_defender"])), S["w_tgt_guard_threshold"] != sy.val(0, 4), holds)

    def return_roles_matter(self, S, roles: str, reads: str):
        """With the cards cast as ``roles``, another set of static modifiers applies to the return strike
        than with the swapped roles: swapped, the source's guard when it holds; kept, the struck card's —
        none for a defender (the menu's defender holds no static modifier: :data:`~ruleproof.model.menu.OPTIONS`
        gives it none, which a test pins), the target's guard for a target striking back; unmodified, none."""
        if roles == SWAPPED:
            return self.sy.false()
        other = self._tgt_guard_on_return(S, reads) if roles == "kept" else self.sy.false()
        return z3.And(self.sy.t(S["return_strike"]), z3.Or(self._src_guard_on_return(S, reads), other))

    def return_modifiable(self, S):
        return z3.And(self.sy.t(S["return_strike"]), S["w_src_guard_threshold"] != self.sy.val(0, 4))

    def x_not_printed(self, S, kinds: tuple):
        return z3.Or([self.sy.t(S[f"x_{k}_not_printed"]) for k in kinds]) if kinds else self.sy.false()

    def x_reads_modified(self, S):
        """A fixed X reads a property whose current value is modified: the dice or magnitude modifier's X
        the source's movement (its current modifier: a sudden action may boost it), or a computed
        magnitude X the target's (form conformance, RC8, found the magnitude modifier's X missing here)."""
        sy = self.sy
        src_mod = S["src_movement_mod"] != sy.val(0, 8)
        return z3.Or(z3.And(z3.Or(sy.t(S["x_dice_modifier_fixed"]), sy.t(S["x_magnitude_modifier_fixed"])), src_mod),
                     z3.And(sy.t(S["x_magnitude_computed_fixed"]), sy.t(S["w_magnitude_x_reads_property"]),
                            S["w_tgt_movement_mod"] != sy.val(0, 8)))

    # --- 540: payment ---------------------------------------------------------------------------------------
    def exempt_any(self, S):
        return z3.Or(*self.sy.exempt(S, True))

    def reserved_any(self, S):
        return S["reserved"] != self.sy.val(0, "reserved")

    def unpaid_any(self, S, exempt_modified: bool):
        sy = self.sy
        es, ed = sy.exempt(S, exempt_modified)
        r = S["reserved"]
        return z3.Or(z3.And(sy.bit(r, 0), es), z3.And(sy.bit(r, 1), ed))

    def pays_other_than_due(self, pre, new, given=False):
        sy = self.sy
        mk = pre["src_markers"]
        if given is not False:
            mk = z3.If(z3.And(given, mk != sy.val(0, 2)), mk - sy.val(1, 2), mk)
        es, ed = sy.exempt(pre, True, markers_src=mk)
        r = pre["reserved"]
        due = z3.Concat(sy.b(sy.bit(r, 2)), sy.b(z3.And(sy.bit(r, 1), z3.Not(ed))), sy.b(z3.And(sy.bit(r, 0), z3.Not(es))))
        return new["paid"] != due

    def closed_owes_close(self, S):
        sy = self.sy  # the menu's cost asks the source to close, and the defender where there is one
        return z3.Or(sy.t(S["src_closed"]), z3.And(sy.t(S["w_has_defender"]), sy.t(S["def_closed"])))

    def assault_due(self, S):
        """The menu's source text of 540.1.2's form (``w_src_rm_form``), its own attack, its closing reserved
        (the cost's first entry), no modification of the source."""
        sy = self.sy
        form = S["w_src_rm_form"] == sy.val(RM_FORMS.index("closes_only_after_assault"), 4)
        return z3.And(form, sy.is_attack(S), sy.bit(S["reserved"], 0), z3.Not(sy.t(S["modified_src"])))

    def source_closing_paid(self, S):
        return self.sy.bit(S["paid"], 0)

    def overdrawn(self, new):
        return new["src_crystals"] < 0  # the model's one counted resource (8 bits, signed)

    def reserved_other_than_cost(self, S):
        sy = self.sy
        want = z3.Concat(sy.b(sy.t(S["x_cost_declared"])), sy.b(sy.t(S["w_has_defender"])), sy.val(1, 1))
        return S["reserved"] != want

    def marker_waived(self, S):
        return self.sy.marker_waived(S)

    def marker_given(self, pre, new):
        return z3.UGT(new["src_markers"], pre["src_markers"])

    def all_parts_declared(self, S):
        return S["part"] == z3.Extract(2, 0, S["w_parts_left"]) + self.sy.val(1, 3)

    def parts_at_start(self, S, n: int):
        return S["w_parts_left"] == self.sy.val(n, 4)

    # --- features: the menu's options ----------------------------------------------------------------------
    def features(self, each) -> list[Opt]:
        return _opts(each)

    def has(self, S, f: Opt):
        return self.sy.has(S, f.index)

    def offered(self, pre, ev: Ev, f: Opt):
        return self.sy.offered(pre, f.index, ev.allows, pre["window_player"], ev.params)

    def has_priority(self, pre, ev: Ev, f: Opt):
        return pre["window_player"] == self.sy.val("AB".index(f.player), 1)

    def played(self, ev: Ev, f: Opt) -> bool:
        return ev.op == "play" and ev.key == f.index

    def payers(self, S):
        return S["paid"]  # bit 0: the source's close, 1: the defender's close, 2: the source's crystals

    def paid_by(self, payers, f: Opt):
        sy = self.sy
        bits = {("src", "close"): 0, ("def", "close"): 1, ("src", "crystal"): 2}
        mine = [b for (role, res), b in bits.items() if role == f.role and (not f.feature.resources
                                                                             or res in f.feature.resources)]
        return z3.Or(*[sy.bit(payers, b) for b in mine]) if mine else sy.false()


def _hist_var(v, f: Opt | None) -> HistVar:
    name = v.name if f is None else v.name + f.key
    extra = () if f is None else (f,)

    def update(sy: System, d, pre, new):
        cur = pre[name]
        ev = facts(d)
        if v.part and ev.op == PART_EVENT and not ev.skipped:
            cur = sy.val(v.init, v.width)
        if ev.op not in v.on and "*" not in v.on:
            return sy.val(0, 1) if v.pulse else cur
        x = v.update(Symbolic(sy), ev, pre, new, pre, *extra)
        if isinstance(x, int):  # a constant (bool included)
            return sy.val(int(x), v.width)
        return cur if x is None else x

    return HistVar(name, v.width, v.init, update)


def form(m: Monitor) -> Form:
    """The Z3 form of monitor ``m`` (and of the parts it is proved in)."""
    hist = []
    for v in m.hist:
        hist += [_hist_var(v, None)] if v.each is None else [_hist_var(v, f) for f in _opts(v.each)]

    def bad(sy: System, S):
        M = Symbolic(sy)
        tests = [b.test(M, S, S) for b in m.bad]
        return tests[0] if len(tests) == 1 else z3.Or(tests)

    def premise(sy: System, S):
        return m.premise(Symbolic(sy), S, S)

    return Form(m.pid, tuple(hist), bad, premise, m.premise_en, m.premise_ru, m.note,
                tuple(form(p) for p in m.split), m.windows, m.options)


def _catalogue() -> dict[str, Form]:
    from .catalogue import PROPERTIES  # read when called (a test plants properties)

    return {p.id: form(p.monitor) for p in PROPERTIES}


#: the Z3 form of each property of the catalogue
FORMS: dict[str, Form] = _catalogue()


if TYPE_CHECKING:
    from .monitor_interface import MonitorAlgebra

    def _conforms(evaluator: Symbolic) -> MonitorAlgebra:
        """The type checker holds this evaluator to the monitors' interface (never called)."""
        return evaluator
