"""`ruleproof consistency [RULEBOOK]`: do the clauses' temporal claims fit the rulebook's order?

Prints the claims checked (count and clauses), the verdict, and for a conflict each minimal core as a
list of clauses with their text (the official wording with ``--rules-text``, else ruleproof's summary)
and the rulebook elements with file:line.  Exit 0 consistent, 1 conflict, 3 unknown, 2 bad input.
"""

from __future__ import annotations

import json
import sys

from rich.console import Console
from rich.markup import escape

from ruleproof.ground.errors import ExitCode
from ruleproof.ground.i18n import t
from ruleproof.ground.verdicts import Verdict

from .common import clause_text_fn

__all__ = ["add_parser", "run", "to_json", "SCHEMA"]

SCHEMA = "ruleproof-consistency/1"
EXIT = {"consistent": ExitCode.OK, "conflict": ExitCode.FINDING, "unknown": ExitCode.INCONCLUSIVE}


def add_parser(sub, common, texts) -> None:
    p = sub.add_parser("consistency", parents=[common, texts],
                       help="do the clauses' temporal claims contradict each other on a rulebook? (Z3 unsat cores)")
    p.add_argument("rulebook", nargs="?", help="rulebook YAML (default: the bundled РП 4.1-2)")
    p.add_argument("--format", choices=("term", "json"), default="term")
    p.set_defaults(run=run)


def run(args, lang: str) -> int:
    from ruleproof.model.rulebook import load_rulebook  # start-up: only when the command runs
    from ruleproof.properties.consistency import consistency  # start-up: only when the command runs

    clause_text = clause_text_fn(args, lang)  # a bad --rules-text fails before any work
    rb = load_rulebook(args.rulebook)
    out = consistency(rb)
    if args.format == "json":
        sys.stdout.write(json.dumps(to_json(out, clause_text), ensure_ascii=False, indent=2) + "\n")
    else:
        _print(out, rb, lang, clause_text)
    return EXIT[out.status]


def to_json(out, clause_text) -> dict:
    from ruleproof.properties.claims import BY_ID  # start-up: only when the command runs

    def element(e) -> dict:
        return {"label": e.label, "kind": e.kind, "where": e.where, "clauses": list(e.clauses),
                "text": {"ru": e.ru, "en": e.en}}

    return {
        "schema": SCHEMA, "rulebook": {"id": out.rulebook, "path": out.path}, "status": out.status,
        "z3": {"version": out.z3_version, "seed": out.seed}, "seconds": round(out.seconds, 3),
        "complete": out.complete, "reason": out.reason or None,
        "clauses_checked": list(out.clauses_checked),
        "claims": [{"id": r.check, "clauses": list(r.clauses), "statement": r.statement,
                    "assumptions": list(BY_ID[r.check].assumes),
                    "verdict": Verdict.VIOLATED if any(f.verdict == Verdict.VIOLATED for f in r.findings)
                    else Verdict.UNKNOWN if r.findings else Verdict.HOLDS} for r in out.results if r.check in BY_ID],
        "core": list(out.core),
        "cores": [{"claims": list(c.claims), "clauses": [{"id": cid, "text": clause_text(cid)} for cid in c.clauses],
                   "elements": [element(e) for e in c.elements]} for c in out.cores],
        "replay": f"ruleproof consistency {out.path}",
    }


def _print(out, rb, lang: str, clause_text) -> None:
    from ruleproof.properties.claims import BY_ID  # start-up: only when the command runs

    con = Console(highlight=False, emoji=False, width=None if sys.stdout.isatty() else 140)
    con.print(f"[bold]{t('cons_title', lang)}[/]")
    con.print(f"{t('rulebook', lang)}: {escape(out.path)} ({escape(out.rulebook)})")
    con.print(t("cons_claims", lang, n=len(out.claims), clauses=", ".join(out.clauses_checked)), soft_wrap=True)
    if out.status == "consistent":
        con.print(f"[green]{t('cons_consistent', lang, n=len(out.claims))}[/]")
    elif out.status == "unknown":
        con.print(f"[yellow]{escape(t('cons_unknown', lang, reason=out.reason or '?'))}[/]")
    else:
        con.print(f"[bold red]{t('cons_conflict', lang, n=len(out.cores))}[/]")
        if not out.complete:
            con.print(t("cons_incomplete", lang, n=len(out.cores)))
        if any(not core.claims for core in out.cores):
            con.print(t("cons_not_checked", lang))
        for n, core in enumerate(out.cores, 1):
            head = t("cons_core", lang, n=n, claims=", ".join(core.claims)) if core.claims else \
                t("cons_core_rulebook_only", lang, n=n)
            con.print(f"\n[bold]{escape(head)}[/]")
            for cid in core.claims:
                con.print(f"  {escape(BY_ID[cid].statement(lang))}", soft_wrap=True)
                if BY_ID[cid].assumes:
                    con.print(f"  [dim]{t('cons_assumes', lang, ids=', '.join(BY_ID[cid].assumes))}[/]")
            if core.clauses:
                con.print(f"  {t('cons_core_clauses', lang)}")
                for cid in core.clauses:
                    text = clause_text(cid) or t("cons_no_text", lang)
                    con.print(f"    [bold]{cid}[/] «{escape(text)}»", soft_wrap=True)
            con.print(f"  {t('cons_core_elements', lang)}")
            for e in core.elements:
                cites = f"  [dim]({', '.join(e.clauses)})[/]" if e.clauses else ""
                con.print(f"    {escape(e.where)}  {escape(e.text(lang))}{cites}", soft_wrap=True)
        con.print(f"\n{t('replay', lang)}: ruleproof consistency {escape(out.path)}", soft_wrap=True)
    con.print(f"[dim]{t('cons_engine', lang, version=out.z3_version, seed=out.seed, seconds=out.seconds)}[/]")
