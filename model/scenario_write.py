"""Write a run as a ruling scenario (``ruleproof-scenario/1``): a counterexample becomes a regression test.

``scenario_from_run`` turns a world (an initial :class:`~ruleproof.model.state.State`), the dice and
the responses played into a scenario document (plain data); ``scenario_from_trace`` does the same
from an interpreter trace; ``shrink_world`` drops the cards, features, responses and dice a violation
does not need (what every saved counterexample goes through); ``save_ruling`` writes it atomically as YAML that ``load_scenario`` reads
and ``ruleproof run`` runs.  ``save_hypothesis_violation`` saves what Hypothesis found.

What a saved counterexample expects, and why it passes on the rules and fails on the faulty draft:

* ``expect.properties: [P…]`` — the violated catalogue property must hold on the run's trace.  That
  is all the property demands; nothing else of the run (wounds, statuses) is pinned, so a harmless
  draft does not break the ruling.
* The world, dice and responses are those of the violating run on the draft, shrunk to what the
  violation needs (``shrink_world``) and completed to the end of the action (a pass for every further
  response, the lowest die face for every further die).
* A scripted response is played when the rules offer it.  The *reference* rulebook (the bundled one
  unless another is given) may not offer a play the draft offered — a draft that widens a window.
  Such plays are listed under ``expect.unused``: the ruling then also asserts that the reference
  rules do not offer them, which is true of the reference (checked when saving) and false of the
  draft that offered them.  When the reference asks for more dice than the draft did, the lowest
  face is scripted for each; the draft never reads those extra dice.
* ``expect.outcome`` is the outcome of the reference run (normally ``completed``).

So on the reference rulebook the ruling replays a legal game of the reference rules and checks the
property there; on the draft it replays the very run that violated it.  Both are checked before the
file is written (a counterexample that does not replay is an error, RP201, not a silent file).

>>> from ruleproof.model.state import Action, Card, State
>>> w = State(cards=(Card("a", "A-card", "A", printed=(("health", 3),)),), action=Action("hit", "spell", "a"))
>>> doc = scenario_from_run(w, [], [], properties=[], clauses=("512.6",), provenance={"engine": "doc"})
>>> doc["format"], doc["cards"]["a"]
('ruleproof-scenario/1', {'name': 'A-card', 'controller': 'A', 'printed': {'health': 3}})
>>> doc["action"], doc["expect"]
({'feature': 'hit', 'kind': 'spell', 'source': 'a'}, {'outcome': 'completed', 'properties': []})
"""

from __future__ import annotations

import dataclasses
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable

import yaml

from ruleproof.ground.errors import Location, RuleproofError
from ruleproof.ground.fileio import atomic_path
from ruleproof.properties.catalogue import View

from .features import Effect, Feature
from .interpreter import ScriptedChoices, Stepper, run
from .rulebook import Rulebook, bundled_rulebook_path, load_rulebook
from .scenario import Scenario, ScenarioSpec, load_scenario, run_scenario
from .state import Action, Card, State, use_feature, use_kind
from .yaml_source import LocMap

__all__ = ["scenario_from_run", "scenario_from_trace", "save_ruling", "dump_ruling", "save_hypothesis_violation",
           "save_trace_violation", "shrink_world", "choices_from_trace", "world_from_trace", "replay_answers", "PaddedChoices"]

FORMAT = "ruleproof-scenario/1"
_FEATURE_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Feature) if f.name not in ("id", "kind")}


def _feature(f: Feature) -> dict:
    out: dict[str, Any] = {"id": f.id, "kind": f.kind}
    for name, default in _FEATURE_DEFAULTS.items():
        value = getattr(f, name)
        if value == default:
            continue
        if name == "effects":
            value = [_effect(e) for e in value]
        elif isinstance(value, tuple):
            value = list(value)
        out[name] = value
    return out


def _effect(e: Effect) -> dict:
    out: dict[str, Any] = {"do": e.do, "card": e.card}
    if e.amount:
        out["amount"] = e.amount
    if e.prop:
        out["prop"] = e.prop
    return out


def _uses(c: Card, a) -> dict:
    """The card's uses in the scenario format: a number for the feature the action declares (its kind is the
    action's), ``{kind, times}`` for another (540.1.3)."""
    out: dict[str, Any] = {}
    for key, n in c.uses:
        feature, kind = use_feature(key), use_kind(key)
        out[feature] = n if (feature, kind) == (a.feature, a.kind) else {"kind": kind, "times": n}
    return out


def _card(c: Card, a) -> dict:
    out: dict[str, Any] = {"name": c.name, "controller": c.controller}
    if c.printed:
        out["printed"] = dict(c.printed)
    if c.modifiers:
        out["modifiers"] = dict(c.modifiers)
    for key, default in (("wounds", 0), ("closed", False), ("action_markers", 0), ("in_active_zone", True)):
        if getattr(c, key) != default:
            out[key] = getattr(c, key)
    if c.resources:
        out["resources"] = dict(c.resources)
    if c.uses:
        out["uses"] = _uses(c, a)
    if c.features:
        out["features"] = [_feature(f) for f in c.features]
    return out


def _action(a: Action) -> dict:
    out: dict[str, Any] = {"feature": a.feature, "kind": a.kind, "source": a.source}
    if a.targets:
        out["targets"] = list(a.targets)
    if a.defender is not None:
        out["defender"] = a.defender
    if a.effect != "damage":
        out["effect"] = a.effect
    if not a.needs_magnitude:
        out["needs_magnitude"] = False
    if a.magnitude_x is not None:
        out["magnitude"] = a.magnitude_x
    elif a.magnitude_base is not None:
        out["magnitude"] = a.magnitude_base
    if a.cost:
        out["cost"] = [{"card": c, "resource": r, "amount": str(n)} for c, r, n in a.cost]
    if a.xs:
        out["xs"] = [{"name": x.name, "kind": x.kind,
                      **({"chosen": x.chosen} if x.chosen is not None else {}),
                      **({"compute": list(x.compute)} if x.compute is not None else {})} for x in a.xs]
    if a.parts_left:
        out["parts"] = a.parts_left + 1
    return out


def _fresh(world: State) -> State:
    """The world as a scenario starts it: no step entered yet (the markers at declaration not taken yet)."""
    action = world.action and replace(world.action, start_markers=())
    return replace(world, step="", visited=(), claims=(), windows_seen=(), action=action)


def scenario_from_run(world: State, dice: list[int], responses: list[tuple[str, str, str]], *,
                      properties: list[str], clauses: tuple[str, ...], provenance: dict,
                      title: dict | None = None, id: str | None = None, unused: Iterable[str] = (),
                      outcome: str = "completed", source: str | None = None) -> dict:
    """A scenario document (plain data) for ``world`` played with ``dice`` and ``responses``.

    Raises ValueError when the world holds something the scenario format cannot say (a state in
    the middle of an action, another active player): the document would not replay it.
    """
    if world.action is None:
        raise ValueError("the world has no game action to run")
    if world.active_player != "A" or world.stack:
        raise ValueError("a scenario starts with player A active and an empty stack")
    pid = ", ".join(properties) or "—"
    doc: dict[str, Any] = {
        "format": FORMAT,
        "id": id or ("cx-" + "-".join(p.lower().replace(".", "-") for p in properties) if properties else "cx-run"),
        "title": title or {"ru": f"Контрпример: должно выполняться свойство {pid}",
                           "en": f"Counterexample: property {pid} must hold"},
        "source": source or ("ruleproof: " + str(provenance.get("command") or provenance.get("engine") or "run")),
        "clauses": [str(c) for c in clauses],
        "cards": {c.id: _card(c, world.action) for c in world.cards},
        "action": _action(world.action),
        "dice": [int(d) for d in dice],
        "responses": [{"window": w, "player": p, "play": f} for w, p, f in responses],
        "expect": {"outcome": outcome, "properties": list(properties)},
        "provenance": dict(provenance),
    }
    unused = list(dict.fromkeys(unused))
    if unused:
        doc["expect"]["unused"] = unused
    _same_world(doc, world)
    return doc


def _same_world(doc: dict, world: State) -> None:
    back = Scenario(ScenarioSpec.model_validate(doc), LocMap(), "<doc>").initial_state()
    if back != _fresh(world):
        raise ValueError("the scenario format cannot express this world exactly "
                         f"(it reads back as {back!r}, not {_fresh(world)!r})")


def world_from_trace(events: list) -> State:
    """The world a trace started from: the state at its first event, with the step reset."""
    if not events:
        raise ValueError("an empty trace has no world")
    return _fresh(events[0].state)


def choices_from_trace(events: list) -> tuple[list[int], list[tuple[str, str, str]]]:
    """The dice (rolls and rerolls, in order) and the responses (window, player, feature) of a trace."""
    dice: list[int] = []
    responses: list[tuple[str, str, str]] = []
    for e in events:
        if e.op == "roll_die" and not e.values.get("skipped"):
            dice.append(int(e.values["die"]))
        elif e.op == "play":
            if e.values.get("kind") == "reroll":
                dice.append(int(e.state.action.die_rolls[-1]))
            responses.append((e.values["window"], e.values["player"], e.values["feature"]))
    return dice, responses


def scenario_from_trace(events: list, *, properties: list[str], clauses: tuple[str, ...], provenance: dict,
                        **kw: Any) -> dict:
    """:func:`scenario_from_run` for the world, dice and responses of an interpreter trace."""
    dice, responses = choices_from_trace(events)
    return scenario_from_run(world_from_trace(events), dice, responses, properties=properties, clauses=clauses,
                             provenance=provenance, **kw)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    for t in (int, float, str):
        if isinstance(value, t):
            return t(value)
    return str(value)


class _Dumper(yaml.SafeDumper):
    """Block style for the structure, flow style for leaf lists and mappings (``printed: {health: 3}``)."""


def _leaf(items: Iterable, data: Any) -> bool:
    return all(not isinstance(v, (dict, list)) for v in items) and len(repr(data)) < 100


class _Quoted(str):
    """A clause id, always written in quotes (``"540.3"``, ``"512.6.2/b2"``): the same look for every
    id, and none that YAML could read as a number."""


_Dumper.add_representer(_Quoted, lambda d, data: d.represent_scalar("tag:yaml.org,2002:str", str(data), style='"'))
_Dumper.add_representer(dict, lambda d, data: d.represent_mapping(
    "tag:yaml.org,2002:map", data.items(), flow_style=bool(data) and _leaf(data.values(), data)))
_Dumper.add_representer(list, lambda d, data: d.represent_sequence(
    "tag:yaml.org,2002:seq", data, flow_style=_leaf(data, data)))


def dump_ruling(doc: dict) -> str:
    """The YAML text of a scenario document (key order kept, Cyrillic as is), with a replay header."""
    prov = doc.get("provenance") or {}
    head = ("# A question for the judges, written by ruleproof questions" if "question" in prov else
            "# A ruling answered from a question by ruleproof answer" if "answer" in prov else
            "# A counterexample saved as a ruling by ruleproof")
    if prov.get("command"):
        head += f"\n# found by: {prov['command']}"
    head += "\n# run it: ruleproof run THIS.yaml [--rulebook DRAFT.yaml]; pytest collects it as a test\n"
    plain = _plain(doc)
    if isinstance(plain.get("clauses"), list):
        plain["clauses"] = [_Quoted(c) for c in plain["clauses"]]
    return head + yaml.dump(plain, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=110)


def save_ruling(path: str | Path, doc: dict) -> Path:
    """Write ``doc`` to ``path`` atomically after checking that ``load_scenario`` accepts it."""
    with atomic_path(path) as tmp:
        tmp.write_text(dump_ruling(doc), encoding="utf-8")
        load_scenario(tmp)
    return Path(path)


# --- saving what Hypothesis found ---------------------------------------------------------------------

class PaddedChoices(ScriptedChoices):
    """Scripted choices that answer a die past the script with the lowest face (and remember it)."""

    def die(self, state: State, why: str, faces: tuple[int, int]) -> int:
        if self.used_dice >= len(self.dice):
            self.dice.append(faces[0])
        return super().die(state, why, faces)


def replay_answers(rb: Rulebook, world: State, answers: list) -> Stepper:
    """Replay a Hypothesis run's answers (dice and responses, in order) on ``rb`` and finish the action
    with passes and the lowest die face."""
    st = Stepper(rb, world)
    for value in answers:
        if st.ask is None:
            break
        st.answer(value)
    while st.ask is not None:
        st.answer(st.ask.faces[0] if st.ask.kind == "die" else None)
    return st


def _rulebook_name(rb: Rulebook) -> str:
    return "bundled" if Path(rb.path).resolve() == bundled_rulebook_path().resolve() else str(rb.path)


def save_hypothesis_violation(violation, rb: Rulebook, path: str | Path, *, replay: str,
                              reference: Rulebook | None = None) -> Path:
    """Save a :class:`~ruleproof.generators.machine.PropertyViolated` found on ``rb`` as a ruling at ``path``.

    The ruling expects the violated property to hold (see the module docstring); it is checked to
    fail on ``rb`` before it is written.  ``reference`` (default: the bundled rulebook) decides
    which scripted plays go under ``expect.unused`` and the expected outcome.
    """
    st = replay_answers(rb, violation.played.world, list(violation.played.answers))
    return save_trace_violation(st.trace.events, rb, path, property=violation.prop.id, replay=replay,
                                engine="hypothesis", reference=reference)


def _still_violates(rb: Rulebook, prop, world: State, dice: list, responses: list) -> bool:
    try:
        trace = run(rb, world, PaddedChoices(list(dice), list(responses)))
    except (LookupError, RuleproofError):  # a removal left a feature naming a card that is gone
        return False
    return prop.check(View(trace.events)) is not None


def shrink_world(rb: Rulebook, prop, world: State, dice: list, responses: list) -> tuple[State, list, list]:
    """The smallest world (and script) in which the run still violates ``prop`` on ``rb``, found greedily:
    drop a card outside the action's roles, a feature (with the responses that play it), a scripted
    response — each removal kept only if the violation survives (the dice stay: a die left out would
    only be replaced by the lowest face).  A saved ruling then
    holds what the violation needs and nothing a reader has to wonder about."""
    if not _still_violates(rb, prop, world, dice, responses):
        return world, list(dice), list(responses)
    a = world.action
    assert a is not None, "a world that violates a property is one of an action"
    roles = {a.source, *a.targets, a.defender}
    dice, responses = list(dice), list(responses)

    def candidates():
        for c in world.cards:
            if c.id not in roles:
                gone = {f.id for f in c.features}
                yield (replace(world, cards=tuple(x for x in world.cards if x.id != c.id)), dice,
                       [r for r in responses if r[2] not in gone])
        for c in world.cards:
            for f in c.features:
                if f.id == a.feature:
                    continue
                card = replace(c, features=tuple(x for x in c.features if x.id != f.id))
                yield (replace(world, cards=tuple(card if x.id == c.id else x for x in world.cards)), dice,
                       [r for r in responses if r[2] != f.id])
        for i in range(len(responses)):
            yield world, dice, responses[:i] + responses[i + 1:]

    shrunk = True
    while shrunk:
        shrunk = False
        for w, d, r in candidates():
            if _still_violates(rb, prop, w, d, r):
                world, dice, responses, shrunk = w, list(d), list(r), True
                break
    return world, dice, responses


def save_trace_violation(events: list, rb: Rulebook, path: str | Path, *, property: str, replay: str,
                         engine: str, reference: Rulebook | None = None) -> Path:
    """Save a trace of ``rb`` that violates ``property`` as a ruling at ``path`` (any engine: explore,
    prove, diff).  The trace may stop early: its world, dice and responses are replayed on ``rb`` and
    the action is completed (passes, lowest die face) before the property is checked again."""
    from ruleproof.properties.catalogue import BY_ID, View  # read when called (a test plants properties)

    prop = BY_ID[property]
    world, dice, responses = shrink_world(rb, prop, world_from_trace(events), *choices_from_trace(events))
    full = PaddedChoices(dice, responses)
    trace = run(rb, world, full)
    found = prop.check(View(trace.events))
    if found is None:
        raise RuleproofError("RP201", Location(str(path)), property=prop.id, replay=replay,
                             problem="the completed run no longer violates it",
                             problem_ru="доигранный до конца прогон его больше не нарушает")
    reference = reference or load_rulebook()
    ref_choices = PaddedChoices(full.dice, responses)
    ref_trace = run(reference, world, ref_choices)
    unused = [f for _, _, f in ref_choices.left_over()]
    provenance = {"engine": engine, "property": prop.id, "rulebook": str(rb.path),
                  "reference": _rulebook_name(reference), "command": replay,
                  "violation": {"en": found.en, "ru": found.ru}}
    doc = scenario_from_run(world, ref_choices.dice, responses, properties=[prop.id], clauses=prop.clauses,
                            provenance=provenance, unused=unused, outcome=ref_trace.outcome,
                            title={"ru": f"Контрпример: {prop.ru}", "en": f"Counterexample: {prop.en}"})
    sc = Scenario(ScenarioSpec.model_validate(doc), LocMap(), str(path))
    res = run_scenario(sc, rb)
    if not any(f.what == f"property {prop.id}" for f in res.failures):
        raise RuleproofError("RP201", Location(str(path)), property=prop.id, replay=replay,
                             problem="the saved scenario does not reproduce the violation",
                             problem_ru="сохранённый сценарий не воспроизводит нарушение")
    return save_ruling(path, doc)
