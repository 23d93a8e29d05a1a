"""What an editor waits for (issue 49): ``diff`` of each example draft against the bundled rulebook, cold (no
cache) and warm (the base's runs and proofs kept from an earlier ``diff``), and ``check`` of a one-line edit
with every engine after an earlier edit (the run cache and Z3's proofs warm: ``properties/carry.py``).  Each a
fresh process timed whole, in a folder of its own prepared before the round (untimed), ``--bench-rounds`` runs;
every run's output is checked to be the real result before its time counts.  The issue's figures are printed
beside this run's medians at the end (``conftest.py``: ``ISSUE_FIGURES``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = ROOT / "rulebooks" / "berserk-rp-4.1-2.yaml"
DRAFTS = sorted(p.stem for p in (ROOT / "rulebooks" / "drafts").glob("*.yaml"))
#: the one-line edits of the edit-check loop: a window's first player (as benchmarks/bench_recheck.py)
EDIT = ("first: active_player", "first: non_active_player")


def _env() -> dict:
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def _ruleproof(argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "ruleproof", "--lang", "en", *argv], check=False, cwd=cwd,
                          env=_env(), capture_output=True, text=True)


def _edit(text: str, window: str) -> str:
    """``text`` with window ``window``'s first player changed."""
    i = text.index(EDIT[0], text.index(f"id: {window}"))
    return text[:i] + EDIT[1] + text[i + len(EDIT[0]):]


def _timed(benchmark, argv: list[str], prepare, tmp_path_factory, rounds: int) -> list[subprocess.CompletedProcess]:
    """``rounds`` runs of ``ruleproof argv``, each in a fresh folder that ``prepare(folder)`` filled (untimed)."""
    done: list[subprocess.CompletedProcess] = []
    folders: list[Path] = []

    def setup():
        folder = tmp_path_factory.mktemp("round")
        prepare(folder)
        folders.append(folder)
        return (), {}

    def once() -> None:
        done.append(_ruleproof(argv, folders[-1]))

    benchmark.extra_info["command"] = "ruleproof " + " ".join(argv)
    benchmark.pedantic(once, setup=setup, rounds=rounds, iterations=1)
    return done


def _diff_doc(run: subprocess.CompletedProcess) -> dict:
    assert run.returncode in (0, 1), run.stderr[-800:]
    doc = json.loads(run.stdout)
    assert doc["schema"] and doc["engines"], doc.keys()
    return doc


@pytest.fixture(scope="module")
def warm_base(tmp_path_factory) -> Path:
    """A folder whose cache holds the base's runs and proofs: one untimed ``diff`` of the bundled rulebook
    against itself with every engine."""
    folder = tmp_path_factory.mktemp("warm-base")
    run = _ruleproof(["diff", str(BUNDLED), str(BUNDLED), "--format", "json"], folder)
    assert run.returncode == 0, run.stderr[-800:]
    return folder


@pytest.mark.parametrize("draft", DRAFTS)
def test_diff_cold(benchmark, rounds, draft, tmp_path_factory):
    """``ruleproof diff BASE DRAFT --no-cache --format json``: every engine on both rulebooks."""
    argv = ["diff", str(BUNDLED), str(ROOT / "rulebooks" / "drafts" / f"{draft}.yaml"), "--no-cache", "--format", "json"]
    for run in _timed(benchmark, argv, lambda folder: None, tmp_path_factory, rounds):
        assert _diff_doc(run)["base_from_cache"] == []


@pytest.mark.parametrize("draft", DRAFTS)
def test_diff_warm(benchmark, rounds, draft, warm_base, tmp_path_factory):
    """``ruleproof diff BASE DRAFT --format json`` with the base's runs and proofs in the cache (a copy per round)."""
    argv = ["diff", str(BUNDLED), str(ROOT / "rulebooks" / "drafts" / f"{draft}.yaml"), "--format", "json"]

    def prepare(folder: Path) -> None:
        shutil.copytree(warm_base / ".ruleproof-cache", folder / ".ruleproof-cache")

    for run in _timed(benchmark, argv, prepare, tmp_path_factory, rounds):
        assert _diff_doc(run)["base_from_cache"], run.stderr[-800:]


def test_check_one_line_edit(benchmark, rounds, tmp_path_factory):
    """``ruleproof check rb.yaml --format json`` with every engine on a second one-line edit (the dice-modifier
    window's first player), the cache warm from a check of the bundled rulebook and of a first edit (the re-roll
    window's, both keeping Z3's proofs as ``--watch`` does): the editor's loop after its first edit."""
    original = BUNDLED.read_text("utf-8")
    first = _edit(original, "reroll")
    prepared = tmp_path_factory.mktemp("edit-loop")
    for text in (original, first):  # as two rounds of ``check --watch``: Z3's proofs kept
        (prepared / "rb.yaml").write_text(text, "utf-8")
        run = _ruleproof(["check", "rb.yaml", "--format", "json", "--keep-proofs"], prepared)
        assert run.returncode in (0, 1), run.stderr[-800:]

    def prepare(folder: Path) -> None:
        shutil.copytree(prepared / ".ruleproof-cache", folder / ".ruleproof-cache")
        (folder / "rb.yaml").write_text(_edit(first, "dice_modifiers"), "utf-8")

    for run in _timed(benchmark, ["check", "rb.yaml", "--format", "json"], prepare, tmp_path_factory, rounds):
        assert run.returncode == 1, run.stderr[-800:]  # the edit breaks S5 and more
        assert json.loads(run.stdout)["exit_code"] == 1 and "Z3:" in run.stderr, run.stderr[-800:]  # proofs carried
