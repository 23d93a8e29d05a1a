"""Proofs carried over from one rulebook to the next: Spacer's inductive invariant, kept on disk and
re-checked on another rulebook's rules (an edit, a draft) instead of a new Spacer query.

Spacer proves that no reachable state meets a target by an invariant per location (pc): it holds in
the initial state, every rule (one step of the system, over the cone's variables) keeps it, and no
state it admits meets the target.  Those are plain SMT queries, one per rule, each far cheaper than
the search that found the invariant.  So a proof is kept as its invariant (a :class:`Certificate`,
one file per target under the folder of a :class:`ProofStore`), and on the next rulebook it is
*re-checked*: if every rule keeps it there too, the target is unreachable there — proved, whatever
changed.  If one rule does not (the edit reached the proof), Spacer runs as before.

A certificate also lists the digests of the rules it was re-checked on (by this module's own solver,
not Spacer's word); a later re-check skips the rules whose text is the same (same variables, same
locations) and checks only those the edit changed.  A certificate fresh from Spacer lists none: its
first re-check covers every rule.  Nothing is trusted by key: a certificate of another code version
or another rulebook is only a candidate invariant.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as d:
...     store = ProofStore(d)
...     store.put("k", Certificate((("x", 2),), (("pc", 1), ("x", 2)), ("a",), {"a": "(bvule x #b01)"}))
...     store.get("k").invariants
{'a': '(bvule x #b01)'}
"""

from __future__ import annotations

import hashlib
import json
from contextlib import suppress
from dataclasses import asdict, dataclass, field
from typing import Any, NamedTuple
from pathlib import Path

import z3

from ruleproof.ground import interrupt
from ruleproof.ground.errors import RuleproofError
from ruleproof.ground.fileio import write_atomic
from ruleproof.model.symbolic import System

from .z3_system import _and, _implies, _subst

__all__ = ["GIVE_UP", "Carried", "Certificate", "ProofStore", "RulePart", "carried_reason", "certificate", "recheck", "rule_formula",
           "RULE_TIMEOUT_MS"]

#: the time limit of one rule's re-check (a rule it cannot settle in time: Spacer runs instead)
RULE_TIMEOUT_MS = 2000
#: after this many checked certificates refused and none carried, a run stops re-checking (measured on the
#: selftest drafts: where the first three fail, as on a named mutant or a moved fixation, none carries, and each
#: refusal costs a re-check of every rule — up to half as long again as the search)
GIVE_UP = 3


@dataclass(frozen=True)
class Certificate:
    """A proof that a target is unreachable, as an inductive invariant per location."""

    keep: tuple[tuple[str, int], ...]  # the cone's variables (name, bits): the relations' arguments, in order
    widths: tuple[tuple[str, int], ...]  # every variable of the system it was checked on (the rules' bound ones)
    locs: tuple[str, ...]  # the locations of that system, in pc order
    invariants: dict[str, str]  # per location, SMT-LIB text over the cone's variables (absent: unreachable)
    rules: frozenset[str] = frozenset()  # digests of each rule re-checked here with these invariants (none: from Spacer)

    def to_json(self) -> dict:
        return {**asdict(self), "rules": sorted(self.rules)}

    @classmethod
    def from_json(cls, data: dict) -> Certificate:
        return cls(tuple(tuple(k) for k in data["keep"]), tuple(tuple(w) for w in data["widths"]),
                   tuple(data["locs"]), dict(data["invariants"]), frozenset(data["rules"]))


#: what is kept for a target whose proofs do not check as certificates
_NOT_KEPT = Certificate((), (), (), {})


@dataclass(frozen=True)
class Carried:
    """A proof carried by re-checking an invariant: how many rules were checked, how many skipped as unchanged."""

    checked: int
    unchanged: int


def carried_reason(entries: list) -> tuple[str, str] | None:
    """The reason of a proof whose queries' outcomes are ``entries`` (a slice of :attr:`ProofStore.log`), in
    English and Russian, when any was carried; None when all were proved afresh (or there were none).

    >>> carried_reason([Carried(3, 150)])[0]
    "carried: an earlier proof's invariant re-checked on 3 rules (150 unchanged)"
    """
    carried = [e for e in entries if e is not None]
    if not carried:
        return None
    checked, unchanged = sum(e.checked for e in carried), sum(e.unchanged for e in carried)
    en = f"carried: an earlier proof's invariant re-checked on {checked} rules ({unchanged} unchanged)"
    ru = f"перенесено: инвариант прежнего доказательства проверен на {checked} правилах ({unchanged} без изменений)"
    if len(carried) < len(entries):
        en += f"; {len(entries) - len(carried)} of {len(entries)} queries proved afresh"
        ru += f"; {len(entries) - len(carried)} из {len(entries)} запросов доказаны заново"
    return en, ru


def _locs(sy: System) -> tuple[str, ...]:
    """The locations as text, in pc order (kind, step, operation's index)."""
    return tuple("/".join(map(str, loc)) for loc in sy.locs)


def _widths(sy: System) -> tuple[tuple[str, int], ...]:
    return tuple((v.name, v.width) for v in sy.vars)


def certificate(sy: System, vs: list, rel: dict, fp: z3.Fixedpoint) -> Certificate | None:
    """The invariant of Spacer's ``unsat`` answer in ``fp`` (relations ``rel`` per pc over ``vs``), or None
    when its answer has a shape this does not read (the proof is then simply not kept)."""
    pre = [sy.pre[v.name] for v in vs]
    by_name = {f.name(): i for i, f in rel.items()}
    locs = _locs(sy)
    invariants: dict[str, str] = {}
    try:
        answer = fp.get_answer()
        for c in answer.children() if z3.is_and(answer) else [answer]:
            body = c.body() if z3.is_quantifier(c) else c
            if not z3.is_eq(body):
                return None
            app, inv = body.children()
            if app.decl().name() == "Err":  # the error relation's value: nothing to keep
                continue
            if not z3.is_quantifier(c):  # a relation without arguments (an empty cone)
                if app.decl().name() not in by_name or pre:
                    return None
                invariants[locs[by_name[app.decl().name()]]] = inv.sexpr()
                continue
            if app.decl().name() not in by_name or app.num_args() != len(pre):
                return None
            args: list = [None] * c.num_vars()
            for j, x in enumerate(app.children()):
                if not z3.is_var(x):
                    return None
                args[z3.get_var_index(x)] = pre[j]
            if any(a is None for a in args):
                return None
            invariants[locs[by_name[app.decl().name()]]] = z3.substitute_vars(inv, *args).sexpr()
    except z3.Z3Exception:
        interrupt.check()
        return None
    return Certificate(tuple((v.name, v.width) for v in vs), _widths(sy), locs, invariants)


class RulePart(NamedTuple):
    """One rule of a Spacer query before it is put together (:func:`rule_formula`), and what tells it apart
    (``key``: the head relation's name, its arguments, the body relation's name, the other body terms; the
    target at a location read before Z3 simplified it — the simplified form's order of terms depends on the
    order the context made them in, so the same rule would read differently in two runs)."""

    loc: int
    head: Any
    body: tuple
    key: tuple


def rule_formula(sy: System, part: RulePart):
    """A rule put together: its body implies its head, the location's pc put in."""
    return _subst(_implies(_and(list(part.body)), part.head), [(sy.pre["pc"], sy.val(part.loc, "pc"))])


def _sha(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


def _term_digest(memo: dict, e) -> str:
    """A digest of the text of ``e``; a disjunction or conjunction from those of its terms, and each term's kept
    in ``memo`` by its Z3 id (with the term itself, so that no other term takes that id): the guards and new
    values the rules of many targets share are written out once per system."""
    got = memo.get(e.get_id())
    if got is not None:
        return got[1]
    if z3.is_or(e) or z3.is_and(e):
        d = _sha(("\0or" if z3.is_or(e) else "\0and") + ",".join(_term_digest(memo, c) for c in e.children()))
    else:
        d = _sha(e.sexpr())
    memo[e.get_id()] = (e, d)
    return d


def _rule_digest(memo: dict, part: RulePart) -> str:
    """Equal digests: the same rule (:func:`rule_formula`), up to equivalence, on systems of the same variables and
    locations (the body relation's arguments are the cone's variables, the same by the certificate's ``keep``)."""
    head, args, body_rel, rest = part.key
    return _sha(f"{part.loc}|{head}(" + ",".join(_term_digest(memo, a) for a in args) + f")|{body_rel}|"
                + ",".join(_term_digest(memo, t) for t in rest))


def recheck(sy: System, cert: Certificate, rules_for) -> tuple[Carried, Certificate] | None:
    """Does ``cert`` prove its target on ``sy``?  ``rules_for(vs, rel, err)``: the rules of the target's
    query over the cone ``vs``, as :class:`RulePart` (as :func:`~.engines.spacer` builds them).  Returns what
    was checked and the certificate as re-checked on ``sy`` (to keep for the next rulebook), or None: a
    variable it does not cover, or a rule that does not keep the invariant (or is not settled in time) —
    Spacer decides then.  A location it has no invariant for is unreachable by its claim (false there)."""
    ctx = sy.ctx
    locs = _locs(sy)
    if any(sy.width.get(n) != w for n, w in cert.keep):
        return None
    pre = [sy.pre[n] for n, _ in cert.keep]
    sorts = [z3.BitVecSort(w, ctx) for _, w in cert.keep]
    rel = {i: z3.Function(f"L{i}", *sorts, z3.BoolSort(ctx)) for i in range(len(locs))}
    same = bool(cert.rules) and cert.widths == _widths(sy) and cert.locs == locs
    inv = _Invariants(sy, cert, locs, pre)
    solver = z3.SolverFor("QF_UFBV", ctx=ctx)  # measured: settles more rules, sooner, than the default solver
    solver.set("timeout", RULE_TIMEOUT_MS)
    digests, checked = [], 0
    memo = sy.__dict__.setdefault("_carry_digests", {})
    try:
        by_name = {v.name: v for v in sy.vars}
        seal = _sha(json.dumps([cert.keep, sorted(cert.invariants.items())]))
        for part in rules_for([by_name[n] for n, _ in cert.keep], rel, z3.Function("Err", z3.BoolSort(ctx))):
            digest = _sha(seal + _rule_digest(memo, part))  # the rule and the invariant it was checked with
            digests.append(digest)
            if same and digest in cert.rules:
                continue
            checked += 1
            solver.push()
            solver.add(z3.Not(inv.rule(part)))
            result = solver.check()
            solver.pop()
            if result != z3.unsat:  # one query per rule (measured: one for many runs into the time limit)
                interrupt.check()
                return None
    except z3.Z3Exception:
        interrupt.check()
        return None
    kept = Certificate(cert.keep, _widths(sy), locs, {k: v for k, v in cert.invariants.items() if k in locs},
                       frozenset(digests))
    return Carried(checked, len(digests) - checked), kept


class _Invariants:
    """A certificate's invariants on a system, read as terms when a rule first needs them."""

    def __init__(self, sy: System, cert: Certificate, locs: tuple[str, ...], pre: list) -> None:
        self.sy, self.cert, self.locs, self.pre = sy, cert, locs, pre
        self.decls = {p.decl().name(): p.decl() for p in pre}
        self.read: dict[str, Any] = {}

    def at(self, name: str):
        """The invariant of relation ``name`` (``L<pc>``; ``Err``: false) over the cone's variables."""
        if name not in self.read:
            text = None if name == "Err" else self.cert.invariants.get(self.locs[int(name[1:])])
            self.read[name] = z3.BoolVal(False, self.sy.ctx) if text is None else z3.parse_smt2_string(
                f"(assert {text})", decls=self.decls, ctx=self.sy.ctx)[0]
        return self.read[name]

    def rule(self, part: RulePart):
        """The rule with each relation replaced by its invariant: what must be valid for the invariant to be kept."""
        head, args, body_rel, _ = part.key
        post = self.at(head)
        if args and self.pre:
            post = _subst(post, list(zip(self.pre, args)))
        body = ([self.at(body_rel)] if body_rel else []) + list(part.body[1:] if body_rel else part.body)
        return _subst(_implies(_and(body), post), [(self.sy.pre["pc"], self.sy.val(part.loc, "pc"))])


@dataclass
class ProofStore:
    """The certificates kept in ``folder`` (one JSON file per target: the last proof of it), and what this
    process carried with them (``log``: a :class:`Carried` per carried proof, None per proof made afresh).
    ``keep_new``: keep new proofs too (else only those carried are kept, as re-checked here).
    The folder is trusted as the run cache is (:mod:`ruleproof.runcache`): a rule is skipped only if its
    digest, sealed with the invariants it was checked with, is listed — an invariant edited in the file
    is checked on every rule again."""

    folder: Path
    keep_new: bool = True  # keep the invariant of each new proof (its extraction costs ~15% of the search)
    log: list = field(default_factory=list)
    refused: int = 0  # checked certificates this process re-checked that did not prove their target here

    def __post_init__(self) -> None:
        self.folder = Path(self.folder)

    def _path(self, key: str) -> Path:
        return self.folder / f"{hashlib.sha256(key.encode()).hexdigest()}.json"

    def get(self, key: str) -> Certificate | None:
        try:
            return Certificate.from_json(json.loads(self._path(key).read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError):  # none, or damaged: not a candidate
            return None

    @staticmethod
    def mark(store: ProofStore | None) -> int:
        """Where ``store``'s log ends now (0 without a store): what a proof's queries add is read from there."""
        return len(store.log) if store is not None else 0

    def carry(self, sy: System, target, rules_for) -> bool:
        """Is ``target`` (a term over ``sy.pre``) proved unreachable by the certificate kept for it, re-checked
        on ``sy``?  (Then the certificate as re-checked replaces it.)"""
        key = target.sexpr()
        cert = self.get(key)
        if cert is None or not cert.invariants and not cert.keep:
            return False
        if self.refused >= GIVE_UP and not any(e is not None for e in self.log):
            return False  # this rulebook is far from the one the proofs came from: search, do not re-check
        got = recheck(sy, cert, rules_for)
        if got is None:
            self.refused += bool(cert.rules)  # a checked certificate the change reached
            if not cert.rules and cert.widths == _widths(sy) and cert.locs == _locs(sy):
                # Spacer's own answer does not check on the rules it was given (it answers for the rules
                # as its passes transformed them): the next one would not either
                self.put(key, _NOT_KEPT)
            return False
        self.put(key, got[1])
        self.log.append(got[0])
        return True

    def keep(self, target, cert: Certificate | None) -> None:
        """A proof of ``target`` made afresh: its certificate kept (if Spacer's answer could be read, and
        an earlier one from the same system did not fail to check)."""
        self.log.append(None)
        if not self.keep_new:
            return
        key = target.sexpr()
        old = self.get(key)
        if cert is not None and (old is None or old.invariants or old.keep):
            self.put(key, cert)

    def put(self, key: str, cert: Certificate) -> None:
        with suppress(OSError, RuleproofError):  # a read-only folder: the proof stands, only not kept
            self.folder.mkdir(parents=True, exist_ok=True)
            write_atomic(self._path(key), json.dumps(cert.to_json(), ensure_ascii=False))
