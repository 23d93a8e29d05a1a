"""Run the docstring examples of every module (they are part of the documentation)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import tomllib
from pathlib import Path

import pytest

import ruleproof

#: every package of the distribution that holds code (pyproject.toml's list; the data packages left out)
PACKAGES = tuple(p for p in tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text("utf-8"))
                 ["tool"]["setuptools"]["packages"] if p not in ("ruleproof.rulebooks", "ruleproof.rulings"))


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
