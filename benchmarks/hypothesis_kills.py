"""Does Hypothesis kill the drafts the exhaustive pass kills?  The share, over the selftest drafts.

Run:  .venv/bin/python benchmarks/hypothesis_kills.py [--every K] [--start I] [--examples N]

For each one-fault draft of ``generators/selftest.drafts`` (every K-th, from the I-th; the named
mutants come first): the exhaustive pass at its default bounds (the draft's own bounded worlds) and the
Hypothesis pass (``--examples``, default 200: ``check``'s, with its fixed seed).  A draft is *killed*
by an engine when some property is violated there.  Prints one line per draft the exhaustive pass
kills and Hypothesis does not, and the summary: how many the exhaustive pass kills and the share of
those Hypothesis kills too (issue 45 asks for at least 95 %).  Calibration first.  A figure, not a test:
over every draft it runs for about an hour and a half on 2 cores.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from calibrate import calibrate  # noqa: E402


def killed(rb, examples: int) -> tuple[set[str], set[str]]:
    """(properties the exhaustive pass violates, properties Hypothesis violates) on ``rb``."""
    from ruleproof.generators.bounded import bounded_worlds
    from ruleproof.generators.run import hypothesis_pass
    from ruleproof.model.explore import Bounds, explore

    b = Bounds()
    ex = set(explore(rb, bounded_worlds(b.x_max, b.loadouts, rb), b).violations)
    # violated, with a replayed counterexample: a "not exercised" is inconclusive, not a kill
    hy = {r.check for r in hypothesis_pass(rb, examples=examples, cache_dir=None).results if r.verdict == "violated"}
    return ex, hy


def main() -> int:
    import yaml

    from ruleproof.ground.errors import RuleproofError
    from ruleproof.generators.selftest import drafts
    from ruleproof.model.rulebook import load_rulebook_text

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--examples", type=int, default=200)
    args = ap.parse_args()
    print(f"calibration {calibrate(repeats=3):.3f} s", flush=True)
    both = ex_only = tried = 0
    started = time.perf_counter()
    for i, d in enumerate(drafts()):
        if i < args.start or (i - args.start) % args.every:
            continue
        try:
            rb = load_rulebook_text(yaml.safe_dump(d.data, allow_unicode=True, sort_keys=False), d.id)
        except RuleproofError:
            continue  # a draft the loader refuses is bad input, not a fault the engines judge
        tried += 1
        ex, hy = killed(rb, args.examples)
        if ex and hy:
            both += 1
        elif ex:
            ex_only += 1
            print(f"{d.id}: exhaustive kills it ({', '.join(sorted(ex))}), Hypothesis does not", flush=True)
    kills = both + ex_only
    share = 100.0 * both / kills if kills else 100.0
    print(f"drafts tried {tried}; the exhaustive pass kills {kills}; Hypothesis kills {both} of them ({share:.1f} %); "
          f"{time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
