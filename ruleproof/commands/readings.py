"""`ruleproof readings [RULEBOOK]`: which of the rulebook's alternative readings change a ruling.

Runs every reading (:mod:`ruleproof.model.readings`) against the rulebook's own reading with the
engines of ``diff`` and prints one row per reading: whether it is material (a property, ruling or
clause conflict changes) or immaterial (proved by Z3, or only within the bounds), what changes, and
for a material reading the smallest game where the two readings part, side by side.  Exit 0 when
every reading was decided, 3 when one is immaterial only within the bounds, 2 on bad input.
"""

from __future__ import annotations

import json
import sys

from rich.markup import escape
from rich.table import Table

from ruleproof.ground.errors import ExitCode
from ruleproof.ground.i18n import answers_text, t
from ruleproof.ground.verdicts import ReadingStatus, Verdict

from .common import clause_text_fn, console
from .diff import _v, add_engine_options, engine_name, engine_options, to_json as diff_json

__all__ = ["add_parser", "run", "to_json", "to_markdown", "to_html", "SCHEMA"]

SCHEMA = "ruleproof-readings/1"


#: a reading's status as the verdict its line shows (the JUnit/terminal colour of a check)
_SHOWN = {ReadingStatus.MATERIAL: Verdict.VIOLATED, ReadingStatus.IMMATERIAL_PROVED: Verdict.HOLDS,
          ReadingStatus.IMMATERIAL_BOUNDED: Verdict.UNKNOWN}


def add_parser(sub, common, texts) -> None:
    p = sub.add_parser("readings", parents=[common, texts],
                       help="which alternative readings of the rulebook change a property, a ruling or a conflict")
    p.add_argument("rulebook", nargs="?", help="rulebook YAML (default: the bundled one)")
    p.add_argument("--only", nargs="*", metavar="ID", help="only these readings")
    add_engine_options(p)
    p.add_argument("--report", metavar="DIR",
                   help="also write readings.md, readings.json and readings.html into DIR (atomically)")
    p.set_defaults(run=run)


def run(args, lang: str) -> int:
    from ruleproof.ground.errors import RuleproofError  # start-up: only when the command runs
    from ruleproof.model.readings import applicable, readings, variant  # start-up: only when the command runs
    from ruleproof.model.rulebook import load_rulebook  # start-up: only when the command runs
    from ruleproof.readings import compare_readings  # start-up: only when the command runs

    clause_text = clause_text_fn(args, lang)
    engines, bounds, jobs = engine_options(args)
    rb = load_rulebook(args.rulebook)
    known = [r.id for r in readings(rb)]
    for rid in args.only or ():
        if rid not in known:
            from ruleproof.ground.errors import suggest  # start-up: only when the command runs

            raise RuleproofError("RP139", None, reading=rid, known=", ".join(known) or "—",
                                 hint=suggest(rid, known))
    others = [variant(rb, r.id) for r in applicable(rb)]  # every patch is one before anything runs
    from ruleproof.orchestrate import team_rulings  # start-up: only when the command runs

    team = team_rulings(args.rulings, rb, *others)  # and every ruling of the team's folders loads

    def progress(i: int, n: int, rid: str) -> None:
        print(t("rd_progress", lang, i=i + 1, n=n, id=rid), file=sys.stderr, flush=True)

    from ruleproof.generators.run import CACHE_DIR  # start-up: only when the command runs

    out = compare_readings(rb, engines, bounds, jobs=jobs, examples=args.examples, seed=args.seed,
                           cache_dir=CACHE_DIR, only=args.only, progress=progress, rulings=team)
    doc = to_json(out, clause_text)
    text_json = json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    if args.report:
        from ruleproof.reports.writers import write_files  # start-up: only when the command runs

        write_files({"readings.md": to_markdown(out, lang), "readings.json": text_json,
                     "readings.html": to_html(out, lang)}, args.report)
    if args.format == "json":
        sys.stdout.write(text_json)
    else:
        _print(console(), out, lang)
    return ExitCode.INCONCLUSIVE if any(r.status == ReadingStatus.IMMATERIAL_BOUNDED for r in out.rows) else ExitCode.OK


def _status(status: str, lang: str) -> str:
    return t("rd_status_" + status.replace("-", "_"), lang)


def _cells(row, lang: str) -> tuple[str, str, str, str, str, str, str]:
    """(reading, of/about, what it says, status, properties, rulings, conflicts) of one row."""
    r, d = row.reading, row.diff
    by_property: dict[str, list[str]] = {}
    for v in d.verdicts:
        by_property.setdefault(v.property, []).append(f"{engine_name(v.engine, lang)}: {_verdict(v.base, lang)} → {_verdict(v.draft, lang)}")
    props = "; ".join(f"{p} ({'; '.join(changes)})" for p, changes in by_property.items()) or "—"
    rulings = "; ".join(f"{x.ruling} ({t('diff_' + x.base, lang)} → {t('diff_' + x.draft, lang)})"
                        for x in d.rulings) or "—"
    conflicts = "; ".join(f"{t('diff_' + c.what, lang)}: {', '.join(c.claims)}" for c in d.conflicts) or "—"
    of = ", ".join(([r.of] if r.of else []) + list(r.about))
    return r.id, of, r.text(lang), _status(row.status, lang), props, rulings, conflicts


def _verdict(v: str, lang: str) -> str:
    return _v(v, lang)


_COLS = ("rd_col_reading", "rd_col_of", "rd_col_says", "rd_col_status", "rd_col_properties", "rd_col_rulings",
         "rd_col_conflicts")


def _print(con, out, lang: str) -> None:
    from ruleproof.reports.side_by_side import side_table  # start-up: only when the command runs

    con.print(f"[bold]{escape(t('rd_title', lang, id=out.rulebook.spec.id, n=len(out.rows)))}[/]")
    table = Table()
    for c in _COLS:
        table.add_column(t(c, lang), overflow="fold")
    style = {ReadingStatus.MATERIAL: "bold red", ReadingStatus.IMMATERIAL_PROVED: "green",
             ReadingStatus.IMMATERIAL_BOUNDED: "yellow"}
    for row in out.rows:
        cells = [escape(x) for x in _cells(row, lang)]
        cells[3] = f"[{style[row.status]}]{cells[3]}[/]"
        table.add_row(*cells)
    con.print(table)
    for row in out.rows:
        d = row.diff.difference
        if d is None:
            continue
        con.print(f"[bold]{escape(row.reading.id)}[/]: "
                  + escape(t("diff_game", lang, world=d.world, n=d.choices, answers=answers_text(d.answers, lang))), soft_wrap=True)
        if row.status != ReadingStatus.MATERIAL:
            con.print(f"  [dim]{escape(t('rd_plays_differ', lang))}[/]")
        con.print(side_table(d, lang, t("rd_side_by_side", lang),
                             (t("trace_seq", lang), t("rd_own", lang), t("rd_other", lang))))
    for rid, why in out.not_applicable.items():
        con.print(f"[yellow]{escape(t('rd_not_applicable', lang, id=rid, why=why.text(lang)))}[/]", soft_wrap=True)
    con.print(f"[bold]{escape(_summary(out, lang))}[/] ({t('took', lang, seconds=out.seconds, engines=', '.join(out.engines))})")


def _summary(out, lang: str) -> str:
    n = {s: sum(r.status == s for r in out.rows) for s in ReadingStatus}
    return t("rd_summary", lang, material=n[ReadingStatus.MATERIAL], proved=n[ReadingStatus.IMMATERIAL_PROVED],
             bounded=n[ReadingStatus.IMMATERIAL_BOUNDED])


def to_json(out, clause_text) -> dict:
    rows = []
    for row in out.rows:
        d = diff_json(row.diff, clause_text)
        r = row.reading
        rows.append({"id": r.id, "of": r.of, "about": list(r.about), "statement": dict(r.statement),
                     "patch": list(r.patch), "where": str(r.where), "status": row.status,
                     "properties": row.properties, **{k: d[k] for k in ("verdicts", "rulings", "conflicts",
                                                                         "smallest_difference", "timings")}})
    return {"schema": SCHEMA, "rulebook": {"id": out.rulebook.spec.id, "path": str(out.rulebook.path)},
            "engines": list(out.engines), "seconds": round(out.seconds, 2), "readings": rows,
            "not_applicable": {rid: {"ru": why.ru, "en": why.en} for rid, why in out.not_applicable.items()},
            "depends": out.depends()}


def to_markdown(out, lang: str) -> str:
    from ruleproof.reports.side_by_side import side_markdown  # start-up: only when the command runs

    def cell(x: str) -> str:
        return x.replace("|", "\\|")

    lines = [f"# {t('rd_title', lang, id=out.rulebook.spec.id, n=len(out.rows))}", "",
             "| " + " | ".join(t(c, lang) for c in _COLS) + " |", "|" + " --- |" * len(_COLS)]
    lines += ["| " + " | ".join(cell(x) for x in _cells(row, lang)) + " |" for row in out.rows]
    for row in out.rows:
        d = row.diff.difference
        if d is None:
            continue
        lines += ["", f"## {row.reading.id}: {t('diff_game', lang, world=d.world, n=d.choices, answers=answers_text(d.answers, lang))}",
                  ""]
        if row.status != ReadingStatus.MATERIAL:
            lines += [f"*{t('rd_plays_differ', lang)}*", ""]
        lines += side_markdown(d, (t("rd_own", lang), t("rd_other", lang)), lang)
    lines += [""] + [f"- {t('rd_not_applicable', lang, id=rid, why=why.text(lang))}"
                     for rid, why in out.not_applicable.items()]
    lines += ["", _summary(out, lang), ""]
    return "\n".join(lines)


def to_html(out, lang: str) -> str:
    from ruleproof.reports.html_report import CSS, _e, _table  # start-up: only when the command runs
    from ruleproof.reports.side_by_side import side_html  # start-up: only when the command runs

    title = t("rd_title", lang, id=out.rulebook.spec.id, n=len(out.rows))
    rows = [(f' data-reading="{_e(row.reading.id)}" class="rp-verdict-'
             f'{_SHOWN[row.status]}"',
             [_e(x) for x in _cells(row, lang)]) for row in out.rows]
    body = [f"<h1>{_e(title)}</h1>", _table([t(c, lang) for c in _COLS], rows, "rp-readings")]
    for row in out.rows:
        d = row.diff.difference
        if d is None:
            continue
        body.append(f"<h2>{_e(row.reading.id)}: "
                    f"{_e(t('diff_game', lang, world=d.world, n=d.choices, answers=answers_text(d.answers, lang)))}</h2>")
        if row.status != ReadingStatus.MATERIAL:
            body.append(f'<p class="rp-note">{_e(t("rd_plays_differ", lang))}</p>')
        body.append(side_html(d, (t("rd_own", lang), t("rd_other", lang)), lang))
    body += [f'<p class="rp-note" data-not-applicable="{_e(rid)}">{_e(t("rd_not_applicable", lang, id=rid, why=why.text(lang)))}</p>'
             for rid, why in out.not_applicable.items()]
    body.append(f"<p><strong>{_e(_summary(out, lang))}</strong></p>")
    return "\n".join(["<!DOCTYPE html>", f'<html lang="{lang}">', "<head>", '<meta charset="utf-8">',
                      f"<title>{_e(title)}</title>", f"<style>{CSS}</style>", "</head>", "<body>", "<main>",
                      *body, "</main>", "</body>", "</html>", ""])
