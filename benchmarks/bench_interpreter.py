"""Interpreter speed on the shipped rulings: events (interpreter steps) per second, medians.

Run:  .venv/bin/python benchmarks/bench_interpreter.py [--repeats 7] [--rounds 20]

Each repeat runs every shipped ruling ``rounds`` times on the bundled rulebook (loading excluded);
the figures are medians over the repeats.  A figure, not a test: machines here are noisy.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from importlib import resources
from pathlib import Path

from ruleproof.model.interpreter import run
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.scenario import load_scenario


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()
    rb = load_rulebook()
    scenarios = [load_scenario(p) for p in sorted(Path(str(resources.files("ruleproof.rulings"))).glob("*.yaml"))]
    rates, per_run = [], []
    events = 0
    for _ in range(args.repeats):
        events = 0
        start = time.perf_counter()
        for _ in range(args.rounds):
            for sc in scenarios:
                events += len(run(rb, sc.initial_state(), sc.choices()).events)
        elapsed = time.perf_counter() - start
        rates.append(events / elapsed)
        per_run.append(elapsed / (args.rounds * len(scenarios)))
    print(f"python {platform.python_version()} on {platform.machine()}, {len(scenarios)} rulings, "
          f"{args.rounds} rounds x {args.repeats} repeats")
    print(f"interpreter events/s (median): {statistics.median(rates):,.0f}  "
          f"(min {min(rates):,.0f}, max {max(rates):,.0f})")
    print(f"one ruling run (median): {statistics.median(per_run) * 1000:.2f} ms; "
          f"events per run: {events / (args.rounds * len(scenarios)):.0f}")


if __name__ == "__main__":
    sys.exit(main())
