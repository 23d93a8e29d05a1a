"""`ruleproof explain SCENARIO`: a ruling's game told step by step — the position, each step's sentences with
the clauses quoted (the rules text's wording with ``--rules-text``, else ruleproof's summary), the cards'
state before and after each play, the outcome, and for an expectation not met *why not* (the event, its
clause, the guard that decided it, its assumptions).  Exit 0 every expectation met, 1 one failed, 2 bad input.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from pathlib import Path

from rich.markup import escape

from ruleproof.ground.errors import ExitCode, Localized, Location, RuleproofError
from ruleproof.ground.i18n import t

from .common import console
from .run import pick_cases

__all__ = ["add_parser", "run"]


def add_parser(sub, common, texts) -> None:
    p = sub.add_parser("explain", parents=[common, texts],
                       help="tell a ruling's game step by step, with the clauses and why an expectation fails")
    p.add_argument("scenario", metavar="SOURCE",
                   help="scenario YAML (see rulings/), or a check report (report.json, its folder, or the output of "
                        "check --format json) whose counterexamples to tell")
    p.add_argument("--check", metavar="ID", help="with a report: only this check's counterexamples")
    p.add_argument("--rulebook", help="rulebook to run it on (default: the bundled РП 4.1-2)")
    p.add_argument("--case", metavar="ID", help="only this case of a ruling file with several (default: every case)")
    p.add_argument("--full", action="store_true", help="quote each clause whole (default: long quotes are cut)")
    p.add_argument("--format", choices=("term", "json"), default="term")
    p.set_defaults(run=run)


def run(args, lang: str) -> int:
    from ruleproof.model.rulebook import load_rulebook  # start-up: only when the command runs
    from ruleproof.model.rules_text import load_rules_text  # start-up: only when the command runs
    from ruleproof.model.scenario import run_scenario  # start-up: only when the command runs
    from ruleproof.reports.narrative import QUOTE_LIMIT, narrate  # start-up: only when the command runs

    rules = load_rules_text(args.rules_text) if getattr(args, "rules_text", None) else None
    if _is_report(args.scenario):
        return _explain_findings(args, lang, rules)
    rb = load_rulebook(args.rulebook)
    whole, rulings = pick_cases(args, rb)
    results = [run_scenario(sc, rb) for sc in rulings]
    stories = [narrate(res, rb, lang, rules=rules, quote_limit=None if args.full else QUOTE_LIMIT)
               for res in results]
    passed = all(res.passed for res in results)
    if args.format == "json":
        doc = {"schema": "ruleproof-explain/1", "scenario": whole.spec.id, "rulebook": rb.spec.id, "lang": lang,
               "passed": passed, "stories": [asdict(s) for s in stories]}
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
        return ExitCode.OK if passed else ExitCode.FINDING
    con = console()
    for story in stories:
        _print_story(con, story, lang)
    if len(stories) > 1:
        con.print(t("run_cases", lang, ok=sum(s.passed for s in stories), n=len(stories)))
    return ExitCode.OK if passed else ExitCode.FINDING


def _print_story(con, story, lang: str) -> None:
    summary = " (пересказ ruleproof)" if lang == "ru" else " (ruleproof's summary)"
    con.print(f"[bold]{escape(story.title)}[/]")
    for b in story.blocks:
        style = {"play": "bold cyan", "why_not": "bold red", "outcome": "bold green" if story.passed else "bold red",
                 "action": "bold magenta"}.get(b.kind, "bold")
        con.print(f"\n[{style}]{escape(b.heading)}[/]", soft_wrap=True)
        for s in b.sentences:
            con.print(f"  {escape(s)}", soft_wrap=True)
        if b.clauses:
            con.print(f"  [dim]{'пункты' if lang == 'ru' else 'clauses'}: {escape(', '.join(b.clauses))}[/]", soft_wrap=True)
        for cid, text, official in b.quotes:
            con.print(f"  [dim]{escape(cid)}{'' if official else summary}:[/] «{escape(text)}»", soft_wrap=True)
        if b.changes:
            label = "изменения" if lang == "ru" else "changes"
            con.print(f"  [yellow]{label}:[/] {escape(b.changes)}", soft_wrap=True)


def _is_report(source: str) -> bool:
    p = Path(source)
    return p.suffix.lower() == ".json" or (p.is_dir() and (p / "report.json").is_file())


def _report_findings(source: str) -> list:
    """The findings with a counterexample trace in a ``ruleproof-report/1`` or ``ruleproof-check/1`` document."""
    from ruleproof.reports.json_report import SCHEMA, finding_from_json, load_json  # start-up: only when it runs

    path = Path(source) / "report.json" if Path(source).is_dir() else Path(source)
    try:
        doc = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as e:
        raise RuleproofError("RP150", Location(str(path)), problem=Localized(f"не читается как JSON: {e}",
                                                                             f"cannot be read as JSON: {e}"),
                             fix=Localized("дайте report.json из ruleproof check --report ПАПКА или вывод "
                                           "ruleproof check --format json",
                                           "give the report.json of ruleproof check --report DIR or the output of "
                                           "ruleproof check --format json")) from None
    if isinstance(doc, dict) and doc.get("schema") == SCHEMA:
        found = [finding_from_json(f) for c in doc.get("checks", []) for f in c.get("findings", [])]
    else:
        found = [f for s in load_json(doc).sections for r in s.results for f in r.findings]
    return [f for f in found if f.trace]


def _explain_findings(args, lang: str, rules) -> int:
    """Tell each counterexample of a check report (``--check``: only that check's; else the first of each check)."""
    from ruleproof.reports.narrative import QUOTE_LIMIT, narrate_finding  # start-up: only when the command runs

    found = _report_findings(args.scenario)
    if args.check is not None:
        found = [f for f in found if f.check == args.check]
    else:
        firsts: dict[str, object] = {}
        for f in found:
            firsts.setdefault(f.check, f)
        found = list(firsts.values())
    if not found:
        raise RuleproofError("RP150", Location(args.scenario),
                             problem=Localized("в отчёте нет контрпримера с трассой" + (f" для {args.check}" if args.check else ""),
                                               "the report holds no counterexample with a trace"
                                               + (f" for {args.check}" if args.check else "")),
                             fix=Localized("уберите --check или возьмите отчёт, где проверка нарушена",
                                           "drop --check or take a report where a check is violated"))
    stories = [narrate_finding(f, lang, rules=rules, quote_limit=None if args.full else QUOTE_LIMIT) for f in found]
    if args.format == "json":
        sys.stdout.write(json.dumps({"schema": "ruleproof-explain/1", "source": args.scenario, "lang": lang,
                                     "passed": False, "stories": [asdict(s) for s in stories]},
                                    ensure_ascii=False, indent=2) + "\n")
    else:
        con = console()
        for story in stories:
            _print_story(con, story, lang)
    return ExitCode.FINDING

