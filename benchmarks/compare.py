"""The three engines side by side: exhaustive exploration, the Z3 proof, the Hypothesis pass.

Run:  .venv/bin/python benchmarks/compare.py [--quick] [--repeats 3] [--examples 100] [--only M1,M4]

One process, one table: the bundled rulebook and every public mutant M1–M8.  On a mutant every
engine is asked about the property the mutant must violate (time to kill); on the bundled rulebook
about the same eight properties together (time to "holds").  Per rulebook × engine it prints the
median time to verdict, states/s (explore), interpreter steps/s (Hypothesis: choices answered),
time to the first counterexample, the verdict, and the ratios between engines.

* explore — ``explore`` over ``bounded_worlds(x_max)`` with ``Bounds(x_max, die=(1, 2))`` (every
  loadout; these bounds catch every public mutant).  The explorer always finishes the bounded space;
  time to first counterexample = until the first finished trace that violates the property.
* z3 — ``prove(rb, only=…)`` (Spacer, then BMC; vacuity of a proof checked).  Seed 0 every repeat.
* hypothesis — ``hypothesis_pass(rb, examples, seed=repeat, shrinks=0, cache_dir=None)``: stops at
  the first counterexample (no shrinking: the time to kill, as in ``bench_hypothesis.py``).

``--full`` adds, once each (no repeats), the whole property catalogue on the bundled rulebook: the
exhaustive pass over the default bounds of ``ruleproof explore`` (x=1, die 1–6, every loadout),
the Z3 proof of every property, and the Hypothesis pass.
Figures, not tests: the machine is shared and noisy.  ``--quick`` = 1 repeat, X = 0, the 'none',
'triggers' and 'dice' loadouts only (each public mutant fails in one of them), 20 examples — a smoke test.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from dataclasses import dataclass, field

from calibrate import calibrate

__all__ = ["Row", "RULEBOOKS", "ENGINES", "measure", "compare", "ratios", "format_table", "main"]

ENGINES = ("explore", "z3", "hypothesis")
RULEBOOKS = ("bundled", "M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8")


@dataclass
class Row:
    """The medians of one engine on one rulebook."""

    rulebook: str
    engine: str
    properties: tuple[str, ...]
    verdict: str  # holds | violated | unknown | error: … (the worst over the repeats)
    seconds: float  # time to verdict (median)
    first_cx: float | None = None  # time to the first counterexample (median), None: none found
    rate: float | None = None  # explore: states/s; hypothesis: interpreter steps (choices answered)/s
    note: str = ""
    runs: list[float] = field(default_factory=list)


class _StepCounter:
    """Counts the interpreter's answered choices (the Hypothesis game test's draws)."""

    def __init__(self) -> None:
        from ruleproof.model import interpreter

        self.module, self.original, self.steps = interpreter, interpreter.Stepper.answer, 0

    def __enter__(self):
        original = self.original

        def counting(stepper, value):
            self.steps += 1
            return original(stepper, value)

        self.module.Stepper.answer = counting
        return self

    def __exit__(self, *exc) -> None:
        self.module.Stepper.answer = self.original


class _FirstViolation:
    """Times the explorer's first violating trace: wraps the catalogue's ``violations`` (what the
    monitors found on a finished run), which ``explore`` imports at each call."""

    def __init__(self) -> None:
        from ruleproof.properties import catalogue

        self.module, self.original, self.at, self.t0 = catalogue, catalogue.violations, None, 0.0

    def __enter__(self):
        original = self.original
        self.t0 = time.perf_counter()

        def checking(*a, **kw):
            found = original(*a, **kw)
            if found and self.at is None:
                self.at = time.perf_counter() - self.t0
            return found

        self.module.violations = checking
        return self

    def __exit__(self, *exc) -> None:
        self.module.violations = self.original


def _rulebook(name: str):
    from ruleproof.generators.mutants import mutant_yaml
    from ruleproof.model.rulebook import load_rulebook, load_rulebook_text

    return load_rulebook() if name == "bundled" else load_rulebook_text(mutant_yaml(name), f"{name}.yaml")


def _once(engine: str, rb, only: frozenset[str], opts: dict, repeat: int) -> tuple[str, float, float | None,
                                                                                      float | None, str]:
    """(verdict, seconds, first counterexample, rate, note) of one run."""
    if engine == "explore":
        from ruleproof.generators.bounded import bounded_worlds
        from ruleproof.model.explore import explore

        b = opts["bounds"]
        with _FirstViolation() as fv:
            t0 = time.perf_counter()
            out = explore(rb, bounded_worlds(b.x_max, b.loadouts), b, only=only)
            elapsed = time.perf_counter() - t0
        verdict = "violated" if out.violations else ("holds" if out.complete else "unknown")
        note = f"{out.states} states, {out.traces} traces" + ("" if out.complete else ", incomplete")
        if out.violations:
            cx = min(out.violations.values(), key=lambda c: (c.choices, len(c.events)))
            note += f"; shortest cx {cx.choices} choices"
        return verdict, elapsed, fv.at, out.states / elapsed if elapsed else None, note
    if engine == "z3":
        from ruleproof.properties.prove import prove

        t0 = time.perf_counter()
        out = prove(rb, only=only, seed=0, **({"timeout_ms": opts["timeout_ms"]} if opts.get("timeout_ms") else {}))
        elapsed = time.perf_counter() - t0
        verdicts = [v.verdict for v in out.verdicts]
        first, acc = None, 0.0
        for v in out.verdicts:  # prove runs the properties one after another
            acc += v.seconds
            if v.verdict == "violated" and first is None:
                first = acc
        if "violated" in verdicts:
            verdict = "violated"
        elif all(v == "proved" for v in verdicts):
            verdict = "holds"
        else:
            verdict = "unknown"
        counts = {k: verdicts.count(k) for k in dict.fromkeys(verdicts)}
        return verdict, elapsed, first, None, ", ".join(f"{n} {k}" for k, n in counts.items())
    from ruleproof.generators.run import hypothesis_pass

    with _StepCounter() as sc:
        t0 = time.perf_counter()
        out = hypothesis_pass(rb, examples=opts["examples"], seed=repeat, cache_dir=None, shrinks=0, only=only)
        elapsed = time.perf_counter() - t0
    # "holds" from Hypothesis means: no counterexample in this many examples (not a proof), each property's
    # situation played in some of them; a property none played is not exercised: unknown
    verdicts = {r.verdict for r in out.results}
    verdict = "violated" if "violated" in verdicts else ("unknown" if "unknown" in verdicts else "holds")
    return verdict, elapsed, out.first_failure_seconds, sc.steps / elapsed if elapsed else None, \
        f"{opts['examples']} examples, {sc.steps} steps"


_WORST = {"holds": 0, "violated": 1, "unknown": 2}


def measure(name: str, engine: str, only: frozenset[str], opts: dict, repeats: int) -> Row:
    """Median over ``repeats`` runs of one engine on one rulebook (an exception is recorded, not raised)."""
    rb = _rulebook(name)
    times, firsts, rates, verdicts, note = [], [], [], [], ""
    for r in range(repeats):
        try:
            verdict, seconds, first, rate, note = _once(engine, rb, only, opts, r)
        except Exception as exc:  # a failing engine is a figure too: reported, not hidden
            return Row(name, engine, tuple(sorted(only)), f"error: {type(exc).__name__}: {exc}"[:120], float("nan"))
        times.append(seconds)
        verdicts.append(verdict)
        if first is not None:
            firsts.append(first)
        if rate is not None:
            rates.append(rate)
    verdict = max(verdicts, key=lambda v: _WORST.get(v, 3))
    if len(set(verdicts)) > 1:
        verdict += " (" + "/".join(verdicts) + ")"
    return Row(name, engine, tuple(sorted(only)), verdict, statistics.median(times),
               statistics.median(firsts) if firsts else None, statistics.median(rates) if rates else None, note,
               times)


def compare(rulebooks=RULEBOOKS, engines=ENGINES, repeats: int = 3, opts: dict | None = None,
            progress=None) -> list[Row]:
    from ruleproof.generators.mutants import PUBLIC

    opts = opts or default_opts()
    rows = []
    for name in rulebooks:
        only = frozenset(PUBLIC.values()) if name == "bundled" else frozenset({PUBLIC[name]})
        for engine in engines:
            if progress:
                progress(f"{name} {engine}")
            rows.append(measure(name, engine, only, opts, repeats))
    return rows


def default_opts(quick: bool = False, examples: int | None = None, timeout_ms: int | None = None) -> dict:
    from ruleproof.model.explore import Bounds

    bounds = Bounds(x_max=0, die=(1, 2), loadouts=("none", "triggers", "dice") if quick else None)
    return {"bounds": bounds, "examples": examples or (20 if quick else 100), "timeout_ms": timeout_ms}


def ratios(rows: list[Row]) -> list[tuple[str, float | None, float | None, float | None]]:
    """Per rulebook: explore/z3, hypothesis/explore, hypothesis/z3 of the times to verdict."""
    out = []
    by = {(r.rulebook, r.engine): r.seconds for r in rows if not r.verdict.startswith("error")}
    for name in dict.fromkeys(r.rulebook for r in rows):
        e, z, h = (by.get((name, x)) for x in ENGINES)
        div = lambda a, b: a / b if a is not None and b else None  # noqa: E731
        out.append((name, div(e, z), div(h, e), div(h, z)))
    return out


def _s(x: float | None, fmt: str = "{:.2f}") -> str:
    return "—" if x is None or x != x else fmt.format(x)


def format_table(rows: list[Row]) -> str:
    """A Markdown table of the rows, then the ratios."""
    from ruleproof.generators.mutants import PUBLIC

    lines = ["| rulebook | property | engine | verdict | time to verdict (s) | first cx (s) | rate | note |",
             "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        prop = r.properties[0] if len(r.properties) == 1 else f"{len(r.properties)} properties" + (
            " (the public mutants')" if set(r.properties) == set(PUBLIC.values()) else "")
        unit = {"explore": " states/s", "hypothesis": " steps/s"}.get(r.engine, "")
        rate = "—" if r.rate is None else f"{r.rate:,.0f}{unit}"
        lines.append(f"| {r.rulebook} | {prop} | {r.engine} | {r.verdict} | {_s(r.seconds)} | {_s(r.first_cx)} | "
                     f"{rate} | {r.note} |")
    lines += ["", "| rulebook | explore / z3 | hypothesis / explore | hypothesis / z3 |", "| --- | --- | --- | --- |"]
    for name, ez, he, hz in ratios(rows):
        lines.append(f"| {name} | {_s(ez)} | {_s(he, '{:.3f}')} | {_s(hz, '{:.3f}')} |")
    return "\n".join(lines)


def machine() -> str:
    """nproc, CPU model, load average, versions — what a figure needs next to it."""
    import hypothesis
    import z3

    cpu = "?"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next((ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")), "?")
    except OSError:
        pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {os.cpu_count()} cores, {cpu}; load {load} "
            f"(shared machine); Python {platform.python_version()}, z3 {z3.get_version_string()}, "
            f"hypothesis {hypothesis.__version__}; calibration {calibrate():.3f} s (benchmarks/calibrate.py)")


def full_catalogue(opts: dict) -> list[Row]:
    """The whole catalogue on the bundled rulebook, once per engine; explore over the default bounds."""
    from ruleproof.model.explore import Bounds
    from ruleproof.properties.catalogue import PROPERTIES

    every = frozenset(p.id for p in PROPERTIES)
    # the default bounds of `ruleproof explore` (x=1, plays=1, the rulebook's die, every loadout)
    rows = [measure("bundled", "explore", every, {**opts, "bounds": Bounds(x_max=1)}, 1)]
    rows[-1].note += " (default bounds of ruleproof explore: x=1, die 1–6)"
    rows += [measure("bundled", e, every, opts, 1) for e in ("z3", "hypothesis")]
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="1 repeat, small bounds, 20 examples (a smoke test)")
    ap.add_argument("--repeats", type=int, default=None, help="repeats per cell (default 3; --quick: 1)")
    ap.add_argument("--examples", type=int, default=None, help="Hypothesis examples (default 100; --quick: 20)")
    ap.add_argument("--timeout-ms", type=int, default=None, help="Z3 timeout per query (default: prove's)")
    ap.add_argument("--only", default=None, help="comma-separated rulebooks (bundled,M1,…,M8)")
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--full", action="store_true", help="also the whole catalogue on the bundled rulebook, once")
    args = ap.parse_args(argv)
    repeats = args.repeats or (1 if args.quick else 3)
    names = tuple(args.only.split(",")) if args.only else RULEBOOKS
    engines = tuple(e for e in args.engines.split(",") if e)
    bad = [n for n in names if n not in RULEBOOKS] + [e for e in engines if e not in ENGINES]
    if bad:
        ap.error(f"unknown rulebook or engine: {', '.join(bad)} (rulebooks: {', '.join(RULEBOOKS)}; "
                 f"engines: {', '.join(ENGINES)})")
    opts = default_opts(args.quick, args.examples, args.timeout_ms)
    print(machine())
    b = opts["bounds"]
    print(f"explore bounds: x_max={b.x_max}, die={b.die}, loadouts={b.loadouts or 'all'}; "
          f"hypothesis: {opts['examples']} examples, no shrinking; medians of {repeats}")
    rows = compare(names, engines, repeats, opts, progress=lambda m: print(f"  … {m}", file=sys.stderr, flush=True))
    print(format_table(rows))
    if args.full:
        print("\nWhole catalogue, bundled rulebook, one run each:")
        print(format_table(full_catalogue(opts)).split("\n\n")[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
