"""`ruleproof run SCENARIO`: run a ruling scenario (each of its cases) and print its trace, what passed
and what failed, and what replays it.  Exit 0 every expectation met, 1 one failed, 2 bad input.
"""

from __future__ import annotations

import json
import sys

from rich.markup import escape

from ruleproof.ground.errors import ExitCode, Localized, RuleproofError
from ruleproof.ground.i18n import t

from .common import clause_text_fn, console

__all__ = ["add_parser", "pick_cases", "run", "shown_events"]


def add_parser(sub, common, texts) -> None:
    p = sub.add_parser("run", parents=[common, texts], help="run a ruling scenario and print its trace")
    p.add_argument("scenario", help="scenario YAML (see rulings/)")
    p.add_argument("--rulebook", help="rulebook to run it on (default: the bundled РП 4.1-2)")
    p.add_argument("--format", choices=("term", "json"), default="term")
    p.add_argument("--case", metavar="ID", help="only this case of a ruling file with several (default: every case)")
    p.add_argument("--full", action="store_true",
                   help="every event of the trace (default: the choices, the guards' decisions and what changed)")
    p.set_defaults(run=run)


def run(args, lang: str) -> int:
    from ruleproof.model.rulebook import load_rulebook  # start-up: only when the command runs
    from ruleproof.model.scenario import run_scenario  # start-up: only when the command runs
    from ruleproof.reports.trace import trace_to_json  # start-up: only when the command runs

    clause_text = clause_text_fn(args, lang)
    rb = load_rulebook(args.rulebook)
    whole, rulings = pick_cases(args, rb)
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
        return ExitCode.OK if passed else ExitCode.FINDING
    con = console()
    for sc, res in zip(rulings, results):
        _print_run(con, sc, res, rb, replay(sc), clause_text, lang, args.full)
    if len(rulings) > 1:
        n_ok = sum(res.passed for res in results)
        con.print(t("run_cases", lang, ok=n_ok, n=len(results)))
    return ExitCode.OK if passed else ExitCode.FINDING


def shown_events(res, lang: str, full: bool) -> list[dict]:
    """The events ``run`` shows, each named in the reader's language: every one with ``--full``, else the
    position, the choices (dice, plays), the guards' decisions, what changed a card or the action, and the
    events where the run departs from the ruling."""
    from ruleproof.reports.sentences import op_name  # start-up: only when the command runs
    from ruleproof.reports.trace import trace_to_json  # start-up: only when the command runs

    rows = trace_to_json(res.trace)
    if not full:
        rows = [r for i, r in enumerate(rows) if i == 0 or _told(r, res.departures)]
    for r in rows:
        name = op_name(r["op"], lang)
        r["label"] = name if name != r["op"] else ""
    return rows


#: what a compact trace leaves to the step column and the plays (where the game is, which windows opened)
_BOOKKEEPING = (["step"], ["visited"], ["windows_seen"], ["action", "window_plays"])


def _told(r: dict, departures: tuple[int, ...]) -> bool:
    v = r["values"]
    return (r["seq"] in departures or r["op"] in ("play", "roll_die", "end") or v.get("skipped") is True
            or (r["op"] == "goto" and v.get("guard") not in (None, "always"))
            or any(d["path"] not in _BOOKKEEPING for d in r.get("diff", [])))


def _print_run(con, sc, res, rb, replay: str, clause_text, lang: str, full: bool = False) -> None:
    """One ruling's run on the terminal: title, trace (compact unless ``full``), and what passed or failed."""
    from ruleproof.reports.trace import print_offending, print_trace  # start-up: only when the command runs

    con.print(f"[bold]{escape(sc.spec.title.model_dump()[lang])}[/]  ({escape(sc.spec.id)})")
    con.print(f"{t('source', lang)}: {escape(sc.spec.source)}")
    con.print(f"{t('rulebook', lang)}: {rb.path}")
    rows = shown_events(res, lang, full)
    print_trace(con, rows, lang, highlight=res.departures, diff=True, compact=False)
    if not full:
        con.print(f"[dim]{t('run_compact', lang, shown=len(rows), n=len(res.trace.events))}[/]")
    n = sum(sum(len(v) for v in e.cards.values()) + len(e.action) + len(e.events) + len(e.no_events) + len(e.order)
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


def pick_cases(args, rb):
    """The ruling file ``args.scenario`` and its cases to run (``--case`` picks one: an unknown id is RP150)."""
    from ruleproof.model.scenario import load_scenario  # start-up: only when the command runs

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
    return whole, rulings
