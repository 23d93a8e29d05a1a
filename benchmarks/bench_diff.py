"""The time of `ruleproof diff` on each example draft of rulebooks/drafts/: every engine (today's
default, a worker per core) side by side with the engines `diff` ran by default before issue 22.

Run:  .venv/bin/python benchmarks/bench_diff.py [--repeats 3] [--jobs auto] [--only NAME ...]

For each draft, the two ways are timed in alternation (the order swapped from one repeat to the next),
in fresh processes (``ruleproof diff BASE DRAFT --format json``, wall time as the shell sees it, so
start-up and imports count), and the medians are printed with the machine's calibration before and
after (``calibrate.py``).  "before": ``--engines conformance,rulings,exhaustive,consistency --bounds
x=0 --jobs 1`` (the defaults until issue 22); "now": the defaults (every engine, Z3 and Hypothesis
included, the explorer's default bounds, ``--jobs auto``).  The target on a 2-core machine is 30 s per
draft for the whole diff.  The seconds of each engine on each rulebook (``timings`` of the JSON) are
printed for the last "now" run.  A figure, not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from calibrate import before_after, calibrate

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "rulebooks" / "berserk-rp-4.1-2.yaml"
BEFORE = ["--engines", "conformance,rulings,exhaustive,consistency", "--bounds", "x=0", "--jobs", "1"]


def timed(args: list[str]) -> tuple[float, dict]:
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "ruleproof", "diff", *args, "--format", "json"],
                          capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - t
    if done.returncode not in (0, 1):
        raise SystemExit(f"diff {' '.join(args)} exited {done.returncode}: {done.stderr[-2000:]}")
    return seconds, json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--jobs", default="auto")
    ap.add_argument("--only", nargs="*", help="only these drafts (file stems)")
    args = ap.parse_args()
    drafts = sorted((ROOT / "rulebooks" / "drafts").glob("*.yaml"))
    if args.only:
        drafts = [d for d in drafts if d.stem in args.only]
    before = calibrate()
    print(f"{'draft':28} {'before (s)':>11} {'now (s)':>9} {'now/before':>10}  verdicts changed now (by engine)")
    for draft in drafts:
        sides = {"before": [str(BASE), str(draft), *BEFORE], "now": [str(BASE), str(draft), "--jobs", args.jobs]}
        times: dict[str, list[float]] = {"before": [], "now": []}
        doc: dict = {}
        for r in range(args.repeats):
            for name in (("before", "now") if r % 2 == 0 else ("now", "before")):
                seconds, got = timed(sides[name])
                times[name].append(seconds)
                if name == "now":
                    doc = got
        b, n = statistics.median(times["before"]), statistics.median(times["now"])
        engines: dict[str, int] = {}
        for v in doc.get("verdicts", []):
            engines[v["engine"]] = engines.get(v["engine"], 0) + 1
        print(f"{draft.stem:28} {b:11.1f} {n:9.1f} {n / b:10.2f}  {engines or '-'}")
        slow = sorted(doc.get("timings", {}).items(), key=lambda kv: -kv[1])[:4]
        print(f"{'':28} longest tasks now: " + ", ".join(f"{k} {v:.1f} s" for k, v in slow))
    print(f"  {before_after(before)}")


if __name__ == "__main__":
    main()
