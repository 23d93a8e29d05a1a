"""Mutation self-test: do the properties and rulings catch faulty drafts of the bundled rules?

Mutation operators turn the bundled rulebook into drafts with one fault each: drop an operation,
leave out a whole step, move a fixation to another step, swap two operations, widen or narrow a window, flip a guard, give
priority to the other player, flip a parameter, change which strikes fire which trigger words and
which are a card's «нападение» (540.1.2).
Together with the named mutants of :mod:`.mutants` (M1–M8 first) each draft is run through the
structural checks, the shipped rulings, the properties on the rulings' traces and — only when none
of those kills it — the properties under Hypothesis.  A draft nothing kills goes to Z3 (a
violation it finds is a kill) and is compared with the bundled rules on the rulings and on random
plays.  It is *equivalent* only by proof: no sampled play differs, Z3 proves every property on it
and every property's premise stays reachable, as on the rules — so no reachable play tells the two
apart by anything a property observes.  A difference no check notices, or a premise the draft makes
unreachable, is a *survivor* (a gap to fix); a draft the samples cannot tell apart but Z3 does not
settle (unknown, timeout, or ``prove=False``) is *undecided*, never equivalent.
"""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field, replace
from typing import Callable, Iterator

import yaml

from ruleproof.ground.errors import Localized, RuleproofError
from ruleproof.ground.verdicts import ProofVerdict
from ruleproof.model.explore import Bounds, explore
from ruleproof.model.interpreter import RandomChoices, run
from ruleproof.model.rulebook import load_rulebook, load_rulebook_text
from ruleproof.model.scenario import run_scenario, shipped_scenarios
from ruleproof.model.structure import run_structure_checks
from ruleproof.model.vocabulary import FEATURE_KINDS, GUARDS, parse_guard
from ruleproof.properties.catalogue import PROPERTIES, check_all
from ruleproof.properties.consistency import consistency
from ruleproof.reports.finding import Verdict

from .bounded import bounded_worlds
from .mutants import MUTANTS, bundled_data
from .strategies import worlds

__all__ = ["Draft", "MutantResult", "SelftestReport", "drafts", "selftest", "by_property"]


@dataclass(frozen=True)
class Draft:
    id: str
    operator: str
    en: str
    ru: str
    data: dict
    #: the clause units the edit breaks: those cited by the element(s) it changes
    clauses: tuple[str, ...] = ()

    def load(self):
        """The draft as a rulebook, validated as a file would be (RuleproofError: it is not a loadable one)."""
        return load_rulebook_text(yaml.safe_dump(self.data, allow_unicode=True, sort_keys=False), self.id)


@dataclass
class MutantResult:
    id: str
    operator: str
    en: str
    status: str  # killed | equivalent | undecided | survived | invalid
    killed_by: list[str] = field(default_factory=list)
    clauses: tuple[str, ...] = ()
    reason: str = ""
    reason_ru: str = ""
    seconds: float = 0.0


@dataclass
class SelftestReport:
    results: list[MutantResult]
    seconds: float

    @property
    def counts(self) -> dict[str, int]:
        out = {"mutants": len(self.results)}
        for status in ("killed", "equivalent", "undecided", "survived", "invalid"):
            out[status] = sum(r.status == status for r in self.results)
        return out

    @property
    def kill_rate(self) -> float:
        c = self.counts
        relevant = c["killed"] + c["survived"]
        return c["killed"] / relevant if relevant else 1.0

    def property_kills(self) -> dict[str, list[str]]:
        return {p.id: [r.id for r in self.results if p.id in r.killed_by] for p in PROPERTIES}


# --- mutation operators -------------------------------------------------------------------------------------

def _copy(d: dict) -> dict:
    return copy.deepcopy(d)


def _ops_of(d: dict):
    for sid, step in d["steps"].items():
        for i, op in enumerate(step.get("operations", [])):
            yield sid, i, op


def _cites(*elements: dict) -> tuple[str, ...]:
    return tuple(dict.fromkeys(c for e in elements for c in e.get("cites", ())))


def _label(op: dict) -> str:
    return op["op"] + (f" {op['x']}" if "x" in op else "") + (f" {op['id']}" if op["op"] == "window" else "")


def drafts(base: dict | None = None) -> Iterator[Draft]:
    """Every one-fault draft the operators make of ``base`` (the bundled rulebook by default): the named
    mutants, then per operation (:data:`_OPERATION_FAULTS`), then per edge, step and table (:data:`_RULEBOOK_FAULTS`)."""
    base = base if base is not None else bundled_data()
    yield from _named(base)
    for sid, i, op in list(_ops_of(base)):
        for fault in _OPERATION_FAULTS:
            yield from fault(base, sid, i, op)
    for whole in _RULEBOOK_FAULTS:
        yield from whole(base)


def _named(base: dict) -> Iterator[Draft]:
    """The named mutants (:mod:`.mutants`) — those whose edit applies to ``base`` (a draft of the rules may lack
    the step or operation one edits)."""
    for mid, m in MUTANTS.items():
        d = _copy(base)
        try:
            m.edit(d)
        except (LookupError, TypeError):
            continue
        yield Draft(mid, "named", m.en, m.ru, d, m.clauses)


def _drop(base: dict, sid: str, i: int, op: dict) -> Iterator[Draft]:
    """The operation left out (a window is not: leaving it out is narrowing it to nothing)."""
    if op["op"] != "window":
        d = _copy(base)
        d["steps"][sid]["operations"].pop(i)
        yield Draft(f"drop:{sid}:{i}", "drop operation", f"drop {_label(op)} from {sid}",
                    f"убрать {_label(op)} из {sid}", d, _cites(op))


def _swap(base: dict, sid: str, i: int, op: dict) -> Iterator[Draft]:
    """The operation and the next one of its step in the other order."""
    n = len(base["steps"][sid]["operations"])
    if i + 1 < n:
        d = _copy(base)
        ops = d["steps"][sid]["operations"]
        ops[i], ops[i + 1] = ops[i + 1], ops[i]
        yield Draft(f"swap:{sid}:{i}", "swap operations", f"swap {_label(op)} and {_label(ops[i])} in {sid}",
                    f"поменять местами {_label(op)} и {_label(ops[i])} в {sid}", d,
                    _cites(op, ops[i]))


def _move_fixation(base: dict, sid: str, i: int, op: dict) -> Iterator[Draft]:
    """An X fixed in another step (one with edges)."""
    if op["op"] == "fix_x":
        for target in base["steps"]:
            if target == sid or not base["steps"][target].get("next"):
                continue
            d = _copy(base)
            moved = d["steps"][sid]["operations"].pop(i)
            d["steps"][target].setdefault("operations", []).append(moved)
            yield Draft(f"move:{sid}:{i}:{target}", "move fixation", f"fix {op['x']} X in {target} instead of {sid}",
                        f"фиксировать X {op['x']} в {target}, а не в {sid}", d, _cites(op))


def _window_faults(base: dict, sid: str, i: int, op: dict) -> Iterator[Draft]:
    """A window: the other player first, a kind it no longer admits, one it also admits."""
    if op["op"] == "window":
        d = _copy(base)
        d["steps"][sid]["operations"][i]["first"] = "non_active_player"
        yield Draft(f"first:{op['id']}", "priority", f"the other player first in window {op['id']}",
                    f"в окне {op['id']} первым — другой игрок", d, _cites(op))
        for kind in op["allows"]:
            d = _copy(base)
            d["steps"][sid]["operations"][i]["allows"] = [k for k in op["allows"] if k != kind]
            yield Draft(f"narrow:{op['id']}:{kind}", "narrow window", f"window {op['id']} no longer admits {kind}",
                        f"окно {op['id']} больше не допускает {kind}", d, _cites(op))
        for kind in FEATURE_KINDS:
            if kind not in op["allows"]:
                d = _copy(base)
                d["steps"][sid]["operations"][i]["allows"] = [*op["allows"], kind]
                yield Draft(f"widen:{op['id']}:{kind}", "widen window", f"window {op['id']} also admits {kind}",
                            f"окно {op['id']} допускает и {kind}", d, _cites(op))


def _flip_parameters(base: dict, sid: str, i: int, op: dict) -> Iterator[Draft]:
    """Each yes/no parameter flipped, printed and current values swapped."""
    for key, value in op.items():
        if isinstance(value, bool) or value in ("printed", "current"):
            d = _copy(base)
            flipped = (not value) if isinstance(value, bool) else ("current" if value == "printed" else "printed")
            d["steps"][sid]["operations"][i][key] = flipped
            yield Draft(f"param:{sid}:{i}:{key}", "flip parameter", f"{_label(op)} {key}={flipped}",
                        f"{_label(op)} {key}={flipped}", d, _cites(op))


def _flip_guard(base: dict, sid: str, i: int, op: dict) -> Iterator[Draft]:
    """The operation's guard negated."""
    if op.get("when", "always") != "always":
        d = _copy(base)
        d["steps"][sid]["operations"][i]["when"] = _negate(op["when"])
        yield Draft(f"guard:{sid}:{i}", "flip guard", f"{_label(op)} when {_negate(op['when'])}",
                    f"{_label(op)} при {_negate(op['when'])}", d, _cites(op))


def _flip_edges(base: dict) -> Iterator[Draft]:
    """Each guarded edge's guard negated."""
    for sid, step in base["steps"].items():
        for j, edge in enumerate(step.get("next", [])):
            if edge.get("when", "always") != "always":
                d = _copy(base)
                d["steps"][sid]["next"][j]["when"] = _negate(edge["when"])
                yield Draft(f"edge:{sid}:{j}", "flip guard", f"edge {sid} → {edge['to']} when {_negate(edge['when'])}",
                            f"переход {sid} → {edge['to']} при {_negate(edge['when'])}", d,
                            _cites(edge))


def _skip_steps(base: dict) -> Iterator[Draft]:
    """A step left out, its edges leading where its one default edge led."""
    for sid, step in base["steps"].items():
        default = [e for e in step.get("next", []) if e.get("when", "always") == "always"]
        if sid == base["start"] or len(default) != 1:
            continue
        d = _copy(base)
        del d["steps"][sid]
        for other in d["steps"].values():
            for edge in other.get("next", []):
                if edge["to"] == sid:
                    edge["to"] = default[0]["to"]
        into = [e for other in base["steps"].values() for e in other.get("next", []) if e["to"] == sid]
        yield Draft(f"skip:{sid}", "skip step", f"leave out step {sid} (its edges lead to {default[0]['to']})",
                    f"убрать шаг {sid} (переходы в него ведут в {default[0]['to']})", d,
                    _cites(step, *step.get("operations", []), *into))


def _miss_exits(base: dict) -> Iterator[Draft]:
    """512.6.6/b2, 512.6.1: a miss is a status, not a way out — a draft that leaves the later steps out on it."""
    for sid, step in base["steps"].items():
        if step.get("kind") in ("calculation", "blocking"):
            d = _copy(base)
            d["steps"][sid].setdefault("next", []).insert(0, {"to": _completion(base), "when": "missed",
                                                               "cites": ["512.6.6/b2"]})
            yield Draft(f"miss-exit:{sid}", "miss exit", f"a miss goes from {sid} straight to completion",
                        f"при промахе — из {sid} сразу к завершению способности", d, ("512.6.6/b2", "512.6.1"))


def _strike_table(base: dict) -> Iterator[Draft]:
    """The strike table loses its miss (512.6.6/b2 names it)."""
    for die, row in base["tables"]["strike_table"]["rows"].items():
        if row[0] == "miss":  # the strike table loses its miss (512.6.6/b2 names it)
            d = _copy(base)
            d["tables"]["strike_table"]["rows"][die] = ["weak", row[1]]
            yield Draft(f"strike:{die}:weak", "strike table", f"strike table row {die}: a weak strike, not a miss",
                        f"строка {die} Таблицы ударов: слабый удар, а не промах", d,
                        _cites(base["tables"]["strike_table"]))


def _word_tables(base: dict) -> Iterator[Draft]:
    """A trigger word or an assault without one of the strikes it names, or with the other."""
    for table, label, en, ru in (("trigger_words", "words", "«{word}» triggers now {now}", "«{word}» теперь срабатывает на {now}"),
                                 ("assault_strikes", "assault", "«{word}»: the card's assault is now {now}",
                                  "«{word}»: нападение карты теперь — {now}")):
        for word, strikes in base["tables"][table]["rows"].items():
            for strike in ("attack", "return_strike"):
                d = _copy(base)
                rows = d["tables"][table]["rows"]
                rows[word] = [s for s in strikes if s != strike] if strike in strikes else [*strikes, strike]
                yield Draft(f"{label}:{word}:{strike}", "trigger words" if table == "trigger_words" else "assault strikes",
                            en.format(word=word, now=rows[word]), ru.format(word=word, now=rows[word]), d,
                            _cites(base["tables"][table]))


#: the faults made of each operation, in this order
_OPERATION_FAULTS = (_drop, _swap, _move_fixation, _window_faults, _flip_parameters, _flip_guard)
#: the faults made of the rulebook's edges, steps and tables, in this order
_RULEBOOK_FAULTS = (_flip_edges, _skip_steps, _miss_exits, _strike_table, _word_tables)


PROPERTY_IDS = frozenset(p.id for p in PROPERTIES)


def _completion(base: dict) -> str:
    """The id of the completion step of rulebook data ``base``."""
    return next(sid for sid, step in base["steps"].items() if step.get("kind") == "completion")


def _negate(when: str) -> str:
    g = parse_guard(when)
    assert g is not None and g.name in GUARDS
    return when[4:].strip() if g.negated else f"not {when}"


# --- running ------------------------------------------------------------------------------------------------

def _turn_signature(sc, rb) -> tuple:
    """What a ruling's turn does on ``rb`` (every game action of it), whatever it expects."""
    try:
        return _signature(run_scenario(sc, rb).trace)
    except RuleproofError as err:  # e.g. a draft without a window the ruling scripts
        return ("refused", err.code)


def _signature(trace) -> tuple:
    """What a judge can observe of a run: how it ended, what was played, the final state."""
    plays = tuple((e.values.get("feature"), e.values.get("player")) for e in trace.events if e.op == "play")
    final = trace.events[-1].state
    return trace.outcome, plays, final.cards, replace(final.action, xs=tuple(
        replace(x, fixed_at=None) for x in final.action.xs)) if final.action else None


#: drafts the excerpts do not decide: 540.4 leaves to the general rules (not in the excerpts) in which
#: windows a resource modification of the executing action is declared
UNDECIDED = (("widen:", ":resource_modification"), "540.4: resource modifications are declared «по общим правилам», "
             "which the excerpts do not contain: which windows admit them is not decided by them",
             "540.4: модификации ресурсов заявляются «по общим правилам», которых нет в выдержках: в каких окнах "
             "их можно заявлять, выдержки не решают")


def _by_proof(rb, jobs: int) -> tuple[list[str], list[str], list[str]]:
    """Z3 on a draft nothing else killed: (violated, not proved, premise unreachable) property ids."""
    from ruleproof.properties.prove import prove  # looked up when called: a test replaces it

    out = prove(rb, jobs=jobs)
    # a violation the interpreter does not replay settles nothing, nor a proof whose witness search was left open
    confirmed = {v.pid for v in out.verdicts if v.verdict == ProofVerdict.VIOLATED and v.counterexample is not None
                 and v.counterexample.reproduced}
    settled = confirmed | {v.pid for v in out.verdicts if v.verdict == ProofVerdict.PROVED and v.vacuous is not None}
    return ([v.pid for v in out.verdicts if v.pid in confirmed],
            [v.pid for v in out.verdicts if v.pid not in settled],
            [v.pid for v in out.verdicts if v.verdict == ProofVerdict.PROVED and v.vacuous])


def selftest(examples: int = 100, random_plays: int = 60, hypothesis: bool = True,
             progress: Callable[[str], None] | None = None, only: list[str] | None = None,
             every_property: bool = False, prove: bool = True, jobs: int = 1) -> SelftestReport:
    """Run every draft (or those in ``only``) through the checks; see the module docstring.

    ``every_property``: Hypothesis runs on every draft that no *property* has killed yet (not only
    on those nothing killed), then the exhaustive pass on those Hypothesis leaves, then Z3 (with
    ``prove``) on those killed by something else but still by no property — counting, as `check` does, a
    premise the draft makes unreachable as that property's violation — so a draft reported killed by
    rulings alone was searched for a property violation by every engine: what :mod:`.breakage` needs to
    say "only rulings catch this".
    ``prove``: decide equivalence by Z3 (with ``jobs`` processes); without it a draft no sample tells
    apart is *undecided*."""
    started = time.perf_counter()
    every = list(drafts())
    _check_only(only, every)
    ref = _reference(random_plays)
    results = []
    all_drafts = [d for d in every if only is None or d.id in only]
    for n, draft in enumerate(all_drafts, 1):
        if progress:
            progress(f"{n}/{len(all_drafts)} {draft.id}")
        results.append(_run_draft(draft, ref, examples, hypothesis, every_property, prove, jobs))
    return SelftestReport(results, time.perf_counter() - started)


def _check_only(only: list[str] | None, every: list) -> None:
    """``--only`` names drafts that exist (RP150 otherwise, with how they are named)."""
    unknown = [i for i in only or () if i not in {d.id for d in every}]
    if unknown:
        listed, first = ", ".join(unknown), ", ".join(d.id for d in every[:5])
        raise RuleproofError("RP150", None, problem=Localized(f"в --only неизвестный вариант правил: {listed}",
                                                              f"unknown draft {listed} in --only"),
                             fix=Localized(f"называйте варианты так, как их перечисляет ruleproof selftest, например {first}",
                                           f"name drafts as `ruleproof selftest` lists them, e.g. {first}"))


@dataclass(frozen=True)
class _Reference:
    """What the bundled rulebook does, once for every draft: the shipped rulings (and each one's turn) and the
    random plays (each one's run)."""

    scenarios: list
    turns: dict
    worlds: list
    runs: list


def _reference(random_plays: int) -> _Reference:
    bundled = load_rulebook()
    scenarios = [sc for _, sc in shipped_scenarios()]
    worlds = _random_worlds(random_plays)
    return _Reference(scenarios, {sc.spec.id: _turn_signature(sc, bundled) for sc in scenarios}, worlds,
                      [_signature(run(bundled, w, RandomChoices(seed=n))) for n, w in enumerate(worlds)])


def _run_draft(draft, ref: _Reference, examples: int, hypothesis: bool, every_property: bool, prove: bool,
               jobs: int) -> MutantResult:
    """One draft through the checks: killed by what, or why it survives (see :func:`selftest`)."""
    t0 = time.perf_counter()
    res = MutantResult(draft.id, draft.operator, draft.en, "survived", clauses=draft.clauses)
    try:
        rb = draft.load()
    except RuleproofError as err:
        res.status, res.reason = "invalid", f"not a loadable rulebook: {err.code} {err.what('en')}"
        res.reason_ru = f"свод не загружается: {err.code} {err.what('ru')}"
        return res
    _checks_and_rulings(rb, ref.scenarios, res)
    _engines(rb, res, examples, hypothesis, every_property, prove, jobs)
    if res.killed_by:
        res.status = "killed"
    elif draft.id.startswith(UNDECIDED[0][0]) and draft.id.endswith(UNDECIDED[0][1]):
        res.status, res.reason, res.reason_ru = "undecided", UNDECIDED[1], UNDECIDED[2]
    else:
        same = all(_turn_signature(sc, rb) == ref.turns[sc.spec.id] for sc in ref.scenarios) and all(
            _signature(run(rb, w, RandomChoices(seed=k))) == ref.runs[k] for k, w in enumerate(ref.worlds))
        _decide(res, rb, same, prove, jobs, len(ref.scenarios), len(ref.worlds))
    res.seconds = time.perf_counter() - t0
    return res


def _checks_and_rulings(rb, scenarios: list, res: MutantResult) -> None:
    """What kills a draft cheaply: the structural checks, the clauses' claims, the shipped rulings and every
    property on each ruling's game actions."""
    res.killed_by += [r.check for r in run_structure_checks(rb.graph, rb.index) if not r.holds]
    res.killed_by += [r.check for r in consistency(rb).results if not r.holds]  # the clauses' claims
    for sc in scenarios:
        try:
            outcome = run_scenario(sc, rb)
        except RuleproofError:
            res.killed_by.append(f"ruling:{sc.spec.id}")
            continue
        if not outcome.passed:
            res.killed_by.append(f"ruling:{sc.spec.id}")
        for part in outcome.parts:  # each game action of the turn: a property speaks of one action
            res.killed_by += [p.id for p, _ in check_all(part.events) if p.id not in res.killed_by]


def _engines(rb, res: MutantResult, examples: int, hypothesis: bool, every_property: bool, prove: bool,
             jobs: int) -> None:
    """The engines on a draft the cheap checks left alive (with ``every_property``: that no property killed):
    Hypothesis, then the exhaustive pass, then Z3."""
    wanted = not by_property(res.killed_by) if every_property else not res.killed_by
    if wanted and hypothesis and examples > 0:
        from .run import hypothesis_pass  # Hypothesis is slow to import: only when its pass runs

        out = hypothesis_pass(rb, examples=examples, shrinks=10, cache_dir=None)
        # only a violation kills: "not exercised" (the draft's worlds never played a premise) says
        # nothing of the draft
        res.killed_by += [r.check for r in out.results if r.verdict == Verdict.VIOLATED and r.check not in res.killed_by]
    if every_property and not by_property(res.killed_by):
        res.killed_by += [p for p in _explored_violations(rb) if p not in res.killed_by]
    if every_property and prove and not by_property(res.killed_by) and res.killed_by:
        # last, Z3 — as `check` reports it: a replayed violation, or a premise the draft makes unreachable
        # (reachable on the rules: none is vacuous there), is a property that fails on the draft
        violated, _, vacuous = _by_proof(rb, jobs)
        res.killed_by += [p for p in (*violated, *vacuous) if p not in res.killed_by]


def by_property(killed_by) -> bool:
    """Some property of the catalogue is among what killed a draft (not only checks or rulings)."""
    return any(k in PROPERTY_IDS for k in killed_by)


def _explored_violations(rb) -> list[str]:
    """The properties the exhaustive pass finds violated on ``rb`` within explore's default bounds, over the
    draft's own worlds (a widened window gets the loadouts that play into it) — asked where neither the
    rulings' traces nor Hypothesis's sample showed a property violation, so that "only a check (or rulings)
    notices" means that no engine's property does."""
    b = Bounds()
    return sorted(explore(rb, bounded_worlds(b.x_max, b.loadouts, rb), b).violations)


def _decide(res: MutantResult, rb, same: bool, prove: bool, jobs: int, n_rulings: int, n_plays: int) -> None:
    """The status of a draft nothing has killed so far: Z3 may still kill it; equivalent only by proof."""
    sampled_en = f"no behaviour differs on the {n_rulings} rulings and {n_plays} random plays"
    sampled_ru = f"поведение не отличается ни на {n_rulings} разъяснениях, ни на {n_plays} случайных партиях"
    violated, open_, vacuous = _by_proof(rb, jobs) if prove else ([], [], [])
    if violated:
        res.status, res.killed_by = "killed", [*res.killed_by, *violated]
    elif vacuous:
        res.status = "survived"
        res.reason = f"Z3: the premise of {', '.join(vacuous)} is unreachable on the draft (reachable on the rules)"
        res.reason_ru = f"Z3: посылка {', '.join(vacuous)} недостижима на проекте (на правилах достижима)"
    elif not same:
        res.status = "survived"
        res.reason = "behaviour differs, yet no check, ruling, property or proof notices (a gap)"
        res.reason_ru = "поведение отличается, но ни проверка, ни разъяснение, ни свойство, ни доказательство этого не замечают (пробел)"
    elif not prove or open_:
        res.status = "undecided"
        why_en = f"Z3 did not settle {', '.join(open_)}" if open_ else "not proved (no Z3 pass asked)"
        why_ru = f"Z3 не решил {', '.join(open_)}" if open_ else "не доказано (проход Z3 не запрошен)"
        res.reason, res.reason_ru = f"{sampled_en}; {why_en}", f"{sampled_ru}; {why_ru}"
    else:
        res.status = "equivalent"
        res.reason = f"{sampled_en}, and Z3 proves every property on it with every premise reachable"
        res.reason_ru = f"{sampled_ru}, и Z3 доказывает на нём каждое свойство, причём каждая посылка достижима"


def _random_worlds(n: int) -> list:
    """Worlds drawn reproducibly from the Hypothesis strategy (for the equivalence comparison)."""
    from hypothesis import HealthCheck, Phase, given, settings  # hypothesis is slow to import: only when it is used

    out = []

    @settings(max_examples=n, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate])
    @given(worlds())
    def collect(w):
        out.append(w)

    collect()
    return out[:n]
