"""`ruleproof clauses [UNIT …]`: the clause index; a unit looked up with everything that cites it;
the clauses whose wording changed between two rules texts (``--against``); coverage by failure
(``--broken``).  Exit 0, 1 when ``--against`` finds a change, 2 bad input.
"""

from __future__ import annotations

import json
import sys

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ruleproof.ground.errors import ExitCode, Localized, RuleproofError
from ruleproof.ground.i18n import t

from .common import console

__all__ = ["add_parser", "run"]


def add_parser(sub, common, texts) -> None:
    p = sub.add_parser("clauses", parents=[common, texts], help="list the clause index; compare rules texts")
    p.add_argument("units", nargs="*", metavar="UNIT",
                   help="look these clause units up (e.g. 542.8): the summary and everything that cites them")
    p.add_argument("--against", metavar="NEW", help="a newer rules text: list clauses whose wording changed")
    p.add_argument("--rulebook", help="rulebook whose elements are listed as citing (default: bundled)")
    p.add_argument("--format", choices=("term", "json"), default="term")
    p.add_argument("--broken", action="store_true",
                   help="coverage by failure: break each clause unit (the self-test's one-fault drafts of the "
                        "bundled rulebook) and list what fails — properties, checks and claims, rulings")
    p.add_argument("--examples", type=int, default=60, metavar="N",
                   help="with --broken: Hypothesis examples per draft no property has caught yet (default 60)")
    p.set_defaults(run=run)


def run(args, lang: str) -> int:
    from ruleproof.model.clause_diff import citing, diff_texts  # start-up: only when the command runs
    from ruleproof.model.clauses import default_index  # start-up: only when the command runs
    from ruleproof.model.rules_text import load_rules_text  # start-up: only when the command runs

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
        from ruleproof.clause_lookup import lookup  # start-up: only when the command runs

        return lookup(args.units, args.rulebook, rules, lang, args.format)
    if args.against and rules is not None:  # --against without --rules-text is refused above
        from ruleproof.clause_lookup import every_citation  # start-up: only when the command runs

        new = load_rules_text(args.against)
        diff = diff_texts(rules, new)
        cites = every_citation(args.rulebook)
        return _print_diff(diff, rules, new, cites, lang, args.format, citing)
    if args.format == "json":
        return _print_index_json(index, rules)
    return _print_index(index, rules, lang)


def _print_index_json(index, rules) -> int:
    """The clause index as JSON (with a rules text: each unit's wording, what the two do not share)."""
    doc = {"schema": "ruleproof-clauses/1", "edition": index.edition, "units": [
        {"id": e.id, "kind": e.kind, "status": e.status, "summary": e.summary,
         **({"title": e.title} if e.title else {}),
         **({"official": rules.text_of(e.id)} if rules and rules.text_of(e.id) else {})} for e in index]}
    if rules:
        new_units, missing = index.compare_with_text(rules)
        doc.update(not_in_index=new_units, not_in_text=missing, referenced_only=rules.referenced_only())
    sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
    return ExitCode.OK


def _print_index(index, rules, lang: str) -> int:
    """The clause index as a table (with a rules text: each unit's wording, what the two do not share)."""
    con = console()
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
    return ExitCode.OK


def _print_breakage(index, lang: str, fmt: str, examples: int) -> int:
    from ruleproof.generators.breakage import CLASSES, breakage, reading_drafts  # start-up: only when the command runs
    from ruleproof.generators.selftest import selftest  # start-up: only when the command runs

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
        return ExitCode.OK
    return _print_breakage_table(index, rep, rows, counts, lang)


def _print_breakage_table(index, rep, rows, counts: dict, lang: str) -> int:
    """Coverage by failure as a table: per unit, its drafts by class, what caught them, its weakest class."""
    from ruleproof.generators.breakage import CLASSES  # start-up: only when the command runs

    con = console()
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
    return ExitCode.OK


def _print_diff(diff, old, new, cites, lang: str, fmt: str, citing) -> int:
    groups = (("changed", diff.changed), ("added", diff.added), ("removed", diff.removed))
    if fmt == "json":
        doc = {"schema": "ruleproof-clause-diff/1", **{k: [
            {"id": u, "old": old.units[u].text if u in old.units else None,
             "new": new.units[u].text if u in new.units else None,
             "cited_by": [c.element for c in citing(u, cites)]} for u in items] for k, items in groups}}
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
        return ExitCode.OK if not diff.all else ExitCode.FINDING
    con = console()
    if not diff.all:
        con.print(t("no_changes", lang))
        return ExitCode.OK
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
    return ExitCode.FINDING

