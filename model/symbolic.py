"""Compile a rulebook into a Z3 transition system: ``compile_rulebook(rb) -> System``.

The state vector is a tuple of bit-vectors: the position in the rulebook (``pc``: a step's entry,
each operation, each priority window's opening / turns / closing, the step's exit), the window's
sub-state (who has priority, passes in a row, which features were played: one bit each), and the parts of the
game state the properties speak of (X kinds, the die, legality, blocking, reservation, payment,
modifications, action markers, …).  The *world* (action kind, X kinds, defender, the features each
card holds, card values) is a set of frozen variables over a finite menu (``OPTIONS`` and
``WORLD_DOMAINS``, mirroring :mod:`ruleproof.generators.strategies`), so any model maps back to a
concrete :class:`State` (``world_state``).  Die results and the chosen disjunct are inputs.

Like the interpreter, the Python here holds only the meaning of each vocabulary word: order,
guards, windows (``allows``, ``first``), parameters (``reads``, ``include_modified``,
``exempt_modified``) and tables come from the rulebook, so a draft compiles to a different system.
Every transition is one labelled disjunct (operation, step, clauses, rulebook line) — one per
interpreter event, so a counterexample reads as a list of rule steps.

What is abstracted (and therefore not part of the vector): wounds of the source and the target,
magnitude values and strengths (only whether the final magnitude is known), feature use counts,
the claim queue's contents (only its length), fired triggers.  The properties' Z3 forms
(:mod:`ruleproof.properties.z3forms`) add history variables on top.

>>> from ruleproof.model.rulebook import load_rulebook
>>> sys = compile_rulebook(load_rulebook())
>>> sys.loc_name(sys.start_pc), len(sys.disjuncts) > 50
('enter declaration', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import z3

from .features import Effect, Feature
from .rulebook import Rulebook
from .state import Action, Card, State, XVar
from .algebra import LEGAL, STATUS_CODES, Symbolic
from .semantics import exempts, guard_text, offer

__all__ = ["Var", "Disjunct", "System", "compile_rulebook", "OPTIONS", "Option", "WORLD_DOMAINS", "X_KINDS_SYM",
           "menu_world", "world_state", "abstract", "beyond_bounds", "KINDS", "STATUS", "HistVar", "world_of"]

KINDS = ("simple_strike", "attack", "spell", "effect")
STATUS = STATUS_CODES
X_KINDS_SYM = ("cost", "targets", "magnitude_chosen", "magnitude_computed", "implicit", "dice_modifier",
               "magnitude_modifier")
MAGX = (None, "magnitude_chosen", "magnitude_computed", "implicit")
RM_FORMS = (None, "stays_open", "closes_only_after_assault", "per_turn")


def resource_modifier(card: str, form: str, limit: int) -> Feature:
    """The 540.1 text of form ``form`` the menu may give ``card`` (src or def): it spares the card's
    closing; ``limit`` counts only for ``per_turn`` (540.3.1)."""
    return Feature(f"{card}_rm", "resource_modifier", form=form, resources=("close",),
                   limit=limit if form == "per_turn" else None)


@dataclass(frozen=True)
class Option:
    """One feature of the finite menu: the card that holds it and the feature."""

    card: str
    feature: Feature

    @property
    def player(self) -> str:
        return "A" if self.card in ("src", "allyA") else "B"


def _f(fid: str, kind: str, **kw) -> Feature:
    return Feature(fid, kind, **kw)


#: the menu of features a symbolic world may hold (each present or not)
OPTIONS: tuple[Option, ...] = (
    Option("src", _f("a_reroll", "reroll")),
    Option("tgt", _f("b_reroll", "reroll")),
    Option("src", _f("a_dmod", "dice_modifier", mode="add", amount=1)),
    Option("src", _f("a_dmodx", "dice_modifier", mode="add", x=("property", "self", "movement"))),
    Option("tgt", _f("b_dmod", "dice_modifier", mode="sub", amount=2)),
    Option("src", _f("a_mmodx", "magnitude_modifier", x=("property", "source", "movement"))),
    Option("tgt", _f("b_mmod", "magnitude_modifier", amount=-1)),
    Option("tgt", _f("b_reduce", "reduce_to_strength", strength="weak")),
    Option("tgt", _f("b_leave", "sudden_action", effects=(Effect("leave_zone", "source"),))),
    Option("src", _f("a_boost", "sudden_action", effects=(Effect("add_modifier", "source", 1, "movement"),))),
    Option("tgt", _f("b_protect", "protection")),
    Option("tgt", _f("b_prevent", "prevention")),
    Option("allyB", _f("b_replace", "replacement")),
    Option("tgt", _f("b_block", "block")),
    Option("src", _f("a_assault", "effect_trigger", trigger="assault", effects=(Effect("heal", "self", 1),))),
    Option("src", _f("a_strike", "effect_trigger", trigger="strike", effects=(Effect("heal", "self", 1),))),
    Option("def", _f("d_strike", "effect_trigger", trigger="strike", effects=(Effect("heal", "self", 1),),
                     then_if_healthy=("close",))),
    Option("def", _f("d_assault", "effect_trigger", trigger="assault", effects=(Effect("heal", "self", 1),))),
    Option("src", _f("a_after", "after_ability", on_status="any", effects=(Effect("wound", "source", 1),))),
    Option("tgt", _f("b_after_ill", "after_ability", on_status="illegal", effects=(Effect("wound", "source", 1),))),
    Option("src", _f("a_paid", "payment_trigger", on="payment")),
    Option("def", _f("d_paid", "payment_trigger", on="payment")),
    Option("src", _f("a_acts", "payment_trigger", on="acts")),
    Option("src", _f("a_closes", "payment_trigger", on="closes_after")),
    Option("src", _f("a_resmod", "resource_modification", resources=("close",), modifies="source")),
)
NOPT = len(OPTIONS)
OPT_INDEX = {o.feature.id: i for i, o in enumerate(OPTIONS)}

#: the world variables and their finite domains (as in generators/strategies.py)
WORLD_DOMAINS: dict[str, tuple[int, ...]] = {
    "w_kind": (0, 1, 2, 3), "w_hasdef": (0, 1), "w_needmag": (0, 1), "w_xcost": (0, 1), "w_costv": (0, 1, 2, 3, 4),
    "w_xtgt": (0, 1), "w_magx": (0, 1, 2, 3), "w_magprop": (0, 1), "w_pleft": (0, 1), "w_srcmov": (0, 1, 2, 3),
    "w_srcmod": (-1, 0, 1), "w_tgtmov": (0, 1, 2, 3), "w_tgtmod": (-1, 0, 1), "w_crys": (0, 1, 2, 3),
    "w_srcmk": (0, 1), "w_defmk": (0, 1), "w_defw": (0, 1, 2), "w_rmsrc": (0, 1, 2, 3), "w_rmlsrc": (1, 2),
    "w_rmdef": (0, 1, 2, 3), "w_rmldef": (1, 2), "w_thr": (0, 1, 2, 3),
}


def menu_world(pick: Callable, coin: Callable) -> dict[str, int]:
    """A valuation of the world variables drawn from the menu: ``pick(domain)`` chooses a value of each
    of ``WORLD_DOMAINS``, ``coin()`` whether each option is held; what ``init`` rules out is mended
    (a defender only for a simple strike, …).  Signed values are stored in their bit-vector form.

    >>> import random
    >>> rng = random.Random(0)
    >>> w = menu_world(rng.choice, lambda: rng.random() < 0.5)
    >>> w["w_hasdef"] == 0 or w["w_kind"] == 0
    True
    """
    v = {n: pick(dom) for n, dom in WORLD_DOMAINS.items()}
    attack = v["w_kind"] in (0, 1)
    if v["w_kind"] != 0:
        v["w_hasdef"] = 0
    if attack:
        v["w_needmag"], v["w_magx"] = 1, 0
    if v["w_magx"] != 2:
        v["w_magprop"] = 0
    if v["w_rmsrc"] != 3:
        v["w_rmlsrc"] = 1
    if v["w_rmdef"] != 3:
        v["w_rmldef"] = 1
    if not v["w_hasdef"]:
        v["w_rmdef"], v["w_defmk"], v["w_defw"] = 0, 0, 0
    for i, o in enumerate(OPTIONS):
        v[f"w_has{i}"] = int(coin() and (o.card != "def" or bool(v["w_hasdef"])))
    return {n: (x & 0xFF if n in ("w_srcmod", "w_tgtmod") else x) for n, x in v.items()}


@dataclass(frozen=True)
class Var:
    name: str
    width: int
    group: str  # world | core | hist


@dataclass(frozen=True)
class HistVar:
    """A history variable a property's Z3 form adds: ``update(sys, d, pre, post) -> new value``."""

    name: str
    width: int
    init: int
    update: Callable


@dataclass
class Disjunct:
    """One transition: at ``loc``, when ``guard``, do ``updates`` (a function of the pre-state)."""

    id: int
    loc: int
    event: str  # enter | <op> | window | pass | play | window_closed | goto | end | deadlock
    step: str
    step_kind: str
    clauses: tuple[str, ...]
    where: str
    skipped: bool = False
    op_index: int | None = None
    params: dict = field(default_factory=dict)
    option: int | None = None  # play: index into OPTIONS
    allows: tuple[str, ...] = ()  # window: the kinds it admits
    opener: str = ""
    uses_die: bool = False
    passes: int | None = None  # pass: the passes in a row before it (0: priority moves on, 1: closes)
    body: Callable | None = None  # (sys, pre, die) -> (guard, updates)

    @property
    def label(self) -> str:
        extra = f" {OPTIONS[self.option].feature.id}" if self.option is not None else ""
        skip = " (skipped)" if self.skipped else ""
        return f"{self.step}: {self.event}{extra}{skip} [{', '.join(self.clauses)}]"


def _bv(ctx, v: int, w: int):
    return z3.BitVecVal(v, w, ctx)


class System:
    """The compiled transition system of one rulebook (in its own ``z3.Context``)."""

    def __init__(self, rb: Rulebook, histories: tuple[HistVar, ...] = (), ctx: z3.Context | None = None) -> None:
        self.rb = rb
        self.ctx = ctx or z3.Context()
        self.histories = histories
        spec = rb.spec
        self.steps = list(spec.steps)
        self.kind_of = {s: spec.steps[s].kind for s in self.steps}
        self.faces = (rb.table("die_faces")["min"], rb.table("die_faces")["max"])
        self.strikes = rb.table("strike_table")
        self.words = rb.table("trigger_words")
        # locations
        self.locs: list[tuple] = []
        self.enter_loc: dict[str, int] = {}
        self.exit_loc: dict[str, int] = {}
        self.op_loc: dict[tuple[str, int], int] = {}
        self.turn_loc: dict[tuple[str, int], int] = {}
        self.close_loc: dict[tuple[str, int], int] = {}
        for s in self.steps:
            self.enter_loc[s] = self._add_loc(("enter", s))
            for i, op in enumerate(spec.steps[s].operations):
                self.op_loc[(s, i)] = self._add_loc(("op", s, i))
                if op.op == "window":
                    self.turn_loc[(s, i)] = self._add_loc(("turn", s, i))
                    self.close_loc[(s, i)] = self._add_loc(("close", s, i))
            self.exit_loc[s] = self._add_loc(("exit", s))
        self.done_end = self._add_loc(("done", "end"))
        self.done_deadlock = self._add_loc(("done", "deadlock"))
        self.pc_width = max(4, (len(self.locs) + 1).bit_length())
        self.start_pc = self.enter_loc[spec.start]
        # variables
        w = [Var(n, 8 if n in ("w_srcmod", "w_tgtmod") else 4, "world") for n in WORLD_DOMAINS]
        w += [Var(f"w_has{i}", 1, "world") for i in range(NOPT)]
        core = [("pc", self.pc_width), ("wpl", 1), ("wps", 2), *[(f"pl{i}", 1) for i in range(NOPT)], ("part", 3),
                ("pleft", 2), ("claims", 3), ("visited", len(self.steps))]
        for k in X_KINDS_SYM:
            core += [(f"x_{k}_ex", 1), (f"x_{k}_fx", 1), (f"x_{k}_rb", 1)]
        core += [("dxv", 8), ("rok", 2), ("rsv_done", 1), ("rsv", 3), ("ramt", 4), ("mod_src", 1), ("mod_def", 1),
                 ("lchk", 2), ("legal", 2), ("status", 3), ("blocked", 1), ("roll", 4), ("raw", 4), ("dconst", 8),
                 ("dxn", 2), ("dmods", 1), ("dapplied", 1), ("dfin", 8), ("dfset", 1), ("dstack", 1), ("retstr", 1),
                 ("magknown", 1), ("effapp", 1), ("roles", 1), ("paid", 3), ("paid_done", 1), ("onstack", 1),
                 ("src_closed", 1), ("src_mk", 2), ("src_zone", 1), ("src_mod", 8), ("src_crys", 8),
                 ("def_closed", 1), ("def_w", 2)]
        self.vars: list[Var] = w + [Var(n, k, "core") for n, k in core] + [Var(h.name, h.width, "hist")
                                                                            for h in histories]
        self.width = {v.name: v.width for v in self.vars}
        self.pre = self.frame("")
        self.post = self.frame("'")
        self.die = z3.BitVec("die", 4, self.ctx)
        self.act = z3.BitVec("act", 10, self.ctx)
        self.disjuncts: list[Disjunct] = []
        self._compile()
        self.by_loc: dict[int, list[Disjunct]] = {}
        for d in self.disjuncts:
            self.by_loc.setdefault(d.loc, []).append(d)

    # --- plumbing ---------------------------------------------------------------------------------------------
    def _add_loc(self, loc: tuple) -> int:
        self.locs.append(loc)
        return len(self.locs) - 1

    def loc_name(self, pc: int) -> str:
        loc = self.locs[pc]
        if loc[0] in ("enter", "exit"):
            return f"{loc[0]} {loc[1]}"
        if loc[0] == "done":
            return f"done ({loc[1]})"
        op = self.rb.spec.steps[loc[1]].operations[loc[2]]
        return f"{loc[0]} {loc[1]}#{loc[2]} {op.op}"

    def frame(self, suffix: str) -> dict:
        return {v.name: z3.BitVec(v.name + suffix, v.width, self.ctx) for v in self.vars}

    def val(self, v: int, name_or_width) -> z3.BitVecRef:
        w = self.width[name_or_width] if isinstance(name_or_width, str) else name_or_width
        return _bv(self.ctx, v, w)

    def t(self, e) -> z3.BoolRef:
        """A 0/1 variable as a Bool."""
        return e == _bv(self.ctx, 1, e.size())

    def b(self, cond) -> z3.BitVecRef:
        """A Bool as a 1-bit value."""
        return z3.If(cond, _bv(self.ctx, 1, 1), _bv(self.ctx, 0, 1))

    def bit(self, e, i: int) -> z3.BoolRef:
        return z3.Extract(i, i, e) == _bv(self.ctx, 1, 1)

    def setbit(self, e, i: int, on=True):
        mask = _bv(self.ctx, 1 << i, e.size())
        return e | mask if on is True else z3.If(on, e | mask, e)

    def true(self):
        return z3.BoolVal(True, self.ctx)

    def false(self):
        return z3.BoolVal(False, self.ctx)

    def sat_inc(self, e, top: int | None = None):
        top = (1 << e.size()) - 1 if top is None else top
        return z3.If(e == _bv(self.ctx, top, e.size()), e, e + _bv(self.ctx, 1, e.size()))

    # --- world predicates -----------------------------------------------------------------------------------
    def is_kind(self, S, *names) -> z3.BoolRef:
        return z3.Or([S["w_kind"] == self.val(KINDS.index(n), 4) for n in names])

    def is_attack(self, S):
        return self.is_kind(S, "simple_strike", "attack")

    def has(self, S, i: int):
        return self.t(S[f"w_has{i}"])

    def played(self, S, i: int):
        return self.t(S[f"pl{i}"])

    def card_present(self, S, card: str):
        return self.t(S["w_hasdef"]) if card == "def" else self.true()

    def exempt(self, S, exempt_modified: bool = True, markers_src=None) -> tuple:
        """(source's close exempt, defender's close exempt): the meaning :func:`.semantics.exempts` of
        each 540.1 text the menu may give the card (its form a world variable), or a 540.4 modification
        of the action.  ``markers_src``: the source's markers to count (default: the vector's)."""
        if not exempt_modified:
            return self.false(), self.false()
        out = []
        for card, form, limit, mod in (("src", "w_rmsrc", "w_rmlsrc", "mod_src"), ("def", "w_rmdef", "w_rmldef", "mod_def")):
            E = Symbolic(self, S, card, markers=markers_src if card == "src" else None)
            held = []
            for i, name in enumerate(RM_FORMS):
                if name is None:
                    continue
                f = resource_modifier(card, name, 1)
                lim = S[limit] if f.limit is not None else None
                held.append(z3.And(S[form] == self.val(i, form), exempts(E, f.form, lim, f.applies_to)))
            out.append(z3.Or(*held, self.t(S[mod])))
        return tuple(out)

    def guard(self, text: str, S) -> z3.BoolRef:
        """A ``when:`` guard: its meaning (:mod:`.semantics`) as a term over ``S``."""
        return guard_text(Symbolic(self, S), text)

    # --- the system ------------------------------------------------------------------------------------------
    def init(self, S=None) -> z3.BoolRef:
        """Initial states: every world of the menu, the action about to be declared."""
        S = S or self.pre
        c = []
        for n, dom in WORLD_DOMAINS.items():
            c.append(z3.Or([S[n] == self.val(v & ((1 << self.width[n]) - 1), n) for v in dom]))
        att = self.is_attack(S)
        c += [z3.Implies(self.t(S["w_hasdef"]), self.is_kind(S, "simple_strike")),
              z3.Implies(att, z3.And(self.t(S["w_needmag"]), S["w_magx"] == self.val(0, 4))),
              z3.Implies(S["w_magx"] != self.val(2, 4), S["w_magprop"] == self.val(0, 4))]
        c.append(z3.Implies(S["w_magx"] != self.val(2, 4), S["w_magprop"] == self.val(0, 4)))
        c += [z3.Implies(S["w_rmsrc"] != self.val(3, 4), S["w_rmlsrc"] == self.val(1, 4)),
              z3.Implies(S["w_rmdef"] != self.val(3, 4), S["w_rmldef"] == self.val(1, 4))]
        for i, o in enumerate(OPTIONS):
            if o.card == "def":
                c.append(z3.Implies(self.has(S, i), self.t(S["w_hasdef"])))
        c.append(z3.Implies(z3.Not(self.t(S["w_hasdef"])), z3.And(S["w_rmdef"] == self.val(0, 4),
                                                                    S["w_defmk"] == self.val(0, 4),
                                                                    S["w_defw"] == self.val(0, 4))))
        core = self.core_init(S)
        c += [S[n] == v for n, v in core.items()]
        c += [S[h.name] == self.val(h.init, h.width) for h in self.histories]
        return z3.And(c)

    def core_init(self, S) -> dict:
        z = lambda n: self.val(0, n)  # noqa: E731
        out = {v.name: z(v.name) for v in self.vars if v.group == "core"}
        out.update(pc=self.val(self.start_pc, "pc"), pleft=z3.Extract(1, 0, S["w_pleft"]),
                   onstack=self.val(1, 1), src_zone=self.val(1, 1), src_mod=S["w_srcmod"],
                   src_crys=z3.ZeroExt(4, S["w_crys"]), src_mk=z3.Extract(1, 0, S["w_srcmk"]),
                   def_w=z3.Extract(1, 0, S["w_defw"]))
        out["x_cost_ex"] = z3.Extract(0, 0, S["w_xcost"])
        out["x_targets_ex"] = z3.Extract(0, 0, S["w_xtgt"])
        for i, k in enumerate(MAGX):
            if k:
                out[f"x_{k}_ex"] = self.b(S["w_magx"] == self.val(i, 4))
        return out

    def trans(self, pre=None, post=None, die=None, act=None, only=None, keep=None) -> z3.BoolRef:
        """The transition relation: one disjunct per operation / window turn (``only``: a subset),
        each stating only what it changes; the frame is one clause per variable (world variables
        never change; any other keeps its value unless the disjunct taken changes it).  ``keep``: state
        only these variables' next values (the others are left free)."""
        pre, post = pre or self.pre, post or self.post
        die = self.die if die is None else die
        act = self.act if act is None else act
        touching: dict[str, list[int]] = {}
        ors = []
        for d in (only or self.disjuncts):
            guard, changes = self.step_of(d, pre, die)
            if keep is not None:
                changes = {n: e for n, e in changes.items() if n in keep}
            for n in changes:
                touching.setdefault(n, []).append(d.id)
            ors.append(z3.And(act == _bv(self.ctx, d.id, 10), guard, *[post[n] == e for n, e in changes.items()]))
        frame = []
        for v in self.vars:
            if keep is not None and v.name not in keep:
                continue
            ids = touching.get(v.name, [])
            if not ids:
                frame.append(post[v.name] == pre[v.name])
            elif len(ids) < len(only or self.disjuncts):
                frame.append(z3.Or(post[v.name] == pre[v.name], *[act == _bv(self.ctx, i, 10) for i in ids]))
        return z3.And(z3.Or(ors), *frame)

    def step_of(self, d: Disjunct, pre, die):
        """(guard, changed variables → new values) of one disjunct from a pre-state."""
        guard, upd = d.body(self, pre, die)
        guard = z3.And(pre["pc"] == self.val(d.loc, "pc"), guard)
        changes = {n: (self.val(e, n) if isinstance(e, int) else e) for n, e in upd.items() if not z3.eq(e, pre[n])}
        new = {v.name: changes.get(v.name, pre[v.name]) for v in self.vars if v.group != "hist"}
        for h in self.histories:
            e = h.update(self, d, pre, new)
            if not z3.eq(e, pre[h.name]):
                changes[h.name] = e
        return guard, changes

    # --- compilation ---------------------------------------------------------------------------------------
    def _where(self, path: tuple) -> str:
        try:
            return str(self.rb.where(path))
        except Exception:  # pragma: no cover - a location is a nicety
            return ""

    def _add(self, **kw) -> Disjunct:
        d = Disjunct(id=len(self.disjuncts), **kw)
        self.disjuncts.append(d)
        return d

    def next_loc(self, s: str, i: int) -> int:
        """The location after operation ``i`` of step ``s`` (the next operation's, or the step's exit)."""
        ops = self.rb.spec.steps[s].operations
        return self.op_loc[(s, i + 1)] if i + 1 < len(ops) else self.exit_loc[s]

    def _compile(self) -> None:
        spec = self.rb.spec
        for s in self.steps:
            st = spec.steps[s]
            kind = st.kind
            base = dict(step=s, step_kind=kind)
            first = self.op_loc[(s, 0)] if st.operations else self.exit_loc[s]
            si = self.steps.index(s)
            self._add(loc=self.enter_loc[s], event="enter", clauses=tuple(st.cites), where=self._where(("steps", s)),
                      body=lambda sy, S, die, first=first, si=si: (sy.true(), {
                          "pc": sy.val(first, "pc"), "visited": sy.setbit(S["visited"], si)}), **base)
            for i, op in enumerate(st.operations):
                where = self._where(("steps", s, "operations", i))
                nxt = self.next_loc(s, i)
                common = dict(clauses=tuple(op.cites), where=where, op_index=i, params=op.params, **base)
                if op.op == "window":
                    self._window(s, i, op, nxt, common)
                    continue
                gtext = op.when
                self._add(loc=self.op_loc[(s, i)], event=op.op, skipped=True,
                          body=lambda sy, S, die, g=gtext, nxt=nxt: (z3.Not(sy.guard(g, S)), {"pc": sy.val(nxt, "pc")}),
                          **common)
                meaning = OPS[op.op]
                self._add(loc=self.op_loc[(s, i)], event=op.op, uses_die=op.op == "roll_die",
                          body=lambda sy, S, die, g=gtext, nxt=nxt, m=meaning, p=op.params, k=kind, si=si: _op_body(
                              sy, S, die, g, nxt, m, p, k), **common)
            ex = self.exit_loc[s]
            if not st.next:
                self._add(loc=ex, event="end", clauses=tuple(st.cites), where=self._where(("steps", s)),
                          body=lambda sy, S, die: (sy.true(), {"pc": sy.val(sy.done_end, "pc")}), **base)
                continue
            for j, edge in enumerate(st.next):
                earlier = [e.when for e in st.next[:j]]
                self._add(loc=ex, event="goto", clauses=tuple(edge.cites), where=self._where(("steps", s, "next", j)),
                          params={"to": edge.to, "guard": edge.when},
                          body=lambda sy, S, die, g=edge.when, earlier=earlier, to=edge.to: (
                              z3.And(sy.guard(g, S), *[z3.Not(sy.guard(e, S)) for e in earlier]),
                              {"pc": sy.val(sy.enter_loc[to], "pc")}), **base)
            gs = [e.when for e in st.next]
            self._add(loc=ex, event="deadlock", clauses=tuple(st.cites), where=self._where(("steps", s)),
                      body=lambda sy, S, die, gs=gs: (z3.And(*[z3.Not(sy.guard(g, S)) for g in gs]),
                                                      {"pc": sy.val(sy.done_deadlock, "pc")}), **base)

    def _window(self, s: str, i: int, op, nxt: int, common: dict) -> None:
        allows = tuple(op.params["allows"])
        opener = 0 if op.params["first"] == "active_player" else 1  # the active player is A
        turn, close = self.turn_loc[(s, i)], self.close_loc[(s, i)]
        kw = dict(common, allows=allows, opener="AB"[opener])
        gtext = op.when  # a window's guard skips it as it skips any operation
        self._add(loc=self.op_loc[(s, i)], event="window", skipped=True,
                  body=lambda sy, S, die, g=gtext: (z3.Not(sy.guard(g, S)), {"pc": sy.val(nxt, "pc")}), **kw)
        self._add(loc=self.op_loc[(s, i)], event="window",
                  body=lambda sy, S, die, g=gtext: (sy.guard(g, S), {"pc": sy.val(turn, "pc"), "wpl": sy.val(opener, 1),
                                                       "wps": sy.val(0, 2),
                                                       **{f"pl{j}": sy.val(0, 1) for j in range(NOPT)}}), **kw)
        for passes, to in ((0, turn), (1, close)):
            self._add(loc=turn, event="pass", passes=passes,
                      body=lambda sy, S, die, passes=passes, to=to: (S["wps"] == sy.val(passes, 2), {
                          "pc": sy.val(to, "pc"), "wps": sy.val(passes + 1, 2), "wpl": ~S["wpl"]}), **kw)
        for oi, o in enumerate(OPTIONS):
            if o.feature.kind not in allows:
                continue
            self._add(loc=turn, event="play", option=oi, uses_die=o.feature.kind == "reroll",
                      body=lambda sy, S, die, oi=oi: _play_body(sy, S, die, oi, opener), **kw)
        self._add(loc=close, event="window_closed", body=lambda sy, S, die: (sy.true(), {"pc": sy.val(nxt, "pc")}),
                  **kw)

    # --- offers (shared with the properties) ---------------------------------------------------------------
    def playable(self, S, oi: int) -> z3.BoolRef:
        """May the card holding option ``oi`` play it now: the meaning :func:`.semantics.offer`."""
        o = OPTIONS[oi]
        return offer(Symbolic(self, S, o.card), o.feature, self.words)

    def offered(self, S, oi: int, allows: tuple[str, ...], player) -> z3.BoolRef:
        """Option ``oi`` is among the player's options at a turn of a window admitting ``allows``."""
        o = OPTIONS[oi]
        if o.feature.kind not in allows:
            return self.false()
        return z3.And(self.has(S, oi), player == self.val("AB".index(o.player), 1),
                      z3.Not(self.played(S, oi)), self.playable(S, oi))


# --- the meaning of each operation (what it does to the vector) -----------------------------------------------

def _op_body(sy: System, S, die, gtext: str, nxt: int, meaning, params: dict, step_kind: str):
    g, upd = meaning(sy, S, die, params, step_kind)
    upd = dict(upd)
    upd["pc"] = sy.val(nxt, "pc")
    return z3.And(sy.guard(gtext, S), g), upd


def _declare(sy: System, S, die, p, k):
    part = sy.sat_inc(S["part"])
    fresh = S["part"] != sy.val(0, 3)
    upd = {"part": part, "claims": sy.sat_inc(S["claims"]),
           "pleft": z3.If(z3.And(fresh, S["pleft"] != sy.val(0, 2)), S["pleft"] - sy.val(1, 2), S["pleft"])}
    reset = {"legal": 0, "lchk": 0, "blocked": 0, "roll": 0, "raw": 0, "dconst": 0, "dxn": 0, "dmods": 0,
             "dapplied": 0, "dfin": 0, "dfset": 0, "dstack": 0, "retstr": 0, "magknown": 0, "effapp": 0,
             "status": 0, "roles": 0}
    for n, v in reset.items():
        upd[n] = z3.If(fresh, sy.val(v, n), S[n])
    return sy.true(), upd


def _prop_read(sy: System, S, card: str, reads: str):
    """(printed, value as read) of a card's movement allowance."""
    printed = {"src": S["w_srcmov"], "tgt": S["w_tgtmov"]}[card]
    printed = z3.ZeroExt(4, printed)
    mod = {"src": S["src_mod"], "tgt": S["w_tgtmod"]}[card]
    return printed, (printed if reads == "printed" else printed + mod)


def _fix_x(sy: System, S, die, p, k):
    kind, reads = p["x"], p.get("reads", "printed")
    ex = S[f"x_{kind}_ex"]
    upd = {f"x_{kind}_fx": z3.If(sy.t(ex), sy.val(1, 1), S[f"x_{kind}_fx"])}
    card = None
    if kind in ("magnitude_computed", "implicit"):
        card = "tgt"  # compute option ("property", "target", "movement") when w_magprop
        printed, read = _prop_read(sy, S, card, reads)
        bad = z3.And(sy.t(S["w_magprop"]), read != printed)
        upd[f"x_{kind}_rb"] = z3.If(sy.t(ex), sy.b(bad), S[f"x_{kind}_rb"])
    elif kind in ("dice_modifier", "magnitude_modifier"):
        printed, read = _prop_read(sy, S, "src", reads)
        upd[f"x_{kind}_rb"] = z3.If(sy.t(ex), sy.b(read != printed), S[f"x_{kind}_rb"])
        if kind == "dice_modifier":
            upd["dxv"] = z3.If(sy.t(ex), read, S["dxv"])
    return sy.true(), upd


def _check_resources(sy: System, S, die, p, k):
    short = z3.And(sy.t(S["x_cost_ex"]), z3.Or(z3.Not(sy.t(S["x_cost_fx"])),
                                              S["src_crys"] < z3.ZeroExt(4, S["w_costv"])))
    return sy.true(), {"rok": z3.If(short, sy.val(2, 2), sy.val(1, 2))}


def _reserve(sy: System, S, die, p, k):
    include = p.get("include_modified", True)
    es, ed = sy.exempt(S, True)
    want = [sy.true(), sy.t(S["w_hasdef"]), sy.t(S["x_cost_ex"])]
    if not include:
        want = [z3.And(want[0], z3.Not(es)), z3.And(want[1], z3.Not(ed)), want[2]]
    rsv = z3.Concat(sy.b(want[2]), sy.b(want[1]), sy.b(want[0]))
    amt = z3.If(sy.t(S["x_cost_fx"]), S["w_costv"], sy.val(0, 4))
    return sy.true(), {"rsv": rsv, "rsv_done": sy.val(1, 1), "ramt": z3.If(want[2], amt, sy.val(0, 4))}


def _resolve(sy, S, die, p, k):
    return sy.true(), {"claims": sy.val(0, 3)}


def _roll(sy: System, S, die, p, k):
    lo, hi = sy.faces
    return (z3.And(z3.UGE(die, _bv(sy.ctx, lo, 4)), z3.ULE(die, _bv(sy.ctx, hi, 4))),
            {"roll": die, "dstack": sy.val(1, 1)})


def _fix_raw(sy, S, die, p, k):
    return sy.true(), {"raw": S["roll"]}


def _raw_or_last(sy, S):
    v = z3.If(S["raw"] != sy.val(0, 4), S["raw"], S["roll"])
    return v != sy.val(0, 4), z3.ZeroExt(4, v)


def _apply_dice(sy: System, S, die, p, k):
    have, v = _raw_or_last(sy, S)
    xpart = z3.If(sy.t(S["x_dice_modifier_fx"]), z3.ZeroExt(6, S["dxn"]) * S["dxv"], sy.val(0, 8))
    final = v + S["dconst"] + xpart
    return sy.true(), {"dfin": z3.If(have, final, sy.val(0, 8)), "dfset": sy.b(have), "dapplied": sy.val(1, 1)}


def _fix_final(sy: System, S, die, p, k):
    have, v = _raw_or_last(sy, S)
    app = sy.t(S["dapplied"])
    return sy.true(), {"dfin": z3.If(app, S["dfin"], z3.If(have, v, sy.val(0, 8))),
                       "dfset": z3.If(app, S["dfset"], sy.b(have))}


def _remove_die(sy, S, die, p, k):
    return sy.true(), {"dstack": sy.val(0, 1)}


def _determine(sy: System, S, die, p, k):
    rets = [int(v) for v, row in sy.strikes.items() if row[1] != "none" and str(v).lstrip("-").isdigit()]
    hit = z3.Or([S["dfin"] == sy.val(v & 0xFF, 8) for v in rets]) if rets else sy.false()
    ret = z3.And(sy.is_attack(S), sy.t(S["w_hasdef"]), sy.t(S["dfset"]), hit)
    return sy.true(), {"retstr": z3.If(sy.is_attack(S), sy.b(ret), S["retstr"])}


def _legality(sy: System, S, die, p, k):
    zone = sy.t(S["src_zone"])
    return sy.true(), {"lchk": sy.sat_inc(S["lchk"]), "legal": z3.If(zone, sy.val(LEGAL[True], "legal"), sy.val(LEGAL[False], "legal")),
                       "status": z3.If(zone, S["status"], sy.val(STATUS["illegal"], 3))}


def _nothing(sy, S, die, p, k):
    return sy.true(), {}


def _finalize(sy, S, die, p, k):
    return sy.true(), {"magknown": sy.val(1, 1)}


def _apply_effect(sy, S, die, p, k):
    return sy.true(), {"effapp": sy.val(1, 1), "status": sy.val(STATUS["hit"], 3)}


def _release(sy, S, die, p, k):
    return sy.true(), {"roles": sy.val(1, 1)}


def _pay(sy: System, S, die, p, k):
    es, ed = sy.exempt(S, p.get("exempt_modified", True))
    r = S["rsv"]
    pay_sc = z3.And(sy.bit(r, 0), z3.Not(es))
    pay_dc = z3.And(sy.bit(r, 1), z3.Not(ed))
    pay_cr = sy.bit(r, 2)
    paid = z3.Concat(sy.b(pay_cr), sy.b(pay_dc), sy.b(pay_sc))
    return sy.true(), {"paid": paid, "paid_done": sy.val(1, 1),
                       "src_closed": z3.If(pay_sc, sy.val(1, 1), S["src_closed"]),
                       "def_closed": z3.If(pay_dc, sy.val(1, 1), S["def_closed"]),
                       "src_crys": z3.If(pay_cr, S["src_crys"] - z3.ZeroExt(4, S["ramt"]), S["src_crys"])}


def _marker(sy, S, die, p, k):
    return sy.true(), {"src_mk": sy.sat_inc(S["src_mk"])}


def _remove_stack(sy, S, die, p, k):
    return sy.true(), {"onstack": sy.val(0, 1)}


OPS: dict[str, Callable] = {
    "declare": _declare, "fix_x": _fix_x, "check_resources": _check_resources, "reserve_resources": _reserve,
    "resolve_claims": _resolve, "roll_die": _roll, "fix_raw_die": _fix_raw, "apply_dice_modifiers": _apply_dice,
    "fix_final_die": _fix_final, "remove_die_effect": _remove_die, "determine_base": _determine,
    "check_source_legality": _legality, "apply_magnitude_modifiers": _nothing, "finalize_magnitude": _finalize,
    "apply_effect": _apply_effect, "release_roles": _release, "pay_reserved": _pay, "give_action_marker": _marker,
    "remove_from_stack": _remove_stack,
}


def _play_body(sy: System, S, die, oi: int, opener: int):
    o = OPTIONS[oi]
    f = o.feature
    guard = [sy.offered(S, oi, (f.kind,), S["wpl"])]
    upd = {f"pl{oi}": sy.val(1, 1), "wps": sy.val(0, 2), "wpl": sy.val(opener, 1)}
    if f.kind == "reroll":
        lo, hi = sy.faces
        guard += [z3.UGE(die, _bv(sy.ctx, lo, 4)), z3.ULE(die, _bv(sy.ctx, hi, 4))]
        upd["roll"] = die
    elif f.kind == "dice_modifier":
        upd["dmods"] = sy.val(1, 1)
        if f.x is not None:
            new = z3.Not(sy.t(S["x_dice_modifier_ex"]))
            upd.update(x_dice_modifier_ex=sy.val(1, 1), dxn=sy.sat_inc(S["dxn"]),
                       x_dice_modifier_fx=z3.If(new, sy.val(0, 1), S["x_dice_modifier_fx"]),
                       x_dice_modifier_rb=z3.If(new, sy.val(0, 1), S["x_dice_modifier_rb"]),
                       dxv=z3.If(new, sy.val(0, 8), S["dxv"]))
        else:
            n = sy.val(f.amount & 0xFF, 8)
            upd["dconst"] = S["dconst"] + n if f.mode == "add" else S["dconst"] - n
            assert f.mode in ("add", "sub")
    elif f.kind == "magnitude_modifier":
        if f.x is not None:
            new = z3.Not(sy.t(S["x_magnitude_modifier_ex"]))
            upd.update(x_magnitude_modifier_ex=sy.val(1, 1),
                       x_magnitude_modifier_fx=z3.If(new, sy.val(0, 1), S["x_magnitude_modifier_fx"]),
                       x_magnitude_modifier_rb=z3.If(new, sy.val(0, 1), S["x_magnitude_modifier_rb"]))
    elif f.kind == "block":
        upd.update(blocked=sy.val(1, 1), status=sy.val(STATUS["blocked"], 3))
    elif f.kind == "resource_modification":
        assert f.modifies == "source"
        upd["mod_src"] = sy.val(1, 1)
    elif f.kind == "reduce_to_strength":
        pass
    else:  # effects
        for e in f.effects:
            ref = o.card if e.card == "self" else {"source": "src", "target": "tgt"}.get(e.card, e.card)
            if e.do == "leave_zone" and ref == "src":
                upd["src_zone"] = sy.val(0, 1)
            elif e.do == "add_modifier" and ref == "src" and e.prop == "movement":
                upd["src_mod"] = S["src_mod"] + sy.val(e.amount, 8)
            elif e.do == "heal" and ref == "def":
                w = S["def_w"]
                upd["def_w"] = z3.If(z3.UGE(w, sy.val(e.amount, 2)), w - sy.val(e.amount, 2), sy.val(0, 2))
        if f.then_if_healthy:
            assert o.card == "def" and f.then_if_healthy == ("close",)
            upd["mod_def"] = z3.If(upd.get("def_w", S["def_w"]) == sy.val(0, 2), sy.val(1, 1), S["mod_def"])
    return z3.And(guard), upd


def compile_rulebook(rb: Rulebook, histories: tuple[HistVar, ...] = (), ctx: z3.Context | None = None) -> System:
    """The Z3 transition system of ``rb`` (a fresh ``z3.Context`` unless one is given)."""
    return System(rb, histories, ctx)


# --- from a model back to a concrete world, and from a concrete state to the vector ---------------------------

def _signed(v: int, w: int) -> int:
    return v - (1 << w) if v >= 1 << (w - 1) else v


def world_state(values: dict[str, int]) -> State:
    """The concrete world (cards, features, the action) a valuation of the world variables stands for."""
    v = {n: (_signed(x, 8) if n in ("w_srcmod", "w_tgtmod") else x) for n, x in values.items()}
    has = v["w_has"] if "w_has" in v else sum(v[f"w_has{i}"] << i for i in range(NOPT))
    feats: dict[str, list[Feature]] = {c: [] for c in ("src", "tgt", "allyA", "allyB", "def")}
    for i, o in enumerate(OPTIONS):
        if has >> i & 1:
            feats[o.card].append(o.feature)
    if v["w_rmsrc"]:
        feats["src"].append(resource_modifier("src", RM_FORMS[v["w_rmsrc"]], v["w_rmlsrc"]))
    if v["w_rmdef"]:
        feats["def"].append(resource_modifier("def", RM_FORMS[v["w_rmdef"]], v["w_rmldef"]))
    if v["w_thr"]:
        feats["tgt"].append(Feature("tgt_guard", "static_modifier", amount=-1,
                                    condition=("source_at_least", "movement", v["w_thr"]),
                                    applies_to=("simple_strike", "attack")))

    def card(cid, ctrl, mov=1, mod=0, wounds=0, markers=0, crys=0):
        printed = (("health", 5), ("movement", mov), ("named_power", 1), ("strike_medium", 2),
                   ("strike_strong", 3), ("strike_weak", 1))
        return Card(cid, cid, ctrl, printed=printed, modifiers=(("movement", mod),), wounds=wounds,
                    action_markers=markers, resources=(("close", 1), ("crystal", crys)), features=tuple(feats[cid]))

    cards = [card("src", "A", v["w_srcmov"], v["w_srcmod"], markers=v["w_srcmk"], crys=v["w_crys"]),
             card("tgt", "B", v["w_tgtmov"], v["w_tgtmod"]), card("allyA", "A"), card("allyB", "B")]
    kind = KINDS[v["w_kind"]]
    hasdef = bool(v["w_hasdef"])
    if hasdef:
        cards.append(card("def", "B", wounds=v["w_defw"], markers=v["w_defmk"]))
    xs, cost = [], [("src", "close", "1")]
    if hasdef:
        cost.append(("def", "close", "1"))
    if v["w_xcost"]:
        xs.append(XVar("X_cost", "cost", chosen=v["w_costv"]))
        cost.append(("src", "crystal", "X_cost"))
    if v["w_xtgt"]:
        xs.append(XVar("X_targets", "targets", chosen=1))
    magx = MAGX[v["w_magx"]]
    if magx == "magnitude_chosen":
        xs.append(XVar("X_mag", magx, chosen=2))
    elif magx:
        compute = ("property", "target", "movement") if v["w_magprop"] else ("wounds", "source", "")
        xs.append(XVar("X_mag", magx, compute=compute))
    attack = kind in ("simple_strike", "attack")
    action = Action(feature="act", kind=kind, source="src", targets=("tgt",), defender="def" if hasdef else None,
                    needs_magnitude=bool(v["w_needmag"]), magnitude_base=None if magx or attack else 1,
                    xs=tuple(xs), cost=tuple(cost), parts_left=v["w_pleft"])
    return State(cards=tuple(cards), action=action)


def world_of(state: State) -> dict[str, int] | None:
    """The world variables of a concrete world built by :func:`world_state` (None: not in the menu)."""
    a = state.action
    try:
        src, tgt = state.card("src"), state.card("tgt")
    except KeyError:
        return None
    ids = {f.id: c.id for c in state.cards for f in c.features}
    has = 0
    for fid, cid in ids.items():
        if fid in OPT_INDEX:
            if OPTIONS[OPT_INDEX[fid]].card != cid:
                return None
            has |= 1 << OPT_INDEX[fid]
    hasdef = a.defender is not None
    d = state.card("def") if hasdef else None
    rm = lambda c, fid: next((f for f in c.features if f.id == fid), None) if c else None  # noqa: E731
    rs, rd = rm(src, "src_rm"), rm(d, "def_rm")
    thr = rm(tgt, "tgt_guard")
    x = {xv.kind: xv for xv in a.xs}
    magx = next((i for i, k in enumerate(MAGX) if k and k in x), 0)
    return {"w_kind": KINDS.index(a.kind), "w_hasdef": int(hasdef), "w_needmag": int(a.needs_magnitude),
            "w_xcost": int("cost" in x), "w_costv": x["cost"].chosen if "cost" in x else 0,
            "w_xtgt": int("targets" in x), "w_magx": magx,
            "w_magprop": int(magx and x[MAGX[magx]].compute is not None and x[MAGX[magx]].compute[0] == "property"),
            "w_pleft": a.parts_left, "w_srcmov": src.printed_value("movement"),
            "w_srcmod": src.current_value("movement") - src.printed_value("movement") & 0xFF,
            "w_tgtmov": tgt.printed_value("movement"),
            "w_tgtmod": tgt.current_value("movement") - tgt.printed_value("movement") & 0xFF,
            "w_crys": src.resource("crystal"), "w_srcmk": src.action_markers, "w_defmk": d.action_markers if d else 0,
            "w_defw": d.wounds if d else 0, "w_rmsrc": RM_FORMS.index(rs.form) if rs else 0,
            "w_rmlsrc": rs.limit if rs and rs.limit else 1, "w_rmdef": RM_FORMS.index(rd.form) if rd else 0,
            "w_rmldef": rd.limit if rd and rd.limit else 1, "w_thr": thr.condition[2] if thr else 0,
            **{f"w_has{i}": has >> i & 1 for i in range(NOPT)}}


def beyond_bounds(state: State) -> str | None:
    """What of a concrete state the vector cannot hold exactly (a counter or value past its
    bit-width, where :func:`abstract` would clamp it and the encoding would compute with the clamped
    value), or None: within those bounds the encoding is exact, beyond them it is not."""
    a = state.action
    n = sum(1 for _, amount in a.dice_mods if not isinstance(amount, int))
    if n > 3:
        return f"{n} dice modifiers with an X (the model counts up to 3)"
    for what, v in (("die", a.die_rolls[-1] if a.die_rolls else 0), ("raw die", a.die_raw or 0)):
        if not 0 <= v <= 15:
            return f"{what} {v} (the model holds 0..15)"
    for what, v in (("final die", a.die_final or 0),):
        if not -128 <= v <= 127:
            return f"{what} {v} (the model holds -128..127)"
    return None


def abstract(sys: System, state: State, world: dict[str, int], pc: int, wpl: int = 0, wps: int = 0,
             played: int = 0) -> dict[str, int]:
    """The vector (world + core variables) of a concrete interpreter state at location ``pc``."""
    a = state.action
    src = state.card("src")
    d = state.card("def") if world["w_hasdef"] else None
    out = dict(world)
    out.update({f"pl{i}": played >> i & 1 for i in range(NOPT)})
    out.update(pc=pc, wpl=wpl, wps=wps, part=min(a.declared, 7), pleft=a.parts_left,
               claims=min(len(state.claims), 7),
               visited=sum(1 << sys.steps.index(s) for s in set(state.visited)))
    for k in X_KINDS_SYM:
        xv = next((x for x in a.xs if x.kind == k), None)
        out[f"x_{k}_ex"] = int(xv is not None)
        out[f"x_{k}_fx"] = int(xv is not None and xv.value is not None)
        rb = 0
        if xv is not None and xv.value is not None and xv.compute and xv.compute[0] == "property":
            who = {"self": xv.owner or a.source, "source": a.source, "target": a.targets[0]}.get(xv.compute[1])
            rb = int(xv.value != state.card(who).printed_value(xv.compute[2]))
        out[f"x_{k}_rb"] = rb
    dx = next((x for x in a.xs if x.kind == "dice_modifier"), None)
    out["dxv"] = (dx.value if dx is not None and dx.value is not None else 0) & 0xFF
    out["rok"] = {None: 0, True: 1, False: 2}[a.resources_ok]
    out["rsv_done"] = int(a.reserved_done)
    keys = {(c, r) for c, r, _ in a.reserved}
    out["rsv"] = int(("src", "close") in keys) | int(("def", "close") in keys) << 1 | int(("src", "crystal") in keys) << 2
    out["ramt"] = next((n for c, r, n in a.reserved if r == "crystal"), 0)
    mods = {(m.card, r) for m in a.modifications for r in m.resources}
    out["mod_src"], out["mod_def"] = int(("src", "close") in mods), int(("def", "close") in mods)
    out.update(lchk=min(a.legality_checks, 3), legal=LEGAL[a.legal], status=STATUS[a.status],
               blocked=int(a.blocked), roll=a.die_rolls[-1] if a.die_rolls else 0, raw=a.die_raw or 0)
    const, n = 0, 0
    for mode, amount in a.dice_mods:
        if isinstance(amount, int):
            const += amount if mode == "add" else -amount
        else:
            n += 1
    out.update(dconst=const & 0xFF, dxn=min(n, 3), dmods=int(bool(a.dice_mods)), dapplied=int(a.dice_mods_applied),
               dfin=(a.die_final or 0) & 0xFF, dfset=int(a.die_final is not None), dstack=int(a.die_effect_on_stack),
               retstr=int(a.return_strike), magknown=int(a.magnitude_known), effapp=int(a.effect_applied),
               roles=int(a.roles_released), paid_done=int(a.paid_done), onstack=int(a.on_stack))
    pk = {(c, r) for c, r, _ in a.paid}
    out["paid"] = int(("src", "close") in pk) | int(("def", "close") in pk) << 1 | int(("src", "crystal") in pk) << 2
    out.update(src_closed=int(src.closed), src_mk=min(src.action_markers, 3), src_zone=int(src.in_active_zone),
               src_mod=(src.current_value("movement") - src.printed_value("movement")) & 0xFF,
               src_crys=src.resource("crystal") & 0xFF, def_closed=int(d.closed) if d else 0,
               def_w=min(d.wounds, 3) if d else 0)
    return out
