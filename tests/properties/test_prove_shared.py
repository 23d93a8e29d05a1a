"""The faster paths of ``prove``: one shared system per run, merged Spacer rules, vacuity witnesses
shared between properties, ``--jobs``.  Each must give the verdicts the one-property path gives."""

from __future__ import annotations

import json

import z3

from ruleproof.cli import main
from ruleproof.generators.mutants import PUBLIC, mutant_yaml
from ruleproof.model.interpreter import ScriptedChoices, run
from ruleproof.model.rulebook import load_rulebook, load_rulebook_text
from ruleproof.properties import prove as prove_mod
from ruleproof.properties import witnesses as witnesses_mod
from ruleproof.properties.catalogue import BY_ID, View
from ruleproof.properties.prove import plan, prove, shared_system
from ruleproof.properties.monitor_z3 import FORMS

BUNDLED = load_rulebook()
SMALL = ["P512.5-claims-resolved", "P512.6.1-order", "P540.2-reserved", "P512.6.5-effect", "P512.6.4-block"]


def _spy_witness_queries(monkeypatch) -> list:
    calls = []
    original = witnesses_mod.witness
    monkeypatch.setattr(witnesses_mod, "witness", lambda rb, sy, form, *a: calls.append(form.pid) or original(
        rb, sy, form, *a))
    return calls


def test_witnesses_from_interpreter_paths_need_no_spacer_query(monkeypatch):
    calls = _spy_witness_queries(monkeypatch)
    out = prove(BUNDLED, only=SMALL)
    assert [v.verdict for v in out.verdicts] == ["proved"] * len(SMALL)
    assert calls == []  # every premise reached on a hint path
    for v in out.verdicts:  # each witness is Z3's model on that path, replayed on the interpreter
        assert v.vacuous is False and v.witness.steps and v.witness.trace.outcome == "completed"


def test_shared_run_proves_and_shares_witness_paths(monkeypatch):
    monkeypatch.setattr(witnesses_mod, "HINT_PATHS", 0)  # Spacer's paths only
    calls = _spy_witness_queries(monkeypatch)
    out = prove(BUNDLED, only=SMALL)
    assert [v.verdict for v in out.verdicts] == ["proved"] * len(SMALL)
    assert all(v.vacuous is False and v.witness is not None and v.witness.steps for v in out.verdicts)
    # fewer premise searches than properties: some witnesses came from another property's path
    assert 1 <= len(calls) < len(SMALL), calls
    for v in out.verdicts:  # every witness replays on the interpreter to the end of the action
        assert v.witness.trace is not None and v.witness.trace.outcome == "completed"


def test_merged_rules_cover_every_disjunct_once():
    sy = shared_system(BUNDLED, ["P512.5-claims-resolved"])
    keep = prove_mod.coi(sy, FORMS["P512.5-claims-resolved"].bad(sy, sy.pre), False, False)
    vs = [v for v in sy.vars if v.name != "pc" and v.name in keep]
    groups = prove_mod._merged(sy, vs)
    ids = sorted(d.id for ds, _, _ in groups for d in ds)
    assert ids == list(range(len(sy.disjuncts)))
    assert len(groups) < len(sy.disjuncts)  # plays differing only outside the cone share a rule
    succ = prove_mod._pc_successors(sy)
    for ds, _, _ in groups:
        assert len({d.loc for d in ds}) == 1 and len({succ[d.id] for d in ds}) == 1


def test_a_mutant_in_a_shared_run_is_violated_with_a_replayed_trace_and_the_rest_proved():
    rb = load_rulebook_text(mutant_yaml("M8"), "M8.yaml")
    pid = PUBLIC["M8"]
    out = prove(rb, only=[pid, "P512.5-claims-resolved"], timeout_ms=60_000)
    by = {v.pid: v for v in out.verdicts}
    v = by[pid]
    assert v.verdict == "violated" and v.counterexample.reproduced
    cx = v.counterexample
    if cx.replay_mode == "scripted":
        trace = run(rb, cx.world, ScriptedChoices(cx.dice, cx.responses))
        assert BY_ID[pid].check(View(trace.events)) is not None
    assert by["P512.5-claims-resolved"].verdict == "proved"


def test_jobs_2_gives_the_verdicts_of_jobs_1():
    rb = load_rulebook_text(mutant_yaml("M6"), "M6.yaml")
    only = [PUBLIC["M6"], "P512.5-claims-resolved", "P512.6.1-order"]
    one = prove(rb, only=only, timeout_ms=60_000)
    two = prove(rb, only=only, timeout_ms=60_000, jobs=2)
    assert two.extra["jobs"] == 2
    key = lambda o: [(v.pid, v.verdict, v.vacuous) for v in o.verdicts]  # noqa: E731
    assert key(one) == key(two)
    (bad,) = [v for v in two.verdicts if v.verdict == "violated"]
    assert bad.pid == PUBLIC["M6"] and bad.counterexample.reproduced and bad.counterexample.trace.events


def test_plan_has_every_proof_part_and_every_premise_once_heaviest_first():
    pids = list(FORMS)
    tasks = plan(pids, 2)
    proofs = [(t.pids[0], t.part) for t in tasks if t.kind == "prove"]
    want = [(p, i) for p in pids for i in (range(len(FORMS[p].split)) if FORMS[p].split else (None,))]
    assert sorted(proofs, key=str) == sorted(want, key=str) and len(proofs) == len(want)
    witnessed = [p for t in tasks if t.kind == "witness" for p in t.pids]
    assert sorted(witnessed) == sorted(pids) and len([t for t in tasks if t.kind == "witness"]) == 1
    assert len([t for t in plan(pids, 4) if t.kind == "witness"]) == 2
    assert [t.weight for t in tasks] == sorted((t.weight for t in tasks), reverse=True)
    assert not [t for t in plan(pids, 2, vacuity=False) if t.kind == "witness"]


def test_split_parts_in_parallel_combine_like_the_sequential_split():
    """Parts run as separate tasks: the first violated part decides, as when they run in order and
    stop at it; a part that is neither proved nor violated makes the whole that verdict."""
    form = FORMS["P512.6-may-declare"]
    V = prove_mod.Proof
    proved = [V("P512.6-may-declare", "proved", "spacer", 1.0) for _ in form.split]
    assert prove_mod._combine("P512.6-may-declare", form, proved).verdict == "proved"
    mixed = [V("x", "unknown", "spacer+bmc", 1.0, reason="timeout"), V("x", "violated", "spacer", 1.0),
             V("x", "violated", "bmc", 1.0)]
    out = prove_mod._combine("P512.6-may-declare", form, mixed)
    assert out is mixed[1] and out.seconds == 3.0
    out = prove_mod._combine("P512.6-may-declare", form, [proved[0], mixed[0], proved[2]])
    assert out.verdict == "unknown" and form.split[1].pid in out.reason


def test_a_split_form_violated_in_one_part_under_jobs_2_as_under_jobs_1():
    """The named draft «no-prevention» takes prevention out of the calculation step's window: the
    calculation part of P512.6-may-declare is violated, whether its parts run in order or as tasks."""
    rb = load_rulebook_text(mutant_yaml("no-prevention"), "no-prevention.yaml")
    only = ["P512.6-may-declare", "P512.6.1-order"]
    key = lambda o: [(v.pid, v.verdict, v.vacuous) for v in o.verdicts]  # noqa: E731
    one, two = prove(rb, only=only), prove(rb, only=only, jobs=2)
    assert key(one) == key(two) == [("P512.6.1-order", "proved", False), ("P512.6-may-declare", "violated", None)]
    cx = two.verdicts[1].counterexample
    assert cx.reproduced and any(e.op == "window" for e in cx.trace.events)


def test_cli_jobs_0_exits_2(capsys):
    assert main(["--lang", "en", "prove", "--jobs", "0"]) == 2
    assert "--jobs" in capsys.readouterr().err


def test_cli_jobs_2_json(capsys):
    assert main(["--lang", "en", "prove", "--only", "P512.5-claims-resolved", "P540.2-reserved", "--jobs", "2",
                 "--format", "json", "--accept-menu"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["z3_version"] == z3.get_version_string()
    assert [v["verdict"] for v in doc["verdicts"]] == ["proved within the menu"] * 2


def _pulse(form):
    """The part of a P512.6-may-declare part's ``bad`` checked between the parts of a compound feature:
    a pulse right after the next declaration."""
    return lambda sy, S: form.bad(sy, S).children()[0]


def test_may_declare_is_checked_between_the_parts_of_a_compound_feature():
    """On «no-prevention» a compound feature's first part skips prevention: the pulse after the second
    declaration is reached, and the replay shows the violation there — at the declaration that closes
    the first part, before the second part's own windows; on the bundled rulebook it is unreachable."""
    form = FORMS["P512.6-may-declare"].split[1]  # the calculation step's features
    pid = "P512.6-may-declare"
    rb = load_rulebook_text(mutant_yaml("no-prevention"), "no-prevention.yaml")
    sy = shared_system(rb, [pid])
    r, found, cx = prove_mod.spacer_refined(rb, sy, _pulse(form), pid, 20_000, 0, (True,), prove_mod._options(form))
    assert r == "sat" and cx.reproduced
    declares = [e.seq for e in cx.trace.events if e.op == "declare"]
    assert len(declares) >= 2 and cx.violation.events == (declares[1],)
    sy = shared_system(BUNDLED, [pid])
    keep = prove_mod.coi(sy, _pulse(form)(sy, sy.pre), False, True)
    assert prove_mod.spacer(sy, _pulse(form), 20_000, keep=keep, options=prove_mod._options(form)) == "unsat"
