"""``ruleproof clauses UNIT …``: look a clause up — its summary (its wording with ``--rules-text``) and
everything that cites it: the rulebook's steps, operations, windows, edges, tables, assumptions and readings,
the properties and the shipped rulings.  An element citing a clause that contains the unit counts (512.6.2
for 512.6.2/b3).

>>> import io, contextlib
>>> out = io.StringIO()
>>> with contextlib.redirect_stdout(out):
...     code = lookup(["542.8"], None, None, "en", "json")
>>> import json; doc = json.loads(out.getvalue()); code, doc["units"][0]["id"]
(<ExitCode.OK: 0>, '542.8')
>>> any(c["element"].startswith("property ") for c in doc["units"][0]["cited_by"])
True
"""

from __future__ import annotations

import json
import sys

from rich.console import Console
from rich.markup import escape

from ruleproof.ground.errors import ExitCode, RuleproofError, did_you_mean
from ruleproof.ground.i18n import t
from ruleproof.model.clause_diff import citing
from ruleproof.model.clauses import default_index
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.scenario import ruling_citations
from ruleproof.properties.catalogue import property_citations

__all__ = ["lookup", "every_citation"]


def every_citation(rulebook: str | None) -> list:
    """Everything that cites a clause: the rulebook's elements (steps, operations, windows, edges, tables,
    assumptions, readings), the catalogue's properties and the shipped rulings."""
    return [*load_rulebook(rulebook).citations(), *property_citations(), *ruling_citations()]


def lookup(units: list[str], rulebook: str | None, rules, lang: str, fmt: str) -> int:
    """Print each of ``units`` with what cites it; an id the index does not hold is error RP121."""
    index = default_index()
    for u in units:
        if index.get(u) is None:
            raise RuleproofError("RP121", None, clause=u, hint=did_you_mean(index.suggest(u)))
    cites = every_citation(rulebook)
    found = []
    for u in units:
        e = index.entries[u]  # every one is there (checked above)
        by = sorted(citing(u, cites), key=lambda c: (c.kind, c.element))
        found.append((e, by, rules.text_of(u) if rules else None))
    if fmt == "json":
        doc = {"schema": "ruleproof-clause-lookup/1", "edition": index.edition, "units": [
            {"id": e.id, "kind": e.kind, "status": e.status, "summary": e.summary,
             **({"official": text} if text else {}),
             "cited_by": [{"element": c.element, "kind": c.kind, "clauses": list(c.clauses),
                           "where": str(c.where) if c.where else None} for c in by]} for e, by, text in found]}
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2) + "\n")
        return ExitCode.OK
    con = Console(highlight=False)
    for e, by, text in found:
        con.print(f"[bold]{escape(e.id)}[/bold] — {t(f'unit_{e.kind}', lang)}, {t(e.status, lang)}")
        con.print(f"  {escape(e.summary[lang])}")
        if text:
            con.print(f"  «{escape(text)}»")
        if not by:
            con.print(f"  {t('lookup_cited_none', lang)}")
        else:
            con.print(f"  {t('lookup_cited_by', lang, n=len(by))}:")
            for c in by:
                where = f" ({c.where})" if c.where else ""
                con.print(f"    {t('cite_kind_' + c.kind, lang)}: {escape(c.element)}{escape(where)} — "
                          f"{escape(', '.join(c.clauses))}")
        con.print()
    return ExitCode.OK
