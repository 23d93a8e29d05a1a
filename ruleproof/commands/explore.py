"""`ruleproof explore [RULEBOOK] [--bounds …] [--jobs N]`: every play of every bounded world.

Prints a table per property (holds on every run within the bounds, or violated with the shortest
counterexample), termination (runs without an end) and action coverage (operations, windows and
responses that never fired), then the figures: worlds, distinct states, choices, runs, depth,
seconds, states per second.  Exit 0 all hold, 1 a finding, 2 bad input, 3 the search was stopped
by ``max-nodes`` before the end (bounded, so nothing is claimed to hold).
"""

from __future__ import annotations

import json
import sys

from rich.console import Console

from ruleproof.ground.errors import ExitCode, Localized, RuleproofError, suggest
from ruleproof.ground.i18n import t
from ruleproof.ground.verdicts import Verdict

from .common import check_jobs, clause_text_fn, console

__all__ = ["add_parser", "run", "parse_bounds", "SCHEMA"]

SCHEMA = "ruleproof-explore/1"
_KEYS = {"x": "x_max", "plays": "plays_per_window", "die": "die", "loadouts": "loadouts", "max-nodes": "max_nodes",
         "memory": "max_memory_mb"}


def add_parser(sub, common, texts) -> None:
    p = sub.add_parser("explore", parents=[common, texts],
                       help="exhaustive exploration: every play of every bounded world, every property")
    p.add_argument("rulebook", nargs="?", help="rulebook YAML (default: the bundled РП 4.1-2)")
    p.add_argument("--bounds", default="", metavar="K=V,…",
                   help="x=MAX (X values, default 1), plays=N (responses per window, default 1), die=LO-HI "
                        "(default: the rulebook's die), loadouts=A+B (feature loadouts, default all), "
                        "max-nodes=N (a safety stop per world; reaching it makes the result inconclusive)")
    p.add_argument("--only", nargs="*", metavar="ID", help="only these properties")
    p.add_argument("--jobs", default=1, metavar="N|auto", help="worker processes (default 1; auto: one per core)")
    p.add_argument("--format", choices=("term", "json"), default="term")
    p.add_argument("--save-ruling", metavar="PATH",
                   help="save the shortest counterexample (of the first violated property) as a ruling scenario")
    p.set_defaults(run=run)


def _bound_problem(key: str, name: str | None, raw: str, values: dict, loadouts) -> Localized | None:
    """Read one ``key=raw`` of ``--bounds`` into ``values``; what is wrong with it, if anything."""
    if name is None:
        return Localized(f"неизвестная граница '{key}'{suggest(key, _KEYS).ru}",
                         f"unknown bound '{key}'{suggest(key, _KEYS).en}")
    if name == "die":
        lo, _, hi = raw.partition("-")
        if not (lo.strip().isdigit() and hi.strip().isdigit() and 1 <= int(lo) <= int(hi)):
            return Localized("die=нижняя-верхняя: нужны целые числа, 1 ≤ нижняя ≤ верхняя", "die=LO-HI needs whole numbers 1 <= LO <= HI")
        values[name] = (int(lo), int(hi))
    elif name == "loadouts":
        values[name] = tuple(raw.split("+"))
        bad = ", ".join(x for x in values[name] if x not in loadouts and not x.startswith("widened-"))
        if bad:
            return Localized(f"неизвестный набор {bad} (известны: {', '.join(loadouts)})",
                             f"unknown loadout {bad} (known: {', '.join(loadouts)})")
    else:
        least = 1 if name in ("max_nodes", "max_memory_mb") else 0
        if not raw.strip().lstrip("-").isdigit() or int(raw) < least:
            return Localized(f"{key}: нужно целое число не меньше {least}", f"{key} must be a whole number, {least} or more")
        values[name] = int(raw)
    return None


def parse_bounds(text: str, base=None):
    """``x=2,plays=1,die=1-6,loadouts=dice+payment`` -> :class:`~ruleproof.model.explore.Bounds`;
    what the text leaves out comes from ``base`` (default: ``Bounds()``).

    >>> parse_bounds("x=2,die=1-3").x_max, parse_bounds("x=2,die=1-3").die
    (2, (1, 3))
    >>> from ruleproof.model.explore import Bounds
    >>> parse_bounds("loadouts=none", Bounds(x_max=0)).x_max
    0
    """
    from dataclasses import replace  # start-up: only when the command runs

    from ruleproof.generators.bounded import loadout_names  # start-up: only when the command runs
    from ruleproof.model.explore import Bounds  # start-up: only when the command runs

    values: dict = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, _, raw = part.partition("=")
        name = _KEYS.get(key.strip())
        problem = _bound_problem(key.strip(), name, raw, values, loadout_names())
        if problem is not None:
            raise RuleproofError("RP150", None, problem=Localized(f"--bounds {part}: {problem.ru}",
                                                                  f"--bounds {part}: {problem.en}"),
                                 fix=Localized("например, --bounds x=2,plays=1,die=1-6,loadouts=dice+payment",
                                               "e.g. --bounds x=2,plays=1,die=1-6,loadouts=dice+payment"))
    return replace(base or Bounds(), **values)


def _bounds_arg(b) -> str:
    parts = [f"x={b.x_max}", f"plays={b.plays_per_window}"]
    if b.die:
        parts.append(f"die={b.die[0]}-{b.die[1]}")
    if b.loadouts:
        parts.append("loadouts=" + "+".join(b.loadouts))
    return ",".join(parts)


def run(args, lang: str) -> int:
    from ruleproof.generators.bounded import bounded_worlds  # start-up: only when the command runs
    from ruleproof.model.explore import explore, explore_results  # start-up: only when the command runs
    from ruleproof.model.rulebook import load_rulebook  # start-up: only when the command runs

    clause_text = clause_text_fn(args, lang)
    bounds = parse_bounds(args.bounds)
    args.jobs = check_jobs(args.jobs)
    only = frozenset(args.only) if args.only else None  # known ids: checked by ruleproof.cli
    rb = load_rulebook(args.rulebook)
    worlds = bounded_worlds(bounds.x_max, bounds.loadouts, rb)
    if args.format == "json" or not sys.stderr.isatty() or args.jobs > 1:
        out = explore(rb, worlds, bounds, only, jobs=args.jobs)
    else:
        with Console(stderr=True).status("explore…") as status:
            out = explore(rb, worlds, bounds, only, progress=lambda m: status.update(m))
    replay = "ruleproof explore" + (f" {args.rulebook}" if args.rulebook else "") + f" --bounds {_bounds_arg(bounds)}"
    results = explore_results(out, rb, replay, only)
    saved = _save_ruling(args, rb, out, results, replay) if args.save_ruling and out.violations else None
    more = _more_plays(worlds, bounds)
    figures = _figures(out, args.jobs, rb, worlds, more)
    if args.format == "json":
        _print_json(rb, bounds, results, figures, saved)
    else:
        _print_terminal(args, lang, rb, bounds, out, results, figures, more, saved, clause_text)
    if any(not r.holds and r.verdict != Verdict.UNKNOWN for r in results):
        return ExitCode.FINDING
    # incomplete, or a property none of the runs exercised: inconclusive, never "holds"
    return ExitCode.OK if out.complete and not any(r.verdict == Verdict.UNKNOWN for r in results) else ExitCode.INCONCLUSIVE


def _save_ruling(args, rb, out, results, replay: str):
    """``--save-ruling``: the first violated property's shortest counterexample as a ruling scenario."""
    from ruleproof.model.scenario_write import save_trace_violation  # start-up: only when the command runs

    pid = next(r.check for r in results if r.check in out.violations)
    cx = out.violations[pid]
    return save_trace_violation(list(cx.events), rb, args.save_ruling, property=pid, replay=f"{replay} --only {pid}",
                                engine="exhaustive")


def _more_plays(worlds: list, bounds) -> dict[int, list]:
    """The worlds searched with more plays per window than the bounds (a draft that reads plays_at_least), by plays."""
    more: dict[int, list] = {}
    for w in worlds:
        if bounds.plays_in(w) > bounds.plays_per_window:
            more.setdefault(bounds.plays_in(w), []).append(w)
    return more


def _figures(out, jobs: int, rb, worlds: list, more: dict[int, list]) -> dict:
    from ruleproof.generators.bounded import worlds_scope  # start-up: only when the command runs

    return {"worlds": out.worlds, "states": out.states, "transitions": out.transitions, "forced_passes": out.forced,
            "runs": out.traces, "depth": out.depth, "max_events": out.steps, "events": out.events,
            "seconds": round(out.seconds, 2), "states_per_second": round(out.states_per_second),
            "complete": out.complete, "stopped_by": out.stopped_by or None, "jobs": jobs,
            "worlds_more_plays": sum(map(len, more.values())),
            "scope": worlds_scope(rb, worlds).to_json()}  # what the worlds cover of the universe


def _print_json(rb, bounds, results, figures: dict, saved) -> None:
    from ruleproof.reports.json_report import results_to_json  # start-up: only when the command runs

    doc = results_to_json(results, {"id": rb.spec.id, "path": rb.path, "bounds": _bounds_arg(bounds),
                                    **figures, "saved_ruling": str(saved) if saved else None},
                          rb.spec.model_dump()["assumptions"])
    doc["schema"] = SCHEMA
    sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2, default=str) + "\n")


def _print_terminal(args, lang: str, rb, bounds, out, results, figures: dict, more: dict, saved, clause_text) -> None:
    from ruleproof.reports.common import scope_text  # start-up: only when the command runs
    from ruleproof.reports.terminal import print_check_results  # start-up: only when the command runs

    con = console()
    con.print(f"[bold]{t('ex_title', lang)}[/] — {rb.path}")
    con.print(t("ex_bounds", lang, bounds=_bounds_arg(bounds), worlds=out.worlds)
              + (t("ex_bounds_plays", lang, groups=_plays_groups(more, bounds, rb, lang)) if more else ""))
    con.print(scope_text(figures["scope"], lang, "exhaustive"), markup=False)
    print_check_results(con, t("ex_results", lang), results, lang, clause_text)
    con.print(t("ex_figures", lang, **figures))
    if saved:
        con.print(t("ex_saved", lang, path=saved, rulebook=args.rulebook or ""))
    if not out.complete:
        bound = t(f"bound_{out.stopped_by or 'max_nodes'}", lang)
        con.print(f"[yellow]{t('ex_incomplete', lang, bound=bound)}[/]")


def _plays_groups(more: dict[int, list], bounds, rb, lang: str) -> str:
    """The worlds searched with more plays per window than the bounds (``more``: plays -> worlds), and the
    die faces of those that show fewer, e.g. «plays=2 — 353, plays=3 — 3 (their die showing only 1–2)»."""
    out = []
    for plays, ws in sorted(more.items()):
        narrow = [bounds.die_values(rb, w) for w in ws if getattr(w, "faces", 0)]
        faces = t("ex_bounds_faces", lang, lo=narrow[0][0], hi=narrow[0][-1]) if narrow else ""
        out.append(t("ex_bounds_group", lang, plays=plays, n=len(ws)) + faces)
    return ", ".join(out)
