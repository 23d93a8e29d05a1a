"""The property catalogue: holds on the bundled rules' rulings, and every property bites."""

from __future__ import annotations

import hashlib
import itertools
from pathlib import Path

import pytest

from ruleproof.generators.mutants import MUTANTS, PUBLIC, mutant_yaml
from ruleproof.model.clauses import default_index
from ruleproof.model.interpreter import run
from ruleproof.model.rulebook import load_rulebook, load_rulebook_text
from ruleproof.model.scenario import shipped_scenarios
from ruleproof.properties.catalogue import BY_ID, PROPERTIES, View, check_all
from ruleproof.properties.monitor_z3 import FORMS


@pytest.fixture(scope="module")
def scenarios():
    return [sc for _, sc in shipped_scenarios()]


def _violations(rb, scenarios) -> dict[str, list]:
    out: dict[str, list] = {}
    for sc in scenarios:
        trace = run(rb, sc.initial_state(), sc.choices())
        for prop, violation in check_all(trace.events):
            out.setdefault(prop.id, []).append((sc.spec.id, violation, trace))
    return out


@pytest.fixture(scope="module")
def mutant_violations(scenarios):
    return {mid: _violations(load_rulebook_text(mutant_yaml(mid), f"{mid}.yaml"), scenarios) for mid in MUTANTS}


def test_catalogue_is_well_formed():
    index = default_index()
    assert len(PROPERTIES) >= 25 and len(BY_ID) == len(PROPERTIES)
    for p in PROPERTIES:
        assert p.ru and p.en and p.clauses and all(c in index for c in p.clauses), p.id
        m = p.monitor
        assert m.pid == p.id and m.bad and m.premise_en and m.premise_ru, p.id
        names = [v.name for v in m.hist]
        assert len(names) == len(set(names)), p.id  # one variable, one name
        assert all(b.ru and b.en for b in m.bad), p.id
        assert FORMS[p.id].pid == p.id and len(FORMS[p.id].split) == len(m.split)  # the Z3 form is derived


def test_properties_cover_every_clause_unit_of_540_542_and_512_6_2_to_512_7():
    index = default_index()
    cited = {c for p in PROPERTIES for c in p.clauses}
    scope = [e.id for e in index if e.status == "available" and e.kind in ("lead", "bullet")
             and (e.id.startswith(("540.", "542.", "512.6.2", "512.6.3", "512.6.4", "512.6.5", "512.6.6", "512.7")))]
    uncovered = [u for u in scope if not any(index.covers(c, u) or index.covers(u, c) for c in cited)]
    # what is left is definitional (the list of 540.1's forms, 542.1's list of X kinds, step titles)
    assert set(uncovered) <= {"540.1", "542", "542.1", "542.1/b1", "542.1/b2", "542.1/b3", "542.1/b4",
                              "512.6.3", "512.6.4", "512.6.6", "542.7",
                              "512.6.2/b4.1", "512.6.2/b4.1.1", "512.6.2/b4.1.2", "512.6.2/b4.1.3",
                              "512.6.2/b4.1.4", "512.6.2/b4.2", "512.6.2/b4.2.1", "512.6.2/b4.3",
                              "512.6.2/b4.3.1", "512.6.2/b5", "512.6.3/b5", "512.6.4/b1", "512.6.4/b4",
                              "512.6.6/b1", "512.6.2/b1", "512.6.2/b4", "512.6.3/b1", "512.6.5/b1",
                              "540.4.1/ex1", "542.8/ex1", "512.6.2", "540"}, uncovered


def test_every_property_holds_on_the_rulings_of_the_bundled_rules(scenarios):
    assert _violations(load_rulebook(), scenarios) == {}


@pytest.mark.parametrize("mid,pid", PUBLIC.items())
def test_public_mutant_is_caught_by_its_named_property(mid, pid, mutant_violations):
    found = mutant_violations[mid].get(pid)
    assert found, f"{pid} does not catch {mid}"
    _, violation, trace = found[0]
    assert violation.events and all(0 <= n < len(trace.events) for n in violation.events)
    assert any(c in violation.en for c in BY_ID[pid].clauses) or "(" in violation.en


def test_every_property_catches_at_least_one_named_mutant(mutant_violations):
    caught = {pid for v in mutant_violations.values() for pid in v}
    assert [p.id for p in PROPERTIES if p.id not in caught] == []


def test_payment_triggers_is_not_violated_on_a_prefix_inside_the_payment_window():
    """The defender paid and holds an «on payment» feature; the active player plays theirs first:
    until the window closes, the defender's feature not yet offered is no violation (checked on every
    prefix, as the Hypothesis machine does)."""
    from ruleproof.model.features import Feature
    from ruleproof.model.interpreter import Stepper
    from ruleproof.model.rulebook import load_rulebook
    from ruleproof.model.state import Action, Card, State
    printed = (("health", 5), ("strike_weak", 1), ("strike_medium", 2), ("strike_strong", 3))
    src = Card("src", "src", "A", printed=printed, resources=(("close", 1),),
               features=(Feature("a_paid", "payment_trigger", on="payment"),))
    dfd = Card("def", "def", "B", printed=printed, resources=(("close", 1),),
               features=(Feature("d_paid", "payment_trigger", on="payment"),))
    action = Action(feature="act", kind="simple_strike", source="src", targets=("tgt",), defender="def",
                    cost=(("src", "close", "1"), ("def", "close", "1")))
    st = Stepper(load_rulebook(), State(cards=(src, Card("tgt", "tgt", "B", printed=printed), dfd), action=action))
    checked = 0
    while st.ask is not None:
        options = [f.id for _, f in st.ask.options] if st.ask.kind == "respond" else []
        st.answer(1 if st.ask.kind == "die" else ("a_paid" if "a_paid" in options else None))
        assert BY_ID["P512.7-payment-triggers"].check(View(st.trace.events)) is None
        checked += 1
    assert checked > 10 and any(e.op == "play" and e.values["feature"] == "a_paid" for e in st.trace.events)


def _skipped_declare_draft(rb):
    """The bundled rulebook with a second ``declare`` after the declaration whose guard never holds."""
    text = Path(rb.path).read_text(encoding="utf-8")
    line = '      - {op: declare, cites: ["542.3", "512.1"], assumes: [A-claim-stage]}\n'
    assert text.count(line) == 1
    extra = '      - {op: declare, when: "visited(payment)", cites: ["512.1"]}\n'  # never true at declaration
    return load_rulebook_text(text.replace(line, line + extra), "skipped-declare.yaml")


def test_a_declare_skipped_by_its_guard_starts_no_part(scenarios):
    """A ``declare`` its guard skipped declares nothing: the monitors' per-part variables start afresh
    only at a declaration that ran (as the interpreter's part counter and the Z3 forms' do), so the
    draft plays every compound ruling without a violation."""
    rb = load_rulebook()
    draft = _skipped_declare_draft(rb)
    sc = next(s for s in scenarios if s.spec.id == "compound-returns-to-claim")
    base = run(rb, sc.initial_state(), sc.choices()).events
    events = run(draft, sc.initial_state(), sc.choices()).events
    skipped = [e for e in events if e.op == "declare" and e.values.get("skipped")]
    ran = [e for e in events if e.op == "declare" and not e.values.get("skipped")]
    assert len(skipped) == len(ran) == len([e for e in base if e.op == "declare"]) >= 2
    assert events[-1].state.action.declared == base[-1].state.action.declared == len(ran)
    assert [p.id for p, _ in check_all(events)] == []


def _naive(monitor, events):
    """A monitor run the plain way: every update it names asked at every event, every bad condition
    after every event (the reference the tracker's shortcuts must agree with)."""
    from ruleproof.properties.monitor_run import Concrete, Violation
    from ruleproof.properties.tracker import Tracker

    t = Tracker((monitor,), events[0].state)
    M, view = Concrete(t.view), t.view
    h = dict(t.start().hist)
    kind, windows = "", {}
    for n, e in enumerate(events):
        v = e.values
        if e.op == "enter":
            kind = v["kind"]
        elif e.op == "window":
            windows[v["id"]] = tuple(v.get("allows", ()))
        wid = v.get("window") if e.op in ("play", "pass") else v.get("id")
        allows = windows.get(wid, ()) if e.op in ("play", "pass", "window", "window_closed") else ()
        from ruleproof.properties.monitor import Ev
        ev = Ev(e.op, bool(v.get("skipped")), kind, v, view._features.get(v.get("feature")) if e.op == "play" else None,
                allows, v.get("first") == e.state.active_player if e.op == "window" else True, v.get("feature"))
        pre = events[n - 1].state if n else e.state
        new = dict(h)
        for var in monitor.hist:
            if var.pulse:
                new[var.name] = 0
            if var.part and ev.op == "declare" and not ev.skipped:
                for k in new:
                    if k == var.name or var.each and k.startswith(var.name) and k[len(var.name):] in {
                            f.key for f in view.handles(var.each)}:
                        new[k] = 0
            if ev.op not in var.on and "*" not in var.on:
                continue
            for f in (None,) if var.each is None else view.handles(var.each):
                x = var.update(M, ev, pre, e.state, h, *((f,) if f else ()))
                if x is not None:
                    new[var.name if f is None else var.name + f.key] = int(x) if isinstance(x, bool) else x
        h = new
        M.done_now, M.ev = e.op in ("end", "deadlock"), ev
        for b in monitor.bad:
            if b.test(M, e.state, h):
                return Violation((e.seq,), b.ru, b.en)
    return None


@pytest.mark.slow
def test_the_tracker_agrees_with_a_plain_run_of_each_monitor(scenarios):
    """The tracker asks an update only where an event's facts let it change its variable, a bad
    condition only where what it reads changed (or the run ends), and may be fed a run in pieces:
    on every ruling's trace under the bundled rulebook and every named mutant, each property's first
    violation is the one a plain run of its monitor finds, fed whole or half by half.  (A trace met before —
    the same events, values and states: a mutant that does not touch that ruling's game — is checked once: the
    monitors read nothing else.)"""
    from ruleproof.properties.catalogue import tracker, violations

    books = [load_rulebook(), *(load_rulebook_text(mutant_yaml(mid), f"{mid}.yaml") for mid in MUTANTS)]
    found, checked = 0, set()
    for rb in books:
        for sc in scenarios:
            events = run(rb, sc.initial_state(), sc.choices()).events
            key = hashlib.sha1(repr([(e.op, e.step, e.values, e.state) for e in events]).encode()).digest()
            if key in checked:
                continue
            checked.add(key)
            t = tracker(PROPERTIES, events[0].state)
            whole = dict((p.id, v) for p, v in violations(PROPERTIES, t.feed(t.start(), events)))
            half = len(events) // 2
            parts = dict((p.id, v) for p, v in violations(PROPERTIES, t.feed(t.feed(t.start(), events[:half]),
                                                                             events[half:])))
            assert parts == whole, (rb.path, sc.spec.id)
            for p in PROPERTIES:
                plain = _naive(p.monitor, events)
                assert (plain.events if plain else None) == (whole[p.id].events if p.id in whole else None), (
                    rb.path, sc.spec.id, p.id)
                found += plain is not None
    assert found >= len(PROPERTIES) and len(checked) > 4000  # 4,286 different traces of 5,796 games


def test_a_tracker_of_one_property_agrees_with_the_tracker_of_all(scenarios):
    """A tracker made for one property (``--only``, Hypothesis's later rounds) finds the same violation
    and the same premise as the tracker of the whole catalogue — also where no history variable of that
    property listens to the end of the run (its premise is still read there)."""
    from ruleproof.properties.catalogue import exercised, tracker, violations

    books = [load_rulebook(), load_rulebook_text(mutant_yaml("magnitude-modifier-x-before-window"), "m.yaml")]
    premised = 0
    for rb in books:
        for sc in scenarios:
            events = run(rb, sc.initial_state(), sc.choices()).events
            t = tracker(PROPERTIES, events[0].state)
            track = t.feed(t.start(), events)
            whole = {p.id: v.events for p, v in violations(PROPERTIES, track)}
            held = {p.id for p in exercised(PROPERTIES, track)}
            for p in PROPERTIES:
                one = tracker([p], events[0].state)
                alone = one.feed(one.start(), events)
                assert {q.id: v.events for q, v in violations([p], alone)}.get(p.id) == whole.get(p.id), (sc.spec.id, p.id)
                assert bool(exercised([p], alone)) == (p.id in held), (rb.path, sc.spec.id, p.id)
            premised += len(held)
    assert premised > len(PROPERTIES)


def test_the_catalogue_keeps_its_chapters_order():
    """The catalogue's order is its chapters' (542, the dice, the steps, the payment, the windows): reports list
    the properties so and the Z3 system lays its variables out so — an import sorter once reordered the
    chapters' registration and a proof's witness path changed."""
    chapters = [k for k, _ in itertools.groupby(Path(p.file).stem for p in PROPERTIES)]
    assert chapters == ["x542", "dice", "steps", "payment", "windows"]
