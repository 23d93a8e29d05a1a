"""The pytest plugin: a folder of rulings is a test suite; ``--rulebook`` runs it against a draft."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from ruleproof.generators.mutants import write_mutant
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.scenario import load_rulings, run_scenario
from ruleproof.pytest_plugin import looks_like_scenario

ROOT = Path(__file__).resolve().parents[2]
RULINGS = sorted((ROOT / "rulings").glob("**/*.yaml"))
#: every ruling: a file with cases gives one per case
SCENARIOS = [sc for p in RULINGS for sc in load_rulings(p)]


def pytest_in(folder: Path, *args: str, lang: str = "en") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["RULEPROOF_LANG"] = lang
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd=folder,
                          env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A fresh folder holding only a copy of the shipped rulings."""
    shutil.copytree(ROOT / "rulings", tmp_path / "rulings")
    return tmp_path


def _failed(out: str) -> set[str]:
    return set(re.findall(r"^FAILED \S+::(\S+)", out, re.M))


def test_a_copy_of_the_rulings_is_a_passing_suite(folder: Path) -> None:
    assert (len(RULINGS), len(SCENARIOS)) == (68, 84)
    res = pytest_in(folder, "-rA")
    assert res.returncode == 0, res.stdout + res.stderr
    assert f"{len(SCENARIOS)} passed" in res.stdout
    ids = set(re.findall(r"^PASSED rulings/\S+\.yaml::(\S+)", res.stdout, re.M))
    assert ids == {sc.spec.id for sc in SCENARIOS}
    assert {"after-by-status/blocked", "after-by-status/not-blocked"} <= ids  # one item per case


def test_against_a_mutant_the_broken_rulings_fail_with_clause_expected_actual(folder: Path) -> None:
    mutant = write_mutant("M4", folder)
    draft = load_rulebook(mutant)
    broken = {sc.spec.id for sc in SCENARIOS if not run_scenario(sc, draft).passed}
    assert broken  # M4 breaks some rulings, or this test would prove nothing
    res = pytest_in(folder, "--rulebook", "M4.yaml", "-rf")
    assert res.returncode == 1, res.stdout + res.stderr
    assert _failed(res.stdout) == broken
    assert f"{len(broken)} failed, {len(SCENARIOS) - len(broken)} passed" in res.stdout
    block = res.stdout.split("ruling kele-attacker _")[1].split("\n_")[0]
    for text in ("clauses: 540.4.1/ex1, 540.4, 540.2, 540.3", "✗ cards.kele.action_markers", "expected: 1",
                 "actual: 0", "Trace of the game action (outcome: completed)", "give_action_marker",
                 "replay: ruleproof run", "--rulebook M4.yaml"):
        assert text in block, text
    assert "Traceback" not in res.stdout


def test_ini_option_names_the_rulebook(folder: Path) -> None:
    write_mutant("M4", folder)
    (folder / "pytest.ini").write_text("[pytest]\nruleproof_rulebook = M4.yaml\n", encoding="utf-8")
    res = pytest_in(folder)
    assert res.returncode == 1 and "kele-attacker" in res.stdout


def _write(path: Path, data: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def test_a_wrong_ruling_shows_its_failure_in_both_languages(folder: Path) -> None:
    data = yaml.safe_load((ROOT / "rulings" / "540-kele-attacker.yaml").read_text("utf-8"))
    data["id"] = "kele-wrong"
    data["expect"]["cards"]["kele"]["action_markers"] = 5
    _write(folder / "rulings" / "zz-wrong.yaml", data)
    res = pytest_in(folder, "rulings/zz-wrong.yaml")
    assert res.returncode == 1
    assert "cards.kele.action_markers: expected 5, got 1" in res.stdout
    assert "expected: 5" in res.stdout and "actual: 1" in res.stdout and "540.3" in res.stdout
    ru = pytest_in(folder, "rulings/zz-wrong.yaml", lang="ru")
    assert "ожидалось: 5" in ru.stdout and "получено: 1" in ru.stdout


def test_a_property_expectation_failure_names_the_property_and_events(folder: Path) -> None:
    data = yaml.safe_load((ROOT / "rulings" / "540-kele-attacker.yaml").read_text("utf-8"))
    data["id"], data["expect"] = "kele-marker-property", {"properties": ["P540.3-action-marker"]}
    _write(folder / "cx" / "saved.yaml", data)
    write_mutant("M4", folder)
    assert pytest_in(folder, "cx").returncode == 0
    res = pytest_in(folder, "cx", "--rulebook", "M4.yaml")
    assert res.returncode == 1
    assert "✗ property P540.3-action-marker" in res.stdout and "violated at events #" in res.stdout


def test_a_malformed_scenario_is_a_located_collection_error(folder: Path) -> None:
    text = (ROOT / "rulings" / "540-kele-attacker.yaml").read_text("utf-8").replace("controller: A", "controller: C", 1)
    bad = folder / "rulings" / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "controller: C" in t)
    res = pytest_in(folder)
    assert res.returncode == 2
    assert "ERROR collecting rulings/bad.yaml" in res.stdout
    assert f"{bad}:{line}:" in res.stdout and "error RP119" in res.stdout and "fix:" in res.stdout
    assert "Traceback" not in res.stdout and "raise " not in res.stdout


def test_a_bad_rulebook_option_is_a_usage_error(folder: Path) -> None:
    res = pytest_in(folder, "--rulebook", "missing.yaml")
    assert res.returncode == 4
    assert "missing.yaml: error RP100: file not found" in res.stderr and "Traceback" not in res.stderr


def test_only_scenarios_are_collected(tmp_path: Path) -> None:
    kele = yaml.safe_load((ROOT / "rulings" / "540-kele-attacker.yaml").read_text("utf-8"))
    _write(tmp_path / "team" / "kele.yaml", kele)  # a scenario outside rulings/: collected by its format
    _write(tmp_path / "tests" / "data" / "kele.yaml", kele)  # test data: never
    shutil.copy(ROOT / "rulebooks" / "berserk-rp-4.1-2.yaml", tmp_path / "draft.yaml")  # a rulebook: never
    (tmp_path / "ci.yml").write_text("jobs: {a: 1}\n", encoding="utf-8")
    res = pytest_in(tmp_path, "--collect-only")
    assert res.returncode == 0, res.stdout + res.stderr
    assert "team/kele.yaml::kele-attacker" in res.stdout and "1 test collected" in res.stdout


def test_the_project_suite_collects_no_yaml() -> None:
    res = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "tests"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0 and re.search(r"\d+ tests collected", res.stdout)
    assert ".yaml::" not in res.stdout and ".yml::" not in res.stdout


def test_format_sniffing() -> None:
    assert looks_like_scenario("# comment\nformat: 'ruleproof-scenario/1'  # x\nid: a\n")
    assert not looks_like_scenario("id: a\nnested:\n  format: ruleproof-scenario/1\n")
    assert not looks_like_scenario("format: ruleproof-rulebook/1\n")
