"""The suite's rule for long tests (tests/cpu_budget.py, issue 49): a test's call that uses more CPU than the budget
fails unless it carries the ``slow`` marker; time spent waiting (a sleep, another job on the machine) does not count.
Shown on a planted suite with a budget of 0.5 s."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent

PLANTED = '''
import time
import pytest

def _spin(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass

def test_quick():
    _spin(0.1)

def test_sleeps_long_but_uses_little():
    time.sleep(1.5)

def test_spins_over_the_budget():
    _spin(1.0)

@pytest.mark.slow
def test_spins_over_the_budget_marked_slow():
    _spin(1.0)
'''

#: the planted suite's conftest: the suite's own hook, a budget of 0.5 s on a machine taken as the reference
CONFTEST = """
import sys
sys.path.insert(0, {tests!r})
import cpu_budget
cpu_budget.BUDGET, cpu_budget._scale = 0.5, 1.0
cpu_budget._measure = lambda: 1.0  # the reference machine, however fast this one is now
from cpu_budget import pytest_runtest_call  # noqa: F401
"""


def test_a_long_test_needs_the_slow_marker_and_waiting_is_not_counted(tmp_path):
    (tmp_path / "conftest.py").write_text(CONFTEST.format(tests=str(TESTS)), "utf-8")
    (tmp_path / "test_planted.py").write_text(PLANTED, "utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    slow: long\n", "utf-8")
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                          "--rootdir", str(tmp_path), str(tmp_path)],
                         capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert "1 failed, 3 passed" in out.stdout, out.stdout + out.stderr
    assert "FAILED test_planted.py::test_spins_over_the_budget -" in out.stdout
    assert "s of CPU, over the 0 s a test may use without the slow marker" in out.stdout and "@pytest.mark.slow" in out.stdout
