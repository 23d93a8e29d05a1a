"""Shared fixtures: the bundled rulebook as data, and a way to write edited copies (mutants)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Callable

import pytest
import yaml

from ruleproof.generators.mutants import find_op
from ruleproof.model.rulebook import bundled_rulebook_path, load_rulebook

from cpu_budget import pytest_runtest_call  # noqa: F401 - the suite's rule for long tests, a hook

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"


@pytest.fixture(autouse=True)
def _no_check_cache(monkeypatch):
    """`check` in this process makes every run (its cache's own tests turn it on): tests patch engines and plant
    properties inside the process, which the cache's key — files, options, versions — cannot see."""
    from ruleproof.commands import check

    monkeypatch.setattr(check, "CACHE_ON", False)


@pytest.fixture(scope="module")
def bundled():
    """The bundled rulebook, loaded (once per test module)."""
    return load_rulebook()


@pytest.fixture(scope="session")
def bundled_data() -> dict:
    return yaml.safe_load(bundled_rulebook_path().read_text("utf-8"))


@pytest.fixture
def write_rulebook(tmp_path: Path, bundled_data: dict) -> Callable[[Callable[[dict], None]], Path]:
    """Write the bundled rulebook, edited by ``edit(data)``, to a file; return its path."""
    counter = iter(range(1000))

    def write(edit: Callable[[dict], None] | None = None, name: str | None = None) -> Path:
        data = copy.deepcopy(bundled_data)
        if edit:
            edit(data)
        path = tmp_path / (name or f"mutant{next(counter)}.yaml")
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        return path

    return write


@pytest.fixture
def seeds() -> Path:
    if not SEEDS.is_dir():
        pytest.skip("../shared/seeds is not present (a user's clone has none)")
    return SEEDS


@pytest.fixture(scope="session")
def op_index() -> Callable[..., int]:
    """``op_index(data, step, op, **params)``: position of the first matching operation in ``step``."""
    return find_op


@pytest.fixture
def planted_property(monkeypatch):
    """A property whose premise no run of any engine reaches (an event no rulebook emits), added to the
    catalogue for the test: every engine must call it *not exercised*, never "holds"."""
    from ruleproof.properties import catalogue
    from ruleproof.properties.monitor import Bad, Monitor, flag

    m = Monitor("P0-planted", (flag("hz_seen", "no_such_event", lambda M, ev, pre, new, h: True),),
                (Bad(lambda M, S, h: M.false(), "никогда", "never"),), lambda M, S, h: M.on(h["hz_seen"]),
                "an event no rulebook has happens", "происходит событие, которого нет ни в одном своде")
    p = catalogue.Property("P0-planted", ("540",), "посаженное свойство", "a planted property", m)
    monkeypatch.setattr(catalogue, "PROPERTIES", [*catalogue.PROPERTIES, p])
    monkeypatch.setattr(catalogue, "BY_ID", {**catalogue.BY_ID, p.id: p})
    return p


@pytest.fixture
def edited_copy(tmp_path: Path) -> Callable[[Path, Callable[[dict], None]], Path]:
    """Write a copy of a YAML file (a ruling, a rulebook) edited by ``edit(data)``; return its path."""
    counter = iter(range(1000))

    def write(source: Path, edit: Callable[[dict], None]) -> Path:
        data = yaml.safe_load(Path(source).read_text("utf-8"))
        edit(data)
        path = tmp_path / f"{Path(source).stem}-{next(counter)}.yaml"
        path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
        return path

    return write

