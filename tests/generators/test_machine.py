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
    assert load_profile() == "ci" and not settings.default.derandomize and settings.default.database is None
    monkeypatch.setenv("CI", "")
    assert load_profile() == "ruleproof"


def test_bundled_rules_pass_every_property():
    """At the default number of examples every property holds and was exercised (its premise occurred
    in some run: the count is in the note)."""
    out = hypothesis_pass(load_rulebook(), examples=200, cache_dir=None)
    assert [r.check for r in out.results] == [p.id for p in PROPERTIES]
    assert {r.check: r.holds for r in out.results} == {p.id: True for p in PROPERTIES}
    assert all(r.note.startswith("200 examples; premise in ") and " in 0 of " not in r.note for r in out.results)


def test_the_rounds_for_unplayed_situations_play_eagerly(monkeypatch):
    """Under ``ruleproof check``'s default seed the first 200 examples never played an X dice modifier
    (Hypothesis leans to passing, the first choice listed); the extra rounds list plays first, and the
    situation is played — whichever rounds it takes under the profile the tests run with."""
    monkeypatch.setenv("CI", "")
    out = hypothesis_pass(load_rulebook(), examples=200, cache_dir=None, only=frozenset({"P542.5-dice-modifier-x"}))
    [r] = out.results
    assert r.holds and " premise in 0 of " not in r.note, r.note


def test_a_property_whose_premise_never_occurs_is_not_exercised(planted_property, monkeypatch, capsys):
    """Hypothesis calls a property none of its runs played *not exercised* (inconclusive, exit 3), not holds."""
    import ruleproof.generators.machine as machine
    import ruleproof.generators.run as run

    p = planted_property
    monkeypatch.setattr(machine, "PROPERTIES", [*machine.PROPERTIES, p])
    monkeypatch.setattr(run, "PROPERTIES", [*run.PROPERTIES, p])
    out = hypothesis_pass(load_rulebook(), examples=20, cache_dir=None, only=frozenset({p.id}))
    [result] = out.results
    assert result.verdict == "unknown" and not result.holds and " premise in 0 of " in result.note
    [f] = result.findings
    assert f.kind == "not_exercised" and f.engine == "hypothesis" and f.message["en"].startswith("not exercised")
    code = main(["--lang", "en", "check", "--engines", "structure,hypothesis", "--examples", "20"])
    out = capsys.readouterr().out
    assert code == 3 and "P0-planted" in out and "not exercised" in out


#: the public mutants whose Hypothesis search takes over 30 s of CPU
SLOW_MUTANTS = {"M2"}


@pytest.mark.parametrize("mid,pid", [pytest.param(m, p, marks=pytest.mark.slow) if m in SLOW_MUTANTS else (m, p)
                                     for m, p in PUBLIC.items()])
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


@pytest.mark.slow
def test_same_seed_same_counterexample():
    rb = load_rulebook_text(mutant_yaml("M8"), "M8.yaml")
    a = hypothesis_pass(rb, examples=200, cache_dir=None, shrinks=30, only=frozenset({PUBLIC["M8"]}), seed=3)
    b = hypothesis_pass(rb, examples=200, cache_dir=None, shrinks=30, only=frozenset({PUBLIC["M8"]}), seed=3)
    assert a.results[0].findings[0].trace == b.results[0].findings[0].trace


@pytest.mark.slow
def test_check_command_reports_the_violated_property(tmp_path, capsys):
    path = write_mutant("M4", tmp_path)
    assert main(["--lang", "en", "check", str(path), "--examples", "150", "--engines", "structure,hypothesis"]) == 1
    out = capsys.readouterr().out
    assert "P540.3-action-marker" in out and "Counterexample: the highlighted events (▶) break the property" in out
    assert f"Command: ruleproof check {path} --engines hypothesis --examples 150" in out


def test_a_seed_draws_the_same_games_whatever_modules_are_loaded(tmp_path, monkeypatch):
    """Hypothesis draws numbers now and then from the constants of the local modules loaded so far; the
    pass must not: a module full of numbers, loaded before, leaves every figure of the pass as it was.
    Nor may CI play other games than a judge's machine: under ``CI=true`` the figures are the same."""
    import importlib.util
    import sys

    rb = load_rulebook_text(mutant_yaml("markers-at-declaration"), "markers-at-declaration.yaml")
    monkeypatch.setenv("CI", "")

    def figures():
        out = hypothesis_pass(rb, examples=60, cache_dir=None, shrinks=0)
        return [(r.check, r.holds, r.note) for r in out.results], out.scope

    before = figures()
    path = tmp_path / "numbers_here.py"
    path.write_text("NUMBERS = [" + ", ".join(str(n) for n in range(3, 400, 7)) + "]\nWORDS = ['src', 'tgt', 'allyA']\n")
    spec = importlib.util.spec_from_file_location("numbers_here", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setitem(sys.modules, "numbers_here", module)
    assert figures() == before
    monkeypatch.setenv("CI", "true")
    assert figures() == before
