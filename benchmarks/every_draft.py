"""Over every selftest draft and named mutant: does some engine refute a Z3 *proved*, and does Hypothesis
kill the drafts the exhaustive pass kills?  Issue 45's two figures from one run of the three engines.

Run:  .venv/bin/python benchmarks/every_draft.py [--every K] [--start I] [--log FILE.jsonl]
      .venv/bin/python benchmarks/every_draft.py --summary FILE.jsonl [FILE.jsonl ...]

For the bundled rulebook and each one-fault draft of ``generators.selftest.drafts`` (every K-th from the
I-th; the named mutants come first): the exhaustive pass at its default bounds (the draft's own bounded
worlds), the Hypothesis pass as ``check`` runs it (200 examples, seed 0, no example database) and the Z3
proofs of the properties either of them shows violated (no witness search for the premises: the verdicts
proved/violated are the same) — the only properties where a contradiction can be; ``--all-z3`` proves every
property, to list the Z3 violations the others do not reach.

- A *contradiction*: a property Z3 proves that the exhaustive pass or Hypothesis shows violated (a replayed
  counterexample).  A Z3 violation another engine does not reach is *beyond its bounds*, not a
  contradiction (a bounded search or a sample may miss it).
- A draft is *killed* by an engine when some property is violated there; the share is the drafts the
  exhaustive pass kills that Hypothesis kills too (issue 45 asks for at least 95 %).

One JSON line per rulebook goes to ``--log`` (a run cut short resumes: the rulebooks already in the log
are skipped), so two shards (``--every 2 --start 0`` and ``--start 1``) run on two cores and
``--summary`` adds their logs up (a rulebook in two of them counts once: the later line).  Exit 1 on a contradiction.  A check, not a test: over every draft it
runs for about two and a half hours on 2 cores (18,084 s of engine time over 314 rulebooks).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def verdicts(rb, all_z3: bool = False) -> dict[str, dict[str, str]]:
    """{engine: {property: verdict}} for the exhaustive pass, Hypothesis and Z3 on ``rb`` (Z3: the properties
    the others show violated, or every one with ``all_z3``)."""
    from ruleproof.generators.bounded import bounded_worlds
    from ruleproof.generators.run import hypothesis_pass
    from ruleproof.model.explore import Bounds, explore, explore_results
    from ruleproof.properties.prove import prove

    b = Bounds()
    out = explore(rb, bounded_worlds(b.x_max, b.loadouts, rb), b)
    ex = {r.check: r.verdict for r in explore_results(out, rb, "explore")}
    hy = {r.check: r.verdict for r in hypothesis_pass(rb, examples=200, cache_dir=None).results}
    shown = {p for e in (ex, hy) for p, x in e.items() if x == "violated"}
    z3 = {v.pid: v.verdict for v in prove(rb, vacuity=False, only=None if all_z3 else shown).verdicts} \
        if all_z3 or shown else {}
    return {"explore": ex, "hypothesis": hy, "z3": z3}


def judge(v: dict[str, dict[str, str]]) -> dict:
    """The contradictions, the Z3 violations beyond the others' reach, and who kills the rulebook."""
    contra, beyond = [], []
    for pid, zv in v["z3"].items():
        others = {e for e in ("explore", "hypothesis") if v[e].get(pid) == "violated"}
        if zv == "proved" and others:
            # every Z3 proof is within the menu of Z3 worlds: a counterexample outside it is listed all the same
            # (whether its game is in the menu is read off the counterexample: `ruleproof explore DRAFT --only ID`)
            contra.append(f"{pid}: Z3 proved (within the menu), {' and '.join(sorted(others))} violated")
        elif zv == "violated" and len(others) < 2:
            beyond.append(f"{pid}: Z3 violated, " + ", ".join(f"{e} {v[e].get(pid)}" for e in ("explore", "hypothesis")
                                                              if e not in others))
    kills = {e: sorted(p for p, x in v[e].items() if x == "violated") for e in v}
    return {"contradictions": contra, "beyond": beyond, "kills": kills}


def summary(lines: list[dict]) -> int:
    lines = list({d["name"]: d for d in lines}.values())  # a rulebook in two logs counts once (the later line)
    books = len(lines)
    contra = [(d["name"], c) for d in lines for c in d["contradictions"]]
    beyond = [(d["name"], c) for d in lines for c in d["beyond"]]
    ex_kills = [d for d in lines if d["kills"]["explore"] and d["name"] != "bundled"]
    both = [d for d in ex_kills if d["kills"]["hypothesis"]]
    bundled = [d for d in lines if d["name"] == "bundled"]
    for name, c in contra:
        print(f"CONTRADICTION {name}: {c}")
    for name, c in beyond:
        print(f"beyond the bounds {name}: {c}")
    for d in ex_kills:
        if not d["kills"]["hypothesis"]:
            print(f"{d['name']}: the exhaustive pass kills it ({', '.join(d['kills']['explore'])}), Hypothesis does not")
    if bundled and any(bundled[0]["kills"].values()):
        print(f"bundled: violated {bundled[0]['kills']}")
    share = 100.0 * len(both) / len(ex_kills) if ex_kills else 100.0
    seconds = sum(d["seconds"] for d in lines)
    invalid = sum(1 for d in lines if d.get("invalid"))
    print(f"rulebooks {books} ({invalid} refused by the loader); contradictions {len(contra)}; Z3 violations beyond "
          f"the others' reach {len(beyond)}; the exhaustive pass kills {len(ex_kills)} drafts, Hypothesis "
          f"{len(both)} of them ({share:.1f} %); {seconds:,.0f} s of engine time")
    return 1 if contra else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--every", type=int, default=1)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--log", type=Path, default=Path("every_draft.jsonl"))
    ap.add_argument("--summary", type=Path, nargs="+", help="add up these logs and print the figures")
    ap.add_argument("--all-z3", action="store_true", help="prove every property, not only those shown violated")
    args = ap.parse_args()
    if args.summary:
        return summary([json.loads(line) for p in args.summary for line in p.read_text().splitlines() if line])

    import yaml

    from ruleproof.ground.errors import RuleproofError
    from ruleproof.generators.selftest import drafts
    from ruleproof.model.rulebook import load_rulebook, load_rulebook_text

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from calibrate import calibrate

    print(f"calibration {calibrate(repeats=3):.3f} s", flush=True)
    done = set()
    if args.log.exists():
        done = {json.loads(line)["name"] for line in args.log.read_text().splitlines() if line}
    books = [("bundled", load_rulebook)] if args.start == 0 else []
    books += [(d.id, lambda d=d: load_rulebook_text(yaml.safe_dump(d.data, allow_unicode=True, sort_keys=False),
                                                     f"{d.id}.yaml"))
              for d in list(drafts())[args.start::args.every]]
    with args.log.open("a", encoding="utf-8") as log:
        for name, load in books:
            if name in done:
                continue
            t0 = time.perf_counter()
            try:
                rb = load()
            except RuleproofError:
                line = {"name": name, "invalid": True, "contradictions": [], "beyond": [],
                        "kills": {"explore": [], "hypothesis": [], "z3": []}}
            else:
                line = {"name": name, **judge(verdicts(rb, args.all_z3))}
            line["seconds"] = round(time.perf_counter() - t0, 1)
            log.write(json.dumps(line, ensure_ascii=False) + "\n")
            log.flush()
            print(f"  {name} {line['seconds']} s" + "".join(f"\n  ! {c}" for c in line["contradictions"]), flush=True)
    return summary([json.loads(line) for line in args.log.read_text().splitlines() if line])


if __name__ == "__main__":
    raise SystemExit(main())
