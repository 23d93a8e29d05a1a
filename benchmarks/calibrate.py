"""How fast this machine runs Python right now: a fixed workload that does not use ruleproof.

Run:  .venv/bin/python benchmarks/calibrate.py [--repeats 5]

A states/s figure depends on the machine as much as on the code. The shared machines here have
differed by more than 2× from one session to the next, and drifted by a third within minutes. The
workload does what the explorer does per event, on records of its own: it builds small named
tuples, hashes them into a set, counts their operation in a dict and appends them to a tuple
rebuilt each time. It is the same in every commit, so its time measures the machine, not the code.
The benchmarks print it next to their figures (``compare.py`` and ``scale.py`` in their machine
line, ``explore_split.py`` and ``ab_explore.py`` before and after). To compare a figure taken with
calibration ``c2`` with one taken with ``c1``, scale a rate (states/s) by ``c2 / c1`` and a time by
``c1 / c2``. A figure, not a test.

>>> calibrate(repeats=1, n=1_000) > 0
True
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from typing import NamedTuple

__all__ = ["calibrate", "before_after", "workload"]


class _Rec(NamedTuple):
    op: str
    seq: int
    value: tuple


_OPS = ("enter", "roll_die", "window", "pass", "play", "fix_x", "declare", "end")


def workload(n: int = 200_000) -> int:
    """``n`` records built, hashed into a set, their operation counted in a dict, each appended to a
    tuple rebuilt every time (reset every 64); returns a checksum (a changed workload shows)."""
    seen: set = set()
    counts: dict = {}
    trace: tuple = ()
    for i in range(n):
        r = _Rec(_OPS[i & 7], i & 1023, (i % 6, i % 7))
        seen.add(r)
        counts[r.op] = counts.get(r.op, 0) + 1
        if i & 63 == 0:
            trace = ()
        trace = trace + (r,)
    return len(seen) + sum(counts.values()) + len(trace)


def calibrate(repeats: int = 5, n: int = 200_000, clock=time.perf_counter) -> float:
    """The median of ``repeats`` timings of :func:`workload` (seconds), with the cyclic garbage
    collector off as in the explorer's search (else its time depends on what else the process holds:
    ≈ 10 % more after importing z3 and Hypothesis).  ``clock``: wall time by default; the test suite's CPU
    budget (tests/cpu_budget.py) passes ``time.process_time``."""
    times = []
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeats):
            start = clock()
            workload(n)
            times.append(clock() - start)
    finally:
        if enabled:
            gc.enable()
    return statistics.median(times)


def before_after(before: float) -> str:
    """The line the benchmarks end with: ``before`` (a calibration taken before their runs) and one
    taken now."""
    return f"calibration (benchmarks/calibrate.py): {before:.3f} s before, {calibrate():.3f} s after"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    print(f"calibration: {calibrate(args.repeats):.3f} s (median of {args.repeats}; benchmarks/calibrate.py)")


if __name__ == "__main__":
    main()
