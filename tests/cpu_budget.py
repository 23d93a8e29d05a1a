"""The suite's rule for long tests: a test whose call uses more than 30 s of CPU must carry the ``slow`` marker.

CPU time, not wall time: another job on the machine stretches a test's clock, not the CPU it uses.  It counts this
process and the child processes it waited for (a command's forked workers).  Machines differ in speed, so the
budget is scaled by how long this machine takes for a fixed workload (``benchmarks/calibrate.py``'s, timed in CPU
time when the session starts) against the reference machine: a slower machine is allowed more, a faster one never
less than 30 s; before a test is failed the machine is timed again and the slower figure kept (machines here drift
within minutes).  A fixture's cost (its setup) is not counted: it is paid once for every test that shares it.  A
worker a test left running (not waited for) is counted by the test that reaps it.
"""

from __future__ import annotations

import importlib.util
import resource
import time
from pathlib import Path

import pytest

#: CPU seconds a test's call may use without the ``slow`` marker, on the reference machine
BUDGET = 30.0
#: the CPU seconds ``benchmarks/calibrate.py``'s workload takes on the reference machine (2 cores; timed as
#: :func:`scale` times it; the wall-clock figures recorded in benchmarks/README.md ranged 0.084–0.166 s)
REFERENCE = 0.10

_scale: float | None = None


def cpu_seconds() -> float:
    """CPU time used so far by this process and by the children it has waited for."""
    own = time.process_time()
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own + kids.ru_utime + kids.ru_stime


def _calibrate():
    """``benchmarks/calibrate.py``'s ``calibrate`` (None without the benchmarks folder)."""
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "calibrate.py"
    spec = importlib.util.spec_from_file_location("_rp_calibrate", path)
    if spec is None or spec.loader is None or not path.is_file():
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.calibrate


def _measure() -> float:
    """How much slower than the reference machine this one runs the calibration workload now (at least 1): its
    median of 5 runs, the garbage collector off, timed in CPU time."""
    calibrate = _calibrate()
    return max(1.0, calibrate(repeats=5, clock=time.process_time) / REFERENCE) if calibrate else 1.0


def scale(again: bool = False) -> float:
    """The machine's slowness against the reference (:func:`_measure`), taken when first asked; ``again``: taken
    once more and the larger kept (a machine drifts within minutes: a test is failed only on the slower figure)."""
    global _scale
    if _scale is None or again:
        _scale = max(_scale or 1.0, _measure())
    return _scale


def over_budget(used: float) -> str | None:
    """Why ``used`` CPU seconds are too many for a test without the ``slow`` marker, or None (over the budget at
    the first calibration: calibrated again, and judged by the larger figure)."""
    if used <= BUDGET * scale() or used <= BUDGET * scale(again=True):
        return None
    allowed = BUDGET * scale()
    return (f"this test's call used {used:.0f} s of CPU, over the {allowed:.0f} s a test may use without the slow "
            f"marker ({BUDGET:.0f} s on the reference machine × {scale():.2f} for this one): mark it "
            f"@pytest.mark.slow (deselected by -m 'not slow'), or make its bounds as small as shows the point")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """A test's call over the CPU budget without the ``slow`` marker fails (imported by tests/conftest.py)."""
    start = cpu_seconds()
    result = yield
    if item.get_closest_marker("slow") is None:
        why = over_budget(cpu_seconds() - start)
        if why:
            pytest.fail(why, pytrace=False)
    return result
