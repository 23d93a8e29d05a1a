"""The property catalogue: what the rules mean to guarantee, independently of the rulebook checked.

Each property is a small frozen record — id, clauses, statement in Russian and English — and one
:class:`~.monitor.Monitor`: what it remembers of a run, how each event updates that, when a state is
bad.  Every engine derives from the monitor: the trace predicate :meth:`Property.check`
(:mod:`.monitor_run`, for the interpreter, the explorer, Hypothesis and the rulings) and the Z3 form
(:mod:`.monitor_z3`, for ``prove``).  A monitor reads the events' vocabulary (operation names, the
step *kinds*, the kinds a window admits, the feature played) and the state — never the rulebook, so
a faulty draft is caught.

>>> from ruleproof.model.rulebook import load_rulebook
>>> from ruleproof.model.scenario import load_scenario, run_scenario, shipped_rulings
>>> sc = load_scenario(next(p for p in shipped_rulings() if p.name == "540-kele-attacker.yaml"))
>>> trace = run_scenario(sc, load_rulebook()).trace
>>> [p.id for p in PROPERTIES if p.check(View(trace.events))]
[]
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Iterable

from ruleproof.ground.errors import Location
from ruleproof.model.rulebook import Citation
from ruleproof.model.vocabulary import FEATURE_KINDS, STEP_KINDS, SWAPPED
from ruleproof.reports.finding import Finding

from .monitor import Bad, Monitor, counter, flag, pulse, value
from .monitor_run import Track, Tracker, View, Violation, run

#: the step kinds in the order of 512.6.1 (claim before, payment after): the order the properties hold
#: a trace to (the vocabulary's ranks, not the order of the rulebook under test)
STEP_ORDER = tuple(sorted(STEP_KINDS, key=lambda k: STEP_KINDS[k].rank))

#: feature kinds the clauses let players declare at a step kind, with no further condition
MAY_DECLARE = {
    "reroll": ("dice",), "dice_modifier": ("dice",),
    "magnitude_modifier": ("calculation",), "reduce_to_strength": ("calculation",),
    "sudden_action": ("calculation",), "protection": ("calculation",), "prevention": ("calculation",),
    "replacement": ("calculation",), "block": ("blocking",),
}  # 540.4's resource modifications are declared «по общим правилам» (not in the excerpts): no step named

__all__ = ["Property", "Violation", "View", "PROPERTIES", "BY_ID", "check_all", "tracker", "violations", "exercised", "not_exercised", "property_citations", "MAY_DECLARE",
           "STEP_ORDER"]


@dataclass(frozen=True)
class Property:
    id: str
    clauses: tuple[str, ...]
    ru: str
    en: str
    monitor: Monitor
    line: int = 0  # where the property is defined (for `clauses --against`)
    #: the clauses whose «must» it holds the rules to (an obligation: it fails when something that must
    #: happen does not), beside what it forbids; () — a prohibition only
    obliges: tuple[str, ...] = ()

    def check(self, view: View) -> Violation | None:
        """The property's violation on the trace ``view`` shows, or None."""
        return run(self.monitor, view)


PROPERTIES: list[Property] = []


def prop(pid: str, clauses: tuple[str, ...], ru: str, en: str, monitor: Monitor, obliges: tuple[str, ...] = ()) -> None:
    """A property: ``obliges`` — the clauses (of ``clauses``) whose «must» it holds the rules to."""
    if not set(obliges) <= set(clauses):
        raise ValueError(f"{pid}: obliges {sorted(set(obliges) - set(clauses))}, which it does not cite")
    line = inspect.currentframe().f_back.f_lineno
    PROPERTIES.append(Property(pid, clauses, ru, en, monitor, line, obliges))


# --- the pieces monitors are made of ------------------------------------------------------------------------

def _true(M, ev, pre, new, h):
    return True


def _on_run(op: str, f):
    """``f``'s update at the events where operation ``op`` ran (None elsewhere: not at this event)."""
    return lambda M, ev, pre, new, h: f(M, ev, pre, new, h) if ev.ran(op) else None


def _fixes(kinds: tuple[str, ...]):
    """The ``fix_x`` events (not skipped) of an X of one of ``kinds``."""
    return lambda ev: ev.ran("fix_x") and ev.param("x") in kinds


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


BY_ID: dict[str, Property] = {p.id: p for p in PROPERTIES}


def check_all(events: list, only: Iterable[str] | None = None) -> list[tuple[Property, Violation]]:
    """Every property's violation on a trace (empty: all hold)."""
    wanted = set(only) if only is not None else None
    if wanted is not None and not wanted:
        return []
    props = [p for p in PROPERTIES if wanted is None or p.id in wanted]
    if not events:
        return []
    t = tracker(props, events[0].state)
    return violations(props, t.feed(t.start(), events))


def tracker(props: list[Property], first) -> Tracker:
    """The monitors of ``props`` run together, incrementally, from a world's first state ``first``."""
    return Tracker([p.monitor for p in props], first)


def violations(props: list[Property], track: Track) -> list[tuple[Property, Violation]]:
    """The properties of ``props`` (those the tracker was made with) that ``track`` found violated."""
    return [(p, v) for p, v in zip(props, track.found) if v is not None]


def exercised(props: list[Property], track: Track) -> list[Property]:
    """The properties of ``props`` whose premise held when the run of ``track`` ended (the run played
    the situation the property speaks of)."""
    return [p for p, held in zip(props, track.premised) if held]


def not_exercised(p: Property, engine: str, runs: int, hint: str | dict):
    """The finding of an engine none of whose ``runs`` played the situation property ``p`` speaks of (its
    premise): inconclusive, never "holds" (a vacuous "holds" is no verdict on the rules).  ``hint``: how to
    reach it (a command-line option, the same in both languages, or ``{"ru": …, "en": …}``)."""
    m = p.monitor
    hints = hint if isinstance(hint, dict) else {"ru": hint, "en": hint}
    return Finding(kind="not_exercised", check=p.id, verdict="unknown", engine=engine, clauses=p.clauses, message={
        "en": f"not exercised: in {runs} runs the situation the property speaks of never occurred ({m.premise_en}), "
              f"so «holds» would say nothing; widen the worlds ({hints['en']}) or add a ruling that plays it",
        "ru": f"не проверено: за {runs} прогонов ни разу не возникла ситуация, о которой говорит свойство "
              f"({m.premise_ru}), так что «выполняется» ничего бы не значило; расширьте миры ({hints['ru']}) или "
              f"добавьте разъяснение, которое её разыгрывает"})


def property_citations():
    """A Citation per property (for `clauses --against`: which properties cite a changed clause)."""
    for p in PROPERTIES:
        yield Citation(f"property {p.id}", "property", p.clauses, Location("properties/catalogue.py", p.line))
