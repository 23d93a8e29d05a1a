"""Z3 figures: time per property (Spacer, k-induction), BMC time against depth, time to a counterexample
per public mutant — medians over repeats, with the Z3 version.

Run:  .venv/bin/python benchmarks/bench_prove.py [--repeats 3] [--depths 10,20,30,40] [--only ID …]
      [--no-kinduction] [--no-properties] [--no-mutants] [--no-run] [--jobs 1,2]

``--no-run`` skips the whole ``prove(rb)`` run (one shared system, shared vacuity witnesses — what
``ruleproof prove`` does), timed for each ``--jobs`` value.

A figure, not a test: machines here are noisy (2 cores shared by several processes).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import z3

from ruleproof.generators.mutants import PUBLIC, mutant_yaml
from ruleproof.model.rulebook import load_rulebook, load_rulebook_text
from ruleproof.model.symbolic import compile_rulebook
from ruleproof.properties.catalogue import PROPERTIES
from ruleproof.properties.prove import _options, _Unroller, coi, k_induction, prove, prove_one, spacer
from ruleproof.properties.monitor_z3 import FORMS


def _median(xs):
    return statistics.median(xs) if xs else float("nan")


def bench_properties(rb, pids, repeats: int, kinduction: bool) -> None:
    print("| property | verdict | Spacer s (median) | prove_one s incl. vacuity (median) | k-induction |")
    print("| --- | --- | --- | --- | --- |")
    total_spacer, total_prove = 0.0, 0.0
    for pid in pids:
        form = FORMS[pid]
        spacer_t, prove_t, verdict, kind = [], [], "", ""
        for _ in range(repeats):
            t = time.perf_counter()
            v = prove_one(rb, pid, timeout_ms=60_000)
            prove_t.append(time.perf_counter() - t)
            verdict = v.verdict + (" (vacuous)" if v.vacuous else "")
            parts = form.split or (form,)
            t = time.perf_counter()
            for part in parts:
                sy = compile_rulebook(rb, part.hist)
                keep = coi(sy, part.bad(sy, sy.pre), False, windows=part.windows)
                spacer(sy, part.bad, 60_000, keep=keep, options=_options(part))
            spacer_t.append(time.perf_counter() - t)
        if kinduction:
            part = (form.split or (form,))[0]
            sy = compile_rulebook(rb, part.hist)
            t = time.perf_counter()
            kind = f"{k_induction(sy, part.bad, 3, 20_000)} ({time.perf_counter() - t:.1f} s)"
        total_spacer += _median(spacer_t)
        total_prove += _median(prove_t)
        print(f"| {pid} | {verdict} | {_median(spacer_t):.2f} | {_median(prove_t):.2f} | {kind} |", flush=True)
    print(f"| **total** | | {total_spacer:.1f} | {total_prove:.1f} | |")


def bench_run(rb, repeats: int, jobs: list[int]) -> None:
    """The whole run, as ``ruleproof prove`` does it (without the interpreter start-up and the printing)."""
    print("| prove(rb) | verdicts | s (median) | runs |")
    print("| --- | --- | --- | --- |")
    for j in jobs:
        ts, out = [], None
        for _ in range(repeats):
            t = time.perf_counter()
            out = prove(rb, jobs=j)
            ts.append(time.perf_counter() - t)
        proved = sum(v.verdict == "proved" and v.vacuous is False for v in out.verdicts)
        print(f"| --jobs {j} | {proved}/{len(out.verdicts)} proved, non-vacuous | {_median(ts):.2f} | "
              f"{', '.join(f'{x:.2f}' for x in ts)} |", flush=True)


def bench_bmc(rb, depths: list[int], repeats: int) -> None:
    """Time to unroll and check a target at depth k (the target is unreachable: the full search)."""
    form = FORMS["P512.5-claims-resolved"]
    print("| BMC depth | s (median), exact cone | s (median), over-approximated cone |")
    print("| --- | --- | --- |")
    for k in depths:
        row = []
        for exact in (True, False):
            ts = []
            for _ in range(repeats):
                sy = compile_rulebook(rb, form.hist)
                t = time.perf_counter()
                u = _Unroller(sy, 0, coi(sy, form.bad(sy, sy.pre), exact=exact))
                for _ in range(k):
                    u.extend()
                u.solver.set("timeout", 120_000)
                r = u.solver.check(u._sub(form.bad(sy, sy.pre), k))
                ts.append(time.perf_counter() - t)
                assert r != z3.sat
            row.append(f"{_median(ts):.2f}")
        print(f"| {k} | {row[0]} | {row[1]} |", flush=True)


def bench_mutants(repeats: int) -> None:
    print("| mutant | property | verdict | depth | replay confirms | s to counterexample (median) |")
    print("| --- | --- | --- | --- | --- | --- |")
    times = []
    for m, pid in sorted(PUBLIC.items()):
        rb = load_rulebook_text(mutant_yaml(m), f"{m}.yaml")
        ts, v = [], None
        for _ in range(repeats):
            t = time.perf_counter()
            v = prove_one(rb, pid, timeout_ms=60_000, vacuity=False)
            ts.append(time.perf_counter() - t)
        times.append(_median(ts))
        cx = v.counterexample
        print(f"| {m} | {pid} | {v.verdict} | {v.depth} | {cx.reproduced if cx else '—'} | {_median(ts):.2f} |",
              flush=True)
    print(f"median over the mutants: {_median(times):.2f} s; max {max(times):.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--depths", default="10,20,30,40")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--no-kinduction", action="store_true")
    ap.add_argument("--no-properties", action="store_true")
    ap.add_argument("--no-bmc", action="store_true")
    ap.add_argument("--no-mutants", action="store_true")
    ap.add_argument("--no-run", action="store_true")
    ap.add_argument("--jobs", default="1,2")
    args = ap.parse_args()
    print(f"Z3 {z3.get_version_string()}, Python {platform.python_version()} on {platform.machine()}, "
          f"{args.repeats} repeats")
    rb = load_rulebook()
    if not args.no_run:
        bench_run(rb, args.repeats, [int(j) for j in args.jobs.split(",")])
    if not args.no_properties:
        pids = args.only or [p.id for p in PROPERTIES]
        bench_properties(rb, pids, args.repeats, not args.no_kinduction)
    if not args.no_bmc:
        bench_bmc(rb, [int(d) for d in args.depths.split(",")], args.repeats)
    if not args.no_mutants:
        bench_mutants(args.repeats)


if __name__ == "__main__":
    main()
