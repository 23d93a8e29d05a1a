"""Ruling scenarios: a world, the action declared, scripted dice and responses, the expected outcome.

A scenario file (YAML)::

    format: ruleproof-scenario/1
    id: kele-attacker
    title: {ru: …, en: …}
    source: "РП 4.1-2 от 09.11.2024, пример к 540.4.1"   # where the ruling comes from
    clauses: ["540.4.1/ex1", "540.3"]                      # what it is a ruling on
    assumptions: [A-strike-table]                           # rulebook assumptions the outcome rests on
    cards:
      kele:
        name: Келе
        controller: A                                       # A is the active player
        printed: {health: 5, strike_weak: 1, strike_medium: 2, strike_strong: 3}
        wounds: 1
        resources: {close: 1}
        features:
          - {id: kele_heal, kind: effect_trigger, trigger: strike,
             effects: [{do: heal, card: self, amount: 2}], then_if_healthy: [close]}
    action:
      feature: kele_strike
      kind: simple_strike                                   # simple_strike | attack | spell | effect
      source: kele
      targets: [goblin]
      cost: [{card: kele, resource: close, amount: 1}]      # amount: a number or an X name
    dice: [3]
    responses:
      - {window: effect_triggers, player: A, play: kele_heal}
    expect:
      outcome: completed
      cards: {kele: {closed: false, action_markers: 1, can_move: false}}
      action: {status: hit}
      x: {X: {value: 2, fixed_at: declaration, fixes: 1}}
      events: [{op: pay_reserved, unpaid: [[kele, close, kele_heal]]}]
      no_events: [{op: check_source_legality, step: blocking}]
      unused: []                    # scripted plays the rules must not offer (e.g. a widened window)
      properties: [P540.3-action-marker]   # catalogue properties that must hold on the run's trace
    provenance: {engine: hypothesis, …}    # where a saved counterexample came from (free-form, optional)

``events``/``no_events`` match an event by ``op``, ``step`` and any of its values.  A scripted
response that the rules never offer fails the scenario, unless it is listed under ``unused``.
``properties`` checks the named properties of ``properties/catalogue.py`` on the whole trace (as
complete when the outcome is ``completed``); a violation fails the scenario with the property's
clauses and the offending events — the expectation of a counterexample saved as a ruling
(``model/scenario_write.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from ruleproof.ground.errors import Localized, RuleproofError, one_of, suggest
from ruleproof.ground.i18n import word

from .clauses import ClauseIndex, default_index
from .features import CARD_FEATURE_KEYS, CARD_FEATURE_KINDS, CONDITIONS, COUNTS, X_SOURCES, Effect, Feature
from .interpreter import ScriptedChoices, Trace, run
from .rulebook import Citation, Rulebook, check_clause_ids, describe_location, from_pydantic, load_rulebook
from .schema import Text, Word
from .state import Action, Card, State, XVar, use_key
from .vocabulary import FEATURE_KEYS, FEATURE_KINDS, X_KINDS
from .yaml_source import LocMap, load_yaml

__all__ = ["ScenarioSpec", "Scenario", "ScenarioResult", "load_scenario", "load_rulings", "run_scenario", "FORMAT",
           "shipped_rulings", "shipped_scenarios", "ruling_citations", "ruling_files"]

FORMAT = "ruleproof-scenario/1"


#: a number of things on a card (wounds, markers, resources, uses, a printed value): never below 0
Count = Annotated[int, Field(ge=0)]
#: how many of something that must happen at least once (parts of a compound feature, a per-turn limit)
Positive = Annotated[int, Field(ge=1)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


#: the kinds of game action (an action's ``kind``; a use's, 540.1.3)
ActionKind = Literal["simple_strike", "attack", "spell", "effect"]


class UseSpec(_Strict):
    """The uses this turn of a feature the scenario does not declare (540.1.3): the kind of game action it
    was declared as, and how many times («Может атаковать X раз за ход» counts the card's attacks,
    whichever feature declared them)."""

    kind: ActionKind
    times: Count


class EffectSpec(_Strict):
    do: Literal["heal", "wound", "leave_zone", "add_modifier", "close", "lose_resource", "lose_markers"]
    card: Word
    amount: Count = 0
    prop: Word = ""


class FeatureSpec(_Strict):
    id: Word
    kind: Word
    text: str = ""
    mode: Literal["", "add", "sub", "set"] = ""
    amount: int | None = None
    x: tuple[Word, Word, Word] | None = None
    condition: tuple[Word, Word, int] | None = None
    strength: Literal["", "weak", "medium", "strong"] = ""
    trigger: Literal["", "strike", "assault"] = ""
    on_status: Literal["any", "hit", "miss", "blocked", "illegal"] = "any"
    on: Literal["payment", "acts", "closes_after"] = "payment"
    effects: list[EffectSpec] = Field(default_factory=list)
    then_if_healthy: list[Word] = Field(default_factory=list)
    resources: list[Word] = Field(default_factory=list)
    modifies: Word = "source"
    form: Literal["stays_open", "closes_only_after_assault", "per_turn"] = "stays_open"
    limit: Positive | None = None
    times: Positive | None = None
    applies_to: list[Literal["simple_strike", "attack", "spell", "effect"]] = Field(
        default_factory=lambda: ["simple_strike", "attack", "spell", "effect"])
    action_marker: bool = True
    on_die: list[int] = Field(default_factory=list)


class CardSpec(_Strict):
    name: str
    controller: Literal["A", "B"]
    printed: dict[Word, Count] = Field(default_factory=dict)
    modifiers: dict[Word, int] = Field(default_factory=dict)
    wounds: Count = 0
    closed: bool = False
    action_markers: Count = 0
    in_active_zone: bool = True
    resources: dict[Word, Count] = Field(default_factory=dict)
    # this turn's uses by feature (540.1.3): a number for a feature the scenario declares (its action's kind),
    # {kind, times} for another
    uses: dict[Word, Count | UseSpec] = Field(default_factory=dict)
    features: list[FeatureSpec] = Field(default_factory=list)


class CostSpec(_Strict):
    card: Word
    resource: Word
    amount: Word = "1"


class XSpec(_Strict):
    name: Word
    kind: Word
    chosen: int | None = None
    compute: tuple[Word, Word, Word] | None = None


def _number_or_name(value: Any) -> Any:
    """A magnitude as written: a number stays a number, anything else is a name (of an X)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)
    return getattr(value, "raw", value)


Magnitude = Annotated[int | str, BeforeValidator(_number_or_name)]


class ActionSpec(_Strict):
    feature: Word
    kind: ActionKind
    source: Word
    targets: list[Word] = Field(default_factory=list)
    defender: Word | None = None
    effect: Literal["damage", "heal"] = "damage"
    needs_magnitude: bool = True
    magnitude: Magnitude | None = None  # a number, or the name of a cost-X (a bare X, 542.2)
    cost: list[CostSpec] = Field(default_factory=list)
    xs: list[XSpec] = Field(default_factory=list)
    parts: Positive = 1


class ResponseSpec(_Strict):
    window: Word
    player: Literal["A", "B"]
    play: Word


class ExpectSpec(_Strict):
    outcome: Literal["completed", "deadlock", "step_limit", "out_of_choices"] = "completed"
    cards: dict[Word, dict[Word, Any]] = Field(default_factory=dict)
    action: dict[Word, Any] = Field(default_factory=dict)
    x: dict[Word, dict[Word, Any]] = Field(default_factory=dict)
    events: list[dict[Word, Any]] = Field(default_factory=list)
    no_events: list[dict[Word, Any]] = Field(default_factory=list)
    visited: list[Word] | None = None
    unused: list[Word] = Field(default_factory=list)  # scripted plays the rules must NOT offer
    properties: list[Word] = Field(default_factory=list)  # catalogue properties that must hold on the trace


class FollowSpec(_Strict):
    """A further game action in the same turn: it starts from the cards as the action before left
    them (wounds, closed, action markers, per-turn uses), with its own dice, responses and expectations."""

    action: ActionSpec
    dice: list[int] = Field(default_factory=list)
    responses: list[ResponseSpec] = Field(default_factory=list)
    expect: ExpectSpec = Field(default_factory=ExpectSpec)


class CardPatch(_Strict):
    """What a case changes in a card of the file's world (any field left out stays as the world has it)."""

    printed: dict[Word, Count] | None = None
    modifiers: dict[Word, int] | None = None
    wounds: Count | None = None
    closed: bool | None = None
    action_markers: Count | None = None
    in_active_zone: bool | None = None
    resources: dict[Word, Count] | None = None
    uses: dict[Word, Count | UseSpec] | None = None
    features: list[FeatureSpec] | None = None


class CaseSpec(_Strict):
    """One case of a ruling file with several: the file's world and action, changed where the case says,
    with its own expectations.  ``clauses`` adds to the file's."""

    id: Word
    title: Text | None = None
    clauses: list[Word] = Field(default_factory=list)
    cards: dict[Word, CardPatch] = Field(default_factory=dict)
    action: ActionSpec | None = None
    dice: list[int] | None = None
    responses: list[ResponseSpec] | None = None
    expect: ExpectSpec
    then: list[FollowSpec] | None = None


class ScenarioSpec(_Strict):
    format: Word
    id: Word
    title: Text
    source: str
    clauses: list[Word]
    assumptions: list[Word] = Field(default_factory=list)
    cards: dict[Word, CardSpec]
    action: ActionSpec
    dice: list[int] = Field(default_factory=list)
    responses: list[ResponseSpec] = Field(default_factory=list)
    expect: ExpectSpec | None = None  # required unless the file has cases (then each case has its own)
    then: list[FollowSpec] = Field(default_factory=list)  # further actions in the same turn, in order
    cases: list[CaseSpec] = Field(default_factory=list)  # several rulings on one world, each with its expect
    provenance: dict[Word, Any] = Field(default_factory=dict)  # a saved counterexample's origin


_CARD_FIELDS = ("closed", "wounds", "action_markers", "can_move", "in_active_zone", "healthy", "resources")
_X_FIELDS = ("value", "fixed_at", "fixes")


#: the keys a case may give (its own ``expect``; the others replace the file's)
_CASE_KEYS = ("action", "dice", "responses", "expect", "then", "title")


@dataclass
class Scenario:
    """One ruling: a scenario file, or one case of a file with ``cases:`` (``case``: its index there;
    ``spec`` then is the file's spec with the case applied, its id ``file-id/case-id``)."""

    spec: ScenarioSpec
    locs: LocMap
    path: str
    case: int | None = None
    whole: ScenarioSpec | None = None  # a case: the file's own spec

    def where(self, path: tuple):
        path = tuple(path)
        if self.case is not None and path:
            case = ("cases", self.case)
            c = self.spec_case
            if path[0] in _CASE_KEYS and path[0] in c.model_fields_set:
                return self.locs.at(case + path)
            mine = len(self.whole.clauses)  # the case's clauses follow the file's
            if path[0] == "clauses" and len(path) > 1 and isinstance(path[1], int) and path[1] >= mine:
                return self.locs.at(case + ("clauses", path[1] - mine))
            if (path[0] == "cards" and len(path) > 2 and path[1] in c.cards
                    and path[2] in c.cards[path[1]].model_fields_set):
                return self.locs.at(case + path)
        return self.locs.at(path)

    @property
    def spec_case(self) -> CaseSpec:
        return self.file_spec.cases[self.case]

    @property
    def case_option(self) -> str:
        """What names this ruling on ``ruleproof run``'s command line after the file: `` --case ID`` for a
        case, nothing for a file's one ruling."""
        return f" --case {self.spec_case.id}" if self.case is not None else ""

    @property
    def file_spec(self) -> ScenarioSpec:
        return self.whole if self.whole is not None else self.spec

    def cases(self) -> list[Scenario]:
        """The rulings of the file: one per case, or the file itself when it has no cases."""
        spec = self.spec
        if not spec.cases:
            return [self]
        return [_case(self, i) for i in range(len(spec.cases))]

    def initial_state(self) -> State:
        spec = self.spec
        kinds = {a.feature: a.kind for _, a, *_ in self.plays()}
        cards = tuple(_card(cid, c, kinds) for cid, c in spec.cards.items())
        return State(cards=cards, action=_action(spec.action))

    def choices(self) -> ScriptedChoices:
        return ScriptedChoices(self.spec.dice, [(r.window, r.player, r.play) for r in self.spec.responses])

    def plays(self) -> list[tuple[tuple, ActionSpec, list[int], list[ResponseSpec], ExpectSpec]]:
        """Each game action of the turn: (its path in the file, the action, dice, responses, expect)."""
        spec = self.spec
        return [((), spec.action, spec.dice, spec.responses, spec.expect),
                *((("then", i), f.action, f.dice, f.responses, f.expect) for i, f in enumerate(spec.then))]

    @staticmethod
    def next_state(after: State, a: ActionSpec) -> State:
        """The state a further action of the turn starts from: the cards as the last action left them."""
        return State(cards=after.cards, action=_action(a), active_player=after.active_player)


def _case(sc: Scenario, i: int) -> Scenario:
    """Case ``i`` of a file with cases: the file's spec, changed as the case says."""
    spec, c = sc.spec, sc.spec.cases[i]
    cards = dict(spec.cards)
    for cid, patch in c.cards.items():
        if cid in cards:
            cards[cid] = cards[cid].model_copy(update={k: getattr(patch, k) for k in patch.model_fields_set})
    update: dict[str, Any] = {"id": f"{spec.id}/{c.id}", "clauses": [*spec.clauses, *c.clauses], "cards": cards,
                              "cases": []}
    for key in _CASE_KEYS:
        if key in c.model_fields_set and getattr(c, key) is not None:
            update[key] = getattr(c, key)
    return Scenario(spec.model_copy(update=update), sc.locs, sc.path, i, spec)


def _action(a: ActionSpec) -> Action:
    xs = tuple(XVar(x.name, x.kind, chosen=x.chosen, compute=tuple(x.compute) if x.compute else None) for x in a.xs)
    return Action(feature=a.feature, kind=a.kind, source=a.source, targets=tuple(a.targets),
                  defender=a.defender, effect=a.effect, needs_magnitude=a.needs_magnitude,
                  magnitude_base=a.magnitude if isinstance(a.magnitude, int) else None,
                  magnitude_x=a.magnitude if isinstance(a.magnitude, str) else None, xs=xs, parts_left=a.parts - 1,
                  cost=tuple((c.card, c.resource, c.amount) for c in a.cost))


def _uses(c: CardSpec, kinds: dict[str, str]) -> tuple[tuple[str, int], ...]:
    """A card's uses this turn keyed by feature and kind of game action (:func:`~.state.use_key`): a bare
    number is a use of a feature the scenario declares, as the kind its action is (``kinds``)."""
    out = {use_key(f, kinds[f] if isinstance(u, int) else u.kind): u if isinstance(u, int) else u.times
           for f, u in c.uses.items()}
    return tuple(sorted((k, n) for k, n in out.items() if n))


def _card(cid: str, c: CardSpec, kinds: dict[str, str]) -> Card:
    feats = tuple(Feature(id=f.id, kind=f.kind, text=f.text, mode=f.mode, amount=f.amount,
                          x=tuple(f.x) if f.x else None, condition=tuple(f.condition) if f.condition else None,
                          strength=f.strength, trigger=f.trigger, on_status=f.on_status, on=f.on,
                          effects=tuple(Effect(e.do, e.card, e.amount, e.prop) for e in f.effects),
                          then_if_healthy=tuple(f.then_if_healthy), resources=tuple(f.resources),
                          modifies=f.modifies, form=f.form,
                          limit=f.limit, times=f.times, applies_to=tuple(f.applies_to), action_marker=f.action_marker,
                          on_die=tuple(f.on_die))
                  for f in c.features)
    return Card(id=cid, name=c.name, controller=c.controller, printed=tuple(sorted(c.printed.items())),
                modifiers=tuple(sorted(c.modifiers.items())), wounds=c.wounds, closed=c.closed,
                action_markers=c.action_markers, in_active_zone=c.in_active_zone,
                resources=tuple(sorted(c.resources.items())), uses=_uses(c, kinds), features=feats)


def load_scenario(path: str | Path, index: ClauseIndex | None = None) -> Scenario:
    """Load and validate a scenario file; every problem is a RuleproofError with file:line."""
    index = index or default_index()
    data, locs = load_yaml(path, "scenario")
    if not isinstance(data, dict):
        raise RuleproofError("RP108", locs.at(()), found=type(data).__name__)
    fmt = data.get("format")
    if fmt is not None and str(fmt) != FORMAT:
        raise RuleproofError("RP132", locs.at(("format",)), found=fmt, expected=FORMAT)
    try:
        spec = ScenarioSpec.model_validate(data)
    except ValidationError as exc:
        raise from_pydantic(exc, locs, ScenarioSpec) from None
    sc = Scenario(spec, locs, str(path))
    if spec.cases and spec.expect is not None:
        raise RuleproofError("RP150", locs.at(("expect",)),
                             problem=Localized("у файла с вариантами (cases:) ожидания даются в каждом варианте, "
                                               "а не наверху",
                                               "a ruling file with cases has its expectations in each case, not at the top"),
                             fix=Localized("перенесите этот expect: в варианты, к которым он относится (или уберите cases:)",
                                           "move this expect: into the cases it belongs to (or drop cases:)"))
    if not spec.cases and spec.expect is None:
        raise RuleproofError("RP111", locs.at(()), key="expect", field=describe_location(()))
    seen: set[str] = set()
    for i, c in enumerate(spec.cases):
        if c.id in seen:
            raise RuleproofError("RP150", locs.at(("cases", i, "id")),
                                 problem=Localized(f"id варианта '{c.id}' встречается дважды",
                                                   f"case id '{c.id}' is used twice"),
                                 fix=Localized("дайте каждому варианту свой id", "give every case its own id"))
        seen.add(c.id)
        for cid in c.cards:
            if cid not in spec.cards:
                raise RuleproofError("RP161", locs.at(("cases", i, "cards", cid)), card=cid,
                                     hint=suggest(cid, list(spec.cards)), known=", ".join(sorted(spec.cards)))
    for one in sc.cases():
        _check(one, index)
    return sc


def load_rulings(path: str | Path, index: ClauseIndex | None = None) -> list[Scenario]:
    """The rulings of a scenario file: one per case (``cases:``), or the file's one."""
    return load_scenario(path, index).cases()


def _check(sc: Scenario, index: ClauseIndex) -> None:
    spec = sc.spec
    check_clause_ids(spec.clauses, lambda j: sc.where(("clauses", j)), index)
    cards = set(spec.cards)
    feature_ids: dict[str, str] = {}

    def card_ref(ref: str, path: tuple, extra: tuple[str, ...] = ()) -> None:
        if ref not in cards and ref not in extra:
            raise RuleproofError("RP161", sc.where(path), card=ref, hint=suggest(ref, [*extra, *cards]),
                                 known=", ".join([*extra, *sorted(cards)]))

    for cid, card in spec.cards.items():
        for i, f in enumerate(card.features):
            _check_feature(sc, cid, ("cards", cid, "features", i), f, feature_ids, card_ref)
    _check_uses(sc)
    for base, a, _, responses, expect in sc.plays():
        _check_play(sc, base, a, responses, expect, feature_ids, card_ref)


def _check_feature(sc: Scenario, cid: str, path: tuple, f, feature_ids: dict[str, str], card_ref) -> None:
    """One feature of card ``cid``: a known kind with its own keys, a new id, its cards, effects, X, die values and
    condition."""
    _check_feature_keys(sc, path, f)
    if f.id in feature_ids:
        raise RuleproofError("RP150", sc.where(path + ("id",)), problem=Localized(f"id особенности '{f.id}' встречается дважды",
                                               f"feature id '{f.id}' is used twice"),
                             fix=Localized("дайте каждой особенности свой id", "give every feature its own id"))
    feature_ids[f.id] = cid
    card_ref(f.modifies, path + ("modifies",), ("self", "source", "target", "defender"))
    for j, e in enumerate(f.effects):
        card_ref(e.card, path + ("effects", j, "card"), ("self", "source", "target", "defender"))
        if e.do in ("add_modifier", "lose_resource") and not e.prop:
            raise RuleproofError("RP150", sc.where(path + ("effects", j)),
                                 problem=Localized(f"эффекту {e.do} нужен prop (какое свойство или ресурс)",
                                                   f"the effect {e.do} needs a prop (which property or resource)"),
                                 fix=Localized("допишите prop, например prop: crystal",
                                               "add prop, e.g. prop: crystal"))
    _check_feature_values(sc, path, f, card_ref)


def _check_feature_keys(sc: Scenario, path: tuple, f) -> None:
    """A known kind (of the rulebook's vocabulary or a card's own), with only the keys that kind reads."""
    if f.kind not in FEATURE_KINDS and f.kind not in CARD_FEATURE_KINDS:
        raise RuleproofError("RP163", sc.where(path + ("kind",)), kind=f.kind,
                             hint=suggest(f.kind, [*FEATURE_KINDS, *CARD_FEATURE_KINDS]),
                             known=", ".join([*FEATURE_KINDS, *CARD_FEATURE_KINDS]))
    allowed = (FEATURE_KINDS[f.kind].keys if f.kind in FEATURE_KINDS else CARD_FEATURE_KEYS[f.kind])
    for key in FEATURE_KEYS:
        if key in f.model_fields_set and key not in allowed:
            means = [k for k, fk in FEATURE_KINDS.items() if key in fk.keys]
            means += [k for k, keys in CARD_FEATURE_KEYS.items() if key in keys]
            raise RuleproofError("RP164", sc.where(path + (key,)), key=key, kind=f.kind,
                                 kinds=", ".join(means))


def _check_feature_values(sc: Scenario, path: tuple, f, card_ref) -> None:
    """``times`` only with the form per_turn; its X's source; a die trigger's values; a known condition."""
    if f.times is not None and f.form != "per_turn":
        raise RuleproofError("RP150", sc.where(path + ("times",)),
                             problem=Localized(f"times ({f.times} раз за ход, 540.1.3) читается только у формы per_turn, "
                                               f"а у этой особенности form: {f.form}",
                                               f"times ({f.times} times a turn, 540.1.3) is read only for the form "
                                               f"per_turn; this feature has form: {f.form}"),
                             fix=Localized("укажите form: per_turn или уберите times",
                                           "set form: per_turn, or remove times"))
    if f.x is not None:
        _x_source(sc, f.x, path + ("x",), card_ref)
    if f.kind == "die_trigger" and (not f.on_die or not all(1 <= v <= 15 for v in f.on_die)):
        raise RuleproofError("RP150", sc.where(path + ("on_die",)),
                             problem=Localized(f"у сопутствующей особенности '{f.id}' нет значений кубика 1–15 "
                                               f"в on_die: {list(f.on_die)}",
                                               f"the accompanying feature '{f.id}' has no die values 1–15 "
                                               f"in on_die: {list(f.on_die)}"),
                             fix=Localized("перечислите значения, на которые она срабатывает, например on_die: [6]",
                                           "list the values it fires on, e.g. on_die: [6]"))
    if f.condition is not None and f.condition[0] not in CONDITIONS:
        raise RuleproofError("RP150", sc.where(path + ("condition",)),
                             problem=Localized(f"неизвестное условие '{f.condition[0]}'{suggest(f.condition[0], CONDITIONS).ru}",
                                               f"unknown condition '{f.condition[0]}'{suggest(f.condition[0], CONDITIONS).en}"),
                             fix=one_of(CONDITIONS))


def _check_uses(sc: Scenario) -> None:
    """A card's uses of a feature (540.1.3 counts them) name a feature the scenario declares, or give its kind."""
    declared = {a.feature for _, a, *_ in sc.plays()}
    for cid, card in sc.spec.cards.items():
        for f, u in card.uses.items():
            if isinstance(u, int) and f not in declared:
                raise RuleproofError("RP150", sc.where(("cards", cid, "uses", f)),
                                     problem=Localized(f"сценарий не объявляет особенность '{f}', и неизвестно, каким "
                                                       "видом игродействия были её применения (540.1.3 считает "
                                                       "игродействия карты того вида, что назван в тексте)",
                                                       f"the scenario declares no feature '{f}', so the kind of game "
                                                       "action its uses were is unknown (540.1.3 counts the card's "
                                                       "game actions of the kind its text names)"),
                                     fix=Localized(f"укажите вид: {f}: {{kind: simple_strike, times: {u}}}",
                                                   f"give the kind: {f}: {{kind: simple_strike, times: {u}}}"))


def _check_play(sc: Scenario, base: tuple, a: ActionSpec, responses: list, expect: ExpectSpec,
                feature_ids: dict[str, str], card_ref) -> None:
    """One game action of the scenario (``base``: its path, () or ("then", i)): card references, its
    X, its cost, the scripted responses and what it expects."""
    for check in _PLAY_CHECKS:
        check(sc, base, a, responses, expect, feature_ids, card_ref)


def _check_cards_named(sc: Scenario, base: tuple, a: ActionSpec, responses: list, expect: ExpectSpec, feature_ids: dict[str, str],
                       card_ref) -> None:
    """The source, targets and defender are cards of the scenario."""
    card_ref(a.source, base + ("action", "source"))
    for j, t in enumerate(a.targets):
        card_ref(t, base + ("action", "targets", j))
    if a.defender is not None:
        card_ref(a.defender, base + ("action", "defender"))


def _check_xs(sc: Scenario, base: tuple, a: ActionSpec, responses: list, expect: ExpectSpec, feature_ids: dict[str, str],
              card_ref) -> None:
    """Each X: a known kind, chosen or computed (not both), and as many targets as a target-count X says."""
    for j, x in enumerate(a.xs):
        if x.kind not in X_KINDS:
            raise RuleproofError("RP150", sc.where(base + ("action", "xs", j, "kind")),
                                 problem=Localized(f"неизвестный вид X '{x.kind}'{suggest(x.kind, X_KINDS).ru}",
                                                   f"unknown X kind '{x.kind}'{suggest(x.kind, X_KINDS).en}"),
                                 fix=one_of(X_KINDS))
        if (x.chosen is None) == (x.compute is None):
            raise RuleproofError("RP150", sc.where(base + ("action", "xs", j)),
                                 problem=Localized(f"у X '{x.name}' должен быть ровно один из ключей 'chosen' и 'compute'",
                                                   f"X '{x.name}' needs exactly one of 'chosen' and 'compute'"),
                                 fix=Localized("напишите chosen: N (его называет игрок) или compute: [что, карта, свойство]",
                                               "write chosen: N (the player names it) or compute: [what, card, property]"))
        if x.compute is not None:
            _x_source(sc, x.compute, base + ("action", "xs", j, "compute"), card_ref)
        if x.kind == "targets" and x.chosen is not None and x.chosen != len(a.targets):
            # 542.3 «игрок … должен выбрать X целей … в момент объявления особенности»
            raise RuleproofError("RP150", sc.where(base + ("action", "xs", j, "chosen")),
                                 problem=Localized(f"X целей '{x.name}' = {x.chosen}, а в action.targets целей "
                                                   f"{len(a.targets)}: по 542.3 игрок выбирает ровно X целей",
                                                   f"target-count X '{x.name}' = {x.chosen}, but action.targets has "
                                                   f"{len(a.targets)}: by 542.3 the player chooses exactly X targets"),
                                 fix=Localized(f"перечислите в action.targets {x.chosen} целей или напишите chosen: "
                                               f"{len(a.targets)}", f"list {x.chosen} targets in action.targets, or "
                                               f"write chosen: {len(a.targets)}"))


def _check_magnitude(sc: Scenario, base: tuple, a: ActionSpec, responses: list, expect: ExpectSpec, feature_ids: dict[str, str],
                     card_ref) -> None:
    """A magnitude named by a word names a cost-X of the action (542.2's bare X)."""
    if isinstance(a.magnitude, str) and not any(x.name == a.magnitude and x.kind == "cost" for x in a.xs):
        costs = [x.name for x in a.xs if x.kind == "cost"]
        near = suggest(a.magnitude, costs)
        raise RuleproofError("RP150", sc.where(base + ("action", "magnitude")),
                             problem=Localized(f"величина '{a.magnitude}' — не число и не X стоимости этого игродействия",
                                               f"magnitude '{a.magnitude}' is neither a number nor a cost-X of the action"),
                             fix=Localized("напишите число или имя X вида cost из action.xs — «X без дополнительных "
                                           f"комментариев» (542.2){near.ru}; известные: {', '.join(costs) or '—'}",
                                           "write a number, or the name of an X of kind cost under action.xs — a bare X "
                                           f"(542.2){near.en}; known: {', '.join(costs) or '—'}"))


def _check_cost(sc: Scenario, base: tuple, a: ActionSpec, responses: list, expect: ExpectSpec, feature_ids: dict[str, str],
                card_ref) -> None:
    """Each cost entry: a card of the scenario, a number or an X of the action."""
    names = [x.name for x in a.xs]
    for j, c in enumerate(a.cost):
        card_ref(c.card, base + ("action", "cost", j, "card"))
        if not c.amount.isdigit() and c.amount not in names:
            raise RuleproofError("RP150", sc.where(base + ("action", "cost", j, "amount")),
                                 problem=Localized(f"размер стоимости '{c.amount}' — не число и не X этого игродействия",
                                                   f"cost amount '{c.amount}' is neither a number nor an X of the action"),
                                 fix=Localized("напишите число или имя X из action.xs",
                                               "write a number or the name of an X under action.xs"))


def _check_responses(sc: Scenario, base: tuple, a: ActionSpec, responses: list, expect: ExpectSpec, feature_ids: dict[str, str],
                     card_ref) -> None:
    """Each scripted response plays a feature of the scenario; ``unused`` names scripted ones."""
    for j, r in enumerate(responses):
        if r.play not in feature_ids:
            raise RuleproofError("RP162", sc.where(base + ("responses", j, "play")), feature=r.play,
                                 hint=suggest(r.play, feature_ids),
                                 known=", ".join(sorted(feature_ids)) or "—")
    scripted = {r.play for r in responses}
    for j, f in enumerate(expect.unused):
        if f not in scripted:
            raise RuleproofError("RP162", sc.where(base + ("expect", "unused", j)), feature=f,
                                 hint=suggest(f, scripted),
                                 known=", ".join(sorted(scripted)) or "— (script it under responses first)")


def _check_expect_properties(sc: Scenario, base: tuple, a: ActionSpec, responses: list, expect: ExpectSpec, feature_ids: dict[str, str],
                             card_ref) -> None:
    """``expect.properties`` names properties of the catalogue."""
    if expect.properties:
        from ruleproof.properties.catalogue import BY_ID  # read when called (a test plants properties)

        for j, pid in enumerate(expect.properties):
            if pid not in BY_ID:
                raise RuleproofError("RP200", sc.where(base + ("expect", "properties", j)), property=pid,
                                     known=", ".join(BY_ID))


def _check_expect_cards(sc: Scenario, base: tuple, a: ActionSpec, responses: list, expect: ExpectSpec, feature_ids: dict[str, str],
                        card_ref) -> None:
    """``expect.cards``: cards of the scenario, their fields, resources as numbers."""
    for cid, fields in expect.cards.items():
        card_ref(cid, base + ("expect", "cards", cid))
        for key in fields:
            if key not in _CARD_FIELDS:
                raise RuleproofError("RP112", sc.where(base + ("expect", "cards", cid, key)), key=key,
                                     field=f"expect → cards → {cid}", allowed=", ".join(_CARD_FIELDS))
            value = fields[key]
            if key == "resources" and not (isinstance(value, dict) and all(
                    isinstance(n, int) and not isinstance(n, bool) for n in value.values())):
                raise RuleproofError("RP110", sc.where(base + ("expect", "cards", cid, key)),
                                     field=f"expect → cards → {cid} → resources",
                                     problem=Localized("нужно отображение «ресурс: число», например {crystal: 0}",
                                                       "a mapping «resource: number» is expected, e.g. {crystal: 0}"),
                                     doc="docs/rulings.md")


def _check_expect_action(sc: Scenario, base: tuple, a: ActionSpec, responses: list, expect: ExpectSpec, feature_ids: dict[str, str],
                         card_ref) -> None:
    """``expect.action``: fields of an action."""
    for key in expect.action:
        if key not in Action.__dataclass_fields__:
            raise RuleproofError("RP112", sc.where(base + ("expect", "action", key)), key=key,
                                 field="expect → action", allowed=", ".join(Action.__dataclass_fields__))


def _check_expect_x(sc: Scenario, base: tuple, a: ActionSpec, responses: list, expect: ExpectSpec, feature_ids: dict[str, str],
                    card_ref) -> None:
    """``expect.x``: X of the action, their fields."""
    names = [x.name for x in a.xs]
    for name, fields in expect.x.items():
        if name not in names:
            raise RuleproofError("RP150", sc.where(base + ("expect", "x", name)),
                                 problem=Localized(f"в игродействии нет X с именем '{name}'",
                                                   f"no X named '{name}' in the action"),
                                 fix=one_of(names) if names else Localized("— (объявите его в action.xs)",
                                                                             "— (declare it under action.xs)"))
        for key in fields:
            if key not in _X_FIELDS:
                raise RuleproofError("RP112", sc.where(base + ("expect", "x", name, key)), key=key,
                                     field=f"expect → x → {name}", allowed=", ".join(_X_FIELDS))


#: what is checked of each game action, in this order (the first problem found is the error)
_PLAY_CHECKS = (_check_cards_named, _check_xs, _check_magnitude, _check_cost, _check_responses, _check_expect_properties,
                _check_expect_cards, _check_expect_action, _check_expect_x)


def _x_source(sc: Scenario, spec, path: tuple, card_ref) -> None:
    if spec[0] not in X_SOURCES:
        raise RuleproofError("RP150", sc.where(path),
                             problem=Localized(f"неизвестный источник X '{spec[0]}'{suggest(spec[0], X_SOURCES).ru}",
                                               f"unknown X source '{spec[0]}'{suggest(spec[0], X_SOURCES).en}"),
                             fix=one_of(X_SOURCES))
    card_ref(spec[1], path, ("self", "source", "target", "defender"))
    if spec[0] == "count" and spec[2] not in COUNTS:
        near = suggest(spec[2], COUNTS)
        raise RuleproofError("RP150", sc.where(path + (2,)),
                             problem=Localized(f"X вида count не знает, какие карты считать: '{spec[2]}'",
                                               f"an X of source count does not know which cards to count: '{spec[2]}'"),
                             fix=Localized(f"напишите одно из: {', '.join(COUNTS)}{near.ru} — например "
                                           "[count, self, open]: «число ваших открытых существ»",
                                           f"write one of: {', '.join(COUNTS)}{near.en} — e.g. "
                                           "[count, self, open]: «the number of your open creatures»"))


# --- running and judging ----------------------------------------------------------------------------

@dataclass
class Failure:
    what: str  # the expectation, e.g. "cards.kele.closed"
    expected: Any
    actual: Any
    clauses: tuple[str, ...] = ()
    events: tuple[int, ...] = ()  # seq numbers of the offending events (a violated property)
    actual_ru: Any = None  # ``actual`` in Russian, where it is a sentence
    expected_ru: Any = None  # ``expected`` in Russian, where it is a word
    what_ru: str | None = None  # ``what`` in Russian, where it is more than a path

    def shown(self, lang: str = "en") -> Any:
        return _ru(self.actual_ru if self.actual_ru is not None else self.actual) if lang == "ru" else self.actual

    def wanted(self, lang: str = "en") -> Any:
        return _ru(self.expected_ru if self.expected_ru is not None else self.expected) if lang == "ru" else self.expected

    def named(self, lang: str = "en") -> str:
        return self.what_ru if lang == "ru" and self.what_ru is not None else self.what

    def text(self, lang: str = "en") -> str:
        if lang == "ru":
            return f"{self.named(lang)}: ожидалось {self.wanted(lang)!r}, получено {self.shown(lang)!r}"
        return f"{self.what}: expected {self.expected!r}, got {self.actual!r}"


class _Word(str):
    """A Russian word standing for a value (да/нет): shown without quotes."""

    def __repr__(self) -> str:
        return str(self)


def _ru(v: Any) -> Any:
    """A value as a Russian reader sees it: true/false as да/нет (inside lists too)."""
    if isinstance(v, bool):
        return _Word(word(v, "ru"))
    if isinstance(v, (list, tuple)):
        return type(v)(_ru(i) for i in v) if isinstance(v, list) else tuple(_ru(i) for i in v)
    return v


@dataclass
class ScenarioResult:
    scenario: Scenario
    trace: Trace  # the whole turn
    failures: list[Failure] = field(default_factory=list)
    parts: list[Trace] = field(default_factory=list)  # each game action's own trace, in order

    @property
    def passed(self) -> bool:
        return not self.failures

    @property
    def departures(self) -> tuple[int, ...]:
        """The events where the run departs from its expectations (each failure's), in order: what
        every format marks ▶."""
        return tuple(sorted({n for f in self.failures for n in f.events}))


def _norm(v: Any) -> Any:
    """Compare YAML values with state values: lists = tuples; RawInt = int."""
    if isinstance(v, (list, tuple)):
        return [_norm(i) for i in v]
    if isinstance(v, bool) or v is None:
        return v
    for t in (int, float, str):
        if isinstance(v, t):
            return t(v)
    return v


def _ru_text(values: list) -> str:
    """Event values for a Russian reader (true/false as да/нет)."""
    return repr([{k: _ru(v) for k, v in d.items()} for d in values])


def _ru_event(want) -> str:
    """An expected event for a Russian reader (true/false as да/нет).

    >>> _ru_event({"op": "check_resources", "ok": False})
    "{'op': 'check_resources', 'ok': нет}"
    """
    return repr({k: _ru(v) for k, v in dict(want).items()})


def _last_change(trace: Trace, get) -> tuple[int, ...]:
    """The event that last changed a value (the one that set what the expectation rejects), or the
    last event when nothing changed it (the action ended without the expected change)."""
    def value(e):
        try:
            return _norm(get(e.state))
        except (AttributeError, KeyError, LookupError, TypeError):
            return _MISSING

    seq, prev = None, _MISSING
    for e in trace.events:
        now = value(e)
        if now != prev and prev is not _MISSING:
            seq = e.seq
        prev = now
    return (seq,) if seq is not None else ((trace.events[-1].seq,) if trace.events else ())


def _first_departure(trace: Trace, steps: list[str]) -> tuple[int, ...]:
    """The first ``enter`` event whose step differs from the expected visit order (or the last event)."""
    enters = [e for e in trace.events if e.op == "enter"]
    for k, e in enumerate(enters):
        if k >= len(steps) or e.values["step"] != steps[k]:
            return (e.seq,)
    return (trace.events[-1].seq,) if trace.events else ()


def _matches(event, want: dict) -> bool:
    for key, value in want.items():
        actual = event.op if key == "op" else event.step if key == "step" else event.values.get(key, _MISSING)
        if actual is _MISSING or _norm(actual) != _norm(value):
            return False
    return True


_MISSING = object()


def check_assumptions(sc: Scenario, rb: Rulebook) -> None:
    """The assumptions a ruling rests on must be assumptions of the rulebook it runs on."""
    for j, aid in enumerate(sc.spec.assumptions):
        if aid not in rb.spec.assumptions:
            raise RuleproofError("RP127", sc.where(("assumptions", j)), assumption=aid,
                                 known=", ".join(rb.spec.assumptions) or "—")


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


def _compare(res: ScenarioResult, trace: Trace, exp: ExpectSpec, clauses: tuple, prefix: str) -> None:
    """The failures of one game action against its expectations (``prefix``: which action, for the reader)."""
    def fail(f: Failure) -> None:
        res.failures.append(replace(f, what=prefix + f.what) if prefix else f)

    end = (trace.events[-1].seq,) if trace.events else ()  # where an action ended without what was expected
    for expected in _EXPECTATIONS:
        expected(trace, exp, clauses, end, fail)


def _expect_outcome(trace: Trace, exp: ExpectSpec, clauses: tuple, end: tuple, fail) -> None:
    """``outcome``: how the action ended."""
    if trace.outcome != exp.outcome:
        last = trace.events[-1].values.get("reason", "") if trace.events else ""
        fail(Failure("outcome", exp.outcome, f"{trace.outcome} {last}".strip(), clauses, end, actual_ru=trace.outcome))


def _expect_unused(trace: Trace, exp: ExpectSpec, clauses: tuple, end: tuple, fail) -> None:
    """``unused``: the responses never offered — and only those."""
    never = {f for _, _, f in trace.unused}
    for window, player, feature in trace.unused:
        if feature not in exp.unused:
            passes = tuple(e.seq for e in trace.events if e.op == "pass" and e.values.get("window") == window
                           and e.values.get("player") == player)
            fail(Failure(f"response {feature} ({player} in window {window})", "played", "never offered", clauses,
                         passes or end, actual_ru=_Word("не предложен ни разу"), expected_ru=_Word("разыгран"),
                         what_ru=f"ответ {feature} ({player}, окно {window})"))
    for feature in exp.unused:
        if feature not in never:
            plays = tuple(e.seq for e in trace.events if e.op == "play" and e.values.get("feature") == feature)
            fail(Failure(f"response {feature}", "not offered (unused)", "offered and played", clauses, plays[:1] or end,
                         actual_ru=_Word("предложен и разыгран"), expected_ru=_Word("не предложен (unused)"),
                         what_ru=f"ответ {feature}"))


def _expect_cards(trace: Trace, exp: ExpectSpec, clauses: tuple, end: tuple, fail) -> None:
    """``cards``: each card's fields (``resources``: each named resource) after the action."""
    final = trace.final
    for cid, fields in exp.cards.items():
        card = final.card(cid)
        for key, want in fields.items():
            if key == "resources" and isinstance(want, dict):  # each named resource: {crystal: 0}
                for word, n in want.items():
                    got = final.card(cid).resource(word)
                    if _norm(got) != _norm(n):
                        fail(Failure(f"cards.{cid}.resources.{word}", n, got, clauses,
                                     _last_change(trace, lambda st, c=cid, r=word: st.card(c).resource(r))))
                continue
            got = getattr(card, key)
            if _norm(got) != _norm(want):
                fail(Failure(f"cards.{cid}.{key}", want, got, clauses,
                             _last_change(trace, lambda st, c=cid, k=key: getattr(st.card(c), k))))


def _expect_action(trace: Trace, exp: ExpectSpec, clauses: tuple, end: tuple, fail) -> None:
    """``action``: the action's fields after it."""
    final = trace.final
    for key, want in exp.action.items():
        got = getattr(final.action, key)
        if _norm(got) != _norm(want):
            fail(Failure(f"action.{key}", want, got, clauses, _last_change(trace, lambda st, k=key: getattr(st.action, k))))


def _expect_x(trace: Trace, exp: ExpectSpec, clauses: tuple, end: tuple, fail) -> None:
    """``x``: each X's fields after the action."""
    final = trace.final
    for name, fields in exp.x.items():
        xv = final.action.x(name)
        for key, want in fields.items():
            got = getattr(xv, key)
            if _norm(got) != _norm(want):
                fail(Failure(f"x.{name}.{key}", want, got, clauses,
                             _last_change(trace, lambda st, n=name, k=key: getattr(st.action.x(n), k))))


def _expect_events(trace: Trace, exp: ExpectSpec, clauses: tuple, end: tuple, fail) -> None:
    """``events``: each present (an event with these values)."""
    for want in exp.events:
        if not any(_matches(e, want) for e in trace.events):
            same_op = [e for e in trace.events if e.op == want.get("op")]
            near = [e.values for e in same_op][:3]
            fail(Failure(f"event {dict(want)}", "present", f"absent (events of that op: {near})", clauses,
                         tuple(e.seq for e in same_op[:3]) or end,
                         actual_ru=_Word(f"нет (события этой операции: {_ru_text(near)})"), expected_ru=_Word("есть"),
                         what_ru=f"событие {_ru_event(want)}"))


def _expect_no_events(trace: Trace, exp: ExpectSpec, clauses: tuple, end: tuple, fail) -> None:
    """``no_events``: each absent."""
    for want in exp.no_events:
        hits = [e for e in trace.events if _matches(e, want)]
        if hits:
            fail(Failure(f"no event {dict(want)}", "absent", f"at #{hits[0].seq} in step {hits[0].step}", clauses,
                         (hits[0].seq,), actual_ru=_Word(f"есть: №{hits[0].seq}, шаг {hits[0].step}"), expected_ru=_Word("нет"),
                         what_ru=f"нет события {_ru_event(want)}"))


def _expect_properties(trace: Trace, exp: ExpectSpec, clauses: tuple, end: tuple, fail) -> None:
    """``properties``: each holds on the action's trace."""
    if exp.properties:
        from ruleproof.properties.catalogue import BY_ID, View  # read when called (a test plants properties)

        view = View(trace.events)
        for pid in exp.properties:
            p = BY_ID[pid]
            v = p.check(view)
            if v is not None:
                at = ", ".join(f"#{n}" for n in v.events)
                fail(Failure(f"property {pid}", "holds", f"violated at events {at}: {v.en}", p.clauses, v.events,
                             _Word(f"нарушено в событиях {at}: {v.ru}"), _Word("выполняется"), f"свойство {pid}"))


def _expect_visited(trace: Trace, exp: ExpectSpec, clauses: tuple, end: tuple, fail) -> None:
    """``visited``: the steps entered, in order."""
    if exp.visited is not None:
        visited = [e.values["step"] for e in trace.events if e.op == "enter"]
        if visited != list(exp.visited):
            fail(Failure("visited", list(exp.visited), visited, clauses, _first_departure(trace, list(exp.visited))))


#: what an ``expect`` can say, checked in this order
_EXPECTATIONS = (_expect_outcome, _expect_unused, _expect_cards, _expect_action, _expect_x, _expect_events,
                 _expect_no_events, _expect_properties, _expect_visited)


def shipped_rulings() -> list[Path]:
    """The ruling scenarios shipped with ruleproof (package data ``ruleproof.rulings``)."""
    return sorted(Path(str(resources.files("ruleproof.rulings"))).glob("**/*.yaml"))


def ruling_citations(paths: list[Path] | None = None):
    """A Citation per ruling (for `clauses --against`: which rulings cite a changed clause)."""
    for p in paths if paths is not None else shipped_rulings():
        for sc in load_rulings(p):
            yield Citation(f"ruling {sc.spec.id}", "ruling", tuple(sc.spec.clauses), sc.where(("clauses",)))


def shipped_scenarios(index: ClauseIndex | None = None) -> list[tuple[Path, Scenario]]:
    """Every shipped ruling (a file with cases gives one per case), with its file."""
    return [(p, sc) for p in shipped_rulings() for sc in load_rulings(p, index)]


def ruling_files(folder: str | Path) -> list[Path]:
    """The ruling files of a team's folder (``--rulings DIR``): every ``*.yaml`` under it, sorted, each
    path as the folder was given (so that a replay command names the file as the user would).  A
    missing folder, a file where a folder was expected, or a folder with no ``*.yaml`` is RP166."""
    root = Path(folder)
    if not root.exists():
        problem = Localized("такой папки нет", "no such folder")
    elif not root.is_dir():
        problem = Localized("это файл, а нужна папка", "this is a file, a folder was expected")
    else:
        files = sorted(p for p in root.rglob("*.yaml") if p.is_file())
        if files:
            return files
        problem = Localized("в папке нет ни одного файла *.yaml", "the folder holds no *.yaml file")
    raise RuleproofError("RP166", None, path=str(folder), problem=problem)

