"""The Z3 form of each catalogue property: history variables, a ``bad`` state predicate, a premise.

A form is a state invariant over the symbolic vector of :mod:`ruleproof.model.symbolic`: the history
variables it adds record what the trace predicate of :mod:`.catalogue` looks at (which events
happened, in which step kind, in which part of a compound feature), and ``bad`` is true in a state
exactly when the predicate would report a violation of the trace so far — so "``bad`` is
unreachable" is the property for every play.  Like the catalogue, the forms read only the events'
vocabulary (operation names, step *kinds*, window ``allows``), never the rulebook's order.  The
``premise`` is a vacuity witness: a state showing the property's subject happens (e.g. an action
with cost-X reaches payment).

Where a form over-approximates the predicate it says so in ``note`` (a violation it reports is
replayed on the interpreter, which confirms it or not).

>>> sorted(FORMS)[:2]
['P512.5-claims-resolved', 'P512.6-active-player-first']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import z3

from ruleproof.model.algebra import LEGAL
from ruleproof.model.symbolic import OPT_INDEX, OPTIONS, HistVar, System
from ruleproof.properties.catalogue import MAY_DECLARE, STEP_ORDER

__all__ = ["Form", "FORMS", "form_for"]

Pred = Callable[[System, dict], z3.BoolRef]


@dataclass(frozen=True)
class Form:
    pid: str
    hist: tuple[HistVar, ...]
    bad: Pred
    premise: Pred
    premise_en: str
    premise_ru: str
    note: str = ""
    split: tuple["Form", ...] = ()  # proved as these parts, each on its own (its own, smaller cone)
    windows: bool = False  # the cone needs the windows' shape (who has priority, passes) from the start
    options: tuple[tuple[str, object], ...] = ()  # Fixedpoint options for this form's Spacer queries


FORMS: dict[str, Form] = {}


def _form(pid, hist, bad, premise, en, ru, note="", windows=False):
    FORMS[pid] = Form(pid, tuple(hist), bad, premise, en, ru, note, windows=windows)


# --- helpers over a disjunct ----------------------------------------------------------------------------------

def _ev(d, *names, skipped=None):
    return d.event in names and (skipped is None or d.skipped == skipped)


def _declare(d):
    return d.event == "declare" and not d.skipped


def _turn(d):
    return d.event in ("pass", "play")


def _b(sy: System, c):
    return c if isinstance(c, z3.BoolRef) else (sy.true() if c else sy.false())


def flag(name: str, when, part: bool = False) -> HistVar:
    """A 1-bit history variable set when ``when(sy, d, pre, new)`` (None: not at this event);
    ``part``: cleared when the next part of a compound feature is declared."""

    def update(sy: System, d, pre, new):
        cur = pre[name]
        if part and _declare(d):
            cur = sy.val(0, 1)
        c = when(sy, d, pre, new)
        if c is None:
            return cur
        c = _b(sy, c)
        return z3.If(c, sy.val(1, 1), cur) if not z3.is_true(c) else sy.val(1, 1)

    return HistVar(name, 1, 0, update)


def counter(name: str, width: int, when, part: bool = False) -> HistVar:
    def update(sy: System, d, pre, new):
        cur = pre[name]
        if part and _declare(d):
            cur = sy.val(0, width)
        c = when(sy, d, pre, new)
        if c is None:
            return cur
        return z3.If(_b(sy, c), sy.sat_inc(cur), cur)

    return HistVar(name, width, 0, update)


def latch(name: str, width: int, at, value) -> HistVar:
    """A variable that takes ``value(sy, d, pre, new)`` at events where ``at(d)`` holds."""

    def update(sy: System, d, pre, new):
        if not at(d):
            return pre[name]
        return value(sy, d, pre, new)

    return HistVar(name, width, 0, update)


def _done(sy: System, S):
    return z3.Or(S["pc"] == sy.val(sy.done_end, "pc"), S["pc"] == sy.val(sy.done_deadlock, "pc"))


def _t(sy, S, n):
    return sy.t(S[n])


# --- 542: X fixed once at declaration ---------------------------------------------------------------------------

def _fixed_at_declaration(pid: str, kind: str, cost: bool = False):
    ex = f"x_{kind}_declared"
    p = pid.split("-")[0][1:].replace(".", "_")
    wrong, nfix = f"h{p}_wrong", f"h{p}_nfix"
    fixes = lambda d: _ev(d, "fix_x", skipped=False) and d.params.get("x") == kind  # noqa: E731
    hist = [flag(wrong, lambda sy, d, pre, new: z3.And(sy.t(pre[ex]), _b(sy, d.step_kind != "declaration"))
                 if fixes(d) else None),
            counter(nfix, 3, lambda sy, d, pre, new: sy.t(pre[ex]) if fixes(d) else None)]
    if cost:
        hist += [flag(f"h{p}_over", lambda sy, d, pre, new: z3.And(sy.t(pre[ex]), new["src_crystals"] < z3.ZeroExt(
                     4, pre["w_cost_x_value"])) if fixes(d) else None),
                 flag(f"h{p}_ok", lambda sy, d, pre, new: new["resources_ok"] == sy.val(1, 2)
                      if _ev(d, "check_resources", skipped=False) else None)]

    def bad(sy: System, S):
        parts = z3.If(S["part"] == sy.val(0, 3), sy.val(1, 3), S["part"])
        c = z3.And(sy.t(S[ex]), z3.Or(sy.t(S[wrong]), z3.UGT(S[nfix], parts),
                                       z3.And(_done(sy, S), S["part"] != sy.val(0, 3), S[nfix] == sy.val(0, 3))))
        if cost:
            c = z3.Or(c, z3.And(sy.t(S[f"h{p}_over"]), sy.t(S[f"h{p}_ok"])))
        return c

    def premise(sy: System, S):
        return z3.And(sy.t(S[ex]), S[nfix] != sy.val(0, 3), _done(sy, S))

    _form(pid, hist, bad, premise, f"an action with an X of kind {kind} fixes it and completes",
          f"игродействие с X вида {kind} фиксирует его и завершается")


_fixed_at_declaration("P542.2-cost-x", "cost", cost=True)
_fixed_at_declaration("P542.3-targets-x", "targets")
_fixed_at_declaration("P542.4-chosen-x", "magnitude_chosen")


# --- 542.4/542.5: X determined right before the modifiers --------------------------------------------------------

def _right_before(pid: str, kinds: tuple[str, ...], apply_op: str, step_kind: str, tag: str):
    h = lambda n: f"h{tag}_{n}"  # noqa: E731
    live = lambda sy, S: z3.Or([sy.t(S[f"x_{k}_declared"]) for k in kinds])  # noqa: E731
    is_fix = lambda d: _ev(d, "fix_x", skipped=False) and d.params.get("x") in kinds  # noqa: E731
    is_apply = lambda d: _ev(d, apply_op, skipped=False)  # noqa: E731

    def fix_when(sy, d, pre):  # a fix event that fixed something: some X of the kind exists
        return z3.Or([sy.t(pre[f"x_{k}_declared"]) for k in (d.params.get("x"),)])

    def first_apply(sy, d, pre):
        return pre[h("applied")] == sy.val(0, 1)

    hist = [
        counter(h("fixes"), 2, lambda sy, d, pre, new: fix_when(sy, d, pre) if is_fix(d) else None, part=True),
        flag(h("fixed_before_check"), lambda sy, d, pre, new: z3.And(fix_when(sy, d, pre), pre[h("fixes")] == sy.val(0, 2),
                                                      pre[h("checked")] == sy.val(0, 1)) if is_fix(d) else None, part=True),
        flag(h("checked"), lambda sy, d, pre, new: True if d.event == "check_source_legality" else None, part=True),
        HistVar(h("window_between"), 1, 0, lambda sy, d, pre, new: (
            sy.val(0, 1) if _declare(d) else
            z3.If(fix_when(sy, d, pre), sy.val(0, 1), pre[h("window_between")]) if is_fix(d) else
            sy.val(1, 1) if d.event in ("window", "play") else pre[h("window_between")])),
        HistVar(h("last_fix_here"), 1, 0, lambda sy, d, pre, new: (
            sy.val(0, 1) if _declare(d) else
            z3.If(fix_when(sy, d, pre), sy.val(int(d.step_kind == step_kind), 1), pre[h("last_fix_here")]) if is_fix(d)
            else pre[h("last_fix_here")])),
        flag(h("fixed_elsewhere"), lambda sy, d, pre, new: fix_when(sy, d, pre) if is_fix(d) and d.step_kind != step_kind
             else None, part=True),
        flag(h("applied"), lambda sy, d, pre, new: True if is_apply(d) else None, part=True),
        HistVar(h("live"), 1, 0, lambda sy, d, pre, new: (
            sy.val(0, 1) if _declare(d) else
            z3.If(first_apply(sy, d, pre), sy.b(live(sy, new)), pre[h("live")]) if is_apply(d) else pre[h("live")])),
        HistVar(h("bad_at_apply"), 1, 0, lambda sy, d, pre, new: (
            sy.val(0, 1) if _declare(d) else
            z3.If(first_apply(sy, d, pre), sy.b(z3.Or(
                pre[h("fixes")] == sy.val(0, 2), sy.t(pre[h("window_between")]), z3.Not(sy.t(pre[h("last_fix_here")])),
                z3.And(z3.UGT(pre[h("fixes")], sy.val(1, 2)), sy.t(pre[h("fixed_elsewhere")])))), pre[h("bad_at_apply")])
            if is_apply(d) else pre[h("bad_at_apply")])),
        HistVar(h("fixes_before"), 2, 0, lambda sy, d, pre, new: (
            sy.val(0, 2) if _declare(d) else
            z3.If(first_apply(sy, d, pre), pre[h("fixes")], pre[h("fixes_before")]) if is_apply(d) else pre[h("fixes_before")])),
    ]

    def bad(sy: System, S):
        late_check = z3.And(sy.t(S[h("fixed_before_check")]), sy.t(S[h("checked")])) if step_kind == "calculation" else sy.false()
        return z3.And(sy.t(S[h("applied")]), sy.t(S[h("live")]),
                      z3.Or(sy.t(S[h("bad_at_apply")]), late_check, z3.UGT(S[h("fixes")], S[h("fixes_before")])))

    def premise(sy: System, S):
        return z3.And(sy.t(S[h("applied")]), sy.t(S[h("live")]))

    _form(pid, hist, bad, premise, f"an X of kind {'/'.join(kinds)} exists when {apply_op} runs",
          f"X вида {'/'.join(kinds)} существует, когда выполняется {apply_op}")


_right_before("P542.4-computed-x", ("magnitude_computed", "implicit"), "apply_magnitude_modifiers", "calculation", "cx")
_right_before("P542.5-dice-modifier-x", ("dice_modifier",), "apply_dice_modifiers", "dice", "dx")
_right_before("P542.5-magnitude-modifier-x", ("magnitude_modifier",), "apply_magnitude_modifiers", "calculation", "mx")


# --- 542.6: printed values ---------------------------------------------------------------------------------------

def _static_mismatch(sy: System, d, pre, new):
    if not _ev(d, "apply_magnitude_modifiers", skipped=False) or d.params.get("reads", "printed") == "printed":
        return None
    thr = z3.ZeroExt(4, pre["w_tgt_guard_threshold"])
    printed = z3.ZeroExt(4, pre["w_src_movement"])
    current = printed + pre["src_movement_mod"]
    return z3.And(pre["w_tgt_guard_threshold"] != sy.val(0, 4), sy.is_attack(pre), (printed >= thr) != (current >= thr))


_form("P542.6-printed",
      [flag("h6_static", _static_mismatch)],
      lambda sy, S: z3.Or(sy.t(S["h6_static"]), *[sy.t(S[f"x_{k}_not_printed"]) for k in
                                                  ("magnitude_computed", "implicit", "dice_modifier",
                                                   "magnitude_modifier")]),
      lambda sy, S: z3.Or(z3.And(sy.t(S["x_dice_modifier_fixed"]), S["w_src_movement_mod"] != sy.val(0, 8)),
                          z3.And(sy.t(S["x_magnitude_computed_fixed"]), sy.t(S["w_magnitude_x_reads_property"]),
                                 S["w_tgt_movement_mod"] != sy.val(0, 8))),
      "an X reading a modified property is fixed", "фиксируется X, читающий модифицированное свойство")


# --- 512.6.2: the dice step --------------------------------------------------------------------------------------

def _is_reroll_play(d):
    return d.event == "play" and OPTIONS[d.option].feature.kind == "reroll"


def _is_dmod_play(d):
    return d.event == "play" and OPTIONS[d.option].feature.kind == "dice_modifier"


_form("P512.6.2-raw-die",
      [flag("hr_rolled", lambda sy, d, pre, new: True if d.event == "roll_die" else None, part=True),
       flag("hr_raw", lambda sy, d, pre, new: True if d.event == "fix_raw_die" else None, part=True),
       flag("hr_rrclosed", lambda sy, d, pre, new: True if d.event == "window_closed" and "reroll" in d.allows
            else None, part=True),
       flag("hr_rerolled", lambda sy, d, pre, new: True if _is_reroll_play(d) else None, part=True),
       flag("hr_bad", lambda sy, d, pre, new: (
           z3.Or(pre["hr_rolled"] == sy.val(0, 1), pre["hr_raw"] == sy.val(1, 1)) if _is_reroll_play(d) else
           z3.Or(pre["hr_rrclosed"] == sy.val(0, 1),
                 z3.And(new["last_roll"] != sy.val(0, 4), _b(sy, d.skipped) if d.skipped else new["raw_die"] != new["last_roll"]))
           if d.event == "fix_raw_die" else None))],
      lambda sy, S: sy.t(S["hr_bad"]),
      lambda sy, S: z3.And(sy.t(S["hr_rerolled"]), sy.t(S["hr_raw"])),
      "the die is rerolled and then its raw value fixed", "кубик переброшен, затем зафиксировано его значение")

_form("P512.6.2-dice-modifier-window",
      [flag("hw_raw", lambda sy, d, pre, new: True if d.event == "fix_raw_die" else None, part=True),
       flag("hw_played", lambda sy, d, pre, new: True if _is_dmod_play(d) else None),
       flag("hw_bad", lambda sy, d, pre, new: pre["hw_raw"] == sy.val(0, 1) if _is_dmod_play(d) else None)],
      lambda sy, S: sy.t(S["hw_bad"]),
      lambda sy, S: sy.t(S["hw_played"]),
      "a dice modifier is played", "разыгран модификатор броска")


def _final_die_hist():
    fin_first = lambda sy, d, pre: pre["hf_fin"] == sy.val(0, 1)  # noqa: E731
    return [
        flag("hf_rolled", lambda sy, d, pre, new: True if d.event == "roll_die" else None, part=True),
        flag("hf_fin", lambda sy, d, pre, new: True if d.event == "fix_final_die" else None, part=True),
        flag("hf_base", lambda sy, d, pre, new: True if d.event == "determine_base" else None, part=True),
        flag("hf_bbf", lambda sy, d, pre, new: z3.And(pre["hf_base"] == sy.val(0, 1), fin_first(sy, d, pre))
             if d.event == "determine_base" else None, part=True),
        flag("hf_left", lambda sy, d, pre, new: sy.t(pre["hf_fin"]) if d.event == "enter" and d.step_kind != "dice"
             else None, part=True),
        flag("hf_stack", lambda sy, d, pre, new: z3.And(sy.t(pre["hf_fin"]), pre["hf_left"] == sy.val(0, 1),
                                                        sy.t(new["die_on_stack"]))
             if d.event == "enter" and d.step_kind != "dice" else None, part=True),
        flag("hf_app", lambda sy, d, pre, new: True if _ev(d, "apply_dice_modifiers", skipped=False) else None,
             part=True),
        flag("hf_nomods", lambda sy, d, pre, new: z3.And(fin_first(sy, d, pre), sy.t(new["dice_mods_declared"]),
                                                         pre["hf_app"] == sy.val(0, 1))
             if d.event == "fix_final_die" else None, part=True),
        flag("hf_late", lambda sy, d, pre, new: sy.t(pre["hf_fin"]) if _is_dmod_play(d) or _is_reroll_play(d)
             else None, part=True),
    ]


_form("P512.6.2-final-die", _final_die_hist(),
      lambda sy, S: z3.Or(z3.And(sy.t(S["hf_rolled"]), z3.Or(sy.t(S["hf_bbf"]), sy.t(S["hf_stack"]))),
                          sy.t(S["hf_nomods"]), sy.t(S["hf_late"])),
      lambda sy, S: z3.And(sy.t(S["hf_fin"]), sy.t(S["hf_rolled"]), sy.t(S["dice_mods_declared"])),
      "a modified die roll reaches its final value", "модифицированный бросок получает итоговое значение")

_form("P512.6.2-attacks-roll",
      [flag("ha_based", lambda sy, d, pre, new: True if d.event in ("determine_base", "apply_effect") else None,
            part=True),
       flag("ha_rolled", lambda sy, d, pre, new: True if d.event == "roll_die" else None, part=True),
       flag("ha_latch", lambda sy, d, pre, new: z3.And(sy.t(pre["ha_based"]), pre["ha_rolled"] == sy.val(0, 1))
            if _declare(d) else None)],
      lambda sy, S: z3.And(_done(sy, S), sy.is_attack(S), z3.Or(sy.t(S["ha_latch"]), z3.And(
          sy.t(S["ha_based"]), S["ha_rolled"] == sy.val(0, 1)))),
      lambda sy, S: z3.And(_done(sy, S), sy.is_attack(S), sy.t(S["ha_rolled"])),
      "an attack completes", "атака завершается")


# --- 512.6.3–512.6.6 -----------------------------------------------------------------------------------------------

_form("P512.6.3-legality-once",
      [counter("hl_n", 2, lambda sy, d, pre, new: True if _ev(d, "check_source_legality", skipped=False) else None,
               part=True),
       flag("hl_closed", lambda sy, d, pre, new: True if d.event == "window_closed" and d.step_kind == "calculation"
            else None, part=True),
       flag("hl_reached", lambda sy, d, pre, new: True if d.event in ("apply_effect", "finalize_magnitude") else None,
            part=True),
       flag("hl_where", lambda sy, d, pre, new: z3.Or(_b(sy, d.step_kind != "calculation"),
                                                      pre["hl_closed"] == sy.val(0, 1))
            if _ev(d, "check_source_legality", skipped=False) else None),
       flag("hl_latch", lambda sy, d, pre, new: z3.And(sy.t(pre["hl_reached"]), pre["hl_n"] == sy.val(0, 2))
            if _declare(d) else None)],
      lambda sy, S: z3.Or(z3.UGT(S["hl_n"], sy.val(1, 2)), sy.t(S["hl_where"]), z3.And(_done(sy, S), z3.Or(
          sy.t(S["hl_latch"]), z3.And(sy.t(S["hl_reached"]), S["hl_n"] == sy.val(0, 2))))),
      lambda sy, S: z3.And(_done(sy, S), S["hl_n"] != sy.val(0, 2)),
      "legality is checked and the action completes", "легальность проверена, и игродействие завершается")


def _after_illegal(sy, d, pre, new):
    hit = (d.event in ("apply_effect", "finalize_magnitude", "apply_magnitude_modifiers") and not d.skipped) or \
        d.step_kind in ("blocking", "effect")
    return sy.t(pre["hi_ill"]) if hit else None


_form("P512.6.3-illegal",
      [flag("hi_ill", lambda sy, d, pre, new: new["legal"] == sy.val(LEGAL[False], "legal")
            if _ev(d, "check_source_legality", skipped=False) else None, part=True),
       flag("hi_after", _after_illegal, part=True)],
      lambda sy, S: sy.t(S["hi_after"]),
      lambda sy, S: z3.And(sy.t(S["hi_ill"]), _done(sy, S)),
      "an illegal action completes", "нелегальное игродействие завершается")

_form("P512.6.3-final-magnitude",
      [flag("hm_fin", lambda sy, d, pre, new: True if _ev(d, "finalize_magnitude", skipped=False) else None, part=True),
       flag("hm_changed", lambda sy, d, pre, new: sy.t(pre["hm_fin"])
            if _ev(d, "apply_magnitude_modifiers", skipped=False) else None, part=True),
       flag("hm_effpre", lambda sy, d, pre, new: pre["hm_fin"] == sy.val(0, 1) if d.event == "apply_effect" else None,
            part=True)],
      lambda sy, S: z3.Or(sy.t(S["hm_changed"]), z3.And(sy.t(S["hm_fin"]), sy.t(S["hm_effpre"]))),
      lambda sy, S: z3.And(sy.t(S["hm_fin"]), sy.t(S["effect_applied"])),
      "the final magnitude is known and the effect applied", "окончательная величина известна, эффект наложен",
      note="over-approximates: any magnitude-modifier application after the final magnitude counts as a change")


def _is_block_play(d):
    return d.event == "play" and OPTIONS[d.option].feature.kind == "block"


_form("P512.6.4-block",
      [flag("hb_pl", lambda sy, d, pre, new: True if _is_block_play(d) else None, part=True),
       flag("hb_bad", lambda sy, d, pre, new: (True if d.step_kind != "blocking" else None) if _is_block_play(d) else
            (sy.t(pre["hb_pl"]) if _ev(d, "apply_effect", skipped=False) else None))],
      lambda sy, S: sy.t(S["hb_bad"]),
      lambda sy, S: z3.And(sy.t(S["hb_pl"]), _done(sy, S)),
      "a blocked action completes", "заблокированное действие завершается")

_form("P512.6.5-effect",
      [counter("he_n", 2, lambda sy, d, pre, new: True if _ev(d, "apply_effect", skipped=False) else None, part=True),
       flag("he_paid", lambda sy, d, pre, new: True if d.event == "pay_reserved" else None, part=True),
       flag("he_compl", lambda sy, d, pre, new: True if d.event == "enter" and d.step_kind == "completion" else None,
            part=True)],
      lambda sy, S: z3.Or(z3.UGT(S["he_n"], sy.val(1, 2)), z3.And(
          z3.Or(sy.t(S["he_paid"]), _done(sy, S)), S["he_n"] == sy.val(0, 2), S["legal"] == sy.val(LEGAL[True], "legal"),
          S["blocked"] == sy.val(0, 1), sy.t(S["he_compl"]))),
      lambda sy, S: z3.And(S["he_n"] == sy.val(1, 2), _done(sy, S)),
      "a legal unblocked action applies its effect and completes", "легальное незаблокированное действие "
      "накладывает эффект и завершается")


def _is_after_play(d):
    return d.event == "play" and OPTIONS[d.option].feature.kind == "after_ability"


_form("P512.6.6-after",
      [HistVar("hx_rel", 1, 0, lambda sy, d, pre, new: sy.val(0, 1) if d.event == "enter" else (
          sy.val(1, 1) if _ev(d, "release_roles", skipped=False) else pre["hx_rel"])),
       flag("hx_played", lambda sy, d, pre, new: True if _is_after_play(d) else None),
       flag("hx_bad", lambda sy, d, pre, new: (
           (True if d.step_kind != "completion" else sy.t(pre["hx_rel"])) if _is_after_play(d) else
           sy.t(pre["hx_rel"]) if _turn(d) else
           new["roles_released"] == sy.val(0, 1) if _ev(d, "pay_reserved", skipped=False) else None))],
      lambda sy, S: sy.t(S["hx_bad"]),
      lambda sy, S: z3.And(sy.t(S["hx_played"]), sy.t(S["paid_done"])),
      "an «after …» feature is played and payment follows", "разыграна особенность «после …», затем оплата")


# --- 512.7 and 540 ------------------------------------------------------------------------------------------------

def _should_pay(sy: System, pre):
    es, ed = sy.exempt(pre, True, markers_src=z3.Extract(1, 0, pre["w_src_markers"]))
    r = pre["reserved"]
    return z3.Concat(sy.b(sy.bit(r, 2)), sy.b(z3.And(sy.bit(r, 1), z3.Not(ed))), sy.b(z3.And(sy.bit(r, 0), z3.Not(es))))


_form("P512.7-payment",
      [flag("hp_compl", lambda sy, d, pre, new: True if d.event == "enter" and d.step_kind == "completion" else None),
       flag("hp_pay", lambda sy, d, pre, new: True if _ev(d, "pay_reserved", skipped=False) else None),
       flag("hp_rdie", lambda sy, d, pre, new: True if _ev(d, "remove_die_effect", skipped=False) else None),
       flag("hp_removed", lambda sy, d, pre, new: True if _ev(d, "remove_from_stack", skipped=False) else None),
       flag("hp_exempt", lambda sy, d, pre, new: z3.Or(*sy.exempt(pre, True))
            if _ev(d, "pay_reserved", skipped=False) else None),
       flag("hp_where", lambda sy, d, pre, new: z3.Or(pre["hp_compl"] == sy.val(0, 1),
                                                      _b(sy, d.step_kind != "payment"))
            if _ev(d, "pay_reserved", skipped=False) else None),
       flag("hp_amount", lambda sy, d, pre, new: new["paid"] != _should_pay(sy, pre)
            if _ev(d, "pay_reserved", skipped=False) else None),
       flag("hp_late", lambda sy, d, pre, new: sy.t(pre["hp_removed"]) if _turn(d) and d.step_kind == "payment"
            else None)],
      lambda sy, S: z3.Or(sy.t(S["hp_where"]), sy.t(S["hp_amount"]), sy.t(S["hp_late"]),
                          z3.And(_done(sy, S), S["part"] != sy.val(0, 3), sy.t(S["on_stack"])),
                          z3.And(_done(sy, S), sy.t(S["hp_rdie"]), S["hp_pay"] == sy.val(0, 1),
                                 S["reserved"] != sy.val(0, 3))),
      lambda sy, S: z3.And(sy.t(S["hp_pay"]), sy.t(S["hp_exempt"]), _done(sy, S)),
      "a resource-modified action pays and completes", "игродействие с модифицированными ресурсами оплачено и "
      "завершено")


def _want_reserved(sy: System, S):
    return z3.Concat(sy.b(sy.t(S["x_cost_declared"])), sy.b(sy.t(S["w_has_defender"])), sy.val(1, 1))


_form("P540.2-reserved",
      [flag("hv_check", lambda sy, d, pre, new: True if _ev(d, "check_resources", skipped=False) else None),
       flag("hv_mod", lambda sy, d, pre, new: z3.Or(*sy.exempt(pre, True))
            if _ev(d, "reserve_resources", skipped=False) else None),
       flag("hv_bad", lambda sy, d, pre, new: z3.Or(new["reserved"] != _want_reserved(sy, new),
                                                    _b(sy, d.step_kind != "declaration"),
                                                    pre["hv_check"] == sy.val(0, 1))
            if _ev(d, "reserve_resources", skipped=False) else None)],
      lambda sy, S: sy.t(S["hv_bad"]),
      lambda sy, S: sy.t(S["hv_mod"]),
      "a resource-modified action reserves its resources", "игродействие с модифицированными ресурсами "
      "резервирует ресурсы")


def _unpaid(sy: System, d, pre, new):
    if not _ev(d, "pay_reserved", skipped=False):
        return pre["hk_unpaid"]
    es, ed = sy.exempt(pre, d.params.get("exempt_modified", True))
    r = pre["reserved"]
    return sy.b(z3.Or(z3.And(sy.bit(r, 0), es), z3.And(sy.bit(r, 1), ed)))


_form("P540.3-action-marker",
      [HistVar("hk_unpaid", 1, 0, _unpaid)],
      lambda sy, S: z3.And(_done(sy, S), sy.t(S["hk_unpaid"]), z3.Or(
          z3.ULE(z3.ZeroExt(2, S["src_markers"]), S["w_src_markers"]), S["src_markers"] == sy.val(0, 2))),
      lambda sy, S: z3.And(_done(sy, S), sy.t(S["hk_unpaid"])),
      "a resource-modified action leaves a resource unpaid and completes",
      "игродействие с модифицированными ресурсами оставляет ресурс неоплаченным и завершается")

_A, _DS, _DA = OPT_INDEX["a_assault"], OPT_INDEX["d_strike"], OPT_INDEX["d_assault"]


def _return_strike_bad(sy: System, d, pre, new):
    if not _turn(d) or d.step_kind != "effect" or "effect_trigger" not in d.allows:
        return None
    chosen = lambda i: d.option == i  # noqa: E731
    off = lambda i: sy.offered(pre, i, d.allows, pre["window_player"])  # noqa: E731
    ever = lambda i: sy.t(pre[f"hs_ever{i}"])  # noqa: E731
    c = []
    if not chosen(_A):
        c.append(z3.And(sy.is_attack(pre), sy.t(pre["effect_applied"]), pre["window_player"] == sy.val(0, 1), sy.has(pre, _A),
                        z3.Not(ever(_A)), z3.Not(off(_A))))
    rs = z3.And(sy.t(pre["return_strike"]), sy.t(pre["w_has_defender"]), sy.t(pre["effect_applied"]), pre["window_player"] == sy.val(1, 1))
    if not chosen(_DS):
        c.append(z3.And(rs, sy.has(pre, _DS), z3.Not(ever(_DS)), z3.Not(off(_DS))))
    c.append(z3.And(rs, sy.has(pre, _DA), z3.Not(ever(_DA)), sy.true() if chosen(_DA) else off(_DA)))
    return z3.Or(c)


_form("P540.4.1-return-strike",
      [*[flag(f"hs_ever{i}", lambda sy, d, pre, new, i=i: True if d.event == "play" and d.option == i else None)
         for i in (_A, _DS, _DA)],
       flag("hs_bad", _return_strike_bad)],
      lambda sy, S: sy.t(S["hs_bad"]),
      lambda sy, S: z3.And(sy.t(S["return_strike"]), sy.t(S["effect_applied"]), sy.has(S, _DS), sy.t(S[f"hs_ever{_DS}"])),
      "a defender's «on strike» fires on its return strike", "«при ударе» защитника срабатывает на ответный удар")

_form("P512.6-active-player-first",
      [flag("hw1_bad", lambda sy, d, pre, new: True if d.event == "window" and not d.skipped and d.opener != "A" else None),
       flag("hw1_seen", lambda sy, d, pre, new: True if d.event == "window" and not d.skipped else None)],
      lambda sy, S: sy.t(S["hw1_bad"]),
      lambda sy, S: sy.t(S["hw1_seen"]),
      "a priority window opens", "открывается окно приоритета")

_ORDER = list(STEP_ORDER)


def _order_last(sy: System, d, pre, new):
    if d.event != "enter":
        return pre["ho_last"]
    return sy.val(_ORDER.index(d.step_kind) + 1, 4)


def _order_bad(sy: System, d, pre, new):
    if d.event != "enter" or d.step_kind == "declaration":
        return None
    return z3.ULT(sy.val(_ORDER.index(d.step_kind) + 1, 4), pre["ho_last"])


_form("P512.6.1-order",
      [HistVar("ho_last", 4, 0, _order_last), flag("ho_bad", _order_bad)],
      lambda sy, S: sy.t(S["ho_bad"]),
      lambda sy, S: z3.And(_done(sy, S), sy.bit(S["visited"], 0)),
      "an action goes through its steps and completes", "игродействие проходит шаги и завершается")

_MAY = MAY_DECLARE
_MAY_OPTS = [i for i, o in enumerate(OPTIONS) if o.feature.kind in _MAY]
_KBIT = {"dice": 0, "calculation": 1, "blocking": 2}


def _may_offered(i: int):
    kinds = _MAY[OPTIONS[i].feature.kind]

    def when(sy: System, d, pre, new):
        if not _turn(d) or d.step_kind not in kinds:
            return None
        return sy.offered(pre, i, d.allows, pre["window_player"])
    return flag(f"hd_off{i}", when, part=True)


def _may_form(opts: list[int], pid: str, latch_name: str = "hd_latch") -> Form:
    def part_bad(sy: System, S):
        c = []
        for i in opts:
            f = OPTIONS[i].feature
            entered = z3.Or([sy.t(S[f"hd_in_{k}"]) for k in _MAY[f.kind]])
            c.append(z3.And(sy.has(S, i), z3.Not(sy.t(S[f"hd_pl{i}"])), entered, z3.Not(sy.t(S[f"hd_off{i}"])),
                            z3.Not(sy.t(S["hd_block"])) if f.kind == "block" else sy.true()))
        return z3.Or(c)

    def latch(sy: System, d, pre, new):
        # a pulse, not a latch: 1 only in the state right after a declaration that closes a bad part (a
        # latch kept to the end made Spacer show it 0 at every location: 7.0 s against 5.3 s, measured)
        if not _declare(d):
            return sy.val(0, 1)
        return z3.If(part_bad(sy, pre), sy.val(1, 1), sy.val(0, 1))

    def bad(sy: System, S):
        after = sorted({sy.next_loc(d.step, d.op_index) for d in sy.disjuncts if _declare(d)})
        declared = z3.Or([S["pc"] == sy.val(loc, "pc") for loc in after])
        return z3.Or(z3.And(sy.t(S[latch_name]), declared), z3.And(_done(sy, S), part_bad(sy, S)))

    kinds = sorted({k for i in opts for k in _MAY[OPTIONS[i].feature.kind]})
    hist = [*[_may_offered(i) for i in opts],
            *[flag(f"hd_pl{i}", lambda sy, d, pre, new, i=i: True if d.event == "play" and d.option == i else None,
                   part=True) for i in opts],
            *[flag(f"hd_in_{k}", lambda sy, d, pre, new, k=k: True if d.event == "enter" and d.step_kind == k
                   else None, part=True) for k in kinds],
            HistVar(latch_name, 1, 0, latch)]
    if any(OPTIONS[i].feature.kind == "block" for i in opts):
        hist.append(flag("hd_block", lambda sy, d, pre, new: True if _is_block_play(d) else None, part=True))
    return Form(pid, tuple(hist), bad,
                lambda sy, S: z3.And(_done(sy, S), z3.Or([sy.t(S[f"hd_off{i}"]) for i in opts])),
                "a feature a clause allows is offered at its step",
                "особенность, разрешённая пунктом, предложена на шаге", windows=True,
                # linear inlining with branching halves these queries (it slows others down: measured)
                options=(("xform.inline_linear_branch", True),))


_whole = _may_form(_MAY_OPTS, "P512.6-may-declare")
_BY_STEP: dict[str, list[int]] = {}
for _i in _MAY_OPTS:
    _BY_STEP.setdefault(_MAY[OPTIONS[_i].feature.kind][0], []).append(_i)
FORMS[_whole.pid] = Form(_whole.pid, _whole.hist, _whole.bad, _whole.premise, _whole.premise_en, _whole.premise_ru,
                         note="proved one step kind at a time (the features of the menu allowed at dice, calculation, "
                              "blocking: each part has its own cone of influence)",
                         split=tuple(_may_form(ids, f"P512.6-may-declare#{k}", f"hd_latch_{k}")
                                     for k, ids in _BY_STEP.items()), windows=True, options=_whole.options)


_PAYT = [i for i, o in enumerate(OPTIONS) if o.feature.kind == "payment_trigger" and o.feature.on == "payment"]


def _payer_bits(sy: System, new):
    p = new["paid"]
    return z3.Concat(sy.b(sy.bit(p, 1)), sy.b(z3.Or(sy.bit(p, 0), sy.bit(p, 2))))  # bit0: src, bit1: def


def _pt_offered(i: int):
    def update(sy: System, d, pre, new):
        if _ev(d, "pay_reserved", skipped=False):
            return sy.val(0, 1)
        if not _turn(d) or d.step_kind != "payment":
            return pre[f"ht_off{i}"]
        return z3.If(sy.offered(pre, i, d.allows, pre["window_player"]), sy.val(1, 1), pre[f"ht_off{i}"])
    return HistVar(f"ht_off{i}", 1, 0, update)


def _pt_bad(sy: System, S):
    c = []
    for i in _PAYT:
        bit = {"src": 0, "def": 1}[OPTIONS[i].card]
        c.append(z3.And(sy.has(S, i), sy.bit(S["ht_payers"], bit), z3.Not(sy.t(S[f"ht_off{i}"]))))
    return z3.And(sy.t(S["ht_pay"]), _done(sy, S), z3.Or(c))


_form("P512.7-payment-triggers",
      [flag("ht_pay", lambda sy, d, pre, new: True if _ev(d, "pay_reserved", skipped=False) else None),
       latch("ht_payers", 2, lambda d: _ev(d, "pay_reserved", skipped=False), lambda sy, d, pre, new: _payer_bits(
           sy, new)),
       *[_pt_offered(i) for i in _PAYT],
       HistVar("ht_later", 1, 0, lambda sy, d, pre, new: sy.val(0, 1) if _ev(d, "pay_reserved", skipped=False) else (
           sy.val(1, 1) if _turn(d) and d.step_kind == "payment" else pre["ht_later"]))],
      _pt_bad,
      lambda sy, S: z3.And(sy.t(S["ht_pay"]), _done(sy, S), sy.t(S[f"ht_off{_PAYT[0]}"])),
      "an «on payment» feature of a card that paid is offered", "особенность «при оплате» заплатившей карты "
      "предложена",
      note="judged on complete runs: the trace predicate also fires on a prefix where the window is still open "
           "and the paying card's controller has not had priority yet",
      # who is offered what depends on who has priority: without the windows' shape Spacer's first path
      # is spurious (measured: 0.5 s lost before the query with it, 0.25 s)
      windows=True)

_form("P512.6.6-compound", [],
      lambda sy, S: z3.And(S["pc"] == sy.val(sy.done_end, "pc"),
                           S["part"] != z3.Extract(2, 0, S["w_parts_left"]) + sy.val(1, 3)),
      lambda sy, S: z3.And(S["pc"] == sy.val(sy.done_end, "pc"), S["w_parts_left"] == sy.val(1, 4)),
      "a two-part compound feature completes", "составная особенность из двух частей завершается")

_form("P512.5-claims-resolved",
      [flag("hc_bad", lambda sy, d, pre, new: pre["claims"] != sy.val(0, 3)
            if d.event == "enter" and d.step_kind in ("dice", "calculation") else None),
       flag("hc_exec", lambda sy, d, pre, new: True if d.event == "enter" and d.step_kind in ("dice", "calculation")
            else None)],
      lambda sy, S: sy.t(S["hc_bad"]),
      lambda sy, S: sy.t(S["hc_exec"]),
      "the execution stage begins", "начинается этап выполнения")


def form_for(pid: str) -> Form:
    return FORMS[pid]
