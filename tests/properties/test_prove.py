"""Z3 proofs: the bundled rulebook proves every property (none vacuous); each public mutant M1–M8 is
violated with a counterexample whose replay on the interpreter violates the same property; a
timeout or an engine exception is ``unknown`` (exit 3), never ``proved``."""

from __future__ import annotations

import json

import pytest
import z3

from ruleproof.cli import main
from ruleproof.generators.mutants import PUBLIC, mutant_yaml, write_mutant
from ruleproof.model.interpreter import ScriptedChoices, run
from ruleproof.model.rulebook import load_rulebook, load_rulebook_text
from ruleproof.properties import engines as engines_mod
from ruleproof.properties import prove as prove_mod
from ruleproof.properties import replay as replay_mod
from ruleproof.properties import witnesses as witnesses_mod
from ruleproof.properties.catalogue import BY_ID, PROPERTIES, View
from ruleproof.properties.prove import prove, prove_one
from ruleproof.properties.monitor_z3 import FORMS

BUNDLED = load_rulebook()
TIMEOUT_MS = 60_000


def test_every_catalogue_property_has_a_z3_form():
    assert set(FORMS) == set(BY_ID)
    for p in PROPERTIES:
        f = FORMS[p.id]
        assert f.pid == p.id and callable(f.bad) and callable(f.premise) and f.premise_en and f.premise_ru


@pytest.mark.parametrize("pid", [p.id for p in PROPERTIES])
def test_bundled_rulebook_proves_every_property_non_vacuously(pid):
    v = prove_one(BUNDLED, pid, timeout_ms=TIMEOUT_MS)
    assert v.verdict == "proved", (v.verdict, v.reason)
    assert v.vacuous is False and v.witness is not None and v.witness.steps


@pytest.mark.parametrize("mutant", sorted(PUBLIC))
def test_public_mutant_is_violated_and_the_replay_violates_the_same_property(mutant):
    rb = load_rulebook_text(mutant_yaml(mutant), f"{mutant}.yaml")
    pid = PUBLIC[mutant]
    v = prove_one(rb, pid, timeout_ms=TIMEOUT_MS, vacuity=False)
    assert v.verdict == "violated", (v.verdict, v.reason)
    cx = v.counterexample
    assert cx.reproduced and cx.steps and cx.trace is not None
    # the replay, done here again from what the report prints (world, dice, responses)
    if cx.replay_mode == "scripted":
        trace = run(rb, cx.world, ScriptedChoices(cx.dice, cx.responses))
        assert BY_ID[pid].check(View(trace.events)) is not None
    # and the same world and script on the bundled rules violates nothing of the kind
    good = run(BUNDLED, cx.world, ScriptedChoices(cx.dice, cx.responses))
    assert BY_ID[pid].check(View(good.events)) is None


def test_a_tiny_timeout_is_unknown_never_proved():
    v = prove_one(BUNDLED, "P540.3-action-marker", timeout_ms=1, vacuity=False)
    assert v.verdict in ("unknown", "holds to depth k"), v.verdict
    assert v.verdict != "proved"


def test_an_engine_exception_is_unknown(monkeypatch):
    def boom(self, *a, **k):
        raise z3.Z3Exception("canceled")

    monkeypatch.setattr(z3.Fixedpoint, "query", boom)
    for mod in (prove_mod, engines_mod):  # where BMC is called (left unpatched it ran 40 s to its own timeout)
        monkeypatch.setattr(mod, "bmc", lambda *a, **k: ("unknown: patched", None, None, 0))
    out = prove(BUNDLED, only=["P512.5-claims-resolved"], vacuity=False)
    (v,) = out.verdicts
    assert v.verdict == "unknown" and "canceled" in v.reason
    (r,) = out.results
    assert r.findings and r.findings[0].kind == "unknown" and r.findings[0].verdict == "unknown"


def test_cli_unknown_exits_3(monkeypatch, capsys):
    for mod in (prove_mod, engines_mod):
        monkeypatch.setattr(mod, "spacer", lambda *a, **k: "unknown: patched solver")
        monkeypatch.setattr(mod, "bmc", lambda *a, **k: ("unknown: patched", None, None, 0))
    assert main(["--lang", "en", "prove", "--only", "P512.5-claims-resolved", "--format", "json"]) == 3
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "ruleproof-prove/1" and doc["verdicts"][0]["verdict"] == "unknown"


def test_cli_proved_within_the_menu_exits_3_or_0_when_accepted_and_records_z3_version_and_seed(capsys):
    """The Z3 worlds leave out combinations the bundled rulebook admits: the proof is *proved within the
    menu*, its own verdict, exit 3; ``--accept-menu`` accepts it (exit 0), the scope still in the JSON."""
    assert main(["--lang", "en", "prove", "--only", "P512.5-claims-resolved", "--format", "json"]) == 3
    doc = json.loads(capsys.readouterr().out)
    assert doc["z3_version"] == z3.get_version_string() and doc["seed"] == 0
    (v,) = doc["verdicts"]
    assert v["verdict"] == "proved within the menu" and v["vacuous"] is False and v["witness"]["steps"]
    assert doc["within_menu"] and 0 < doc["scope"]["covered"] < doc["scope"]["admitted"]
    assert len(doc["scope"]["missing"]) == doc["scope"]["admitted"] - doc["scope"]["covered"]
    assert main(["--lang", "en", "prove", "--only", "P512.5-claims-resolved", "--accept-menu"]) == 0
    out = capsys.readouterr().out
    assert "proved within the menu" in out and "Exit code 3" not in out


def test_a_proof_over_worlds_that_cover_the_universe_is_plain_proved(monkeypatch):
    """Where the menu covers every combination the rulebook admits, the verdict is plain *proved*, exit 0."""
    from ruleproof.commands import prove as cmd_prove
    from ruleproof.model.universe import Scope

    out = prove(BUNDLED, only=["P512.5-claims-resolved"])
    assert out.within_menu and cmd_prove.exit_code(out) == 3 and cmd_prove.exit_code(out, accept_menu=True) == 0
    out.scope = Scope(345, 345, ())
    assert not out.within_menu and cmd_prove.exit_code(out) == 0
    assert cmd_prove.outcome_to_json(out, BUNDLED)["verdicts"][0]["verdict"] == "proved"


def test_cli_violated_exits_1_with_trace_and_replay(tmp_path, capsys):
    path = write_mutant("M7", tmp_path)
    assert main(["--lang", "en", "prove", str(path), "--only", PUBLIC["M7"]]) == 1
    out = capsys.readouterr().out
    assert "check_source_legality" in out and "Replay: dice" in out and "confirms the violation" in out


def test_cli_bad_only_exits_2(capsys):
    assert main(["--lang", "en", "prove", "--only", "P999-nothing"]) == 2
    assert "RP170" in capsys.readouterr().err


def test_cli_save_ruling_replays_with_ruleproof_run(tmp_path, capsys):
    draft = write_mutant("M6", tmp_path)
    ruling = tmp_path / "cx.yaml"
    assert main(["--lang", "en", "prove", str(draft), "--only", PUBLIC["M6"], "--save-ruling", str(ruling)]) == 1
    assert ruling.is_file()
    capsys.readouterr()
    assert main(["--lang", "en", "run", str(ruling), "--rulebook", str(draft)]) == 1  # the draft violates it
    assert main(["--lang", "en", "run", str(ruling)]) == 0  # the bundled rules keep it


def test_shortest_counterexample_by_bmc():
    rb = load_rulebook_text(mutant_yaml("M6"), "M6.yaml")
    v = prove_one(rb, PUBLIC["M6"], timeout_ms=TIMEOUT_MS, vacuity=False, shortest=True)
    assert v.verdict == "violated" and v.counterexample.reproduced
    assert v.reason.startswith("shortest"), v.reason
    # no shorter path reaches the violation: BMC one step less finds none
    from ruleproof.model.symbolic import compile_rulebook

    sy = compile_rulebook(rb, FORMS[PUBLIC["M6"]].hist)
    assert prove_mod.bmc(sy, FORMS[PUBLIC["M6"]].bad, v.depth - 1, TIMEOUT_MS)[0] != "sat"


def test_a_counterexample_the_interpreter_does_not_replay_is_inconclusive(monkeypatch):
    """Z3 reaches a bad state, but the replay does not show the violation: *unknown*, with the reason —
    never "violated" (nor "proved")."""
    real = engines_mod.replay

    def stray(rb, cx, pid):
        cx = real(rb, cx, pid)
        cx.reproduced, cx.violation = False, None
        return cx

    monkeypatch.setattr(engines_mod, "replay", stray)
    rb = load_rulebook_text(mutant_yaml("M4"), "M4.yaml")
    v = prove_one(rb, "P540.3-action-marker", timeout_ms=TIMEOUT_MS)
    assert v.verdict == "unknown" and "does not replay" in v.reason


def test_a_witness_the_interpreter_does_not_follow_leaves_the_proof_inconclusive(monkeypatch):
    monkeypatch.setattr(replay_mod, "follows", lambda rb, sy, cx: False)
    monkeypatch.setattr(witnesses_mod, "follows", lambda rb, sy, cx: False)
    out = prove(BUNDLED, only=["P540.3-action-marker"])
    [v] = out.verdicts
    assert v.verdict == "proved" and v.vacuous is None
    [r] = out.results
    assert r.verdict == "unknown" and "does not replay" in r.findings[0].text("en")
    assert "не воспроизводится" in r.findings[0].text("ru")


def test_the_bundled_witnesses_follow_zs_path_on_the_interpreter():
    out = prove(BUNDLED, only=["P540.3-action-marker", "P542.2-cost-x"])
    assert all(v.witness is not None and v.witness.follows and v.witness.path for v in out.verdicts)


def test_prove_on_a_rulebook_whose_model_disagrees_gives_no_proof(monkeypatch, capsys):
    """prove checks the agreement first: with a planted interpreter fault, what would be proved is
    unknown with the disagreement as the reason (exit 3), in both languages."""
    from ruleproof.model import interpreter

    monkeypatch.setitem(interpreter.HANDLERS, "remove_from_stack", lambda r, s, op: interpreter._done(r, s, op))
    out = prove(BUNDLED, only=["P512.5-claims-resolved"])
    [v] = out.verdicts
    assert out.disagreement is not None and v.verdict == "unknown" and "disagrees" in v.reason
    assert "расходится" in out.results[0].findings[0].text("ru")
    assert main(["--lang", "ru", "prove", "--only", "P512.5-claims-resolved"]) == 3
    out = capsys.readouterr().out
    assert "расходится с интерпретатором" in out and "модель Z3 расходится" in out.split("\n", 2)[-1]
    assert not any(w in out for w in ("disagrees", "interpreter", "reach different"))


def test_with_two_workers_the_agreement_is_checked_beside_the_proofs(monkeypatch):
    """Under ``jobs`` > 1 the conformance check is one more task in the pool, and its disagreement
    still turns every would-be proof into unknown."""
    from ruleproof.model import interpreter
    from ruleproof.properties.schedule import plan

    assert [t.kind for t in plan(["P512.5-claims-resolved"], 2, agree=True)].count("conformance") == 1
    monkeypatch.setitem(interpreter.HANDLERS, "remove_from_stack", lambda r, s, op: interpreter._done(r, s, op))
    out = prove(BUNDLED, only=["P512.5-claims-resolved", "P512.6.1-order"], jobs=2)
    assert out.disagreement is not None
    assert [v.verdict for v in out.verdicts] == ["unknown", "unknown"]


def test_a_rulebook_without_a_declaration_gets_a_verdict_not_a_crash():
    """Regression: on a draft that dropped `declare`, "right after a declaration" (P512.6-may-declare)
    was an empty z3.Or built in z3's default context — a Context mismatch traceback, not a verdict."""
    import yaml

    from ruleproof.generators.selftest import drafts

    d = next(d for d in drafts() if d.id == "drop:declaration:0")
    rb = load_rulebook_text(yaml.safe_dump(d.data, allow_unicode=True, sort_keys=False))
    v = prove_one(rb, "P512.6-may-declare", timeout_ms=1000, vacuity=False)  # a verdict, not how hard it was won
    assert v.verdict in ("unknown", "violated", "proved") or v.verdict.startswith("holds to depth")
