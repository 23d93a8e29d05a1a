"""`ruleproof questions [RULEBOOK]`: where the rules need a ruling, and the smallest game that asks it.

For each alternative reading the rulebook names (``--only``) and each clause unit no ruling pins (``--units``): the
game the two alternatives play apart in what a judge sees — a shipped ruling's game when one already decides it (the
question that ruling answers), else the smallest game the search finds (an open question) — written as a ruling
draft with one case per alternative (``--out DIR``: one YAML file each), and a text that asks which is right,
quoting the clauses; then the ruling-debt map (every applicable reading's status, asked or not).  Exit 0, or 2 for
bad input.
"""

from __future__ import annotations

import json
import sys

from rich.markup import escape
from rich.table import Table

from ruleproof.ground.errors import ExitCode

from .common import check_writable, clause_text_fn, console

__all__ = ["add_parser", "run"]


def add_parser(sub, common, texts) -> None:
    p = sub.add_parser("questions", parents=[common, texts],
                       help="questions for the judges: per alternative reading and per clause unit no ruling pins, "
                            "the smallest game that decides it")
    p.add_argument("rulebook", nargs="?", help="rulebook (default: the bundled РП 4.1-2)")
    p.add_argument("--only", nargs="+", metavar="ID", help="only these readings")
    p.add_argument("--units", nargs="+", metavar="UNIT",
                   help="only these clause units no ruling pins (with --only: the readings too; default: every unit)")
    p.add_argument("--out", metavar="DIR", help="write each question as a ruling draft DIR/<id>.yaml")
    p.add_argument("--format", choices=("term", "json"), default="term")
    p.set_defaults(run=run)


def run(args, lang: str) -> int:
    from ruleproof.model.rulebook import load_rulebook  # start-up: only when the command runs
    from ruleproof.model.scenario_write import save_ruling  # start-up: only when the command runs
    from ruleproof.questions import questions  # start-up: only when the command runs

    if args.out:
        check_writable(args.out, folder=True)
    rb = load_rulebook(args.rulebook)
    _check_names(rb, args)
    clause_text = clause_text_fn(args, lang)
    only = set(args.only) if args.only else (set() if args.units else None)
    units = set(args.units) if args.units else (set() if args.only else None)
    qs = questions(rb, lambda cid, lg: clause_text(cid), only=only, units=units)
    written = []
    if args.out:
        from pathlib import Path  # start-up: only when the command runs

        Path(args.out).mkdir(parents=True, exist_ok=True)
        for q in qs:
            if q.doc is not None:
                written.append(str(save_ruling(Path(args.out) / f"{q.id}.yaml", q.doc)))
    entries = [_entry(q) for q in qs]
    debt = _debt(rb, entries)
    if args.format == "json":
        from ruleproof.reports.debt import debt_to_json  # start-up: only when the command runs

        doc = {"schema": "ruleproof-questions/1", "rulebook": {"id": rb.spec.id, "path": str(rb.path)},
               "questions": entries, "debt": debt_to_json(debt), "written": written}
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2, default=str) + "\n")
        return ExitCode.OK
    _print(console(), qs, lang, written, debt)
    return ExitCode.OK


def _check_names(rb, args) -> None:
    """Every reading of ``--only`` is the rulebook's, every unit of ``--units`` is in the clause index."""
    from ruleproof.ground.errors import RuleproofError, suggest  # start-up: only when the command runs
    from ruleproof.model.readings import readings  # start-up: only when the command runs

    known = [r.id for r in readings(rb)]
    for rid in args.only or ():
        if rid not in known:
            raise RuleproofError("RP139", None, reading=rid, known=", ".join(known) or "—", hint=suggest(rid, known))
    ids = [e.id for e in rb.index]
    for unit in args.units or ():
        if unit not in ids:
            raise RuleproofError("RP121", None, clause=unit, hint=suggest(unit, ids))


def _entry(q) -> dict:
    """A question as JSON: its kind, what it asks about (a reading, or a unit and its one-fault draft), whether a
    shipped ruling decides it, its text and its scenario."""
    return {"id": q.id, "kind": q.kind, "label": q.label, "reading": q.label if q.kind == "reading" else None,
            "unit": q.label if q.kind == "unit" else None, "draft": q.draft, "about": list(q.about),
            "pinned_by": q.pinned, "open": q.doc is not None and q.pinned is None, "game": q.doc is not None,
            "text": q.text, "scenario": q.doc}


def _debt(rb, entries: list[dict]):
    """The ruling-debt map with the questions: every applicable reading (asked or not) decided when a shipped
    ruling decides it."""
    from ruleproof.model.readings import readings  # start-up: only when the command runs
    from ruleproof.questions import deciding_rulings  # start-up: only when the command runs
    from ruleproof.reports.coverage import build_coverage  # start-up: only when the command runs
    from ruleproof.reports.debt import debt_map  # start-up: only when the command runs

    about = {r.id: [str(c) for c in r.about] for r in readings(rb)}
    statuses = {rid: {"about": about.get(rid, []), "rulings": [by] if by else []}
                for rid, by in deciding_rulings(rb, {e["reading"]: e["pinned_by"] for e in entries
                                                     if e["kind"] == "reading"}).items()}
    assumptions = {aid: a.model_dump() for aid, a in rb.spec.assumptions.items()}
    return debt_map(build_coverage(rb.index, assumptions), statuses, entries)


def _table(qs, ru: bool) -> Table:
    table = Table(title="Вопросы судьям" if ru else "Questions for the judges")
    for col in (("вопрос", "question"), ("о чём", "about"), ("проект", "draft"), ("решено разъяснением", "decided by ruling")):
        table.add_column(col[0] if ru else col[1], overflow="fold")
    for q in qs:
        status = q.pinned or (("открытый вопрос" if ru else "open question") if q.doc is not None
                              else ("партии нет" if ru else "no game"))
        about = q.label if q.kind == "reading" else (f"пункт {q.label}" if ru else f"clause {q.label}")
        table.add_row(escape(q.id), escape(about), escape(q.draft or "—"), escape(status))
    return table


def _print(con, qs, lang: str, written: list[str], debt=()) -> None:
    ru = lang == "ru"
    con.print(_table(qs, ru))
    for q in qs:
        con.print(f"\n[bold]{escape(q.id)}[/] ({escape(q.label)})", soft_wrap=True)
        con.print(escape(q.text.get(lang, "")), soft_wrap=True)
    opened = sum(q.doc is not None and q.pinned is None for q in qs)
    con.print(f"\n[bold]{'Вопросов' if ru else 'Questions'}: {sum(q.doc is not None for q in qs)}; "
              f"{'открытых' if ru else 'open'}: {opened}; {'без партии' if ru else 'with no game'}: "
              f"{sum(q.doc is None for q in qs)}[/]")
    _print_debt(con, debt, lang)
    if written:
        con.print(("Записано: " if ru else "Written: ") + ", ".join(written), soft_wrap=True)


def _print_debt(con, debt, lang: str, shown: int = 12) -> None:
    """The units in debt (not pinned), the most pressing first: the first ``shown`` of them."""
    from ruleproof.ground.i18n import t  # start-up: only when the command runs

    owed = [r for r in debt if r.debt != "pinned"]
    if owed:
        con.print(f"\n[bold]{t('rep_debt', lang)}[/] ({len(owed)}): " + "; ".join(
            f"{r.clause} — {t('debt_' + r.debt, lang)}" + (f" ({', '.join(r.questions)})" if r.questions else "")
            for r in owed[:shown]) + ("; …" if len(owed) > shown else ""), soft_wrap=True)
