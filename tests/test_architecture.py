"""The architecture holds: the layer contract of pyproject.toml (import-linter), every module of the package
in one of its layers, and no import circle among the modules.

The package's folders install under ``ruleproof.*`` through ``package-dir``, which import-linter's graph
builder does not follow (it walks the folder of ``ruleproof`` only); so the sources are laid out as installed
in a temporary folder and import-linter runs there, in a Python started without ``site`` (``-S``) so that
the editable install's finder does not point it back at this checkout.
"""

from __future__ import annotations

import json
import site
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from staging import layout

ROOT = Path(__file__).resolve().parent.parent

_PROBE = """
import json, sys
import grimp, networkx as nx
from importlinter.cli import lint_imports
code = lint_imports(config_filename=sys.argv[1], no_cache=True)
graph = grimp.build_graph("ruleproof", cache_dir=None, exclude_type_checking_imports=True)
g = nx.DiGraph()
for m in graph.modules:
    g.add_node(m)
    g.add_edges_from((m, i) for i in graph.find_modules_directly_imported_by(m))
circles = sorted(sorted(c) for c in nx.strongly_connected_components(g) if len(c) > 1)
print("\\nPROBE " + json.dumps({"code": code, "modules": sorted(graph.modules), "circles": circles}))
"""


def _probe(staged: Path) -> dict:
    """import-linter's exit code and report on the laid-out sources, their modules and import circles."""
    env = {"PYTHONPATH": ":".join([str(staged), *site.getsitepackages()]), "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, "-S", "-c", _PROBE, str(ROOT / "pyproject.toml")], capture_output=True,
                          text=True, env=env, cwd=staged, timeout=300)
    assert "\nPROBE " in proc.stdout, proc.stdout + proc.stderr
    report, _, line = proc.stdout.rpartition("\nPROBE ")
    return {**json.loads(line), "report": report}


@pytest.fixture(scope="module")
def probe(tmp_path_factory) -> dict:
    pytest.importorskip("importlinter")
    return _probe(layout(tmp_path_factory.mktemp("layout")))


def test_the_layer_contract_is_kept(probe):
    """import-linter's report is printed when a module imports one of a higher layer."""
    assert probe["code"] == 0, probe["report"]
    assert len(probe["modules"]) > 90  # the whole package was read, not only the folder of ``ruleproof``


def test_every_module_is_in_a_layer(probe):
    """A new module has a place in the contract (pyproject.toml's layers), or it would escape it."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    (layers,) = [c["layers"] for c in project["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    named = {m.strip() for layer in layers for m in layer.replace("|", ":").split(":")}

    def placed(module: str) -> bool:
        parts = module.split(".")
        return any(".".join(parts[:i]) in named for i in range(1, len(parts) + 1))

    packages = {m.rsplit(".", 1)[0] for m in probe["modules"]}
    unplaced = [m for m in probe["modules"] if not placed(m) and m not in packages]
    assert unplaced == []


def test_no_import_circle(probe):
    """No module imports itself through others (imports for annotations only, under TYPE_CHECKING, aside)."""
    assert probe["circles"] == []


def test_an_upward_import_breaks_the_contract(tmp_path):
    """The contract is not vacuous: the meanings importing a report writer is refused, the import named."""
    pytest.importorskip("importlinter")
    staged = layout(tmp_path)
    fields = staged / "ruleproof" / "model" / "fields.py"
    fields.write_text(fields.read_text("utf-8") + "\nfrom ruleproof.reports import terminal  # planted\n", "utf-8")
    out = _probe(staged)
    assert out["code"] != 0
    assert "ruleproof.model.fields is not allowed to import ruleproof.reports.terminal" in out["report"]


def _package_sources():
    """(path in the repository, text) of every Python file of the package's folders."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    for folder in sorted(set(project["tool"]["setuptools"]["package-dir"].values())):
        for path in sorted((ROOT / folder).rglob("*.py")):
            yield path.relative_to(ROOT), path.read_text("utf-8")


def _unreasoned_imports(rel, text: str) -> list[str]:
    """Imports inside a function with no comment on their line or just above their block of imports."""
    import ast
    import re

    lines = text.splitlines()
    found = []
    for fn in ast.walk(ast.parse(text)):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(fn):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            i = node.lineno - 1
            while "#" not in lines[i] and i > 0 and re.match(r"\s*(from \S+ )?import ", lines[i - 1]):
                i -= 1  # the block of imports this one belongs to
            if "#" not in lines[i] and not (i > 0 and lines[i - 1].strip().startswith("#")):
                found.append(f"{rel}:{node.lineno}: {lines[node.lineno - 1].strip()}")
    return sorted(set(found))


def test_a_function_imports_only_with_a_reason():
    """Imports are at the top of a module; one inside a function says why in a comment (start-up time of the
    command line or the pytest plugin, a slow optional library, a name a test replaces, a module only some
    systems have)."""
    assert [f for rel, text in _package_sources() for f in _unreasoned_imports(rel, text)] == []


def test_an_import_inside_a_function_without_a_reason_is_named():
    planted = "def f():\n    import os\n    return os\n\n\ndef g():\n    import os  # start-up\n    return os\n"
    assert _unreasoned_imports("planted.py", planted) == ["planted.py:2: import os"]


def test_every_package_folder_installs():
    """Each folder with an ``__init__.py`` under the package's folders is a package that pyproject.toml lists
    (else a wheel, unlike an editable install, leaves it out)."""
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]
    listed = set(setup["packages"])
    found = {".".join((name, *init.parent.relative_to(ROOT / folder).parts))
             for name, folder in setup["package-dir"].items() for init in (ROOT / folder).rglob("__init__.py")}
    assert len(found) > 8 and found - listed == set()


def _unit_problems(rel, text: str) -> list[str]:
    """A function or method above radon's grade C (cyclomatic complexity 20) or over 80 lines, a module whose
    maintainability index is below 20 (radon's grade A): each named."""
    from radon.complexity import cc_visit
    from radon.metrics import mi_visit

    found = []
    for block in cc_visit(text):
        for unit in (block, *getattr(block, "methods", ())):
            if unit.complexity > 20:
                found.append(f"{rel}:{unit.lineno} {unit.name} (complexity {unit.complexity})")
            if unit.endline - unit.lineno + 1 > 80 and not hasattr(unit, "methods"):
                found.append(f"{rel}:{unit.lineno} {unit.name} ({unit.endline - unit.lineno + 1} lines)")
    mi = mi_visit(text, multi=True)
    if mi < 20:
        found.append(f"{rel} (maintainability {mi:.1f})")
    return sorted(set(found))


def test_small_units():
    """No function or method of the package above radon's grade C or 80 lines, every module's maintainability
    index at least 20: what to split is named."""
    pytest.importorskip("radon")
    assert [f for rel, text in _package_sources() for f in _unit_problems(rel, text)] == []


def test_a_tangled_function_is_named():
    """The limits are not vacuous: 25 branches in one function, 90 lines in another."""
    pytest.importorskip("radon")
    branches = "".join(f"    if x == {i}:\n        return {i}\n" for i in range(25))
    lines = "".join(f"    y = {i}\n" for i in range(90))
    problems = _unit_problems("planted.py", f"def tangled(x):\n{branches}    return -1\n\n\ndef long():\n{lines}")
    assert [p.split(" (")[0] for p in problems if "planted.py:" in p] == ["planted.py:1 tangled", "planted.py:55 long"]
