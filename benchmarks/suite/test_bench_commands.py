"""The three long commands on the bundled rulebook, each a fresh process timed whole (wall clock, from the
start of the process to its end: imports, loading, every engine) — what a user waits for, and the same argv
as ``ab_commands.py`` (its ``COMMANDS``), so the two give comparable figures.  ``--bench-rounds N`` runs
(default 3), no warm-up; the median is the figure.  After the runs, every run's output is checked to be the
real result (exit code, every verdict), so a broken command is never timed as fast."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from ab_commands import COMMANDS


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """Runs start in an empty folder (as in ``ab_commands.py``): the command's caches (Hypothesis's, the
    run cache) are not the repository's, and the package comes from the installed ruleproof."""
    return tmp_path_factory.mktemp("commands")


def _time_command(benchmark, name: str, rounds: int, cwd) -> list[tuple[int, dict, str]]:
    """``rounds`` timed runs of ``ruleproof COMMANDS[name]``; each run's (exit code, JSON output, stderr)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    cmd = [sys.executable, "-m", "ruleproof", *COMMANDS[name]]
    done: list[subprocess.CompletedProcess] = []

    def once() -> None:
        done.append(subprocess.run(cmd, check=False, cwd=cwd, env=env, capture_output=True, text=True))

    benchmark.extra_info["command"] = "ruleproof " + " ".join(COMMANDS[name])
    benchmark.pedantic(once, rounds=rounds, iterations=1, warmup_rounds=0)
    out = []
    for run in done:
        try:
            doc = json.loads(run.stdout)
        except ValueError:
            pytest.fail(f"{' '.join(cmd)} exited {run.returncode} without JSON: {run.stderr.strip()[-800:]}")
        out.append((run.returncode, doc, run.stderr))
    return out


def test_check(benchmark, rounds, workdir):
    """``ruleproof check --format json``: every engine (in one process per core) and the reports."""
    from ruleproof.engine_registry import NAMES

    for code, doc, err in _time_command(benchmark, "check", rounds, workdir):
        assert code == 0 and doc["exit_code"] == 0 and doc["verdict"] == "holds", err[-800:]
        sections = {s["group"]: s for s in doc["sections"]}
        assert set(sections) == set(NAMES), sorted(sections)
        assert all(s["ok"] and s["results"] for s in sections.values()), [g for g, s in sections.items() if not s["ok"]]
    benchmark.extra_info["results"] = sum(len(s["results"]) for s in doc["sections"])


def test_prove(benchmark, rounds, workdir):
    """``ruleproof prove --jobs 2 --format json``: Z3, every property of the catalogue."""
    from ruleproof.properties.catalogue import PROPERTIES

    for code, doc, err in _time_command(benchmark, "prove", rounds, workdir):
        verdicts = {v["property"]: v["verdict"] for v in doc["verdicts"]}
        assert set(verdicts) == {p.id for p in PROPERTIES}, err[-800:]
        assert all(v.startswith("proved") for v in verdicts.values()), verdicts
        # proved within the Z3 worlds (the menu) only: exit 3 without --accept-menu
        assert doc["ok"] and code == (3 if doc["within_menu"] else 0), (code, err[-800:])
    benchmark.extra_info["properties"] = len(verdicts)


def test_explore(benchmark, rounds, workdir):
    """``ruleproof explore --format json``: every play of every world of the default bounds, every property."""
    runs = _time_command(benchmark, "explore", rounds, workdir)
    for code, doc, err in runs:
        figures = doc["rulebook"]
        assert code == 0 and doc["ok"] and figures["complete"], (code, err[-800:])
        failed = [c["check"] for c in doc["checks"] if not c["holds"]]
        assert doc["checks"] and not failed, failed
        assert figures["states"] > 0 and figures["worlds"] > 0
    states = {doc["rulebook"]["states"] for _, doc, _ in runs}
    assert len(states) == 1, states  # the same search every run
    searched = sorted(doc["rulebook"]["states_per_second"] for _, doc, _ in runs)
    benchmark.extra_info.update(worlds=figures["worlds"], states=states.pop(),
                                states_per_s_search=searched[len(searched) // 2])  # the search alone, as reported
    median = _median(benchmark)
    if median:
        benchmark.extra_info["states_per_s_wall"] = round(benchmark.extra_info["states"] / median)


def _median(benchmark) -> float | None:
    """The benchmark's median (s); None where nothing was timed (``--benchmark-disable``)."""
    stats = getattr(benchmark, "stats", None)
    return stats.stats.median if stats is not None else None
