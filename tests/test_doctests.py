"""Run the docstring examples of every module (they are part of the documentation)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import ruleproof

PACKAGES = ["ruleproof", "ruleproof.ground", "ruleproof.commands", "ruleproof.model", "ruleproof.reports", "ruleproof.properties",
            "ruleproof.generators"]


def _modules() -> list[str]:
    names = []
    for pkg in PACKAGES:
        mod = importlib.import_module(pkg)
        names.append(pkg)
        for info in pkgutil.iter_modules(mod.__path__):
            if info.name != "__main__":
                names.append(f"{pkg}.{info.name}")
    return names


@pytest.mark.parametrize("name", _modules())
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


def test_doctests_exist() -> None:
    """The free-function modules document themselves with runnable examples."""
    finder = doctest.DocTestFinder()
    counts = {n: sum(len(t.examples) for t in finder.find(importlib.import_module(n))) for n in _modules()}
    for name in ("ruleproof.model.graph", "ruleproof.model.structure", "ruleproof.model.rules_text",
                 "ruleproof.model.clauses", "ruleproof.model.yaml_source", "ruleproof.ground.errors"):
        assert counts[name] > 0, name
    assert ruleproof.__version__
