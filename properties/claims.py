"""The clauses' temporal claims: for one or two clauses, an order between the events of a game action
(cost-X fixed at declaration, 542.2; computed magnitude-X right before the magnitude modifiers, 542.4/b2;
«после …» only after the effect, 512.6.6/b2; …).  The claims name events by the vocabulary (an operation
and its parameters, or a priority window by a feature kind it admits), never by a rulebook's step ids, so
a draft cannot redefine them; :mod:`.consistency` checks them against a rulebook's order.

>>> len(CLAIMS) == len(BY_ID) > 10
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import z3

from ruleproof.model.vocabulary import FEATURE_KINDS, OPERATIONS

if TYPE_CHECKING:  # annotations only: the consistency check encodes the claims
    from .consistency import _Encoding

__all__ = ["Selector", "Relation", "Claim", "CLAIMS", "BY_ID", "Event", "op", "win", "same_step", "before",
           "right_before"]


# --- events and how claims name them -------------------------------------------------------------

@dataclass(frozen=True)
class Selector:
    """A kind of event: an operation with some parameters, or a window admitting a feature kind.

    >>> op("fix_x", x="cost").text("en"), win("after_ability").text("en")
    ('fix X (x=cost)', 'the priority window admitting «after [ability]»')
    """

    op: str
    params: tuple[tuple[str, str], ...] = ()
    allows: str | None = None

    def matches(self, ev: "Event") -> bool:
        if ev.op != self.op:
            return False
        if self.allows is not None:
            return self.allows in ev.allows
        return all(ev.params.get(k) == v for k, v in self.params)

    @property
    def key(self) -> str:
        if self.allows is not None:
            return f"window[{self.allows}]"
        return self.op + "".join(f"[{k}={v}]" for k, v in self.params)

    def text(self, lang: str = "en") -> str:
        if self.allows is not None:
            feat = FEATURE_KINDS[self.allows]
            return (f"окно приоритета, где можно заявить «{feat.ru}»" if lang == "ru"
                    else f"the priority window admitting {feat.en}")
        kind = OPERATIONS[self.op]
        base = kind.ru if lang == "ru" else kind.en
        return base + (" (" + ", ".join(f"{k}={v}" for k, v in self.params) + ")" if self.params else "")


def op(name: str, **params: str) -> Selector:
    return Selector(name, tuple(sorted(params.items())))


def win(feature_kind: str) -> Selector:
    return Selector("window", allows=feature_kind)


@dataclass(frozen=True)
class Event:
    """One operation of the rulebook: where it stands, and what it is."""

    key: str  # "calculation/3"
    step: str
    index: int  # 0-based place in the step
    op: str
    params: dict = field(hash=False, compare=False)
    allows: tuple[str, ...] = ()


# --- claims -----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Relation:
    """``same_step`` (every A in the step of every B), ``before`` (every A before every B, a chain when
    more than two), ``right_before`` (same step, before, only fixations of X in between)."""

    kind: str
    sels: tuple[Selector, ...]


def same_step(a: Selector, b: Selector) -> Relation:
    return Relation("same_step", (a, b))


def before(*sels: Selector) -> Relation:
    return Relation("before", sels)


def right_before(a: Selector, b: Selector) -> Relation:
    return Relation("right_before", (a, b))


@dataclass(frozen=True)
class Claim:
    """A clause's temporal statement: id, clauses, ru/en statement, relations; ``constraint`` is its
    Z3 form over a rulebook's events (it also demands that every kind of event it names exists)."""

    id: str
    clauses: tuple[str, ...]
    ru: str
    en: str
    relations: tuple[Relation, ...]
    assumes: tuple[str, ...] = ()

    @property
    def needs(self) -> tuple[Selector, ...]:
        seen: dict[str, Selector] = {}
        for r in self.relations:
            for s in r.sels:
                seen.setdefault(s.key, s)
        return tuple(seen.values())

    def constraint(self, enc: _Encoding) -> z3.BoolRef:
        parts = [enc.has(s) for s in self.needs]
        for r in self.relations:
            parts += getattr(enc, r.kind)(*r.sels)
        return z3.And(*parts) if parts else z3.BoolVal(True, enc.ctx)

    def statement(self, lang: str = "en") -> str:
        return self.ru if lang == "ru" else self.en


# the events the claims speak of
DECLARE, RESOLVE = op("declare"), op("resolve_claims")
FIX_COST, FIX_TARGETS, FIX_CHOSEN = op("fix_x", x="cost"), op("fix_x", x="targets"), op("fix_x", x="magnitude_chosen")
FIX_COMPUTED, FIX_IMPLICIT = op("fix_x", x="magnitude_computed"), op("fix_x", x="implicit")
FIX_DICE_X, FIX_MAG_X = op("fix_x", x="dice_modifier"), op("fix_x", x="magnitude_modifier")
CHECK_RES, RESERVE = op("check_resources"), op("reserve_resources")
ROLL, RAW, APPLY_DICE, FINAL_DIE = op("roll_die"), op("fix_raw_die"), op("apply_dice_modifiers"), op("fix_final_die")
REMOVE_DIE, BASE = op("remove_die_effect"), op("determine_base")
LEGALITY, APPLY_MAG, FINAL_MAG = op("check_source_legality"), op("apply_magnitude_modifiers"), op("finalize_magnitude")
EFFECT, RELEASE = op("apply_effect"), op("release_roles")
PAY, MARKER, UNSTACK = op("pay_reserved"), op("give_action_marker"), op("remove_from_stack")
W_REROLL, W_DICE, W_CALC, W_BLOCK = win("reroll"), win("dice_modifier"), win("magnitude_modifier"), win("block")
W_TRIGGERS, W_AFTER, W_PAYMENT = win("effect_trigger"), win("after_ability"), win("payment_trigger")

CLAIMS: tuple[Claim, ...] = (
    Claim("C542.2-cost-x-at-declaration", ("542.2",),
          "X ресурсов задаётся и фиксируется в момент объявления особенности.",
          "Cost-X is set and fixed at the moment the feature is declared.",
          (same_step(FIX_COST, DECLARE),)),
    Claim("C540.2-reservation-needs-cost-x", ("540.2", "542.2"),
          "Ресурсы резервируются при объявлении (540.2) в количестве, которое задаёт X ресурсов (542.2), "
          "поэтому X ресурсов известен до резервирования.",
          "The resources are reserved at declaration (540.2) in the amount cost-X names (542.2), so cost-X is "
          "known before they are reserved.",
          (before(FIX_COST, RESERVE),)),
    Claim("C540.2-reservation-at-declaration", ("540.2",),
          "Карта должна обладать ресурсом для объявления, ресурсы помечаются как резервируемые — при объявлении.",
          "The card must have the resources to declare, and they are marked reserved — at declaration.",
          (same_step(CHECK_RES, DECLARE), same_step(RESERVE, DECLARE))),
    Claim("C542.3-targets-x-at-declaration", ("542.3",),
          "X целей фиксируется в момент объявления (когда особенность помещается в очередь заявок).",
          "Target-count X is fixed when the feature is declared (put into the claim queue).",
          (same_step(FIX_TARGETS, DECLARE),)),
    Claim("C542.4-chosen-x-at-declaration", ("542.4/b1",),
          "Выбираемый игроком X величины определяется в момент заявки.",
          "A magnitude X the player chooses is determined at the claim.",
          (same_step(FIX_CHOSEN, DECLARE),)),
    Claim("C542.4-computed-x-right-before-modifiers", ("542.4/b2",),
          "Вычисляемый X величины определяется непосредственно перед наложением модификаторов величины.",
          "A computed magnitude X is determined right before the magnitude modifiers are applied.",
          (right_before(FIX_COMPUTED, APPLY_MAG),)),
    Claim("C542.5-dice-modifier-x-right-before", ("542.5/b1",),
          "X модификатора броска вычисляется непосредственно перед применением модификаторов к кубику.",
          "A dice-modifier X is computed right before the modifiers are applied to the die.",
          (right_before(FIX_DICE_X, APPLY_DICE),)),
    Claim("C542.5-magnitude-modifier-x-right-before", ("542.5/b2",),
          "X модификатора величины вычисляется непосредственно перед наложением модификаторов величины.",
          "A magnitude-modifier X is computed right before the magnitude modifiers are applied.",
          (right_before(FIX_MAG_X, APPLY_MAG),)),
    Claim("C542.8-implicit-x-right-before", ("542.8",),
          "Неявная величина эффекта вычисляется так же, как X модификатора величины (542.5): непосредственно "
          "перед наложением модификаторов величины.",
          "An implicit magnitude is computed like a magnitude-modifier X (542.5): right before the magnitude "
          "modifiers are applied.",
          (right_before(FIX_IMPLICIT, APPLY_MAG),)),
    Claim("C512.6.2-raw-die-after-rerolls", ("512.6.2/b2",),
          "Кубик бросается, затем окно переброса; значение без модификаторов фиксируется после него.",
          "The die is rolled, then the reroll window; the raw value is fixed after it.",
          (before(ROLL, W_REROLL, RAW),)),
    Claim("C512.6.2-final-die-after-modifiers", ("512.6.2/b3",),
          "После фиксации значения без модификаторов — окно модификаторов броска; финальное значение "
          "фиксируется после применения модификаторов, затем эффект броска удаляется из стека.",
          "After the raw value is fixed comes the dice-modifier window; the final value is fixed after the "
          "modifiers are applied, then the die-roll effect leaves the stack.",
          (before(RAW, W_DICE, APPLY_DICE, FINAL_DIE, REMOVE_DIE),)),
    Claim("C512.6.2-base-from-final-die", ("512.6.2/b4", "512.6.2/b5"),
          "Сила и величина без модификаторов определяются по финальному броску, после чего игра переходит к "
          "шагу расчёта.",
          "Strength and magnitude without modifiers come from the final die; then the game goes on to the "
          "calculation step.",
          (before(FINAL_DIE, BASE, W_CALC),)),
    Claim("C512.6.3-legality-after-window", ("512.6.3/b3",),
          "Легальность проверяется после паса обоих игроков в окне шага расчёта.",
          "Legality is checked after both players pass in the calculation window.",
          (before(W_CALC, LEGALITY),)),
    Claim("C512.6.3-legality-before-magnitude", ("512.6.3/b3", "512.6.3/b4"),
          "X величины фиксируется и модификаторы накладываются только после проверки легальности "
          "(нелегальное игродействие сразу переходит к шагу завершения).",
          "The magnitude's X is fixed and the modifiers applied only after the legality check (an illegal "
          "action goes straight to completion).",
          (before(LEGALITY, FIX_COMPUTED), before(LEGALITY, FIX_IMPLICIT), before(LEGALITY, FIX_MAG_X),
           before(LEGALITY, APPLY_MAG))),
    Claim("C512.6.3-x-then-modifiers", ("512.6.3/b4",),
          "Сначала фиксируется X величины без модификаторов, затем накладываются модификаторы величины.",
          "First the magnitude's X is fixed without modifiers, then the magnitude modifiers are applied.",
          (before(FIX_COMPUTED, APPLY_MAG),)),
    Claim("C512.6.3-final-magnitude-before-blocking", ("512.6.3/b4", "512.6.3/b5"),
          "Окончательная величина известна после всего, что её определяет, и до шага блокирования; далее ничто "
          "не может её изменить.",
          "The final magnitude is known after everything that determines it and before the blocking step; "
          "nothing changes it afterwards.",
          (before(BASE, FINAL_MAG), before(FIX_COMPUTED, FINAL_MAG), before(FIX_IMPLICIT, FINAL_MAG),
           before(FIX_MAG_X, FINAL_MAG), before(APPLY_MAG, FINAL_MAG, W_BLOCK))),
    Claim("C512.6.4-blocking-before-effect", ("512.6.4/b4",),
          "Если действие не заблокировано, после шага блокирования игра переходит к наложению эффекта.",
          "If the action is not blocked, the game goes from the blocking step on to applying the effect.",
          (before(W_BLOCK, EFFECT),)),
    Claim("C512.6.5-triggers-after-effect", ("512.6.5/b1",),
          "Связанные с эффектом особенности разрешаются после его наложения и до шага завершения способности.",
          "The features related to the effect are resolved after it is applied and before the completion step.",
          (before(EFFECT, W_TRIGGERS, W_AFTER),)),
    Claim("C512.6.6-after-only-after-effect", ("512.6.6/b2",),
          "Особенности «после [способность]» заявляются на шаге завершения — после наложения эффекта.",
          "«After [ability]» features are declared at the completion step — after the effect is applied.",
          (before(EFFECT, W_AFTER),)),
    Claim("C512.6.6-roles-after-after", ("512.6.6/b3",),
          "Карты перестают быть источниками и целями после выполнения всех особенностей «после …».",
          "Cards stop being sources and targets after every «after …» feature is done.",
          (before(W_AFTER, RELEASE),)),
    Claim("C512.7-payment-after-completion", ("512.6.6/b4", "512.7"),
          "Оплата зарезервированных ресурсов — на этапе оплаты, после шага завершения способности.",
          "The reserved resources are paid at the payment stage, after the completion step.",
          (before(W_AFTER, PAY), before(RELEASE, PAY), before(RESERVE, PAY))),
    Claim("C540.3-action-marker-at-payment", ("540.3", "510.2"),
          "Маркер действия выдаётся на этапе оплаты, после оплаты ресурсов (и при модифицированных ресурсах).",
          "The action marker is given at the payment stage, after the resources are paid (modified ones too).",
          (same_step(MARKER, PAY), before(PAY, MARKER)), assumes=("A-action-marker",)),
    Claim("C512.7-payment-triggers-then-unstack", ("512.7/b2", "512.7/b3"),
          "После оплаты срабатывают особенности «при оплате» и т. п.; после них особенность удаляется из стека.",
          "After paying, the «on payment» features fire; after them the feature leaves the stack.",
          (before(PAY, W_PAYMENT, UNSTACK),)),
    Claim("C512.5-claims-resolved-first", ("512.5/t1",),
          "Этап выполнения начинается после разрешения всех заявок.",
          "The execution stage begins after every claim is resolved.",
          (before(DECLARE, RESOLVE, ROLL),)),
    Claim("C512.6.1-step-order", ("512.6.1",),
          "Этап выполнения: шаг броска кубика, шаг расчёта, шаг блокирования, применение эффекта, шаг завершения.",
          "The execution stage: dice step, calculation step, blocking step, effect application, completion step.",
          (before(ROLL, W_CALC, W_BLOCK, EFFECT, W_AFTER),)),
)
BY_ID: dict[str, Claim] = {c.id: c for c in CLAIMS}
