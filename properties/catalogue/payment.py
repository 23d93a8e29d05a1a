"""Properties of 512.7 and 540: payment — reserved resources, exemptions, markers, modifications, return strikes."""

from __future__ import annotations

from ..monitor import Bad, Monitor, flag, value
from .core import _on_run, _true, prop

# --- 512.7 and 540: payment ------------------------------------------------------------------------------------


prop("P512.7-payment", ("512.7", "512.7/b1", "540.2", "540.1.1", "540.1.2", "540.1.3", "540.3.1", "540.4", "540.4.1/ex1"),
     "оплата идёт после завершения способности и оплачивает ровно зарезервированное, кроме модифицированного",
     "payment follows completion and pays exactly the reserved resources minus the modified ones",
     Monitor("P512.7-payment",
             (flag("hp_compl", "enter", lambda M, ev, pre, new, h: True if ev.kind == "completion" else None),
              flag("hp_pay", "pay_reserved", _on_run("pay_reserved", _true)),
              flag("hp_rdie", "remove_die_effect", lambda M, ev, pre, new, h: True if not ev.skipped else None),
              flag("hp_removed", "remove_from_stack", lambda M, ev, pre, new, h: True if not ev.skipped else None),
              flag("hp_exempt", "pay_reserved", _on_run("pay_reserved", lambda M, ev, pre, new, h: M.exempt_any(pre))),
              flag("hp_where", "pay_reserved", _on_run("pay_reserved", lambda M, ev, pre, new, h: M.or_(M.off(h["hp_compl"]),
                                                                                          ev.kind != "payment"))),
              # 540.3.1 «на ней находится менее …»: the markers on the card at payment, less this action's own
              # marker if a draft gives it before payment; a marker lost on the way counts as lost (510.4)
              flag("hp_given", "give_action_marker", _on_run("give_action_marker",
                                                             lambda M, ev, pre, new, h: M.marker_given(pre, new))),
              flag("hp_amount", "pay_reserved", _on_run("pay_reserved", lambda M, ev, pre, new, h: M.pays_other_than_due(
                  pre, new, M.on(h["hp_given"])))),
              flag("hp_late", ("play", "pass"), lambda M, ev, pre, new, h: M.on(h["hp_removed"])
                   if ev.kind == "payment" else None),
              # 512.7 «всеми доступными ресурсами из числа зарезервированных»: what the card has, no more
              flag("hp_over", "pay_reserved", _on_run("pay_reserved", lambda M, ev, pre, new, h: M.overdrawn(new)))),
             (Bad(lambda M, S, h: M.on(h["hp_where"]), "оплата прошла не после шага завершения способности (512.7)",
                  "payment did not follow the completion step (512.6.6, 512.7)"),
              Bad(lambda M, S, h: M.on(h["hp_amount"]), "оплачено не ровно зарезервированное за вычетом "
                  "модифицированного (512.7, 540.2)", "the payment is not the reserved resources minus the modified "
                  "ones (512.7, 540.2)"),
              Bad(lambda M, S, h: M.on(h["hp_over"]), "оплачено больше, чем было у карты: ресурс ниже нуля (512.7 "
                  "«всеми доступными ресурсами»)", "the payment took more than the card had: a resource below zero "
                  "(512.7 «with all available resources»)"),
              Bad(lambda M, S, h: M.on(h["hp_late"]), "особенность удалена из стека до срабатываний при оплате (512.7)",
                  "the feature left the stack before the payment triggers were done (512.7)"),
              Bad(lambda M, S, h: M.and_then(M.done(S), lambda: M.and_(M.not_(M.off(M.get(S, "part"))),
                                                                        M.on(M.get(S, "on_stack")))),
                  "особенность осталась в стеке после оплаты (512.7)", "the feature stayed on the stack after payment "
                  "(512.7)"),
              Bad(lambda M, S, h: M.and_then(M.and_(M.done(S), M.on(h["hp_rdie"]), M.off(h["hp_pay"])),
                                             lambda: M.reserved_any(S)),
                  "зарезервированные ресурсы так и не оплачены (512.7)", "the reserved resources were never paid (512.7)")),
             lambda M, S, h: M.and_(M.on(h["hp_pay"]), M.on(h["hp_exempt"]), M.done(S)),
             "a resource-modified action pays and completes",
             "игродействие с модифицированными ресурсами оплачено и завершено"))


prop("P540.1.2-assault-closes", ("540.1.2", "512.7"), "карта с «Закрывается после [текст] нападения» оплачивает "
     "закрытие за собственную атаку — нападение при любом прочтении слова", "a card with «Closes after [text] assault» pays "
     "its closing for its own attack — an assault whatever «assault» is read to mean",
     Monitor("P540.1.2-assault-closes",
             (flag("ha_due", "pay_reserved", _on_run("pay_reserved", lambda M, ev, pre, new, h: M.assault_due(pre))),
              flag("ha_bad", "pay_reserved", _on_run("pay_reserved", lambda M, ev, pre, new, h: M.and_(
                  M.assault_due(pre), M.not_(M.source_closing_paid(new)))))),
             (Bad(lambda M, S, h: M.on(h["ha_bad"]), "карта с «Закрывается после нападения» не закрылась после "
                  "собственной атаки (540.1.2)", "a card with «Closes after an assault» did not close after its own "
                  "attack (540.1.2)"),),
             lambda M, S, h: M.on(h["ha_due"]),
             "a card with «Closes after an assault» pays for its own attack",
             "карта с «Закрывается после нападения» оплачивает собственную атаку"),
     obliges=("540.1.2",))


#: the steps an action goes through once its declaration stands (512.5/t1, 512.6.1, 512.7)
_PAST_DECLARATION = ("claim_resolution", "dice", "calculation", "blocking", "effect", "completion", "payment")


prop("P540.2-reserved", ("540.2",), "модифицированные ресурсы по-прежнему требуются и резервируются при объявлении",
     "modified resources are still required and still reserved at declaration",
     Monitor("P540.2-reserved",
             (flag("hv_check", "check_resources", lambda M, ev, pre, new, h: True if not ev.skipped else None),
              flag("hv_mod", "reserve_resources", _on_run("reserve_resources", lambda M, ev, pre, new, h: M.exempt_any(pre))),
              flag("hv_bad", "reserve_resources", _on_run("reserve_resources", lambda M, ev, pre, new, h: M.or_(
                  M.reserved_other_than_cost(new), ev.kind != "declaration", M.off(h["hv_check"])))),
              # «ресурсы помечаются как резервируемые»: an action whose declaration stood goes on with its cost reserved
              flag("hv_unres", "enter", lambda M, ev, pre, new, h: M.and_(
                  M.field_is(new, "resources_ok", True), M.off(M.get(new, "reserved_done")))
                   if ev.kind in _PAST_DECLARATION else None)),
             (Bad(lambda M, S, h: M.on(h["hv_bad"]), "зарезервировано не всё, что требует цена, не при объявлении или "
                  "без проверки наличия ресурсов (540.2)", "the reservation is not the whole cost, not at declaration, "
                  "or without checking the card has the resources (540.2)"),
              Bad(lambda M, S, h: M.on(h["hv_unres"]), "объявление состоялось, а ресурсы не зарезервированы (540.2)",
                  "the declaration stood but no resources were reserved (540.2)")),
             lambda M, S, h: M.on(h["hv_mod"]),
             "a resource-modified action reserves its resources",
             "игродействие с модифицированными ресурсами резервирует ресурсы"),
     obliges=("540.2",))

def _resource_check(ok: bool):
    """A flag's update at a resource check at declaration that came out ``ok`` (540.2, 542.2)."""
    return lambda M, ev, pre, new, h: M.field_is(new, "resources_ok", ok) if ev.ran("check_resources") else None


def _goes_on(M, ev, pre, new, h):
    """After a failed resource check: anything reserved, or a step past the declaration entered."""
    if ev.op == "enter":
        return M.on(h["hz_short"]) if ev.kind in _PAST_DECLARATION else None
    return M.on(h["hz_short"]) if ev.ran("reserve_resources") else None


prop("P540.2-refused", ("540.2", "542.2", "540.1.3"), "объявление, для которого у карты нет ресурсов (в том числе X ресурсов "
     "больше, чем у неё есть), не состоится: ничего не резервируется, игродействие не выполняется и не оплачивается",
     "a declaration the card lacks the resources for (a cost-X above what it has included) does not happen: nothing "
     "is reserved, and the action is neither executed nor paid",
     Monitor("P540.2-refused",
             (flag("hz_short", "check_resources", _resource_check(False)),
              flag("hz_bad", ("enter", "reserve_resources"), _goes_on),
              # A-closed-no-close: a closed card has no «закрытие» to reserve
              flag("hz_closed", "check_resources", lambda M, ev, pre, new, h: M.and_(
                  M.field_is(new, "resources_ok", True), M.closed_owes_close(pre))
                  if ev.ran("check_resources") else None)),
             (Bad(lambda M, S, h: M.on(h["hz_bad"]), "проверка ресурсов при объявлении не прошла, а игродействие "
                  "продолжилось (540.2, 542.2)", "the resource check at declaration failed, yet the action went on "
                  "(540.2, 542.2)"),
              Bad(lambda M, S, h: M.on(h["hz_closed"]), "закрытая карта прошла проверку ресурсов игродействия, цена "
                  "которого требует закрыться (540.2; допущение A-closed-no-close)", "a closed card passed the resource "
                  "check of an action whose cost asks it to close (540.2; assumption A-closed-no-close)"),
              # A-refused-declaration: the declaration did not stand, so it is no use for «X раз за ход» (540.1.3)
              Bad(lambda M, S, h: M.and_then(M.and_(M.done(S), M.on(h["hz_short"])), lambda: M.off(M.get(S, "use_void"))),
                  "несостоявшееся объявление осталось применением особенности за ход (540.1.3, 540.2; допущение "
                  "A-refused-declaration)", "a declaration that did not stand still counts as a use of the feature in "
                  "the turn (540.1.3, 540.2; assumption A-refused-declaration)")),
             lambda M, S, h: M.and_(M.on(h["hz_short"]), M.done(S)),
             "the resource check at declaration fails and the run ends",
             "проверка ресурсов при объявлении не проходит, и розыгрыш заканчивается"))


def _carried_out(M, ev, pre, new, h):
    """A step past the declaration entered after a passed resource check."""
    return M.on(h["hw_ok"]) if ev.op == "enter" and ev.kind in _PAST_DECLARATION else None


prop("P542.2-x-as-wished", ("542.2", "540.2"), "X ресурсов игрок задаёт по своему желанию в пределах ресурсов "
     "карты: объявление, прошедшее проверку ресурсов (при любом таком X), не отменяется и выполняется",
     "the player names the cost-X as they wish within the card's resources: a declaration that passed the resource "
     "check (whatever such X) is not refused and is carried out",
     Monitor("P542.2-x-as-wished",
             # per part: a compound feature's later part is declared, checked and carried out afresh (512.6.6/b4)
             (flag("hw_ok", "check_resources", _resource_check(True), part=True),
              flag("hw_on", "enter", _carried_out, part=True)),
             (Bad(lambda M, S, h: M.and_(M.on(h["hw_ok"]), M.on(M.get(S, "use_void"))),
                  "у карты есть ресурсы для объявления, а объявление отменено (542.2, 540.2)",
                  "the card has the resources for the declaration, yet the declaration was refused (542.2, 540.2)"),
              Bad(lambda M, S, h: M.and_(M.done(S), M.on(h["hw_ok"]), M.off(h["hw_on"])),
                  "проверка ресурсов при объявлении прошла, а игродействие так и не выполнялось (542.2, 540.2)",
                  "the resource check at declaration passed, yet the action was never carried out (542.2, 540.2)")),
             lambda M, S, h: M.and_(M.done(S), M.on(h["hw_ok"]), M.on(M.get(S, "x_cost_declared"))),
             "an action with a cost-X passes the resource check and completes",
             "игродействие с X ресурсов проходит проверку ресурсов и завершается"))

prop("P540.3-action-marker", ("540.3",), "игродействие с модифицированными ресурсами всё равно даёт карте маркер "
     "действия, и она теряет возможность двигаться", "a resource-modified action still gives the card an action "
     "marker, and it can no longer move",
     Monitor("P540.3-action-marker",
             (value("hk_unpaid", 1, "pay_reserved", lambda M, ev, pre, new, h: M.bit(M.unpaid_any(
                 pre, ev.param("exempt_modified", True))) if not ev.skipped else None),
              # «если иного не указано в тексте особенности»: a text that waives the marker is P540.3-unless-text's
              value("hk_waived", 1, "pay_reserved", lambda M, ev, pre, new, h: M.bit(M.marker_waived(pre))
                    if not ev.skipped else None),
              flag("hk_given", "give_action_marker", lambda M, ev, pre, new, h: M.marker_given(pre, new)
                   if not ev.skipped else None)),
             (Bad(lambda M, S, h: M.and_(M.done(S), M.on(h["hk_unpaid"]), M.off(h["hk_waived"]), M.off(h["hk_given"])),
                  "игродействие с модифицированными ресурсами не дало маркер действия (540.3)",
                  "the resource-modified action gave no action marker (540.3)"),),
             lambda M, S, h: M.and_(M.done(S), M.on(h["hk_unpaid"]), M.off(h["hk_waived"])),
             "a resource-modified action leaves a resource unpaid and completes (no text of it waives the marker)",
             "игродействие с модифицированными ресурсами оставляет ресурс неоплаченным и завершается (ни один текст "
             "не отменяет маркер)"))

prop("P540.3-unless-text", ("540.3",), "карта не получает маркер действия, если текст особенности, модифицирующей её "
     "ресурсы в этом игродействии, говорит иное («если иного не указано в тексте особенности»)",
     "the acting card gets no action marker when the text of a feature that modifies its resources in this action "
     "says so («если иного не указано в тексте особенности»)",
     Monitor("P540.3-unless-text",
             (flag("hu_waived", "pay_reserved", lambda M, ev, pre, new, h: M.marker_waived(pre)
                   if not ev.skipped else None),
              flag("hu_given", "give_action_marker", lambda M, ev, pre, new, h: M.marker_given(pre, new)
                   if not ev.skipped else None)),
             (Bad(lambda M, S, h: M.and_(M.done(S), M.on(h["hu_waived"]), M.on(h["hu_given"])),
                  "карта получила маркер действия, хотя текст особенности, модифицирующей её ресурсы, говорит иное "
                  "(540.3)", "the card got an action marker though the text of a feature that modified its "
                  "resources says otherwise (540.3)"),),
             lambda M, S, h: M.and_(M.done(S), M.on(h["hu_waived"])),
             "the text of a feature that modifies the acting card's resources waives the marker, and the run ends",
             "текст особенности, модифицирующей ресурсы карты, отменяет маркер, и розыгрыш заканчивается"))


def _modification(f, role) -> bool:
    """540.4's subject: a resource modification without trigger words (those with them are 540.4.1's)."""
    return f.kind == "resource_modification" and not f.trigger


def _unoffered_modification(M, ev, pre, new, h):
    """At the payment: the effect applied, and a card still holds a modification never offered to it."""
    return M.and_(M.on(h["hm_effect"]), M.or_(*[M.and_(M.has(pre, f), M.not_(M.on(h[M.key("hm_off", f)])))
                                                for f in M.features(_modification)]))


prop("P540.4-modification-offered", ("540.4", "540.4.1/ex1"), "модификация ресурсов может быть применена к уже "
     "выполняющемуся игродействию: после применения эффекта и до этапа оплаты она предлагается карте, которая ею "
     "обладает", "a resource modification may be applied to a game action already executing: after the effect applies "
     "and before the payment stage it is offered to the card that holds it",
     Monitor("P540.4-modification-offered",
             (flag("hm_effect", "apply_effect", _on_run("apply_effect", _true)),
              # offered after the effect applied (540.4 «уже выполняющегося»; 540.4.1/ex1: after Kele's strike)
              flag("hm_off", ("play", "pass"), lambda M, ev, pre, new, h, f: M.and_(M.on(h["hm_effect"]),
                                                                                 M.offered(pre, ev, f))
                   if ev.turn and ev.kind != "payment" else None, each=_modification),
              flag("hm_bad", "pay_reserved", _on_run("pay_reserved", _unoffered_modification)),
              flag("hm_seen", "pay_reserved", _on_run("pay_reserved", lambda M, ev, pre, new, h: M.and_(
                  M.on(h["hm_effect"]), M.or_(*[M.has(pre, f) for f in M.features(_modification)]))))),
             (Bad(lambda M, S, h: M.on(h["hm_bad"]), "модификация ресурсов не предложена карте между применением "
                  "эффекта и оплатой (540.4, пример с Келе)", "a resource modification was not offered to its card "
                  "between the effect and the payment (540.4, the Kele example)"),),
             lambda M, S, h: M.on(h["hm_seen"]),
             "the effect applies and a card taking part holds a resource modification at the payment",
             "эффект применён, и при оплате у участвующей карты есть модификация ресурсов",
             windows=True),
     obliges=("540.4",))


def _trigger_holder(f, role) -> bool:
    """540.4.1's subjects: the attacker's «on strike/assault» features (which fire on its own strike: the
    return strike is where they «также» fire), the defender's «on strike/assault» ones — triggered
    features and resource modifications with trigger words alike."""
    return (f.kind == "effect_trigger" or f.kind == "resource_modification" and f.trigger) and role in ("src", "def")


def _return_strike_bad(M, ev, pre, new, h):
    # (a turn of the effect step's window, whatever kinds it admits: a window narrowed so that it no longer
    # admits the triggered features fails to offer them — the clause says they fire)
    if not ev.turn or ev.kind != "effect":
        return None
    c = []
    for f in M.features(_trigger_holder):
        chosen, off, ever = M.played(ev, f), M.offered(pre, ev, f), M.on(h[M.key("hs_ever", f)])
        if f.role == "src":  # the attacker's own strike: «on strike» and «on assault» are offered
            if not chosen:
                c.append(M.and_(M.is_attack(pre), M.on(M.get(pre, "effect_applied")), M.has_priority(pre, ev, f),
                                M.has(pre, f), M.not_(ever), M.not_(off)))
            continue
        strike = M.and_(M.on(M.get(pre, "return_strike")), M.has_defender(pre), M.on(M.get(pre, "effect_applied")),
                        M.has_priority(pre, ev, f))
        if f.feature.trigger == "strike":  # the return strike: «on strike» is offered, «on assault» is not
            if not chosen:
                c.append(M.and_(strike, M.has(pre, f), M.not_(ever), M.not_(off)))
        else:
            c.append(M.and_(strike, M.has(pre, f), M.not_(ever), True if chosen else off))
    return M.or_(*c)


def _return_strike_seen(M, ev, pre, new, h):
    """The situation 540.4.1 speaks of: after its return strike, a defender holding «on strike/assault»
    has priority in an effect window that admits triggered features."""
    if not ev.turn or ev.kind != "effect":
        return None
    return M.or_(*[M.and_(M.on(M.get(pre, "return_strike")), M.has_defender(pre), M.on(M.get(pre, "effect_applied")),
                          M.has_priority(pre, ev, f), M.has(pre, f))
                   for f in M.features(_trigger_holder) if f.role == "def" and f.feature.kind in ev.allows])


prop("P540.4.1-return-strike", ("540.4.1",), "«при ударе/атаке» срабатывает и на ответный удар защитника, "
     "«при нападении» — нет", "«on strike/attack» also fires on a defender's return strike; «on assault» does not",
     Monitor("P540.4.1-return-strike",
             (flag("hs_ever", "play", lambda M, ev, pre, new, h, f: True if M.played(ev, f) else None,
                   each=_trigger_holder),
              flag("hs_bad", ("play", "pass"), _return_strike_bad),
              flag("hs_seen", ("play", "pass"), _return_strike_seen)),
             (Bad(lambda M, S, h: M.on(h["hs_bad"]), "«при ударе» или «при нападении» не предложено на удар нападающего, "
                  "«при ударе» — на ответный удар, или «при нападении» предложено на ответный удар (540.4.1)",
                  "«on strike» or «on assault» was not offered on the attacker's strike, «on strike» not on the return "
                  "strike, or «on assault» was offered on the return strike (540.4.1)"),),
             lambda M, S, h: M.on(h["hs_seen"]),
             "after its return strike, a defender holding «on strike/assault» has priority in the effect window",
             "после ответного удара защитник с «при ударе/нападении» получает приоритет в окне эффекта"),
     obliges=("540.4.1",))


