"""How time grows: synthetic rulebooks 1×, 2×, 5×, 10× the steps and operations; 10, 100, 1,000 rulings.

Run:  .venv/bin/python benchmarks/scale.py [--quick] [--repeats 3] [--sizes 1,2,5,10] [--rulings 10,100,1000]

Synthetic rulebooks are data built from the bundled YAML: ``synthetic_yaml(k)`` chains k copies of
the execution steps claim_resolution → dice → calculation → blocking → effect → completion (copy i's
steps renamed ``<id>__i``, its windows ``<window>__i``; copy i's completion continues to copy i+1,
the last to payment).  They load with ``load_rulebook_text`` and run; the properties may complain
(a second die roll, a second window of the same kind) — that does not matter for timing.

Figures (medians over repeats), each with the log-log least-squares exponent of time against size:

* interpreter — one seeded random play (``RandomChoices``) of every world of ``bounded_worlds(0)``;
* explore (die = 1) — the exhaustive pass with one die face (``Bounds(x_max=0, die=(1, 1))``) over
  the 'none' loadout (no responses to play): one play per world, so this is the explorer's cost per
  step (with responses or two die faces each copy multiplies the plays: exponential in k);
* explore (die 1–2, loadout none) — with two die faces each copy's roll doubles the plays (2^k):
  shown to make that explicit, not fitted as a polynomial;
* rulings — the rulings engine (``run_rulings``: load, run and judge each scenario) over N rulings
  (the shipped ones repeated); the issue's target is exponent ≤ 1.
"""

from __future__ import annotations

import argparse
import copy
import math
import statistics
import sys
import time

import yaml

__all__ = ["CHAIN", "synthetic_yaml", "fit_exponent", "time_rulings", "main"]

CHAIN = ("claim_resolution", "dice", "calculation", "blocking", "effect", "completion")


def synthetic_yaml(k: int) -> str:
    """The bundled rulebook with its execution chain repeated ``k`` times, as YAML text.

    >>> from ruleproof.model.rulebook import load_rulebook_text
    >>> rb = load_rulebook_text(synthetic_yaml(2), "x2")
    >>> len(rb.spec.steps), "calculation__2" in rb.spec.steps
    (15, True)
    """
    from ruleproof.generators.mutants import bundled_data

    d = bundled_data()
    steps = d["steps"]

    def name(sid: str, i: int) -> str:
        return sid if i == 1 else f"{sid}__{i}"

    new: dict = {}
    for sid, st in steps.items():
        new[sid] = st
        if sid == "completion":
            for i in range(2, k + 1):
                for c in CHAIN:
                    s = copy.deepcopy(steps[c])
                    for op in s["operations"]:
                        if op["op"] == "window":
                            op["id"] = f"{op['id']}__{i}"
                    for e in s.get("next", []):
                        if e["to"] in CHAIN:
                            e["to"] = name(e["to"], i)
                    new[name(c, i)] = s
    for i in range(1, k + 1):
        for e in new[name("completion", i)]["next"]:
            if e["to"] == "payment":
                e["to"] = "payment" if i == k else name("claim_resolution", i + 1)
    d["steps"] = new
    d["id"] = f"{d['id']}-x{k}"
    return yaml.safe_dump(d, allow_unicode=True, sort_keys=False)


def fit_exponent(sizes, times) -> float:
    """The slope of log(time) against log(size), least squares.

    >>> round(fit_exponent([1, 10, 100], [2.0, 20.0, 200.0]), 3)
    1.0
    """
    xs = [math.log(s) for s in sizes]
    ys = [math.log(t) for t in times]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def _median_time(fn, repeats: int):
    times, result = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def time_rulings(n: int, repeats: int = 3):
    """Median seconds of the rulings engine over ``n`` ruling files (the shipped ones, repeated; a file with cases is
    several rulings)."""
    from ruleproof import orchestrate
    from ruleproof.model.rulebook import load_rulebook
    from ruleproof.model.scenario import load  # shipped_scenarios looks shipped_rulings up there, when called

    rb = load_rulebook()
    shipped = load.shipped_rulings()
    paths = [shipped[i % len(shipped)] for i in range(n)]
    original = load.shipped_rulings
    load.shipped_rulings = lambda: paths
    try:
        seconds, run = _median_time(lambda: orchestrate.run_rulings(rb, {}), repeats)
    finally:
        load.shipped_rulings = original
    rulings = run.results[:run.stats["rulings"]]  # then a result per property on the rulings' games
    assert len(rulings) >= n and all(r.holds for r in rulings), "a shipped ruling fails"
    return seconds


def main(argv: list[str] | None = None) -> int:
    from ruleproof.generators.bounded import bounded_worlds
    from ruleproof.model.explore import Bounds, explore
    from ruleproof.model.interpreter import RandomChoices, run
    from ruleproof.model.rulebook import load_rulebook_text

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="sizes 1,2; rulings 10,100; 1 repeat")
    ap.add_argument("--repeats", type=int, default=None)
    ap.add_argument("--sizes", default=None, help="rulebook multiples (default 1,2,5,10)")
    ap.add_argument("--rulings", default=None, help="numbers of rulings (default 10,100,1000)")
    args = ap.parse_args(argv)
    repeats = args.repeats or (1 if args.quick else 3)
    sizes = [int(x) for x in (args.sizes or ("1,2" if args.quick else "1,2,5,10")).split(",")]
    counts = [int(x) for x in (args.rulings or ("10,100" if args.quick else "10,100,1000")).split(",")]
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
    from compare import machine

    print(machine())
    print(f"medians of {repeats}")
    worlds = bounded_worlds(0)
    print(f"\n| size | steps | operations | interpreter: one play per world, {len(worlds)} worlds (s) | events/s | "
          "explore die=1, "
          "loadout none (s) | states | states/s | explore die 1–2, loadout none (s) | states |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    ops_n, t_int, t_exp, t_exp2 = [], [], [], []
    for k in sizes:
        rb = load_rulebook_text(synthetic_yaml(k), f"x{k}.yaml", check_reachable=False)
        n_steps = len(rb.spec.steps)
        n_ops = sum(len(s.operations) for s in rb.spec.steps.values())
        events = 0

        def plays():
            nonlocal events
            events = sum(len(run(rb, w.state, RandomChoices(seed=i)).events) for i, w in enumerate(worlds))

        ti, _ = _median_time(plays, repeats)
        few = bounded_worlds(0, ("none",))
        te, out = _median_time(lambda: explore(rb, few, Bounds(x_max=0, die=(1, 1))), repeats)
        two = k <= 5  # 2^k plays per world: 10x is minutes
        te2, out2 = (_median_time(lambda: explore(rb, few, Bounds(x_max=0, die=(1, 2))), repeats) if two
                     else (None, None))
        ops_n.append(n_ops)
        t_int.append(ti)
        t_exp.append(te)
        t_exp2.append(te2)
        print(f"| {k}× | {n_steps} | {n_ops} | {ti:.3f} | {events / ti:,.0f} | {te:.2f} | {out.states} | "
              f"{out.states / te:,.0f} | {'—' if te2 is None else f'{te2:.2f}'} | "
              f"{'—' if out2 is None else out2.states} |", flush=True)
    if len(sizes) > 1:
        print(f"\nexponent (time vs operations): interpreter {fit_exponent(ops_n, t_int):.2f}; "
              f"explore die=1 {fit_exponent(ops_n, t_exp):.2f}")
        pairs = [(n, t) for n, t in zip(ops_n, t_exp2) if t is not None]
        if len(pairs) > 1:
            print(f"explore die 1–2 (2^k plays): exponent vs operations "
                  f"{fit_exponent(*zip(*pairs)):.2f} — exponential in k, not polynomial")
    print("\n| rulings | rulings engine (s) | per ruling (ms) |")
    print("| --- | --- | --- |")
    t_rul = []
    for n in counts:
        t = time_rulings(n, repeats)
        t_rul.append(t)
        print(f"| {n:,} | {t:.3f} | {t / n * 1000:.2f} |", flush=True)
    if len(counts) > 1:
        e = fit_exponent(counts, t_rul)
        print(f"\nexponent (rulings engine time vs number of rulings): {e:.2f} — target ≤ 1 (linear): "
              f"{'met' if e <= 1.05 else 'not met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
