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
(:mod:`ruleproof.properties.monitor_z3`) add history variables on top.

>>> from ruleproof.model.rulebook import load_rulebook
>>> sys = compile_rulebook(load_rulebook())
>>> sys.loc_name(sys.start_pc), len(sys.disjuncts) > 50
('enter declaration', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import z3

from ruleproof.ground.interrupt import context as z3_context

from .abstraction import abstract, beyond_bounds
from .algebra_z3 import Symbolic
from .encoding import OPS, op_body, play_body
from .exempts import exempts
from .fields import STATUS_CODES
from .menu import (
    KINDS,
    MAGX,
    NOPT,
    OPT_INDEX,
    OPTIONS,
    RM_FORMS,
    WORLD_DOMAINS,
    WORLD_RULES,
    X_KINDS_SYM,
    Option,
    menu_world,
    resource_modifier,
    world_of,
    world_state,
)
from .rulebook import Rulebook
from .semantics import guard_text, offer

__all__ = ["Var", "Disjunct", "System", "compile_rulebook", "OPTIONS", "Option", "WORLD_DOMAINS", "X_KINDS_SYM",
           "menu_world", "world_state", "abstract", "beyond_bounds", "KINDS", "STATUS", "HistVar", "world_of",
           "OPS", "NOPT", "OPT_INDEX", "RM_FORMS", "MAGX", "resource_modifier"]

STATUS = STATUS_CODES


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
        self.ctx = ctx or z3_context()
        self.histories = histories
        spec = rb.spec
        self.steps = list(spec.steps)
        self.kind_of = {s: spec.steps[s].kind for s in self.steps}
        self.faces = (rb.table("die_faces")["min"], rb.table("die_faces")["max"])
        self.strikes = rb.table("strike_table")
        self.words = rb.table("trigger_words")
        self.assault = tuple(rb.table("assault_strikes")["closes_after"])
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
        w = [Var(n, 8 if n in ("w_src_movement_mod", "w_tgt_movement_mod") else 4, "world") for n in WORLD_DOMAINS]
        w += [Var(f"w_holds{i}", 1, "world") for i in range(NOPT)]
        core = [("pc", self.pc_width), ("window_player", 1), ("window_passes", 2), *[(f"played{i}", 1) for i in range(NOPT)], ("part", 3),
                ("parts_left", 2), ("claims", 3), ("visited", len(self.steps))]
        for k in X_KINDS_SYM:
            core += [(f"x_{k}_declared", 1), (f"x_{k}_fixed", 1), (f"x_{k}_not_printed", 1)]
        core += [("dice_x_value", 8), ("resources_ok", 2), ("use_void", 1), ("reserved_done", 1), ("reserved", 3), ("reserved_crystals", 4), ("modified_src", 1), ("modified_def", 1), ("waived_src", 1), ("cond_def", 1),
                 ("legality_checks", 2), ("legal", 2), ("status", 3), ("blocked", 1), ("last_roll", 4), ("raw_die", 4), ("dice_const", 8),
                 ("dice_x_count", 2), ("dice_mods_declared", 1), ("dice_mods_applied", 1), ("final_die", 8), ("final_die_set", 1), ("die_off_table", 1), ("die_on_stack", 1), ("return_strike", 1), ("reduced", 1),
                 ("magnitude_known", 1), ("effect_applied", 1), ("roles_released", 1), ("paid", 3), ("paid_done", 1), ("on_stack", 1),
                 ("src_closed", 1), ("src_markers", 2), ("src_in_zone", 1), ("src_movement_mod", 8), ("src_crystals", 8),
                 ("def_closed", 1), ("def_wounds", 4), ("tgt_in_zone", 1)]
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
        return z3.Or([S["w_kind"] == self.val(KINDS.index(n), 4) for n in names]) if names else self.false()

    def is_attack(self, S):
        return self.is_kind(S, "simple_strike", "attack")

    def has(self, S, i: int):
        return self.t(S[f"w_holds{i}"])

    def played(self, S, i: int):
        return self.t(S[f"played{i}"])

    def card_present(self, S, card: str):
        return self.t(S["w_has_defender"]) if card == "def" else self.true()

    def own_text_applies(self, S, card: str, markers=None, count: str | None = "kind") -> z3.BoolRef:
        """The 540.1 text the menu may give ``card`` (src or def; its form, limit and times world
        variables, 0 for «none») applies to the action: the meaning :func:`.exempts.exempts` of each
        form.  ``markers``: the source's markers to count (default: the vector's); ``count``: what a
        «X раз за ход» text counts ("kind", "feature"; None: its X is not read)."""
        form, limit, times = f"w_{card}_rm_form", f"w_{card}_rm_limit", S.get(f"w_{card}_rm_times")
        E = Symbolic(self, S, card, markers=markers)
        zero = self.val(0, 4)
        held = []
        for i, name in enumerate(RM_FORMS):
            if name is None:
                continue
            f = resource_modifier(card, name, 1)
            on = S[form] == self.val(i, form)
            if f.form != "per_turn":
                held.append(z3.And(on, exempts(E, f.form, None, f.applies_to)))
                continue
            for lim in (None, S[limit]):  # 540.3.1's qualifier absent (0) or its limit
                for tms in (None, times) if times is not None else (None,):  # «любое количество» (0) or X
                    held.append(z3.And(on, S[limit] == zero if lim is None else S[limit] != zero,
                                       self.true() if times is None else times == zero if tms is None else times != zero,
                                       exempts(E, f.form, lim, f.applies_to, tms if count else None,
                                               per=count or "kind")))
        return z3.Or(*held)

    def exempt(self, S, exempt_modified: bool = True, markers_src=None, count: str | None = "kind") -> tuple:
        """(source's close exempt, defender's close exempt): a 540.1 text of the card that applies
        (:meth:`own_text_applies`), or a 540.4 modification of the action.  ``markers_src``: the source's
        markers to count (default: the vector's); ``count``: what «X раз за ход» counts (None: every use
        is spared)."""
        if not exempt_modified:
            return self.false(), self.false()
        return (z3.Or(self.own_text_applies(S, "src", markers_src, count), self.t(S["modified_src"])),
                z3.Or(self.own_text_applies(S, "def", count=count), self.t(S["modified_def"])))

    def marker_waived(self, S) -> z3.BoolRef:
        """540.3 «если иного не указано в тексте особенности»: the source's 540.1 text that applies to the
        action says it gets no action marker (``w_src_rm_no_marker``), or a modification of the action
        sparing the source says so (``waived_src``)."""
        return z3.Or(z3.And(self.t(S["w_src_rm_no_marker"]), self.own_text_applies(S, "src")),
                     self.t(S["waived_src"]))

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
        for r in WORLD_RULES:  # the menu's world rules (stated once, in model/menu.py)
            cond = z3.Or([S[r.var] == self.val(x, r.var) for x in r.values])
            c.append(z3.Implies(z3.Not(cond) if r.negate else cond,
                                z3.And([self._world_is(S, n, x) for n, x in r.then.items()])))
        core = self.core_init(S)
        c += [S[n] == v for n, v in core.items()]
        c += [S[h.name] == self.val(h.init, h.width) for h in self.histories]
        return z3.And(c)

    def _world_is(self, S, name: str, value: int) -> z3.BoolRef:
        """World variable ``name`` (or an option's bit, ``w_holds<i>``) has ``value``."""
        if name.startswith("w_holds"):
            held = self.has(S, int(name[len("w_holds"):]))
            return held if value else z3.Not(held)
        return S[name] == self.val(value, name)

    def core_init(self, S) -> dict:
        z = lambda n: self.val(0, n)  # noqa: E731
        out = {v.name: z(v.name) for v in self.vars if v.group == "core"}
        out.update({"pc": self.val(self.start_pc, "pc"),
                    "parts_left": z3.Extract(1, 0, S["w_parts_left"]),
                    "on_stack": self.val(1, 1),
                    "src_in_zone": self.val(1, 1),
                    "src_closed": z3.Extract(0, 0, S["w_src_closed"]),
                    "tgt_in_zone": self.val(1, 1),
                    "src_movement_mod": S["w_src_movement_mod"],
                    "src_crystals": z3.ZeroExt(4, S["w_src_crystals"]),
                    "src_markers": z3.Extract(1, 0, S["w_src_markers"]),
                    "def_wounds": S["w_def_wounds"]})
        out["x_cost_declared"] = z3.Extract(0, 0, S["w_cost_x"])
        out["x_targets_declared"] = z3.Extract(0, 0, S["w_targets_x"])
        for i, k in enumerate(MAGX):
            if k:
                out[f"x_{k}_declared"] = self.b(S["w_magnitude_x"] == self.val(i, 4))
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
        assert d.body is not None, "every disjunct the system adds has its body"
        guard, upd = d.body(self, pre, die)
        guard = z3.And(pre["pc"] == self.val(d.loc, "pc"), guard)
        changes = {n: (self.val(e, n) if isinstance(e, int) else e) for n, e in upd.items() if not z3.eq(e, pre[n])}
        new = {v.name: changes.get(v.name, pre[v.name]) for v in self.vars if v.group != "hist"}
        for h in self.histories:
            e = h.update(self, d, pre, new)
            if e is not pre[h.name] and not z3.eq(e, pre[h.name]):  # (most keep the very term: no Z3 call)
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
                          body=lambda sy, S, die, g=gtext, nxt=nxt, m=meaning, p=op.params, k=kind, si=si: op_body(
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
                  body=lambda sy, S, die, g=gtext: (sy.guard(g, S), {"pc": sy.val(turn, "pc"), "window_player": sy.val(opener, 1),
                                                       "window_passes": sy.val(0, 2),
                                                       **{f"played{j}": sy.val(0, 1) for j in range(NOPT)}}), **kw)
        for passes, to in ((0, turn), (1, close)):
            self._add(loc=turn, event="pass", passes=passes,
                      body=lambda sy, S, die, passes=passes, to=to: (S["window_passes"] == sy.val(passes, 2), {
                          "pc": sy.val(to, "pc"), "window_passes": sy.val(passes + 1, 2), "window_player": ~S["window_player"]}), **kw)
        for oi, o in enumerate(OPTIONS):
            if o.feature.kind not in allows:
                continue
            self._add(loc=turn, event="play", option=oi, uses_die=o.feature.kind == "reroll",
                      body=lambda sy, S, die, oi=oi: play_body(sy, S, die, oi, opener, op.params), **kw)
        self._add(loc=close, event="window_closed", body=lambda sy, S, die: (sy.true(), {"pc": sy.val(nxt, "pc")}),
                  **kw)

    # --- offers (shared with the properties) ---------------------------------------------------------------
    def playable(self, S, oi: int, window: dict | None = None) -> z3.BoolRef:
        """May the card holding option ``oi`` play it now (in a window with parameters ``window``): the
        meaning :func:`.semantics.offer`."""
        o = OPTIONS[oi]
        return offer(Symbolic(self, S, o.card), o.feature, self.words, window)

    def offered(self, S, oi: int, allows: tuple[str, ...], player, window: dict | None = None) -> z3.BoolRef:
        """Option ``oi`` is among the player's options at a turn of a window admitting ``allows`` (its
        parameters: ``window``)."""
        o = OPTIONS[oi]
        if o.feature.kind not in allows:
            return self.false()
        return z3.And(self.has(S, oi), player == self.val("AB".index(o.player), 1),
                      z3.Not(self.played(S, oi)), self.playable(S, oi, window))


def compile_rulebook(rb: Rulebook, histories: tuple[HistVar, ...] = (), ctx: z3.Context | None = None) -> System:
    """The Z3 transition system of ``rb`` (a fresh ``z3.Context`` unless one is given)."""
    return System(rb, histories, ctx)
