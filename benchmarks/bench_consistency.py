"""Time to verdict of `ruleproof consistency` (the engine call, loading excluded): median of N repeats.

Run: .venv/bin/python benchmarks/bench_consistency.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import platform
import statistics
from importlib import resources
from pathlib import Path

import z3

from ruleproof.model.rulebook import load_rulebook
from ruleproof.properties.consistency import consistency

DRAFTS = Path(str(resources.files("ruleproof.rulebooks").joinpath("drafts")))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=5)
    n = ap.parse_args().repeats
    print(f"Python {platform.python_version()}, Z3 {z3.get_version_string()}, median of {n}")
    for name, path in (("bundled", None), ("cost-x-at-payment", DRAFTS / "cost-x-at-payment.yaml"),
                       ("magnitude-modifiers-first", DRAFTS / "magnitude-modifiers-first.yaml")):
        rb = load_rulebook(path)
        runs = [consistency(rb) for _ in range(n)]
        times = [r.seconds for r in runs]
        out = runs[0]
        print(f"{name:28s} {out.status:10s} cores={len(out.cores):2d}  median {statistics.median(times):.3f} s "
              f"(min {min(times):.3f}, max {max(times):.3f})")


if __name__ == "__main__":
    main()
