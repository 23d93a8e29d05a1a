"""Check reports made once per session: the bundled rulebook (everything holds), the named mutant M4
(a property violated, found by a short Hypothesis run) and M1 (a structural check violated).

The Hypothesis runs check a few properties on a handful of examples with a small shrink budget and
no example database, so they are quick and reproducible (seed 0)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruleproof.generators.mutants import write_mutant
from ruleproof.generators.run import hypothesis_pass
from ruleproof.model.graph import build_graph
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.structure import run_structure_checks
from ruleproof.orchestrate import CheckReport, run_check
from ruleproof.reports.bundle import report_from_check

FIXED = "2026-01-02T03:04:05Z"
#: the property M4 breaks, and two it leaves alone
PROPS = frozenset({"P540.3-action-marker", "P540.2-reserved", "P512.6.1-order"})


def check_with_properties(path: Path | None, examples: int = 5) -> CheckReport:
    """What ``run_check(path, examples=…)`` makes, for a few properties and a small shrink budget."""
    rb = load_rulebook(path)
    G = build_graph(rb)
    outcome = hypothesis_pass(rb, examples=examples, seed=0, cache_dir=None, shrinks=10, only=PROPS,
                              rulebook_arg=str(path) if path else None)
    return CheckReport(rb, G, run_structure_checks(G, rb.index), outcome.results, outcome)


@pytest.fixture(scope="session")
def mutants_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("mutants")


@pytest.fixture(scope="session")
def bundled_check() -> CheckReport:
    return check_with_properties(None)


@pytest.fixture(scope="session")
def bundled_report(bundled_check):
    return report_from_check(bundled_check, timestamp=FIXED)


@pytest.fixture(scope="session")
def m4_check(mutants_dir) -> CheckReport:
    return check_with_properties(write_mutant("M4", mutants_dir))


@pytest.fixture(scope="session")
def m4_report(m4_check):
    return report_from_check(m4_check, timestamp=FIXED)


@pytest.fixture(scope="session")
def m1_report(mutants_dir):
    return report_from_check(run_check(write_mutant("M1", mutants_dir)), timestamp=FIXED)


@pytest.fixture(scope="session")
def m4_rulings_report(mutants_dir):
    """The rulings M4 fails, each with its trace and the events where it departs from its expectations."""
    return report_from_check(run_check(write_mutant("M4", mutants_dir), engines=("rulings",)), timestamp=FIXED)
