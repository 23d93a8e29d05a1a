"""Prove the catalogue properties on a rulebook with Z3: ``prove(rb) -> ProveOutcome``.

For each property the rulebook is compiled (:mod:`ruleproof.model.symbolic`) with the history
variables of the property's Z3 form (:mod:`.z3forms`), then:

1. Spacer (``z3.Fixedpoint``, CHC) decides whether a ``bad`` state is reachable — unreachable is
   ``proved`` for every play, unbounded;
2. when it is reachable (or Spacer gives up), incremental BMC finds the shortest counterexample;
   it is mapped back to a concrete world, dice and responses and replayed on the interpreter
   (``run(rb, state, ScriptedChoices(dice, responses))``) and the catalogue predicate is evaluated
   on the replayed trace;
3. the premise (vacuity witness) is checked for reachability the same way;
4. optionally, k-induction as a cross-check of a proof.

A timeout, ``unknown`` or a ``Z3Exception`` is ``unknown`` (with the reason), never a proof; BMC that
exhausts its depth without a counterexample after Spacer gave up is ``holds to depth k``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import z3

from ruleproof.model.interpreter import ScriptedChoices, Stepper, run
from ruleproof.model.rulebook import Rulebook
from ruleproof.model.state import State
from ruleproof.model.symbolic import OPTIONS, System, compile_rulebook, world_state
from ruleproof.properties.catalogue import BY_ID, PROPERTIES, View
from ruleproof.reports.finding import CheckResult, Finding
from ruleproof.reports.trace import trace_to_json

from .hints import hint_paths
from .z3forms import FORMS

__all__ = ["Counterexample", "Verdict", "ProveOutcome", "prove", "prove_one", "bmc", "spacer", "k_induction",
           "shared_system", "Task", "plan", "DEFAULT_TIMEOUT_MS", "DEFAULT_DEPTH", "SPACER_OPTIONS"]

DEFAULT_TIMEOUT_MS = 20_000
DEFAULT_DEPTH = 160
#: Fixedpoint options for every Spacer query (measured in benchmarks/README.md)
SPACER_OPTIONS: dict = {}


@dataclass
class Counterexample:
    world: State
    dice: list[int]
    responses: list[tuple[str, str, str]]
    steps: list[str]  # the disjuncts taken, as rule steps
    answers: list  # every answer in order (die values, feature ids or None for a pass)
    trace: object = None  # the interpreter's Trace of the replay
    reproduced: bool = False  # the catalogue predicate reports the violation on the replay
    replay_mode: str = "scripted"  # scripted (ScriptedChoices) | exact (every answer in order)
    violation: object = None
    path: tuple[int, ...] = ()  # the disjuncts Z3 took (ids)
    follows: bool | None = None  # the replay takes the same steps as Z3's path (None: not compared)


@dataclass
class Verdict:
    pid: str
    verdict: str  # proved | violated | holds to depth k | unknown
    engine: str
    seconds: float
    reason: str = ""
    depth: int | None = None
    counterexample: Counterexample | None = None
    vacuous: bool | None = None  # None: not checked / unknown
    witness: Counterexample | None = None
    kinduction: str = ""


@dataclass
class ProveOutcome:
    results: list[CheckResult]
    verdicts: list[Verdict]
    z3_version: str
    seed: int
    seconds: float
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    max_depth: int = DEFAULT_DEPTH
    extra: dict = field(default_factory=dict)


# --- engines -------------------------------------------------------------------------------------------------

def _set_seed(ctx: z3.Context, seed: int) -> None:
    z3.set_param("smt.random_seed", seed)
    z3.set_param("sat.random_seed", seed)


def coi(sy: System, target, exact: bool, windows: bool = True) -> frozenset[str]:
    """The variables ``target`` depends on (cone of influence).  ``exact``: also everything any guard
    reads, so removing the rest changes no behaviour; otherwise the guards of window plays are left
    out, and the variables only they read become free — an over-approximation (sound for proofs).
    ``windows``: keep who has priority and the passes in a row (the windows' shape) in any case."""
    guards, reads = _flow(sy, exact)
    keep = _names(target) | {"pc"} | ({"window_player", "window_passes"} if windows else set())
    todo = list(keep | guards)
    keep |= guards
    while todo:  # every variable a kept variable's new value reads
        for n in reads.get(todo.pop(), ()):
            if n not in keep:
                keep.add(n)
                todo.append(n)
    return frozenset(k for k in keep if k in sy.width)


def _flow(sy: System, exact: bool) -> tuple[set, dict]:
    """What :func:`coi` starts from and follows: the names the kept guards read (``exact``: every
    guard; else those of the operations, the gotos and the deadlocks, not of window turns), and per
    variable, the names any disjunct's new value of it reads."""
    cache = sy.__dict__.setdefault("_flow_cache", {})
    if exact not in cache:
        deps = _deps(sy)
        guards: set = set()
        reads: dict = {}
        for d in sy.disjuncts:
            if exact or d.event in ("goto", "deadlock") or (d.op_index is not None and d.event not in (
                    "play", "pass", "window", "window_closed")):
                guards |= deps[d.id][0]
            for v, names in deps[d.id][1].items():
                reads.setdefault(v, set()).update(names)
        cache[exact] = (guards, reads)
    return cache[exact]


def _deps(sy: System) -> dict:
    """Per disjunct: (the names its guard reads, {changed variable: the names its new value reads})."""
    if not hasattr(sy, "_deps_cache"):
        sy._deps_cache = {i: (_names(g), {v: _names(e) for v, e in ch.items()}) for i, (g, ch) in _steps(sy).items()}
    return sy._deps_cache


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
    if not hasattr(sy, "_init_cache"):
        sy._init_cache = sy.init()
    return sy._init_cache


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
    if not hasattr(sy, "_steps_cache"):
        sy._steps_cache = {d.id: sy.step_of(d, sy.pre, sy.die) for d in sy.disjuncts}
    return sy._steps_cache


def spacer(sy: System, target, timeout_ms: int, seed: int = 0, keep: frozenset[str] | None = None,
           path: list | None = None, options: dict | None = None) -> str:
    """'sat' (a target state is reachable), 'unsat' (it is not), or 'unknown: <reason>'.

    One relation per location (pc), over the variables in ``keep`` (default: the cone of influence
    of ``target``, over-approximated); the others are free in each rule.  On 'sat', ``path`` (if
    given) receives the disjuncts along Spacer's derivation, first to last."""
    ctx = sy.ctx
    keep = coi(sy, target(sy, sy.pre), exact=False) if keep is None else keep
    fp = z3.Fixedpoint(ctx=ctx)
    fp.set(engine="spacer")
    fp.set("timeout", timeout_ms)
    fp.set("spacer.random_seed", seed)
    for k, v in (SPACER_OPTIONS if options is None else options).items():
        fp.set(k, v)
    vs = [v for v in sy.vars if v.name != "pc" and v.name in keep]
    sorts = [z3.BitVecSort(v.width, ctx) for v in vs]
    rel = {i: z3.Function(f"L{i}", *sorts, z3.BoolSort(ctx)) for i in range(len(sy.locs))}
    err = z3.Function("Err", z3.BoolSort(ctx))
    fp.register_relation(err, *rel.values())
    pre = [sy.pre[v.name] for v in vs]
    # the rules are built through the C API: the Python wrapper's ForAll checks every bound variable of
    # every rule, which costs more than Spacer on the small cones
    bound = [sy.pre[v.name] for v in sy.vars] + [sy.die]
    arr = (z3.Ast * len(bound))(*[b.as_ast() for b in bound])
    pcv = sy.pre["pc"]

    def rule(head, body, loc, name=""):
        f = _subst(_implies(_and(body), head), [(pcv, sy.val(loc, "pc"))])
        q = z3.z3core.Z3_mk_forall_const(ctx.ref(), 0, len(bound), arr, 0, None, f.as_ast())
        z3.z3core.Z3_fixedpoint_add_rule(ctx.ref(), fp.fixedpoint, q, z3.to_symbol(name, ctx))

    rule(_app(rel[sy.start_pc], pre), [_init(sy)], sy.start_pc, "init")
    for ds, args, g in _merged(sy, vs):
        rule(_app(rel[_pc_successors(sy)[ds[0].id][0]], args), [_app(rel[ds[0].loc], pre), g], ds[0].loc,
             "d" + "_".join(str(d.id) for d in ds))
    bad = target(sy, sy.pre)
    for i in range(len(sy.locs)):
        b = z3.simplify(_subst(bad, [(pcv, sy.val(i, "pc"))]))
        if not z3.is_false(b):
            rule(err(), [_app(rel[i], pre), b], i)
    try:
        r = fp.query(err())
    except z3.Z3Exception as exc:
        return f"unknown: {exc}"
    if r == z3.sat:
        if path is not None:
            names = [n for n in fp.get_rule_names_along_trace() if n.startswith("d")]
            path.extend(tuple(sy.disjuncts[int(i)] for i in n[1:].split("_")) for n in reversed(names))
        return "sat"
    if r == z3.unsat:
        return "unsat"
    return f"unknown: {fp.reason_unknown()}"


def _merged(sy: System, vs: list) -> list:
    """The disjuncts as Spacer's rules over the variables ``vs``: disjuncts from one location to one
    successor that change ``vs`` alike (and are the same kind of window event) are one rule whose guard
    is the disjunction of theirs — e.g. the plays of features whose differences lie outside the cone.
    Returns [(disjuncts, new values of vs, guard)]."""
    succ = _pc_successors(sy)
    ids = _change_ids(sy)
    names = [v.name for v in vs]
    groups: dict = {}
    for d in sy.disjuncts:
        g, ch = _steps(sy)[d.id]
        kind = (d.event, OPTIONS[d.option].player) if d.event == "play" else (
            (d.event, d.passes) if d.event in ("pass", "window") else "op")
        own = ids[d.id]
        key = (d.loc, succ[d.id][0], kind, tuple(own.get(n, n) for n in names))  # a name: left unchanged
        if key not in groups:
            groups[key] = ([ch.get(n, sy.pre[n]) for n in names], [])
        groups[key][1].append((d, g))
    return [(tuple(d for d, _ in dg), args, z3.Or([g for _, g in dg]) if len(dg) > 1 else dg[0][1])
            for args, dg in groups.values()]


def _change_ids(sy: System) -> dict[int, dict[str, int]]:
    """Per disjunct, the Z3 ids of the new values it gives the variables it changes (what tells two
    disjuncts' effects on a cone apart, without a Python object per term)."""
    if not hasattr(sy, "_chid_cache"):
        sy._chid_cache = {i: {n: e.get_id() for n, e in ch.items()} for i, (_, ch) in _steps(sy).items()}
    return sy._chid_cache


def follow(sy: System, target, path: list, seed: int = 0, timeout_ms: int = 10_000):
    """Check a sequence of disjuncts on the exact system — a straight line, executed symbolically from
    the initial state (no frame variables) — and that it ends in a ``target`` state: (model, path
    record, depth) or None when it is spurious.  A step may be a tuple of disjuncts (one merged rule
    of :func:`spacer`): the solver picks one of them."""
    path = repair(sy, path)
    rec = _Path(sy)
    solver = z3.SolverFor("QF_BV", ctx=sy.ctx)
    solver.set("timeout", timeout_ms)
    solver.set("random_seed", seed)
    state = dict(rec.frames[0])
    solver.add(_subst(_init(sy), [(sy.pre[n], state[n]) for n in state]))
    for i, step in enumerate(path):
        group = step if isinstance(step, tuple) else (step,)
        die = z3.BitVec(f"die@{i}", 4, sy.ctx)
        rec.dice.append(die)
        sub = _Sub([(sy.pre[n], state[n]) for n in state] + [(sy.die, die)])
        alts = [(d, sub(_steps(sy)[d.id][0]), {n: sub(e) for n, e in _steps(sy)[d.id][1].items()}) for d in group]
        if len(alts) == 1:
            d, guard, changes = alts[0]
            rec.acts.append(z3.BitVecVal(d.id, 10, sy.ctx))
            solver.add(guard)
            state.update({n: z3.simplify(e) for n, e in changes.items()})
            continue
        # several disjuncts share Spacer's rule: a choice, made by the solver
        sel = z3.BitVec(f"sel@{i}", 10, sy.ctx)
        solver.add(z3.Or([z3.And(sel == z3.BitVecVal(d.id, 10, sy.ctx), g) for d, g, _ in alts]))
        rec.acts.append(sel)
        touched = {n for _, _, ch in alts for n in ch}
        new = {}
        for n in touched:
            e = state[n]
            for d, _, ch in alts:
                if n in ch:
                    e = z3.If(sel == z3.BitVecVal(d.id, 10, sy.ctx), ch[n], e)
            new[n] = z3.simplify(e)
        state.update(new)
    rec.solver, rec.state = solver, state
    solver.push()
    solver.add(_subst(target(sy, sy.pre), [(sy.pre[n], state[n]) for n in state]))
    if solver.check() != z3.sat:
        return None
    model = solver.model()
    solver.pop()
    return model, rec, len(path)


class _Path:
    """What :func:`extract` reads of an unrolling, for a symbolically executed path."""

    def __init__(self, sy: System) -> None:
        self.frames = [{v.name: z3.BitVec(f"{v.name}@0", v.width, sy.ctx) for v in sy.vars}]
        self.dice: list = []
        self.acts: list = []
        self.solver = None  # the path's constraints (without the target), and its last state
        self.state: dict = {}


def repair(sy: System, path: list) -> list:
    """Insert the passes a path found on the over-approximation skipped: who has priority and how
    many passed in a row are left out of its cone, so a play may come when it is the other player's
    turn, or a window close after one pass."""
    out, wpl, wps = [], 0, 0
    for step in path:
        group = step if isinstance(step, tuple) else (step,)
        d = group[0]  # the disjuncts of a group are the same kind of event, of the same player
        passes = {p.passes: p for p in sy.by_loc.get(d.loc, ()) if p.event == "pass"}
        if d.event == "window" and not d.skipped:
            wpl, wps = "AB".index(d.opener), 0
        elif d.event == "play":
            if OPTIONS[d.option].player != "AB"[wpl] and wps == 0:
                out.append(passes[0])
                wpl, wps = 1 - wpl, 1
            wpl, wps = "AB".index(d.opener), 0
        elif d.event == "pass":
            if d.passes == 1 and wps == 0:
                out.append(passes[0])
                wpl, wps = 1 - wpl, 1
            elif d.passes == 0 and wps == 1:
                step = passes[1]
            wpl, wps = 1 - wpl, wps + 1
        out.append(step)
    return out


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
        self.dice, self.acts = [], []
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
    if not hasattr(sy, "_succ_cache"):
        out = {}
        for d in sy.disjuncts:
            _, changes = _steps(sy)[d.id]
            pc = changes.get("pc")
            out[d.id] = (d.loc,) if pc is None else (z3.simplify(pc).as_long(),)
        sy._succ_cache = out
    return sy._succ_cache


def bmc(sy: System, target, max_depth: int, timeout_ms: int, seed: int = 0, invariants=(), exact: bool = True):
    """Shortest path to a target state: ('sat', model, unroller, k) | ('unsat', None, None, depth) |
    ('unknown: …', None, None, k).  ``invariants``: predicates already proven, asserted at each frame.
    ``exact`` False: on the over-approximated cone of influence (a path found must be replayed)."""
    keep = coi(sy, target(sy, sy.pre), exact=exact)
    u = _Unroller(sy, seed, keep)
    deadline = time.perf_counter() + timeout_ms / 1000
    for k in range(max_depth + 1):
        left = int((deadline - time.perf_counter()) * 1000)
        if left <= 0:
            return f"unknown: BMC timeout at depth {k}", None, None, k
        u.solver.set("timeout", left)
        for inv in invariants:
            u.solver.add(z3.Not(u._sub(inv(sy, sy.pre), k)))
        r = u.solver.check(u._sub(target(sy, sy.pre), k))
        if r == z3.sat:
            return "sat", u.solver.model(), u, k
        if r == z3.unknown:
            return f"unknown: {u.solver.reason_unknown()}", None, None, k
        ended = u.solver.check(z3.And([u.frames[k]["pc"] != sy.val(d, "pc") for d in (sy.done_end, sy.done_deadlock)]))
        if ended == z3.unsat:  # every play has ended by depth k: nothing left to explore
            return "unsat", None, None, k
        u.extend()
    return "unsat-bounded", None, None, max_depth


def k_induction(sy: System, bad, k_max: int, timeout_ms: int, seed: int = 0) -> str:
    """'proved at k=…', 'violated', or 'inconclusive up to k=…' / 'unknown: …' (simple-path k-induction)."""
    deadline = time.perf_counter() + timeout_ms / 1000
    base = bmc(sy, bad, k_max, timeout_ms, seed)
    if base[0] == "sat":
        return "violated"
    if base[0] == "unsat":
        return f"proved by exhaustion at depth {base[3]}"
    if base[0].startswith("unknown"):
        return base[0]
    trans = sy.trans()
    for k in range(1, k_max + 1):
        if time.perf_counter() > deadline:
            return f"unknown: timeout at k={k}"
        frames = [{v.name: z3.BitVec(f"{v.name}#{i}", v.width, sy.ctx) for v in sy.vars} for i in range(k + 1)]
        s = z3.SolverFor("QF_BV", ctx=sy.ctx)
        s.set("timeout", max(1, int((deadline - time.perf_counter()) * 1000)))
        for i in range(k):
            pairs = [(sy.pre[n], frames[i][n]) for n in frames[i]] + [(sy.post[n], frames[i + 1][n]) for n in frames[i]]
            pairs += [(sy.die, z3.BitVec(f"die#{i}", 4, sy.ctx)), (sy.act, z3.BitVec(f"act#{i}", 10, sy.ctx))]
            s.add(z3.substitute(trans, *pairs))
            s.add(z3.Not(z3.substitute(bad(sy, sy.pre), *[(sy.pre[n], frames[i][n]) for n in frames[i]])))
        s.add(z3.substitute(bad(sy, sy.pre), *[(sy.pre[n], frames[k][n]) for n in frames[k]]))
        r = s.check()
        if r == z3.unsat:
            return f"proved at k={k}"
        if r == z3.unknown:
            return f"unknown: {s.reason_unknown()}"
    return f"inconclusive up to k={k_max}"


# --- counterexamples ----------------------------------------------------------------------------------------------

def _value(m, e) -> int:
    return m.eval(e, model_completion=True).as_long()


def extract(sy: System, model, u: _Unroller, k: int) -> Counterexample:
    world = {v.name: _value(model, u.frames[0][v.name]) for v in sy.vars if v.group == "world"}
    dice, responses, steps, answers, path = [], [], [], [], []
    for i in range(k):
        d = sy.disjuncts[_value(model, u.acts[i])]
        steps.append(d.label)
        path.append(d.id)
        if d.event == "pass":
            answers.append(None)
        elif d.event == "play":
            fid = OPTIONS[d.option].feature.id
            player = OPTIONS[d.option].player
            responses.append((d.params["id"], player, fid))
            answers.append(fid)
        if d.uses_die:
            dice.append(_value(model, u.dice[i]))
            answers.append(dice[-1])
    return Counterexample(world_state(world), dice, responses, steps, answers, path=tuple(path))


#: events that are never an operation a guard skips
_UNSKIPPABLE = ("play", "pass", "enter", "goto", "end", "deadlock", "window_closed")


def follows(rb: Rulebook, sy: System, cx: Counterexample) -> bool:
    """Does the interpreter, given the answers of Z3's path in order, take the same steps (the same
    operation, window turn or edge at the same place, the same feature played)?  A witness or a
    counterexample that does not is a path of the Z3 model only: it proves nothing about the rules."""
    from ruleproof.model.paths import locate

    trace, _ = _replay_exact(rb, cx.world, cx.answers)
    located = list(locate(sy, trace.events))
    if len(located) < len(cx.path):
        return False
    for did, at in zip(cx.path, located):
        d = sy.disjuncts[did]
        e = at.event
        if d.loc != at.loc or d.event != e.op:
            return False
        if e.op not in _UNSKIPPABLE and d.skipped != bool(e.values.get("skipped")):
            return False
        if d.event == "play" and OPTIONS[d.option].feature.id != e.values.get("feature"):
            return False
    return True


def _witnessed(rb: Rulebook, sy: System, cx: Counterexample) -> Counterexample:
    """A vacuity witness replayed on the interpreter, and whether the replay follows Z3's path."""
    cx = replay(rb, cx, None)
    cx.follows = follows(rb, sy, cx)
    return cx


def _replay_exact(rb: Rulebook, world: State, answers: list):
    st = Stepper(rb, world)
    queue = list(answers)
    try:
        while st.ask is not None and queue:
            st.answer(queue.pop(0))
    except (StopIteration, KeyError, TypeError, AssertionError):  # an answer the rules do not offer
        return st.trace, False
    return st.trace, st.finished


def replay(rb: Rulebook, cx: Counterexample, pid: str | None) -> Counterexample:
    """Replay a counterexample on the interpreter; note whether the catalogue predicate fires."""
    trace = run(rb, cx.world, ScriptedChoices(cx.dice, cx.responses))
    cx.trace, cx.replay_mode = trace, "scripted"
    if pid is None:
        return cx
    prop = BY_ID[pid]
    complete = trace.outcome in ("completed", "deadlock")
    v = prop.check(View(trace.events), complete)
    if v is None:  # the script's priority passing may differ: answer every choice in order instead
        etrace, finished = _replay_exact(rb, cx.world, cx.answers)
        for n in range(1, len(etrace.events) + 1):  # the violation may be visible on a prefix only
            v = prop.check(View(etrace.events[:n]), finished and n == len(etrace.events))
            if v is not None:
                cx.trace, cx.replay_mode = etrace, "exact"
                break
    cx.violation = v
    cx.reproduced = v is not None
    return cx


# --- the driver ---------------------------------------------------------------------------------------------------

def _find_violation(rb: Rulebook, sy: System, bad, pid: str, max_depth: int, timeout_ms: int, seed: int):
    """BMC on the over-approximated cone first (fast); its path counts only if the replay confirms
    it; otherwise BMC on the exact cone.  Returns (result, counterexample or None, depth)."""
    res, model, u, k = bmc(sy, bad, max_depth, timeout_ms, seed, exact=False)
    if res == "sat":
        cx = replay(rb, extract(sy, model, u, k), pid)
        if cx.reproduced:
            return "sat", cx, k
    elif res == "unsat":
        return "unsat", None, k  # unreachable even in the over-approximation
    res, model, u, k = bmc(sy, bad, max_depth, timeout_ms, seed, exact=True)
    if res == "sat":
        return "sat", replay(rb, extract(sy, model, u, k), pid), k
    return res, None, k


def _spacer_refined(rb: Rulebook, sy: System, target, pid: str | None, timeout_ms: int, seed: int,
                    order: tuple[bool, ...] = (False, True), options: dict | None = None):
    """Spacer on the cone of influence without the windows' shape, then — if its path is spurious
    on the exact system — with it.  Returns (result, followed path or None, replayed counterexample)."""
    last = "unknown: not run"
    for windows in order:
        path: list = []
        try:
            r = spacer(sy, target, timeout_ms, seed, keep=coi(sy, target(sy, sy.pre), False, windows), path=path,
                       options=options)
        except z3.Z3Exception as exc:  # anything the engine raises is "unknown", never a proof
            r = f"unknown: {exc}"
        if r == "unsat":
            return r, None, None
        last = r
        if r != "sat" or not path:
            continue
        found = follow(sy, target, path, seed)
        if found is None:
            continue  # spurious: refine
        cx = replay(rb, extract(sy, *found), pid)
        if pid is None or cx.reproduced:
            return r, found, cx
    return last, None, None


def prove_one(rb: Rulebook, pid: str, *, timeout_ms: int = DEFAULT_TIMEOUT_MS, seed: int = 0,
              max_depth: int = DEFAULT_DEPTH, vacuity: bool = True, kind: bool = False,
              shortest: bool = False, sy: System | None = None) -> Verdict:
    """The verdict on one property: Spacer, then BMC for a counterexample, then the premise.
    ``shortest``: when Spacer's path shows a violation, BMC (exact cone) looks for a shorter one.
    ``sy``: a system compiled with (at least) the form's history variables (:func:`shared_system`);
    default: one of its own, in a fresh context."""
    form = FORMS[pid]
    kw = dict(timeout_ms=timeout_ms, seed=seed, max_depth=max_depth, vacuity=vacuity, kind=kind, shortest=shortest,
              sy=sy)
    if form.split:
        return _prove_split(rb, pid, form, **kw)
    return _prove_form(rb, pid, form, **kw)


def _spacer_by_parts(rb: Rulebook, sy: System, bad, pid: str, timeout_ms: int, seed: int, order, options=None):
    """Spacer on ``bad``; when that does not settle it (a path the replay does not confirm, unknown), on
    each disjunct of ``bad`` on its own (each has a smaller cone of influence): unsat when every part
    is; the first part with a confirmed path gives the counterexample."""
    r, found, cx = _spacer_refined(rb, sy, bad, pid, timeout_ms, seed, order, options)
    if r == "unsat" or (cx is not None and cx.reproduced):
        return r, found, cx
    whole = bad(sy, sy.pre)
    parts = whole.children() if z3.is_or(whole) else []
    if len(parts) < 2:
        return r, found, cx
    results = []
    for part in parts:
        r, found, cx = _spacer_refined(rb, sy, lambda _sy, _S, part=part: part, pid, timeout_ms, seed, order, options)
        if r == "sat" and cx is not None and cx.reproduced:
            return r, found, cx
        results.append(r)
    if all(r == "unsat" for r in results):
        return "unsat", None, None
    return next(r for r in results if r != "unsat"), None, None


def _shorten(rb: Rulebook, sy: System, bad, pid: str, v: Verdict, timeout_ms: int, seed: int) -> None:
    """BMC on the exact cone up to one step less than the path found: the shortest counterexample."""
    try:
        res, model, u, k = bmc(sy, bad, v.depth - 1, timeout_ms, seed, exact=True)
    except z3.Z3Exception as exc:
        res, k = f"unknown: {exc}", 0
    if res == "sat":
        cx = replay(rb, extract(sy, model, u, k), pid)
        if cx.reproduced:
            v.engine, v.depth, v.counterexample = "spacer+bmc", k, cx
            v.reason = "shortest: BMC"
            return
    if res in ("unsat", "unsat-bounded"):
        v.reason = f"shortest: BMC finds none shorter than {v.depth}"
    else:
        v.reason = f"Spacer's path; BMC for a shorter one: {res}"


def _prove_split(rb: Rulebook, pid: str, form, **kw) -> Verdict:
    """A property proved part by part: proved when every part is; violated when one is."""
    parts = []
    for i, sub in enumerate(form.split):
        v = _prove_form(rb, pid, sub, **{**kw, "vacuity": kw["vacuity"] and i == 0})
        parts.append(v)
        if v.verdict == "violated":
            break
    return _combine(pid, form, parts)


def _combine(pid: str, form, parts: list[Verdict]) -> Verdict:
    """The verdict on a split form from the verdicts on its parts, in order (those after the first
    violated one may be missing): the first violated part, else proved when every part is, else the
    first part that is not; the premise is the first part's.  ``seconds``: the parts' sum."""
    first = parts[0]
    bad = next((v for v in parts if v.verdict == "violated"), None)
    if bad is not None:
        out = bad
    elif all(v.verdict == "proved" for v in parts):
        out = Verdict(pid, "proved", "spacer" if all(v.engine == "spacer" for v in parts) else "spacer+bmc", 0.0,
                      reason=f"{len(parts)} parts")
    else:
        worst = next(v for v in parts if v.verdict != "proved")
        out = Verdict(pid, worst.verdict, worst.engine, 0.0, reason=f"part {form.split[parts.index(worst)].pid}: "
                      f"{worst.reason}", depth=worst.depth)
    out.vacuous, out.witness = first.vacuous, first.witness
    out.seconds = sum(v.seconds for v in parts)
    return out


def _options(form) -> dict:
    return {**SPACER_OPTIONS, **dict(form.options)}


def _order(form) -> tuple[bool, ...]:
    """Spacer's cones for ``form``: without the windows' shape first (then with it), unless it needs it."""
    return (True,) if form.windows else (False, True)


def _prove_form(rb: Rulebook, pid: str, form, *, timeout_ms: int, seed: int, max_depth: int, vacuity: bool,
                kind: bool, shortest: bool = False, sy: System | None = None) -> Verdict:
    started = time.perf_counter()
    if sy is None:
        ctx = z3.Context()
        _set_seed(ctx, seed)
        sy = compile_rulebook(rb, form.hist, ctx)
    order = _order(form)
    r, found, cx = _spacer_by_parts(rb, sy, form.bad, pid, timeout_ms, seed, order, _options(form))
    if r == "unsat":
        v = Verdict(pid, "proved", "spacer", 0.0)
    elif cx is not None and cx.reproduced:
        v = Verdict(pid, "violated", "spacer", 0.0, depth=found[2], counterexample=cx,
                    reason="Spacer's path (BMC not asked for a shorter one)")
        if shortest:
            _shorten(rb, sy, form.bad, pid, v, timeout_ms, seed)
    else:
        try:
            res, cx, k = _find_violation(rb, sy, form.bad, pid, max_depth, timeout_ms, seed)
        except z3.Z3Exception as exc:
            res, cx, k = f"unknown: {exc}", None, 0
        if res == "sat" and cx is not None and cx.reproduced:
            v = Verdict(pid, "violated", "spacer+bmc" if r == "sat" else "bmc", 0.0, depth=k, counterexample=cx)
        elif res == "sat":  # Z3 reaches a bad state the interpreter does not: a defect of the model, not a verdict
            v = Verdict(pid, "unknown", "spacer+bmc" if r == "sat" else "bmc", 0.0, depth=k, counterexample=cx,
                        reason=f"Z3's counterexample at depth {k} does not replay on the interpreter")
        elif res == "unsat":
            v = Verdict(pid, "proved", "bmc", 0.0, reason=f"Spacer: {r}; BMC: every play ends by depth {k}")
        elif res == "unsat-bounded":
            v = Verdict(pid, "holds to depth k", "bmc", 0.0, depth=k, reason=f"Spacer: {r}")
        else:
            v = Verdict(pid, "unknown", "spacer+bmc", 0.0, reason=f"Spacer: {r}; BMC: {res}")
    if kind and v.verdict == "proved":
        v.kinduction = k_induction(sy, form.bad, 8, timeout_ms, seed)
    if vacuity and v.verdict in ("proved", "holds to depth k"):
        v.vacuous, v.witness, _ = _witness(rb, sy, form, timeout_ms, seed, max_depth)
    v.seconds = time.perf_counter() - started
    return v


def _witness(rb: Rulebook, sy: System, form, timeout_ms: int, seed: int, max_depth: int):
    """Is the premise of ``form`` reachable?  (vacuous: True/False/None for unknown, the replayed witness,
    the followed path — (model, path record, depth) — when Spacer's path gave it)."""
    order = _order(form)
    w, found, cx = _spacer_refined(rb, sy, form.premise, None, timeout_ms, seed, order, _options(form))
    if w == "unsat":
        return True, None, None
    if found is not None:
        cx.follows = follows(rb, sy, cx)
        return (False if cx.follows else None), cx, found
    try:
        res, model, u, k = bmc(sy, form.premise, max_depth, timeout_ms, seed, exact=True)
    except z3.Z3Exception as exc:
        res = f"unknown: {exc}"
    if res == "sat":
        cx = _witnessed(rb, sy, extract(sy, model, u, k))
        return (False if cx.follows else None), cx, None
    if res == "unsat":
        return True, None, None
    return None, None, None


#: interpreter paths (:mod:`.hints`) tried for the vacuity witnesses before any Spacer query
HINT_PATHS = 8


def _witnesses(rb: Rulebook, sy: System, verdicts: list, timeout_ms: int, seed: int, max_depth: int,
               hints: int | None = None) -> None:
    """The vacuity witnesses of ``verdicts`` (on one shared system).  First up to ``hints`` paths of
    interpreter runs (:func:`.hints.hint_paths`), until two in a row reach nothing new: each is executed
    symbolically and every premise still open asked of its last state (the world and the dice left to
    the solver).  Then each premise still open gets a Spacer query; the path it finds is tried, the
    same way, for the premises after it."""
    open_ = [v for v in verdicts if v.verdict in ("proved", "holds to depth k")]
    hints = HINT_PATHS if hints is None else hints
    if open_ and hints:
        started = time.perf_counter()
        paths = hint_paths(rb, sy, _pc_successors(sy), seed)[:hints]
        open_[0].seconds += time.perf_counter() - started
        dry = 0  # paths in a row that reached no open premise: two end the hints
        for path in paths:
            if not open_ or dry == 2:
                break
            started = time.perf_counter()
            found = follow(sy, lambda _sy, _S: _sy.true(), path, seed, timeout_ms)
            closed = _on_path(rb, sy, found, open_) if found is not None else []
            dry = 0 if closed else dry + 1
            for v in closed or open_[:1]:
                v.seconds += (time.perf_counter() - started) / max(1, len(closed))
    while open_:
        v = open_.pop(0)
        started = time.perf_counter()
        v.vacuous, v.witness, found = _witness(rb, sy, FORMS[v.pid], timeout_ms, seed, max_depth)
        if found is not None:
            _on_path(rb, sy, found, open_)
        v.seconds += time.perf_counter() - started


def _on_path(rb: Rulebook, sy: System, found, open_: list) -> list:
    """The premises of ``open_`` that the followed path ``found`` reaches in its last state (each
    given its witness and removed from ``open_``)."""
    _, rec, k = found
    final = [(sy.pre[n], rec.state[n]) for n in rec.state]
    closed = []
    for q in list(open_):
        rec.solver.push()
        try:
            rec.solver.add(_subst(FORMS[q.pid].premise(sy, sy.pre), final))
            if rec.solver.check() == z3.sat:
                cx = _witnessed(rb, sy, extract(sy, rec.solver.model(), rec, k))
                if cx.follows:  # a witness that does not replay leaves the premise open
                    q.vacuous, q.witness = False, cx
                    open_.remove(q)
                    closed.append(q)
        finally:
            rec.solver.pop()
    return closed


def shared_system(rb: Rulebook, pids, seed: int = 0) -> System:
    """One system (in a fresh context) carrying the history variables of the forms of ``pids`` (the
    parts of a split form): each property's queries still use only its own cone of influence, but the
    compilation and the transition terms are built once.  A history variable of the same name in two
    forms is the same variable (the forms share a flag only where it means the same)."""
    hist: dict = {}
    for pid in pids:
        form = FORMS[pid]
        for f in form.split or (form,):
            for h in f.hist:
                hist.setdefault(h.name, h)
    ctx = z3.Context()
    _set_seed(ctx, seed)
    return compile_rulebook(rb, tuple(hist.values()), ctx)


def _finding(rb: Rulebook, v: Verdict, seed: int) -> tuple[Finding, ...]:
    p = BY_ID[v.pid]
    form = FORMS[v.pid]
    replay_cmd = f"ruleproof prove {rb.path} --only {v.pid} --seed {seed}"
    if v.verdict == "violated":
        cx = v.counterexample
        msg = cx.violation or None
        en = msg.en if msg else f"Z3 reaches a violation at depth {v.depth}; the replay does not show it"
        ru = msg.ru if msg else f"Z3 достигает нарушения на глубине {v.depth}; воспроизведение его не показывает"
        return (Finding(kind="property", check=v.pid, verdict="violated", engine="z3", clauses=p.clauses,
                        message={"ru": ru, "en": en}, element=f"depth {v.depth}", where=rb.path, replay=replay_cmd,
                        trace=tuple(trace_to_json(cx.trace)), highlight=msg.events if msg else ()),)
    if v.verdict == "unknown" or v.verdict == "holds to depth k":
        word = {"unknown": ("неизвестно", "unknown"), "holds to depth k": ("выполняется до глубины", "holds to depth")}
        ru, en = word[v.verdict]
        return (Finding(kind="unknown", check=v.pid, verdict="unknown", engine="z3", clauses=p.clauses,
                        message={"ru": f"{ru}: {v.reason} {v.depth or ''}".strip(),
                                 "en": f"{en}: {v.reason} {v.depth or ''}".strip()}, where=rb.path,
                        replay=replay_cmd),)
    if v.vacuous:
        return (Finding(kind="vacuous", check=v.pid, verdict="violated", engine="z3", clauses=p.clauses,
                        message={"ru": f"посылка недостижима: {form.premise_ru}",
                                 "en": f"the premise is unreachable: {form.premise_en}"}, where=rb.path,
                        replay=replay_cmd),)
    if v.vacuous is None and v.verdict == "proved":
        stray = v.witness is not None and v.witness.follows is False
        why_ru = " (свидетель Z3 не воспроизводится на интерпретаторе)" if stray else ""
        why_en = " (Z3's witness does not replay on the interpreter)" if stray else ""
        return (Finding(kind="unknown", check=v.pid, verdict="unknown", engine="z3", clauses=p.clauses,
                        message={"ru": f"достижимость посылки не установлена: {form.premise_ru}{why_ru}",
                                 "en": f"the premise's reachability is unknown: {form.premise_en}{why_en}"},
                        where=rb.path, replay=replay_cmd),)
    return ()


def _proof_opts(sy: System, *, timeout_ms: int, seed: int, max_depth: int, kinduction: bool, shortest: bool,
                **_) -> dict:
    """The keyword arguments of one proof (:func:`prove_one`, :func:`_prove_form`) in a run of :func:`prove`
    with options ``kw`` (its witnesses are looked for apart: ``vacuity`` off)."""
    return dict(timeout_ms=timeout_ms, seed=seed, max_depth=max_depth, vacuity=False, kind=kinduction,
                shortest=shortest, sy=sy)


def _prove_chunk(rb: Rulebook, sy: System, pids: list[str], kw: dict) -> list[Verdict]:
    """The verdicts on ``pids`` in one process, on ``sy``, witnesses shared among them."""
    verdicts = [prove_one(rb, pid, **_proof_opts(sy, **kw)) for pid in pids]
    if kw["vacuity"]:
        _witnesses(rb, sy, verdicts, kw["timeout_ms"], kw["seed"], kw["max_depth"])
    return verdicts


@dataclass(frozen=True)
class Task:
    """One unit of the work of :func:`prove` under ``jobs`` > 1: the proof of a property (``part``: of
    one part of a split form), or the vacuity witnesses of a group of properties (``kind`` witness)."""

    kind: str  # prove | witness
    pids: tuple[str, ...]
    part: int | None = None

    @property
    def weight(self) -> int:
        """A rough cost in tenths of a second, for handing out the heaviest first (measured on the bundled
        rulebook, benchmarks/README.md; it orders the tasks, nothing else): a part of a split form about
        1.8 s, the witnesses of the whole catalogue 1.3 s, the few heavier proofs as listed, the rest
        0.1–0.5 s."""
        if self.kind == "witness":
            return max(1, len(self.pids) // 2)
        if self.part is not None:
            return 18
        return _COST.get(self.pids[0], 3)


#: tenths of a second: the proofs well above the others' 0.1–0.5 s (measured, see :attr:`Task.weight`)
_COST = {"P512.6.6-compound": 8, "P542.2-cost-x": 7, "P512.7-payment": 6}


def plan(pids: list[str], jobs: int, vacuity: bool = True) -> list[Task]:
    """The tasks of a run over ``jobs`` processes, heaviest first: one per property (one per part of a
    split form) and, with ``vacuity``, the witnesses of consecutive runs of the catalogue, one run per
    two processes (the fewer the groups, the more premises one path serves: on the bundled rulebook,
    4–6 interpreter paths and one Spacer query give all 27).  The witnesses are looked for alongside
    the proofs, not after them.

    >>> [(t.kind, t.part) for t in plan(["P512.6.1-order", "P512.6-may-declare"], 2)]
    [('prove', 0), ('prove', 1), ('prove', 2), ('prove', None), ('witness', None)]
    """
    tasks = []
    for pid in pids:
        split = FORMS[pid].split
        tasks += [Task("prove", (pid,), i) for i in range(len(split))] if split else [Task("prove", (pid,))]
    if vacuity:
        n = max(1, min(-(-jobs // 2), len(pids)))
        size = -(-len(pids) // n)
        tasks += [Task("witness", tuple(pids[i:i + size])) for i in range(0, len(pids), size)]
    return sorted(tasks, key=lambda t: -t.weight)


def _run_task(rb: Rulebook, sy: System, task: Task, kw: dict) -> list:
    """A proof task: its verdict; a witness task: (pid, vacuous, witness, seconds) per property."""
    opts = _proof_opts(sy, **kw)
    if task.kind == "witness":
        stubs = [Verdict(pid, "proved", "", 0.0) for pid in task.pids]
        _witnesses(rb, sy, stubs, kw["timeout_ms"], kw["seed"], kw["max_depth"])
        return [(v.pid, v.vacuous, v.witness, v.seconds) for v in stubs]
    (pid,) = task.pids
    if task.part is None:
        return [prove_one(rb, pid, **opts)]
    return [_prove_form(rb, pid, FORMS[pid].split[task.part], **opts)]


def _prove_parallel(rb: Rulebook, sy: System, pids: list[str], tasks: list[Task], jobs: int,
                    kw: dict) -> list[Verdict]:
    """``tasks`` (:func:`plan`) handed out to ``jobs`` forked processes as they come free (each a copy
    of ``sy``, compiled once here), then put together: a split form's parts as :func:`_prove_split`
    would (the first violated part), the witnesses on the proved properties."""
    from ruleproof.forked import fork_map

    _steps(sy), _deps(sy), _pc_successors(sy), _change_ids(sy)  # computed once, inherited by every worker
    done = dict(zip(tasks, fork_map(lambda task: _run_task(rb, sy, task, kw), tasks, jobs)))
    proofs = {(t.pids[0], t.part): out[0] for t, out in done.items() if t.kind == "prove"}
    verdicts = []
    for pid in pids:
        split = FORMS[pid].split
        verdicts.append(_combine(pid, FORMS[pid], [proofs[(pid, i)] for i in range(len(split))]) if split
                        else proofs[(pid, None)])
    found = {pid: rest for t, out in done.items() if t.kind == "witness" for pid, *rest in out}
    for v in verdicts:
        if v.pid in found and v.verdict in ("proved", "holds to depth k"):
            v.vacuous, v.witness, seconds = found[v.pid]
            v.seconds += seconds
    return verdicts


def prove(rb: Rulebook, *, only=None, timeout_ms: int = DEFAULT_TIMEOUT_MS, seed: int = 0,
          max_depth: int = DEFAULT_DEPTH, vacuity: bool = True, kinduction: bool = False,
          shortest: bool = False, jobs: int = 1) -> ProveOutcome:
    """Every catalogue property (or ``only`` these ids) on ``rb``.  ``jobs`` > 1: the proofs and the
    witness searches (:func:`plan`) handed out to that many forked processes (each with its own copy
    of the Z3 context); the verdicts are the same."""
    started = time.perf_counter()
    wanted = [p for p in PROPERTIES if only is None or p.id in set(only)]
    pids = [p.id for p in wanted]
    kw = dict(timeout_ms=timeout_ms, seed=seed, max_depth=max_depth, vacuity=vacuity, kinduction=kinduction,
              shortest=shortest)
    sy = shared_system(rb, pids, seed) if pids else None  # compiled once (before any fork)
    tasks = plan(pids, jobs, vacuity)
    workers = max(1, min(jobs, len(tasks)))
    if workers > 1:
        verdicts = _prove_parallel(rb, sy, pids, tasks, workers, kw)
    else:
        verdicts = _prove_chunk(rb, sy, pids, kw) if pids else []
    results = []
    for p, v in zip(wanted, verdicts):
        note = f"{v.verdict} ({v.engine}, {v.seconds:.2f} s)" + (f"; {v.reason}" if v.reason else "")
        results.append(CheckResult(p.id, p.clauses, {"ru": p.ru, "en": p.en}, "z3", _finding(rb, v, seed), note=note))
    return ProveOutcome(results, verdicts, z3.get_version_string(), seed, time.perf_counter() - started,
                        timeout_ms, max_depth, extra={"jobs": workers})
