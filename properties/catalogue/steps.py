"""Properties of 512.6.3–512.6.6: legality, the final magnitude, blocking, the effect, misses and «после …»."""

from __future__ import annotations

from ..monitor import Bad, Monitor, counter, flag, value
from .core import _true, prop

# --- 512.6.3–512.6.6 ---------------------------------------------------------------------------------------

prop("P512.6.3-legality-once", ("512.6.3/b3", "526"), "легальность источника проверяется один раз, после окна шага "
     "расчёта", "source legality is checked exactly once, after the calculation window",
     Monitor("P512.6.3-legality-once",
             (counter("hl_n", 2, "check_source_legality", lambda M, ev, pre, new, h: True if not ev.skipped else None,
                      part=True),
              flag("hl_closed", "window_closed", lambda M, ev, pre, new, h: True if ev.kind == "calculation" else None,
                   part=True),
              flag("hl_reached", ("apply_effect", "finalize_magnitude"), _true, part=True),
              flag("hl_where", "check_source_legality", lambda M, ev, pre, new, h: M.or_(
                  ev.kind != "calculation", M.off(h["hl_closed"])) if not ev.skipped else None),
              flag("hl_latch", "declare", lambda M, ev, pre, new, h: M.and_(M.on(h["hl_reached"]), M.off(h["hl_n"]))
                   if ev.ran("declare") else None)),
             (Bad(lambda M, S, h: M.ugt(h["hl_n"], M.num(1, 2)), "легальность проверена повторно (512.6.3, 526)",
                  "legality was checked again (512.6.3, 526)"),
              Bad(lambda M, S, h: M.on(h["hl_where"]), "легальность проверена не после окна шага расчёта (512.6.3)",
                  "legality was not checked after the calculation window (512.6.3)"),
              Bad(lambda M, S, h: M.and_(M.done(S), M.or_(M.on(h["hl_latch"]), M.and_(M.on(h["hl_reached"]),
                                                                                       M.off(h["hl_n"])))),
                  "легальность не проверялась (512.6.3)", "legality was never checked (512.6.3)")),
             lambda M, S, h: M.and_(M.done(S), M.not_(M.off(h["hl_n"]))),
             "legality is checked and the action completes", "легальность проверена, и игродействие завершается"))


def _after_illegal(M, ev, pre, new, h):
    hit = ev.ran("apply_effect", "finalize_magnitude", "apply_magnitude_modifiers") or ev.kind in ("blocking", "effect")
    return M.on(h["hi_ill"]) if hit else None


prop("P512.6.3-illegal", ("512.6.3/b3",), "нелегальное игродействие переходит к завершению способности: без "
     "блокирования и без эффекта", "an illegal game action goes to completion: no blocking, no effect",
     Monitor("P512.6.3-illegal",
             (flag("hi_ill", "check_source_legality", lambda M, ev, pre, new, h: M.legal_is(new, False)
                   if not ev.skipped else None, part=True),
              flag("hi_after", "*", _after_illegal, part=True)),
             (Bad(lambda M, S, h: M.on(h["hi_after"]), "после проверки легальности с отрицательным итогом выполнение "
                  "продолжилось (512.6.3)", "after a failed legality check the execution went on (512.6.3)"),),
             lambda M, S, h: M.and_(M.on(h["hi_ill"]), M.done(S)),
             "an illegal action completes", "нелегальное игродействие завершается"))

prop("P512.6.3-final-magnitude", ("512.6.3/b4",), "окончательная величина, став известной, больше не меняется",
     "once the final magnitude is known nothing changes it",
     Monitor("P512.6.3-final-magnitude",
             (flag("hm_fin", "finalize_magnitude", lambda M, ev, pre, new, h: True if not ev.skipped else None, part=True),
              flag("hm_changed", "apply_magnitude_modifiers", lambda M, ev, pre, new, h: M.on(h["hm_fin"])
                   if not ev.skipped else None, part=True),
              flag("hm_effpre", "apply_effect", lambda M, ev, pre, new, h: M.off(h["hm_fin"]), part=True),
              # «Происходит наложение модификаторов величины … После их наложения становится известна окончательная
              # величина»: the modifiers must be applied before the final magnitude is known
              flag("hm_app", "apply_magnitude_modifiers", lambda M, ev, pre, new, h: True if not ev.skipped else None,
                   part=True),
              flag("hm_unmod", "finalize_magnitude", lambda M, ev, pre, new, h: M.off(h["hm_app"])
                   if not ev.skipped else None, part=True)),
             (Bad(lambda M, S, h: M.on(h["hm_changed"]), "модификаторы величины применены после того, как стала "
                  "известна окончательная величина (512.6.3)", "the magnitude modifiers were applied after the final "
                  "magnitude was known (512.6.3)"),
              Bad(lambda M, S, h: M.on(h["hm_effpre"]),
                  "эффект наложен до того, как стала известна окончательная величина (512.6.3)",
                  "the effect was applied before the final magnitude was known (512.6.3)"),
              Bad(lambda M, S, h: M.on(h["hm_unmod"]),
                  "окончательная величина стала известна без наложения модификаторов величины (512.6.3)",
                  "the final magnitude was known without the magnitude modifiers applied (512.6.3)")),
             lambda M, S, h: M.and_then(M.on(h["hm_fin"]), lambda: M.on(M.get(S, "effect_applied"))),
             "the final magnitude is known and the effect applied", "окончательная величина известна, эффект наложен",
             note="a magnitude-modifier application after the final magnitude counts as a change (the model "
                  "abstracts magnitudes away)"),
     obliges=("512.6.3/b4",))


def _block_bad(M, ev, pre, new, h):
    if ev.plays("block"):
        return True if ev.kind != "blocking" else None
    return M.on(h["hb_pl"]) if ev.ran("apply_effect") else None


prop("P512.6.4-block", ("512.6.4/b2", "512.6.4/b3"), "блокировать можно только на шаге блокирования; "
     "заблокированное действие не накладывает эффект", "blocks only at the blocking step; a blocked action "
     "applies no effect",
     Monitor("P512.6.4-block",
             (flag("hb_pl", "play", lambda M, ev, pre, new, h: True if ev.plays("block") else None, part=True),
              flag("hb_bad", ("play", "apply_effect"), _block_bad)),
             (Bad(lambda M, S, h: M.on(h["hb_bad"]), "блок заявлен не на шаге блокирования, или заблокированное "
                  "действие наложило эффект (512.6.4)", "a block was declared outside the blocking step, or a blocked "
                  "action applied its effect (512.6.4)"),),
             lambda M, S, h: M.and_(M.on(h["hb_pl"]), M.done(S)),
             "a blocked action completes", "заблокированное действие завершается"))

prop("P512.6.5-effect", ("512.6.5", "512.6.4/b4"), "эффект легального незаблокированного действия накладывается "
     "ровно один раз",
     "the effect of a legal, unblocked action is applied exactly once",
     Monitor("P512.6.5-effect",
             (counter("he_n", 2, "apply_effect", lambda M, ev, pre, new, h: True if not ev.skipped else None, part=True),
              # paid without the effect, legal and unblocked (judged as the payment is made)
              flag("he_missed", "pay_reserved", lambda M, ev, pre, new, h: M.and_(
                  M.off(h["he_n"]), M.legal_is(new, True), M.off(M.get(new, "blocked")), M.on(h["he_compl"])),
                   part=True),
              flag("he_compl", "enter", lambda M, ev, pre, new, h: True if ev.kind == "completion" else None,
                   part=True)),
             (Bad(lambda M, S, h: M.ugt(h["he_n"], M.num(1, 2)), "эффект наложен дважды (512.6.5)",
                  "the effect was applied twice (512.6.5)"),
              Bad(lambda M, S, h: M.or_(M.on(h["he_missed"]), M.and_then(M.and_(M.done(S), M.off(h["he_n"])), lambda: M.and_(
                  M.legal_is(S, True), M.off(M.get(S, "blocked")), M.on(h["he_compl"])))),
                  "действие дошло до завершения, а эффект не наложен (512.6.5)",
                  "the action reached completion without applying its effect (512.6.5)")),
             lambda M, S, h: M.and_(M.eq(h["he_n"], M.num(1, 2)), M.done(S)),
             "a legal unblocked action applies its effect and completes",
             "легальное незаблокированное действие накладывает эффект и завершается"),
     obliges=("512.6.5", "512.6.4/b4"))


def _miss_skipped(M, ev, pre, new, h):
    """Entering the completion step with a miss (not found illegal — or never checked —, unblocked) and no
    effect applied yet."""
    if ev.op != "enter" or ev.kind != "completion":
        return None
    return M.and_(M.on(h["hmi_miss"]), M.off(h["hmi_eff"]), M.not_(M.legal_is(new, False)), M.off(M.get(new, "blocked")))


def _miss_lost(M, ev, pre, new, h):
    """After the effect of a missed (legal, unblocked) attack, its status is no longer a miss."""
    if not ev.ran("apply_effect"):
        return None
    return M.and_(M.on(h["hmi_miss"]), M.legal_is(new, True), M.off(M.get(new, "blocked")),
                  M.not_(M.field_is(new, "status", "miss")))


def _status_came_about(M, S, on_status: str):
    """512.6.6/b2: the status a «после [status]» feature asks for came about (``any``: whatever it is).  A
    status stays once it came about (A-status-kept): a missed attack that is then blocked was both — the
    block is the ``blocked`` flag, whatever the status says."""
    if on_status == "any":
        return True
    return M.on(M.get(S, "blocked")) if on_status == "blocked" else M.field_is(S, "status", on_status)


def _after_wrong_status(M, ev, pre, new, h):
    """A «после [status]» feature played while the ability's status is another one."""
    if not ev.plays("after_ability") or ev.feature.on_status == "any":
        return None
    return M.not_(_status_came_about(M, pre, ev.feature.on_status))


prop("P512.6.6-miss", ("512.6.6/b2", "512.6.1"), "промах — исход атаки, а не пропуск шагов: атака с промахом проходит "
     "шаг наложения эффекта и завершается со статусом «промах»; «после …» заявляется только при своём статусе",
     "a miss is a result of the attack, not a skip: a missed attack goes through the effect step and completes with "
     "the status «miss»; an «after …» feature is claimed only under its own status",
     Monitor("P512.6.6-miss",
             (flag("hmi_miss", "determine_base", lambda M, ev, pre, new, h: M.field_is(new, "status", "miss")
                   if not ev.skipped else None, part=True),
              flag("hmi_eff", "apply_effect", lambda M, ev, pre, new, h: True if not ev.skipped else None, part=True),
              flag("hmi_skip", "enter", _miss_skipped),
              flag("hmi_lost", "apply_effect", _miss_lost),
              flag("hmi_after", "play", _after_wrong_status)),
             (Bad(lambda M, S, h: M.on(h["hmi_skip"]), "атака с промахом перешла к завершению способности без наложения "
                  "эффекта (512.6.1: промах не пропускает шагов)", "a missed attack went to completion without the "
                  "effect (512.6.1: a miss leaves out no step)"),
              Bad(lambda M, S, h: M.on(h["hmi_lost"]), "после наложения эффекта промах перестал быть статусом атаки "
                  "(512.6.6)", "after the effect the attack's status is no longer the miss (512.6.6)"),
              Bad(lambda M, S, h: M.on(h["hmi_after"]), "особенность «после …» заявлена при чужом статусе выполнения "
                  "способности (512.6.6)", "an «after …» feature was claimed under another status of the ability "
                  "(512.6.6)")),
             lambda M, S, h: M.and_(M.on(h["hmi_miss"]), M.done(S)),
             "a missed attack completes", "атака с промахом завершается"))


def _released(M, ev, pre, new, h):
    if ev.op == "enter":
        return 0
    return 1 if ev.ran("release_roles") else None


def _after_bad(M, ev, pre, new, h):
    if ev.plays("after_ability"):
        return True if ev.kind != "completion" else M.on(h["hx_rel"])
    if ev.turn:
        return M.on(h["hx_rel"])
    return M.off(M.get(new, "roles_released")) if ev.ran("pay_reserved") else None


prop("P512.6.6-after", ("512.6.6/b2", "512.6.6/b3"), "«после …» заявляются только на шаге завершения, после "
     "эффекта; роли снимаются до оплаты", "«after …» only at the completion step, after the effect; roles are "
     "released before payment",
     Monitor("P512.6.6-after",
             (value("hx_rel", 1, ("enter", "release_roles"), _released),
              flag("hx_played", "play", lambda M, ev, pre, new, h: True if ev.plays("after_ability") else None),
              flag("hx_bad", ("play", "pass", "pay_reserved"), _after_bad)),
             (Bad(lambda M, S, h: M.on(h["hx_bad"]), "«после …» заявлено не на шаге завершения, роли сняты до того, "
                  "как выполнены особенности «после …», или оплата началась с неснятыми ролями (512.6.6)",
                  "an «after …» feature outside the completion step, roles released before the «after …» features "
                  "were done, or payment with the roles not released (512.6.6)"),),
             lambda M, S, h: M.and_then(M.on(h["hx_played"]), lambda: M.on(M.get(S, "paid_done"))),
             "an «after …» feature is played and payment follows", "разыграна особенность «после …», затем оплата"))


def _after_each(f, role) -> bool:
    return f.kind == "after_ability"


def _after_due(M, S, h):
    """«После …» features whose status came about, held in the action (one term per feature)."""
    return [(f, M.and_(M.has(S, f), _status_came_about(M, S, f.feature.on_status))) for f in M.features(_after_each)]


def _after_left_out(M, ev, pre, new, h):
    """Leaving the completion step (to payment or to the next part's declaration): a «после …» feature whose
    status came about was never offered there."""
    if ev.kind not in ("payment", "declaration"):
        return None
    return M.and_(M.on(h["hao_in"]), M.or_(*[M.and_(due, M.not_(M.on(h[M.key("hao_off", f)])))
                                            for f, due in _after_due(M, pre, h)]))


def _after_due_seen(M, ev, pre, new, h):
    if ev.kind not in ("payment", "declaration"):
        return None
    return M.and_(M.on(h["hao_in"]), M.or_(*[due for _, due in _after_due(M, pre, h)]))


# an obligation: 512.6.6/b2 «игроки заявляют … особенности вида "после [текст]" … в зависимости от статуса» —
# the features of the status that came about must be offered (a draft that never offers them breaks it)
prop("P512.6.6-after-offered", ("512.6.6/b2",), "особенности «после …», чей статус выполнения способности наступил, "
     "предлагаются игрокам на шаге завершения", "the «after …» features whose status of the ability came about are "
     "offered to their players at the completion step",
     Monitor("P512.6.6-after-offered",
             (flag("hao_in", "enter", lambda M, ev, pre, new, h: True if ev.kind == "completion" else None, part=True),
              flag("hao_off", ("play", "pass"), lambda M, ev, pre, new, h, f: M.offered(pre, ev, f)
                   if ev.kind == "completion" else None, part=True, each=_after_each),
              flag("hao_bad", "enter", _after_left_out),
              flag("hao_seen", "enter", _after_due_seen)),
             (Bad(lambda M, S, h: M.on(h["hao_bad"]), "особенность «после …», чей статус наступил, не предложена на "
                  "шаге завершения способности (512.6.6)", "an «after …» feature whose status came about was not "
                  "offered at the completion step (512.6.6)"),),
             lambda M, S, h: M.on(h["hao_seen"]),
             "the completion step ends with an «after …» feature whose status came about",
             "шаг завершения заканчивается, и есть особенность «после …», чей статус наступил",
             windows=True),
     obliges=("512.6.6/b2",))


