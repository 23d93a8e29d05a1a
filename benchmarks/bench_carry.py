"""Proofs carried over (``properties/carry.py``): Z3's proofs of one draft of each selftest kind, searched
afresh and carried from the bundled rulebook's verified certificates, side by side — seconds, proofs carried,
rules re-checked, and whether the verdicts are the same.

Run:  .venv/bin/python benchmarks/bench_carry.py [--kinds "narrow window,skip step"]

The certificates: the bundled rulebook proved once (Spacer's invariants kept), then again (each re-checked on
every rule, so that later re-checks skip the unchanged ones); each draft then starts from a copy of that store.
No vacuity witnesses, no conformance (``prove(..., vacuity=False, agree=False)``): the proofs alone.  Prints the
machine's calibration before and after (``calibrate.py``).  A figure, not a test.
"""

from __future__ import annotations

import argparse
import collections
import shutil
import tempfile
import time
from pathlib import Path

from calibrate import before_after, calibrate

from ruleproof.generators.selftest import drafts
from ruleproof.model.rulebook import load_rulebook
from ruleproof.properties.carry import ProofStore
from ruleproof.properties.prove import prove


def _timed(rb, store=None):
    started = time.perf_counter()
    out = prove(rb, agree=False, vacuity=False, carry=store)
    return out, time.perf_counter() - started


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kinds", default="", help="comma-separated selftest kinds (default: every kind)")
    args = ap.parse_args()
    before = calibrate()
    print(f"calibration before: {before:.3f} s")
    with tempfile.TemporaryDirectory() as d:
        base = Path(d) / "base"
        bundled = load_rulebook(None)
        _, cold = _timed(bundled, ProofStore(base))
        _, verified = _timed(bundled, ProofStore(base))
        store = ProofStore(base)
        _, warm = _timed(bundled, store)
        print(f"bundled rulebook: searched {cold:.1f} s, every invariant re-checked {verified:.1f} s, "
              f"then {warm:.1f} s ({sum(e is not None for e in store.log)} of {len(store.log)} queries carried)")
        kinds: dict[str, list] = collections.defaultdict(list)
        for draft in drafts():
            kinds[draft.operator].append(draft)
        wanted = [k.strip() for k in args.kinds.split(",") if k.strip()] or list(kinds)
        print(f"{'kind':16s} {'draft':40s} {'searched':>9s} {'carried':>9s}  proofs carried  rules checked  same")
        for kind in wanted:
            draft = kinds[kind][0]
            folder = Path(d) / kind.replace(" ", "_")
            shutil.copytree(base, folder)
            store = ProofStore(folder)
            rb = draft.load()
            inc, t_inc = _timed(rb, store)
            full, t_full = _timed(rb)
            same = [(v.pid, v.verdict) for v in inc.verdicts] == [(v.pid, v.verdict) for v in full.verdicts]
            print(f"{kind:16s} {draft.id:40s} {t_full:8.1f}s {t_inc:8.1f}s  "
                  f"{sum(v.carried for v in inc.verdicts):3d} of {len(inc.verdicts):3d}  "
                  f"{sum(e.checked for e in store.log if e):13d}  {same}", flush=True)
    print(before_after(before))


if __name__ == "__main__":
    main()
