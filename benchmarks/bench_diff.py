"""The time of `ruleproof diff` on each example draft of rulebooks/drafts/, cold and warm, against the figures
recorded here and issue 49's targets.

Run:  .venv/bin/python benchmarks/bench_diff.py [--repeats 3] [--jobs auto] [--only NAME ...]

Every engine (the command's defaults, a worker per core).  *Cold*: ``--no-cache`` — the base's engines run too.
*Warm*: the base's runs come from the cache (``.ruleproof-cache/`` of a folder of the benchmark's own, filled by one
untimed run first) — only the draft's engines run.  The two are timed in alternation, in fresh processes
(``ruleproof diff BASE DRAFT --format json``, wall time as the shell sees it, so start-up and imports count), the
medians printed beside the figures of :data:`RECORDED` and the targets (cold 30 s, warm 10 s on a 2-core machine),
with the machine's calibration before and after (``calibrate.py``; to compare with a figure taken at calibration
``c1``, scale a time by ``c1 / c2``).  The seconds of each engine on each rulebook (``timings`` of the JSON) are
printed for the last cold run.  A figure, not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from calibrate import before_after, calibrate

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "rulebooks" / "berserk-rp-4.1-2.yaml"
#: issue 49's targets on a 2-core machine (seconds): a cold diff, a warm one
TARGETS = {"cold": 30.0, "warm": 10.0}
#: figures recorded on 2026-12-07 (commits b4c962e and 91019e7, calibration 0.089–0.144 s, idle 2-core machine, one
#: run each): cold, warm
RECORDED = {"cost-x-at-payment": (34.3, 21.5)}


def timed(args: list[str], cwd: Path) -> tuple[float, dict]:
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "ruleproof", "diff", *args, "--format", "json"],
                          capture_output=True, text=True, cwd=cwd)
    seconds = time.perf_counter() - t
    if done.returncode not in (0, 1, 3):
        raise SystemExit(f"diff {' '.join(args)} exited {done.returncode}: {done.stderr[-2000:]}")
    return seconds, json.loads(done.stdout)


def _figure(x: float | None) -> str:
    return f"{x:.1f}" if x is not None else "—"


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
    print(f"{'draft':28} {'cold (s)':>9} {'recorded':>9} {'target':>7} {'warm (s)':>9} {'recorded':>9} {'target':>7}")
    for draft in drafts:
        with tempfile.TemporaryDirectory() as home:
            common = [str(BASE), str(draft), "--jobs", args.jobs]
            timed(common, Path(home))  # fills the folder's cache with the base's runs
            times: dict[str, list[float]] = {"cold": [], "warm": []}
            doc: dict = {}
            for r in range(args.repeats):
                for name in (("cold", "warm") if r % 2 == 0 else ("warm", "cold")):
                    seconds, got = timed(common + (["--no-cache"] if name == "cold" else []), Path(home))
                    times[name].append(seconds)
                    if name == "cold":
                        doc = got
        cold, warm = statistics.median(times["cold"]), statistics.median(times["warm"])
        rec = RECORDED.get(draft.stem, (None, None))
        print(f"{draft.stem:28} {cold:9.1f} {_figure(rec[0]):>9} {TARGETS['cold']:7.0f} {warm:9.1f} "
              f"{_figure(rec[1]):>9} {TARGETS['warm']:7.0f}")
        slow = sorted(doc.get("timings", {}).items(), key=lambda kv: -kv[1])[:4]
        print(f"{'':28} longest tasks (cold): " + ", ".join(f"{k} {v:.1f} s" for k, v in slow))
    print(f"  {before_after(before)}")


if __name__ == "__main__":
    main()
