"""`ruleproof selftest`: do the properties and rulings catch faulty drafts (the mutants and the one-fault
drafts of every clause unit)?  Exit 0 every draft killed and every property kills one, 1 otherwise.
"""

from __future__ import annotations

import json
import sys

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ruleproof.ground.errors import ExitCode
from ruleproof.ground.i18n import t

from .common import check_jobs, console

__all__ = ["add_parser", "run"]


def add_parser(sub, common, texts) -> None:
    p = sub.add_parser("selftest", parents=[common], help="do the properties and rulings catch faulty drafts?")
    p.add_argument("--format", choices=("term", "json"), default="term")
    p.add_argument("--examples", type=int, default=60, metavar="N",
                   help="Hypothesis examples for drafts nothing else kills (default 60; 0: no Hypothesis)")
    p.add_argument("--only", nargs="*", metavar="ID", help="only these drafts (ids as printed, e.g. M1 drop:dice:6)")
    p.add_argument("--no-prove", dest="prove", action="store_false",
                   help="no Z3 pass on the drafts nothing else kills (then none is called equivalent: undecided)")
    p.add_argument("--jobs", default="auto", metavar="N|auto",
                   help="processes for each Z3 pass (default auto: one per core)")
    p.set_defaults(run=run)


def run(args, lang: str) -> int:
    from ruleproof.generators.selftest import selftest  # start-up: only when the command runs

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
        con = console()
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
    return ExitCode.FINDING if bad else ExitCode.OK

