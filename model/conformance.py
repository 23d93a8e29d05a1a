"""Conformance: the interpreter and the Z3 transition system of one rulebook mean the same thing.

Every rulebook the tool is given — the bundled one, a draft, a mutant — is compiled twice: run by
the interpreter (:mod:`.interpreter`) and encoded for Z3 (:mod:`.symbolic`).  A proof is only worth
what that agreement is worth, so it is checked on the rulebook itself, not once on the bundled one.

Worlds are drawn from the symbolic world menu and played with random dice and responses (a seeded
``random.Random``: the same seed gives the same runs).  For every interpreter event the state before
and after it is abstracted (``symbolic.abstract``) and every disjunct at that location is evaluated
on the abstraction (compiled once into Python by :mod:`.z3eval`).  The check demands:

* exactly one disjunct takes the interpreter's step, and its successor is the interpreter's state
  (no other transition, none missing);
* at a player's choice, the disjuncts enabled are exactly the interpreter's options plus a pass;
* at a die roll, the rulebook's lowest and highest faces are each a successor;

and the reverse: paths sampled from the Z3 system itself (a random walk over its enabled
disjuncts, evaluated on the vector) are replayed on the interpreter, which must take the same
steps (the same operation, window turn or edge at the same place, the same feature played).

A failure is a :class:`Disagreement`: a code, the word (operation or event), the step, the event,
and what the interpreter and Z3 each gave, with the world and answers that replay it.

A caller may add a check of its own on the same runs (``also``: the property forms,
:mod:`ruleproof.properties.form_conformance`): each run that agreed is handed over as its
:class:`Step` records — the located event, the disjunct that took it, the vectors before and after.

>>> from ruleproof.model.rulebook import load_rulebook
>>> out = conformance(load_rulebook(), runs=5, seed=0)
>>> out.ok, out.runs, out.steps > 100
(True, 5, True)
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from ruleproof.reports.finding import CheckResult, Finding, Verdict

from .interpreter import NotOffered, Stepper
from .paths import Located, locate, same_step
from .rulebook import Rulebook
from .symbolic import OPTIONS, Disjunct, System, abstract, beyond_bounds, compile_rulebook, menu_world, world_state
from .z3eval import compile_terms

__all__ = ["Disagreement", "ConformanceOutcome", "Checker", "Step", "check_trace", "sample_play",
           "symbolic_walk", "check_walk",
           "conformance", "CODES", "DEFAULT_RUNS"]

#: runs of random worlds and plays per rulebook (``check``/``diff``)
DEFAULT_RUNS = 120

#: what each disagreement code means
CODES = {
    "RC1": ("ни один переход Z3 не совершает шаг интерпретатора", "no Z3 transition takes the interpreter's step"),
    "RC2": ("шаг интерпретатора совершают несколько переходов Z3", "several Z3 transitions take the interpreter's step"),
    "RC3": ("состояние после шага у Z3 и интерпретатора разное", "Z3 and the interpreter reach different states"),
    "RC4": ("выборы игрока у Z3 и интерпретатора разные", "Z3 and the interpreter offer different choices"),
    "RC5": ("Z3 не допускает грань кубика", "Z3 does not allow a die face"),
    "RC6": ("прогон выходит за границы модели Z3", "the run goes beyond the bounds of the Z3 model"),
    "RC7": ("шаг пути Z3 интерпретатор не делает", "the interpreter does not take a step of a Z3 path"),
    "RC8": ("форма свойства в Z3 и его монитор на прогоне интерпретатора дают разное",
            "a property's Z3 form and its monitor on the interpreter's run disagree"),
}


@dataclass(frozen=True)
class Disagreement:
    """Where the two meanings of a rulebook part: the word, the step, both results, the replay."""

    code: str
    word: str  # the operation or event (play, pass, window, goto, …)
    step: str
    location: str
    seq: int
    interpreter: str
    z3: str
    world: dict = field(default_factory=dict, compare=False)
    answers: tuple = ()
    seed: int | None = None
    run: int | None = None
    interpreter_ru: str = ""  # the same in Russian, where it has words (else ``interpreter``)
    z3_ru: str = ""

    def text(self, lang: str = "en") -> str:
        ru, en = CODES[self.code]
        if lang == "ru":
            return (f"{self.code}: {ru} — «{self.word}», шаг «{self.step}», событие #{self.seq}; "
                    f"интерпретатор: {self.interpreter_ru or self.interpreter}; Z3: {self.z3_ru or self.z3}")
        return (f"{self.code}: {en} — {self.word!r} at step {self.step!r}, event #{self.seq}; "
                f"interpreter: {self.interpreter}; Z3: {self.z3}")


#: compiled disjuncts by the text of their terms: the drafts of one rulebook share most of them
_COMPILED: dict[str, object] = {}


class Checker:
    """The disjuncts of a compiled system as Python functions of the abstract state (built lazily;
    a disjunct whose terms read the same as one compiled before reuses its function)."""

    def __init__(self, sy: System) -> None:
        self.sy = sy
        self._fns: dict[int, tuple] = {}

    def step(self, d):
        fn = self._fns.get(d.id)
        if fn is None:
            guard, changes = self.sy.step_of(d, self.sy.pre, self.sy.die)
            names = tuple(changes)
            terms = [guard, *changes.values()]
            key = "\n".join(t.sexpr() for t in terms)
            code = _COMPILED.get(key)
            if code is None:
                if len(_COMPILED) > 50_000:
                    _COMPILED.clear()
                code = _COMPILED[key] = compile_terms(terms)
            fn = self._fns[d.id] = (code, names)
        return fn

    def successors(self, pre: dict, loc: int, die: int | None) -> list:
        env = dict(pre)
        env["die"] = self.sy.faces[0] if die is None else die
        out = []
        for d in self.sy.by_loc.get(loc, ()):
            code, names = self.step(d)
            vals = code(env)
            if vals[0]:
                post = dict(pre)
                post.update(zip(names, vals[1:]))
                out.append((d, post))
        return out


def _diff(a: dict, b: dict) -> dict:
    return {k: (a.get(k), b.get(k)) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)}


class Step(NamedTuple):
    """One event of an interpreter run that the system takes: where (:class:`~.paths.Located`), the
    disjunct that takes it, the abstraction of the state before and after it."""

    at: Located
    disjunct: object
    pre: dict
    post: dict


def check_trace(checker: Checker, world_vars: dict, events: list,
                record: list | None = None) -> tuple[int, Disagreement | None]:
    """Check every event of an interpreter run against the system; (steps checked, the first
    disagreement or None).  ``record``: a list the :class:`Step` of each event that agreed is appended to."""
    sy = checker.sy
    pre = abstract(sy, world_state(world_vars), world_vars, sy.start_pc)
    n = 0
    for at in locate(sy, events):
        e, loc = at[0], at[1]
        found = _check_event(checker, pre, at, world_vars)
        if isinstance(found[0], str):  # (code, the interpreter's side, Z3's side): a text, or (English, Russian)
            code, interp, z3_ = found
            i_en, i_ru = (interp, "") if isinstance(interp, str) else interp
            z_en, z_ru = (z3_, "") if isinstance(z3_, str) else z3_
            return n, Disagreement(code, e.op, e.step, sy.loc_name(loc), e.seq, i_en, z_en, dict(world_vars),
                                   interpreter_ru=i_ru, z3_ru=z_ru)
        d, post = found
        if record is not None:
            record.append(Step(at, d, pre, post))
        pre = post
        n += 1
    return n, None


def _answer(e) -> tuple[str | None, int | None]:
    """(the response an event chose — a feature or "pass" —, the die it showed); None where it has none."""
    die = chosen = None
    if e.op == "pass":
        chosen = "pass"
    elif e.op == "play":
        chosen = e.values["feature"]
        if e.values["kind"] == "reroll":
            die = e.state.action.die_rolls[-1]
    elif e.op == "roll_die" and not e.values.get("skipped"):
        die = e.values["die"]
    return chosen, die


def _check_event(checker: Checker, pre, at: tuple, world_vars: dict) -> tuple:
    """One event against the system from state ``pre``: (the transition taken, the state after), or a
    disagreement as (code, the interpreter's side, Z3's side)."""
    sy = checker.sy
    e, loc, nxt, wpl, wps, played = at
    chosen, die = _answer(e)
    beyond = beyond_bounds(e.state)
    if beyond is not None:
        return "RC6", (beyond["en"], beyond["ru"]), ("bounded", "ограничена")
    post = abstract(sy, e.state, world_vars, nxt, wpl, wps, played)
    succ = checker.successors(pre, loc, die)
    if chosen is not None:  # a choice: the enabled responses are the interpreter's
        offered = set(e.values.get("offered", ())) | {"pass"}
        enabled = {"pass" if d.event == "pass" else OPTIONS[d.option].feature.id for d, _ in succ}
        if enabled != offered:
            return "RC4", (f"offers {sorted(offered)}", f"предлагает {sorted(offered)}"), \
                (f"enables {sorted(enabled)}", f"допускает {sorted(enabled)}")
        succ = [(d, s) for d, s in succ if (d.event == "pass") == (chosen == "pass") and (
            d.event != "play" or OPTIONS[d.option].feature.id == chosen)]
    elif die is not None:  # a die: every face is a successor; this one is the interpreter's
        for face in sy.faces:
            if not checker.successors(pre, loc, face):
                return "RC5", (f"rolls {die}", f"выпало {die}"), (f"allows no {face}", f"не допускает {face}")
    if not succ:
        to = sy.loc_name(nxt) if nxt < len(sy.locs) else nxt
        return "RC1", (f"{e.op} to {to}", f"{e.op} → {to}"), ("no transition", "нет перехода")
    if len(succ) > 1:
        return "RC2", e.op, ", ".join(d.label for d, _ in succ)
    d, got = succ[0]
    if got != post:
        delta = _diff(got, post)
        return "RC3", ", ".join(f"{k}={v[1]}" for k, v in delta.items()), \
            ", ".join(f"{k}={v[0]}" for k, v in delta.items()) + f" ({d.label})"
    return d, post


def sample_play(rb: Rulebook, rng: random.Random, world_vars: dict | None = None) -> tuple[dict, list, list]:
    """A world of the menu and one random play of it: (world variables, events, answers)."""
    if world_vars is None:
        world_vars = menu_world(rng.choice, lambda: rng.random() < 0.5)
    st = Stepper(rb, world_state(world_vars))
    answers: list = []
    while st.ask is not None:
        ask = st.ask
        a: int | str | None  # a die, a feature's id, or a pass
        if ask.kind == "die":
            a = rng.randint(*ask.faces)
        else:
            ids = [f.id for _, f in ask.options]
            a = rng.choice([None, None, *ids]) if ids else None
        answers.append(a)
        st.answer(a)
    return world_vars, st.trace.events, answers


def symbolic_walk(checker: Checker, rng: random.Random, world_vars: dict,
                  max_steps: int = 3000) -> tuple[list, list, int | None]:
    """A random path of the Z3 system from the initial state of ``world_vars``: (the disjuncts taken,
    the answers it gave — a die value, a feature id or None for a pass, in order —, and the location
    where no transition was enabled before the end, or None)."""
    sy = checker.sy
    pre = abstract(sy, world_state(world_vars), world_vars, sy.start_pc)
    path: list[Disjunct] = []
    answers: list[int | str | None] = []
    done = (sy.done_end, sy.done_deadlock)
    for _ in range(max_steps):
        pc = pre["pc"]
        if pc in done:
            break
        here = sy.by_loc.get(pc, ())
        die = rng.randint(*sy.faces) if any(d.uses_die for d in here) else None
        succ = checker.successors(pre, pc, die)
        if not succ:
            return path, answers, pc
        passes = [x for x in succ if x[0].event == "pass"]
        d, post = passes[0] if passes and rng.random() < 0.5 else rng.choice(succ)
        if d.event == "pass":
            answers.append(None)
        elif d.event == "play":
            answers.append(OPTIONS[d.option].feature.id)
        if d.uses_die and not d.skipped:
            answers.append(die)
        path.append(d)
        pre = post
    return path, answers, None


def check_walk(checker: Checker, world_vars: dict, path: list, answers: list,
               stuck: int | None = None) -> Disagreement | None:
    """Replay a Z3 path on the interpreter: it must take the same steps (:func:`.paths.same_step`), and
    go no further where the path had nowhere to go (``stuck``)."""
    sy = checker.sy
    st = Stepper(sy.rb, world_state(world_vars))
    queue = list(answers)

    def bad(d_event, step, where, seq, interp, z3_, code="RC7"):
        return Disagreement(code, d_event, step, where, seq, interp[0], z3_[0], dict(world_vars), tuple(answers),
                            interpreter_ru=interp[1], z3_ru=z3_[1])

    try:
        while st.ask is not None and queue:
            answer = queue[0]
            st.answer(queue.pop(0))
    except NotOffered:
        e = st.trace.events[-1]
        return bad("play", e.step, "", e.seq, (f"does not offer {answer}", f"не предлагает {answer}"),
                   (f"plays {answer}", f"разыгрывает {answer}"))
    located = list(locate(sy, st.trace.events))
    for d, at in zip(path, located):
        if not same_step(d, at):
            e = at.event
            return bad(d.event, d.step, sy.loc_name(d.loc), e.seq, (f"{e.op} at {sy.loc_name(at.loc)}",) * 2,
                       (d.label,) * 2)
    if len(located) < len(path) and st.trace.outcome != "step_limit":
        d = path[len(located)]
        return bad(d.event, d.step, sy.loc_name(d.loc), len(located), ("stops", "останавливается"),
                   (d.label,) * 2)
    if stuck is not None and len(located) > len(path):
        e = located[len(path)].event
        return bad(e.op, e.step, sy.loc_name(stuck), e.seq, (e.op, e.op), ("no transition", "нет перехода"),
                   code="RC1")
    return None


@dataclass
class ConformanceOutcome:
    runs: int
    steps: int
    seconds: float
    seed: int
    disagreement: Disagreement | None = None
    results: list = field(default_factory=list)
    walked: int = 0  # steps of the sampled Z3 paths replayed on the interpreter

    @property
    def ok(self) -> bool:
        return self.disagreement is None


def conformance(rb: Rulebook, *, runs: int = DEFAULT_RUNS, seed: int = 0, sy: System | None = None,
                rulebook_arg: str | None = None, walks: int | None = None,
                also: Callable[[System], Callable[[dict, list], Disagreement | None]] | None = None,
                ) -> ConformanceOutcome:
    """Check the interpreter against the Z3 system of ``rb`` on ``runs`` random worlds and plays, and
    ``walks`` random paths of the Z3 system (default: a third of ``runs``) replayed on the interpreter.
    ``also``: a further check of the same runs, made once per system; it is given the world variables
    and the :class:`Step` records of each run that agreed, and returns its disagreement or None."""
    started = time.perf_counter()
    sy = sy or compile_rulebook(rb)
    checker = Checker(sy)
    rng = random.Random(seed)
    further = also(sy) if also is not None else None
    steps, found, done = 0, None, 0
    for i in range(runs):
        world, events, answers = sample_play(rb, rng)
        record: list | None = [] if further is not None else None
        n, found = check_trace(checker, world, events, record)
        if found is None and further is not None and record is not None:
            found = further(world, record)
        steps += n
        done += 1
        if found is not None:
            found = Disagreement(**{**found.__dict__, "answers": tuple(answers), "seed": seed, "run": i})
            break
    walked = 0
    for i in range(runs // 3 if walks is None else walks):
        if found is not None:
            break
        world = menu_world(rng.choice, lambda: rng.random() < 0.5)
        path, answers, stuck = symbolic_walk(checker, rng, world)
        found = check_walk(checker, world, path, answers, stuck)
        walked += len(path)
        if found is not None:
            found = Disagreement(**{**found.__dict__, "seed": seed, "run": runs + i})
    out = ConformanceOutcome(done, steps, time.perf_counter() - started, seed, found, walked=walked)
    arg = f" {rulebook_arg}" if rulebook_arg else ""
    findings: tuple[Finding, ...] = ()
    if found is not None:
        findings = (Finding(kind="conformance", check="C1-conformance", verdict=Verdict.ERROR, engine="conformance",
                            clauses=(), message={"ru": found.text("ru"), "en": found.text("en")},
                            element=f"{found.word} @ {found.step}", where=str(rb.path),
                            replay=f"ruleproof check{arg} --engines conformance --seed {seed}", seed=seed),)
    out.results = [CheckResult("C1-conformance", (), {
        "ru": "интерпретатор и модель Z3 этого свода правил совершают одни и те же шаги",
        "en": "the interpreter and the Z3 model of this rulebook take the same steps"}, "conformance", findings,
        note=f"{steps} steps, {done} runs; {walked} steps of Z3 paths replayed")]
    return out
