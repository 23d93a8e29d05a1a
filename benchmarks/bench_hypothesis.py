"""The Hypothesis pass: time of `check` at 500 examples, choices answered/s, time to kill each public mutant.

Run:  .venv/bin/python benchmarks/bench_hypothesis.py [--examples 500] [--repeats 3]

Time to kill = time until the named property's first counterexample (no shrinking), median over
repeats with different seeds.  Figures, not tests.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import hypothesis

from ruleproof.generators.mutants import PUBLIC, mutant_yaml
from ruleproof.generators.run import hypothesis_pass
from ruleproof.model import interpreter
from ruleproof.model.rulebook import load_rulebook, load_rulebook_text



def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--examples", type=int, default=500)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    steps = 0
    original = interpreter.Stepper.answer

    def counting(self, value):
        nonlocal steps
        steps += 1
        return original(self, value)

    interpreter.Stepper.answer = counting
    t0 = time.perf_counter()
    out = hypothesis_pass(load_rulebook(), examples=args.examples, cache_dir=None)
    elapsed = time.perf_counter() - t0
    interpreter.Stepper.answer = original
    print(f"python {platform.python_version()}, hypothesis {hypothesis.__version__}")
    print(f"bundled rulebook, {args.examples} examples: {elapsed:.1f} s, all hold: "
          f"{all(r.holds for r in out.results)}; interpreter choices answered: {steps} ({steps / elapsed:,.0f}/s)")
    kills = []
    for mid, pid in PUBLIC.items():
        rb = load_rulebook_text(mutant_yaml(mid), mid)
        times = []
        for seed in range(args.repeats):
            t0 = time.perf_counter()
            res = hypothesis_pass(rb, examples=args.examples, cache_dir=None, shrinks=0, only=frozenset({pid}),
                                  seed=seed)
            assert not res.results[0].holds, (mid, seed)
            times.append(time.perf_counter() - t0)
        kills.append(statistics.median(times))
        print(f"{mid} killed by {pid}: median {kills[-1]:.2f} s (min {min(times):.2f}, max {max(times):.2f})")
    print(f"median time to kill over the public mutants: {statistics.median(kills):.2f} s")


if __name__ == "__main__":
    main()
