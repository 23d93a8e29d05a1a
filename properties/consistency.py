"""Clause consistency: the temporal claims of the clauses as ordering constraints, checked by Z3.

Each :class:`Claim` states, for one or two clauses, an order between the events of a game action
(cost-X fixed at declaration, 542.2; computed magnitude-X right before the magnitude modifiers,
542.4/b2; «после …» only after the effect, 512.6.6/b2; …).  The claims name events by the
vocabulary (an operation and its parameters, or a priority window by a feature kind it admits),
never by a rulebook's step ids, so a draft cannot redefine them.

The rulebook contributes its actual order: every operation is an event with an integer position
and a step index; each step on the phase graph's main path has its index (tracked under the step),
each operation stands in its step after the operation before it (tracked under the operation), and
a kind of event a claim needs but the rulebook lacks is tracked as that absence.  The claims are
tracked under their clause ids.  ``sat`` → consistent.  ``unsat`` → the minimal cores: the claims
are enumerated into every minimal conflicting set (MARCO, drop-one shrinking), and each set's
rulebook elements are minimised by drop-one as well.  ``unknown`` is reported as unknown.

>>> from ruleproof.model.rulebook import load_rulebook
>>> out = consistency(load_rulebook())
>>> out.status, len(out.claims) == len(CLAIMS), out.core
('consistent', True, ())
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Iterable

import z3

from ruleproof.ground import interrupt
from ruleproof.ground.interrupt import context as z3_context
from ruleproof.model.graph import LOOP_GUARD, REFUSED_GUARD, is_guard
from ruleproof.model.rulebook import Rulebook
from ruleproof.model.rules_text import clause_key
from ruleproof.model.vocabulary import FEATURE_KINDS, OPERATIONS
from ruleproof.reports.finding import CheckResult, Finding, Verdict

from .claims import CLAIMS, Claim, Event, Selector

__all__ = ["Element", "Core", "ConsistencyOutcome", "consistency", "main_path", "ORDER_CHECK"]

ENGINE = "z3"
DEFAULT_SEED = 0
DEFAULT_TIMEOUT_MS = 10_000
MAX_CORES = 12
#: the main path's steps get indices 0, PATH_GAP, 2·PATH_GAP, …: room for the steps off the path between them
PATH_GAP = 1000
#: the check reported when the rulebook's own order is contradictory (a core without claims)
ORDER_CHECK = "rulebook-order"


# --- the rulebook's side ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Element:
    """A rulebook fact in the constraint set: a step's place, an operation's place, an absence."""

    label: str  # e.g. "step payment / op 1 fix_x"
    kind: str  # step | operation | absence | edge
    clauses: tuple[str, ...]
    where: str
    ru: str
    en: str

    def text(self, lang: str = "en") -> str:
        return self.ru if lang == "ru" else self.en


def _raw(v):
    return getattr(v, "raw", v)


def main_path(rb: Rulebook) -> list[str]:
    """The steps of a full game action: from the start, along each step's unguarded edge (else its last
    one), never the compound loop of 512.6.6/b4, until a terminal step or a step already on the path.

    >>> from ruleproof.model.rulebook import load_rulebook
    >>> main_path(load_rulebook())[:4]
    ['declaration', 'claim_resolution', 'dice', 'calculation']
    """
    path, cur = [rb.spec.start], rb.spec.start
    while True:
        edges = [e for e in rb.spec.steps[cur].next if not _is_loop(e)]
        if not edges:
            return path
        plain = [e for e in edges if is_guard(e.when, "always")]
        cur = (plain or edges)[-1 if not plain else 0].to
        if cur in path:
            return path
        path.append(cur)


def _is_loop(edge) -> bool:
    return is_guard(edge.when, LOOP_GUARD)


def _events(rb: Rulebook) -> list[Event]:
    """The operations of a declaration that stands: one run only when it is refused (540.2) is not
    ordered against the payment it never reaches."""
    out = []
    for sid, step in rb.spec.steps.items():
        for i, o in enumerate(step.operations):
            if is_guard(o.when, REFUSED_GUARD):
                continue
            params = {k: _raw(v) for k, v in o.params.items()}
            allows = tuple(params.get("allows") or ()) if o.op == "window" else ()
            out.append(Event(f"{sid}/{i}", sid, i, o.op, params, allows))
    return out


class _Encoding:
    """Z3 variables for one rulebook in one context, and the relation builders the claims use."""

    def __init__(self, rb: Rulebook, ctx: z3.Context) -> None:
        self.rb, self.ctx = rb, ctx
        self.events = _events(rb)
        # an event's position is its step's index (an integer) plus its offset within the step (in [0, 1)):
        # an event of an earlier step comes earlier, without a constraint per pair of events
        self.stp = {e.key: z3.Int(f"step[{e.key}]", ctx) for e in self.events}
        self.off = {e.key: z3.Real(f"offset[{e.key}]", ctx) for e in self.events}
        self.pos = {e.key: z3.ToReal(self.stp[e.key]) + self.off[e.key] for e in self.events}
        self.si = {sid: z3.Int(f"index[{sid}]", ctx) for sid in rb.spec.steps}
        # an event's own label: the claims constrain it only as far as its rulebook element is given
        self.present = {e.key: z3.Bool(f"op:{e.key}", ctx) for e in self.events}
        self._has: dict[str, z3.BoolRef] = {}

    def find(self, sel: Selector) -> list[Event]:
        return [e for e in self.events if sel.matches(e)]

    def has(self, sel: Selector) -> z3.BoolRef:
        if sel.key not in self._has:
            self._has[sel.key] = z3.Bool(f"exists[{sel.key}]", self.ctx)
        return self._has[sel.key]

    # relations: each a list of constraints over every matching pair of events
    def _given(self, events: Iterable[Event], expr: z3.BoolRef) -> z3.BoolRef:
        return z3.Implies(z3.And(*[self.present[e.key] for e in events]), expr)

    def same_step(self, a: Selector, b: Selector) -> list:
        return [self._given((x, y), self.stp[x.key] == self.stp[y.key]) for x in self.find(a) for y in self.find(b)
                if x != y]

    def before(self, *sels: Selector) -> list:
        return [self._given((x, y), self.pos[x.key] < self.pos[y.key]) for a, b in zip(sels, sels[1:])
                for x in self.find(a) for y in self.find(b)]

    def right_before(self, a: Selector, b: Selector) -> list:
        out = self.same_step(a, b) + self.before(a, b)
        for x in self.find(a):
            for y in self.find(b):
                px, py = self.pos[x.key], self.pos[y.key]
                out += [self._given((x, y, e), z3.Not(z3.And(px < self.pos[e.key], self.pos[e.key] < py)))
                        for e in self.events if e.op != "fix_x"]
        return out

    # the rulebook's facts: (label, expression, element)
    def facts(self, claims: tuple["Claim", ...]) -> list[tuple[str, z3.BoolRef, Element]]:
        rb, out = self.rb, []
        path = main_path(rb)
        for k, sid in enumerate(path):
            step = rb.spec.steps[sid]
            out.append((f"step:{sid}", self.si[sid] == PATH_GAP * k, Element(
                f"step {sid}", "step", tuple(step.cites), str(rb.where(("steps", sid))),
                f"шаг {sid} — {k + 1}-й на основном пути ({' → '.join(path[:k + 1])})",
                f"step {sid} is step {k + 1} along the main path ({' → '.join(path[:k + 1])})")))
        for sid, step in rb.spec.steps.items():
            for i, edge in enumerate(step.next):
                if _is_loop(edge) or (sid in path and edge.to in path):
                    continue  # an edge off the main path places the steps it joins
                out.append((f"edge:{sid}:{i}", self.si[sid] < self.si[edge.to], Element(
                    f"edge {sid} → {edge.to}", "edge", tuple(edge.cites), str(rb.where(("steps", sid, "next", i))),
                    f"переход {sid} → {edge.to}: шаг {edge.to} идёт после {sid}",
                    f"edge {sid} → {edge.to}: step {edge.to} comes after {sid}")))
        prev_in_step: dict[str, Event] = {}
        for e in self.events:
            o = rb.spec.steps[e.step].operations[e.index]
            expr = self.stp[e.key] == self.si[e.step]
            name = f"window {e.params.get('id')}" if e.op == "window" else e.op + (
                f" x={e.params['x']}" if "x" in e.params else "")
            ru = f"в шаге {e.step}"
            en = f"in step {e.step}"
            prev = prev_in_step.get(e.step)
            prev_in_step[e.step] = e
            if prev is not None:
                expr = z3.And(expr, self.pos[prev.key] < self.pos[e.key])
                pname = f"window {prev.params.get('id')}" if prev.op == "window" else prev.op
                ru += f", после операции {prev.index + 1} ({pname})"
                en += f", after operation {prev.index + 1} ({pname})"
            else:
                ru += ", первой операцией"
                en += ", as its first operation"
            out.append((f"op:{e.key}", expr, Element(
                f"step {e.step} / op {e.index + 1} {name}", "operation", tuple(o.cites),
                str(rb.where(("steps", e.step, "operations", e.index))), f"{name}: {ru}", f"{name}: {en}")))
        for sel in {s.key: s for c in claims for s in c.needs}.values():
            if not self.find(sel):
                where = self._placement(sel)
                out.append((f"absent:{sel.key}", z3.Not(self.has(sel)), Element(
                    f"no {sel.key}", "absence", (), where,
                    f"в своде нет операции: {sel.text('ru')}", f"the rulebook has no operation: {sel.text('en')}")))
        return out

    def _placement(self, sel: Selector) -> str:
        kinds = FEATURE_KINDS[sel.allows].steps if sel.allows else OPERATIONS[sel.op].placement(dict(sel.params))[0]
        for sid, step in self.rb.spec.steps.items():
            if kinds is None or step.kind in kinds:
                return str(self.rb.where(("steps", sid)))
        return str(self.rb.where(()))

    def axioms(self) -> list:
        """What positions mean (not tracked: no rule): an offset lies within its step."""
        return [z3.And(0 <= o, o < 1) for o in self.off.values()]


# --- results ------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Core:
    """One minimal conflict: drop any claim or element and the rest is consistent."""

    claims: tuple[str, ...]
    clauses: tuple[str, ...]
    elements: tuple[Element, ...]


@dataclass(frozen=True)
class ConsistencyOutcome:
    status: str  # consistent | conflict | unknown
    results: list[CheckResult]
    core: tuple[str, ...]  # the clause ids of every minimal core, in clause order
    cores: tuple[Core, ...]
    elements: tuple[Element, ...]  # the rulebook elements of every minimal core
    claims: tuple[str, ...]  # the claims checked
    clauses_checked: tuple[str, ...]  # the clauses they cite, in clause order
    seconds: float
    z3_version: str
    seed: int
    rulebook: str
    path: str
    complete: bool = True  # every minimal core listed (False: stopped at MAX_CORES)
    reason: str = ""  # for unknown


def _sorted_clauses(ids: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(set(ids), key=clause_key))


class _Unknown(Exception):
    pass


class _Checker:
    """Checks under assumptions (the labels), with drop-one shrinking; ``unknown`` raises."""

    def __init__(self, solver: z3.Solver, labels: dict[str, z3.BoolRef]) -> None:
        self.s, self.labels = solver, labels

    def sat(self, names: Iterable[str]) -> bool:
        r = self.s.check(*[self.labels[n] for n in names])
        if r == z3.unknown:
            interrupt.check()
            raise _Unknown(self.s.reason_unknown())
        return r == z3.sat

    def shrink(self, soft: list[str], hard: list[str]) -> list[str]:
        """A minimal subset of ``soft`` that is unsat together with all of ``hard`` (z3's core first, then
        drop-one in the given order)."""
        if self.sat(soft + hard):
            raise AssertionError("shrinking a satisfiable set")
        inside = {x.decl().name() for x in self.s.unsat_core()}
        kept = [n for n in soft if n in inside]
        for n in list(kept):
            trial = [m for m in kept if m != n]
            if not self.sat(trial + hard):
                kept = trial
        return kept


def consistency(rb: Rulebook, seed: int = DEFAULT_SEED, timeout_ms: int = DEFAULT_TIMEOUT_MS,
                max_cores: int = MAX_CORES, claims: tuple[Claim, ...] = CLAIMS) -> ConsistencyOutcome:
    """Check the claims against the rulebook's order; see the module docstring."""
    t0 = time.perf_counter()
    ctx = z3_context()
    enc = _Encoding(rb, ctx)
    facts = enc.facts(claims)
    fact_el = {name: el for name, _, el in facts}
    # a claim is tracked under its clause ids (and its own id, which tells two claims of a clause apart)
    claim_of = {f"{'+'.join(c.clauses)} {c.id}": c.id for c in claims}
    by_id = {c.id: c for c in claims}
    claim_exprs = {name: by_id[cid].constraint(enc) for name, cid in claim_of.items()}
    labels = {n: z3.Bool(n, ctx) for n in [*fact_el, *claim_exprs]}

    def solver() -> z3.Solver:
        s = z3.Solver(ctx=ctx)
        s.set("smt.random_seed", seed)
        s.set("timeout", timeout_ms)
        s.add(*enc.axioms())
        return s

    def outcome(status: str, cores: tuple[Core, ...] = (), complete: bool = True, reason: str = "") -> ConsistencyOutcome:
        cores = tuple(sorted(cores, key=lambda c: (len(c.claims), len(c.elements))))
        return ConsistencyOutcome(
            status, _results(claims, status, cores, complete, reason, rb),
            _sorted_clauses(c for core in cores for c in core.clauses), cores,
            tuple({e.label: e for core in cores for e in core.elements}.values()), tuple(c.id for c in claims),
            _sorted_clauses(cid for c in claims for cid in c.clauses),
            time.perf_counter() - t0, z3.get_version_string(), seed, rb.spec.id, rb.path, complete, reason)

    # the main check: every rulebook fact and every claim tracked under its label
    main = solver()
    for name, expr, _ in facts:
        main.assert_and_track(expr, labels[name])
    for name, expr in claim_exprs.items():
        main.assert_and_track(expr, labels[name])
    r = main.check()
    if r == z3.sat:
        return outcome("consistent")
    if r == z3.unknown:
        interrupt.check()
        return outcome("unknown", reason=main.reason_unknown())

    # unsat: every minimal set of claims that conflicts with the rulebook as written (MARCO), each with
    # its rulebook elements minimised
    s = solver()
    for name, expr in [*((n, e) for n, e, _ in facts), *claim_exprs.items()]:
        s.add(z3.Implies(labels[name], expr))
    check = _Checker(s, labels)
    fact_names = list(fact_el)

    def make_core(claim_set: list[str]) -> Core:
        kept = check.shrink(fact_names, claim_set)
        ids = tuple(claim_of[n] for n in claim_set)
        return Core(ids, _sorted_clauses(c for i in ids for c in by_id[i].clauses), tuple(fact_el[n] for n in kept))

    try:
        if not check.sat(fact_names):  # the rulebook's own order is contradictory
            return outcome("conflict", (make_core([]),))
        marco = _Marco(check, s, ctx, labels, claim_exprs, fact_names)
        mus_sets, complete = marco.run(max_cores)
        return outcome("conflict", tuple(make_core(mus) for mus in mus_sets), complete)
    except _Unknown as exc:
        return outcome("unknown", reason=str(exc))


class _Marco:
    """MARCO (Liffiton et al.): every minimal set of claims that, with the rulebook's facts, is
    unsatisfiable.  A *map* solver over one Boolean per claim proposes a subset no earlier answer
    covers (:meth:`seed`); a satisfiable seed is grown to a maximal satisfiable set and everything
    below it blocked (:meth:`grow`, :meth:`block_down`); an unsatisfiable one is shrunk to a minimal
    one and everything above it blocked (:meth:`shrink`, :meth:`block_up`)."""

    def __init__(self, check: _Checker, solver: z3.Solver, ctx: z3.Context, labels: dict, claim_exprs: dict,
                 facts: list[str]) -> None:
        self.check, self.solver, self.ctx = check, solver, ctx
        self.labels, self.claim_exprs, self.facts = labels, claim_exprs, facts
        self.claims = list(claim_exprs)
        self.map = z3.Solver(ctx=ctx)

    def seed(self) -> list[str] | None:
        """A subset of the claims no earlier answer decides (None: every subset is decided)."""
        if self.map.check() != z3.sat:
            return None
        m = self.map.model()
        return [n for n in self.claims if not z3.is_false(m.eval(self.labels[n], model_completion=False))]

    def grow(self, chosen: list[str]) -> list[str]:
        """A maximal satisfiable superset of ``chosen``: every claim the solver's model satisfies, then
        each remaining one that still fits."""
        model = self.solver.model()
        grown = [n for n in self.claims if n in chosen or z3.is_true(model.eval(self.claim_exprs[n], True))]
        for n in self.claims:
            if n not in grown and self.check.sat(grown + [n] + self.facts):
                grown.append(n)
        return grown

    def block_down(self, grown: list[str]) -> None:
        """No later seed is a subset of ``grown`` (all satisfiable)."""
        rest = [self.labels[n] for n in self.claims if n not in grown]
        self.map.add(z3.Or(*rest) if rest else z3.BoolVal(False, self.ctx))

    def shrink(self, chosen: list[str]) -> list[str]:
        """A minimal unsatisfiable subset of ``chosen`` (with the facts): z3's core, then drop-one."""
        return self.check.shrink(chosen, self.facts)

    def block_up(self, mus: list[str]) -> None:
        """No later seed is a superset of ``mus`` (all unsatisfiable, already explained)."""
        self.map.add(z3.Or(*[z3.Not(self.labels[n]) for n in mus]) if mus else z3.BoolVal(False, self.ctx))

    def run(self, max_cores: int) -> tuple[list[list[str]], bool]:
        """The minimal unsatisfiable sets, and whether the enumeration finished (at most ``max_cores``)."""
        found: list[list[str]] = []
        while (chosen := self.seed()) is not None:
            if len(found) >= max_cores:
                return found, False
            if self.check.sat(chosen + self.facts):
                self.block_down(self.grow(chosen))
            else:
                mus = self.shrink(chosen)
                self.block_up(mus)
                found.append(mus)
        return found, True


def _results(claims: tuple[Claim, ...], status: str, cores: tuple[Core, ...], complete: bool, reason: str,
             rb: Rulebook) -> list[CheckResult]:
    """A result per core that needs no claim (the rulebook's own order), then one per claim: its conflicts, or
    why it was not decided."""
    replay = f"ruleproof consistency {rb.path}"
    out = [_order_result(core, replay) for core in cores if not core.claims]
    order_broken = any(not core.claims for core in cores)
    for c in claims:
        mine = [(n, core) for n, core in enumerate(cores, 1) if c.id in core.claims]
        findings = [_conflict(c, n, core, replay) for n, core in mine]
        if not mine and (status == "unknown" or not complete or order_broken):
            findings.append(_undecided(c, status, order_broken, len(cores), reason, replay))
        out.append(CheckResult(check=c.id, clauses=c.clauses, statement={"ru": c.ru, "en": c.en}, engine=ENGINE,
                               findings=tuple(findings)))
    return out


def _order_result(core: Core, replay: str) -> CheckResult:
    """A core with no clause in it: the draft's own steps cannot be put in any order."""
    labels = "; ".join(e.label for e in core.elements)
    first = core.elements[0]
    return CheckResult(
        check=ORDER_CHECK, clauses=_sorted_clauses(c for e in core.elements for c in e.clauses),
        statement={"ru": "шаги свода можно выстроить по порядку", "en": "the rulebook's steps can be ordered"},
        engine=ENGINE, findings=(Finding(
            kind="conflict", check=ORDER_CHECK, verdict=Verdict.VIOLATED, engine=ENGINE,
            clauses=_sorted_clauses(c for e in core.elements for c in e.clauses),
            message={"ru": f"порядок самого свода противоречив ({labels})",
                     "en": f"the rulebook's own order is contradictory ({labels})"},
            element=first.label, where=first.where, replay=replay),))


def _conflict(c: Claim, n: int, core: Core, replay: str) -> Finding:
    """Claim ``c`` in conflict ``n``: the other claims of the core and the rulebook's elements in it."""
    others = [o for o in core.claims if o != c.id]
    first = next((e for e in core.elements if e.kind == "operation"), core.elements[0] if core.elements else None)
    with_ru = f" вместе с {', '.join(others)}" if others else ""
    with_en = f" together with {', '.join(others)}" if others else ""
    elements = "; ".join(e.label for e in core.elements)
    return Finding(
        kind="conflict", check=c.id, verdict=Verdict.VIOLATED, engine=ENGINE, clauses=core.clauses,
        message={"ru": f"противоречие {n}: {c.id}{with_ru} несовместимо с порядком свода ({elements})",
                 "en": f"conflict {n}: {c.id}{with_en} cannot hold with the rulebook's order ({elements})"},
        element=first.label if first else "", where=first.where if first else None,
        assumptions=c.assumes, replay=replay)


def _undecided(c: Claim, status: str, order_broken: bool, cores: int, reason: str, replay: str) -> Finding:
    """Why claim ``c`` in no core was not decided: the rulebook's own order is broken, Z3 gave no answer, or the
    enumeration of cores stopped."""
    if order_broken:
        msg = {"ru": "не проверено: порядок самого свода противоречив (см. ядро без утверждений)",
               "en": "not checked: the rulebook's own order is contradictory (see the core without claims)"}
    elif status == "unknown":
        msg = {"ru": f"Z3 не дал ответа ({reason})", "en": f"Z3 gave no answer ({reason})"}
    else:
        msg = {"ru": f"не установлено: перечисление ядер остановлено после {cores}",
               "en": f"undecided: the enumeration of cores stopped after {cores}"}
    return Finding(kind="unknown", check=c.id, verdict=Verdict.UNKNOWN, engine=ENGINE, clauses=c.clauses,
                   message=msg, assumptions=c.assumes, replay=replay)

