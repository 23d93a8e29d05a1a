"""`ruleproof schema rulebook|scenario`: the JSON Schema of a file format, for an editor.

The schemas are generated from the loader's own models with the vocabulary as enums
(:mod:`ruleproof.model.json_schema`); a scenario's windows are those of ``--rulebook`` (default: the
bundled rulebook).  Written to ``-o FILE`` (atomically) or printed.  The repository keeps the
generated files in ``schemas/`` and every shipped YAML names its schema on its first line
(``# yaml-language-server: $schema=…``).  Exit 0, or 2 for bad input.
"""

from __future__ import annotations

import json

from .common import write_text

__all__ = ["add_parser", "run", "render", "KINDS"]

#: the file formats it writes a schema of (:data:`ruleproof.model.json_schema.SCHEMAS`; a test holds them equal:
#: named here so that the command line starts without building the loader's models)
KINDS = ("rulebook", "scenario")


def add_parser(sub, common, texts) -> None:
    p = sub.add_parser("schema", parents=[common],
                       help="write the JSON Schema of the rulebook or the scenario format (for an editor)")
    p.add_argument("kind", choices=KINDS, help="which format")
    p.add_argument("--rulebook", help="scenario: the rulebook whose windows a response may name (default: bundled)")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE (default: stdout)")
    p.set_defaults(run=run)


def render(kind: str, lang: str, rulebook: str | None = None) -> str:
    """The schema of ``kind`` as the text ``schema`` writes."""
    from ruleproof.model.json_schema import schema_of  # start-up: only when the command runs
    from ruleproof.model.rulebook import load_rulebook
    from ruleproof.model.scenario import window_ids

    windows = None
    if kind == "scenario" and rulebook:
        windows = window_ids(load_rulebook(rulebook))
    return json.dumps(schema_of(kind, lang, windows), ensure_ascii=False, indent=1) + "\n"


def run(args, lang: str) -> int:
    return write_text(render(args.kind, lang, args.rulebook), args.output, lang)
