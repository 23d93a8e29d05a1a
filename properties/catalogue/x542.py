"""Properties of 542: how X is determined and fixed — at declaration, right before it is read, from printed values."""

from __future__ import annotations

from ..monitor import Bad, Monitor, counter, flag, value
from .core import _fixes, _true, prop

# --- 542: how X is determined and fixed ---------------------------------------------------------------------

def _fixed_at_declaration(pid: str, kind: str, clause: str, cost: bool = False) -> Monitor:
    """542.2–542.4: an X of ``kind`` is fixed at declaration, once per part, and is fixed by the end."""
    ex = f"x_{kind}_declared"
    p = pid.split("-")[0][1:].replace(".", "_")
    wrong, nfix, over, ok, parts = f"h{p}_wrong", f"h{p}_nfix", f"h{p}_over", f"h{p}_ok", f"h{p}_parts"
    fixes = _fixes((kind,))
    hist = [flag(wrong, "fix_x", lambda M, ev, pre, new, h: M.and_(M.on(M.get(pre, ex)), ev.kind != "declaration")
                 if fixes(ev) else None),
            counter(parts, 3, "declare", lambda M, ev, pre, new, h: True if not ev.skipped else None),
            counter(nfix, 3, "fix_x", lambda M, ev, pre, new, h: M.on(M.get(pre, ex)) if fixes(ev) else None)]
    # a fix is counted (and judged) only where an X of the kind exists: the history says it all
    bad = [Bad(lambda M, S, h: M.on(h[wrong]),
               f"X вида {kind} зафиксирован не при объявлении ({clause})",
               f"X of kind {kind} is fixed at another step than the declaration ({clause})"),
           Bad(lambda M, S, h: M.ugt(h[nfix], M.ite(M.off(h[parts]), M.num(1, 3), h[parts])),
               f"X вида {kind} определяется повторно ({clause})", f"X of kind {kind} is determined again ({clause})"),
           Bad(lambda M, S, h: M.and_then(M.and_(M.done(S), M.off(h[nfix])), lambda: M.and_(
               M.on(M.get(S, ex)), M.not_(M.off(M.get(S, "part"))))),
               f"X вида {kind} так и не зафиксирован ({clause})", f"X of kind {kind} is never fixed ({clause})")]
    if cost:
        # per part: a compound feature's later part is declared and checked afresh (512.6.6/b4)
        hist += [flag(over, "fix_x", lambda M, ev, pre, new, h: M.and_(M.on(M.get(pre, ex)), M.cost_x_exceeds(new))
                      if fixes(ev) else None, part=True),
                 flag(ok, "check_resources", lambda M, ev, pre, new, h: M.field_is(new, "resources_ok", True)
                      if ev.ran("check_resources") else None, part=True)]
        bad.append(Bad(lambda M, S, h: M.and_(M.on(h[over]), M.on(h[ok])),
                       "X больше, чем у карты есть ресурса, а объявление прошло (542.2)",
                       "the X exceeds what the card has of the resource, yet the declaration passed (542.2)"))
    return Monitor(pid, tuple(hist), tuple(bad),
                   lambda M, S, h: M.and_then(M.not_(M.off(h[nfix])), lambda: M.and_(M.on(M.get(S, ex)), M.done(S))),
                   f"an action with an X of kind {kind} fixes it and completes",
                   f"игродействие с X вида {kind} фиксирует его и завершается")


prop("P542.2-cost-x", ("542.2",), "X ресурсов задаётся при объявлении в пределах ресурсов карты и не меняется "
     "до конца игродействия", "cost-X is named at declaration within the card's resources and never changes",
     _fixed_at_declaration("P542.2-cost-x", "cost", "542.2", cost=True))
prop("P542.3-targets-x", ("542.3",), "X целей фиксируется при объявлении и не перепроверяется",
     "target-count X is fixed at declaration and not re-checked",
     _fixed_at_declaration("P542.3-targets-x", "targets", "542.3"))


def _fizzled(M, S, h):
    """The run is over, a target is no longer in the active zone, and the action — its declaration
    standing, not found illegal, not blocked — never entered the effect step of this part."""
    return M.and_then(M.and_(M.done(S), M.off(h["htg_eff"])), lambda: M.and_(
        M.holds(S, "target_gone"), M.not_(M.legal_is(S, False)), M.off(M.get(S, "blocked")),
        M.not_(M.field_is(S, "resources_ok", False))))


prop("P542.3-targets-unchecked", ("542.3", "512.6.1"), "число целей после объявления не проверяется: игродействие, "
     "цель которого покинула активную зону, не прекращается из-за этого — легальное незаблокированное действие "
     "проходит шаг применения эффекта", "the number of targets is not checked after the declaration: an action "
     "whose target has left the active zone does not stop for it — a legal, unblocked action goes through the "
     "effect step",
     Monitor("P542.3-targets-unchecked",
             (flag("htg_eff", "enter", lambda M, ev, pre, new, h: True if ev.kind == "effect" else None, part=True),),
             (Bad(_fizzled, "цель покинула активную зону, и игродействие закончилось без шага применения эффекта: "
                  "число целей перепроверено (542.3)", "a target left the active zone and the action ended without "
                  "the effect step: the number of targets was checked again (542.3)"),),
             lambda M, S, h: M.and_(M.done(S), M.holds(S, "target_gone"), M.on(h["htg_eff"])),
             "an action whose target left the active zone goes through the effect step and completes",
             "игродействие, цель которого покинула активную зону, проходит шаг применения эффекта и завершается"))
prop("P542.4-chosen-x", ("542.4/b1",), "выбранная величина X фиксируется при заявке",
     "a chosen magnitude X is fixed at the claim",
     _fixed_at_declaration("P542.4-chosen-x", "magnitude_chosen", "542.4/b1"))


def _right_before(pid: str, kinds: tuple[str, ...], apply_op: str, step_kind: str, tag: str, clause: str) -> Monitor:
    """542.4/b2, 542.5: an X of ``kinds`` is determined once, right before ``apply_op`` at ``step_kind``
    (and, at the calculation step, after the legality check)."""
    def h_(n):
        return f"h{tag}_{n}"

    fixes_, checked_, between_, last_here_, elsewhere_, applied_, live_, bad_at_apply_, fixes_before_, before_check_ = (
        h_(n) for n in ("fixes", "checked", "window_between", "last_fix_here", "fixed_elsewhere", "applied", "live",
                        "bad_at_apply", "fixes_before", "fixed_before_check"))
    declared = {k: f"x_{k}_declared" for k in kinds}

    is_fix, what = _fixes(kinds), "/".join(kinds)

    def fix_when(M, ev, pre):  # a fix that fixed something: an X of its kind exists
        return M.on(M.get(pre, declared[ev.param("x")]))

    def first_apply(M, h):
        return M.off(h[applied_])

    def live(M, S):
        return M.or_(*[M.on(M.get(S, declared[k])) for k in kinds])

    def window_between(M, ev, pre, new, h):
        if ev.ran("declare"):
            return 0
        if is_fix(ev):
            return M.ite(fix_when(M, ev, pre), M.num(0, 1), h[between_])
        return 1 if ev.op in ("window", "play") else None

    def last_fix_here(M, ev, pre, new, h):
        if ev.ran("declare"):
            return 0
        return M.ite(fix_when(M, ev, pre), M.num(int(ev.kind == step_kind), 1), h[last_here_]) \
            if is_fix(ev) else None

    def var_at_apply(var: str, width: int, first):
        """A variable that takes ``first(...)`` at the first application in a part (0 at a declaration)."""
        name = h_(var)

        def update(M, ev, pre, new, h):
            if ev.ran("declare"):
                return 0
            return M.ite(first_apply(M, h), first(M, ev, pre, new, h), h[name]) if ev.ran(apply_op) else None
        return value(name, width, ("declare", apply_op), update)

    hist = [
        counter(fixes_, 2, "fix_x", lambda M, ev, pre, new, h: fix_when(M, ev, pre) if is_fix(ev) else None,
                part=True),
        flag(before_check_, "fix_x", lambda M, ev, pre, new, h: M.and_(
            fix_when(M, ev, pre), M.off(h[fixes_]), M.off(h[checked_])) if is_fix(ev) else None, part=True),
        flag(checked_, "check_source_legality", _true, part=True),
        value(between_, 1, ("declare", "fix_x", "window", "play"), window_between),
        value(last_here_, 1, ("declare", "fix_x"), last_fix_here),
        flag(elsewhere_, "fix_x", lambda M, ev, pre, new, h: fix_when(M, ev, pre)
             if is_fix(ev) and ev.kind != step_kind else None, part=True),
        flag(applied_, apply_op, lambda M, ev, pre, new, h: True if ev.ran(apply_op) else None, part=True),
        var_at_apply("live", 1, lambda M, ev, pre, new, h: M.bit(live(M, new))),
        var_at_apply("bad_at_apply", 1, lambda M, ev, pre, new, h: M.bit(M.or_(
            M.off(h[fixes_]), M.on(h[between_]), M.not_(M.on(h[last_here_])),
            M.and_(M.ugt(h[fixes_], M.num(1, 2)), M.on(h[elsewhere_]))))),
        var_at_apply("fixes_before", 2, lambda M, ev, pre, new, h: h[fixes_]),
    ]

    def applied_live(M, S, h):
        return M.and_(M.on(h[applied_]), M.on(h[live_]))

    bad = [Bad(lambda M, S, h: M.and_(applied_live(M, S, h), M.on(h[bad_at_apply_])),
               f"X ({what}) определён не непосредственно перед модификаторами на шаге «{step_kind}» ({clause})",
               f"X ({what}) is not determined right before the modifiers at the {step_kind} step ({clause})"),
           Bad(lambda M, S, h: M.and_(applied_live(M, S, h), M.ugt(h[fixes_], h[fixes_before_])),
               f"X ({what}) определяется повторно после применения модификаторов ({clause})",
               f"X ({what}) is determined again after the modifiers were applied ({clause})")]
    if step_kind == "calculation":
        bad.append(Bad(lambda M, S, h: M.and_(applied_live(M, S, h), M.on(h[before_check_]), M.on(h[checked_])),
                       f"X ({what}) определён до проверки легальности ({clause})",
                       f"X ({what}) was determined before the legality check ({clause})"))
    return Monitor(pid, tuple(hist), tuple(bad), applied_live, f"an X of kind {what} exists when {apply_op} runs",
                   f"X вида {what} существует, когда выполняется {apply_op}")


prop("P542.4-computed-x", ("542.4/b2", "542.8", "512.6.3/b4"),
     "вычисляемый X величины (и неявный X из 542.8) определяется один раз, непосредственно перед модификаторами "
     "величины на шаге расчёта", "computed magnitude-X (and 542.8's implicit X) is determined once, right before "
     "the magnitude modifiers at the calculation step",
     _right_before("P542.4-computed-x", ("magnitude_computed", "implicit"), "apply_magnitude_modifiers", "calculation",
                   "cx", "542.4/b2"))
prop("P542.5-dice-modifier-x", ("542.5/b1",), "X модификатора броска вычисляется непосредственно перед "
     "применением модификаторов к кубику", "dice-modifier X is computed right before the dice modifiers apply",
     _right_before("P542.5-dice-modifier-x", ("dice_modifier",), "apply_dice_modifiers", "dice", "dx", "542.5/b1"))
prop("P542.5-magnitude-modifier-x", ("542.5/b2",), "X модификатора величины вычисляется непосредственно перед "
     "наложением модификаторов величины", "magnitude-modifier X is computed right before the magnitude modifiers",
     _right_before("P542.5-magnitude-modifier-x", ("magnitude_modifier",), "apply_magnitude_modifiers", "calculation",
                   "mx", "542.5/b2"))

_PRINTED_X = ("magnitude_computed", "implicit", "dice_modifier", "magnitude_modifier")

prop("P542.6-printed", ("542.6", "542.6/ex1"), "X и проверки в тексте особенностей берут напечатанные значения "
     "свойств карты, без модификаторов", "X and the checks in feature texts use printed property values, "
     "without modifiers",
     Monitor("P542.6-printed",
             (flag("h6_static", "apply_magnitude_modifiers", lambda M, ev, pre, new, h: M.reading_matters(
                 pre, ev.param("reads")) if ev.ran("apply_magnitude_modifiers") and ev.param("reads", "printed") != "printed"
                 else None),
              # an X takes its value only where it is fixed (and a printed value never changes)
              flag("h6_x", "fix_x", lambda M, ev, pre, new, h: M.x_not_printed(new, _PRINTED_X)
                   if ev.ran("fix_x") else None),
              flag("h6_fixed", "fix_x", lambda M, ev, pre, new, h: True if ev.ran("fix_x") else None)),
             (Bad(lambda M, S, h: M.on(h["h6_static"]), "условие модификатора проверено не по напечатанному значению (542.6)",
                  "a modifier's condition was not checked on the printed value (542.6)"),
              Bad(lambda M, S, h: M.on(h["h6_x"]),
                  "X зафиксирован не по напечатанному значению свойства (542.6)",
                  "an X was fixed at a value other than the printed property (542.6)")),
             lambda M, S, h: M.and_then(M.on(h["h6_fixed"]), lambda: M.x_reads_modified(S)),
             "an X reading a modified property is fixed", "фиксируется X, читающий модифицированное свойство"))


