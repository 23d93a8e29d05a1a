"""The engines are listed once (ruleproof/engine_registry.py): everything that names an engine derives from it."""

from __future__ import annotations

import dataclasses
import inspect

from ruleproof.engine_registry import BY_NAME, DIFF_ENGINES, ENGINES, NAMES, longest_first
from ruleproof.ground.i18n import t
from ruleproof.orchestrate import CheckReport
from ruleproof.reports.bundle import ENGINE_GROUPS


def test_each_engine_has_a_runner_a_report_field_and_a_name_in_both_languages():
    fields = {f.name for f in dataclasses.fields(CheckReport)}
    for e in ENGINES:
        run = e.load()
        assert list(inspect.signature(run).parameters) == ["rb", "opts"], e.name
        assert e.field in fields, e.name
        assert t(f"rep_short_{e.name}", "ru") != t(f"rep_short_{e.name}", "en"), e.name
    assert ENGINE_GROUPS == NAMES and set(DIFF_ENGINES) <= set(BY_NAME)


def test_the_costliest_engine_starts_first():
    assert longest_first(list(reversed(NAMES[1:])))[0] == "z3"
    assert longest_first([("rulings", "base"), ("difference", ""), ("z3", "draft")], {"difference": 50}) == [
        ("z3", "draft"), ("difference", ""), ("rulings", "base")]


def test_diff_keeps_the_exhaustive_passs_counterexample_before_hypothesiss():
    """diff's engines in their order (its default --engines): the first engine's game is the one shown and saved."""
    assert DIFF_ENGINES == ("conformance", "rulings", "exhaustive", "hypothesis", "z3", "consistency")
