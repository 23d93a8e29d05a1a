"""The property catalogue: what the rules mean to guarantee, independently of the rulebook checked.

Each property is a small frozen record — id, clauses, statement in Russian and English, and a
predicate over a trace that returns a :class:`Violation` (the offending events) or None.  The
predicates read only the trace: the events' operation names (the vocabulary), the step *kinds*
announced by ``enter`` events and the states — never the rulebook, so a faulty draft is caught.
``complete`` tells whether the trace is a whole game action (some properties speak of the end).
The ``z3`` slot is filled by the Z3 engine.

>>> from ruleproof.model.rulebook import load_rulebook
>>> from ruleproof.model.scenario import load_scenario, run_scenario, shipped_rulings
>>> sc = load_scenario(next(p for p in shipped_rulings() if p.name == "540-kele-attacker.yaml"))
>>> trace = run_scenario(sc, load_rulebook()).trace
>>> [p.id for p in PROPERTIES if p.check(View(trace.events), True)]
[]
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Callable, Iterable

from ruleproof.model.algebra import exemptions
from ruleproof.model.vocabulary import STEP_KINDS

#: the step kinds in the order of 512.6.1 (claim before, payment after): the order the properties hold
#: a trace to (the vocabulary's ranks, not the order of the rulebook under test)
STEP_ORDER = tuple(sorted(STEP_KINDS, key=lambda k: STEP_KINDS[k].rank))

__all__ = ["Property", "Violation", "View", "PROPERTIES", "BY_ID", "check_all", "property_citations", "MAY_DECLARE",
           "STEP_ORDER"]


@dataclass(frozen=True)
class Violation:
    events: tuple[int, ...]  # seq numbers of the offending events
    ru: str
    en: str


@dataclass(frozen=True)
class Property:
    id: str
    clauses: tuple[str, ...]
    ru: str
    en: str
    check: Callable[["View", bool], Violation | None]
    z3: object | None = None


PROPERTIES: list[Property] = []


def prop(pid: str, clauses: tuple[str, ...], ru: str, en: str):
    """Attach a Property record for the predicate to the catalogue; return the predicate unchanged."""

    def attach(fn):
        PROPERTIES.append(Property(pid, clauses, ru, en, fn))
        return fn

    return attach


class View:
    """A trace seen by the properties: events with the step kind each happened in, cut into parts,
    each part indexed by operation (the explorer checks every property on every run, so the
    predicates look events up — by operation, or the turns at a step kind — instead of scanning
    the trace)."""

    def __init__(self, events: list) -> None:
        self.events = events
        kinds, kind = [], ""
        add = kinds.append
        part: list = []
        index: dict[str, list] = {}
        parts, indexes = [part], [index]
        skips = set()  # the operations some event of which a guard skipped
        turns: dict[str, list] = {}  # step kind -> its plays and passes
        changes, last = [], None  # the events where the action record changes
        for e in events:  # one pass: the step kinds, the parts, each part by operation, ...
            op = e.op
            if op == "enter":
                kind = e.values["kind"]
            skipped = e.values.get("skipped")
            if skipped:
                skips.add(op)
            elif op == "declare" and part:  # a declare its guard skipped declares nothing
                part, index = [], {}
                parts.append(part)
                indexes.append(index)
            add(kind)
            part.append(e)
            found = index.get(op)
            if found is None:
                index[op] = [e]
            else:
                found.append(e)
            if (op == "play" or op == "pass") and not skipped:
                found = turns.get(kind)
                if found is None:
                    turns[kind] = [e]
                else:
                    found.append(e)
            a = e.state.action
            if a is not last:
                changes.append(e)
                last = a
        self.kinds = kinds
        self._parts, self._indexes, self._skips = parts, indexes, skips
        self._ops: dict[tuple, list] = {}
        self._turns, self._changes = turns, changes

    def ops(self, *names: str, skipped: bool = False) -> list:
        """The events of operations ``names`` in trace order (only those a guard skipped, or only
        those it did not).  The lists are shared — cached, or a part's own index — so callers read
        them and never change them."""
        key = (names, skipped)
        found = self._ops.get(key)
        if found is None:  # the properties ask for the same few operations again and again
            if len(names) == 1:  # the parts' lists, in trace order (most traces have it in one part)
                found, name = [], names[0]
                for index in self._indexes:
                    got = index.get(name)
                    if got:
                        found = found + got if found else got
            else:
                found = [e for index in self._indexes for n in names for e in index.get(n, ())]
                found.sort(key=_seq)
            if skipped or not self._skips.isdisjoint(names):
                found = [e for e in found if bool(e.values.get("skipped")) == skipped]
            self._ops[key] = found
        return found

    def turns(self, kind: str) -> list:
        """The ``play`` and ``pass`` events at steps of kind ``kind``, in trace order."""
        return self._turns.get(kind, [])

    def kind(self, e) -> str:
        return self.kinds[e.seq]

    def parts(self) -> list[list]:
        """The trace cut at each ``declare`` that ran (one whose guard skipped it declares no part, as in
        the interpreter's state and the Z3 forms): one list of events per part of a compound feature."""
        return self._parts

    def indexes(self) -> list[dict[str, list]]:
        """For each part of :meth:`parts`, its events by operation (in trace order)."""
        return self._indexes

    def changes(self, after: int = -1) -> list:
        """The events whose action record is not the one of the event before (the first event
        included), with seq greater than ``after``: the only places an action's values can change.
        Records are compared by identity, so an equal record made anew (the explorer reuses events
        run from another history) is listed too: a superset, which the predicates read by value."""
        found = self._changes
        return found[bisect_right(found, after, key=_seq):] if after >= 0 else found

    def window_of(self, e) -> dict | None:
        """The ``window`` event that opened the window a play/pass event belongs to."""
        for prev in reversed(self.events[: e.seq]):
            if prev.op == "window" and prev.values["id"] == e.values.get("window"):
                return prev.values
        return None

    @property
    def final(self):
        return self.events[-1].state


def _seq(e) -> int:
    return e.seq


def _within(events: list, part: list) -> list:
    """The events of ``events`` (in trace order) that belong to ``part`` (a run of seq numbers)."""
    if not events or part[0].seq <= events[0].seq and events[-1].seq <= part[-1].seq:
        return events
    return events[bisect_left(events, part[0].seq, key=_seq):bisect_right(events, part[-1].seq, key=_seq)]


def _merged(index: dict[str, list], *ops: str) -> list:
    """The events of a part's ``index`` with one of the operations ``ops``, in trace order."""
    found = [e for op in ops for e in index.get(op, ())]
    if len(ops) > 1:
        found.sort(key=_seq)
    return found


def _first(index: dict[str, list], op: str, skipped: bool | None = None):
    """The first event of ``op`` in a part (``skipped``: only those skipped, or only those not)."""
    for e in index.get(op, ()):
        if skipped is None or bool(e.values.get("skipped")) == skipped:
            return e
    return None


def _v(events: Iterable, ru: str, en: str) -> Violation:
    return Violation(tuple(e.seq for e in events), ru, en)


def _fixes(view: View, kind: str) -> list:
    return [e for e in view.ops("fix_x") if e.values.get("x") == kind and e.values.get("fixed")]


def _declared_kinds(view: View, kind: str) -> list[str]:
    a = view.events[0].state.action
    return [x.name for x in a.xs if x.kind == kind]


# --- 542: how X is determined and fixed ---------------------------------------------------------------

def _fixed_once_at_declaration(view: View, complete: bool, kind: str, clause: str) -> Violation | None:
    names = _declared_kinds(view, kind)
    if not names:
        return None
    fixes = _fixes(view, kind)
    wrong = [e for e in fixes if view.kind(e) != "declaration"]
    if wrong:
        return _v(wrong, f"X вида {kind} зафиксирован не при объявлении, а на шаге «{view.kind(wrong[0])}» ({clause})",
                  f"X of kind {kind} is fixed at the {view.kind(wrong[0])} step, not at declaration ({clause})")
    parts = len(view.ops("declare"))
    if len(fixes) > max(parts, 1):
        return _v(fixes, f"X вида {kind} определяется повторно ({clause})",
                  f"X of kind {kind} is determined again ({clause})")
    if complete and view.ops("declare") and not fixes:
        return _v(view.ops("declare"), f"X вида {kind} так и не зафиксирован ({clause})",
                  f"X of kind {kind} is never fixed ({clause})")
    if not fixes:
        return None
    first = fixes[0]  # the events before the first fixing have nothing to compare with
    fixed = dict(first.values["fixed"])
    seen = None
    for e in (first, *view.changes(after=first.seq)):  # where the action record changes: X values may
        a = e.state.action
        if a.xs is seen:  # the same X records as the event checked before
            continue
        seen = a.xs
        for name in names:
            if a.x(name).value != fixed.get(name):
                return _v([first, e], f"X {name} изменился после фиксации ({clause})",
                          f"X {name} changed after it was fixed ({clause})")
    return None


@prop("P542.2-cost-x", ("542.2",), "X ресурсов задаётся при объявлении в пределах ресурсов карты и не меняется "
      "до конца игродействия", "cost-X is named at declaration within the card's resources and never changes")
def cost_x(view: View, complete: bool) -> Violation | None:
    found = _fixed_once_at_declaration(view, complete, "cost", "542.2")
    if found:
        return found
    for e in _fixes(view, "cost"):
        a = e.state.action
        for card, res, amount in a.cost:
            x = a.x(amount)
            if x is not None and x.value is not None and e.state.card(card).resource(res) < x.value:
                ok = [c for c in view.ops("check_resources") if c.values.get("ok")]
                if ok:
                    return _v([e, *ok], f"X={x.value} больше, чем у карты есть ресурса {res}, а объявление прошло (542.2)",
                              f"X={x.value} exceeds the card's {res}, yet the declaration passed (542.2)")
    return None


@prop("P542.3-targets-x", ("542.3",), "X целей фиксируется при объявлении и не перепроверяется",
      "target-count X is fixed at declaration and not re-checked")
def targets_x(view: View, complete: bool) -> Violation | None:
    return _fixed_once_at_declaration(view, complete, "targets", "542.3")


@prop("P542.4-chosen-x", ("542.4/b1",), "выбранная величина X фиксируется при заявке",
      "a chosen magnitude X is fixed at the claim")
def chosen_x(view: View, complete: bool) -> Violation | None:
    return _fixed_once_at_declaration(view, complete, "magnitude_chosen", "542.4/b1")


def _right_before(view: View, kinds: tuple[str, ...], apply_op: str, step_kind: str, clause: str) -> Violation | None:
    for ix in view.indexes():
        apply = _first(ix, apply_op, skipped=False)
        if apply is None:
            continue
        fixes = [e for e in ix.get("fix_x", ()) if e.values.get("x") in kinds and e.values.get("fixed")]
        live = [x.name for x in apply.state.action.xs if x.kind in kinds]
        if not live:
            continue
        before = [f for f in fixes if f.seq < apply.seq]
        if not before:
            return _v([apply, *fixes], f"X ({', '.join(kinds)}) не определён перед применением модификаторов ({clause})",
                      f"X ({', '.join(kinds)}) is not determined right before the modifiers are applied ({clause})")
        last = before[-1]
        check = _first(ix, "check_source_legality")
        if step_kind == "calculation" and check is not None and check.seq > before[0].seq:
            return _v([before[0], check], f"X ({', '.join(kinds)}) определён до проверки легальности ({clause})",
                      f"X ({', '.join(kinds)}) was determined before the legality check ({clause})")
        between = [e for e in _merged(ix, "window", "play") if last.seq < e.seq < apply.seq]
        if between or view.kind(last) != step_kind:
            return _v([last, *between, apply], f"X ({', '.join(kinds)}) определён не непосредственно перед "
                      f"модификаторами на шаге «{step_kind}» ({clause})",
                      f"X ({', '.join(kinds)}) is not determined right before the modifiers at the {step_kind} step "
                      f"({clause})")
        if len(fixes) > len(before) or len(before) > 1 and any(view.kind(f) != step_kind for f in before):
            return _v(fixes, f"X ({', '.join(kinds)}) определяется больше одного раза ({clause})",
                      f"X ({', '.join(kinds)}) is determined more than once ({clause})")
    return None


@prop("P542.4-computed-x", ("542.4/b2", "542.8", "512.6.3/b4"),
      "вычисляемый X величины (и неявный X из 542.8) определяется один раз, непосредственно перед модификаторами "
      "величины на шаге расчёта", "computed magnitude-X (and 542.8's implicit X) is determined once, right before "
      "the magnitude modifiers at the calculation step")
def computed_x(view: View, complete: bool) -> Violation | None:
    return _right_before(view, ("magnitude_computed", "implicit"), "apply_magnitude_modifiers", "calculation",
                         "542.4/b2")


@prop("P542.5-dice-modifier-x", ("542.5/b1",), "X модификатора броска вычисляется непосредственно перед "
      "применением модификаторов к кубику", "dice-modifier X is computed right before the dice modifiers apply")
def dice_modifier_x(view: View, complete: bool) -> Violation | None:
    return _right_before(view, ("dice_modifier",), "apply_dice_modifiers", "dice", "542.5/b1")


@prop("P542.5-magnitude-modifier-x", ("542.5/b2",), "X модификатора величины вычисляется непосредственно перед "
      "наложением модификаторов величины", "magnitude-modifier X is computed right before the magnitude modifiers")
def magnitude_modifier_x(view: View, complete: bool) -> Violation | None:
    return _right_before(view, ("magnitude_modifier",), "apply_magnitude_modifiers", "calculation", "542.5/b2")


def _source(state, who: str, owner: str | None):
    a = state.action
    ref = {"self": owner or a.source, "source": a.source, "target": a.targets[0] if a.targets else None,
           "defender": a.defender}.get(who, who)
    return state.card(ref)


@prop("P542.6-printed", ("542.6", "542.6/ex1"), "X и проверки в тексте особенностей берут напечатанные значения "
      "свойств карты, без модификаторов", "X and the checks in feature texts use printed property values, "
      "without modifiers")
def printed_values(view: View, complete: bool) -> Violation | None:
    for e in view.ops("fix_x"):
        for name, value in e.values.get("fixed", ()):
            x = e.state.action.x(name)
            if x is None or x.compute is None or x.compute[0] != "property":
                continue
            card = _source(e.state, x.compute[1], x.owner)
            if value != card.printed_value(x.compute[2]):
                return _v([e], f"X {name} = {value}, а напечатано {card.printed_value(x.compute[2])} (542.6)",
                          f"X {name} = {value}, but the printed value is {card.printed_value(x.compute[2])} (542.6)")
    for e in view.ops("apply_magnitude_modifiers"):
        a = e.state.action
        src = e.state.card(a.source)
        applied = {fid for fid, *_ in e.values.get("applied", ())}
        for t in a.targets:
            for f in e.state.card(t).features:
                if f.kind != "static_modifier" or a.kind not in f.applies_to or f.condition is None:
                    continue
                holds = src.printed_value(f.condition[1]) >= f.condition[2]
                if holds != (f.id in applied):
                    return _v([e], f"условие «{f.id}» проверено не по напечатанному значению (542.6)",
                              f"the condition of {f.id} was not checked on the printed value (542.6)")
    return None


# --- 512.6.2: the dice step ------------------------------------------------------------------------------

def _reroll_windows_closed(ix: dict[str, list]) -> list:
    """The ``window_closed`` events of a part whose window (the latest one opened before with that
    id) allows rerolls."""
    closes, allows = [], {}
    windows, i = ix.get("window", ()), 0
    for c in ix.get("window_closed", ()):
        while i < len(windows) and windows[i].seq < c.seq:
            allows[windows[i].values["id"]] = windows[i].values["allows"]
            i += 1
        if "reroll" in allows.get(c.values["id"], ()):
            closes.append(c)
    return closes


@prop("P512.6.2-raw-die", ("512.6.2/b2",), "значение кубика без модификаторов фиксируется после окна переброса, и это "
      "последнее выпавшее значение", "the raw die is fixed after the reroll window, as the last value rolled")
def raw_die(view: View, complete: bool) -> Violation | None:
    for ix in view.indexes():
        fixes = ix.get("fix_raw_die", ())
        rerolls = [e for e in ix.get("play", ()) if e.values.get("kind") == "reroll"]
        first_roll = _first(ix, "roll_die")
        closes = None
        early = [r for r in rerolls if first_roll is None or r.seq < first_roll.seq]
        if early:
            return _v(early, "переброс заявлен до броска кубика (512.6.2)", "a reroll was declared before the die was rolled (512.6.2)")
        for f in fixes:
            later = [r for r in rerolls if r.seq > f.seq]
            if later:
                return _v([f, *later], "кубик перебрасывался после фиксации его значения (512.6.2)",
                          "the die was rerolled after its value was fixed (512.6.2)")
            rolls = f.state.action.die_rolls
            if rolls and f.values.get("die_raw") != rolls[-1]:
                return _v([f], "зафиксировано не последнее значение кубика (512.6.2)",
                          "the fixed value is not the last one rolled (512.6.2)")
            if closes is None:
                closes = _reroll_windows_closed(ix)
            if not any(c.seq < f.seq for c in closes):
                return _v([f], "значение кубика зафиксировано до окна переброса (512.6.2)",
                          "the die value is fixed before the reroll window (512.6.2)")
    return None


@prop("P512.6.2-dice-modifier-window", ("512.6.2/b3",), "модификаторы броска заявляются только после фиксации "
      "значения кубика, в своём окне", "dice modifiers are declared only after the raw die is fixed, in their window")
def dice_modifier_window(view: View, complete: bool) -> Violation | None:
    for ix in view.indexes():
        raw = _first(ix, "fix_raw_die")
        for e in ix.get("play", ()):
            if e.values.get("kind") == "dice_modifier" and (raw is None or e.seq < raw.seq):
                return _v([e], "модификатор броска заявлен до фиксации значения кубика (512.6.2)",
                          "a dice modifier was declared before the raw die was fixed (512.6.2)")
    return None


@prop("P512.6.2-final-die", ("512.6.2/b3",), "итоговый бросок фиксируется после применения модификаторов и равен "
      "значению с их учётом", "the final die is fixed after the modifiers apply and equals the modified value")
def final_die(view: View, complete: bool) -> Violation | None:
    for ix in view.indexes():
        final = _first(ix, "fix_final_die")
        base = _first(ix, "determine_base")
        rolled = "roll_die" in ix
        if rolled and base is not None and (final is None or final.seq > base.seq):
            return _v([base], "сила/величина определены до фиксации итогового броска (512.6.2)",
                      "strength/magnitude were determined before the final die was fixed (512.6.2)")
        left = [e for e in ix.get("enter", ()) if e.values["kind"] != "dice" and e.seq > (final.seq if final else 0)]
        if rolled and final is not None and left and left[0].state.action.die_effect_on_stack:
            return _v([final, left[0]], "эффект броска кубика не удалён из стека после фиксации (512.6.2)",
                      "the die-roll effect was not removed from the stack after the final value (512.6.2)")
        if final is None:
            continue
        apply = _first(ix, "apply_dice_modifiers", skipped=False)
        mods = final.state.action.dice_mods
        if mods and (apply is None or apply.seq > final.seq):
            return _v([final], "итоговый бросок зафиксирован без учёта заявленных модификаторов (512.6.2)",
                      "the final die was fixed without the declared modifiers (512.6.2)")
        late = [e for e in ix.get("play", ()) if e.values.get("kind") in ("dice_modifier", "reroll")
                and e.seq > final.seq]
        if late:
            return _v([final, *late], "бросок изменён после фиксации итогового значения (512.6.2)",
                      "the roll changed after the final value was fixed (512.6.2)")
    return None


@prop("P512.6.2-attacks-roll", ("512.6.2",), "при атаке кубик бросается всегда",
      "an attack always rolls the die")
def attacks_roll(view: View, complete: bool) -> Violation | None:
    a = view.events[0].state.action
    if not complete or not a.is_attack:
        return None
    for part, ix in zip(view.parts(), view.indexes()):
        if "determine_base" in ix or "apply_effect" in ix:
            if "roll_die" not in ix:
                return _v(part[:1], "атака выполнена без броска кубика (512.6.2)",
                          "an attack was executed without a die roll (512.6.2)")
    return None


# --- 512.6.3–512.6.6 ---------------------------------------------------------------------------------------

@prop("P512.6.3-legality-once", ("512.6.3/b3", "526"), "легальность источника проверяется один раз, после окна шага "
      "расчёта", "source legality is checked exactly once, after the calculation window")
def legality_once(view: View, complete: bool) -> Violation | None:
    for part, ix in zip(view.parts(), view.indexes()):
        checks = [e for e in ix.get("check_source_legality", ()) if not e.values.get("skipped")]
        if len(checks) > 1:
            return _v(checks, "легальность проверена повторно (512.6.3, 526)",
                      "legality was checked again (512.6.3, 526)")
        for c in checks:
            windows = [e for e in ix.get("window_closed", ()) if e.seq < c.seq and view.kind(e) == "calculation"]
            if view.kind(c) != "calculation" or not windows:
                return _v([c], "легальность проверена не после окна шага расчёта (512.6.3)",
                          "legality was not checked after the calculation window (512.6.3)")
        reached_effect = "apply_effect" in ix or "finalize_magnitude" in ix
        if complete and reached_effect and not checks:
            return _v(part[:1], "легальность не проверялась (512.6.3)", "legality was never checked (512.6.3)")
    return None


@prop("P512.6.3-illegal", ("512.6.3/b3",), "нелегальное игродействие переходит к завершению способности: без "
      "блокирования и без эффекта", "an illegal game action goes to completion: no blocking, no effect")
def illegal(view: View, complete: bool) -> Violation | None:
    for part, ix in zip(view.parts(), view.indexes()):
        bad = next((e for e in ix.get("check_source_legality", ()) if e.values.get("legal") is False), None)
        if bad is None:
            continue
        after = [e for e in part if e.seq > bad.seq and (
            e.op in ("apply_effect", "finalize_magnitude", "apply_magnitude_modifiers")
            and not e.values.get("skipped") or view.kind(e) in ("blocking", "effect"))]
        if after:
            return _v([bad, *after[:3]], "после проверки легальности с отрицательным итогом выполнение продолжилось (512.6.3)",
                      "after a failed legality check the execution went on (512.6.3)")
    return None


@prop("P512.6.3-final-magnitude", ("512.6.3/b4",), "окончательная величина, став известной, больше не меняется",
      "once the final magnitude is known nothing changes it")
def final_magnitude(view: View, complete: bool) -> Violation | None:
    for part, ix in zip(view.parts(), view.indexes()):
        fin = _first(ix, "finalize_magnitude", skipped=False)
        if fin is None:
            continue
        final, last = fin.state.action.magnitude_final, part[-1].seq
        for e in view.changes(after=fin.seq):  # where the action record changes: the magnitude may
            if e.seq > last:
                break
            if e.state.action.magnitude_final != final:
                return _v([fin, e], "окончательная величина изменилась после того, как стала известна (512.6.3)",
                          "the final magnitude changed after it was known (512.6.3)")
        early = [e for e in ix.get("apply_effect", ()) if e.seq < fin.seq]
        if early:
            return _v([*early, fin], "эффект наложен до того, как стала известна окончательная величина (512.6.3)",
                      "the effect was applied before the final magnitude was known (512.6.3)")
    return None


@prop("P512.6.4-block", ("512.6.4/b2", "512.6.4/b3"), "блокировать можно только на шаге блокирования; "
      "заблокированное действие не накладывает эффект", "blocks only at the blocking step; a blocked action "
      "applies no effect")
def block(view: View, complete: bool) -> Violation | None:
    for ix in view.indexes():
        for e in ix.get("play", ()):
            if e.values.get("kind") == "block":
                if view.kind(e) != "blocking":
                    return _v([e], f"блок заявлен на шаге «{view.kind(e)}» (512.6.4)",
                              f"a block was declared at the {view.kind(e)} step (512.6.4)")
                effect = [x for x in ix.get("apply_effect", ()) if x.seq > e.seq and not x.values.get("skipped")]
                if effect:
                    return _v([e, *effect], "заблокированное действие наложило эффект (512.6.4)",
                              "a blocked action applied its effect (512.6.4)")
    return None


@prop("P512.6.5-effect", ("512.6.5",), "эффект легального незаблокированного действия накладывается ровно один раз",
      "the effect of a legal, unblocked action is applied exactly once")
def effect_once(view: View, complete: bool) -> Violation | None:
    parts = view.parts()
    for part, ix in zip(parts, view.indexes()):
        done = [e for e in ix.get("apply_effect", ()) if not e.values.get("skipped")]
        if len(done) > 1:
            return _v(done, "эффект наложен дважды (512.6.5)", "the effect was applied twice (512.6.5)")
        end = part[-1].state.action
        ended = any(e is not part[0] for op in ("pay_reserved", "declare") for e in ix.get(op, ())) or (
            complete and part is parts[-1])
        if ended and not done and end.legal and not end.blocked and any(e.values["kind"] == "completion"
                                                                      for e in ix.get("enter", ())):
            return _v(part[:1], "действие дошло до завершения, а эффект не наложен (512.6.5)",
                      "the action reached completion without applying its effect (512.6.5)")
    return None


@prop("P512.6.6-after", ("512.6.6/b2", "512.6.6/b3"), "«после …» заявляются только на шаге завершения, после "
      "эффекта; роли снимаются до оплаты", "«after …» only at the completion step, after the effect; roles are "
      "released before payment")
def after_ability(view: View, complete: bool) -> Violation | None:
    for e in view.ops("play"):
        if e.values.get("kind") == "after_ability" and view.kind(e) != "completion":
            return _v([e], f"«после …» заявлено на шаге «{view.kind(e)}» (512.6.6)",
                      f"«after …» was declared at the {view.kind(e)} step (512.6.6)")
    for rel in view.ops("release_roles"):
        same_step = []
        for e in view.events[rel.seq + 1:]:
            if e.op == "enter":
                break
            same_step.append(e)
        pending = [e for e in same_step if e.op in ("play", "pass")]
        if pending:
            return _v([rel, pending[0]], "роли сняты до того, как выполнены особенности «после …» (512.6.6)",
                      "roles were released before the «after …» features were done (512.6.6)")
    for pay in view.ops("pay_reserved"):
        if not pay.state.action.roles_released:
            return _v([pay], "оплата началась, а роли карт не сняты (512.6.6)",
                      "payment began with the card roles not released (512.6.6)")
    return None


# --- 512.7 and 540: payment ------------------------------------------------------------------------------------

def _expected_exempt(state, markers_before: dict[str, int]) -> set[tuple[str, str]]:
    """(card, resource) pairs that 540 says are not paid — the meaning of 540's texts
    (:func:`ruleproof.model.semantics.exempts`), never the rulebook's parameters; 540.3.1 counts the
    action markers the card had when it acted (``markers_before``)."""
    return set(exemptions(state, markers_before))


@prop("P512.7-payment", ("512.7", "512.7/b1", "540.2", "540.1.1", "540.1.2", "540.3.1", "540.4"),
      "оплата идёт после завершения способности и оплачивает ровно зарезервированное, кроме модифицированного",
      "payment follows completion and pays exactly the reserved resources minus the modified ones")
def payment(view: View, complete: bool) -> Violation | None:
    pays = view.ops("pay_reserved")
    for pay in pays:
        completion = any(e.values["kind"] == "completion" and e.seq < pay.seq for e in view.ops("enter"))
        if not completion or view.kind(pay) != "payment":
            return _v([pay], "оплата прошла не после шага завершения способности (512.7)",
                      "payment did not follow the completion step (512.6.6, 512.7)")
        before = view.events[pay.seq - 1].state
        exempt = _expected_exempt(before, {c.id: c.action_markers for c in view.events[0].state.cards})
        should = sorted((c, r, n) for c, r, n in before.action.reserved if (c, r) not in exempt)
        paid = sorted(tuple(p) for p in pay.values.get("paid", ()))
        if paid != should:
            return _v([pay], f"оплачено {paid}, а следовало {should} (512.7, 540.2)",
                      f"paid {paid}, but should have paid {should} (512.7, 540.2)")
    for rm in view.ops("remove_from_stack"):
        late = [e for e in view.turns("payment") if e.seq > rm.seq]
        if late:
            return _v([rm, late[0]], "особенность удалена из стека до срабатываний при оплате (512.7)",
                      "the feature left the stack before the payment triggers were done (512.7)")
    if complete and view.ops("declare") and view.final.action.on_stack:
        return _v(view.events[-1:], "особенность осталась в стеке после оплаты (512.7)",
                  "the feature stayed on the stack after payment (512.7)")
    if complete and view.ops("remove_die_effect") and not pays and view.final.action.reserved:
        return _v(view.events[-1:], "зарезервированные ресурсы так и не оплачены (512.7)",
                  "the reserved resources were never paid (512.7)")
    return None


@prop("P540.2-reserved", ("540.2",), "модифицированные ресурсы по-прежнему требуются и резервируются при объявлении",
      "modified resources are still required and still reserved at declaration")
def still_reserved(view: View, complete: bool) -> Violation | None:
    for e in view.ops("reserve_resources"):
        a = e.state.action
        want = set()
        for card, res, amount in a.cost:
            x = a.x(amount)
            want.add((card, res, int(amount) if amount.isdigit() else (x.value if x and x.value is not None else 0)))
        got = {tuple(r) for r in a.reserved}
        if got != want:
            return _v([e], f"зарезервировано {sorted(got)}, а нужно {sorted(want)} (540.2)",
                      f"reserved {sorted(got)}, but {sorted(want)} is required (540.2)")
        if view.kind(e) != "declaration":
            return _v([e], "ресурсы зарезервированы не при объявлении (540.2)",
                      "the resources were not reserved at declaration (540.2)")
        checks = [c for c in view.ops("check_resources") if c.seq < e.seq]
        if not checks:
            return _v([e], "ресурсы зарезервированы без проверки их наличия (540.2)",
                      "the resources were reserved without checking the card has them (540.2)")
    return None


@prop("P540.3-action-marker", ("540.3",), "игродействие с модифицированными ресурсами всё равно даёт карте маркер "
      "действия, и она теряет возможность двигаться", "a resource-modified action still gives the card an action "
      "marker, and it can no longer move")
def action_marker(view: View, complete: bool) -> Violation | None:
    if not complete:
        return None
    pays = view.ops("pay_reserved")
    if not pays or not pays[-1].values.get("unpaid"):
        return None
    a0 = view.events[0].state.action
    start = view.events[0].state.card(a0.source).action_markers
    end = view.final.card(a0.source)
    if end.action_markers <= start or end.can_move:
        return _v(pays[-1:], "игродействие с модифицированными ресурсами не дало маркер действия (540.3)",
                  "the resource-modified action gave no action marker (540.3)")
    return None


def _assault_offered(view: View) -> Violation | None:
    for e in view.turns("effect"):
        a = e.state.action
        if not a.is_attack or not a.effect_applied:
            continue
        window = view.window_of(e) or {}
        source = e.state.card(a.source)
        if "effect_trigger" not in window.get("allows", ()) or source.controller != e.values.get("player"):
            continue
        played_before = {p.values["feature"] for p in view.ops("play") if p.seq < e.seq}
        for f in source.features:
            if f.kind == "effect_trigger" and f.trigger == "assault" and f.id not in played_before \
                    and f.id not in e.values.get("offered", ()) and e.values.get("feature") != f.id:
                return _v([e], f"«при нападении» ({f.id}) не предложено на удар нападающего (540.4.1)",
                          f"«on assault» ({f.id}) was not offered on the attacker's own strike (540.4.1)")
    return None


@prop("P540.4.1-return-strike", ("540.4.1",), "«при ударе/атаке» срабатывает и на ответный удар защитника, "
      "«при нападении» — нет", "«on strike/attack» also fires on a defender's return strike; «on assault» does not")
def return_strike(view: View, complete: bool) -> Violation | None:
    found = _assault_offered(view)
    if found:
        return found
    for e in view.turns("effect"):
        if e.values.get("window") is None:
            continue
        a = e.state.action
        if not a.return_strike or a.defender is None or not a.effect_applied:
            continue
        defender = e.state.card(a.defender)
        if defender.controller != e.values.get("player"):
            continue
        offered = set(e.values.get("offered", ()))
        played_before = {p.values["feature"] for p in view.ops("play") if p.seq < e.seq}
        window = view.window_of(e) or {}
        if "effect_trigger" not in window.get("allows", ()):
            continue
        for f in defender.features:
            if f.kind != "effect_trigger" or f.id in played_before:
                continue
            strike_only = a.defender != a.source
            if f.trigger == "strike" and f.id not in offered and e.values.get("feature") != f.id:
                return _v([e], f"«при ударе» ({f.id}) не предложено на ответный удар (540.4.1)",
                          f"«on strike» ({f.id}) was not offered on the return strike (540.4.1)")
            if f.trigger == "assault" and strike_only and (f.id in offered or e.values.get("feature") == f.id):
                return _v([e], f"«при нападении» ({f.id}) предложено на ответный удар (540.4.1)",
                          f"«on assault» ({f.id}) was offered on the return strike (540.4.1)")
    return None


# --- every window -------------------------------------------------------------------------------------------

@prop("P512.6-active-player-first", ("512.6.2/b2", "512.6.2/b3", "512.6.3/b1", "512.6.4/b1", "512.6.6/b1"),
      "в каждом окне приоритет первым получает Активный Игрок", "the active player gets priority first in every window")
def active_first(view: View, complete: bool) -> Violation | None:
    for e in view.ops("window"):
        if e.values.get("first") != e.state.active_player:
            return _v([e], f"в окне {e.values['id']} первым приоритет получил не Активный Игрок (512.6)",
                      f"in window {e.values['id']} the active player did not get priority first (512.6)")
    return None


@prop("P512.6.1-order", ("512.6.1", "512.6.6/b4"), "шаги выполнения идут в порядке 512.6.1, оплата — после них",
      "the execution steps come in 512.6.1's order, payment after them")
def step_order(view: View, complete: bool) -> Violation | None:
    order = STEP_ORDER
    last = -1
    for e in view.ops("enter"):
        rank = order.index(e.values["kind"])
        if e.values["kind"] == "declaration":
            last = -1
        if rank < last:
            return _v([e], f"шаг «{e.values['kind']}» идёт не в порядке 512.6.1",
                      f"the {e.values['kind']} step comes out of 512.6.1's order")
        last = rank
    return None


#: feature kinds the clauses let players declare at a step kind, with no further condition
MAY_DECLARE = {
    "reroll": ("dice",), "dice_modifier": ("dice",),
    "magnitude_modifier": ("calculation",), "reduce_to_strength": ("calculation",),
    "sudden_action": ("calculation",), "protection": ("calculation",), "prevention": ("calculation",),
    "replacement": ("calculation",), "block": ("blocking",),
}  # 540.4's resource modifications are declared «по общим правилам» (not in the excerpts): no step named


@prop("P512.6-may-declare", ("512.6.2/b2", "512.6.2/b3", "512.6.3/b2", "512.6.4/b2"),
      "особенности, которые пункт разрешает заявлять на шаге, предлагаются игроку в окне этого шага",
      "the features a clause lets a player declare at a step are offered to them in that step's window")
def may_declare(view: View, complete: bool) -> Violation | None:
    parts = view.parts()
    for n, (part, ix) in enumerate(zip(parts, view.indexes())):
        if not complete and n == len(parts) - 1:
            continue  # the part is unfinished: its windows may be still to come
        plays = ix.get("play", ())
        played = {e.values["feature"] for e in plays}
        blocked = any(e.values.get("kind") == "block" for e in plays)
        steps_done = {e.values["kind"] for e in ix.get("enter", ())}  # an enter event's step kind is its own
        state = part[0].state
        for card in state.cards:
            for f in card.features:
                kinds = MAY_DECLARE.get(f.kind)
                if not kinds or f.id in played:
                    continue
                if f.kind == "block" and blocked:
                    continue  # the action is blocked already
                if not any(k in steps_done for k in kinds):
                    continue
                mine = [e for k in kinds for e in _within(view.turns(k), part) if e.values.get("player") == card.controller]
                if len(kinds) > 1:
                    mine.sort(key=_seq)
                if not any(f.id in e.values.get("offered", ()) for e in mine):
                    where = mine[:1] or [e for e in ix.get("enter", ()) if e.values["kind"] in kinds][:1]
                    return _v(where, f"«{f.id}» ({f.kind}) не предложена на шаге «{'/'.join(kinds)}»",
                              f"{f.id} ({f.kind}) was not offered at the {'/'.join(kinds)} step")
    return None


@prop("P512.7-payment-triggers", ("512.7/b2",), "после оплаты срабатывают особенности «при оплате» карт, которые "
      "платили", "after paying, the «on payment» features of the cards that paid fire")
def payment_triggers(view: View, complete: bool) -> Violation | None:
    for pay in view.ops("pay_reserved"):
        payers = {c for c, _, _ in pay.values.get("paid", ())}
        later = [e for e in view.turns("payment") if e.seq > pay.seq]
        kinds = view.kinds
        closed = any(e.seq > pay.seq and kinds[e.seq] == "payment" for e in view.ops("window_closed"))
        if not complete and not closed:  # a prefix inside the window: not every player has had priority yet
            continue
        for card in pay.state.cards:
            for f in card.features:
                if f.kind == "payment_trigger" and f.on == "payment" and card.id in payers:
                    if not any(f.id in e.values.get("offered", ()) for e in later):
                        return _v([pay], f"«{f.id}» («при оплате») не сработала после оплаты (512.7)",
                                  f"{f.id} («on payment») did not fire after paying (512.7)")
    return None


@prop("P512.6.6-compound", ("512.6.6/b4",), "составная особенность после завершения способности переходит к "
      "следующему этапу формирования заявки, пока её части не исчерпаны", "a compound feature goes on to its next "
      "claim-forming stage after completion until its parts are done")
def compound(view: View, complete: bool) -> Violation | None:
    if not complete or view.events[-1].op != "end":
        return None
    a = view.events[0].state.action
    parts = a.parts_left + 1
    declared = view.ops("declare")
    if len(declared) != parts:
        return _v(declared or view.events[:1], f"частей объявлено {len(declared)} из {parts} (512.6.6)",
                  f"{len(declared)} of {parts} parts were declared (512.6.6)")
    return None


@prop("P512.5-claims-resolved", ("512.5/t1",), "этап выполнения начинается, когда все заявки разрешены",
      "the execution stage begins once every claim is resolved")
def claims_resolved(view: View, complete: bool) -> Violation | None:
    for e in view.ops("enter"):
        if e.values["kind"] in ("dice", "calculation") and e.state.claims:
            return _v([e], f"этап выполнения начался при неразрешённых заявках {list(e.state.claims)} (512.5)",
                      f"the execution stage began with unresolved claims {list(e.state.claims)} (512.5)")
    return None


BY_ID: dict[str, Property] = {p.id: p for p in PROPERTIES}


def check_all(events: list, complete: bool, only: Iterable[str] | None = None) -> list[tuple[Property, Violation]]:
    """Every property's violation on a trace (empty: all hold)."""
    wanted = set(only) if only is not None else None
    if wanted is not None and not wanted:
        return []
    view = View(events)
    return [(p, v) for p in PROPERTIES if (wanted is None or p.id in wanted) and (v := p.check(view, complete))]


def property_citations():
    """A Citation per property (for `clauses --against`: which properties cite a changed clause)."""
    import inspect

    from ruleproof.errors import Location
    from ruleproof.model.rulebook import Citation

    for p in PROPERTIES:
        line = inspect.getsourcelines(p.check)[1]
        yield Citation(f"property {p.id}", "property", p.clauses, Location("properties/catalogue.py", line))
