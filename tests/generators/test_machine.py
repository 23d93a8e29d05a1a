"""Hypothesis drives the interpreter over a rulebook: the bundled rules pass, the public mutants fail
with a shrunk trace citing the clause."""

from __future__ import annotations

import pytest

from ruleproof.cli import main
from ruleproof.generators.mutants import PUBLIC, mutant_yaml, write_mutant
from ruleproof.generators.run import hypothesis_pass, load_profile
from ruleproof.model.rulebook import load_rulebook, load_rulebook_text
from ruleproof.properties.catalogue import BY_ID, PROPERTIES



def test_ci_profile_under_ci(monkeypatch):
    from hypothesis import settings

    monkeypatch.setenv("CI", "true")
    assert load_profile() == "ci" and settings.default.derandomize and settings.default.database is None
    monkeypatch.setenv("CI", "")
    assert load_profile() == "ruleproof"


def test_bundled_rules_pass_every_property():
    out = hypothesis_pass(load_rulebook(), examples=60, cache_dir=None)
    assert [r.check for r in out.results] == [p.id for p in PROPERTIES]
    assert all(r.holds for r in out.results) and out.results[0].note.startswith("60 examples; premise in ")


@pytest.mark.parametrize("mid,pid", PUBLIC.items())
def test_public_mutant_fails_with_a_shrunk_trace(mid, pid):
    rb = load_rulebook_text(mutant_yaml(mid), f"{mid}.yaml")
    out = hypothesis_pass(rb, examples=300, cache_dir=None, shrinks=30, only=frozenset({pid}))
    [result] = out.results
    assert not result.holds, f"{pid} passed on {mid}"
    [f] = result.findings
    assert f.engine == "hypothesis" and set(BY_ID[pid].clauses) == set(f.clauses)
    assert f.trace and f.highlight and all(h < len(f.trace) for h in f.highlight)
    assert f.replay.startswith("ruleproof check") and "--examples 300" in f.replay
    assert any(c.split("/")[0] in f.message["en"] for c in f.clauses)


def test_same_seed_same_counterexample():
    rb = load_rulebook_text(mutant_yaml("M8"), "M8.yaml")
    a = hypothesis_pass(rb, examples=200, cache_dir=None, shrinks=30, only=frozenset({PUBLIC["M8"]}), seed=3)
    b = hypothesis_pass(rb, examples=200, cache_dir=None, shrinks=30, only=frozenset({PUBLIC["M8"]}), seed=3)
    assert a.results[0].findings[0].trace == b.results[0].findings[0].trace


def test_check_command_reports_the_violated_property(tmp_path, capsys):
    path = write_mutant("M4", tmp_path)
    assert main(["--lang", "en", "check", str(path), "--examples", "150", "--engines", "structure,hypothesis"]) == 1
    out = capsys.readouterr().out
    assert "P540.3-action-marker" in out and "Counterexample: the highlighted events break the property" in out
    assert f"Command: ruleproof check {path} --engines hypothesis --examples 150" in out
