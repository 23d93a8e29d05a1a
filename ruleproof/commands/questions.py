"""`ruleproof questions [RULEBOOK]`: where the rules need a ruling, and the smallest game that asks it.

For each alternative reading the rulebook names: the game whose end it changes — a shipped ruling's game when
one already decides it (the question that ruling answers), else the smallest game the search finds (an open
question) — written as a ruling draft with one case per alternative (``--out DIR``: one YAML file each), and a
text that asks which is right, quoting the clauses.  Exit 0, or 2 for bad input.
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
                       help="questions for the judges: per alternative reading, the smallest game that decides it")
    p.add_argument("rulebook", nargs="?", help="rulebook (default: the bundled РП 4.1-2)")
    p.add_argument("--only", nargs="+", metavar="ID", help="only these readings")
    p.add_argument("--out", metavar="DIR", help="write each question as a ruling draft DIR/<id>.yaml")
    p.add_argument("--format", choices=("term", "json"), default="term")
    p.set_defaults(run=run)


def run(args, lang: str) -> int:
    from ruleproof.model.readings import readings  # start-up: only when the command runs
    from ruleproof.model.rulebook import load_rulebook  # start-up: only when the command runs
    from ruleproof.model.scenario_write import save_ruling  # start-up: only when the command runs
    from ruleproof.questions import questions  # start-up: only when the command runs

    if args.out:
        check_writable(args.out, folder=True)
    rb = load_rulebook(args.rulebook)
    if args.only:
        from ruleproof.ground.errors import RuleproofError, suggest  # start-up: only when the command runs

        known = [r.id for r in readings(rb)]
        for rid in args.only:
            if rid not in known:
                raise RuleproofError("RP139", None, reading=rid, known=", ".join(known) or "—", hint=suggest(rid, known))
    clause_text = clause_text_fn(args, lang)
    qs = questions(rb, lambda cid, lg: clause_text(cid), only=set(args.only) if args.only else None)
    written = []
    if args.out:
        from pathlib import Path  # start-up: only when the command runs

        Path(args.out).mkdir(parents=True, exist_ok=True)
        for q in qs:
            if q.doc is not None:
                written.append(str(save_ruling(Path(args.out) / f"{q.id}.yaml", q.doc)))
    if args.format == "json":
        doc = {"schema": "ruleproof-questions/1", "rulebook": {"id": rb.spec.id, "path": str(rb.path)},
               "questions": [{"id": q.id, "kind": q.kind, "reading": q.label, "about": list(q.about),
                              "pinned_by": q.pinned, "open": q.doc is not None and q.pinned is None,
                              "game": q.doc is not None, "text": q.text, "scenario": q.doc} for q in qs],
               "written": written}
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2, default=str) + "\n")
        return ExitCode.OK
    _print(console(), qs, lang, written)
    return ExitCode.OK


def _print(con, qs, lang: str, written: list[str]) -> None:
    ru = lang == "ru"
    table = Table(title="Вопросы судьям" if ru else "Questions for the judges")
    for col in (("вопрос", "question"), ("прочтение", "reading"), ("решено разъяснением", "decided by ruling")):
        table.add_column(col[0] if ru else col[1], overflow="fold")
    for q in qs:
        status = q.pinned or (("открытый вопрос" if ru else "open question") if q.doc is not None
                              else ("партии нет" if ru else "no game"))
        table.add_row(escape(q.id), escape(q.label), escape(status))
    con.print(table)
    for q in qs:
        con.print(f"\n[bold]{escape(q.id)}[/] ({escape(q.label)})", soft_wrap=True)
        con.print(escape(q.text.get(lang, "")), soft_wrap=True)
    opened = sum(q.doc is not None and q.pinned is None for q in qs)
    con.print(f"\n[bold]{'Вопросов' if ru else 'Questions'}: {sum(q.doc is not None for q in qs)}; "
              f"{'открытых' if ru else 'open'}: {opened}; {'без партии' if ru else 'with no game'}: "
              f"{sum(q.doc is None for q in qs)}[/]")
    if written:
        con.print(("Записано: " if ru else "Written: ") + ", ".join(written), soft_wrap=True)
