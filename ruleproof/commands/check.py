"""`ruleproof check [RULEBOOK]`: every available check on a rulebook — structure, rulings, the properties
by every engine, clause consistency, the two engines' conformance — and the reports of ``--format``.
Exit 0 everything holds, 1 a finding, 3 inconclusive, 2 bad input.
"""

from __future__ import annotations

import sys
import time

from rich.console import Console

from ruleproof.engine_registry import NAMES as ENGINES
from ruleproof.ground.errors import Localized, RuleproofError
from ruleproof.ground.i18n import t

from .common import RULINGS_HELP, check_jobs, console, parse_names
from .explore import parse_bounds

__all__ = ["add_parser", "run", "watch", "CACHE_ON"]

#: whether ``check`` keeps and reuses engine runs (``--no-cache`` turns it off for one run; the test suite turns
#: it off for its own: tests patch engines inside the process, which no cache key can see)
CACHE_ON = True


def add_parser(sub, common, texts) -> None:
    p = sub.add_parser("check", parents=[common, texts], help="run every available check on a rulebook")
    p.add_argument("rulebook", nargs="?", help="rulebook YAML (default: the bundled РП 4.1-2)")
    p.add_argument("--engines", default=", ".join(ENGINES), metavar="E,…",
                   help="which engines (default all): %(default)s; structure always runs")
    p.add_argument("--format", default="term", metavar="F,…",
                   help="term, md, html, json, junit, itf (comma-separated; default term). Without --report, "
                        "json is printed on stdout; files need --report DIR")
    p.add_argument("--report", metavar="DIR", help="write the reports of --format into DIR (atomically)")
    p.add_argument("--examples", type=int, default=200, metavar="N",
                   help="Hypothesis examples for the properties (0: no Hypothesis pass; default 200)")
    p.add_argument("--seed", type=int, help="a different, reproducible Hypothesis run (default: seed 0)")
    p.add_argument("--bounds", default="", metavar="K=V,…", help="bounds of the exhaustive pass (see explore)")
    p.add_argument("--timeout", type=float, metavar="SEC", help="Z3 time limit per query (default: prove's)")
    p.add_argument("--jobs", default="auto", metavar="N|auto",
                   help="run the engines in N processes (default auto: one per core)")
    p.add_argument("--save-ruling", metavar="PATH",
                   help="save the first counterexample (exhaustive, Z3, then Hypothesis) as a ruling scenario")
    p.add_argument("--rulings", action="append", metavar="DIR", help=RULINGS_HELP)
    p.add_argument("--summary", action="store_true",
                   help="on the terminal only the table of engines and the verdict (the report files stay whole)")
    p.add_argument("--no-cache", action="store_true",
                   help="run every engine again (by default each engine's run is kept in .ruleproof-cache/ and "
                        "reused while the rulebook, the options and ruleproof are unchanged)")
    p.add_argument("--keep-proofs", action="store_true",
                   help="keep Z3's new proofs in .ruleproof-cache/proofs/ for the next check of an edited rulebook, "
                        "which re-checks them instead of searching again (implied by --watch)")
    p.add_argument("--watch", action="store_true",
                   help="check again each time the rulebook file (or a --rulings folder) changes; Ctrl-C ends")
    p.set_defaults(run=run)


def run(args, lang: str) -> int:
    if args.watch:
        return watch(args, lang)
    return _check_once(args, lang)


def watch(args, lang: str, sleep=time.sleep) -> int:
    """``--watch``: the check, then again at each change of the rulebook file or a ``--rulings`` folder
    (:mod:`ruleproof.ground.watch`), until Ctrl-C.  Each round says each engine's verdict as its run comes back
    (the quick ones while the costliest runs), which engines ran and which came from the run cache (an edit
    undone is a cache hit), and how long it took.  Bad input in a round
    (a YAML error, an unknown clause) is said as the check says it — file:line, what, how to fix — and the
    watch goes on.  Returns the last round's exit code (KeyboardInterrupt, from ``sleep`` or the check,
    ends it as the command line ends any run)."""
    from ruleproof.ground.watch import fingerprint, wait_for_change  # start-up: only when the command runs

    if not args.rulebook:
        raise RuleproofError("RP150", None, problem=Localized("--watch следит за файлом свода правил",
                                                              "--watch watches a rulebook file"),
                             fix=Localized("укажите файл: ruleproof check ПРОЕКТ.yaml --watch",
                                           "name the file: ruleproof check DRAFT.yaml --watch"))
    paths = [args.rulebook, *(args.rulings or ())]
    seen = fingerprint(paths)
    round_ = 1
    while True:
        started = time.perf_counter()
        try:
            code = _check_once(args, lang, round_)
        except RuleproofError as err:
            print(err.render(lang), file=sys.stderr)
            code = 2
        print(t("watch_done", lang, n=round_, seconds=f"{time.perf_counter() - started:.1f}", code=code,
                paths=", ".join(map(str, paths))), file=sys.stderr, flush=True)
        seen = wait_for_change(paths, seen, sleep)
        round_ += 1


def _check_once(args, lang: str, round_: int = 0) -> int:
    """One check as the command makes it (``round_`` > 0: a round of ``--watch``, which says which engines ran)."""
    from ruleproof.generators.run import CACHE_DIR  # start-up: only when the command runs
    from ruleproof.reports.bundle import make_clause_text, report_from_check  # start-up: only when the command runs
    from ruleproof.reports.writers import parse_formats  # start-up: only when the command runs

    # bad input fails before any engine runs
    formats = parse_formats(args.format)
    clause_text = make_clause_text(args.rules_text)
    engines = parse_names(args.engines, ENGINES)
    _check_options(args, formats)
    kw = dict(engines=engines, jobs=args.jobs, bounds=parse_bounds(args.bounds),
              timeout_ms=int(args.timeout * 1000) if args.timeout else None, rulings=tuple(args.rulings or ()),
              cache_dir=CACHE_DIR if CACHE_ON and not args.no_cache else None,
              on_engine=_tell(lang) if round_ > 0 else None, keep_proofs=round_ > 0 or args.keep_proofs)
    if args.jobs > 1 or not sys.stderr.isatty() or "json" in formats and not args.report:
        from ruleproof.orchestrate import run_check  # start-up: only when the command runs

        check = run_check(args.rulebook, args.examples, args.seed, **kw)
    else:
        check = _run_with_a_bar(args, engines, kw)
    _say_cached(check, lang, round_)
    report = report_from_check(check, lang=lang, rules_text=args.rules_text)
    if args.save_ruling:
        _save_ruling(args, check, lang)
    _write(args, report, formats, lang, clause_text)
    return report.exit_code


def _tell(lang: str):
    """A round of ``--watch``: each engine's verdict on the error stream as its run comes back (the quick engines
    first: an edit's rulings are judged while Z3 still runs)."""
    from ruleproof.reports.finding import Verdict  # start-up: only when the command runs

    started = time.perf_counter()

    def tell(run) -> None:
        verdicts = [r.verdict for r in run.results]
        print(t("watch_engine", lang, engine=t(f"rep_short_{run.group}", lang), checks=len(verdicts),
                violated=verdicts.count(Verdict.VIOLATED), unknown=verdicts.count(Verdict.UNKNOWN),
                when=t("watch_from_cache", lang) if run.cached else t("watch_seconds", lang, seconds=f"{run.seconds:.1f}"),
                at=f"{time.perf_counter() - started:.1f}"),
              file=sys.stderr, flush=True)
    return tell


def _say_cached(check, lang: str, round_: int) -> None:
    """On the error stream: the engines whose runs came from the cache; in a round of ``--watch``, also those
    run again; how many of Z3's proofs were carried over from an earlier check (re-checked, not searched)."""
    cached = check.cached
    ran = [g for g in check.runs if g not in cached]
    if round_ > 0:
        print(t("watch_ran", lang, n=round_, ran=", ".join(ran) or "—", cached=", ".join(cached) or "—"),
              file=sys.stderr)
    elif cached:
        print(t("check_cached", lang, engines=", ".join(cached)), file=sys.stderr)
    z3 = check.runs.get("z3")
    if z3 is not None and not z3.cached and z3.stats.get("carried"):
        print(t("check_carried", lang, carried=z3.stats["carried"], proved=z3.stats["proved"]), file=sys.stderr)


def _check_options(args, formats: tuple[str, ...]) -> None:
    """``--examples`` not negative, ``--jobs`` a number (set on ``args``), report files only with ``--report``."""
    if args.examples < 0:
        raise RuleproofError("RP150", None, problem=Localized("--examples: нужно 0 или больше", "--examples must be 0 or more"),
                             fix=Localized("например, --examples 200", "e.g. --examples 200"))
    args.jobs = check_jobs(args.jobs)
    files = [f for f in formats if f != "term" and not (f == "json" and not args.report)]
    if files and not args.report:
        raise RuleproofError("RP150", None, problem=Localized(f"--format {','.join(files)} пишет файлы",
                                                              f"--format {','.join(files)} writes files"),
                             fix=Localized("добавьте --report ПАПКА (папку для файлов отчёта)",
                                           "add --report DIR (the folder for the report files)"))


def _run_with_a_bar(args, engines: tuple[str, ...], kw: dict):
    """The check in this process with a progress bar on the terminal: one step per engine."""
    # start-up: only when the command runs
    from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from ruleproof.orchestrate import run_check  # start-up: only when the command runs

    steps = [e for e in engines if e != "structure" and (e != "hypothesis" or args.examples)]
    with Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                  TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("check", total=len(steps))
        seen: list[str] = []

        def progress(message: str) -> None:
            if message in steps:  # an engine starts: the previous one is done
                seen.append(message)
                bar.update(task, completed=len(seen) - 1)
            bar.update(task, description=f"{seen[-1] if seen else 'check'}: {message}"
                       if message not in steps else message)

        check = run_check(args.rulebook, args.examples, args.seed, progress=progress, **kw)
        bar.update(task, completed=len(steps))
    return check


def _save_ruling(args, check, lang: str) -> None:
    """``--save-ruling``: the first counterexample as a ruling scenario (none: nothing written)."""
    found = check.counterexample()
    if found is not None:
        from ruleproof.model.scenario_write import save_trace_violation  # start-up: only when the command runs

        engine, pid, events = found
        saved = save_trace_violation(events, check.rulebook, args.save_ruling, property=pid, engine=engine,
                                     replay="ruleproof check" + (f" {args.rulebook}" if args.rulebook else ""))
        print(t("ex_saved", lang, path=saved, rulebook=args.rulebook or ""), file=sys.stderr)


def _write(args, report, formats: tuple[str, ...], lang: str, clause_text) -> None:
    """The reports: into ``--report`` (saying what was written), JSON on stdout, or the terminal's."""
    from ruleproof.reports.writers import write_reports  # start-up: only when the command runs

    if args.report:
        paths = write_reports(report, args.report, formats, lang, clause_text, console=console())
        if paths:
            print(t("rep_written", lang, paths=", ".join(str(x) for x in paths)), file=sys.stderr)
        if "itf" in formats and not report.counterexamples:  # the ITF writer has nothing to write: say so
            print(t("rep_no_itf", lang), file=sys.stderr)
    elif "json" in formats:
        from ruleproof.reports.json_report import render as render_json  # start-up: only when the command runs

        sys.stdout.write(next(iter(render_json(report, lang, clause_text).values())))
    elif getattr(args, "summary", False):
        from ruleproof.reports.terminal import print_summary  # start-up: only when the command runs

        print_summary(console(), report, lang)
    else:
        write_reports(report, ".", ("term",), lang, clause_text, console=console())
