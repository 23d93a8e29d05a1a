"""Conformance: every step the interpreter takes is a step of the Z3 transition system, and no other —
on the bundled rulebook, on every selftest mutant and on every non-default use of every word."""

from __future__ import annotations

import dataclasses

import pytest
import yaml

from ruleproof.generators.selftest import drafts
from ruleproof.generators.variants import parameter_drafts
from ruleproof.model import interpreter, symbolic
from ruleproof.model.conformance import conformance
from ruleproof.model.rulebook import load_rulebook, load_rulebook_text
from ruleproof.orchestrate import distrust_proofs, run_check
from ruleproof.reports.finding import CheckResult, Finding

RB = load_rulebook()


def _load(d):
    return load_rulebook_text(yaml.safe_dump(d.data, allow_unicode=True, sort_keys=False), f"{d.id}.yaml")


def test_bundled_rulebook_agrees_on_10000_steps():
    out = conformance(RB, runs=150, seed=0)
    assert out.ok, out.disagreement.text()
    assert out.steps >= 10_000, out.steps
    assert out.results[0].holds and "steps" in out.results[0].note


#: the only drafts whose runs leave the Z3 model's bounds: without `declare` a compound strike never
#: counts its parts down and loops to the step limit, playing more X dice modifiers than it counts
BEYOND_BOUNDS = {"drop:declaration:0"}
_MUTANTS = list(drafts())
_CHUNKS = 4


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(_CHUNKS))
def test_every_selftest_mutant_agrees(chunk):
    """Every selftest draft (M1–M8, the named mutants, every operator's drafts): no disagreement, but
    for the known draft whose runs go past the model's bounds (reported as RC6, never ignored)."""
    bad = {}
    for d in _MUTANTS[chunk::_CHUNKS]:
        out = conformance(_load(d), runs=25, seed=0)
        if not out.ok:
            bad[d.id] = out.disagreement
    assert {k: v.code for k, v in bad.items()} == {k: "RC6" for k in BEYOND_BOUNDS if k in bad}, \
        {k: v.text() for k, v in bad.items()}
    assert set(bad) == BEYOND_BOUNDS & {d.id for d in _MUTANTS[chunk::_CHUNKS]}


def test_there_are_mutants_to_check():
    assert len(_MUTANTS) > 200 and any(d.id == "M1" for d in _MUTANTS)


_VARIANTS = list(parameter_drafts())


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(2))
def test_every_non_default_use_of_every_word_agrees(chunk):
    """Parameters only drafts use (reads: current, include/exempt_modified false, the other player
    first), every guard word on a window, an operation and an edge, other die faces."""
    bad = {}
    for d in _VARIANTS[chunk::2]:
        out = conformance(_load(d), runs=25, seed=1)
        if not out.ok:
            bad[d.id] = out.disagreement.text()
    assert not bad, bad


def test_variants_cover_every_guard_on_windows_ops_and_edges():
    ids = {d.id for d in _VARIANTS}
    for where in ("window", "op", "edge"):
        for g in ("resource_modified", "not_is_attack", "action_blocked", "visited(dice)", "not_needs_magnitude"):
            assert f"when:{where}:{g}" in ids
    assert {"param:calculation:3:reads=current", "param:payment:0:exempt_modified=False"} & ids


def _noop(r, s, op):
    return interpreter._done(r, s, op)


def test_a_planted_interpreter_fault_is_caught(monkeypatch):
    """The interpreter gives no action marker: the step and both results are named."""
    monkeypatch.setitem(interpreter.HANDLERS, "give_action_marker", _noop)
    out = conformance(RB, runs=10, seed=0)
    d = out.disagreement
    assert d is not None and d.code == "RC3" and d.word == "give_action_marker" and d.step == "payment"
    assert "src_markers" in d.interpreter and "src_markers" in d.z3
    assert d.answers and d.seed == 0 and d.run is not None
    f = out.results[0].findings[0]
    assert f.kind == "conformance" and f.inconclusive and "give_action_marker" in f.text("en")
    assert "give_action_marker" in f.text("ru") and "интерпретатор" in f.text("ru")


def test_a_planted_encoding_fault_is_caught(monkeypatch):
    """The encoding's remove_from_stack does nothing: caught at that word."""
    monkeypatch.setitem(symbolic.OPS, "remove_from_stack", symbolic.OPS["apply_magnitude_modifiers"])
    out = conformance(RB, runs=10, seed=0)
    assert out.disagreement is not None and out.disagreement.word == "remove_from_stack"
    assert "on_stack" in out.disagreement.z3


def _offer_after_ability_always(monkeypatch):
    """Plant a fault in the encoding: «after an illegal action» offered whatever the status."""
    real = symbolic.System.playable

    def wrong(self, S, oi, window=None):
        if symbolic.OPTIONS[oi].feature.kind == "after_ability":
            return self.true()
        return real(self, S, oi, window)

    monkeypatch.setattr(symbolic.System, "playable", wrong)


def test_a_planted_offer_fault_is_caught(monkeypatch):
    """The encoding offers «after an illegal action» whatever the status (RC4: different choices)."""
    _offer_after_ability_always(monkeypatch)
    d = conformance(RB, runs=60, seed=0).disagreement
    assert d is not None and d.code == "RC4" and d.step == "completion", d


def test_check_runs_conformance_as_an_engine_and_reports_a_disagreement(monkeypatch):
    monkeypatch.setitem(interpreter.HANDLERS, "give_action_marker", _noop)
    rep = run_check(engines=("conformance",))
    assert "conformance" in rep.runs and rep.runs["conformance"].stats["steps"] > 0
    assert [r.verdict for r in rep.conformance] == ["unknown"]
    assert not rep.ok


def test_check_gives_no_proof_where_the_model_disagrees(monkeypatch):
    """check with the conformance and Z3 engines, the interpreter planted with a fault: no Z3 result
    holds (each says why), none is called vacuous."""
    monkeypatch.setitem(interpreter.HANDLERS, "remove_from_stack", _noop)
    rep = run_check(engines=("conformance", "z3"))
    assert rep.z3 and not any(r.holds for r in rep.z3)
    assert all(any(f.kind == "conformance" for f in r.findings) for r in rep.z3)
    assert not any(f.kind == "vacuous" for r in rep.z3 for f in r.findings)


def test_a_proof_on_a_rulebook_whose_model_disagrees_is_not_trusted():
    proved = CheckResult("P540.3-action-marker", ("540.3",), {"ru": "", "en": ""}, "z3", (), note="proved")
    bad = Finding(kind="conformance", check="C1-conformance", verdict="error", engine="conformance", clauses=(),
                  message={"ru": "RC3", "en": "RC3"})
    agree = CheckResult("C1-conformance", (), {"ru": "", "en": ""}, "conformance", ())
    disagree = dataclasses.replace(agree, findings=(bad,))
    assert distrust_proofs([proved], [agree]) == [proved]
    [after] = distrust_proofs([proved], [disagree])
    assert after.verdict == "unknown" and "not trusted" in after.findings[0].text("en")
    vacuous = dataclasses.replace(proved, findings=(dataclasses.replace(bad, kind="vacuous", verdict="violated"),))
    [after] = distrust_proofs([vacuous], [disagree])
    assert after.verdict == "unknown" and not any(f.kind == "vacuous" for f in after.findings)


def test_sampled_z3_paths_replay_on_the_interpreter():
    out = conformance(RB, runs=0, walks=60, seed=3)
    assert out.ok and out.walked > 3000, (out.walked, out.disagreement)


def test_a_z3_path_the_interpreter_does_not_take_is_caught(monkeypatch):
    """The reverse direction alone (no interpreter-driven runs): Z3 plays «after an illegal action»
    whatever the status; the interpreter, answering the same choices, does not offer it (RC7)."""
    _offer_after_ability_always(monkeypatch)
    d = conformance(RB, runs=0, walks=80, seed=0).disagreement
    assert d is not None and d.code == "RC7", d


def test_the_walks_alone_see_an_operation_skipped_in_z3_but_done_by_the_interpreter(monkeypatch):
    """M4 guards the action marker with «not resource_modified»; the planted encoding reads that guard
    as always false (Z3 always skips the marker): the replayed walk does the operation where the
    Z3 path skipped it (RC7)."""
    from ruleproof.generators.mutants import mutant_yaml

    real = symbolic.System.guard
    monkeypatch.setattr(symbolic.System, "guard",
                        lambda self, text, S: self.false() if text == "not resource_modified" else real(self, text, S))
    d = conformance(load_rulebook_text(mutant_yaml("M4"), "M4.yaml"), runs=0, walks=60, seed=0).disagreement
    assert d is not None and d.code == "RC7" and d.word == "give_action_marker", d


def test_the_walks_alone_see_a_dead_end_of_z3(monkeypatch):
    """The encoding's action marker has a guard that never holds: a Z3 path stops there while the
    interpreter goes on (RC1, found by the walks)."""
    monkeypatch.setitem(symbolic.OPS, "give_action_marker", lambda sy, S, die, p, k: (sy.false(), {}))
    d = conformance(RB, runs=0, walks=20, seed=0).disagreement
    assert d is not None and d.code == "RC1" and d.word == "give_action_marker", d
    assert "нет перехода" in d.text("ru") and "no transition" in d.text("en")


def test_a_disagreement_in_russian_has_no_english_words(monkeypatch):
    _offer_after_ability_always(monkeypatch)
    for d in (conformance(RB, runs=60, seed=0).disagreement, conformance(RB, runs=0, walks=80, seed=0).disagreement):
        ru = d.text("ru")
        assert "предлагает" in ru and not any(w in ru for w in ("offers", "enables", "plays", "does not")), ru
