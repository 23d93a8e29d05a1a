"""What a loaded scenario is checked for before it runs: its cards, features, X, costs, scripted responses and
expectations name what exists (one error each, at file:line, with the fix)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import ValidationError

from ruleproof.ground.errors import Localized, RuleproofError, one_of, suggest
from ruleproof.ground.i18n import plural, times_text

from ..clauses import ClauseIndex
from ..features import CARD_FEATURE_KEYS, CARD_FEATURE_KINDS, CONDITIONS, COUNTS, X_SOURCES
from ..loader_errors import describe_location, value_error
from ..rulebook_checks import check_clause_ids
from ..state import Action
from ..vocabulary import FEATURE_KEYS, FEATURE_KINDS, X_KINDS
from .spec import _CARD_FIELDS, _X_FIELDS, ActionSpec, ExpectSpec, read_expected

if TYPE_CHECKING:  # annotations only: the loader runs these checks
    from .load import Scenario


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
                             problem=Localized(f"times ({times_text(f.times, 'ru')} за ход, 540.1.3) читается только у "
                                               f"формы per_turn, а у этой особенности form: {f.form}",
                                               f"times ({times_text(f.times, 'en')} a turn, 540.1.3) is read only for the form "
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
                                 fix=Localized(f"перечислите в action.targets {x.chosen} "
                                               f"{plural(x.chosen, 'цель|цели|целей', 'ru')} или напишите chosen: "
                                               f"{len(a.targets)}", f"list {x.chosen} {plural(x.chosen, 'target|targets')} "
                                               f"in action.targets, or write chosen: {len(a.targets)}"))


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
                                     field=f"expect → cards → {cid}", allowed=", ".join(_CARD_FIELDS),
                                     hint=suggest(key, _CARD_FIELDS))
            value = fields[key]
            if key == "resources" and not (isinstance(value, dict) and all(
                    isinstance(n, int) and not isinstance(n, bool) for n in value.values())):
                raise RuleproofError("RP110", sc.where(base + ("expect", "cards", cid, key)),
                                     field=f"expect → cards → {cid} → resources",
                                     problem=Localized("нужно отображение «ресурс: число», например {crystal: 0}",
                                                       "a mapping «resource: number» is expected, e.g. {crystal: 0}"),
                                     doc="docs/rulings.md")
            _readable(sc, base + ("expect", "cards", cid, key), "cards", key, value)


def _readable(sc: Scenario, path: tuple, section: str, key: str, value) -> None:
    """An expected value reads as its field's type (a yes/no, a number): the same reading as a card's."""
    try:
        read_expected(section, key, value)
    except ValidationError as exc:
        raise value_error(exc, sc.where(path), str(describe_location(path))) from None


def _check_expect_action(sc: Scenario, base: tuple, a: ActionSpec, responses: list, expect: ExpectSpec, feature_ids: dict[str, str],
                         card_ref) -> None:
    """``expect.action``: fields of an action."""
    for key, value in expect.action.items():
        if key not in Action.__dataclass_fields__:
            raise RuleproofError("RP112", sc.where(base + ("expect", "action", key)), key=key,
                                 field="expect → action", allowed=", ".join(Action.__dataclass_fields__),
                                 hint=suggest(key, Action.__dataclass_fields__))
        _readable(sc, base + ("expect", "action", key), "action", key, value)


def _check_expect_x(sc: Scenario, base: tuple, a: ActionSpec, responses: list, expect: ExpectSpec, feature_ids: dict[str, str],
                    card_ref) -> None:
    """``expect.x``: X of the action, their fields."""
    names = [x.name for x in a.xs]
    for name, fields in expect.x.items():
        if name not in names:
            near = suggest(name, names)
            raise RuleproofError("RP150", sc.where(base + ("expect", "x", name)),
                                 problem=Localized(f"в игродействии нет X с именем '{name}'{near.ru}",
                                                   f"no X named '{name}' in the action{near.en}"),
                                 fix=one_of(names) if names else Localized("— (объявите его в action.xs)",
                                                                             "— (declare it under action.xs)"))
        for key, value in fields.items():
            if key not in _X_FIELDS:
                raise RuleproofError("RP112", sc.where(base + ("expect", "x", name, key)), key=key,
                                     field=f"expect → x → {name}", allowed=", ".join(_X_FIELDS),
                                     hint=suggest(key, _X_FIELDS))
            _readable(sc, base + ("expect", "x", name, key), "x", key, value)


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
