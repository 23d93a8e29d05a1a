"""The property catalogue: holds on the bundled rules' rulings, and every property bites."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleproof.generators.mutants import MUTANTS, PUBLIC, mutant_yaml
from ruleproof.model.clauses import default_index
from ruleproof.model.interpreter import run
from ruleproof.model.rulebook import load_rulebook, load_rulebook_text
from ruleproof.model.scenario import load_scenario, shipped_rulings
from ruleproof.properties.catalogue import BY_ID, PROPERTIES, View, check_all



@pytest.fixture(scope="module")
def scenarios():
    return [load_scenario(p) for p in shipped_rulings()]


def _violations(rb, scenarios) -> dict[str, list]:
    out: dict[str, list] = {}
    for sc in scenarios:
        trace = run(rb, sc.initial_state(), sc.choices())
        for prop, violation in check_all(trace.events, trace.outcome == "completed"):
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
        assert p.z3 is None  # the slot the Z3 engine fills


def test_properties_cover_every_clause_unit_of_540_542_and_512_6_2_to_512_7():
    index = default_index()
    cited = {c for p in PROPERTIES for c in p.clauses}
    scope = [e.id for e in index if e.status == "available" and e.kind in ("lead", "bullet")
             and (e.id.startswith(("540.", "542.", "512.6.2", "512.6.3", "512.6.4", "512.6.5", "512.6.6", "512.7")))]
    uncovered = [u for u in scope if not any(index.covers(c, u) or index.covers(u, c) for c in cited)]
    # what is left is definitional (the list of 540.1's forms, 542.1's list of X kinds, step titles)
    assert set(uncovered) <= {"540.1", "542", "542.1", "542.1/b1", "542.1/b2", "542.1/b3", "542.1/b4",
                              "512.6.3", "512.6.4", "512.6.6", "542.7", "540.1.3", "540.3.1",
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
    from ruleproof.properties.catalogue import BY_ID, View

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
        assert BY_ID["P512.7-payment-triggers"].check(View(st.trace.events), st.finished) is None
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
    """Parts are cut where a part is declared: a ``declare`` its guard skipped declares nothing (the
    interpreter's part counter and the Z3 forms' per-part flags do not move either)."""
    rb = load_rulebook()
    draft = _skipped_declare_draft(rb)
    sc = next(s for s in scenarios if "compound" in s.spec.id)
    base = run(rb, sc.initial_state(), sc.choices()).events
    events = run(draft, sc.initial_state(), sc.choices()).events
    skipped = [e for e in events if e.op == "declare" and e.values.get("skipped")]
    parts = View(base).parts()  # the events before the first declaration, then one list per part
    assert len(skipped) == len(parts) - 1 >= 2  # one skipped declare after each declaration
    view = View(events)
    assert [len(p) for p in view.parts()] == [len(parts[0])] + [len(p) + 1 for p in parts[1:]]
    assert all(p[0].op != "declare" or not p[0].values.get("skipped") for p in view.parts())
    assert [p.id for p, _ in check_all(events, True)] == []


def test_the_views_lookups_give_what_a_scan_of_the_trace_gives(scenarios):
    """``View.ops``, ``View.turns``, ``View.changes`` and a part's reroll-window closes are indexes the predicates read
    instead of scanning the trace: on every ruling's trace (bundled rulebook, and a draft with skipped
    operations and compound parts) they must equal the scan they stand for."""
    from ruleproof.properties.catalogue import _reroll_windows_closed, _within

    rb = load_rulebook()
    skipped = parted = 0
    for book in (rb, _skipped_declare_draft(rb)):
        for sc in scenarios:
            events = run(book, sc.initial_state(), sc.choices()).events
            view = View(events)
            for name in {e.op for e in events} | {"no_such_operation"}:
                for flag in (False, True):
                    assert view.ops(name, skipped=flag) == [
                        e for e in events if e.op == name and bool(e.values.get("skipped")) == flag], (name, flag)
            turns = [e for e in events if e.op in ("play", "pass")]
            assert view.ops("play", "pass") == turns
            assert view.turns("no_such_kind") == []
            changed = [e for n, e in enumerate(events) if e.state.action is not (events[n - 1].state.action if n else None)]
            assert view.changes() == changed and view.changes(after=changed[1].seq) == changed[2:]
            for kind in set(view.kinds):
                assert view.turns(kind) == [e for e in turns if view.kinds[e.seq] == kind]
                for part in view.parts()[1:]:
                    assert _within(view.turns(kind), part) == [e for e in part if e in view.turns(kind)]
            for part, ix in zip(view.parts(), view.indexes()):
                allows, closes = {}, []
                for e in part:
                    if e.op == "window":
                        allows[e.values["id"]] = e.values["allows"]
                    elif e.op == "window_closed" and "reroll" in allows.get(e.values["id"], ()):
                        closes.append(e)
                assert _reroll_windows_closed(ix) == closes
            skipped += any(e.values.get("skipped") for e in events)
            parted += len(view.parts()) > 2
    assert skipped > 10 and parted >= 2
