"""Properties of 512.6.2: the dice step — rerolls, the raw die, die triggers, dice modifiers, the final die, the fight."""

from __future__ import annotations

from ruleproof.model.vocabulary import SWAPPED

from ..monitor import Bad, Monitor, flag
from .core import _on_run, _true, prop

# --- 512.6.2: the dice step ------------------------------------------------------------------------------

def _return_roles_bad(M, ev, pre, new, h):
    roles = ev.param("return_roles", SWAPPED)
    return M.return_roles_matter(pre, roles, ev.param("reads", "printed")) if roles != SWAPPED else None


prop("P512.6.2-return-roles", ("512.6.2/b4.1.4", "512.6.3/b4"),
     "ответный удар рассчитывается так, будто отражающее существо атакует, а нападающее атаковано: к нему "
     "применяются модификаторы нападающего, условия которых проверяются на отражающем",
     "a return strike is calculated as if the defending creature attacked and the attacker were attacked: the "
     "attacker's modifiers apply to it, their conditions checked on the defender",
     Monitor("P512.6.2-return-roles",
             (flag("hrr_bad", "apply_magnitude_modifiers", _on_run("apply_magnitude_modifiers", _return_roles_bad)),
              flag("hrr_seen", "apply_magnitude_modifiers",
                   _on_run("apply_magnitude_modifiers", lambda M, ev, pre, new, h: M.return_modifiable(pre)))),
             (Bad(lambda M, S, h: M.on(h["hrr_bad"]),
                  "к ответному удару применены не те модификаторы, что при отражающем как атакующем и нападающем "
                  "как атакованном (512.6.2)",
                  "the return strike got other modifiers than with the defender as the attacking creature and the "
                  "attacker as the attacked one (512.6.2)"),),
             lambda M, S, h: M.on(h["hrr_seen"]),
             "a return strike is calculated against an attacker holding a static modifier for simple strikes",
             "рассчитывается ответный удар по нападающему с постоянным модификатором для простых ударов"))


def _raw_die_bad(M, ev, pre, new, h):
    if ev.plays("reroll"):
        return M.or_(M.off(h["hr_rolled"]), M.on(h["hr_raw"]))
    if ev.op == "fix_raw_die":
        last = M.get(new, "last_roll")
        return M.or_(M.off(h["hr_rrclosed"]),
                     M.and_(M.not_(M.eq(last, M.num(0, 4))), True if ev.skipped else M.not_(M.eq(M.get(new, "raw_die"), last))))
    return None


prop("P512.6.2-raw-die", ("512.6.2/b2",), "значение кубика без модификаторов фиксируется после окна переброса, и это "
     "последнее выпавшее значение", "the raw die is fixed after the reroll window, as the last value rolled",
     Monitor("P512.6.2-raw-die",
             (flag("hr_rolled", "roll_die", _true, part=True),
              flag("hr_raw", "fix_raw_die", _true, part=True),
              flag("hr_rrclosed", "window_closed", lambda M, ev, pre, new, h: True if "reroll" in ev.allows else None,
                   part=True),
              flag("hr_rerolled", "play", lambda M, ev, pre, new, h: True if ev.plays("reroll") else None, part=True),
              flag("hr_bad", ("play", "fix_raw_die"), _raw_die_bad)),
             (Bad(lambda M, S, h: M.on(h["hr_bad"]), "переброс или фиксация кубика не в том порядке, либо зафиксировано "
                  "не последнее выпавшее значение (512.6.2)", "a reroll or the raw die's fixing is out of order, or the "
                  "value fixed is not the last one rolled (512.6.2)"),),
             lambda M, S, h: M.and_(M.on(h["hr_rerolled"]), M.on(h["hr_raw"])),
             "the die is rerolled and then its raw value fixed", "кубик переброшен, затем зафиксировано его значение"))

def _die_value_bad(M, ev, pre, new, h):
    if ev.plays("die_trigger"):
        last = M.get(pre, "last_roll")
        values = ev.feature.on_die
        return M.not_(M.or_(*[M.eq(last, M.num(v, 4)) for v in values])) if values else True
    if ev.plays("reroll"):
        return M.on(h["hd_played"])
    return None


def _die_trigger(f, role) -> bool:
    return f.kind == "die_trigger"


def _die_trigger_missed(M, ev, pre, new, h):
    """Leaving the dice step: an accompanying feature whose values name the die's fixed value was neither
    offered to its player in the dice step nor played (512.6.2/b2 «срабатывают … на последнее значение»)."""
    if ev.op != "enter" or ev.kind == "dice":
        return None
    raw = M.get(pre, "raw_die")
    return M.and_(M.on(h["hd_dice"]), M.or_(*[
        M.and_(M.has(pre, f), M.or_(*[M.eq(raw, M.num(v, 4)) for v in f.feature.on_die]),
               M.not_(M.on(h[M.key("hd_offer", f)])), M.not_(M.on(h[M.key("hd_fired", f)])))
        for f in M.features(_die_trigger)]))


prop("P512.6.2-die-value", ("512.6.2/b2",), "сопутствующая особенность «если на кубике выпало …» срабатывает "
     "на последнее значение кубика (после переброса — на новое), если оно названо в её тексте, и только тогда",
     "an accompanying feature «if the die shows …» fires on the die's last value (after a reroll, the new one) when "
     "its text names it, and only then",
     Monitor("P512.6.2-die-value",
             (flag("hd_played", "play", lambda M, ev, pre, new, h: True if ev.plays("die_trigger") else None, part=True),
              flag("hd_bad", "play", _die_value_bad),
              # the obligation: offered in the dice step (or played) once the die shows a value it names
              flag("hd_dice", "enter", lambda M, ev, pre, new, h: True if ev.kind == "dice" else None, part=True),
              flag("hd_offer", ("play", "pass"), lambda M, ev, pre, new, h, f: M.offered(pre, ev, f)
                   if ev.kind == "dice" else None, part=True, each=_die_trigger),
              flag("hd_fired", "play", lambda M, ev, pre, new, h, f: True if M.played(ev, f) else None, part=True,
                   each=_die_trigger),
              flag("hd_missed", "enter", _die_trigger_missed)),
             (Bad(lambda M, S, h: M.on(h["hd_bad"]), "сопутствующая особенность сработала не на последнее значение "
                  "кубика или на значение, которого нет в её тексте (512.6.2)", "an accompanying feature fired on a "
                  "value other than the die's last, or on one its text does not name (512.6.2)"),
              Bad(lambda M, S, h: M.on(h["hd_missed"]), "на кубике выпало значение, названное в тексте сопутствующей "
                  "особенности, а она не предложена на шаге броска кубика (512.6.2/b2)", "the die shows a value an "
                  "accompanying feature's text names, and it was not offered at the dice step (512.6.2/b2)")),
             lambda M, S, h: M.on(h["hd_played"]), "a die-value feature is played",
             "разыграна особенность, зависящая от значения кубика", windows=True),
     obliges=("512.6.2/b2",))

prop("P512.6.2-dice-modifier-window", ("512.6.2/b3",), "модификаторы броска заявляются только после фиксации "
     "значения кубика, в своём окне", "dice modifiers are declared only after the raw die is fixed, in their window",
     Monitor("P512.6.2-dice-modifier-window",
             (flag("hw_raw", "fix_raw_die", _true, part=True),
              flag("hw_played", "play", lambda M, ev, pre, new, h: True if ev.plays("dice_modifier") else None),
              flag("hw_bad", "play", lambda M, ev, pre, new, h: M.off(h["hw_raw"]) if ev.plays("dice_modifier") else None)),
             (Bad(lambda M, S, h: M.on(h["hw_bad"]), "модификатор броска заявлен до фиксации значения кубика (512.6.2)",
                  "a dice modifier was declared before the raw die was fixed (512.6.2)"),),
             lambda M, S, h: M.on(h["hw_played"]), "a dice modifier is played", "разыгран модификатор броска"))


def _left_dice(M, ev, pre, new, h):
    return M.on(h["hf_fin"]) if ev.kind != "dice" else None


def _stack_kept(M, ev, pre, new, h):
    if ev.kind == "dice":
        return None
    return M.and_then(M.and_(M.on(h["hf_fin"]), M.off(h["hf_left"])), lambda: M.on(M.get(new, "die_on_stack")))


prop("P512.6.2-final-die", ("512.6.2/b3",), "итоговый бросок фиксируется после применения модификаторов и равен "
     "значению с их учётом", "the final die is fixed after the modifiers apply and equals the modified value",
     Monitor("P512.6.2-final-die",
             (flag("hf_rolled", "roll_die", _true, part=True),
              flag("hf_fin", "fix_final_die", _true, part=True),
              flag("hf_base", "determine_base", _true, part=True),
              flag("hf_bbf", "determine_base", lambda M, ev, pre, new, h: M.and_(M.off(h["hf_base"]), M.off(h["hf_fin"])),
                   part=True),
              flag("hf_left", "enter", _left_dice, part=True),
              flag("hf_stack", "enter", _stack_kept, part=True),
              flag("hf_app", "apply_dice_modifiers", lambda M, ev, pre, new, h: True if not ev.skipped else None,
                   part=True),
              flag("hf_nomods", "fix_final_die", lambda M, ev, pre, new, h: M.and_(
                  M.off(h["hf_fin"]), M.on(M.get(new, "dice_mods_declared")), M.off(h["hf_app"])), part=True),
              flag("hf_late", "play", lambda M, ev, pre, new, h: M.on(h["hf_fin"])
                   if ev.plays("dice_modifier") or ev.plays("reroll") else None, part=True),
              # «Итоговый бросок фиксируется, эффект броска кубика покидает стек»: in that order
              flag("hf_early", "remove_die_effect", lambda M, ev, pre, new, h: M.and_(M.on(h["hf_rolled"]), M.off(h["hf_fin"]))
                   if ev.ran("remove_die_effect") else None, part=True)),
             (Bad(lambda M, S, h: M.and_(M.on(h["hf_rolled"]), M.on(h["hf_bbf"])),
                  "сила/величина определены до фиксации итогового броска (512.6.2)",
                  "strength/magnitude were determined before the final die was fixed (512.6.2)"),
              Bad(lambda M, S, h: M.and_(M.on(h["hf_rolled"]), M.on(h["hf_stack"])),
                  "эффект броска кубика не удалён из стека после фиксации (512.6.2)",
                  "the die-roll effect was not removed from the stack after the final value (512.6.2)"),
              Bad(lambda M, S, h: M.on(h["hf_nomods"]), "итоговый бросок зафиксирован без учёта заявленных модификаторов "
                  "(512.6.2)", "the final die was fixed without the declared modifiers (512.6.2)"),
              Bad(lambda M, S, h: M.on(h["hf_late"]), "бросок изменён после фиксации итогового значения (512.6.2)",
                  "the roll changed after the final value was fixed (512.6.2)"),
              Bad(lambda M, S, h: M.on(h["hf_early"]), "эффект броска кубика покинул стек до фиксации итогового броска "
                  "(512.6.2)", "the die-roll effect left the stack before the final die was fixed (512.6.2)")),
             lambda M, S, h: M.and_then(M.and_(M.on(h["hf_fin"]), M.on(h["hf_rolled"])),
                                        lambda: M.on(M.get(S, "dice_mods_declared"))),
             "a modified die roll reaches its final value", "модифицированный бросок получает итоговое значение"))

prop("P512.6.2-attacks-roll", ("512.6.2",), "при атаке кубик бросается всегда", "an attack always rolls the die",
     Monitor("P512.6.2-attacks-roll",
             (flag("ha_based", ("determine_base", "apply_effect"), _true, part=True),
              flag("ha_rolled", "roll_die", _true, part=True),
              flag("ha_latch", "declare", lambda M, ev, pre, new, h: M.and_(M.on(h["ha_based"]), M.off(h["ha_rolled"]))
                   if ev.ran("declare") else None)),
             (Bad(lambda M, S, h: M.and_then(M.done(S), lambda: M.and_(M.is_attack(S), M.or_(M.on(h["ha_latch"]), M.and_(
                 M.on(h["ha_based"]), M.off(h["ha_rolled"]))))), "атака выполнена без броска кубика (512.6.2)",
                  "an attack was executed without a die roll (512.6.2)"),),
             lambda M, S, h: M.and_then(M.and_(M.on(h["ha_rolled"]), M.done(S)), lambda: M.is_attack(S)),
             "an attack completes", "атака завершается"),
     obliges=("512.6.2",))


def _no_fight(M, S):
    return M.and_(M.is_attack(S), M.not_(M.holds(S, "strike_fight")))


prop("P512.6.2-fight", ("512.6.2/b4", "512.6.2/b4.1", "512.6.2/b4.1.1", "512.6.2/b4.2", "512.6.2/b4.2.1"), "ответный удар бывает только в бою "
     "существ простым ударом, а бой получает результат по таблице ударов: атака, отличная от простого удара, и простой "
     "удар по закрытой карте определяют лишь силу и величину",
     "a return strike comes only in a creature fight by simple strike, and a fight gets its result from the strike "
     "table: an attack other than a simple strike, or a simple strike at a closed card, finds only its strength and "
     "magnitude",
     Monitor("P512.6.2-fight",
             (flag("hg_bad", "determine_base", _on_run("determine_base", lambda M, ev, pre, new, h: M.and_(
                 M.on(M.get(new, "return_strike")), M.not_(M.holds(pre, "strike_fight"))))),
              flag("hg_seen", "determine_base", _on_run("determine_base", lambda M, ev, pre, new, h: _no_fight(M, pre))),
              # 512.6.2/b4.1.1 «определяется результат сражения по Таблице ударов»: it must be found (an obligation)
              flag("hg_norow", "determine_base", _on_run("determine_base", lambda M, ev, pre, new, h: M.on(
                  M.get(new, "die_off_table")))),
              # … and it must be determined before the calculation step: a fight's by the table (b4.1.1), another
              # attack's strength and magnitude (b4.2.1) — judged as the calculation step is entered
              flag("hg_based", "determine_base", _on_run("determine_base", _true), part=True),
              flag("hg_table", "determine_base", _on_run("determine_base", lambda M, ev, pre, new, h:
                                                          True if ev.param("table", True) else None), part=True),
              flag("hg_unbased", "enter", lambda M, ev, pre, new, h: M.and_(M.is_attack(pre), M.ite(
                  M.holds(pre, "strike_fight"), M.off(h["hg_table"]), M.off(h["hg_based"])))
                  if ev.kind == "calculation" else None)),
             (Bad(lambda M, S, h: M.on(h["hg_bad"]), "ответный удар вне боя существ простым ударом (512.6.2)",
                  "a return strike outside a creature fight by simple strike (512.6.2)"),
              Bad(lambda M, S, h: M.on(h["hg_norow"]), "у итогового броска нет строки в таблице ударов: бой остался без "
                  "результата (512.6.2/b4.1.1; допущение A-die-clamp)", "the final die has no row in the strike table: the "
                  "fight got no result (512.6.2/b4.1.1; assumption A-die-clamp)"),
              Bad(lambda M, S, h: M.on(h["hg_unbased"]), "атака дошла до шага расчёта, не получив результата боя по "
                  "таблице ударов (бой простым ударом) или силы и величины (другая атака) (512.6.2/b4.1.1, b4.2.1)",
                  "an attack reached the calculation step without a fight's result from the strike table (a fight by "
                  "simple strike) or its strength and magnitude (another attack) (512.6.2/b4.1.1, b4.2.1)")),
             lambda M, S, h: M.and_(M.on(h["hg_seen"]), M.done(S)),
             "an attack that is no fight by simple strike completes",
             "атака, не являющаяся боем простым ударом, завершается"),
     obliges=("512.6.2/b4.1.1", "512.6.2/b4.2.1"))


