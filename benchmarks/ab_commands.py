"""The commands of an earlier commit against this one's, side by side: ``check``, ``prove``, ``explore``.

Run:  .venv/bin/python benchmarks/ab_commands.py REV [--rounds 3] [--only check,prove,explore]

Each side runs in a fresh process — the earlier commit taken out of git as the package ``rpold``
(:func:`ab_explore.old_package`), this one as installed — the two alternated round by round (old first in
even rounds, new first in odd ones), each run timed whole (wall clock, from the start of the process to its
end: imports, loading, every engine). Printed per command: each side's median, and the ratio new/old pair by
pair (median, min, max) — the figure to quote, since the machine's speed drifts between rounds. The machine's
calibration (``calibrate.py``) is printed before and after. A figure, not a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ab_explore import old_package
from calibrate import before_after, calibrate

__all__ = ["COMMANDS", "measure", "main"]

#: what is timed: a name -> the command's arguments (the bundled rulebook, the defaults of the README)
COMMANDS = {
    "check": ["check", "--format", "json"],
    "prove": ["prove", "--jobs", "2", "--format", "json"],
    "explore": ["explore", "--format", "json"],
}


def measure(tmp: Path, argv: list[str], rounds: int) -> tuple[list[float], list[float]]:
    """Wall seconds of ``rounds`` runs of each side (old, new), alternated; a run that fails stops the script."""
    env_new = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    sides = (("rpold", dict(env_new, PYTHONPATH=str(tmp))), ("ruleproof", env_new))
    times: tuple[list[float], list[float]] = ([], [])
    for rnd in range(rounds):
        for k in ((0, 1) if rnd % 2 == 0 else (1, 0)):
            package, env = sides[k]
            cmd = [sys.executable, "-m", package, *argv]
            started = time.perf_counter()
            done = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True)
            times[k].append(time.perf_counter() - started)
            if done.returncode not in (0, 1, 3):
                sys.exit(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr.strip()[-500:]}")
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rev", help="the earlier commit (e.g. HEAD~3)")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each side per command (default 3)")
    ap.add_argument("--only", default=",".join(COMMANDS), help="which commands (default: %(default)s)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="ab_commands_"))
    old_package(args.rev, tmp)
    before = calibrate()
    print(f"old: {args.rev} (as rpold), new: the installed ruleproof; {args.rounds} round(s), alternated")
    for name in args.only.split(","):
        old, new = measure(tmp, COMMANDS[name], args.rounds)
        ratios = [n / o for o, n in zip(old, new)]
        print(f"  {' '.join(COMMANDS[name]):<32} old median {statistics.median(old):6.2f} s   new median "
              f"{statistics.median(new):6.2f} s   new/old {statistics.median(ratios):.3f} "
              f"(pair by pair {min(ratios):.3f}-{max(ratios):.3f})")
    print(f"  {before_after(before)}")


if __name__ == "__main__":
    main()
