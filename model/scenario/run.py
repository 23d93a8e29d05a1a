"""A scenario run on a rulebook: its assumptions and windows checked against it, then every game action played
with the scripted choices and compared with what it expects."""

from __future__ import annotations

from functools import lru_cache

from ruleproof.ground.errors import RuleproofError, suggest

from ..interpreter import ScriptedChoices, Trace, run
from ..rulebook import Rulebook, load_rulebook
from .expect import ScenarioResult, _compare
from .load import Scenario


def check_assumptions(sc: Scenario, rb: Rulebook) -> None:
    """The assumptions a ruling rests on must be assumptions of the rulebook it runs on."""
    for j, aid in enumerate(sc.spec.assumptions):
        if aid not in rb.spec.assumptions:
            raise RuleproofError("RP127", sc.where(("assumptions", j)), assumption=aid,
                                 hint=suggest(aid, rb.spec.assumptions), known=", ".join(rb.spec.assumptions) or "—")


def window_ids(rb: Rulebook) -> tuple[str, ...]:
    """The ids of the rulebook's priority windows, in step order."""
    return tuple(op.params["id"] for step in rb.spec.steps.values() for op in step.operations if op.op == "window")


@lru_cache(maxsize=1)
def _bundled_windows() -> tuple[str, ...]:
    return window_ids(load_rulebook())


def check_windows(sc: Scenario, rb: Rulebook) -> None:
    """A scripted response names a window of the rulebook it runs on, or of the bundled rulebook (a
    draft that dropped a window makes the ruling fail, "never offered"); any other id is a misspelling
    — refused, lest the ruling pass for the wrong reason."""
    known = window_ids(rb)
    for base, _, _, responses, _ in sc.plays():
        for j, r in enumerate(responses):
            if r.window not in known and r.window not in _bundled_windows():
                raise RuleproofError("RP165", sc.where(base + ("responses", j, "window")), window=r.window,
                                     hint=suggest(r.window, known), known=", ".join(known))


def run_scenario(sc: Scenario, rb: Rulebook) -> ScenarioResult:
    """Run the scenario's game actions in turn (each from the cards the one before left) and compare
    each with what it expects.  The result's trace is the whole turn, numbered through; ``parts`` holds
    each action's own trace."""
    if sc.spec.cases:
        raise ValueError(f"{sc.path} has {len(sc.spec.cases)} cases: run each of sc.cases()")
    check_assumptions(sc, rb)
    check_windows(sc, rb)
    res = ScenarioResult(sc, Trace())
    state = None
    for i, (base, a, dice, responses, expect) in enumerate(sc.plays()):
        state = sc.initial_state() if state is None else Scenario.next_state(state, a)
        choices = ScriptedChoices(dice, [(r.window, r.player, r.play) for r in responses])
        part = run(rb, state, choices)
        part.unused = choices.left_over()
        if res.trace.events:  # numbered on from the actions before
            part.events = [e._replace(seq=e.seq + len(res.trace.events)) for e in part.events]
        res.parts.append(part)
        res.trace.events += part.events
        _compare(res, part, expect, tuple(sc.spec.clauses), f"then[{i - 1}]." if base else "")
        state = part.final
        if part.outcome != "completed":  # the turn does not go on from a stuck action
            break
    res.trace.outcome = next((p.outcome for p in res.parts if p.outcome != "completed"), "completed")
    res.trace.unused = [u for p in res.parts for u in p.unused]
    return res
