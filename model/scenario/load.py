"""A ruling file loaded: the scenario (one per case), its world and action as the engines hold them; the shipped
rulings and a team's folder of rulings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ruleproof.ground.errors import Localized, RuleproofError, suggest

from ..clauses import ClauseIndex, default_index
from ..features import Effect, Feature
from ..interpreter import ScriptedChoices
from ..loader_errors import describe_location, from_pydantic
from ..rulebook import Citation
from ..state import Action, Card, State, XVar, use_key
from ..yaml_source import LocMap, load_yaml
from .check import _check
from .spec import _CASE_KEYS, FORMAT, ActionSpec, CardSpec, CaseSpec, ExpectSpec, ResponseSpec, ScenarioSpec


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
            mine = len(self.file_spec.clauses)  # the case's clauses follow the file's
            if path[0] == "clauses" and len(path) > 1 and isinstance(path[1], int) and path[1] >= mine:
                return self.locs.at(case + ("clauses", path[1] - mine))
            if (path[0] == "cards" and len(path) > 2 and path[1] in c.cards
                    and path[2] in c.cards[path[1]].model_fields_set):
                return self.locs.at(case + path)
        return self.locs.at(path)

    @property
    def spec_case(self) -> CaseSpec:
        assert self.case is not None, "only a case of a file has a case spec"
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
        kinds = {a.feature: a.kind for a in (spec.action, *(f.action for f in spec.then))}
        cards = tuple(_card(cid, c, kinds) for cid, c in spec.cards.items())
        return State(cards=cards, action=_action(spec.action))

    def choices(self) -> ScriptedChoices:
        return ScriptedChoices(self.spec.dice, [(r.window, r.player, r.play) for r in self.spec.responses])

    def plays(self) -> list[tuple[tuple, ActionSpec, list[int], list[ResponseSpec], ExpectSpec]]:
        """Each game action of the turn: (its path in the file, the action, dice, responses, expect)."""
        spec = self.spec
        assert spec.expect is not None, "a ruling (a case, or a file without cases) has its expect (checked on load)"
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
    xs = tuple(XVar(x.name, x.kind, chosen=x.chosen, compute=x.compute if x.compute else None) for x in a.xs)
    return Action(feature=a.feature, kind=a.kind, source=a.source, targets=tuple(a.targets),
                  defender=a.defender, effect=a.effect, needs_magnitude=a.needs_magnitude,
                  magnitude_base=a.magnitude if isinstance(a.magnitude, int) else None,
                  magnitude_x=a.magnitude if isinstance(a.magnitude, str) else None, xs=xs, parts_left=a.parts - 1,
                  cost=tuple((c.card, c.resource, c.amount) for c in a.cost))


def _uses(c: CardSpec, kinds: Mapping[str, str]) -> tuple[tuple[str, int], ...]:
    """A card's uses this turn keyed by feature and kind of game action (:func:`~.state.use_key`): a bare
    number is a use of a feature the scenario declares, as the kind its action is (``kinds``)."""
    out = {use_key(f, kinds[f] if isinstance(u, int) else u.kind): u if isinstance(u, int) else u.times
           for f, u in c.uses.items()}
    return tuple(sorted((k, n) for k, n in out.items() if n))


def _card(cid: str, c: CardSpec, kinds: Mapping[str, str]) -> Card:
    feats = tuple(Feature(id=f.id, kind=f.kind, text=f.text, mode=f.mode, amount=f.amount,
                          x=f.x if f.x else None, condition=f.condition if f.condition else None,
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
