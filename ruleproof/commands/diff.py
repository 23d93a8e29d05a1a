"""`ruleproof diff BASE DRAFT`: what a draft changes, and what breaks.

Prints the changed elements grouped by clause, the properties whose verdict changes, the clause
conflicts that appear or disappear, the rulings whose outcome changes, and the smallest game the two
rulebooks play differently — side by side, the first event where they part marked.  Exit 0 when
the draft changes no verdict and no ruling, 1 otherwise, 2 on bad input.
"""

from __future__ import annotations

import json
import sys

from rich.markup import escape
from rich.table import Table

from ruleproof.engine_registry import DIFF_ENGINES, DIFF_EXAMPLES
from ruleproof.ground.errors import ExitCode
from ruleproof.ground.i18n import answers_text, t

from .common import RULINGS_HELP, check_jobs, clause_text_fn, console, parse_names
from .explore import parse_bounds

__all__ = ["add_parser", "add_engine_options", "engine_options", "run", "to_json", "to_markdown", "SCHEMA"]

SCHEMA = "ruleproof-diff/1"
_WHAT = {"added": "diff_added", "removed": "diff_removed", "moved": "diff_moved", "changed": "diff_changed_el"}


def add_engine_options(p) -> None:
    """The options of a comparison of two rulebooks (``diff``, ``readings``): which engines, their bounds,
    the Hypothesis examples and seed, the worker processes."""
    p.add_argument("--engines", default=", ".join(DIFF_ENGINES), metavar="E,…",
                   help="engines run on both (default all: %(default)s)")
    p.add_argument("--bounds", default="", metavar="K=V,…",
                   help="bounds of the exhaustive pass and of the search for the smallest differing game "
                        "(default: explore's)")
    p.add_argument("--examples", type=int, default=DIFF_EXAMPLES, metavar="N",
                   help=f"Hypothesis examples per rulebook (default {DIFF_EXAMPLES})")
    p.add_argument("--seed", type=int, help="a different, reproducible Hypothesis run (default: seed 0)")
    p.add_argument("--jobs", default="auto", metavar="N|auto",
                   help="worker processes: each engine on each rulebook is a task (default auto: one per core)")
    p.add_argument("--format", choices=("term", "json"), default="term")

    p.add_argument("--rulings", action="append", metavar="DIR", help=RULINGS_HELP)


def engine_options(args) -> tuple[tuple[str, ...], object, int]:
    """(engines, bounds, jobs) from the options of :func:`add_engine_options`, checked."""
    from ruleproof.model.explore import Bounds  # start-up: the parser is built before any command runs

    return parse_names(args.engines, DIFF_ENGINES), parse_bounds(args.bounds, Bounds()), check_jobs(args.jobs)


def add_parser(sub, common, texts) -> None:
    p = sub.add_parser("diff", parents=[common, texts], help="what a draft changes against a base rulebook, what breaks")
    p.add_argument("base", help="the base rulebook YAML (e.g. the bundled one: rulebooks/berserk-rp-4.1-2.yaml)")
    p.add_argument("draft", help="the draft rulebook YAML")
    add_engine_options(p)
    p.add_argument("--no-cache", action="store_true",
                   help="run every engine on the base again (by default its results are kept in .ruleproof-cache/ "
                        "and reused while the base, the options and ruleproof itself are unchanged)")
    p.add_argument("--report", metavar="DIR", help="also write diff.md and diff.json into DIR (atomically)")
    p.add_argument("--save-ruling", metavar="PATH",
                   help="save the draft's first new counterexample (a property it breaks) as a ruling scenario")
    p.set_defaults(run=run)


def run(args, lang: str) -> int:
    from ruleproof.diff import diff_rulebooks  # start-up: only when the command runs
    from ruleproof.model.rulebook import load_rulebook  # start-up: only when the command runs

    clause_text = clause_text_fn(args, lang)
    engines, bounds, jobs = engine_options(args)
    base, draft = load_rulebook(args.base), load_rulebook(args.draft)
    from ruleproof.generators.run import CACHE_DIR  # start-up: only when the command runs
    from ruleproof.orchestrate import team_rulings  # start-up: only when the command runs

    kw = dict(jobs=jobs, examples=args.examples, seed=args.seed, cache_dir=None if args.no_cache else CACHE_DIR,
              rulings=team_rulings(args.rulings, base, draft))
    if args.format == "json" or not sys.stderr.isatty():
        out = diff_rulebooks(base, draft, engines, bounds, **kw)
    else:  # a bar on the terminal: the tasks (each engine on each rulebook, …) as they finish
        from rich.console import Console  # start-up: only when the command runs

        # start-up: only when the command runs
        from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        with Progress(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                      TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn(),
                      console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("diff", total=None)

            def progress(name: str, finished: int, total: int) -> None:
                bar.update(task, completed=finished, total=total, description=t("diff_progress", lang, task=name))

            out = diff_rulebooks(base, draft, engines, bounds, progress=progress, **kw)
    saved = None
    if args.save_ruling:
        if out.counterexamples:
            from ruleproof.model.scenario_write import save_trace_violation  # start-up: only when the command runs

            pid, (engine, events) = next(iter(out.counterexamples.items()))
            saved = save_trace_violation(events, draft, args.save_ruling, property=pid, engine=engine,
                                         replay=f"ruleproof diff {args.base} {args.draft}")
        else:
            print(t("diff_nothing_to_save", lang), file=sys.stderr)
    text_json = json.dumps(to_json(out, clause_text), ensure_ascii=False, indent=2) + "\n"
    if args.report:
        from ruleproof.reports.writers import write_files  # start-up: only when the command runs

        write_files({"diff.md": to_markdown(out, lang, clause_text), "diff.json": text_json}, args.report)
    if args.format == "json":
        sys.stdout.write(text_json)
    else:
        _print(console(), out, lang, clause_text, args)
    if saved:
        print(t("ex_saved", lang, path=saved, rulebook=args.draft), file=sys.stderr)
    return ExitCode.FINDING if out.changed else ExitCode.OK


def _print(con, out, lang: str, clause_text, args) -> None:
    from ruleproof.model.rulebook_diff import by_clause  # start-up: only when the command runs
    from ruleproof.reports.side_by_side import side_table  # start-up: only when the command runs

    con.print(f"[bold]{t('diff_title', lang)}[/]")
    con.print(f"{t('diff_base', lang)}: {escape(str(out.base.path))} ({out.base.spec.id})")
    con.print(f"{t('diff_draft', lang)}: {escape(str(out.draft.path))} ({out.draft.spec.id})")
    con.print(f"[bold]{t('diff_changes', lang, n=len(out.structure))}[/]")
    for cid, changes in by_clause(out.structure).items():
        text = clause_text(cid) if cid != "—" else None
        con.print(f"  [bold]{cid}[/]" + (f" [dim]«{escape(text)}»[/]" if text else ""), soft_wrap=True)
        for c in changes:
            con.print(f"    {t(_WHAT[c.what], lang)}: {escape(c.text(lang))}  [dim]{escape(c.where)}[/]", soft_wrap=True)
    _section(con, t("diff_verdicts", lang, n=len(out.verdicts)),
             [(v.property, ", ".join(v.clauses), engine_name(v.engine, lang), f"{_v(v.base, lang)} → {_v(v.draft, lang)}",
               v.message.get(lang, "")) for v in out.verdicts],
             ("rep_col_check", "rep_col_clauses", "diff_col_engine", "diff_col_verdict", "diff_col_message"), lang)
    _section(con, t("diff_conflicts", lang, n=len(out.conflicts)),
             [(t("diff_" + c.what, lang), ", ".join(c.claims), ", ".join(c.clauses)) for c in out.conflicts],
             ("diff_col_what", "diff_col_claims", "rep_col_clauses"), lang)
    _section(con, t("diff_rulings", lang, n=len(out.rulings)),
             [(r.ruling, ", ".join(r.clauses), f"{t('diff_' + r.base, lang)} → {t('diff_' + r.draft, lang)}",
               r.message.get(lang, "")) for r in out.rulings],
             ("diff_col_ruling", "rep_col_clauses", "diff_col_outcome", "diff_col_message"), lang)
    d = out.difference
    if d is None:
        con.print(t("diff_same_behaviour" if out.same_behaviour else "diff_same_games", lang))
    else:
        con.print(f"[bold]{t('diff_game', lang, world=d.world, n=d.choices, answers=answers_text(d.answers, lang))}[/]", soft_wrap=True)
        if not getattr(d, "visible", True):
            con.print(f"[yellow]{t('diff_invisible', lang)}[/]", soft_wrap=True)
        con.print(side_table(d, lang, t("diff_side_by_side", lang),
                             (t("trace_seq", lang), t("diff_base", lang), t("diff_draft", lang))))
    con.print(t("diff_engines", lang))
    for e, b, d, n in engine_rows(out):
        con.print(t("diff_engine_row", lang, engine=engine_name(e, lang), base=b, draft=d, n=n))
        if e in out.scopes:
            con.print(escape(scope_line(out.scopes[e], lang)))
    if out.cached:
        con.print(t("diff_cached", lang, engines=", ".join(out.cached)))
    verdict = "diff_changed" if out.changed else "diff_unchanged"
    con.print(f"[bold]{t(verdict, lang)}[/] ({t('took', lang, seconds=out.seconds, engines=', '.join(out.engines))})")


def _v(verdict: str, lang: str) -> str:
    key = {"holds": "holds", "violated": "violated", "unknown": "unknown", "not exercised": "diff_v_not_exercised",
           "proved": "diff_v_proved", "proved within the menu": "rep_scope_within_z3",
           "vacuous": "diff_v_vacuous"}.get(verdict)
    return t(key, lang) if key else verdict


def scope_line(scopes: tuple, lang: str) -> str:
    """An engine's scope on both rulebooks, in one line: how many of the combinations each admits its games
    cover, and what the draft's games leave out (the first few).

    >>> scope_line(({"admitted": 310, "covered": 19, "missing": ["a:b:c@src"] * 291},
    ...             {"admitted": 310, "covered": 19, "missing": ["calculation:sudden_action:heal@tgt"]}), "en")
    '    the games cover 19 of 310 combinations on the base, 19 of 310 on the draft; not played on the draft: calculation window: sudden game action without a condition — heals — the target'
    """
    from ruleproof.model.universe import Combo  # start-up: only when the command runs

    b, d = (s or {"admitted": 0, "covered": 0, "missing": []} for s in scopes)
    left = "; ".join(Combo.parse(c).text(lang) for c in d["missing"][:3]) + (" …" if len(d["missing"]) > 3 else "")
    return "    " + t("diff_scope", lang, bc=b["covered"], ba=b["admitted"], dc=d["covered"], da=d["admitted"]) + (
        t("diff_scope_left", lang, left=left) if d["missing"] else "")


def engine_name(engine: str, lang: str) -> str:
    """An engine as the reader's words (``exhaustive`` → «полный перебор»); one with no name as it is.

    >>> engine_name("exhaustive", "ru"), engine_name("rulings", "en")
    ('полный перебор', 'rulings')
    """
    try:
        return t(f"rep_short_{engine}", lang)
    except KeyError:
        return engine


def engine_rows(out) -> list[tuple[str, float, float, int]]:
    """Per engine run on both rulebooks: (engine, seconds on the base, on the draft, verdicts it changes)."""
    rows = []
    for e in out.engines:
        if f"{e}/base" in out.timings:
            n = sum(v.engine == e for v in out.verdicts) + (
                len(out.rulings) if e == "rulings" else len(out.conflicts) if e == "consistency" else 0)
            rows.append((e, out.timings[f"{e}/base"], out.timings.get(f"{e}/draft", 0.0), n))  # 0: stood for by the base
    return rows


def _section(con, title: str, rows: list[tuple], cols: tuple[str, ...], lang: str) -> None:
    if not rows:
        con.print(f"[bold]{title}[/]")
        return
    table = Table(title=title)
    for c in cols:
        table.add_column(t(c, lang), overflow="fold")
    for r in rows:
        table.add_row(*(escape(str(x)) for x in r))
    con.print(table)


def to_json(out, clause_text) -> dict:
    from ruleproof.model.rulebook_diff import by_clause  # start-up: only when the command runs

    d = out.difference

    def ev(e) -> dict:
        return {"seq": e.seq, "step": e.step, "op": e.op, "values": {k: repr(v) if not isinstance(v, (int, str, bool, type(None)))
                                                                     else v for k, v in e.values.items()}}

    return {
        "schema": SCHEMA, "changed": out.changed, "engines": list(out.engines), "seconds": round(out.seconds, 2),
        "timings": {k: round(v, 2) for k, v in out.timings.items()},
        "scopes": {e: {"base": b, "draft": d} for e, (b, d) in out.scopes.items()},
        "base_from_cache": list(out.cached),
        "base": {"id": out.base.spec.id, "path": str(out.base.path)},
        "draft": {"id": out.draft.spec.id, "path": str(out.draft.path)},
        "changes": [{"what": c.what, "element": c.element, "clauses": list(c.clauses), "en": c.en, "ru": c.ru,
                     "where": c.where} for c in out.structure],
        "by_clause": {cid: [c.element for c in cs] for cid, cs in by_clause(out.structure).items()},
        "verdicts": [{"property": v.property, "clauses": list(v.clauses), "engine": v.engine, "base": v.base,
                      "draft": v.draft, "message": v.message} for v in out.verdicts],
        "conflicts": [{"what": c.what, "claims": list(c.claims), "clauses": list(c.clauses),
                       "text": {cid: clause_text(cid) for cid in c.clauses}} for c in out.conflicts],
        "rulings": [{"ruling": r.ruling, "clauses": list(r.clauses), "base": r.base, "draft": r.draft,
                     "message": r.message} for r in out.rulings],
        "same_behaviour": out.same_behaviour,
        "smallest_difference": None if d is None else {
            "world": d.world, "choices": d.choices, "answers": list(d.answers), "first": d.first, "reason": d.reason,
            "visible": getattr(d, "visible", True),
            "base": [ev(e) for e in d.base_events[: d.first + 1]],
            "draft": [ev(e) for e in d.draft_events[: d.first + 1]]},
    }


def to_markdown(out, lang: str, clause_text) -> str:
    from ruleproof.model.rulebook_diff import by_clause  # start-up: only when the command runs
    from ruleproof.reports.side_by_side import side_markdown  # start-up: only when the command runs

    lines = [f"# {t('diff_title', lang)}", "",
             f"- {t('diff_base', lang)}: `{out.base.path}` ({out.base.spec.id})",
             f"- {t('diff_draft', lang)}: `{out.draft.path}` ({out.draft.spec.id})", "",
             f"## {t('diff_changes', lang, n=len(out.structure))}", ""]
    for cid, changes in by_clause(out.structure).items():
        text = clause_text(cid) if cid != "—" else None
        lines.append(f"- **{cid}**" + (f" — «{text}»" if text else ""))
        lines += [f"  - {t(_WHAT[c.what], lang)}: {c.text(lang)} (`{c.where}`)" for c in changes]
    lines += ["", f"## {t('diff_verdicts', lang, n=len(out.verdicts))}", ""]
    lines += [f"- `{v.property}` ({', '.join(v.clauses)}; {engine_name(v.engine, lang)}): {_v(v.base, lang)} → {_v(v.draft, lang)}"
              for v in out.verdicts]
    lines += ["", f"## {t('diff_conflicts', lang, n=len(out.conflicts))}", ""]
    lines += [f"- {t('diff_' + c.what, lang)}: {', '.join(c.claims)} ({', '.join(c.clauses)})" for c in out.conflicts]
    lines += ["", f"## {t('diff_rulings', lang, n=len(out.rulings))}", ""]
    lines += [f"- `{r.ruling}` ({', '.join(r.clauses)}): {t('diff_' + r.base, lang)} → {t('diff_' + r.draft, lang)}"
              for r in out.rulings]
    d = out.difference
    lines += [""]
    if d is None:
        lines.append(t("diff_same_behaviour" if out.same_behaviour else "diff_same_games", lang))
    else:
        lines += [f"## {t('diff_game', lang, world=d.world, n=d.choices, answers=answers_text(d.answers, lang))}", "",
                  *([f"*{t('diff_invisible', lang)}*", ""] if not getattr(d, "visible", True) else []),
                  *side_markdown(d, (t("diff_base", lang), t("diff_draft", lang)), lang)]
    lines += ["", t("diff_changed" if out.changed else "diff_unchanged", lang), ""]
    return "\n".join(lines)
