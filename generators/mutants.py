"""Named faulty rulebooks (mutants) of the bundled rules: drafts with one deliberate fault each.

Each mutant is a small frozen record: an id, the clauses the fault violates, a description in both
languages and an ``edit`` that turns rulebook data (the parsed YAML) into the faulty draft.  The
public must-catch mutants M1–M8 are listed first.  ``write_mutant`` saves one as a YAML file, which
is all a draft is.

>>> from ruleproof.model.rulebook import load_rulebook_text
>>> rb = load_rulebook_text(mutant_yaml("M4"), "M4.yaml")
>>> [o.when for o in rb.spec.steps["payment"].operations if o.op == "give_action_marker"]
['not resource_modified']
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import yaml

from ruleproof.model.rulebook import bundled_rulebook_path

__all__ = ["Mutant", "MUTANTS", "PUBLIC", "find_op", "bundled_data", "mutate", "mutant_yaml", "write_mutant"]

Edit = Callable[[dict], None]


@dataclass(frozen=True)
class Mutant:
    id: str
    clauses: tuple[str, ...]
    ru: str
    en: str
    edit: Edit


def _ops(d: dict, step: str) -> list[dict]:
    return d["steps"][step]["operations"]


def find_op(d: dict, step: str, op: str, **params) -> int:
    """Position of the first operation ``op`` (with matching parameters) in ``step`` of rulebook data."""
    for i, o in enumerate(_ops(d, step)):
        if o["op"] == op and all(o.get(k) == v for k, v in params.items()):
            return i
    raise LookupError(f"{op} {params} not in step {step}")


def _move(d: dict, step: str, op: str, to_step: str, position: int | None = None, after: str | None = None,
          **params) -> None:
    moved = _ops(d, step).pop(find_op(d, step, op, **params))
    target = _ops(d, to_step)
    if after is not None:
        position = find_op(d, to_step, after) + 1
    target.insert(len(target) if position is None else position, moved)


def _set(d: dict, step: str, op: str, key: str, value, **params) -> None:
    _ops(d, step)[find_op(d, step, op, **params)][key] = value


def _drop(d: dict, step: str, op: str, **params) -> None:
    _ops(d, step).pop(find_op(d, step, op, **params))


def _refuse_when(d: dict, when: str) -> None:
    """The declaration is refused (void, to the handover) also when ``when`` holds."""
    ops = _ops(d, "declaration")
    i = find_op(d, "declaration", "check_resources")
    ops.insert(i + 1, {"op": "remove_from_stack", "void": True, "when": when, "cites": ["542.2"]})
    d["steps"]["declaration"]["next"].insert(0, {"to": "handover", "when": when, "cites": ["542.2"]})


def _allows(d: dict, window: str, change: Callable[[list], list]) -> None:
    for step in d["steps"].values():
        for o in step.get("operations", []):
            if o["op"] == "window" and o["id"] == window:
                o["allows"] = change(list(o["allows"]))
                return
    raise LookupError(window)


def _swap_blocking(d: dict) -> None:
    s = d["steps"]
    s["dice"]["next"] = [{"to": "blocking", "cites": ["512.6.2/b5"]}]
    s["claim_resolution"]["next"][0]["to"] = "blocking"
    s["blocking"]["next"] = [{"to": "completion", "when": "action_blocked", "cites": ["512.6.4/b3"]},
                             {"to": "calculation", "cites": ["512.6.4/b4"]}]
    s["calculation"]["next"][1]["to"] = "effect"


def _short_goes_on(d: dict) -> None:
    """The rulebook before the refused declaration: the failed check changes nothing."""
    _drop(d, "declaration", "remove_from_stack")
    _ops(d, "declaration")[find_op(d, "declaration", "reserve_resources")].pop("when")
    d["steps"]["declaration"]["next"] = [e for e in d["steps"]["declaration"]["next"] if e.get("when") != "resources_short"]


def _table_for_every_attack(d: dict) -> None:
    """The rulebook before 512.6.2/b4.2's branch: the strike table for every attack."""
    ops = _ops(d, "dice")
    ops.pop(find_op(d, "dice", "determine_base", table=False))
    ops[find_op(d, "dice", "determine_base", table=True)].pop("when")


def _m(id: str, clauses: tuple[str, ...], ru: str, en: str) -> Callable[[Edit], Mutant]:
    def make(edit: Edit) -> Mutant:
        return Mutant(id, clauses, ru, en, edit)

    return make


MUTANTS: dict[str, Mutant] = {m.id: m for m in (
    _m("M1", ("542.2",), "X ресурсов фиксируется на этапе оплаты, а не при объявлении",
       "cost-X is fixed at the payment stage instead of at declaration")(
        lambda d: _move(d, "declaration", "fix_x", "payment", 0, x="cost")),
    _m("M2", ("542.3",), "X целей заново определяется на шаге расчёта",
       "target-count X is determined again at the calculation step")(
        lambda d: _ops(d, "calculation").insert(find_op(d, "calculation", "check_source_legality") + 1,
                                                {"op": "fix_x", "x": "targets", "cites": ["542.3"]})),
    _m("M3", ("542.4/b2", "512.6.3/b4"), "вычисляемый X величины фиксируется после модификаторов величины",
       "computed magnitude-X is fixed after the magnitude modifiers are applied")(
        lambda d: _move(d, "calculation", "fix_x", "calculation", after="apply_magnitude_modifiers",
                        x="magnitude_computed")),
    _m("M4", ("540.3",), "игродействие с модифицированными ресурсами не получает маркер действия",
       "a resource-modified action gets no action marker")(
        lambda d: _set(d, "payment", "give_action_marker", "when", "not resource_modified")),
    _m("M5", ("540.2", "540.1.1"), "карта с «не закрывается после …» закрывается при оплате",
       "a card with «does not close after …» closes at payment")(
        lambda d: _set(d, "payment", "pay_reserved", "exempt_modified", False)),
    _m("M6", ("540.2",), "ресурсы модифицированного игродействия не резервируются при объявлении",
       "the resources of a modified action are not reserved at declaration")(
        lambda d: _set(d, "declaration", "reserve_resources", "include_modified", False)),
    _m("M7", ("512.6.3/b3", "526"), "легальность источника проверяется повторно на шаге блокирования",
       "the source's legality is checked again at the blocking step")(
        lambda d: _ops(d, "blocking").append({"op": "check_source_legality", "cites": ["512.6.3/b3"],
                                              "assumes": ["A-flying-arrow"]})),
    _m("M8", ("512.6.2/b3",), "модификаторы броска разрешены в окне переброса",
       "dice modifiers are allowed in the reroll window")(
        lambda d: _allows(d, "reroll", lambda a: a + ["dice_modifier"])),
    # --- further faults, one per behaviour a ruling covers ---------------------------------------
    _m("raw-die-before-reroll", ("512.6.2/b2",), "значение кубика фиксируется до окна переброса",
       "the raw die is fixed before the reroll window")(
        lambda d: _move(d, "dice", "fix_raw_die", "dice", 1)),
    _m("implicit-x-at-declaration", ("542.8", "542.4/b2"), "неявный X (542.8) фиксируется при объявлении",
       "the implicit X of 542.8 is fixed at declaration")(
        lambda d: _move(d, "calculation", "fix_x", "declaration", x="implicit")),
    _m("computed-x-at-declaration", ("542.4/b2",), "вычисляемый X величины фиксируется при объявлении",
       "computed magnitude-X is fixed at declaration")(
        lambda d: _move(d, "calculation", "fix_x", "declaration", x="magnitude_computed")),
    _m("modifiers-read-current", ("542.6",), "условия модификаторов читают текущие, а не напечатанные значения",
       "modifier conditions read current instead of printed values")(
        lambda d: _set(d, "calculation", "apply_magnitude_modifiers", "reads", "current")),
    _m("return-roles-kept", ("512.6.2/b4.1.4",), "ответный удар рассчитывается без смены ролей: нападающий "
       "остаётся атакующим", "the return strike is calculated with the roles kept: the attacker stays the attacking one")(
        lambda d: _set(d, "calculation", "apply_magnitude_modifiers", "return_roles", "kept")),
    _m("return-unmodified", ("512.6.2/b4.1.4", "512.6.3/b4"), "к ответному удару не применяются модификаторы величины",
       "no magnitude modifier applies to the return strike")(
        lambda d: _set(d, "calculation", "apply_magnitude_modifiers", "return_roles", "unmodified")),
    _m("dice-x-reads-current", ("542.6", "542.5/b1"), "X модификатора броска читает текущее значение свойства",
       "dice-modifier X reads the current property value")(
        lambda d: _set(d, "dice", "fix_x", "reads", "current", x="dice_modifier")),
    _m("computed-x-reads-current", ("542.6", "542.4/b2"), "вычисляемый X величины читает текущее значение свойства",
       "computed magnitude-X reads the current property value")(
        lambda d: _set(d, "calculation", "fix_x", "reads", "current", x="magnitude_computed")),
    _m("implicit-x-reads-current", ("542.6", "542.8"), "неявный X (542.8) читает текущее значение свойства",
       "the implicit X of 542.8 reads the current property value")(
        lambda d: _set(d, "calculation", "fix_x", "reads", "current", x="implicit")),
    _m("magnitude-modifier-x-reads-current", ("542.6", "542.5/b2"),
       "X модификатора величины читает текущее значение свойства",
       "magnitude-modifier X reads the current property value")(
        lambda d: _set(d, "calculation", "fix_x", "reads", "current", x="magnitude_modifier")),
    _m("magnitude-modifier-x-before-window", ("542.5/b2",),
       "X модификатора величины вычисляется до окна шага расчёта",
       "magnitude-modifier X is computed before the calculation window")(
        lambda d: _move(d, "calculation", "fix_x", "calculation", 0, x="magnitude_modifier")),
    _m("return-strike-not-a-strike", ("540.4.1",), "«при ударе» не срабатывает на ответный удар",
       "«on strike» does not fire on a return strike")(
        lambda d: d["tables"]["trigger_words"]["rows"].update(strike=["attack"])),
    _m("assault-fires-on-return-strike", ("540.4.1",), "«при нападении» срабатывает и на ответный удар",
       "«on assault» also fires on a return strike")(
        lambda d: d["tables"]["trigger_words"]["rows"].update(assault=["attack", "return_strike"])),
    _m("assault-fires-on-nothing", ("540.4.1",), "«при нападении» не срабатывает даже на удар нападающего",
       "«on assault» does not fire even on the attacker's own strike")(
        lambda d: d["tables"]["trigger_words"]["rows"].update(assault=[])),
    _m("assault-closes-on-return-strike", ("540.1.2",),
       "«Закрывается после нападения» засчитывает нападением и ответный удар защитником",
       "«Closes after an assault» counts a return strike as a defender as an assault too")(
        lambda d: d["tables"]["assault_strikes"]["rows"].update(closes_after=["attack", "return_strike"])),
    _m("assault-closes-on-nothing", ("540.1.2",), "«Закрывается после нападения» не засчитывает нападением даже собственный удар",
       "«Closes after an assault» counts not even the card's own strike as an assault")(
        lambda d: d["tables"]["assault_strikes"]["rows"].update(closes_after=[])),
    _m("marker-before-payment", ("540.3.1",), "маркер действия выдаётся до оплаты",
       "the action marker is given before payment")(
        lambda d: _move(d, "payment", "give_action_marker", "payment", 0)),
    _m("marker-despite-text", ("540.3",), "карта получает маркер действия, даже если текст особенности, "
       "модифицирующей её ресурсы, говорит иное", "the card gets the action marker even when the text of a "
       "feature that modifies its resources says otherwise")(
        lambda d: _set(d, "payment", "give_action_marker", "unless_text", False)),
    _m("no-modification-during-execution", ("540.4",), "модификация ресурсов во время выполнения не разрешена",
       "no resource modification during execution")(
        lambda d: _allows(d, "effect_triggers", lambda a: [k for k in a if k != "resource_modification"])),
    _m("claims-unresolved", ("512.5/t1",), "этап выполнения начинается без разрешения заявок",
       "the execution stage begins without resolving the claims")(
        lambda d: _drop(d, "claim_resolution", "resolve_claims")),
    _m("no-resource-check", ("540.2", "542.2"), "наличие ресурсов при объявлении не проверяется",
       "resources are not checked at declaration")(lambda d: _drop(d, "declaration", "check_resources")),
    _m("short-declaration-goes-on", ("540.2", "542.2"), "игродействие, для которого у карты нет ресурсов, "
       "всё равно выполняется и оплачивается", "an action the card lacks the resources for is executed and paid all "
       "the same")(_short_goes_on),
    _m("miss-skips-effect", ("512.6.6/b2", "512.6.1"), "атака с промахом сразу переходит к завершению способности, "
       "без расчёта, блокирования и наложения эффекта (ответного удара нет)", "a missed attack goes straight to "
       "completion, with no calculation, blocking or effect (no return strike is dealt)")(
        lambda d: d["steps"]["dice"]["next"].insert(0, {"to": "completion", "when": "missed", "cites": ["512.6.6/b2"]})),
    _m("no-effect", ("512.6.5",), "эффект не накладывается", "the effect is not applied")(
        lambda d: _drop(d, "effect", "apply_effect")),
    _m("unblocked-skips-effect", ("512.6.4/b4",), "незаблокированное заклинание или воздействие идёт с шага "
       "блокирования к шагу завершения, минуя наложение эффекта", "a spell or effect that was not blocked goes from the "
       "blocking step to completion, leaving out the effect")(
        lambda d: d["steps"]["blocking"]["next"].insert(-1, {"to": "completion", "when": "not is_attack",
                                                             "cites": ["512.6.4/b4"]})),
    _m("blocked-goes-on", ("512.6.4/b3",), "заблокированное действие идёт к наложению эффекта",
       "a blocked action goes on to the effect")(
        lambda d: d["steps"]["blocking"]["next"].pop(0)),
    _m("table-for-every-attack", ("512.6.2/b4.1", "512.6.2/b4.2"), "таблица ударов (и ответный удар) применяется "
       "к любой атаке, а не только к бою существ простым ударом", "the strike table (and the return strike) applies "
       "to every attack, not only to a creature fight by simple strike")(_table_for_every_attack),
    _m("modified-skips-blocking", ("512.6.1", "512.6.4"), "игродействие с модифицированными ресурсами "
       "пропускает шаг блокирования", "a resource-modified action leaves out the blocking step")(
        lambda d: d["steps"]["calculation"]["next"].insert(1, {"to": "effect", "when": "resource_modified",
                                                                "cites": ["512.6.3/b5"]})),
    _m("illegal-goes-on", ("512.6.3/b3",), "нелегальное игродействие продолжается", "an illegal action goes on")(
        lambda d: d["steps"]["calculation"]["next"].pop(0)),
    _m("no-role-release", ("512.6.6/b3",), "роли карт не снимаются", "card roles are not released")(
        lambda d: _drop(d, "completion", "release_roles")),
    _m("dice-x-before-window", ("542.5/b1",), "X модификатора броска вычисляется до окна модификаторов броска",
       "dice-modifier X is computed before the dice-modifier window")(
        lambda d: _move(d, "dice", "fix_x", "dice", find_op(d, "dice", "window", id="dice_modifiers"),
                        x="dice_modifier")),
    _m("finalize-before-modifiers", ("512.6.3/b4",), "окончательная величина объявляется до модификаторов величины",
       "the final magnitude is declared before the magnitude modifiers")(
        lambda d: _move(d, "calculation", "finalize_magnitude", "calculation",
                        find_op(d, "calculation", "apply_magnitude_modifiers"))),
    _m("other-player-first", ("512.6.3/b1",), "в окне шага расчёта приоритет первым получает неактивный игрок",
       "in the calculation window the non-active player gets priority first")(
        lambda d: _set(d, "calculation", "window", "first", "non_active_player")),
    _m("blocking-before-calculation", ("512.6.1",), "шаг блокирования идёт до шага расчёта",
       "the blocking step comes before the calculation step")(_swap_blocking),
    _m("conditions-at-payment", ("540.4.1/ex1", "540.4"),
       "условие модификации ресурсов («если после этого у Келе нет ран») проверяется снова при оплате",
       "the condition of a resource modification («if Kele then has no wounds») is checked again at payment")(
        lambda d: _set(d, "payment", "pay_reserved", "recheck_conditions", True)),
    _m("per-turn-uncounted", ("540.1.3",), "«Может … X раз за ход» освобождает от оплаты и сверх X применений за ход",
       "«May … X times a turn» spares the payment beyond X uses in a turn too")(
        lambda d: _set(d, "payment", "pay_reserved", "per_turn_count", False)),
    _m("per-turn-per-feature", ("540.1.3",), "«Может [текст] X раз за ход» считает применения одной объявленной "
       "особенности, а не игродействия карты названного вида: карта с двумя особенностями атаки получает X атак на "
       "каждую", "«May [text] X times a turn» counts the uses of one declared feature, not the card's game actions of "
       "the kind named: a card with two attack features gets X attacks for each")(
        lambda d: _set(d, "payment", "pay_reserved", "per_turn_uses", "feature")),
    _m("markers-at-declaration", ("540.3.1", "510.4"), "лимит 540.3.1 сравнивается с маркерами действия, которые "
       "были на карте при объявлении, а не с теми, что на ней при оплате", "540.3.1's limit is compared with the "
       "action markers the card had at declaration, not with those on it at payment")(
        lambda d: _set(d, "payment", "pay_reserved", "markers_at_declaration", True)),
    _m("after-never-offered", ("512.6.6/b2",), "на шаге завершения способности нет окна, и особенности «после …» "
       "не предлагаются", "the completion step has no window: no «after …» feature is offered")(
        lambda d: _drop(d, "completion", "window", id="after_ability")),
    _m("die-unclamped", ("512.6.2/b3", "512.6.2/b4.1.1"), "модификаторы броска выводят итоговый бросок за грани "
       "кубика (6 + 1 = 7), а для такого значения в таблице ударов нет строки", "the dice modifiers take the final die "
       "beyond the die's faces (6 + 1 = 7), a value the strike table has no row for")(
        lambda d: _set(d, "dice", "apply_dice_modifiers", "unclamped", True)),
    _m("block-replaces-miss", ("512.6.6/b2",), "блокирование заменяет промах: «после промаха» атаки, которую "
       "заблокировали после промаха, не заявляется", "a block replaces the miss: «after a miss» of an attack blocked "
       "after it missed is not claimed")(
        lambda d: _set(d, "completion", "window", "after_status", "last", id="after_ability")),
    _m("closed-keeps-close", ("540.2",), "закрытая карта по-прежнему обладает закрытием: игродействие, цена "
       "которого требует закрыться, объявляется", "a closed card still has its closing: an action whose cost asks it to "
       "close is declared")(
        lambda d: _set(d, "declaration", "check_resources", "closed_keeps_close", True)),
    _m("pays-beyond-available", ("512.7",), "при оплате снимается весь зарезервированный ресурс, даже если у карты "
       "его уже меньше (кристаллы уходят ниже нуля)", "the payment takes the whole reserved resource even where the "
       "card has less now (its crystals go below zero)")(
        lambda d: _set(d, "payment", "pay_reserved", "beyond_available", True)),
    _m("targets-rechecked", ("542.3",), "игродействие, цель которого покинула активную зону, после шага расчёта "
       "переходит к шагу завершения (число целей перепроверяется)", "an action whose target has left the active "
       "zone goes from the calculation step to completion (the number of targets is checked again)")(
        lambda d: d["steps"]["calculation"]["next"].insert(0, {"to": "completion", "when": "target_gone",
                                                               "cites": ["542.3"]})),
    _m("big-x-refused", ("542.2",), "объявление с X ресурсов 2 и больше отменяется, даже если у карты есть столько "
       "ресурсов", "a declaration with a cost-X of 2 or more is refused even when the card has that much")(
        lambda d: _refuse_when(d, "cost_x_at_least(2)")),
    _m("big-x-skips-dice", ("512.6.2", "542.2"), "шаг броска кубика пропускается, если X ресурсов 2 и больше (и для "
       "атак)", "the dice step is skipped when the cost-X is 2 or more (attacks included)")(
        lambda d: d["steps"]["claim_resolution"]["next"].insert(0, {"to": "calculation", "when": "cost_x_at_least(2)",
                                                                    "cites": ["512.6.2"]})),
    _m("two-rerolls-no-dice-modifiers", ("512.6.2/b3", "512.6.2/b2"), "после двух перебросов кубика окно "
       "модификаторов броска не открывается", "after two rerolls of the die the dice-modifier window does not open")(
        lambda d: _set(d, "dice", "window", "when", "not plays_at_least(2)", id="dice_modifiers")),
    _m("refused-use-counted", ("540.1.3", "540.2"),
       "несостоявшееся объявление (не хватило ресурсов) считается применением «X раз за ход»",
       "a declaration that did not stand (resources short) counts as a use for «X times a turn»")(
        lambda d: _set(d, "declaration", "remove_from_stack", "void", False)),
    _m("no-payment", ("512.7",), "зарезервированные ресурсы не оплачиваются", "the reserved resources are not paid")(
        lambda d: _drop(d, "payment", "pay_reserved")),
    _m("stays-on-stack", ("512.7/b3",), "особенность не удаляется из стека", "the feature stays on the stack")(
        lambda d: _drop(d, "payment", "remove_from_stack")),
    _m("no-payment-triggers", ("512.7/b2",), "срабатывания при оплате не заявляются",
       "no payment triggers are declared")(
        lambda d: _allows(d, "payment_triggers", lambda a: [])),
    _m("no-compound-loop", ("512.6.6/b4",), "составная особенность не возвращается к формированию заявки",
       "a compound feature does not return to claim forming")(
        lambda d: d["steps"]["completion"]["next"].pop(0)),
    _m("dice-always-skipped", ("512.6.2",), "шаг броска кубика пропускается всегда, и для атак",
       "the dice step is always skipped, attacks included")(
        lambda d: d["steps"]["claim_resolution"]["next"][0].update(when="always")),
    _m("dice-never-skipped", ("512.6.2",), "шаг броска кубика не пропускается",
       "the dice step is never skipped")(lambda d: d["steps"]["claim_resolution"]["next"].pop(0)),
    _m("no-prevention", ("512.6.3/b2",), "предотвращение нельзя заявить на шаге расчёта",
       "prevention cannot be declared at the calculation step")(
        lambda d: _allows(d, "calculation", lambda a: [k for k in a if k != "prevention"])),
    _m("no-reduce-to-strength", ("512.6.3/b2",), "«свести к силе» нельзя заявить на шаге расчёта",
       "«reduce to strength» cannot be declared at the calculation step")(
        lambda d: _allows(d, "calculation", lambda a: [k for k in a if k != "reduce_to_strength"])),
    _m("no-dice-modifiers", ("512.6.2/b3",), "модификаторы броска не применяются",
       "dice modifiers are not applied")(lambda d: _drop(d, "dice", "apply_dice_modifiers")),
    _m("after-window-before-effect", ("512.6.6/b2",), "«после …» заявляются до наложения эффекта",
       "«after …» is declared before the effect")(
        lambda d: d["steps"]["effect"]["operations"].insert(0, d["steps"]["completion"]["operations"].pop(
            find_op(d, "completion", "window")))),
    _m("no-declaration-fix-targets", ("542.3",), "X целей не фиксируется при объявлении",
       "target-count X is not fixed at declaration")(
        lambda d: _move(d, "declaration", "fix_x", "calculation", 1, x="targets")),
    _m("chosen-magnitude-at-calculation", ("542.4/b1",), "выбранная величина X фиксируется на шаге расчёта",
       "a chosen magnitude X is fixed at the calculation step")(
        lambda d: _move(d, "declaration", "fix_x", "calculation", 1, x="magnitude_chosen")),
)}


#: the public must-catch mutants and the property named to catch each
PUBLIC: dict[str, str] = {"M1": "P542.2-cost-x", "M2": "P542.3-targets-x", "M3": "P542.4-computed-x",
                          "M4": "P540.3-action-marker", "M5": "P512.7-payment", "M6": "P540.2-reserved",
                          "M7": "P512.6.3-legality-once", "M8": "P512.6.2-dice-modifier-window"}


def bundled_data() -> dict:
    """The bundled rulebook's data, without its alternative readings (a reading's patch is written
    against the bundled rulebook and need not apply to a mutant of it)."""
    data = yaml.safe_load(bundled_rulebook_path().read_text("utf-8"))
    data.pop("readings", None)
    return data


def mutate(mutant_id: str, data: dict | None = None) -> dict:
    data = copy.deepcopy(data if data is not None else bundled_data())
    MUTANTS[mutant_id].edit(data)
    data["id"] = f"{data['id']}+{mutant_id}"
    return data


def mutant_yaml(mutant_id: str) -> str:
    m = MUTANTS[mutant_id]
    header = f"# mutant {m.id}: {m.en} (violates {', '.join(m.clauses)})\n"
    return header + yaml.safe_dump(mutate(mutant_id), allow_unicode=True, sort_keys=False)


def write_mutant(mutant_id: str, folder: str | Path) -> Path:
    path = Path(folder) / f"{mutant_id}.yaml"
    path.write_text(mutant_yaml(mutant_id), encoding="utf-8")
    return path
