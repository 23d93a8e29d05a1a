"""The package's sources laid out as they install, for the tools that cannot follow ``package-dir``.

The folders install under ``ruleproof.*`` (``model/`` as ``ruleproof/model``, …); import-linter's graph
builder and mypy walk a folder tree, so the sources are copied into one (Python files only).  Run as a
script, it type-checks the package and names each error by its file in this checkout::

    .venv/bin/python tests/staging.py mypy
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _package_dirs() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    return project["tool"]["setuptools"]["package-dir"]


def layout(dest: Path) -> Path:
    """The package's sources as they install (``ruleproof/model``, …), Python files only."""
    only_py = shutil.ignore_patterns("__pycache__", "data", "*.yaml", "*.md", "*.txt")
    for name, folder in sorted(_package_dirs().items(), key=lambda kv: kv[0].count(".")):
        if (ROOT / folder).is_dir() and any((ROOT / folder).glob("*.py")):
            target = dest.joinpath(*name.split("."))
            shutil.copytree(ROOT / folder, target, ignore=only_py, dirs_exist_ok=True)
    return dest


def source_path(staged: str) -> str:
    """A laid-out path named by its file in this checkout: ``ruleproof/model/x.py`` → ``model/x.py``."""
    best = max((name for name in _package_dirs() if staged.startswith(name.replace(".", "/") + "/")),
               key=len, default=None)
    if best is None:
        return staged
    return _package_dirs()[best] + staged[len(best.replace(".", "/")):]


def mypy(staged: Path) -> subprocess.CompletedProcess:
    """mypy with pyproject's settings on the laid-out package; its report names files of this checkout."""
    proc = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                           "--no-incremental", "--no-error-summary", "--hide-error-context", "ruleproof"],
                          capture_output=True, text=True, cwd=staged, timeout=600, check=False)
    proc.stdout = re.sub(r"^(ruleproof/\S+?\.py)", lambda m: source_path(m.group(1)), proc.stdout, flags=re.MULTILINE)
    return proc


if __name__ == "__main__":
    if sys.argv[1:] != ["mypy"]:
        sys.exit("usage: tests/staging.py mypy")
    with tempfile.TemporaryDirectory() as tmp:
        done = mypy(layout(Path(tmp)))
    sys.stdout.write(done.stdout + done.stderr)
    sys.exit(done.returncode)
