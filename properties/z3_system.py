"""The compiled rulebook as Z3 terms for the engines: substitution into its transition relation, each
disjunct's guard and changes, the cone of influence of a target (what it reads, transitively, at a chosen
grain of control flow), and the unrolling of frames that BMC and k-induction search."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import z3

from ruleproof.model.symbolic import System

__all__ = ["GUARD_LEVELS", "coi"]

_T = TypeVar("_T")


def _memo(sy: System, name: str, make: Callable[[], _T]) -> _T:
    """``make()`` computed once per system: kept in its instance dict under ``name`` (what the engines derive
    from a system lives with it, and a forked worker inherits it)."""
    cache = sy.__dict__
    if name not in cache:
        cache[name] = make()
    return cache[name]


def _set_seed(ctx: z3.Context, seed: int) -> None:
    z3.set_param("smt.random_seed", seed)
    z3.set_param("sat.random_seed", seed)


#: how much of the rulebook's control flow a cone keeps, finest first: every guard (``exact``); the
#: guards of the operations, the gotos and the deadlocks (not of window turns); those of the gotos
#: and deadlocks (which step comes next); none (only what the target reads, transitively)
GUARD_LEVELS = ("exact", "operations", "steps", "none")


def coi(sy: System, target, exact: bool, windows: bool = True, guards: str = "operations",
        also: frozenset[str] = frozenset()) -> frozenset[str]:
    """The variables ``target`` depends on (cone of influence).  ``exact``: also everything any guard
    reads, so removing the rest changes no behaviour; otherwise only the guards of ``guards`` (one of
    :data:`GUARD_LEVELS`) are kept, and the variables only the others read become free — an
    over-approximation (sound for proofs; a path through it is checked on the exact system).
    ``windows``: keep who has priority and the passes in a row (the windows' shape) in any case.
    ``also``: more names to start from (those a spurious path's failing guards read, :func:`refuted_by`)."""
    read_by_guards, reads = _flow(sy, "exact" if exact else guards)
    keep = _names(target) | {"pc"} | set(also) | ({"window_player", "window_passes"} if windows else set())
    todo = list(keep | read_by_guards)
    keep |= read_by_guards
    while todo:  # every variable a kept variable's new value reads
        for n in reads.get(todo.pop(), ()):
            if n not in keep:
                keep.add(n)
                todo.append(n)
    return frozenset(k for k in keep if k in sy.width)


def _kept_guard(d, level: str) -> bool:
    if level in ("exact", "none"):
        return level == "exact"
    if d.event in ("goto", "deadlock"):
        return True
    return level == "operations" and d.op_index is not None and d.event not in (
        "play", "pass", "window", "window_closed")


def _flow(sy: System, level: str) -> tuple[set, dict]:
    """What :func:`coi` starts from and follows: the names the guards of ``level`` read, and per
    variable, the names any disjunct's new value of it reads."""
    cache = sy.__dict__.setdefault("_flow_cache", {})
    if level not in cache:
        deps = _deps(sy)
        guards: set = set()
        reads: dict = {}
        for d in sy.disjuncts:
            if _kept_guard(d, level):
                guards |= deps[d.id][0]
            for v, names in deps[d.id][1].items():
                reads.setdefault(v, set()).update(names)
        cache[level] = (guards, reads)
    return cache[level]


def _deps(sy: System) -> dict:
    """Per disjunct: (the names its guard reads, {changed variable: the names its new value reads})."""
    return _memo(sy, "_deps_cache", lambda: {i: (_names(g), {v: _names(e) for v, e in ch.items()})
                                             for i, (g, ch) in _steps(sy).items()})


def _names(e) -> set[str]:
    """The uninterpreted constants of ``e`` (a DAG walk, each shared node once; through the C API, so
    that no Python object is made per node)."""
    c = z3.z3core
    ref = e.ctx.ref()
    seen, out, todo = set(), set(), [e.as_ast()]
    while todo:
        a = todo.pop()
        i = c.Z3_get_ast_id(ref, a)
        if i in seen or c.Z3_get_ast_kind(ref, a) != z3.Z3_APP_AST:
            continue
        seen.add(i)
        n = c.Z3_get_app_num_args(ref, a)
        if n == 0:
            decl = c.Z3_get_app_decl(ref, a)
            if c.Z3_get_decl_kind(ref, decl) == z3.Z3_OP_UNINTERPRETED:
                out.add(c.Z3_get_symbol_string(ref, c.Z3_get_decl_name(ref, decl)))
        else:
            todo.extend(c.Z3_get_app_arg(ref, a, k) for k in range(n))
    return out


def _init(sy: System):
    return _memo(sy, "_init_cache", sy.init)


def _app(f, args):
    """``f(*args)`` through the C API (the wrapper checks each argument's sort)."""
    arr = (z3.Ast * len(args))(*[a.as_ast() for a in args])
    return z3.BoolRef(z3.z3core.Z3_mk_app(f.ctx.ref(), f.ast, len(args), arr), f.ctx)


def _and(es):
    if len(es) == 1:
        return es[0]
    arr = (z3.Ast * len(es))(*[e.as_ast() for e in es])
    return z3.BoolRef(z3.z3core.Z3_mk_and(es[0].ctx.ref(), len(es), arr), es[0].ctx)


def _implies(a, b):
    return z3.BoolRef(z3.z3core.Z3_mk_implies(a.ctx.ref(), a.as_ast(), b.as_ast()), a.ctx)


def _subst(e, pairs):
    """``z3.substitute`` through the C API (the Python wrapper checks every pair's sorts, which dominates
    when a frame substitutes all the variables)."""
    n = len(pairs)
    frm = (z3.Ast * n)(*[a.as_ast() for a, _ in pairs])
    to = (z3.Ast * n)(*[b.as_ast() for _, b in pairs])
    return z3.z3._to_expr_ref(z3.z3core.Z3_substitute(e.ctx.ref(), e.as_ast(), n, frm, to), e.ctx)


class _Sub:
    """One substitution applied to many terms (the pairs' arrays built once)."""

    def __init__(self, pairs) -> None:
        self.n = len(pairs)
        self.frm = (z3.Ast * self.n)(*[a.as_ast() for a, _ in pairs])
        self.to = (z3.Ast * self.n)(*[b.as_ast() for _, b in pairs])

    def __call__(self, e):
        return z3.z3._to_expr_ref(z3.z3core.Z3_substitute(e.ctx.ref(), e.as_ast(), self.n, self.frm, self.to), e.ctx)


def _steps(sy: System) -> dict:
    return _memo(sy, "_steps_cache", lambda: {d.id: sy.step_of(d, sy.pre, sy.die) for d in sy.disjuncts})


class _Unroller:
    """Frames of the unrolled system over the variables in ``keep``: world variables are one constant
    for every frame (they never change), the other kept variables one per frame, and the variables
    not kept are fresh in every frame (free)."""

    def __init__(self, sy: System, seed: int, keep: frozenset[str], build: bool = True) -> None:
        self.sy = sy
        self.keep = keep
        self.trans = sy.trans(keep=keep | {v.name for v in sy.vars if v.group == "world"}) if build else None
        self.solver = z3.SolverFor("QF_BV", ctx=sy.ctx)
        self.solver.set("random_seed", seed)
        self.world = {v.name: z3.BitVec(f"{v.name}@w", v.width, sy.ctx) for v in sy.vars if v.group == "world"}
        self.frames = [self._frame(0)]
        self.dice: list[z3.BitVecRef] = []  # per frame: the die rolled into the next
        self.acts: list[z3.BitVecRef] = []  # per frame: the disjunct taken into the next
        self.solver.add(self._sub(_init(sy), 0))

    def _frame(self, k: int) -> dict:
        out = dict(self.world)
        for v in self.sy.vars:
            if v.group != "world":
                tag = "" if v.name in self.keep else "~"
                out[v.name] = z3.BitVec(f"{v.name}@{k}{tag}", v.width, self.sy.ctx)
        return out

    def _sub(self, e, k: int):
        return _subst(e, [(self.sy.pre[n], self.frames[k][n]) for n in self.frames[k]])

    def extend(self, only=None) -> None:
        k = len(self.frames) - 1
        nxt = self._frame(k + 1)
        self.frames.append(nxt)
        die = z3.BitVec(f"die@{k}", 4, self.sy.ctx)
        act = z3.BitVec(f"act@{k}", 10, self.sy.ctx)
        self.dice.append(die)
        self.acts.append(act)
        pairs = [(self.sy.pre[n], self.frames[k][n]) for n in nxt] + [
            (self.sy.post[n], nxt[n]) for n in nxt if n in self.keep] + [(self.sy.die, die), (self.sy.act, act)]
        trans = self.trans if only is None else _single(self.sy, only)
        self.solver.add(_subst(trans, pairs))


def _single(sy: System, only: list):
    cache = sy.__dict__.setdefault("_single_cache", {})
    key = tuple(d.id for d in only)
    if key not in cache:
        cache[key] = sy.trans(only=only)
    return cache[key]


def _pc_successors(sy: System) -> dict[int, tuple[int, ...]]:
    return _memo(sy, "_succ_cache", lambda: _successors(sy))


def _successors(sy: System) -> dict[int, tuple[int, ...]]:
    out: dict[int, tuple[int, ...]] = {}
    for d in sy.disjuncts:
        _, changes = _steps(sy)[d.id]
        pc = changes.get("pc")
        out[d.id] = (d.loc,) if pc is None else (z3.simplify(pc).as_long(),)
    return out


def _value(m, e) -> int:
    return m.eval(e, model_completion=True).as_long()
