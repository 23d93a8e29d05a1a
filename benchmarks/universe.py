"""How the cost of the exhaustive pass grows with the universe it covers: combinations → worlds → states → seconds.

Run:  .venv/bin/python benchmarks/universe.py [RULEBOOK]

The explorer's loadouts are added one at a time (in the order of ``generators/bounded.loadout_names``);
after each, the line says how many of the combinations the rulebook admits (``model/universe.py``) the
worlds so far cover, how many worlds that is, and the states and seconds of exploring them (bounds
``x=1``).  The Z3 menu's coverage is printed for comparison, and the machine's calibration
(``calibrate.py``) first, so figures from two sessions can be scaled.  A figure, not a test.

>>> rows = growth(loadouts=("none", "dice"))
>>> [r["loadouts"] for r in rows], rows[-1]["covered"] >= rows[0]["covered"]
([1, 2], True)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from calibrate import calibrate  # noqa: E402

from ruleproof.generators.bounded import bounded_worlds, loadout_names, worlds_scope  # noqa: E402
from ruleproof.model.explore import Bounds, explore  # noqa: E402
from ruleproof.model.menu import menu_scope  # noqa: E402
from ruleproof.model.rulebook import load_rulebook  # noqa: E402

__all__ = ["growth"]


def growth(path: str | None = None, loadouts: tuple[str, ...] | None = None) -> list[dict]:
    """One row per prefix of the loadouts: loadouts, covered, admitted, worlds, states, seconds."""
    rb = load_rulebook(path)
    names = loadouts or loadout_names()
    rows = []
    for i in range(1, len(names) + 1):
        chosen = tuple(names[:i])
        worlds = bounded_worlds(1, chosen, rb)
        started = time.perf_counter()
        out = explore(rb, worlds, Bounds(x_max=1, loadouts=chosen))
        s = worlds_scope(rb, worlds)
        rows.append({"loadouts": i, "last": names[i - 1], "covered": s.covered, "admitted": s.admitted,
                     "worlds": len(worlds), "states": out.states, "seconds": round(time.perf_counter() - started, 2)})
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulebook", nargs="?")
    args = ap.parse_args()
    print(f"calibration {calibrate(repeats=3):.3f} s")
    z3 = menu_scope(load_rulebook(args.rulebook))
    print(f"Z3 menu: {z3.covered} of {z3.admitted} combinations")
    print(f"{'loadouts':>8} {'+ loadout':<22} {'combinations':>13} {'worlds':>7} {'states':>8} {'seconds':>8}")
    for r in growth(args.rulebook):
        print(f"{r['loadouts']:>8} {r['last']:<22} {r['covered']:>6}/{r['admitted']:<6} {r['worlds']:>7} "
              f"{r['states']:>8} {r['seconds']:>8}")


if __name__ == "__main__":
    main()
