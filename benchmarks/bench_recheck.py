"""The edit-check loop: `check` of a rulebook file cold, again unchanged, after a one-line edit, after a second
one-line edit, and with both undone — with every engine, with Z3 alone and with the fast ones — the way an editor
meets it (`ruleproof check FILE --keep-proofs`, as each round of ``--watch`` runs, each run a fresh process, in a
folder of its own so that the cache starts empty).

Run:  .venv/bin/python benchmarks/bench_recheck.py [--repeats 3]

The one-line edits: the re-roll window asks the non-active player first (``first: non_active_player``), a
behaviour edit (structure check S5 fails); then the dice-modifier window too.  The run cache is per engine and per
whole rulebook (``ruleproof.runcache``): an unchanged or undone rulebook comes from it, an edited one runs every
engine asked for again — Z3 from the proofs of the earlier checks (``properties/carry.py``: the first edit re-checks
each kept invariant on every rule, the second only on the rules it changed).  Prints the machine's calibration
before and after (``calibrate.py``), medians over ``--repeats``, and the figures recorded before proofs were
carried (``BEFORE``, 552fbbf) beside them.  A figure, not a test.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from calibrate import before_after, calibrate

ROOT = Path(__file__).resolve().parents[1]
EXE = Path(sys.executable).with_name("ruleproof")
BUNDLED = ROOT / "rulebooks" / "berserk-rp-4.1-2.yaml"
EDIT = ("first: active_player", "first: non_active_player")
ENGINE_SETS = {"every engine": None, "z3": "z3", "structure,rulings,consistency": "structure,rulings,consistency"}
#: the figures recorded at 552fbbf (benchmarks/README.md), before Z3's proofs were carried: seconds
BEFORE = {"every engine": {"cold": 16.9, "unchanged": 0.9, "one-line edit": 20.4, "edit undone": 0.8},
          "structure,rulings,consistency": {"cold": 2.2, "unchanged": 0.8, "one-line edit": 2.2, "edit undone": 0.9}}


def _run(cwd: Path, engines: str | None) -> float:
    argv = [str(EXE), "--lang", "en", "check", "rb.yaml", "--summary", "--keep-proofs",
            *(["--engines", engines] if engines else [])]
    started = time.perf_counter()
    subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
    return time.perf_counter() - started


def _one_edit(text: str, window: str = "reroll") -> str:
    """``text`` with the first player of window ``window`` changed (the one ``first: active_player`` after its id)."""
    at = text.index(f"id: {window}")
    i = text.index(EDIT[0], at)
    return text[:i] + EDIT[1] + text[i + len(EDIT[0]):]


def loop(engines: str | None) -> dict[str, float]:
    """The five runs of one edit-check loop, in a fresh folder: seconds each."""
    with tempfile.TemporaryDirectory() as d:
        cwd = Path(d)
        rb = cwd / "rb.yaml"
        shutil.copy(BUNDLED, rb)
        original = rb.read_text("utf-8")
        out = {"cold": _run(cwd, engines), "unchanged": _run(cwd, engines)}
        rb.write_text(_one_edit(original), "utf-8")
        out["one-line edit"] = _run(cwd, engines)
        rb.write_text(_one_edit(_one_edit(original), "dice_modifiers"), "utf-8")
        out["second edit"] = _run(cwd, engines)
        rb.write_text(original, "utf-8")
        out["edit undone"] = _run(cwd, engines)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=1)
    args = ap.parse_args()
    before = calibrate()
    print(f"calibration before: {before:.3f} s")
    for label, engines in ENGINE_SETS.items():
        runs = [loop(engines) for _ in range(args.repeats)]
        cells = "  ".join(f"{k} {statistics.median(r[k] for r in runs):5.1f} s" for k in runs[0])
        print(f"{label:32s} {cells}")
        if label in BEFORE:
            print(f"{'  before (552fbbf)':32s} " + "  ".join(f"{k} {v:5.1f} s" for k, v in BEFORE[label].items()))
    print(before_after(before))


if __name__ == "__main__":
    main()
