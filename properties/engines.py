"""The Z3 engines over a compiled rulebook: Spacer (CHC) on a cone of influence, a path followed
symbolically, incremental BMC, k-induction, and the combinations the prover uses — each confirming
what it finds by replaying it on the interpreter (:mod:`.replay`).

A timeout, ``unknown`` or a ``Z3Exception`` is ``unknown`` (with the reason), never a proof.
"""

from __future__ import annotations

import time

import z3

from ruleproof.ground import interrupt
from ruleproof.model.menu import Option
from ruleproof.model.rulebook import Rulebook
from ruleproof.model.symbolic import OPTIONS, Disjunct, System, world_state

from .carry import ProofStore, RulePart, certificate, rule_formula
from .replay import Counterexample, replay
from .z3_system import (
    _and,
    _app,
    _deps,
    _implies,
    _init,
    _memo,
    _pc_successors,
    _steps,
    _Sub,
    _subst,
    _Unroller,
    _value,
    coi,
)

__all__ = ["REFINEMENTS", "refuted_by", "spacer", "follow", "repair", "bmc", "k_induction", "extract",
           "find_violation", "spacer_refined", "SPACER_OPTIONS"]


#: Fixedpoint options for every Spacer query (measured in benchmarks/README.md)
#: Fixedpoint options of every Spacer query: ``validate`` has Z3 check its own answer (the inductive
#: invariant of an ``unsat``, the derivation of a ``sat``) and fail rather than return one it cannot
#: check — Spacer has had unsoundness bugs, and a proof here must not rest on one (measured: 14.2 s
#: against 14.5 s for the 32 proofs of the bundled rulebook)
SPACER_OPTIONS: dict = {"validate": True}


def spacer(sy: System, target, timeout_ms: int, seed: int = 0, keep: frozenset[str] | None = None,
           path: list | None = None, options: dict | None = None, answer: list | None = None) -> str:
    """'sat' (a target state is reachable), 'unsat' (it is not), or 'unknown: <reason>'.

    One relation per location (pc), over the variables in ``keep`` (default: the cone of influence
    of ``target``, over-approximated); the others are free in each rule.  On 'sat', ``path`` (if
    given) receives the disjuncts along Spacer's derivation, first to last; on 'unsat', ``answer`` (if
    given) receives the proof's inductive invariant (:func:`.carry.certificate`, None if unreadable)."""
    ctx = sy.ctx
    keep = coi(sy, target(sy, sy.pre), exact=False) if keep is None else keep
    fp = _fixedpoint(ctx, timeout_ms, seed, SPACER_OPTIONS if options is None else options)
    vs = [v for v in sy.vars if v.name != "pc" and v.name in keep]
    sorts = [z3.BitVecSort(v.width, ctx) for v in vs]
    rel = {i: z3.Function(f"L{i}", *sorts, z3.BoolSort(ctx)) for i in range(len(sy.locs))}
    err = z3.Function("Err", z3.BoolSort(ctx))
    fp.register_relation(err, *rel.values())
    # the rules are built through the C API: the Python wrapper's ForAll checks every bound variable of
    # every rule, which costs more than Spacer on the small cones
    bound = [sy.pre[v.name] for v in sy.vars] + [sy.die]
    arr = (z3.Ast * len(bound))(*[b.as_ast() for b in bound])
    for f, name in _rules(sy, target, vs, rel, err):
        q = z3.z3core.Z3_mk_forall_const(ctx.ref(), 0, len(bound), arr, 0, None, f.as_ast())
        z3.z3core.Z3_fixedpoint_add_rule(ctx.ref(), fp.fixedpoint, q, z3.to_symbol(name, ctx))
    r = _query(sy, fp, err(), path)
    if r == "unsat" and answer is not None:
        answer.append(certificate(sy, vs, rel, fp))
    return r


def _rules(sy: System, target, vs: list, rel: dict, err) -> list:
    """The rules of Spacer's query on ``target`` over the variables ``vs`` (relations ``rel`` per pc, the
    error ``err``), each as (rule, name): an implication with its location's pc put in."""
    return [(rule_formula(sy, part), name) for part, name in _rule_parts(sy, target, vs, rel, err)]


def _rule_parts(sy: System, target, vs: list, rel: dict, err) -> list:
    """The rules of :func:`_rules` before they are put together: [(:class:`~.carry.RulePart`, name)] — the
    initial state, each (merged) disjunct, the target at each location."""
    pre = [sy.pre[v.name] for v in vs]
    pcv = sy.pre["pc"]
    start = sy.start_pc
    out = [(RulePart(start, _app(rel[start], pre), (_init(sy),), (f"L{start}", tuple(pre), "", (_init(sy),))), "init")]
    for ds, args, g in _merged(sy, vs):
        nxt, loc = _pc_successors(sy)[ds[0].id][0], ds[0].loc
        out.append((RulePart(loc, _app(rel[nxt], args), (_app(rel[loc], pre), g), (f"L{nxt}", tuple(args), f"L{loc}", (g,))),
                    "d" + "_".join(str(d.id) for d in ds)))
    bad = target(sy, sy.pre)
    for i in range(len(sy.locs)):
        raw = _subst(bad, [(pcv, sy.val(i, "pc"))])
        b = z3.simplify(raw)
        if not z3.is_false(b):  # the key reads the target before Z3 simplified it (see RulePart)
            out.append((RulePart(i, err(), (_app(rel[i], pre), b), ("Err", (), f"L{i}", (raw,))), ""))
    return out


def _fixedpoint(ctx, timeout_ms: int, seed: int, options: dict) -> z3.Fixedpoint:
    fp = z3.Fixedpoint(ctx=ctx)
    fp.set(engine="spacer")
    fp.set("timeout", timeout_ms)
    fp.set("spacer.random_seed", seed)
    for k, v in options.items():
        fp.set(k, v)
    return fp


def _query(sy: System, fp: z3.Fixedpoint, err, path: list | None) -> str:
    """Spacer's answer as :func:`spacer` gives it; on 'sat', the disjuncts along the derivation into ``path``."""
    try:
        r = fp.query(err)
    except z3.Z3Exception as exc:
        interrupt.check()
        return f"unknown: {exc}"
    if r == z3.sat:
        if path is not None:
            names = [n for n in fp.get_rule_names_along_trace() if n.startswith("d")]
            path.extend(tuple(sy.disjuncts[int(i)] for i in n[1:].split("_")) for n in reversed(names))
        return "sat"
    if r == z3.unsat:
        return "unsat"
    interrupt.check()
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
        kind = (d.event, _played(d).player) if d.event == "play" else (
            (d.event, d.passes) if d.event in ("pass", "window") else "op")
        own = ids[d.id]
        key = (d.loc, succ[d.id][0], kind, tuple(own.get(n, n) for n in names))  # a name: left unchanged
        if key not in groups:
            groups[key] = ([ch.get(n, sy.pre[n]) for n in names], [])
        groups[key][1].append((d, g))
    return [(tuple(d for d, _ in dg), args, z3.Or([g for _, g in dg]) if len(dg) > 1 else dg[0][1])
            for args, dg in groups.values()]


def _played(d: Disjunct) -> Option:
    """The menu option a play disjunct plays."""
    if d.option is None:
        raise ValueError(f"disjunct {d.id} ({d.event}) plays no option")
    return OPTIONS[d.option]


def _change_ids(sy: System) -> dict[int, dict[str, int]]:
    """Per disjunct, the Z3 ids of the new values it gives the variables it changes (what tells two
    disjuncts' effects on a cone apart, without a Python object per term)."""
    return _memo(sy, "_chid_cache", lambda: {i: {n: e.get_id() for n, e in ch.items()}
                                             for i, (_, ch) in _steps(sy).items()})


def follow(sy: System, target, path: list, seed: int = 0, timeout_ms: int = 10_000, why: list | None = None):
    """Check a sequence of disjuncts on the exact system — a straight line, executed symbolically from
    the initial state (no frame variables) — and that it ends in a ``target`` state: (model, path
    record, depth) or None when it is spurious.  A step may be a tuple of disjuncts (one merged rule
    of :func:`spacer`): the solver picks one of them.  ``why``: when spurious, receives the disjuncts
    whose guards the solver's unsat core names (what refutes the path)."""
    path = repair(sy, path)
    tracked: dict = {}
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
            _track(solver, guard, tracked, i, group, why)
            state.update({n: z3.simplify(e) for n, e in changes.items()})
            continue
        # several disjuncts share Spacer's rule: a choice, made by the solver
        sel = z3.BitVec(f"sel@{i}", 10, sy.ctx)
        _track(solver, z3.Or([z3.And(sel == z3.BitVecVal(d.id, 10, sy.ctx), g) for d, g, _ in alts]), tracked, i,
               group, why)
        rec.acts.append(sel)
        state.update(_chosen(sy, sel, alts, state))
    rec.solver, rec.state = solver, state
    solver.push()
    solver.add(_subst(target(sy, sy.pre), [(sy.pre[n], state[n]) for n in state]))
    if solver.check() != z3.sat:
        if why is not None and tracked:
            why.extend(d for c in solver.unsat_core() for d in tracked.get(str(c), ()))
        return None
    model = solver.model()
    solver.pop()
    return model, rec, len(path)


def _chosen(sy: System, sel, alts: list, state: dict) -> dict:
    """The new values of what the disjuncts ``alts`` change, as the one ``sel`` names would set them."""
    new = {}
    for n in {n for _, _, ch in alts for n in ch}:
        e = state[n]
        for d, _, ch in alts:
            if n in ch:
                e = z3.If(sel == z3.BitVecVal(d.id, 10, sy.ctx), ch[n], e)
        new[n] = z3.simplify(e)
    return new


def _track(solver, guard, tracked: dict, i: int, group: tuple, why: list | None) -> None:
    """Assert a step's guard — tracked by a literal when the caller asked ``why`` a path fails."""
    if why is None:
        solver.add(guard)
        return
    name = f"step{i}"
    tracked[name] = group
    solver.assert_and_track(guard, z3.Bool(name, solver.ctx))


def refuted_by(sy: System, why: list) -> frozenset[str]:
    """The names the guards of the disjuncts ``why`` (:func:`follow`) read."""
    deps = _deps(sy)
    return frozenset(n for d in why for n in deps[d.id][0])


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
            interrupt.check()
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
            interrupt.check()
            return f"unknown: {s.reason_unknown()}"
    return f"inconclusive up to k={k_max}"


def extract(sy: System, model, u: _Unroller, k: int) -> Counterexample:
    world = {v.name: _value(model, u.frames[0][v.name]) for v in sy.vars if v.group == "world"}
    dice: list[int] = []
    responses: list[tuple[str, str, str]] = []
    steps: list[str] = []
    answers: list[int | str | None] = []  # die values, feature ids, None for a pass
    path: list[int] = []
    for i in range(k):
        d = sy.disjuncts[_value(model, u.acts[i])]
        steps.append(d.label)
        path.append(d.id)
        if d.event == "pass":
            answers.append(None)
        elif d.event == "play":
            option = _played(d)
            fid = option.feature.id
            player = option.player
            responses.append((d.params["id"], player, fid))
            answers.append(fid)
        if d.uses_die:
            dice.append(_value(model, u.dice[i]))
            answers.append(dice[-1])
    return Counterexample(world_state(world), dice, responses, steps, answers, path=tuple(path))


def find_violation(rb: Rulebook, sy: System, bad, pid: str, max_depth: int, timeout_ms: int, seed: int):
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


def spacer_refined(rb: Rulebook, sy: System, target, pid: str | None, timeout_ms: int, seed: int,
                    order: tuple[bool, ...] = (False, True), options: dict | None = None, coarse: bool = False,
                    carry: ProofStore | None = None):
    """Spacer on the cone of influence without the windows' shape, then — if its path is spurious
    on the exact system — with it.  ``coarse``: first on the coarsest cone (:func:`coi` without any
    guard's names, under a quarter of the time limit) — most proofs need little of the control flow
    — refined by what refutes each spurious path (the names of the guards in the unsat core of
    :func:`follow`, at most :data:`REFINEMENTS` times), then with the steps' guards, then as above.
    ``carry``: first the certificate it keeps for ``target`` (:mod:`.carry`), re-checked on ``sy``; a new
    proof's is kept.  Returns (result, followed path or None, replayed counterexample)."""
    if carry is None:
        return _ladder(rb, sy, target, pid, timeout_ms, seed, order, options, coarse, None)
    bad = target(sy, sy.pre)
    if carry.carry(sy, bad, lambda vs, rel, err: [p for p, _ in _rule_parts(sy, target, vs, rel, err)]):
        return "unsat", None, None
    answer: list | None = [] if carry.keep_new else None
    out = _ladder(rb, sy, target, pid, timeout_ms, seed, order, options, coarse, answer)
    if out[0] == "unsat":
        carry.keep(bad, answer[0] if answer else None)
    return out


def _ladder(rb: Rulebook, sy: System, target, pid: str | None, timeout_ms: int, seed: int, order: tuple[bool, ...],
            options: dict | None, coarse: bool, answer: list | None):
    """:func:`spacer_refined`'s search: Spacer on cones from the coarsest up (its invariant into ``answer``)."""
    last = "unknown: not run"
    ladder = [(w, "operations", timeout_ms, False) for w in order]
    if coarse:
        quick = min(timeout_ms, max(1000, timeout_ms // 4))
        ladder = [(order[0], "none", quick, True)] + [(w, "steps", timeout_ms, False) for w in order] + ladder
    for windows, guards, limit, refine in ladder:
        also: frozenset[str] = frozenset()
        for _ in range(1 + REFINEMENTS * refine):
            path: list = []
            keep = coi(sy, target(sy, sy.pre), False, windows, guards, also)
            try:
                r = spacer(sy, target, limit, seed, keep=keep, path=path, options=options, answer=answer)
            except z3.Z3Exception as exc:  # anything the engine raises is "unknown", never a proof
                interrupt.check()
                r = f"unknown: {exc}"
            if r == "unsat":
                return r, None, None
            last = r
            if r != "sat" or not path:
                break
            why: list = []
            found = follow(sy, target, path, seed, why=why if refine else None)
            if found is None:
                more = refuted_by(sy, why) - keep
                if not more:
                    break
                also |= more
                continue  # spurious: refine
            cx = replay(rb, extract(sy, *found), pid)
            if pid is None or cx.reproduced:
                return r, found, cx
            break
    return last, None, None


#: how many times a coarse cone is refined by the guards that refute its spurious paths
REFINEMENTS = 3


def _options(form) -> dict:
    return {**SPACER_OPTIONS, **dict(form.options)}


def _order(form) -> tuple[bool, ...]:
    """Spacer's cones for ``form``: without the windows' shape first (then with it), unless it needs it."""
    return (True,) if form.windows else (False, True)
