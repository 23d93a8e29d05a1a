"""`ruleproof graph [RULEBOOK]`: draw the phase graph (dot, Mermaid, SVG or PNG).  Exit 0, 2 bad input.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ruleproof.ground.errors import ExitCode, Localized, Location, RuleproofError
from ruleproof.ground.i18n import t

from .common import write_text

__all__ = ["add_parser", "run"]


def add_parser(sub, common, texts) -> None:
    p = sub.add_parser("graph", parents=[common], help="draw the phase graph")
    p.add_argument("rulebook", nargs="?", help="rulebook YAML (default: the bundled РП 4.1-2)")
    p.add_argument("--format", choices=("dot", "mermaid", "svg", "png"), default="svg")
    p.add_argument("-o", "--output", metavar="FILE", help="output file (dot/mermaid default: stdout; "
                                                          "svg/png default: phase-graph.svg/.png)")
    p.set_defaults(run=run)


def run(args, lang: str) -> int:
    from ruleproof.ground.fileio import atomic_path  # start-up: only when the command runs
    from ruleproof.model.draw import to_dot, to_image, to_mermaid  # start-up: only when the command runs
    from ruleproof.model.rulebook import load_rulebook  # start-up: only when the command runs

    G = load_rulebook(args.rulebook).graph
    if args.format in ("dot", "mermaid"):
        return write_text((to_dot if args.format == "dot" else to_mermaid)(G, lang), args.output, lang)
    out = Path(args.output or f"phase-graph.{args.format}")
    if out.suffix.lower() != f".{args.format}":
        raise RuleproofError("RP150", Location(str(out)),
                             problem=Localized(f"имя файла не кончается на .{args.format}",
                                               f"the file name does not end in .{args.format}"),
                             fix=Localized(f"назовите файл *.{args.format} или выберите --format {out.suffix.lstrip('.')}",
                                           f"name the output *.{args.format} or choose --format {out.suffix.lstrip('.')}"))
    with atomic_path(out) as tmp:
        to_image(G, tmp, lang)
    print(t("written", lang, path=out), file=sys.stderr)
    return ExitCode.OK

