"""`ruleproof answer QUESTION.yaml --choose A|B`: a question of `ruleproof questions` turned into a ruling — the
chosen alternative's expectations kept, the other dropped, the question and the choice recorded — written to
``-o FILE`` (checked by the loader, atomically) or printed.  Exit 0, or 2 for bad input.
"""

from __future__ import annotations

import sys

from ruleproof.ground.errors import ExitCode, Localized, Location, RuleproofError

from .common import check_writable

__all__ = ["add_parser", "run"]


def add_parser(sub, common, texts) -> None:
    p = sub.add_parser("answer", parents=[common], help="turn a question for the judges into a ruling: --choose A or B")
    p.add_argument("question", help="a question file (ruleproof questions --out DIR)")
    p.add_argument("--choose", required=True, metavar="CASE", help="the alternative the judges chose (A or B)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the ruling to FILE (default: stdout)")
    p.set_defaults(run=run)


def run(args, lang: str) -> int:
    import yaml  # start-up: only when the command runs

    from ruleproof.model.scenario import load_scenario  # start-up: only when the command runs
    from ruleproof.model.scenario_write import dump_ruling, save_ruling  # start-up: only when the command runs
    from ruleproof.questions import answer  # start-up: only when the command runs

    if args.output:
        check_writable(args.output, folder=False)
    load_scenario(args.question)  # a question is a valid scenario file: a bad one is refused with file:line
    with open(args.question, encoding="utf-8") as fh:
        doc = yaml.safe_load(fh)
    if "question" not in (doc.get("provenance") or {}):
        raise RuleproofError("RP150", Location(args.question),
                             problem=Localized("это не вопрос ruleproof questions", "not a question of ruleproof questions"),
                             fix=Localized("дайте файл, записанный ruleproof questions --out ПАПКА",
                                           "give a file written by ruleproof questions --out DIR"))
    cases = [c["id"] for c in doc.get("cases", [])]
    if args.choose not in cases:
        raise RuleproofError("RP150", Location(args.question),
                             problem=Localized(f"в вопросе нет варианта '{args.choose}'", f"no case '{args.choose}'"),
                             fix=Localized("выберите один из: " + ", ".join(cases), "choose one of: " + ", ".join(cases)))
    ruling = answer(doc, args.choose)
    if args.output:
        path = save_ruling(args.output, ruling)
        print(("Записано: " if lang == "ru" else "Written: ") + str(path), file=sys.stderr)
    else:
        sys.stdout.write(dump_ruling(ruling))
    return ExitCode.OK
