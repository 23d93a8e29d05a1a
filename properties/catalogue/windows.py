"""Properties of Every window and the order of 512.6.1: who goes first, the steps' order, what may be declared where."""

from __future__ import annotations

from ruleproof.model.vocabulary import FEATURE_KINDS

from ..monitor import Bad, Monitor, flag, pulse, value
from .core import MAY_DECLARE, STEP_ORDER, _on_run, _true, prop
from .payment import _resource_check

# --- every window -------------------------------------------------------------------------------------------

prop("P512.6-active-player-first", ("512.6.2/b2", "512.6.2/b3", "512.6.3/b1", "512.6.4/b1", "512.6.6/b1"),
     "в каждом окне приоритет первым получает Активный Игрок", "the active player gets priority first in every window",
     Monitor("P512.6-active-player-first",
             (flag("hw1_bad", "window", lambda M, ev, pre, new, h: True if not ev.skipped and not ev.first_active else None),
              flag("hw1_seen", "window", lambda M, ev, pre, new, h: True if not ev.skipped else None)),
             (Bad(lambda M, S, h: M.on(h["hw1_bad"]), "в окне первым приоритет получил не Активный Игрок (512.6)",
                  "in a window the active player did not get priority first (512.6)"),),
             lambda M, S, h: M.on(h["hw1_seen"]), "a priority window opens", "открывается окно приоритета"))


#: each step's place in 512.6.1's order (1 = the first); a monitor's 4-bit value
_RANKS = {kind: i + 1 for i, kind in enumerate(STEP_ORDER)}
_rank = _RANKS.__getitem__


prop("P512.6.1-order", ("512.6.1", "512.6.6/b4"), "шаги выполнения идут в порядке 512.6.1, оплата — после них",
     "the execution steps come in 512.6.1's order, payment after them",
     Monitor("P512.6.1-order",
             (value("ho_last", 4, "enter", lambda M, ev, pre, new, h: _rank(ev.kind)),
              flag("ho_bad", "enter", lambda M, ev, pre, new, h: M.ult(M.num(_rank(ev.kind), 4), h["ho_last"])
                   if ev.kind != "declaration" else None)),
             (Bad(lambda M, S, h: M.on(h["ho_bad"]), "шаг идёт не в порядке 512.6.1",
                  "a step comes out of 512.6.1's order"),),
             lambda M, S, h: M.and_(M.done(S), M.visited_any(S)),
             "an action goes through its steps and completes", "игродействие проходит шаги и завершается"))


#: the steps of 512.6.1 and the payment after them, each with what lets a part of an action leave it out
#: (a clause's condition on the state as the step would be entered; a refused declaration — 540.2,
#: 542.2 — leaves out every one of them)
_MAY_SKIP = (
    ("dice", lambda M, S: M.holds(S, "dice_step_skippable")),  # 512.6.2
    ("calculation", lambda M, S: M.false()),
    ("blocking", lambda M, S: M.legal_is(S, False)),  # 512.6.3/b3
    ("effect", lambda M, S: M.or_(M.legal_is(S, False), M.holds(S, "action_blocked"))),  # 512.6.3/b3, 512.6.4/b3
    ("completion", lambda M, S: M.false()),
    ("payment", lambda M, S: M.false()),  # 512.6.6/b4 (a compound feature's next part returns to declaration)
)


def _left_out(M, ev, pre, new, h, allowed: bool):
    """Entering a step: some step of 512.6.1 (or payment) between the last one entered and this one is
    left out — with (``allowed``) or without a clause that lets the action leave it out."""
    if ev.kind == "declaration":
        return None
    here, last = _rank(ev.kind), h["hn_last"]
    between = [(rank, may) for rank, may in ((_rank(kind), may) for kind, may in _MAY_SKIP) if rank < here]
    if not between:
        return None

    def why(may):  # the clause's condition, asked only for a step that was left out
        ok = M.or_(may(M, pre), M.field_is(pre, "resources_ok", False))
        return ok if allowed else M.not_(ok)

    def left_out():
        return M.or_(*[M.and_then(M.ult(last, M.num(rank, 4)), lambda may=may: why(may)) for rank, may in between])
    # a step is left out only when the last one entered is not the one just before
    return M.and_then(M.ult(last, M.num(here - 1, 4)), left_out)


prop("P512.6.1-steps-happen", ("512.6.1", "512.6.2", "512.6.3/b3", "512.6.4/b3", "512.6.6/b4"),
     "каждый шаг 512.6.1 и этап оплаты происходят, кроме тех, что пункт позволяет пропустить (шаг броска для "
     "заклинания без числовой величины, нелегальное или заблокированное действие — к шагу завершения)",
     "every step of 512.6.1 and the payment stage happen, except where a clause lets the action leave one out "
     "(the dice step of a spell with no numeric magnitude; an illegal or blocked action goes to completion)",
     Monitor("P512.6.1-steps-happen",
             (value("hn_last", 4, "enter", lambda M, ev, pre, new, h: _rank(ev.kind)),
              flag("hn_bad", "enter", lambda M, ev, pre, new, h: _left_out(M, ev, pre, new, h, False)),
              flag("hn_skipped", "enter", lambda M, ev, pre, new, h: _left_out(M, ev, pre, new, h, True))),
             (Bad(lambda M, S, h: M.on(h["hn_bad"]), "шаг 512.6.1 или этап оплаты пропущен, хотя ни один пункт "
                  "этого не позволяет (512.6.1)", "a step of 512.6.1 or the payment stage was left out though no "
                  "clause allows it (512.6.1)"),),
             lambda M, S, h: M.and_(M.on(h["hn_skipped"]), M.ended(S)),
             "an action leaves out a step a clause lets it leave out, and completes",
             "игродействие пропускает шаг, который пункт позволяет пропустить, и завершается"),
     obliges=("512.6.1",))


_MAY_EACH: dict = {}


def _may(steps: tuple[str, ...]):
    """The features a clause lets a player declare at one of the step kinds ``steps`` (one test per
    ``steps``: the engines key per-feature variables by it)."""
    found = _MAY_EACH.get(steps)
    if found is None:
        def found(f, role) -> bool:
            return f.kind in MAY_DECLARE and MAY_DECLARE[f.kind][0] in steps
        _MAY_EACH[steps] = found
    return found


_MAY_STEPS = tuple(dict.fromkeys(k[0] for k in MAY_DECLARE.values()))


def _may_monitor(pid: str, steps: tuple[str, ...], latch: str, split: tuple = ()) -> Monitor:
    """512.6.2–512.6.4: each feature a clause lets its player declare at one of ``steps`` is offered
    to them there (judged when the part ends: at the next declaration, or the end of the run)."""
    each = _may(steps)

    def part_bad(M, S, h):
        c = []
        for f in M.features(each):
            kinds = MAY_DECLARE[f.feature.kind]
            c.append(M.and_(M.has(S, f), M.not_(M.on(h[M.key("hd_pl", f)])),
                            M.or_(*[M.on(h[f"hd_in_{k}"]) for k in kinds]), M.not_(M.on(h[M.key("hd_off", f)])),
                            M.not_(M.on(h["hd_block"])) if f.feature.kind == "block" else True))
        return M.or_(*c)

    def closes_bad_part(M, ev, pre, new, h):
        return part_bad(M, pre, h) if ev.ran("declare") else False

    hist = [flag("hd_off", ("play", "pass"), lambda M, ev, pre, new, h, f: M.offered(pre, ev, f)
                 if ev.kind in MAY_DECLARE[f.feature.kind] else None, part=True, each=each),
            flag("hd_pl", "play", lambda M, ev, pre, new, h, f: True if M.played(ev, f) else None, part=True, each=each),
            *[flag(f"hd_in_{k}", "enter", lambda M, ev, pre, new, h, k=k: True if ev.kind == k else None, part=True)
              for k in steps],
            # a pulse, not a latch: 1 only in the state right after a declaration that closes a bad part
            # (a latch kept to the end made Spacer show it 0 at every location: 7.0 s against 5.3 s, measured)
            pulse(latch, "declare", closes_bad_part)]
    if "blocking" in steps:
        hist.append(flag("hd_block", "play", lambda M, ev, pre, new, h: True if ev.plays("block") else None, part=True))
    return Monitor(pid, tuple(hist),
                   (Bad(lambda M, S, h: M.or_(M.and_then(M.on(h[latch]), lambda: M.after_declare(S)),
                                              M.and_then(M.done(S), lambda: part_bad(M, S, h))),
                        "особенность, которую пункт разрешает заявить на шаге, не предложена в окне этого шага",
                        "a feature a clause lets its player declare at a step was not offered in that step's window"),),
                   lambda M, S, h: M.and_(M.done(S), M.or_(*[M.on(h[M.key("hd_off", f)]) for f in M.features(each)])),
                   "a feature a clause allows is offered at its step", "особенность, разрешённая пунктом, предложена на шаге",
                   note="proved one step kind at a time (the features of the menu allowed at dice, calculation, "
                        "blocking: each part has its own cone of influence)" if split else "",
                   windows=True, options=(("xform.inline_linear_branch", True),), split=split)


prop("P512.6-may-declare", ("512.6.2/b2", "512.6.2/b3", "512.6.3/b2", "512.6.4/b2"),
     "особенности, которые пункт разрешает заявлять на шаге, предлагаются игроку в окне этого шага",
     "the features a clause lets a player declare at a step are offered to them in that step's window",
     _may_monitor("P512.6-may-declare", tuple(sorted(_MAY_STEPS)), "hd_latch",
                  split=tuple(_may_monitor(f"P512.6-may-declare#{k}", (k,), f"hd_latch_{k}")
                              for k in _MAY_STEPS)),
     obliges=("512.6.2/b2", "512.6.2/b3", "512.6.3/b2", "512.6.4/b2"))


def _on_payment(f, role) -> bool:
    return f.kind == "payment_trigger" and f.on == "payment"


def _pt_offered(M, ev, pre, new, h, f):
    if ev.ran("pay_reserved"):
        return 0
    if not ev.turn or ev.kind != "payment":
        return None
    return M.ite(M.offered(pre, ev, f), M.num(1, 1), h[M.key("ht_off", f)])


def _pt_bad(M, S, h):
    return M.and_then(M.and_(M.on(h["ht_pay"]), M.done(S)), lambda: M.or_(*[
        M.and_(M.has(S, f), M.paid_by(h["ht_payers"], f), M.not_(M.on(h[M.key("ht_off", f)])))
        for f in M.features(_on_payment)]))


def _pt_unpaid_offered(M, ev, pre, new, h):
    """At a turn of the payment stage: an «on payment [X]» feature offered though its card paid no [X]."""
    if not ev.turn or ev.kind != "payment":
        return None
    return M.or_(*[M.and_(M.offered(pre, ev, f), M.not_(M.paid_by(h["ht_payers"], f)))
                   for f in M.features(_on_payment)])


def _pt_premise(M, S, h):
    """The situation 512.7/b2 speaks of: a card that paid holds an «on payment» feature, and the run ends."""
    return M.and_then(M.and_(M.on(h["ht_pay"]), M.done(S)), lambda: M.or_(*[
        M.and_(M.has(S, f), M.paid_by(h["ht_payers"], f)) for f in M.features(_on_payment)]))


prop("P512.7-payment-triggers", ("512.7/b2",), "после оплаты срабатывают особенности «при оплате [X]» карт, которые "
     "платили [X]", "after paying, the «on payment [of X]» features of the cards that paid [X] fire",
     Monitor("P512.7-payment-triggers",
             (flag("ht_pay", "pay_reserved", _on_run("pay_reserved", _true)),
              value("ht_payers", 3, "pay_reserved", _on_run("pay_reserved", lambda M, ev, pre, new, h: M.payers(new))),
              value("ht_off", 1, ("pay_reserved", "play", "pass"), _pt_offered, each=_on_payment),
              flag("ht_wrong", ("play", "pass"), _pt_unpaid_offered)),
             (Bad(_pt_bad, "особенность «при оплате» заплатившей карты не сработала после оплаты (512.7)",
                  "an «on payment» feature of a card that paid did not fire after paying (512.7)"),
              Bad(lambda M, S, h: M.on(h["ht_wrong"]), "особенность «при оплате [X]» предложена карте, которая [X] не "
                  "платила (512.7)", "an «on payment [of X]» feature was offered to a card that paid no [X] (512.7)")),
             _pt_premise, "a card that paid holds an «on payment» feature, and the action completes",
             "заплатившая карта обладает особенностью «при оплате», и игродействие завершается",
             # who is offered what depends on who has priority: without the windows' shape Spacer's first
             # path is spurious (measured: 0.5 s lost before the query with it, 0.25 s)
             windows=True),
     obliges=("512.7/b2",))

prop("P512.6.6-compound", ("512.6.6/b4",), "составная особенность после завершения способности переходит к "
     "следующему этапу формирования заявки, пока её части не исчерпаны", "a compound feature goes on to its next "
     "claim-forming stage after completion until its parts are done",
     Monitor("P512.6.6-compound", (flag("hq_refused", "check_resources", _resource_check(False)),
                                   # «если это возможно» (A-next-part): payment entered with no next part possible
                                   flag("hq_impossible", "enter", lambda M, ev, pre, new, h: M.and_(
                                       M.not_(M.all_parts_declared(pre)), M.not_(M.holds(pre, "compound_has_next")))
                                       if ev.kind == "payment" else None)),
             # a declaration refused for want of resources (540.2, 542.2) has no next part to go on to, nor
             # has a part after which the next one cannot be declared (512.6.6/b4 «если это возможно»)
             (Bad(lambda M, S, h: M.and_then(M.and_(M.ended(S), M.off(h["hq_refused"]), M.off(h["hq_impossible"])),
                                             lambda: M.not_(M.all_parts_declared(S))),
                  "объявлены не все части составной особенности (512.6.6)",
                  "not every part of the compound feature was declared (512.6.6)"),),
             lambda M, S, h: M.and_then(M.ended(S), lambda: M.parts_at_start(S, 1)),
             "a two-part compound feature completes", "составная особенность из двух частей завершается"))


def _executing(ev) -> bool:
    return ev.op == "enter" and ev.kind in ("dice", "calculation")


prop("P512.5-claims-resolved", ("512.5/t1",), "этап выполнения начинается, когда все заявки разрешены",
     "the execution stage begins once every claim is resolved",
     Monitor("P512.5-claims-resolved",
             (flag("hc_bad", "enter", lambda M, ev, pre, new, h: M.not_(M.off(M.get(pre, "claims")))
                   if _executing(ev) else None),
              flag("hc_exec", "enter", lambda M, ev, pre, new, h: True if _executing(ev) else None)),
             (Bad(lambda M, S, h: M.on(h["hc_bad"]), "этап выполнения начался при неразрешённых заявках (512.5)",
                  "the execution stage began with unresolved claims (512.5)"),),
             lambda M, S, h: M.on(h["hc_exec"]), "the execution stage begins", "начинается этап выполнения"))


def _off_its_step(M, ev, pre, new, h):
    """A feature played at a step kind its kind's clause does not let it be declared at (the vocabulary's)."""
    if ev.feature is None:
        return None
    kind = FEATURE_KINDS.get(ev.feature.kind)
    return True if kind is not None and ev.kind not in kind.steps else None


prop("P512.6-kind-at-its-step", tuple(dict.fromkeys(c for k in FEATURE_KINDS.values() for c in k.cites)),
     "особенность разыгрывается только на шаге, на котором её вид разрешает заявлять пункт (переброс — на шаге броска "
     "кубика, модификатор величины — на шаге расчёта, блокирование — на шаге блокирования …)",
     "a feature is played only at a step its kind's clause lets it be declared at (a reroll at the dice step, a "
     "magnitude modifier at the calculation step, a block at the blocking step …)",
     Monitor("P512.6-kind-at-its-step",
             (flag("hk_played", "play", _true),
              flag("hk_bad", "play", _off_its_step)),
             (Bad(lambda M, S, h: M.on(h["hk_bad"]), "особенность разыграна на шаге, на котором пункт не разрешает "
                  "заявлять особенности её вида (512.6.2–512.7, 540.4)", "a feature was played at a step where no clause "
                  "lets a feature of its kind be declared (512.6.2–512.7, 540.4)"),),
             lambda M, S, h: M.on(h["hk_played"]), "a feature is played", "разыграна особенность"))


