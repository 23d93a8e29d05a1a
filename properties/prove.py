"""Prove the catalogue properties on a rulebook with Z3: ``prove(rb) -> ProveOutcome``.

The driver: the verdict on each property from the engines (:mod:`.engines`), confirmed on the
interpreter (:mod:`.replay`), with its vacuity witness (:mod:`.witnesses`), the proofs of a run cut
into tasks for worker processes (:mod:`.schedule`), and the findings a report shows.

For each property the rulebook is compiled (:mod:`ruleproof.model.symbolic`) with the history
variables of the property's Z3 form (:mod:`.monitor_z3`), then:

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
from typing import TYPE_CHECKING, Any

import z3

from ruleproof.ground import interrupt
from ruleproof.ground.forked import fork_map
from ruleproof.ground.interrupt import context as z3_context
from ruleproof.ground.verdicts import ProofVerdict
from ruleproof.model.conformance import Disagreement, conformance
from ruleproof.model.menu import beyond_menu, menu_scope
from ruleproof.model.rulebook import Rulebook
from ruleproof.model.symbolic import System, compile_rulebook
from ruleproof.properties.catalogue import BY_ID, PROPERTIES
from ruleproof.reports.finding import WITHIN_MENU, CheckResult, Finding, Verdict
from ruleproof.reports.trace import trace_to_json

from .engines import (  # noqa: F401 - the engines' API, re-exported
    SPACER_OPTIONS,
    _change_ids,
    _merged,
    _options,
    _order,
    bmc,
    extract,
    find_violation,
    follow,
    k_induction,
    spacer,
    spacer_refined,
)
from .carry import ProofStore, carried_reason
from .form_conformance import form_check
from .monitor_z3 import FORMS
from .replay import Counterexample, replay
from .schedule import Task, plan
from .witnesses import witness, witnesses as find_witnesses
from .z3_system import _deps, _pc_successors, _set_seed, _steps, _Unroller, coi  # noqa: F401 - re-exported

if TYPE_CHECKING:
    from ruleproof.model.universe import Scope

__all__ = ["Counterexample", "Proof", "ProofVerdict", "ProveOutcome", "prove", "prove_one", "bmc", "spacer", "k_induction",
           "shared_system", "Task", "plan", "DEFAULT_TIMEOUT_MS", "DEFAULT_DEPTH", "SPACER_OPTIONS"]

DEFAULT_TIMEOUT_MS = 20_000
DEFAULT_DEPTH = 160


@dataclass
class Proof:
    """One property's proof attempt: its verdict, which engine gave it, in how long and why."""

    pid: str
    verdict: ProofVerdict
    engine: str
    seconds: float
    reason: str = ""
    reason_ru: str = ""  # the reason in Russian, where it has been put into words (else ``reason``)
    depth: int | None = None
    counterexample: Counterexample | None = None
    vacuous: bool | None = None  # None: not checked / unknown
    witness: Counterexample | None = None
    kinduction: str = ""
    carried: bool = False  # proved by an earlier proof's invariant, re-checked here (:mod:`.carry`)


@dataclass
class ProveOutcome:
    results: list[CheckResult]
    verdicts: list[Proof]
    z3_version: str
    seed: int
    seconds: float
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    max_depth: int = DEFAULT_DEPTH
    extra: dict = field(default_factory=dict)
    disagreement: Disagreement | None = None  # the interpreter and the Z3 model disagree on the rulebook (conformance)
    scope: Scope | None = None  # what the Z3 worlds cover of the combinations the rulebook admits (model/universe.py)

    @property
    def within_menu(self) -> bool:
        """A proof here covers only the Z3 menu's worlds: the rulebook admits combinations they leave out."""
        return self.scope is not None and not self.scope.whole


def verdict_name(v: Proof, within_menu: bool) -> str:
    """The verdict as reported: *proved within the menu* where the Z3 worlds leave combinations out."""
    return WITHIN_MENU if v.verdict == ProofVerdict.PROVED and within_menu else v.verdict


def prove_one(rb: Rulebook, pid: str, *, timeout_ms: int = DEFAULT_TIMEOUT_MS, seed: int = 0,
              max_depth: int = DEFAULT_DEPTH, vacuity: bool = True, kind: bool = False,
              shortest: bool = False, sy: System | None = None, carry: ProofStore | None = None) -> Proof:
    """The verdict on one property: Spacer, then BMC for a counterexample, then the premise.
    ``shortest``: when Spacer's path shows a violation, BMC (exact cone) looks for a shorter one.
    ``sy``: a system compiled with (at least) the form's history variables (:func:`shared_system`);
    default: one of its own, in a fresh context."""
    form = FORMS[pid]
    kw: dict[str, Any] = dict(timeout_ms=timeout_ms, seed=seed, max_depth=max_depth, vacuity=vacuity, kind=kind,
                              shortest=shortest, sy=sy, carry=carry)
    if form.split:
        return _prove_split(rb, pid, form, **kw)
    return _prove_form(rb, pid, form, **kw)


def _say_carried(v: Proof, carry: ProofStore | None, mark: int) -> None:
    """A proof's reason when any of its queries (those of the store's log from ``mark`` on) was carried
    (:mod:`.carry`)."""
    entries = carry.log[mark:] if carry is not None else []
    why = carried_reason(entries)
    if why is not None:
        v.reason, v.reason_ru = why
        v.carried = all(e is not None for e in entries)


def _spacer_by_parts(rb: Rulebook, sy: System, bad, pid: str, timeout_ms: int, seed: int, order, options=None,
                     carry: ProofStore | None = None):
    """Spacer on ``bad``; when that does not settle it (a path the replay does not confirm, unknown), on
    each disjunct of ``bad`` on its own (each has a smaller cone of influence): unsat when every part
    is; the first part with a confirmed path gives the counterexample."""
    r, found, cx = spacer_refined(rb, sy, bad, pid, timeout_ms, seed, order, options, coarse=True, carry=carry)
    if r == "unsat" or (cx is not None and cx.reproduced):
        return r, found, cx
    whole = bad(sy, sy.pre)
    parts = whole.children() if z3.is_or(whole) else []
    if len(parts) < 2:
        return r, found, cx
    results = []
    for part in parts:
        r, found, cx = spacer_refined(rb, sy, lambda _sy, _S, part=part: part, pid, timeout_ms, seed, order, options,
                                       coarse=True, carry=carry)
        if r == "sat" and cx is not None and cx.reproduced:
            return r, found, cx
        results.append(r)
    if all(r == "unsat" for r in results):
        return "unsat", None, None
    return next(r for r in results if r != "unsat"), None, None


def _shorten(rb: Rulebook, sy: System, bad, pid: str, v: Proof, timeout_ms: int, seed: int) -> None:
    """BMC on the exact cone up to one step less than the path found (``v.depth``): the shortest counterexample."""
    if v.depth is None:
        raise ValueError(f"{pid}: a violation without the depth of its path")
    try:
        res, model, u, k = bmc(sy, bad, v.depth - 1, timeout_ms, seed, exact=True)
    except z3.Z3Exception as exc:
        interrupt.check()
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


def _prove_split(rb: Rulebook, pid: str, form, **kw) -> Proof:
    """A property proved part by part: proved when every part is; violated when one is."""
    parts = []
    for i, sub in enumerate(form.split):
        v = _prove_form(rb, pid, sub, **{**kw, "vacuity": kw["vacuity"] and i == 0})
        parts.append(v)
        if v.verdict == ProofVerdict.VIOLATED:
            break
    return _combine(pid, form, parts)


def _combine(pid: str, form, parts: list[Proof]) -> Proof:
    """The verdict on a split form from the verdicts on its parts, in order (those after the first
    violated one may be missing): the first violated part, else proved when every part is, else the
    first part that is not; the premise is the first part's.  ``seconds``: the parts' sum."""
    first = parts[0]
    bad = next((v for v in parts if v.verdict == ProofVerdict.VIOLATED), None)
    if bad is not None:
        out = bad
    elif all(v.verdict == ProofVerdict.PROVED for v in parts):
        out = Proof(pid, ProofVerdict.PROVED, "spacer" if all(v.engine == "spacer" for v in parts) else "spacer+bmc", 0.0,
                      reason=f"{len(parts)} parts", carried=all(v.carried for v in parts))
        if any(v.carried for v in parts):
            out.reason += f", {sum(v.carried for v in parts)} carried"
    else:
        worst = next(v for v in parts if v.verdict != ProofVerdict.PROVED)
        out = Proof(pid, worst.verdict, worst.engine, 0.0, reason=f"part {form.split[parts.index(worst)].pid}: "
                      f"{worst.reason}", depth=worst.depth)
    out.vacuous, out.witness = first.vacuous, first.witness
    out.seconds = sum(v.seconds for v in parts)
    return out


def _prove_form(rb: Rulebook, pid: str, form, *, timeout_ms: int, seed: int, max_depth: int, vacuity: bool,
                kind: bool, shortest: bool = False, sy: System | None = None, carry: ProofStore | None = None) -> Proof:
    started = time.perf_counter()
    mark = ProofStore.mark(carry)
    if sy is None:
        ctx = z3_context()
        _set_seed(ctx, seed)
        sy = compile_rulebook(rb, form.hist, ctx)
    order = _order(form)
    r, found, cx = _spacer_by_parts(rb, sy, form.bad, pid, timeout_ms, seed, order, _options(form), carry)
    if r == "unsat":
        v = Proof(pid, ProofVerdict.PROVED, "spacer", 0.0)
        _say_carried(v, carry, mark)
    elif cx is not None and cx.reproduced:
        v = Proof(pid, ProofVerdict.VIOLATED, "spacer", 0.0, depth=found[2], counterexample=cx,
                    reason="Spacer's path (BMC not asked for a shorter one)")
        if shortest:
            _shorten(rb, sy, form.bad, pid, v, timeout_ms, seed)
    else:
        try:
            res, cx, k = find_violation(rb, sy, form.bad, pid, max_depth, timeout_ms, seed)
        except z3.Z3Exception as exc:
            interrupt.check()
            res, cx, k = f"unknown: {exc}", None, 0
        if res == "sat" and cx is not None and cx.reproduced:
            v = Proof(pid, ProofVerdict.VIOLATED, "spacer+bmc" if r == "sat" else "bmc", 0.0, depth=k, counterexample=cx)
        elif res == "sat":  # Z3 reaches a bad state the interpreter does not: a defect of the model, not a verdict
            v = Proof(pid, ProofVerdict.UNKNOWN, "spacer+bmc" if r == "sat" else "bmc", 0.0, depth=k, counterexample=cx,
                        reason=f"Z3's counterexample at depth {k} does not replay on the interpreter",
                        reason_ru=f"контрпример Z3 на глубине {k} не воспроизводится на интерпретаторе")
        elif res == "unsat":
            v = Proof(pid, ProofVerdict.PROVED, "bmc", 0.0, reason=f"Spacer: {r}; BMC: every play ends by depth {k}")
        elif res == "unsat-bounded":
            v = Proof(pid, ProofVerdict.BOUNDED, "bmc", 0.0, depth=k, reason=f"Spacer: {r}")
        else:
            v = Proof(pid, ProofVerdict.UNKNOWN, "spacer+bmc", 0.0, reason=f"Spacer: {r}; BMC: {res}")
    if kind and v.verdict == ProofVerdict.PROVED:
        v.kinduction = k_induction(sy, form.bad, 8, timeout_ms, seed)
    if vacuity and v.verdict in (ProofVerdict.PROVED, ProofVerdict.BOUNDED):
        v.vacuous, v.witness, _ = witness(rb, sy, form, timeout_ms, seed, max_depth)
    v.seconds = time.perf_counter() - started
    return v


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
    ctx = z3_context()
    _set_seed(ctx, seed)
    return compile_rulebook(rb, tuple(hist.values()), ctx)


def _finding(rb: Rulebook, v: Proof, seed: int) -> tuple[Finding, ...]:
    p = BY_ID[v.pid]
    form = FORMS[v.pid]
    replay_cmd = f"ruleproof prove {rb.path} --only {v.pid} --seed {seed}"
    if v.verdict == ProofVerdict.VIOLATED:
        cx = v.counterexample
        assert cx is not None  # a violated verdict carries its counterexample
        msg = cx.violation or None
        en = msg.en if msg else f"Z3 reaches a violation at depth {v.depth}; the replay does not show it"
        ru = msg.ru if msg else f"Z3 достигает нарушения на глубине {v.depth}; воспроизведение его не показывает"
        return (Finding(kind="property", check=v.pid, verdict=Verdict.VIOLATED, engine="z3", clauses=p.clauses,
                        message={"ru": ru, "en": en}, element=f"depth {v.depth}", where=rb.path, replay=replay_cmd,
                        trace=tuple(trace_to_json(cx.trace)), highlight=msg.events if msg else ()),)
    if v.verdict == ProofVerdict.UNKNOWN or v.verdict == ProofVerdict.BOUNDED:
        word = {ProofVerdict.UNKNOWN: ("неизвестно", "unknown"),
                ProofVerdict.BOUNDED: ("выполняется до глубины", "holds to depth")}
        ru, en = word[v.verdict]
        return (Finding(kind="unknown", check=v.pid, verdict=Verdict.UNKNOWN, engine="z3", clauses=p.clauses,
                        message={"ru": f"{ru}: {v.reason_ru or v.reason} {v.depth or ''}".strip(),
                                 "en": f"{en}: {v.reason} {v.depth or ''}".strip()}, where=rb.path,
                        replay=replay_cmd),)
    if v.vacuous:
        return (Finding(kind="vacuous", check=v.pid, verdict=Verdict.VIOLATED, engine="z3", clauses=p.clauses,
                        message={"ru": f"посылка недостижима: {form.premise_ru}",
                                 "en": f"the premise is unreachable: {form.premise_en}"}, where=rb.path,
                        replay=replay_cmd),)
    if v.vacuous is None and v.verdict == ProofVerdict.PROVED:
        stray = v.witness is not None and v.witness.follows is False
        why_ru = " (свидетель Z3 не воспроизводится на интерпретаторе)" if stray else ""
        why_en = " (Z3's witness does not replay on the interpreter)" if stray else ""
        return (Finding(kind="unknown", check=v.pid, verdict=Verdict.UNKNOWN, engine="z3", clauses=p.clauses,
                        message={"ru": f"достижимость посылки не установлена: {form.premise_ru}{why_ru}",
                                 "en": f"the premise's reachability is unknown: {form.premise_en}{why_en}"},
                        where=rb.path, replay=replay_cmd),)
    return ()


def _proof_opts(sy: System, *, timeout_ms: int, seed: int, max_depth: int, kinduction: bool, shortest: bool,
                carry: ProofStore | None = None, **_) -> dict:
    """The keyword arguments of one proof (:func:`prove_one`, :func:`_prove_form`) in a run of :func:`prove`
    with options ``kw`` (its witnesses are looked for apart: ``vacuity`` off)."""
    return dict(timeout_ms=timeout_ms, seed=seed, max_depth=max_depth, vacuity=False, kind=kinduction,
                shortest=shortest, sy=sy, carry=carry)


def _prove_chunk(rb: Rulebook, sy: System, pids: list[str], kw: dict) -> list[Proof]:
    """The verdicts on ``pids`` in one process, on ``sy``, witnesses shared among them."""
    verdicts = [prove_one(rb, pid, **_proof_opts(sy, **kw)) for pid in pids]
    if kw["vacuity"]:
        find_witnesses(rb, sy, verdicts, kw["timeout_ms"], kw["seed"], kw["max_depth"])
    return verdicts


def _disagreement(rb: Rulebook, seed: int) -> Disagreement | None:
    """Where the interpreter and the Z3 model of ``rb`` disagree (:mod:`ruleproof.model.conformance`), or
    where a property's Z3 form and its monitor do on the same runs (:mod:`.form_conformance`), or None."""
    return conformance(rb, seed=seed, also=form_check).disagreement


def _run_task(rb: Rulebook, sy: System, task: Task, kw: dict) -> list:
    """A proof task: its verdict; a witness task: (pid, vacuous, witness, seconds) per property; the
    conformance task: the disagreement (or None)."""
    if task.kind == "conformance":
        return [_disagreement(rb, kw["seed"])]
    opts = _proof_opts(sy, **kw)
    if task.kind == "witness":
        stubs = [Proof(pid, ProofVerdict.PROVED, "", 0.0) for pid in task.pids]
        find_witnesses(rb, sy, stubs, kw["timeout_ms"], kw["seed"], kw["max_depth"])
        return [(v.pid, v.vacuous, v.witness, v.seconds) for v in stubs]
    (pid,) = task.pids
    if task.part is None:
        return [prove_one(rb, pid, **opts)]
    return [_prove_form(rb, pid, FORMS[pid].split[task.part], **opts)]


def _prove_parallel(rb: Rulebook, sy: System, pids: list[str], tasks: list[Task], jobs: int,
                    kw: dict) -> tuple[list[Proof], Disagreement | None]:
    """``tasks`` (:func:`plan`) handed out to ``jobs`` forked processes as they come free (each a copy
    of ``sy``, compiled once here), then put together: a split form's parts as :func:`_prove_split`
    would (the first violated part), the witnesses on the proved properties.  Returns the verdicts and
    the conformance task's disagreement (None: agreed, or not asked)."""
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
        if v.pid in found and v.verdict in (ProofVerdict.PROVED, ProofVerdict.BOUNDED):
            v.vacuous, v.witness, seconds = found[v.pid]
            v.seconds += seconds
    disagreement = next((out[0] for t, out in done.items() if t.kind == "conformance"), None)
    return verdicts, disagreement


def _not_trusted(verdicts: list[Proof], en: str, ru: str) -> None:
    """Every verdict of ``verdicts`` that would hold (proved, or holds to a depth) becomes *unknown*, for
    the reason given in both languages; a violation stays (its counterexample was replayed)."""
    for v in verdicts:
        if v.verdict in (ProofVerdict.PROVED, ProofVerdict.BOUNDED):
            v.verdict, v.vacuous = ProofVerdict.UNKNOWN, None
            v.reason, v.reason_ru = en, ru


def prove(rb: Rulebook, *, only=None, timeout_ms: int = DEFAULT_TIMEOUT_MS, seed: int = 0,
          max_depth: int = DEFAULT_DEPTH, vacuity: bool = True, kinduction: bool = False,
          shortest: bool = False, jobs: int = 1, agree: bool = True, carry: ProofStore | None = None) -> ProveOutcome:
    """Every catalogue property (or ``only`` these ids) on ``rb``.  ``jobs`` > 1: the proofs and the
    witness searches (:func:`plan`) handed out to that many forked processes (each with its own copy
    of the Z3 context); the verdicts are the same.  ``agree``: also check that the interpreter and
    the Z3 model of ``rb`` agree (:mod:`ruleproof.model.conformance`; one more task beside the proofs);
    where they do not, no verdict that would hold is given (each is *unknown*, with the disagreement
    as the reason); nor where a number guard of ``rb`` reads more than the Z3 worlds can show
    (:func:`~ruleproof.model.menu.beyond_menu`).  ``carry``: where proofs are kept for the next rulebook —
    each proof first re-checks the invariant kept for its target there (:mod:`.carry`; the verdict's reason
    says so), and a new proof's invariant is kept."""
    started = time.perf_counter()
    wanted = [p for p in PROPERTIES if only is None or p.id in set(only)]
    pids = [p.id for p in wanted]
    kw = dict(timeout_ms=timeout_ms, seed=seed, max_depth=max_depth, vacuity=vacuity, kinduction=kinduction,
              shortest=shortest, carry=carry)
    sy = shared_system(rb, pids, seed) if pids else None  # compiled once (before any fork)
    tasks = plan(pids, jobs, vacuity, agree)
    workers = max(1, min(jobs, len(tasks)))
    if workers > 1 and sy is not None:  # more than one task: some property to prove
        verdicts, disagreement = _prove_parallel(rb, sy, pids, tasks, workers, kw)
    else:
        disagreement = _disagreement(rb, seed) if agree else None
        verdicts = _prove_chunk(rb, sy, pids, kw) if sy is not None else []
    if disagreement is not None:
        _not_trusted(verdicts, f"the Z3 model disagrees with the interpreter on this rulebook: {disagreement.text('en')}",
                     f"модель Z3 расходится с интерпретатором на этом своде правил: {disagreement.text('ru')}")
    beyond = beyond_menu(rb)
    if beyond is not None:  # a guard never true in the Z3 worlds: what follows it was never played there
        _not_trusted(verdicts, f"not exercised in the Z3 worlds: {beyond['en']}",
                     f"не проверено в мирах Z3: {beyond['ru']}")
    results = []
    scope = menu_scope(rb)
    for p, v in zip(wanted, verdicts):
        note = f"{verdict_name(v, not scope.whole)} ({v.engine}, {v.seconds:.2f} s)" + (f"; {v.reason}" if v.reason else "")
        results.append(CheckResult(p.id, p.clauses, {"ru": p.ru, "en": p.en}, "z3", _finding(rb, v, seed), note=note,
                                   seconds=v.seconds))
    return ProveOutcome(results, verdicts, z3.get_version_string(), seed, time.perf_counter() - started,
                        timeout_ms, max_depth, extra={"jobs": workers}, disagreement=disagreement,
                        scope=scope)
