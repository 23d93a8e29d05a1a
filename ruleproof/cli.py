"""The `ruleproof` command line.

Exit codes: 0 everything holds, 1 a finding, 2 bad input (one message, no traceback),
3 inconclusive (reserved for the engines that can be: Z3, bounded search), 70 an internal error
(a bug in ruleproof: one line naming the command and a saved traceback file), 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from importlib import import_module
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ruleproof.ground.errors import (EXIT_BAD_INPUT, EXIT_FINDING, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_OK, Localized,
                              Location, RuleproofError, suggest)
from ruleproof.ground.i18n import LANGS, default_lang, t
from ruleproof.i18n_cli import argparse_language, localize
from ruleproof.orchestrate import ENGINES

__all__ = ["main", "build_parser", "parse_names", "check_timeout", "check_writable", "split_only", "write_text"]


def build_parser(lang: str = "en") -> argparse.ArgumentParser:
    """The command line, its help in ``lang`` (:mod:`ruleproof.i18n_cli`)."""
    p = _build_parser()
    localize(p, lang)
    return p


def argv_lang(argv: list[str]) -> str:
    """The language a command line asks for (``--lang X`` anywhere, else the environment's), before
    argparse reads it: the help and argparse's errors must already speak it."""
    for i, arg in enumerate(argv):
        value = argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else arg[7:] if arg.startswith("--lang=") else None
        if value in LANGS:
            return value
    return default_lang()


#: the help of ``--rulings DIR`` (check, diff, readings)
RULINGS_HELP = ("a folder of your own ruling scenarios (*.yaml, the format of rulings/), run with the shipped "
                "ones; may be given several times")


def _build_parser() -> argparse.ArgumentParser:
    lang_help = "language of messages and reports (default: from RULEPROOF_LANG, LANGUAGE, LC_ALL, LC_MESSAGES or LANG)"
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--lang", choices=LANGS, default=argparse.SUPPRESS, help=lang_help)
    texts = argparse.ArgumentParser(add_help=False)
    texts.add_argument("--rules-text", metavar="PATH",
                       help="the official rules text (a .txt file or a folder of them); reports quote it")

    p = argparse.ArgumentParser(prog="ruleproof",
                                description="Check the written rules of «Берсерк» like a model checker checks a protocol.")
    p.add_argument("--lang", choices=LANGS, default=default_lang(), help=lang_help)
    p.add_argument("--version", action="version", version=f"ruleproof {_version()}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    c = sub.add_parser("check", parents=[common, texts], help="run every available check on a rulebook")
    c.add_argument("rulebook", nargs="?", help="rulebook YAML (default: the bundled РП 4.1-2)")
    c.add_argument("--engines", default=",".join(ENGINES), metavar="E,…",
                   help=f"which engines (default all): {', '.join(ENGINES)}; structure always runs")
    c.add_argument("--format", default="term", metavar="F,…",
                   help="term, md, html, json, junit, itf (comma-separated; default term). Without --report, "
                        "json is printed on stdout; files need --report DIR")
    c.add_argument("--report", metavar="DIR", help="write the reports of --format into DIR (atomically)")
    c.add_argument("--examples", type=int, default=200, metavar="N",
                   help="Hypothesis examples for the properties (0: no Hypothesis pass; default 200)")
    c.add_argument("--seed", type=int, help="a different, reproducible Hypothesis run (default: seed 0)")
    c.add_argument("--bounds", default="", metavar="K=V,…", help="bounds of the exhaustive pass (see explore)")
    c.add_argument("--timeout", type=float, metavar="SEC", help="Z3 time limit per query (default: prove's)")
    c.add_argument("--jobs", default="auto", metavar="N|auto",
                   help="run the engines in N processes (default auto: one per core)")
    c.add_argument("--save-ruling", metavar="PATH",
                   help="save the first counterexample (exhaustive, Z3, then Hypothesis) as a ruling scenario")
    c.add_argument("--rulings", action="append", metavar="DIR", help=RULINGS_HELP)

    k = sub.add_parser("clauses", parents=[common, texts], help="list the clause index; compare rules texts")
    k.add_argument("units", nargs="*", metavar="UNIT",
                   help="look these clause units up (e.g. 542.8): the summary and everything that cites them")
    k.add_argument("--against", metavar="NEW", help="a newer rules text: list clauses whose wording changed")
    k.add_argument("--rulebook", help="rulebook whose elements are listed as citing (default: bundled)")
    k.add_argument("--format", choices=("term", "json"), default="term")
    k.add_argument("--broken", action="store_true",
                   help="coverage by failure: break each clause unit (the self-test's one-fault drafts of the "
                        "bundled rulebook) and list what fails — properties, checks and claims, rulings")
    k.add_argument("--examples", type=int, default=60, metavar="N",
                   help="with --broken: Hypothesis examples per draft no property has caught yet (default 60)")

    r = sub.add_parser("run", parents=[common, texts], help="run a ruling scenario and print its trace")
    r.add_argument("scenario", help="scenario YAML (see rulings/)")
    r.add_argument("--rulebook", help="rulebook to run it on (default: the bundled РП 4.1-2)")
    r.add_argument("--format", choices=("term", "json"), default="term")
    r.add_argument("--case", metavar="ID", help="only this case of a ruling file with several (default: every case)")

    m = sub.add_parser("selftest", parents=[common], help="do the properties and rulings catch faulty drafts?")
    m.add_argument("--format", choices=("term", "json"), default="term")
    m.add_argument("--examples", type=int, default=60, metavar="N",
                   help="Hypothesis examples for drafts nothing else kills (default 60; 0: no Hypothesis)")
    m.add_argument("--only", nargs="*", metavar="ID", help="only these drafts (ids as printed, e.g. M1 drop:dice:6)")
    m.add_argument("--no-prove", dest="prove", action="store_false",
                   help="no Z3 pass on the drafts nothing else kills (then none is called equivalent: undecided)")
    m.add_argument("--jobs", default="auto", metavar="N|auto",
                   help="processes for each Z3 pass (default auto: one per core)")

    g = sub.add_parser("graph", parents=[common], help="draw the phase graph")
    g.add_argument("rulebook", nargs="?", help="rulebook YAML (default: the bundled РП 4.1-2)")
    g.add_argument("--format", choices=("dot", "mermaid", "svg", "png"), default="svg")
    g.add_argument("-o", "--output", metavar="FILE", help="output file (dot/mermaid default: stdout; "
                                                          "svg/png default: phase-graph.svg/.png)")
    for name in EXTRA_COMMANDS:
        import_module(name).add_parser(sub, common=common, texts=texts)
    return p


#: commands that live in their own module: each has ``add_parser(sub, common, texts)`` (which sets
#: ``run=<function(args, lang) -> exit code>`` as the parser default) — one line per module
EXTRA_COMMANDS: tuple[str, ...] = (
    "ruleproof.cmd_consistency",
    "ruleproof.cmd_explore",
    "ruleproof.cmd_prove",
    "ruleproof.cmd_diff",
    "ruleproof.cmd_readings",
    "ruleproof.cmd_schema",
)


def _version() -> str:
    """The installed package's version (the source tree's when it is not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ruleproof")
    except PackageNotFoundError:  # pragma: no cover - run from a checkout that was never installed
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    with argparse_language(argv_lang(argv)):
        args = build_parser(argv_lang(argv)).parse_args(argv)
    lang = args.lang
    from ruleproof.ground import interrupt

    interrupt.install()  # Ctrl-C stops Z3 too
    try:
        _check_args(args)
        if getattr(args, "run", None) is not None:
            code = args.run(args, lang)
        else:
            code = {"check": cmd_check, "clauses": cmd_clauses, "graph": cmd_graph, "run": cmd_run,
                    "selftest": cmd_selftest}[args.command](args, lang)
        interrupt.check()  # Ctrl-C that something swallowed on the way still ends the run as interrupted
        return code
    except RuleproofError as err:
        interrupt.taken()  # the error stream is the user's again, should Ctrl-C have muted it
        print(err.render(lang), file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        pass
    except Exception as exc:  # noqa: BLE001 - the one place a bug becomes an exit code (70), not a finding
        # after Ctrl-C a call cut short may fail otherwise: a KeyboardInterrupt raised while ctypes
        # converts a Z3 call's arguments comes out as ctypes.ArgumentError — the interruption, not a bug
        if not interrupt.requested():
            interrupt.taken()
            return internal_error(exc, argv, lang)
    interrupt.taken()
    print("interrupted" if lang == "en" else "прервано", file=sys.stderr)
    return EXIT_INTERRUPTED


def internal_error(exc: BaseException, argv: list[str], lang: str) -> int:
    """Report a bug in ruleproof: one line naming the command, the traceback saved to a file."""
    import tempfile
    import time
    import traceback

    text = "".join(traceback.format_exception(exc))
    path = Path(tempfile.gettempdir()) / f"ruleproof-crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
    try:
        path.write_text(f"ruleproof {' '.join(argv)}\n\n{text}", encoding="utf-8")
    except OSError:
        path = Path("-")  # nowhere to save it: the one line is all there is
    error = f"{type(exc).__name__}: {str(exc)[:200]}"
    print(t("internal_error", lang, error=error, command="ruleproof " + " ".join(argv)[:200], path=path),
          file=sys.stderr)
    return EXIT_INTERNAL


def _check_args(args) -> None:
    """The options every command shares, checked before any work: finite positive timeouts, output
    paths that can be written, ``--only`` ids (and a rulebook it swallowed)."""
    if getattr(args, "timeout", None) is not None:
        check_timeout(args.timeout)
    for attr, folder in (("report", True), ("save_ruling", False), ("output", False)):
        value = getattr(args, attr, None)
        if value:
            check_writable(value, folder)
    if getattr(args, "only", None) and args.command in ("prove", "explore"):
        from ruleproof.properties.catalogue import BY_ID

        split_only(args, tuple(BY_ID))


def check_timeout(seconds: float) -> float:
    """A time limit in seconds: finite, positive and at least 1 ms (Z3 reads 0 ms as no limit: RP171).

    >>> check_timeout(20.0)
    20.0
    """
    if not (math.isfinite(seconds) and seconds > 0 and int(seconds * 1000) >= 1):
        raise RuleproofError("RP171", None, value=seconds)
    return seconds


def check_writable(path: str, folder: bool) -> None:
    """An output path (a report folder, a file) can be written — checked before the run, not after it
    (RP117 or RP150)."""
    p = Path(path)
    what, what_ru = ("the reports", "отчёты") if folder else ("a file", "файл")
    target = p if folder and p.exists() else p.parent if str(p.parent) else Path(".")
    if p.exists() and (p.is_dir() != folder):
        problem = "it is a file, a folder was expected" if folder else "it is a folder, a file was expected"
        problem_ru = "это файл, а нужна папка" if folder else "это папка, а нужен файл"
        raise RuleproofError("RP117", Location(path), what=what, what_ru=what_ru, problem=problem, problem_ru=problem_ru)
    if not target.is_dir():
        raise RuleproofError("RP117", Location(path), what=what, what_ru=what_ru,
                             problem=f"the folder {target} does not exist", problem_ru=f"папки {target} нет")
    import errno
    import tempfile

    try:  # write access as the system grants it (permissions, a read-only or virtual file system)
        fd, probe = tempfile.mkstemp(prefix=".ruleproof-probe-", dir=target)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise RuleproofError("RP117", Location(path), what=what, what_ru=what_ru,
                             problem=f"the folder {target} is not writable ({exc.strerror})",
                             problem_ru=f"в папку {target} нельзя писать (код {errno.errorcode.get(exc.errno, exc.errno)})"
                             ) from None


def split_only(args, known: tuple[str, ...]) -> None:
    """``--only ID …`` takes several values, so it swallows a rulebook path written after it
    (``prove --only P draft.yaml``): a last value that is not an id but a file (or a .yaml name) is
    the rulebook when none was given; any other unknown id is bad input (RP170)."""
    only = list(args.only)
    last = only[-1]
    if last not in known and getattr(args, "rulebook", "") is None and (
            last.endswith((".yaml", ".yml")) or Path(last).is_file()):
        args.rulebook = last
        only.pop()
    for pid in only:
        if pid not in known:
            raise RuleproofError("RP170", None, property=pid, hint=suggest(pid, known), known=", ".join(known))
    args.only = only or None


def _console() -> Console:
    return Console(highlight=False, emoji=False, width=None if sys.stdout.isatty() else 140)


def _clause_text_fn(args, lang: str):
    """clause id -> the official wording (when --rules-text is given) or ruleproof's summary in ``lang``."""
    from ruleproof.reports.bundle import make_clause_text

    text = make_clause_text(getattr(args, "rules_text", None))
    return lambda cid: text(cid, lang)


def parse_names(text: str, known: tuple[str, ...], what: Localized = Localized("движок", "engine")) -> tuple[str, ...]:
    """``"a, b"`` -> ("a", "b"), each one of ``known``; anything else is bad input (RP150).

    >>> parse_names("rulings, z3", ("rulings", "z3", "consistency"))
    ('rulings', 'z3')
    """
    names = tuple(dict.fromkeys(x.strip() for x in text.split(",") if x.strip()))
    unknown = [n for n in names if n not in known]
    if unknown:
        listed = ", ".join(unknown)
        raise RuleproofError("RP150", None, problem=Localized(f"неизвестный {what.ru}: {listed}{suggest(unknown[0], known).ru}",
                                                              f"unknown {what.en} {listed}{suggest(unknown[0], known).en}"),
                             fix=Localized(f"перечислите через запятую: {', '.join(known)}",
                                           f"use a comma-separated list of: {', '.join(known)}"))
    return names


def check_jobs(jobs: int | str) -> int:
    """``--jobs N`` (one worker process or more) or ``--jobs auto`` (one per core this process may
    run on) as a number; anything else is bad input (RP173).

    >>> check_jobs("2"), check_jobs("auto") == available_cores()
    (2, True)
    """
    if jobs == "auto":
        return available_cores()
    try:
        n = int(jobs)
    except (TypeError, ValueError):
        n = 0
    if n < 1:
        raise RuleproofError("RP173", None, value=repr(jobs))
    return n


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it, else all)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def cmd_check(args, lang: str) -> int:
    from ruleproof.orchestrate import run_check
    from ruleproof.reports.bundle import make_clause_text, report_from_check
    from ruleproof.reports.writers import parse_formats, write_reports

    # bad input fails before any engine runs
    formats = parse_formats(args.format)
    clause_text = make_clause_text(args.rules_text)
    engines = parse_names(args.engines, ENGINES)
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
    from ruleproof.cmd_explore import parse_bounds

    bounds = parse_bounds(args.bounds)
    kw = dict(engines=engines, jobs=args.jobs, bounds=bounds,
              timeout_ms=int(args.timeout * 1000) if args.timeout else None, rulings=tuple(args.rulings or ()))
    if args.jobs > 1 or not sys.stderr.isatty() or "json" in formats and not args.report:
        check = run_check(args.rulebook, args.examples, args.seed, **kw)
    else:
        from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

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
    report = report_from_check(check, lang=lang, rules_text=args.rules_text)
    if args.save_ruling:
        found = check.counterexample()
        if found is not None:
            from ruleproof.model.scenario_write import save_trace_violation

            engine, pid, events = found
            saved = save_trace_violation(events, check.rulebook, args.save_ruling, property=pid, engine=engine,
                                         replay="ruleproof check" + (f" {args.rulebook}" if args.rulebook else ""))
            print(t("ex_saved", lang, path=saved, rulebook=args.rulebook or ""), file=sys.stderr)
    if args.report:
        paths = write_reports(report, args.report, formats, lang, clause_text, console=_console())
        if paths:
            print(t("rep_written", lang, paths=", ".join(str(x) for x in paths)), file=sys.stderr)
        if "itf" in formats and not report.counterexamples:  # the ITF writer has nothing to write: say so
            print(t("rep_no_itf", lang), file=sys.stderr)
    elif "json" in formats:
        from ruleproof.reports.json_report import render as render_json

        sys.stdout.write(next(iter(render_json(report, lang, clause_text).values())))
    else:
        write_reports(report, ".", ("term",), lang, clause_text, console=_console())
    return report.exit_code


def cmd_clauses(args, lang: str) -> int:
    from ruleproof.model.clause_diff import citing, diff_texts
    from ruleproof.model.clauses import default_index
    from ruleproof.model.rules_text import load_rules_text

    index = default_index()
    if args.against and not args.rules_text:
        raise RuleproofError("RP150", None, problem=Localized("--against требует --rules-text СТАРЫЙ",
                                                              "--against needs --rules-text OLD"),
                             fix=Localized("запустите: ruleproof clauses --rules-text СТАРЫЙ --against НОВЫЙ",
                                           "run: ruleproof clauses --rules-text OLD --against NEW"))
    rules = load_rules_text(args.rules_text) if args.rules_text else None
    if args.broken:
        return _print_breakage(index, lang, args.format, args.examples)
    if args.units:
        from ruleproof.clause_lookup import lookup

        return lookup(args.units, args.rulebook, rules, lang, args.format)
    if args.against:
        from ruleproof.clause_lookup import every_citation

        new = load_rules_text(args.against)
        diff = diff_texts(rules, new)
        cites = every_citation(args.rulebook)
        return _print_diff(diff, rules, new, cites, lang, args.format, citing)
    if args.format == "json":
        doc = {"schema": "ruleproof-clauses/1", "edition": index.edition, "units": [
            {"id": e.id, "kind": e.kind, "status": e.status, "summary": e.summary,
             **({"title": e.title} if e.title else {}),
             **({"official": rules.text_of(e.id)} if rules and rules.text_of(e.id) else {})} for e in index]}
        if rules:
            new_units, missing = index.compare_with_text(rules)
            doc.update(not_in_index=new_units, not_in_text=missing, referenced_only=rules.referenced_only())
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
        return EXIT_OK
    con = _console()
    table = Table(title=f"{t('clause_index', lang)} — {index.edition}")
    for col in ("id", "kind", "status", "summary"):
        table.add_column(t(col, lang), no_wrap=col == "id")
    if rules:
        table.add_column(t("official", lang))
    for e in index:
        row = [e.id + (f" ({e.label(lang)})" if e.title else ""), t(f"unit_{e.kind}", lang), t(e.status, lang),
               e.summary[lang]]
        if rules:
            row.append(rules.text_of(e.id) if "/" in e.id or e.kind != "section" else "")
        table.add_row(*[escape(r or "") for r in row])
    con.print(table)
    if rules:
        con.print(t("rules_text_from", lang, src=", ".join(rules.sources), n=len(rules.units)))
        new_units, missing = index.compare_with_text(rules)
        for key, items in (("text_new", new_units), ("text_missing", missing), ("text_refs", rules.referenced_only())):
            con.print(f"{t(key, lang)}: {', '.join(items) if items else '—'}")
    return EXIT_OK


def _print_breakage(index, lang: str, fmt: str, examples: int) -> int:
    from ruleproof.generators.breakage import CLASSES, breakage, reading_drafts
    from ruleproof.generators.selftest import selftest

    if fmt == "json" or not sys.stderr.isatty():
        rep = selftest(examples=examples, every_property=True)
    else:
        with Console(stderr=True).status(t("br_running", lang)) as status:
            rep = selftest(examples=examples, every_property=True, progress=lambda msg: status.update(msg))
    rows = breakage(rep.results, index, reading_drafts())
    counts = {c: sum(r.coverage == c for r in rows) for c in (*CLASSES, "not broken")}
    if fmt == "json":
        doc = {"schema": "ruleproof-clause-breakage/1", "edition": index.edition, "drafts": len(rep.results),
               "examples": examples, "counts": counts, "units": [
                   {"id": r.clause, "kind": r.kind, "status": r.status, "coverage": r.coverage,
                    "drafts": r.classes, "properties": list(r.properties), "checks": list(r.checks),
                    "rulings": list(r.rulings)} for r in rows]}
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
        return EXIT_OK
    con = _console()
    table = Table(title=t("br_title", lang, edition=index.edition, n=len(rep.results)))
    for col in ("id", "br_col_drafts", "br_col_properties", "br_col_checks", "br_col_rulings", "br_col_coverage"):
        table.add_column(t(col, lang), overflow="fold", no_wrap=col == "id")
    style = {"property": "", "check": "", "rulings": "yellow", "unnoticed": "bold red", "reading": "dim",
             "no change": "dim", "not broken": "dim"}
    for r in rows:
        drafts = ", ".join(f"{t('br_' + c.replace(' ', '_'), lang)} {r.count(c)}" for c in CLASSES if r.count(c))
        weak = [d for d, c in r.classes.items() if c == r.coverage and c in ("rulings", "unnoticed", "reading")]
        cov = t("br_" + r.coverage.replace(" ", "_"), lang) + (f" ({', '.join(weak)})" if weak else "")
        table.add_row(*[escape(x) for x in (r.clause, drafts or "—", ", ".join(r.properties) or "—",
                                            ", ".join(r.checks) or "—", ", ".join(r.rulings) or "—", cov)],
                      style=style[r.coverage])
    con.print(table)
    con.print(t("br_summary", lang, units=len(rows), **{k.replace(" ", "_"): v for k, v in counts.items()},
                seconds=rep.seconds))
    return EXIT_OK


def _print_diff(diff, old, new, cites, lang: str, fmt: str, citing) -> int:
    groups = (("changed", diff.changed), ("added", diff.added), ("removed", diff.removed))
    if fmt == "json":
        doc = {"schema": "ruleproof-clause-diff/1", **{k: [
            {"id": u, "old": old.units[u].text if u in old.units else None,
             "new": new.units[u].text if u in new.units else None,
             "cited_by": [c.element for c in citing(u, cites)]} for u in items] for k, items in groups}}
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
        return EXIT_OK if not diff.all else EXIT_FINDING
    con = _console()
    if not diff.all:
        con.print(t("no_changes", lang))
        return EXIT_OK
    for key, items in groups:
        if not items:
            continue
        con.print(f"[bold]{t(key, lang)}[/] ({len(items)})")
        for u in items:
            con.print(f"  [bold]{u}[/]  {new.units[u].where if u in new.units else old.units[u].where}")
            if u in old.units:
                con.print(f"    − «{escape(old.units[u].text)}»")
            if u in new.units:
                con.print(f"    + «{escape(new.units[u].text)}»")
            users = citing(u, cites)
            names = "; ".join(f"{c.element} ({c.where})" for c in users) if users else t("nothing_cites", lang)
            con.print(f"    {t('cited_by', lang)}: {escape(names)}")
    return EXIT_FINDING


def cmd_run(args, lang: str) -> int:
    from ruleproof.model.rulebook import load_rulebook
    from ruleproof.model.scenario import load_scenario, run_scenario
    from ruleproof.reports.trace import trace_to_json

    clause_text = _clause_text_fn(args, lang)
    rb = load_rulebook(args.rulebook)
    whole = load_scenario(args.scenario, rb.index)
    rulings = whole.cases()
    if args.case is not None:
        ids = [sc.spec_case.id for sc in rulings if sc.case is not None]
        if args.case not in ids:
            raise RuleproofError("RP150", whole.where(("cases",)),
                                 problem=Localized(f"в {args.scenario} нет варианта '{args.case}'",
                                                   f"no case '{args.case}' in {args.scenario}"),
                                 fix=Localized("укажите один из: " + (", ".join(ids) or "— (в файле нет вариантов: "
                                                                                        "уберите --case)"),
                                               "use one of: " + (", ".join(ids) or "— (the file has no cases: "
                                                                                    "drop --case)")))
        rulings = [sc for sc in rulings if sc.spec_case.id == args.case]
    results = [run_scenario(sc, rb) for sc in rulings]
    passed = all(res.passed for res in results)

    def replay(sc) -> str:
        return (f"ruleproof run {args.scenario}{sc.case_option}"
                + (f" --rulebook {args.rulebook}" if args.rulebook else ""))

    if args.format == "json":
        docs = [{"schema": "ruleproof-run/1", "scenario": sc.spec.id, "rulebook": rb.spec.id, "passed": res.passed,
                 "failures": [{"what": f.what, "expected": f.expected, "actual": repr(f.actual)} for f in res.failures],
                 "clauses": list(sc.spec.clauses), "replay": replay(sc), "trace": trace_to_json(res.trace)}
                for sc, res in zip(rulings, results)]
        doc = docs[0] if not whole.spec.cases else {
            "schema": "ruleproof-run/1", "scenario": whole.spec.id, "rulebook": rb.spec.id, "passed": passed,
            "cases": docs}
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2, default=str) + "\n")
        return EXIT_OK if passed else EXIT_FINDING
    con = _console()
    for sc, res in zip(rulings, results):
        _print_run(con, sc, res, rb, replay(sc), clause_text, lang)
    if len(rulings) > 1:
        n_ok = sum(res.passed for res in results)
        con.print(t("run_cases", lang, ok=n_ok, n=len(results)))
    return EXIT_OK if passed else EXIT_FINDING


def _print_run(con, sc, res, rb, replay: str, clause_text, lang: str) -> None:
    """One ruling's run on the terminal: title, trace, and what passed or failed."""
    from ruleproof.reports.trace import print_offending, print_trace

    con.print(f"[bold]{escape(sc.spec.title.model_dump()[lang])}[/]  ({escape(sc.spec.id)})")
    con.print(f"{t('source', lang)}: {escape(sc.spec.source)}")
    con.print(f"{t('rulebook', lang)}: {rb.path}")
    print_trace(con, res.trace, lang, highlight=res.departures)
    n = sum(sum(len(v) for v in e.cards.values()) + len(e.action) + len(e.events) + len(e.no_events)
            + sum(len(v) for v in e.x.values()) + len(e.properties) + len(e.unused) + (e.visited is not None) + 1
            for *_, e in sc.plays())
    if res.passed:
        con.print(f"[green]{t('scenario_pass', lang, id=escape(sc.spec.id), n=n)}[/]")
        return
    con.print(f"[bold red]{t('scenario_fail', lang, id=escape(sc.spec.id), n=len(res.failures))}[/]")
    for f in res.failures:
        con.print(f"  ✗ {escape(f.text(lang))}", soft_wrap=True)
    print_offending(con, res.trace, res.departures, lang)
    for cid in sc.spec.clauses:
        text = clause_text(cid)
        if text:
            con.print(f"  [dim]{cid}:[/] «{escape(text)}»", soft_wrap=True)
    con.print(f"{t('replay', lang)}: {escape(replay)}", soft_wrap=True)


def cmd_selftest(args, lang: str) -> int:
    from ruleproof.generators.selftest import selftest

    if args.format == "json" or not sys.stderr.isatty():
        rep = selftest(examples=args.examples, only=args.only, prove=args.prove, jobs=check_jobs(args.jobs))
    else:
        with Console(stderr=True).status("selftest…") as status:
            rep = selftest(examples=args.examples, only=args.only, prove=args.prove, jobs=check_jobs(args.jobs),
                           progress=lambda msg: status.update(msg))
    c = rep.counts
    if args.format == "json":
        doc = {"schema": "ruleproof-selftest/1", **c, "survivors": c["survived"], "kill_rate": round(rep.kill_rate, 4),
               "seconds": round(rep.seconds, 1), "property_kills": rep.property_kills(),
               "results": [{"id": r.id, "operator": r.operator, "description": r.en, "status": r.status,
                            "clauses": list(r.clauses), "killed_by": r.killed_by, "reason": {"en": r.reason, "ru": r.reason_ru}}
                            for r in rep.results]}
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
    else:
        con = _console()
        table = Table(title=t("selftest_title", lang))
        for key in ("mutant", "operator", "status", "killed_by"):
            table.add_column(t(f"st_{key}", lang), overflow="fold")
        for r in rep.results:
            style = {"killed": "", "survived": "bold red"}.get(r.status, "yellow")
            shown = ", ".join(r.killed_by[:4]) + (f" (+{len(r.killed_by) - 4})" if len(r.killed_by) > 4 else "")
            reason = r.reason_ru if lang == "ru" and r.reason_ru else r.reason
            table.add_row(escape(r.id), escape(r.operator), t(f"st_{r.status}", lang), escape(shown or reason),
                          style=style)
        con.print(table)
        kills = rep.property_kills()
        con.print(t("st_property_kills", lang, n=sum(bool(v) for v in kills.values()), total=len(kills)))
        for pid, ks in kills.items():
            if not ks:
                con.print(f"  ✗ {pid}")
        con.print(t("st_summary", lang, rate=rep.kill_rate * 100, seconds=rep.seconds, **c))
    bad = c["survived"] > 0 or any(not v for v in rep.property_kills().values())
    return EXIT_FINDING if bad else EXIT_OK


def write_text(text: str, output: str | None, lang: str) -> int:
    """A command's text output: into the file ``output`` (atomically, saying so) or on stdout."""
    from ruleproof.ground.fileio import write_atomic

    if output:
        write_atomic(output, text)
        print(t("written", lang, path=output), file=sys.stderr)
    else:
        sys.stdout.write(text)
    return EXIT_OK


def cmd_graph(args, lang: str) -> int:
    from ruleproof.ground.fileio import atomic_path
    from ruleproof.model.draw import to_dot, to_image, to_mermaid
    from ruleproof.model.graph import build_graph
    from ruleproof.model.rulebook import load_rulebook

    G = build_graph(load_rulebook(args.rulebook))
    if args.format in ("dot", "mermaid"):
        return write_text((to_dot if args.format == "dot" else to_mermaid)(G, lang), args.output, lang)
    out = Path(args.output or f"phase-graph.{args.format}")
    if out.suffix.lower() != f".{args.format}":
        raise RuleproofError("RP150", Location(str(out)),
                             problem=Localized(f"имя файла не кончается на .{args.format}",
                                               f"the file name does not end in .{args.format}"),
                             fix=Localized(f"назовите файл *.{args.format} или выберите --format {out.suffix.lstrip('.')}",
                                           f"name the output *.{args.format} or choose --format {out.suffix.lstrip('.')}"))
    with atomic_path(out) as tmp:
        to_image(G, tmp, lang)
    print(t("written", lang, path=out), file=sys.stderr)
    return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
