"""The benchmark suite (pytest-benchmark): the commands on the bundled rulebook and a few quick units.

Run from the repository root (the figures and the commands are in benchmarks/README.md):

    .venv/bin/python -m pytest benchmarks/suite --benchmark-only [--bench-rounds 3] [--benchmark-save=NAME]

Not part of the project's test run (pyproject's ``testpaths`` is ``tests``).  Speed is measured, never
asserted: each benchmark checks only that the job did its real work (a broken job is not timed as fast).
The machine's calibration (``benchmarks/calibrate.py``) is taken once before the first benchmark: it is in
each benchmark's ``extra_info``; a saved run holds it with one taken at the end (``ruleproof_calibration_s``)
and the summary prints both.  Saved runs go to ``benchmarks/suite/.runs`` (not committed) unless
``--benchmark-storage`` says otherwise.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

SUITE = Path(__file__).resolve().parent
if str(SUITE.parent) not in sys.path:
    sys.path.insert(0, str(SUITE.parent))  # the scripts beside the suite: calibrate.py, ab_commands.py

from calibrate import calibrate

_DEFAULT_STORAGE = "file://./.benchmarks"  # pytest-benchmark's
_BEFORE = pytest.StashKey[float]()
_AFTER = pytest.StashKey[float]()
_COMPARED = pytest.StashKey[list]()
_MEDIANS = pytest.StashKey[dict]()

#: the figures the fast-feedback issue (49) started from, to print beside this run's: a benchmark's name ->
#: (seconds, the calibration they were taken at, where they come from)
ISSUE_FIGURES = {
    "test_check": (23.4, 0.166, "issue 49: median of 3"),
    "test_prove": (11.8, 0.166, "issue 49"),
    "test_explore": (7.1, 0.166, "issue 49: 146,565 states, 23,408 states/s"),
    "test_diff_cold[cost-x-at-payment]": (47.0, 0.166, "issue 49"),
    "test_diff_cold[assault-on-return-strike]": (60.0, 0.166, "issue 49"),
    "test_diff_warm[cost-x-at-payment]": (25.0, 0.166, "issue 49: «with the base cached» (the draft not named)"),
    "test_check_one_line_edit": (20.4, 0.115, "552fbbf: a one-line edit before Z3's proofs were carried"),
}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("ruleproof benchmarks").addoption(
        "--bench-rounds", type=int, default=3, metavar="N",
        help="runs of each command (check, prove, explore: 10-40 s each) to take the median of (default 3)")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Saved runs in ``benchmarks/suite/.runs`` whatever the current folder (before pytest-benchmark reads it)."""
    if getattr(config.option, "benchmark_storage", None) == _DEFAULT_STORAGE:
        config.option.benchmark_storage = f"file://{SUITE / '.runs'}"


@pytest.fixture(scope="session")
def rounds(request: pytest.FixtureRequest) -> int:
    n = request.config.getoption("--bench-rounds")
    if n < 1:
        raise pytest.UsageError("--bench-rounds must be 1 or more")
    return n


@pytest.fixture(scope="session")
def calibration(request: pytest.FixtureRequest) -> float:
    """The machine's calibration (seconds, median of 5), taken once before the first benchmark."""
    before = calibrate()
    request.config.stash[_BEFORE] = before
    return before


@pytest.fixture(autouse=True)
def _calibrated(benchmark, calibration: float, request: pytest.FixtureRequest):
    """Every benchmark carries the calibration it was taken at; its median is kept for the summary."""
    benchmark.extra_info["calibration_s"] = round(calibration, 4)
    yield
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        request.config.stash.setdefault(_MEDIANS, {})[request.node.name] = stats.stats.median


@pytest.fixture(scope="session")
def bundled():
    from ruleproof.model.rulebook import load_rulebook

    return load_rulebook()


def _after(config: pytest.Config) -> float:
    """The calibration taken after the benchmarks (once)."""
    if _AFTER not in config.stash:
        config.stash[_AFTER] = calibrate()
    return config.stash[_AFTER]


def pytest_benchmark_update_json(config: pytest.Config, benchmarks, output_json: dict) -> None:
    """A saved run holds the machine's speed beside its figures: the calibration before and after."""
    if _BEFORE in config.stash:
        output_json["ruleproof_calibration_s"] = {"before": round(config.stash[_BEFORE], 4),
                                                  "after": round(_after(config), 4)}


def pytest_benchmark_compare_machine_info(config: pytest.Config, benchmarksession, machine_info: dict,
                                          compared_benchmark: dict) -> None:
    """``--benchmark-compare``: the compared run's calibration, for the summary."""
    cal = compared_benchmark.get("ruleproof_calibration_s")
    if cal:
        config.stash.setdefault(_COMPARED, []).append((compared_benchmark.get("datetime", "?"), cal))


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    if _BEFORE in config.stash:
        terminalreporter.write_line(f"calibration (benchmarks/calibrate.py): {config.stash[_BEFORE]:.3f} s before, "
                                    f"{_after(config):.3f} s after")
    medians = config.stash.get(_MEDIANS, {})
    if medians and _BEFORE in config.stash:
        terminalreporter.write_line("this run's medians beside the figures issue 49 started from (scaled to this "
                                    "run's calibration):")
        for name, median in medians.items():
            if name in ISSUE_FIGURES:
                secs, cal, where = ISSUE_FIGURES[name]
                scaled = secs * config.stash[_BEFORE] / cal
                terminalreporter.write_line(f"  {name:45s} {median:7.1f} s   then {secs:5.1f} s at {cal:.3f} s "
                                            f"(scaled {scaled:5.1f} s; now/then {median / scaled:.2f})  {where}")
            else:
                terminalreporter.write_line(f"  {name:45s} {median:7.1f} s   (no earlier figure)")
    for when, cal in config.stash.get(_COMPARED, []):
        factor = ""
        if _BEFORE in config.stash:
            factor = f"; scaled to this run's calibration its times are x {config.stash[_BEFORE] / cal['before']:.2f}"
        terminalreporter.write_line(f"the compared run ({when}): calibration {cal['before']:.3f} s before, "
                                    f"{cal['after']:.3f} s after{factor}")
