"""Do `explore` and `prove` agree on the bundled rulebook, M1–M8 and every selftest draft?

Run:  .venv/bin/python benchmarks/engines_agree.py [--every K] [--start I] [--jobs 2] [--no-vacuity]

For each rulebook: the exhaustive pass at its default bounds and the Z3 proofs, every property.  The
two contradict each other when one engine shows a property violated (a replayed counterexample) and
the other *proves* it (Z3) — a bounded "holds" or a "not exercised" does not contradict a Z3
violation (the bounds may not reach it), and a Z3 violation the explorer does not reach is listed
as "beyond the bounds".  Prints one line per rulebook with a disagreement or a contradiction and a
summary; exits 1 on a contradiction.  ``--every K`` takes every K-th selftest draft (starting at
``--start``); ``--skip N`` resumes after the first N of them.  A check, not a benchmark: it sits here because it runs for many minutes.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter


def verdicts(rb, jobs: int, vacuity: bool = True) -> tuple[dict, dict]:
    from ruleproof.generators.bounded import bounded_worlds
    from ruleproof.model.explore import Bounds, explore, explore_results
    from ruleproof.properties.prove import prove

    b = Bounds()
    out = explore(rb, bounded_worlds(b.x_max, b.loadouts), b, jobs=jobs)
    ex = {}
    for r in explore_results(out, rb, "explore"):
        kinds = {f.kind for f in r.findings}
        ex[r.check] = "violated" if r.verdict == "violated" else ("not exercised" if "not_exercised" in kinds else r.verdict)
    z = {v.pid: v.verdict for v in prove(rb, jobs=jobs, vacuity=vacuity).verdicts}
    return ex, z


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--skip", type=int, default=0, help="leave out the first N drafts of the selection (to resume)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-vacuity", action="store_true",
                    help="skip Z3's witness search for each premise (the verdicts proved/violated stay the same)")
    args = ap.parse_args()
    from ruleproof.ground.errors import RuleproofError
    from ruleproof.generators.selftest import drafts
    from ruleproof.model.rulebook import load_rulebook, load_rulebook_text
    import yaml

    books = [("bundled", lambda: load_rulebook())] if args.start == 0 and not args.skip else []
    ds = list(drafts())[args.start::args.every][args.skip:]  # M1–M8 and the other named mutants first
    books += [(d.id, lambda d=d: load_rulebook_text(yaml.safe_dump(d.data, allow_unicode=True), f"{d.id}.yaml"))
              for d in ds]
    tally: Counter = Counter()
    contradictions = 0
    started = time.perf_counter()
    for name, load in books:
        try:
            rb = load()
        except RuleproofError:
            tally["invalid"] += 1
            continue
        t0 = time.perf_counter()
        ex, z = verdicts(rb, args.jobs, not args.no_vacuity)
        tally["rulebooks"] += 1
        print(f"  {tally['rulebooks']} {name} {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
        for pid, zv in z.items():
            ev = ex.get(pid)
            if ev == "violated" and zv == "proved":
                contradictions += 1
                print(f"CONTRADICTION {name}: {pid} explore violated, Z3 proved", flush=True)
            elif zv == "violated" and ev != "violated":
                tally["beyond the bounds"] += 1
                print(f"{name}: {pid} Z3 violated, explore {ev}", flush=True)
            elif ev == "violated" and zv != "violated":
                tally["explore only (Z3 " + zv + ")"] += 1
                print(f"{name}: {pid} explore violated, Z3 {zv}", flush=True)
            else:
                tally["same"] += 1
    print(f"{dict(tally)}; contradictions: {contradictions}; {time.perf_counter() - started:.0f} s")
    return 1 if contradictions else 0


if __name__ == "__main__":
    sys.exit(main())
