"""``python -m ruleproof.reports [RULEBOOK] --report DIR [--format md,html,…] [--lang ru|en]``: run the
checks and write the reports — the calls ``ruleproof check --report`` makes, in a few lines.

Exit code: the report's (0 all hold, 1 a finding, 3 inconclusive), 2 on bad input."""

from __future__ import annotations

import argparse
import sys

from ruleproof.ground.errors import ExitCode, RuleproofError
from ruleproof.ground.i18n import LANGS, default_lang, t

from .bundle import make_clause_text, report_from_check
from .writers import FORMATS, parse_formats, write_reports


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m ruleproof.reports", description=__doc__.splitlines()[0])
    p.add_argument("rulebook", nargs="?", help="rulebook YAML (default: the bundled РП 4.1-2)")
    p.add_argument("--report", metavar="DIR", required=True, help="folder for the report files")
    p.add_argument("--format", default="term,md,html,json,junit,itf", help=f"comma-separated: {', '.join(FORMATS)}")
    p.add_argument("--lang", choices=LANGS, default=default_lang())
    p.add_argument("--examples", type=int, default=0, metavar="N", help="Hypothesis examples (default 0)")
    p.add_argument("--seed", type=int)
    p.add_argument("--rules-text", metavar="PATH", help="official rules text: quote its wording")
    args = p.parse_args(argv)
    try:
        from ruleproof.orchestrate import run_check  # start-up: only when the command runs

        formats = parse_formats(args.format)  # bad input fails before anything runs
        clause_text = make_clause_text(args.rules_text)
        report = report_from_check(run_check(args.rulebook, args.examples, args.seed), lang=args.lang,
                                   rules_text=args.rules_text)
        paths = write_reports(report, args.report, formats, args.lang, clause_text)
    except RuleproofError as err:
        print(err.render(args.lang), file=sys.stderr)
        return ExitCode.BAD_INPUT
    if paths:
        print(t("rep_written", args.lang, paths=", ".join(str(x) for x in paths)), file=sys.stderr)
    if "itf" in formats and not report.counterexamples:
        print(t("rep_no_itf", args.lang), file=sys.stderr)
    return report.exit_code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
