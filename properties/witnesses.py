"""Vacuity witnesses: a reachable premise for each property that Z3 proved (else it is vacuous).

Paths of seeded interpreter runs come first (:mod:`.hints`): Z3 executes each with the world and the
dice free and asks every open premise of its last state; a premise no path reaches gets its own
Spacer query, then BMC.  A witness counts only if the interpreter follows it step by step
(:func:`.replay.follows`); one it does not follow leaves the premise open (inconclusive).
"""

from __future__ import annotations

import time

import z3

from ruleproof.ground import interrupt
from ruleproof.ground.verdicts import ProofVerdict
from ruleproof.model.rulebook import Rulebook
from ruleproof.model.symbolic import System

from .engines import _options, _order, bmc, extract, follow, spacer_refined
from .hints import hint_paths
from .monitor_z3 import FORMS
from .replay import follows, witnessed
from .z3_system import _pc_successors, _subst

__all__ = ["witness", "witnesses", "HINT_PATHS"]


def witness(rb: Rulebook, sy: System, form, timeout_ms: int, seed: int, max_depth: int):
    """Is the premise of ``form`` reachable?  (vacuous: True/False/None for unknown, the replayed witness,
    the followed path — (model, path record, depth) — when Spacer's path gave it)."""
    order = _order(form)
    w, found, cx = spacer_refined(rb, sy, form.premise, None, timeout_ms, seed, order, _options(form))
    if w == "unsat":
        return True, None, None
    if found is not None:
        cx.follows = follows(rb, sy, cx)
        return (False if cx.follows else None), cx, found
    try:
        res, model, u, k = bmc(sy, form.premise, max_depth, timeout_ms, seed, exact=True)
    except z3.Z3Exception as exc:
        interrupt.check()
        res = f"unknown: {exc}"
    if res == "sat":
        cx = witnessed(rb, sy, extract(sy, model, u, k))
        return (False if cx.follows else None), cx, None
    if res == "unsat":
        return True, None, None
    return None, None, None


#: interpreter paths (:mod:`.hints`) tried for the vacuity witnesses before any Spacer query (each is
#: asked every premise still open; following one costs a fraction of a Spacer query)
HINT_PATHS = 24


def witnesses(rb: Rulebook, sy: System, verdicts: list, timeout_ms: int, seed: int, max_depth: int,
               hints: int | None = None) -> None:
    """The vacuity witnesses of ``verdicts`` (on one shared system).  First up to ``hints`` paths of
    interpreter runs (:func:`.hints.hint_paths`), or until every premise is reached: each is executed
    symbolically and every premise still open asked of its last state (the world and the dice left to
    the solver).  Then each premise still open gets a Spacer query; the path it finds is tried, the
    same way, for the premises after it."""
    open_ = [v for v in verdicts if v.verdict in (ProofVerdict.PROVED, ProofVerdict.BOUNDED)]
    hints = HINT_PATHS if hints is None else hints
    if open_ and hints:
        started = time.perf_counter()
        paths = hint_paths(rb, sy, _pc_successors(sy), seed)[:hints]
        open_[0].seconds += time.perf_counter() - started
        for path in paths:
            if not open_:
                break
            started = time.perf_counter()
            found = follow(sy, lambda _sy, _S: _sy.true(), path, seed, timeout_ms)
            closed = _on_path(rb, sy, found, open_) if found is not None else []
            for v in closed or open_[:1]:
                v.seconds += (time.perf_counter() - started) / max(1, len(closed))
    while open_:
        v = open_.pop(0)
        started = time.perf_counter()
        v.vacuous, v.witness, found = witness(rb, sy, FORMS[v.pid], timeout_ms, seed, max_depth)
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
                cx = witnessed(rb, sy, extract(sy, rec.solver.model(), rec, k))
                if cx.follows:  # a witness that does not replay leaves the premise open
                    q.vacuous, q.witness = False, cx
                    open_.remove(q)
                    closed.append(q)
        finally:
            rec.solver.pop()
    return closed
