"""The fixed vocabulary a rulebook is written in: step kinds, operations, feature kinds, guards.

A rulebook chooses which steps exist, how they connect, which operations run in each step and in
what order, and which feature kinds each priority window admits.  It cannot invent new words: the
words are defined here, each with the clauses that give it meaning and — for operations and feature
kinds — the step kinds in which their clause places them (the structural check
``placement`` holds a rulebook to that).

>>> OPERATIONS["fix_x"].placement({"x": "cost"})
(('declaration',), ('542.2',))
>>> parse_guard("not visited(blocking)")
Guard(negated=True, name='visited', arg='blocking')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["StepKind", "Param", "OpKind", "FeatureKind", "GuardKind", "Guard", "TableKind", "TABLES", "STEP_KINDS",
           "OPERATIONS", "FEATURE_KINDS", "GUARDS", "X_KINDS", "parse_guard", "split_guard", "guard_form", "GUARD_NUMBERS", "EXECUTION_ORDER", "ATTACKS"]


@dataclass(frozen=True)
class StepKind:
    """A kind of step; ``rank`` is its place in the order claim → 512.6.1's steps → payment."""

    name: str
    stage: str
    rank: int
    cites: tuple[str, ...]
    ru: str
    en: str
    terminal: bool = False


STEP_KINDS: dict[str, StepKind] = {k.name: k for k in (
    StepKind("declaration", "claim", 0, ("542.2", "542.3"), "объявление (формирование заявки)",
             "declaration (claim forming)"),
    StepKind("claim_resolution", "claim", 1, ("512.5/t1",), "разрешение заявок", "claim resolution"),
    StepKind("dice", "execution", 2, ("512.6.1/b1", "512.6.2"), "шаг броска кубика", "dice step"),
    StepKind("calculation", "execution", 3, ("512.6.1/b2", "512.6.3"), "шаг расчёта", "calculation step"),
    StepKind("blocking", "execution", 4, ("512.6.1/b3", "512.6.4"), "шаг блокирования", "blocking step"),
    StepKind("effect", "execution", 5, ("512.6.1/b4", "512.6.5"), "применение эффекта", "effect application"),
    StepKind("completion", "execution", 6, ("512.6.1/b5", "512.6.6"), "шаг завершения способности",
             "completion step"),
    StepKind("payment", "payment", 7, ("512.7",), "этап оплаты", "payment stage"),
    StepKind("handover", "stack", 8, ("512.7/b3",), "переход к следующей особенности в стеке",
             "hand over to the next feature on the stack", terminal=True),
)}

#: the game actions that are attacks (512.6.2: the die is always rolled; the strike table, 540.4.1)
ATTACKS = ("simple_strike", "attack")

#: 512.6.1 lists the execution stage's steps in this order.
EXECUTION_ORDER = ("dice", "calculation", "blocking", "effect", "completion")

#: the kinds of X of 542.1 (with 542.4's chosen/computed split and 542.8's implicit X)
X_KINDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # x kind: (step kinds where it is fixed, clauses that say so)
    "cost": (("declaration",), ("542.2",)),
    "targets": (("declaration",), ("542.3",)),
    "magnitude_chosen": (("declaration",), ("542.4/b1",)),
    "magnitude_computed": (("calculation",), ("542.4/b2", "512.6.3/b4")),
    "implicit": (("calculation",), ("542.8",)),
    "dice_modifier": (("dice",), ("542.5/b1",)),
    "magnitude_modifier": (("calculation",), ("542.5/b2",)),
}


@dataclass(frozen=True)
class Param:
    """An operation parameter: ``kind`` is 'choice', 'bool', 'str' or 'features'."""

    kind: str
    choices: tuple[str, ...] = ()
    required: bool = False
    default: object = None


@dataclass(frozen=True)
class OpKind:
    """An operation a step can perform.  ``steps`` None means: any step kind."""

    name: str
    cites: tuple[str, ...]
    ru: str
    en: str
    steps: tuple[str, ...] | None = None
    params: dict[str, Param] = field(default_factory=dict)

    def placement(self, params: dict) -> tuple[tuple[str, ...] | None, tuple[str, ...]]:
        """Step kinds allowed for this operation with these parameters, and the clauses saying so."""
        if self.name == "fix_x" and params.get("x") in X_KINDS:
            return X_KINDS[params["x"]]
        if self.name == "remove_from_stack" and params.get("void"):
            return ("declaration",), ("540.2", "542.2")  # only a declaration can fail to stand
        return self.steps, self.cites


_YES = Param("bool", default=True)
#: which value of a card property X and feature conditions read: 542.6 says the printed one
_READS = Param("choice", ("printed", "current"), default="printed")
#: how a return strike's calculation casts the cards (512.6.2/b4.1.4 «отражающее существо считается
#: атакующим, а нападающее – атакованным»: swapped); a draft may keep the attack's roles or leave the
#: return strike unmodified
RETURN_ROLES = ("swapped", "kept", "unmodified")
#: the rules' roles (512.6.2/b4.1.4), what a rulebook that does not say gets
SWAPPED = RETURN_ROLES[0]
OPERATIONS: dict[str, OpKind] = {o.name: o for o in (
    OpKind("declare", ("542.3",), "особенность объявлена и помещена в очередь заявок",
           "the feature is declared and put into the claim queue", ("declaration",)),
    # closed_keeps_close: a closed card still has its «закрытие» and may declare an action that costs it
    # (against A-closed-no-close)
    OpKind("check_resources", ("540.2", "542.2"), "проверить, что карта обладает нужными ресурсами",
           "check that the card has the resources it needs", ("declaration",),
           {"closed_keeps_close": Param("bool", default=False)}),
    OpKind("fix_x", ("542.1",), "зафиксировать X", "fix X",
           params={"x": Param("choice", tuple(X_KINDS), required=True), "reads": _READS}),
    OpKind("reserve_resources", ("540.2",), "зарезервировать ресурсы", "reserve the resources",
           ("declaration",), {"include_modified": _YES}),
    OpKind("resolve_claims", ("512.5/t1",), "разрешить заявки", "resolve the claims", ("claim_resolution",)),
    OpKind("window", ("512.6.2/b2", "512.6.3/b1", "512.6.4/b1", "512.6.6/b1"), "окно приоритета", "priority window",
           params={"id": Param("str", required=True),
                   "first": Param("choice", ("active_player", "non_active_player"), required=True),
                   "allows": Param("features", required=True),
                   # 512.6.6/b2 «в зависимости от статуса выполнения способности»: «после …» reads every status
                   # that came about (A-status-kept: a missed attack then blocked is both), or ``last`` only
                   "after_status": Param("choice", ("came_about", "last"), default="came_about")}),
    OpKind("roll_die", ("512.6.2/b1",), "бросить кубик", "roll the die", ("dice",)),
    OpKind("fix_raw_die", ("512.6.2/b2",), "зафиксировать значение кубика без модификаторов",
           "fix the raw die value", ("dice",)),
    # unclamped: the modified die may leave the die's faces (6 + 1 = 7), a value the strike table has no row
    # for — against A-die-clamp (the final die reads within the faces)
    OpKind("apply_dice_modifiers", ("512.6.2/b3",), "применить модификаторы броска",
           "apply the dice modifiers", ("dice",), {"unclamped": Param("bool", default=False)}),
    OpKind("fix_final_die", ("512.6.2/b3",), "зафиксировать итоговый бросок", "fix the final die value",
           ("dice",)),
    OpKind("remove_die_effect", ("512.6.2/b3",), "убрать эффект броска из стека",
           "remove the die-roll effect from the stack", ("dice",)),
    # table: read the strike table (512.6.2/b4.1: a creature fight by simple strike: strengths, magnitudes
    # and the return strike); false: 512.6.2/b4.2 and b4.3 (strength and magnitude only, no return strike)
    OpKind("determine_base", ("512.6.2/b4",), "определить силу и величину без модификаторов",
           "determine strength and magnitude without modifiers", ("dice",),
           # return_by: who deals the return strike the table gives — the defender only (A-return-by-defender)
           # or, where there is none, the creature attacked too
           {"table": _YES, "return_by": Param("choice", ("defender", "attacked"), default="defender")}),
    OpKind("check_source_legality", ("512.6.3/b3",), "проверить легальность (источник в активной зоне)",
           "check legality (source in the active zone)", ("calculation",)),
    OpKind("apply_magnitude_modifiers", ("512.6.3/b4",), "наложить модификаторы величины",
           "apply the magnitude modifiers", ("calculation",),
           # reduces_miss: a miss too is reduced to the strength (a reading of A-miss-not-reduced)
           {"reads": _READS, "return_roles": Param("choice", RETURN_ROLES, default=SWAPPED),
            "reduces_miss": Param("bool", default=False)}),
    OpKind("finalize_magnitude", ("512.6.3/b4",), "окончательная величина известна",
           "the final magnitude is known", ("calculation",)),
    OpKind("apply_effect", ("512.6.5",), "наложить эффект", "apply the effect", ("effect",)),
    OpKind("release_roles", ("512.6.6/b3",), "карты перестают быть источниками, целями, атакующими…",
           "cards stop being sources, targets, attackers…", ("completion",)),
    # recheck_conditions: a modification made on a condition (540.4/ex1, Келе: «если после этого у Келе нет
    # ран») spares the resource only if the condition still holds at payment — the example says it does not
    # (the modification was made before payment), so the default is false; per_turn_count: a card's
    # «X раз за ход» (540.1.3) spares only the first X uses of the turn — false: every use, X never read;
    # per_turn_uses: what those uses are — kind: the card's game actions of the kinds its text names
    # («Может атаковать …»: its attacks, whichever feature declared them); feature: the uses of the feature
    # declared now only (a card with two attack features gets X of each);
    # markers_at_declaration: 540.3.1's limit is compared with the markers the card had when the action
    # began — against «на ней находится» and «в случае потери маркеров … снова сможет» (A-lost-markers);
    # beyond_available: the whole reserved amount is taken even where the card has less now (a crystal lost
    # during the action), its resource going below zero — against 512.7 «всеми доступными ресурсами»
    OpKind("pay_reserved", ("512.7", "540.2"), "оплатить зарезервированные ресурсы",
           "pay the reserved resources", ("payment",), {"exempt_modified": _YES,
                                                        "recheck_conditions": Param("bool", default=False),
                                                        "per_turn_count": _YES,
                                                        "per_turn_uses": Param("choice", ("kind", "feature"),
                                                                               default="kind"),
                                                        "markers_at_declaration": Param("bool", default=False),
                                                        "beyond_available": Param("bool", default=False)}),
    # unless_text: 540.3 «если иного не указано в тексте особенности» — no marker when the text of a
    # feature that modified the acting card's resources says so; false: the marker whatever the text says
    # defender: a defender whose resources a feature modified in the action (540.4.1) gets a marker too
    OpKind("give_action_marker", ("540.3",), "выдать маркер действия", "give the action marker", None,
           {"unless_text": _YES, "defender": Param("bool", default=False)}),
    # in declaration only when 540.2/542.2's resource check fails (the rulebook marks that an assumption);
    # void: the declaration did not stand (A-refused-declaration), so it is no use of the feature for a
    # «X раз за ход» count (540.1.3) — false: a refused declaration still uses up one of the X
    OpKind("remove_from_stack", ("512.7/b3", "540.2", "542.2"), "удалить особенность из стека",
           "remove the feature from the stack", ("declaration", "payment"), {"void": Param("bool", default=False)}),
)}


@dataclass(frozen=True)
class FeatureKind:
    """A kind of feature a priority window may admit, the step kinds its clause allows, and the
    kind-specific keys of a feature (:data:`FEATURE_KEYS`) its meaning reads."""

    name: str
    steps: tuple[str, ...]
    cites: tuple[str, ...]
    ru: str
    en: str
    keys: tuple[str, ...] = ()


#: the keys of a feature that mean something only for some kinds (``amount``, ``x``, ``condition`` and
#: ``text`` are read by several); a scenario that sets one on another kind is refused (RP164)
FEATURE_KEYS = ("trigger", "on_status", "on", "strength", "mode", "form", "limit", "times", "modifies", "applies_to",
                "then_if_healthy", "effects", "resources", "action_marker", "on_die")
_EFFECTS = ("effects", "then_if_healthy")


_EXECUTING = ("dice", "calculation", "blocking", "effect", "completion")
FEATURE_KINDS: dict[str, FeatureKind] = {f.name: f for f in (
    FeatureKind("reroll", ("dice",), ("512.6.2/b2",), "перебросить кубик", "reroll"),
    # 512.6.2/b2 «сопутствующие особенности срабатывают только на последнее значение кубика»
    FeatureKind("die_trigger", ("dice",), ("512.6.2/b2",), "сопутствующая особенность «если на кубике выпало …»",
                "accompanying feature «if the die shows …»", ("on_die", *_EFFECTS)),
    FeatureKind("dice_modifier", ("dice",), ("512.6.2/b3",), "модификатор броска (+X, −X, свести к X)",
                "dice modifier (+X, −X, set to X)", ("mode",)),
    FeatureKind("magnitude_modifier", ("calculation",), ("512.6.3/b2",), "модификатор величины",
                "magnitude modifier"),
    FeatureKind("reduce_to_strength", ("calculation",), ("512.6.3/b2",), "свести к силе", "reduce to strength", ("strength",)),
    FeatureKind("sudden_action", ("calculation",), ("512.6.3/b2",), "внезапное игродействие без условия",
                "sudden game action without a condition", _EFFECTS),
    FeatureKind("protection", ("calculation",), ("512.6.3/b2",), "защита", "protection", _EFFECTS),
    FeatureKind("prevention", ("calculation",), ("512.6.3/b2",), "предотвращение", "prevention", _EFFECTS),
    FeatureKind("replacement", ("calculation",), ("512.6.3/b2",), "замещение", "replacement", _EFFECTS),
    # a block feature's text may carry more than the block («блокировать атаку; …»): its effects, applied as it
    # is played — the one way the excerpts leave to act between the legality check and the effect (512.6.3/b3, 526)
    FeatureKind("block", ("blocking",), ("512.6.4/b2",), "блокировать", "block", _EFFECTS),
    FeatureKind("effect_trigger", ("effect",), ("512.6.5/b1",), "особенность, связанная с наложением эффекта",
                "feature triggered by the effect", ("trigger", *_EFFECTS)),
    FeatureKind("after_ability", ("completion",), ("512.6.6/b2",), "«после [способность]»", "«after [ability]»",
                ("on_status", *_EFFECTS)),
    FeatureKind("payment_trigger", ("payment",), ("512.7/b2",),
                "«при оплате», «когда действует», «закрывается после»",
                "«on payment», «when it acts», «closes after»",
                ("on", "resources", *_EFFECTS)),
    FeatureKind("resource_modification", _EXECUTING, ("540.4",),
                "модификация ресурсов выполняющегося игродействия",
                "resource modification of the executing game action",
                ("trigger", "resources", "modifies", "form", "limit", "action_marker")),
)}


@dataclass(frozen=True)
class GuardKind:
    name: str
    cites: tuple[str, ...]
    ru: str
    en: str
    takes_step: bool = False
    #: the guard compares a number with the one written in its parentheses (``name(N)``, 0 ≤ N ≤ 15)
    takes_number: bool = False
    #: the feature kinds that can make it hold (the worlds drawn for a rulebook that reads the guard
    #: favour them, so both of its branches are played: :mod:`ruleproof.generators.uses`)
    features: tuple[str, ...] = ()


GUARDS: dict[str, GuardKind] = {g.name: g for g in (
    GuardKind("always", (), "всегда", "always"),
    GuardKind("dice_step_skippable", ("512.6.2",),
              "заклинание/воздействие без числовой величины", "spell/effect needing no numeric magnitude"),
    GuardKind("is_attack", ("512.6.2",), "игродействие — атака", "the game action is an attack"),
    # 512.6.2 «если способность не требует определения числовой величины эффекта»: the word a draft reads
    # when it turns a step on the magnitude alone (whatever the action's kind)
    GuardKind("needs_magnitude", ("512.6.2",), "способность требует определения числовой величины эффекта",
              "the ability needs a numeric magnitude of its effect determined"),
    GuardKind("action_illegal", ("512.6.3/b3",), "игродействие нелегально", "the game action is illegal",
              features=("sudden_action",)),
    GuardKind("action_blocked", ("512.6.4/b3",), "действие заблокировано", "the action is blocked",
              features=("block",)),
    # «если это возможно» (A-next-part): a next part remains and the card has the resources to declare it
    GuardKind("compound_has_next", ("512.6.6/b4", "540.2"), "следующую часть составной особенности можно объявить",
              "a compound feature's next part can be declared"),
    GuardKind("resource_modified", ("540.2",), "ресурсы игродействия модифицированы",
              "the game action's resources are modified", features=("resource_modifier", "resource_modification")),
    GuardKind("resources_short", ("540.2", "542.2"), "карта не обладает ресурсами для объявления",
              "the card lacks the resources to declare the action"),
    GuardKind("strike_fight", ("512.6.2/b4.1", "512.6.2/b4.2"), "бой существ простым ударом (простой удар по открытой "
              "карте)", "a creature fight by simple strike (a simple strike at an open card)"),
    # 542.3: the number of targets «не проверяется» once declared — a draft may still read it (and be caught)
    GuardKind("target_gone", ("542.3",), "цель игродействия покинула активную зону",
              "a target of the action has left the active zone", features=("sudden_action",)),
    # 542.2: the cost-X is a number the player names: a draft may turn its steps on it (X ≥ N)
    GuardKind("cost_x_at_least", ("542.2",), "X ресурсов (542.2) зафиксирован и не меньше",
              "the cost-X (542.2) is fixed and at least", takes_number=True),
    # 512.6.2/b2 «после разрешения всех таких особенностей», 512.6.4/b3 «после разыгрывания этих особенностей»:
    # several features may be played in one window — a draft may turn its steps on how many (≥ N)
    GuardKind("plays_at_least", ("512.6.2/b2", "512.6.4/b3"), "в последнем открытом окне приоритета разыграно "
              "особенностей не меньше", "features played in the last priority window opened: at least",
              takes_number=True, features=("reroll",)),
    GuardKind("missed", ("512.6.6/b2",), "атака — промах (результат по Таблице ударов)",
              "the attack is a miss (its result by the strike table)"),
    GuardKind("visited", (), "игродействие прошло шаг", "the game action passed the step", takes_step=True),
)}

_GUARD_RE = re.compile(r"^\s*(not\s+)?([a-z_]+)\s*(?:\(\s*([^()]*?)\s*\))?\s*$")
_STEP_ARG = re.compile(r"[A-Za-z0-9_\-]*")


@dataclass(frozen=True)
class Guard:
    negated: bool
    name: str
    arg: str | None = None

    def __str__(self) -> str:
        body = f"{self.name}({self.arg})" if self.arg is not None else self.name
        return f"not {body}" if self.negated else body


#: the numbers a guard like ``cost_x_at_least(N)`` or ``plays_at_least(N)`` may compare with
GUARD_NUMBERS = range(0, 16)


def guard_form(kind: GuardKind) -> str:
    """How a guard word is written: ``visited(STEP)``, ``cost_x_at_least(N)`` or the bare word.

    >>> guard_form(GUARDS["cost_x_at_least"]), guard_form(GUARDS["missed"])
    ('cost_x_at_least(N)', 'missed')
    """
    return kind.name + ("(STEP)" if kind.takes_step else "(N)" if kind.takes_number else "")


def split_guard(text: str) -> Guard | None:
    """``[not ]word[(argument)]`` taken apart, whatever the word and its argument (None: not of that form).

    >>> split_guard("not cost_x_at_least(x)")
    Guard(negated=True, name='cost_x_at_least', arg='x')
    """
    m = _GUARD_RE.match(str(text))
    return Guard(bool(m.group(1)), m.group(2), m.group(3)) if m else None


def parse_guard(text: str) -> Guard | None:
    """Parse ``[not ]name[(step)]`` or ``[not ]name(N)``; None when the text is not of that form, the
    name is unknown or N is not a whole number from 0 to 15.

    >>> str(parse_guard("not cost_x_at_least( 2 )")), parse_guard("cost_x_at_least(x)")
    ('not cost_x_at_least(2)', None)
    """
    g = split_guard(text)
    if g is None or g.name not in GUARDS:
        return None
    kind, arg = GUARDS[g.name], g.arg
    if (kind.takes_step or kind.takes_number) != (arg is not None):
        return None
    if arg is None:
        return Guard(g.negated, g.name)
    if kind.takes_step and not _STEP_ARG.fullmatch(arg):
        return None
    if kind.takes_number and not (arg.isdigit() and int(arg) in GUARD_NUMBERS):
        return None
    return Guard(g.negated, g.name, str(int(arg)) if kind.takes_number else arg)


@dataclass(frozen=True)
class TableKind:
    """Data a rulebook supplies to the operations (what the excerpts refer to but do not contain)."""

    name: str
    cites: tuple[str, ...]
    ru: str
    en: str
    keys: tuple[str, ...]  # the row keys it must have
    values: tuple[str, ...] = ()  # allowed values in the rows (empty: integers)
    width: int | None = None  # values per row (None: one value, or a list of any length)
    bounds: tuple[int, int] | None = None  # integers: the range the engines hold (inclusive)
    #: allowed values by position in a row (``width`` of them; None: ``values`` at every position)
    columns: tuple[tuple[str, ...], ...] | None = None


STRENGTHS = ("weak", "medium", "strong")
TABLES: dict[str, TableKind] = {t.name: t for t in (
    # a die value is 1..15 in the Z3 model's vector (0 there stands for "no die yet")
    TableKind("die_faces", ("512.6.2/b1",), "грани кубика", "die faces", ("min", "max"), bounds=(1, 15)),
    TableKind("strike_table", ("512.6.2/b4.1.1",), "Таблица ударов: бросок → сила удара и ответного удара",
              "strike table: die → strength of the strike and of the return strike",
              ("1", "2", "3", "4", "5", "6"), STRENGTHS + ("miss", "none"), width=2,
              # the strike's result may be a miss (512.6.6/b2 «промах в случае атаки»); the return strike's may be none
              columns=(STRENGTHS + ("miss",), STRENGTHS + ("none",))),
    TableKind("trigger_words", ("540.4.1",), "какие удары запускают «при ударе/атаке» и «при нападении»",
              "which strikes fire «on strike/attack» and «on assault»", ("strike", "assault"),
              ("attack", "return_strike")),
    TableKind("assault_strikes", ("540.1.2",), "какие удары карты считаются её «нападением» в «Закрывается после [текст] нападения»",
              "which of a card's strikes count as its «assault» in «Closes after [text] assault»", ("closes_after",),
              ("attack", "return_strike")),
)}
