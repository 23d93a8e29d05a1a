"""The type checker holds the package (mypy with pyproject's settings, on the sources laid out as they
install): no error; the two algebras' evaluators conform to their Protocols, and a planted departure —
an evaluator missing an observation, a meaning asking for one the interface lacks — is named."""

from __future__ import annotations

from pathlib import Path

import pytest
from staging import layout, mypy

pytest.importorskip("mypy")


def test_the_package_type_checks(tmp_path):
    done = mypy(layout(tmp_path))
    assert done.returncode == 0, done.stdout + done.stderr


def _plant(staged: Path, rel: str, old: str, new: str) -> None:
    path = staged / rel
    text = path.read_text("utf-8")
    assert old in text, f"{rel} no longer holds {old!r}: update the planted case"
    path.write_text(text.replace(old, new, 1), "utf-8")


def test_a_departure_from_an_algebra_is_named(tmp_path):
    staged = layout(tmp_path)
    # the concrete meanings' evaluator loses an observation; the Z3 monitors' evaluator another
    _plant(staged, "ruleproof/model/algebra.py", "    def marker_waived(self)", "    def marker_waived_(self)")
    _plant(staged, "ruleproof/properties/monitor_z3.py", "    def played(self", "    def played_(self")
    # a meaning asks for an observation the interface does not have
    _plant(staged, "ruleproof/model/semantics.py", "E.blocked()", "E.blocked_now()")
    report = mypy(staged).stdout
    assert 'model/algebra.py' in report and '"MeaningAlgebra"' in report and "marker_waived" in report, report
    assert "properties/monitor_z3.py" in report and '"MonitorAlgebra"' in report and "played" in report, report
    assert 'model/semantics.py' in report and 'has no attribute "blocked_now"' in report, report
