"""Where the explorer's time goes: the same pass with every property checked and with none.

Run:  .venv/bin/python benchmarks/explore_split.py [--jobs 2] [--rounds 5] [--bounds x=1,...]

``explore`` of the bundled rulebook over the bounds (default: the command's), with all 27
properties and with none (``only=frozenset()``: the interpreter and the search alone), the two
alternated round by round in this process, ``--jobs`` worker processes each. Prints each side's
runs, median and states/s, and the properties' share of the median. The run without properties
is the ceiling the property checks leave: no checker, however fast, makes the pass quicker than
that. The machine's calibration (``calibrate.py``) is printed before and after. A figure, not a test.
"""

from __future__ import annotations

import argparse
import statistics

from calibrate import before_after, calibrate

from ruleproof.commands.explore import parse_bounds
from ruleproof.generators.bounded import bounded_worlds
from ruleproof.model.explore import explore
from ruleproof.model.rulebook import load_rulebook

__all__ = ["split"]


def split(bounds_text: str = "", jobs: int = 2, rounds: int = 5) -> dict[str, list]:
    """{"on": [outcome, …], "off": [outcome, …]}: ``rounds`` passes each, alternated."""
    rb, bounds = load_rulebook(), parse_bounds(bounds_text)
    worlds = bounded_worlds(bounds.x_max, bounds.loadouts)
    runs: dict[str, list] = {"on": [], "off": []}
    for rnd in range(rounds):
        for side in (("on", "off") if rnd % 2 == 0 else ("off", "on")):
            runs[side].append(explore(rb, worlds, bounds, only=None if side == "on" else frozenset(), jobs=jobs))
    return runs


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--bounds", default="", help="as the explore command's --bounds (default: its defaults)")
    args = ap.parse_args()
    before = calibrate()
    runs = split(args.bounds, args.jobs, args.rounds)
    states = {o.states for side in runs.values() for o in side}
    assert len(states) == 1, states
    n = states.pop()
    print(f"explore --jobs {args.jobs}{' --bounds ' + args.bounds if args.bounds else ''}: {n} states, "
          f"{args.rounds} run(s) per side, alternated")
    medians = {}
    for side, label in (("on", "every property"), ("off", "no property (interpreter and search)")):
        medians[side] = statistics.median(o.seconds for o in runs[side])
        each = ", ".join(f"{o.seconds:.2f}" for o in runs[side])
        print(f"  {label:<38} median {medians[side]:6.2f} s  {n / medians[side]:9,.0f} states/s   runs: {each} s")
    print(f"  the property checks' share of the median: {1 - medians['off'] / medians['on']:.0%}")
    print(f"  {before_after(before)}")


if __name__ == "__main__":
    main()
