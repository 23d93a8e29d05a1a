"""The runtime dependencies are what the package imports; what only the tests import is the `test`
extra (issue 24: no runtime dependency the package never uses)."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: a distribution's import name where it differs
IMPORT_NAME = {"pyyaml": "yaml", "z3-solver": "z3", "pytest-xdist": "xdist"}


def _names(spec: list[str]) -> list[str]:
    return [re.split(r"[<>=\[ ;]", s, maxsplit=1)[0].lower() for s in spec]


def _package_imports() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    folders = set(project["tool"]["setuptools"]["package-dir"].values())
    found = set()
    for folder in folders:
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                if isinstance(node, ast.Import):
                    found |= {a.name.split(".")[0] for a in node.names}
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    found.add(node.module.split(".")[0])
    return found


def test_runtime_dependencies_are_imported_by_the_package_and_test_extras_are_not():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    imported = _package_imports()
    runtime = _names(project["dependencies"])
    test_only = _names(project["optional-dependencies"]["test"])
    assert [d for d in runtime if IMPORT_NAME.get(d, d) not in imported] == []
    assert [d for d in test_only if IMPORT_NAME.get(d, d) in imported] == []
    assert {"lxml", "pytest-xdist", "jsonschema"} <= set(test_only)
