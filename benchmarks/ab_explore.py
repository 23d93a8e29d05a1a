"""The explorer of an earlier commit against this one, world by world in alternation, in one process.

Run:  .venv/bin/python benchmarks/ab_explore.py REV [--props on|off] [--rounds 1]
      .venv/bin/python benchmarks/ab_explore.py REV --cli JOBS [--rounds 4] [--bounds x=1,...]

The speed of the shared machines here drifts by a third within minutes, so two runs one after the
other do not compare.  This script takes commit ``REV`` out of git (``git archive``) into a
temporary folder as the package ``rpold`` (the ``ruleproof.*`` imports rewritten), then explores
every world of the default bounds with the old and the new code in turn — the order swapped from
one world to the next — and sums each side's time; the ratio new/old is the figure (when the worlds
changed between the commits and the sides report different states, the time per state).  ``--props off`` asks for no property (the interpreter and the search
alone).  ``--cli JOBS`` times the command instead: ``explore --format json --jobs JOBS`` of each side
in a fresh process, the sides alternated, run from the temporary folder (so the new side is the
``ruleproof`` installed in this Python — the working tree for an editable install — and never a
checkout in the current folder shadowing the old one); it prints the seconds each run reports.
Both ways print the machine's calibration (``calibrate.py``) before and after. A figure, not a test.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from calibrate import before_after, calibrate

ROOT = Path(__file__).resolve().parent.parent
#: the package layout of pyproject.toml: package folder -> repository folder
PACKAGES = {"": "ruleproof", "model": "model", "properties": "properties", "generators": "generators",
            "reports": "reports", "rulebooks": "rulebooks", "rulings": "rulings"}


def old_package(rev: str, into: Path) -> None:
    """Commit ``rev``'s package as ``into/rpold`` (its absolute imports pointed at ``rpold``)."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", rev, *PACKAGES.values()], check=True,
                          capture_output=True).stdout
    src = into / "src"
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(src, filter="data")
    for sub, folder in PACKAGES.items():
        for f in (src / folder).rglob("*"):
            if f.is_file():
                dest = into / "rpold" / sub / f.relative_to(src / folder)
                dest.parent.mkdir(parents=True, exist_ok=True)
                text = f.read_bytes()
                if f.suffix == ".py":
                    text = re.sub(rb"\bruleproof\.(?=[a-z_])", b"rpold.", text)
                    text = re.sub(rb"\bfrom ruleproof import\b", b"from rpold import", text)
                dest.write_bytes(text)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("rev", help="the earlier commit (e.g. HEAD~1)")
    ap.add_argument("--props", choices=("on", "common", "off"), default="on",
                    help="on: each side's every property; common: the properties both sides have; off: none")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--cli", type=int, metavar="JOBS", help="time the explore command with --jobs JOBS instead")
    ap.add_argument("--bounds", help="--cli: the command's --bounds (default: its defaults)")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="ab_explore_"))
    old_package(args.rev, tmp)
    if args.cli:
        return command(tmp, args)
    sys.path.insert(0, str(tmp))

    import rpold.generators.bounded as old_worlds
    import rpold.model.explore as old_explore
    import rpold.model.rulebook as old_rulebook
    from ruleproof.generators import bounded as new_worlds
    from ruleproof.model import explore as new_explore
    from ruleproof.model import rulebook as new_rulebook

    only = None if args.props == "on" else frozenset()
    if args.props == "common":  # the same properties on both sides (each side's own statement of them)
        import rpold.properties.catalogue as old_catalogue
        from ruleproof.properties import catalogue as new_catalogue
        only = frozenset(p.id for p in old_catalogue.PROPERTIES) & frozenset(p.id for p in new_catalogue.PROPERTIES)
        print(f"{len(only)} properties on both sides")
    before = calibrate()
    sides = []
    for rb_mod, w_mod, ex_mod in ((old_rulebook, old_worlds, old_explore), (new_rulebook, new_worlds, new_explore)):
        bounds = ex_mod.Bounds()
        sides.append((ex_mod.explore, rb_mod.load_rulebook(), w_mod.bounded_worlds(x_max=bounds.x_max), bounds))
    seconds, states = [0.0, 0.0], [0, 0]
    # the worlds of both commits paired by name: a world only one side has is left out (and counted)
    names = [{w.name: w for w in side[2]} for side in sides]
    common = [n for n in names[1] if n in names[0]]
    if len(common) != len(names[1]) or len(common) != len(names[0]):
        print(f"{len(common)} worlds by the same name on both sides; left out: {len(names[0]) - len(common)} old, "
              f"{len(names[1]) - len(common)} new")
    for rnd in range(args.rounds):
        for i, name in enumerate(common):
            order = (0, 1) if (i + rnd) % 2 == 0 else (1, 0)
            for k in order:
                explore, rb, _, bounds = sides[k]
                t = time.perf_counter()
                out = explore(rb, [names[k][name]], bounds, only=only)
                seconds[k] += time.perf_counter() - t
                states[k] += out.states
    if states[0] != states[1]:  # the worlds changed between the commits: compare the time per state
        print(f"properties {args.props}, {len(common)} worlds x {args.rounds}; the worlds of one name differ: "
              f"{states[0]} states old, {states[1]} new")
    else:
        print(f"properties {args.props}, {len(common)} worlds x {args.rounds}, {states[1]} states per side")
    for name, k in ((f"old ({args.rev})", 0), ("new (working tree)", 1)):
        print(f"  {name:<24} {seconds[k]:7.2f} s  {states[k] / seconds[k]:9,.0f} states/s")
    if states[0] != states[1]:
        print(f"  new/old time per state   {seconds[1] / states[1] / (seconds[0] / states[0]):7.3f}")
    else:
        print(f"  new/old time             {seconds[1] / seconds[0]:7.3f}")
    print(f"  {before_after(before)}")


def command(tmp: Path, args) -> None:
    """The ``explore`` command of each side in fresh processes, alternated (``--cli``)."""
    before = calibrate()
    bounds = ["--bounds", args.bounds] if args.bounds else []
    env_new = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    sides = ((f"old ({args.rev})", "rpold", dict(env_new, PYTHONPATH=str(tmp))), ("new (installed)", "ruleproof", env_new))
    runs: list[list[dict]] = [[], []]
    for rnd in range(args.rounds):
        for k in ((0, 1) if rnd % 2 == 0 else (1, 0)):
            name, package, env = sides[k]
            cmd = [sys.executable, "-m", package, "explore", "--jobs", str(args.cli), "--format", "json", *bounds]
            done = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True)
            if done.returncode not in (0, 1) or not done.stdout.startswith("{"):
                sys.exit(f"{name}: {' '.join(cmd)} exited {done.returncode}: {done.stderr.strip()[-500:]}")
            runs[k].append(json.loads(done.stdout)["rulebook"])
    states = [runs[k][0]["states"] for k in (0, 1)]
    print(f"explore --jobs {args.cli}{' --bounds ' + args.bounds if args.bounds else ''}, {args.rounds} run(s) "
          f"per side, alternated, {states[0]} states old, {states[1]} new")
    medians = []
    for (name, _, _), side in zip(sides, runs):
        median = statistics.median(r["seconds"] for r in side)
        medians.append(median)
        each = ", ".join(f"{r['seconds']:.2f}" for r in side)
        print(f"  {name:<24} median {median:6.2f} s  {side[0]['states'] / median:9,.0f} states/s   runs: {each} s"
              f"   (package: {Path(side[0]['path']).parent.parent})")
    if states[0] != states[1]:  # the worlds changed between the commits: compare the time per state
        print(f"  new/old time per state (medians) {medians[1] / states[1] / (medians[0] / states[0]):7.3f}")
    else:
        print(f"  new/old time (medians)   {medians[1] / medians[0]:7.3f}")
    print(f"  {before_after(before)}")


if __name__ == "__main__":
    main()
