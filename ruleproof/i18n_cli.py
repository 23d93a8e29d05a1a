"""The command line in Russian: argparse's own words and ruleproof's help, one table each.

The help texts are written in English where the options are declared (``cli.py``, ``commands/*.py``);
this module holds their Russian, keyed by the English text (gettext's convention: the message id is
the source text), and :func:`localize` puts it on a built parser.  argparse's own messages (usage,
errors) go through :func:`argparse_language`, which hands argparse this table as its gettext.

>>> import argparse
>>> p = argparse.ArgumentParser(prog="x", formatter_class=formatter("ru"))
>>> _ = p.add_argument("--out", metavar="FILE", help="write to FILE (default: stdout)")
>>> localize(p, "ru")
>>> with argparse_language("ru"):
...     print(p.format_help().splitlines()[0])
использование: x [-h] [--out ФАЙЛ]
"""

from __future__ import annotations

import argparse
from contextlib import contextmanager
from typing import Any

__all__ = ["HELP_RU", "ARGPARSE_RU", "METAVARS_RU", "localize", "argparse_language", "formatter", "missing"]

#: argparse's own messages (Python 3.11's ``argparse``) -> Russian
ARGPARSE_RU: dict[str, str] = {
    "usage: ": "использование: ",
    "positional arguments": "позиционные аргументы",
    "options": "параметры",
    "show this help message and exit": "показать эту справку и выйти",
    "%(prog)s: error: %(message)s\n": "%(prog)s: ошибка: %(message)s\n",
    "argument %(argument_name)s: %(message)s": "аргумент %(argument_name)s: %(message)s",
    "invalid choice: %(value)r (choose from %(choices)s)": "недопустимое значение: %(value)r (допустимы: %(choices)s)",
    "invalid %(type)s value: %(value)r": "недопустимое значение: %(value)r",
    "the following arguments are required: %s": "не хватает обязательных аргументов: %s",
    "unrecognized arguments: %s": "неизвестные аргументы: %s",
    "expected one argument": "ожидается одно значение",
    "expected at most one argument": "ожидается не больше одного значения",
    "expected at least one argument": "ожидается хотя бы одно значение",
    "ambiguous option: %(option)s could match %(matches)s": "неоднозначный параметр: %(option)s подходит к %(matches)s",
    "not allowed with argument %s": "нельзя вместе с аргументом %s",
    "one of the arguments %s is required": "нужен один из аргументов: %s",
    "ignored explicit argument %r": "лишнее значение %r",
    "unexpected option string: %s": "неожиданный параметр: %s",
    "unknown parser %(parser_name)r (choices: %(choices)s)": "неизвестная команда %(parser_name)r (допустимы: %(choices)s)",
}

#: placeholders of option values -> Russian (what the user types stays as it is)
METAVARS_RU: dict[str, str] = {
    "COMMAND": "КОМАНДА", "PATH": "ПУТЬ", "E,…": "Д,…", "F,…": "Ф,…", "DIR": "ПАПКА", "N": "Ч", "K=V,…": "К=З,…",
    "SEC": "СЕК", "N|auto": "Ч|auto", "NEW": "НОВЫЙ", "ID": "ИД", "FILE": "ФАЙЛ", "K": "К",
    "SEED": "ЗЕРНО", "RULEBOOK": "СВОД", "UNIT": "ПУНКТ", "TIMEOUT": "СЕК", "ONLY": "ИД", "OUTPUT": "ФАЙЛ", "AGAINST": "НОВЫЙ",
    "DEPTH": "ГЛУБИНА", "EXAMPLES": "Ч", "JOBS": "Ч", "REPORT": "ПАПКА",
    "rulebook": "свод", "scenario": "сценарий", "base": "база", "draft": "проект", "format": "формат",
}

#: ruleproof's help texts (English, as declared) -> Russian
HELP_RU: dict[str, str] = {
    "Check the written rules of «Берсерк» like a model checker checks a protocol.":
        "Проверка письменных правил «Берсерка» так, как верификатор проверяет протокол.",
    "show program's version number and exit": "показать версию программы и выйти",
    "language of messages and reports (default: from RULEPROOF_LANG, LANGUAGE, LC_ALL, LC_MESSAGES or LANG)":
        "язык сообщений и отчётов (по умолчанию — из переменных окружения RULEPROOF_LANG, LANGUAGE, LC_ALL, LC_MESSAGES или LANG)",
    "run every available check on a rulebook": "выполнить все проверки свода правил",
    "list the clause index; compare rules texts": "перечень пунктов; сравнение редакций текста правил",
    "look these clause units up (e.g. 542.8): the summary and everything that cites them":
        "найти эти пункты (например, 542.8): их краткое содержание и всё, что на них ссылается",
    "run a ruling scenario and print its trace": "проиграть сценарий разъяснения и вывести его трассу",
    "do the properties and rulings catch faulty drafts?": "ловят ли свойства и разъяснения ошибочные проекты?",
    "draw the phase graph": "нарисовать граф фаз",
    "do the clauses' temporal claims contradict each other on a rulebook? (Z3 unsat cores)":
        "противоречат ли друг другу утверждения пунктов о порядке событий? (ядра несовместности Z3)",
    "exhaustive exploration: every play of every bounded world, every property":
        "полный перебор: каждая партия каждого ограниченного мира, каждое свойство",
    "prove the properties with Z3 (Spacer, BMC): for every play, or a counterexample":
        "доказать свойства в Z3 (Spacer, BMC): для любой партии — или контрпример",
    "what a draft changes against a base rulebook, what breaks": "что проект меняет по сравнению с базовым сводом и что ломает",
    "which alternative readings of the rulebook change a property, a ruling or a conflict":
        "какие альтернативные прочтения свода меняют свойство, разъяснение или противоречие",
    "write the JSON Schema of the rulebook or the scenario format (for an editor)":
        "записать JSON Schema формата свода или сценария (для редактора)",
    "the official rules text (a .txt file or a folder of them); reports quote it":
        "официальный текст правил (файл .txt или папка таких файлов); отчёты его цитируют",
    "rulebook YAML (default: the bundled РП 4.1-2)": "свод правил, файл YAML (по умолчанию — встроенный РП 4.1-2)",
    "which engines (default all): %(default)s; structure always runs":
        "какие движки (по умолчанию все): %(default)s; structure выполняется всегда",
    "term, md, html, json, junit, itf (comma-separated; default term). Without --report, json is printed on "
    "stdout; files need --report DIR":
        "term, md, html, json, junit, itf (через запятую; по умолчанию term). Без --report формат json "
        "печатается в стандартный вывод; для файлов нужен --report ПАПКА",
    "write the reports of --format into DIR (atomically)": "записать отчёты форматов --format в ПАПКУ (атомарно)",
    "Hypothesis examples for the properties (0: no Hypothesis pass; default 200)":
        "число примеров Hypothesis для свойств (0 — без прохода Hypothesis; по умолчанию 200)",
    "a different, reproducible Hypothesis run (default: seed 0)":
        "другой воспроизводимый прогон Hypothesis (по умолчанию — seed 0)",
    "bounds of the exhaustive pass (see explore)": "границы полного перебора (см. explore)",
    "Z3 time limit per query (default: prove's)": "предел времени Z3 на запрос (по умолчанию — как в prove)",
    "run the engines in N processes (default auto: one per core)":
        "выполнять движки в Ч процессах (по умолчанию auto: по одному на ядро)",
    "save the first counterexample (exhaustive, Z3, then Hypothesis) as a ruling scenario":
        "сохранить первый контрпример (полный перебор, Z3, затем Hypothesis) как сценарий разъяснения",
    "a folder of your own ruling scenarios (*.yaml, the format of rulings/), run with the shipped ones; may be "
    "given several times":
        "папка с вашими сценариями разъяснений (*.yaml, формат rulings/), проверяются вместе со встроенными; "
        "ключ можно дать несколько раз",
    "a newer rules text: list clauses whose wording changed": "более новый текст правил: перечислить пункты с изменённой формулировкой",
    "rulebook whose elements are listed as citing (default: bundled)":
        "свод, элементы которого перечисляются как ссылающиеся (по умолчанию — встроенный)",
    "coverage by failure: break each clause unit (the self-test's one-fault drafts of the bundled rulebook) "
    "and list what fails — properties, checks and claims, rulings":
        "покрытие через поломку: сломать каждую единицу пункта (проекты самопроверки с одной ошибкой во "
        "встроенном своде) и перечислить, что не проходит — свойства, проверки и утверждения, разъяснения",
    "with --broken: Hypothesis examples per draft no property has caught yet (default 60)":
        "вместе с --broken: число примеров Hypothesis на проект, который ещё не поймано ни одно свойство (по умолчанию 60)",
    "scenario YAML (see rulings/)": "сценарий, файл YAML (см. rulings/)",
    "tell a ruling's game step by step, with the clauses and why an expectation fails":
        "рассказать игру разъяснения по шагам, с пунктами правил и причиной невыполненного ожидания",
    "scenario YAML (see rulings/), or a check report (report.json, its folder, or the output of check --format "
    "json) whose counterexamples to tell":
        "сценарий YAML (см. rulings/) или отчёт проверки (report.json, его папка или вывод check --format json), "
        "контрпримеры которого рассказать",
    "on the terminal only the table of engines and the verdict (the report files stay whole)":
        "на терминале только таблица движков и итог (файлы отчёта остаются полными)",
    "run every engine again (by default each engine's run is kept in .ruleproof-cache/ and reused while the "
    "rulebook, the options and ruleproof are unchanged)":
        "запустить все движки заново (по умолчанию прогон каждого движка хранится в .ruleproof-cache/ и берётся "
        "оттуда, пока свод, параметры и ruleproof не менялись)",
    "keep Z3's new proofs in .ruleproof-cache/proofs/ for the next check of an edited rulebook, which re-checks them instead of searching again (implied by --watch)":
        "хранить новые доказательства Z3 в .ruleproof-cache/proofs/ для следующей проверки изменённого свода: она "
        "проверит их заново вместо нового поиска (с --watch — всегда)",
    "check again each time the rulebook file (or a --rulings folder) changes; Ctrl-C ends":
        "проверять заново при каждом изменении файла свода (или папки --rulings); выход — прерывание с клавиатуры",
    "questions for the judges: per alternative reading and per clause unit no ruling pins, the smallest game that decides it":
        "вопросы судьям: для каждого альтернативного прочтения и каждого пункта, который не закрепляет ни одно "
        "разъяснение, — наименьшая партия, которая его решает",
    "only these clause units no ruling pins (with --only: the readings too; default: every unit)":
        "только эти пункты, которые не закрепляет ни одно разъяснение (вместе с --only — и прочтения; по умолчанию — все)",
    "rulebook (default: the bundled РП 4.1-2)": "свод правил (по умолчанию — встроенный РП 4.1-2)",
    "write each question as a ruling draft DIR/<id>.yaml": "записать каждый вопрос как проект разъяснения ПАПКА/<id>.yaml",
    "turn a question for the judges into a ruling: --choose A or B":
        "превратить вопрос судьям в разъяснение: --choose A или B",
    "a question file (ruleproof questions --out DIR)": "файл вопроса (ruleproof questions --out ПАПКА)",
    "the alternative the judges chose (A or B)": "вариант, который выбрали судьи (A или B)",
    "write the ruling to FILE (default: stdout)": "записать разъяснение в ФАЙЛ (по умолчанию — в стандартный вывод)",
    "with a report: only this check's counterexamples": "для отчёта: только контрпримеры этой проверки",
    "quote each clause whole (default: long quotes are cut)":
        "цитировать каждый пункт целиком (по умолчанию длинные цитаты обрезаются)",
    "every event of the trace (default: the choices, the guards' decisions and what changed)":
        "все события трассы (по умолчанию — выборы, решения по условиям и изменения состояния)",
    "only this case of a ruling file with several (default: every case)":
        "только этот вариант файла разъяснения с несколькими вариантами (по умолчанию — все)",
    "rulebook to run it on (default: the bundled РП 4.1-2)": "свод, на котором его проигрывать (по умолчанию — встроенный РП 4.1-2)",
    "Hypothesis examples for drafts nothing else kills (default 60; 0: no Hypothesis)":
        "число примеров Hypothesis для проектов, которые не поймано ничем другим (по умолчанию 60; 0 — без Hypothesis)",
    "only these drafts (ids as printed, e.g. M1 drop:dice:6)": "только эти проекты (идентификаторы как в выводе, например M1 drop:dice:6)",
    "no Z3 pass on the drafts nothing else kills (then none is called equivalent: undecided)":
        "без прохода Z3 по проектам, которые ничто другое не поймало (тогда ни один не считается эквивалентным: не решён)",
    "processes for each Z3 pass (default auto: one per core)":
        "процессов на каждый проход Z3 (по умолчанию auto: по одному на ядро)",
    "output file (dot/mermaid default: stdout; svg/png default: phase-graph.svg/.png)":
        "выходной файл (dot/mermaid — по умолчанию стандартный вывод; svg/png — по умолчанию phase-graph.svg/.png)",
    "x=MAX (X values, default 1), plays=N (responses per window, default 1), die=LO-HI (default: the "
    "rulebook's die), loadouts=A+B (feature loadouts, default all), max-nodes=N (a safety stop per world; "
    "reaching it makes the result inconclusive)":
        "x=МАКС (значения X, по умолчанию 1), plays=Ч (ответов на окно, по умолчанию 1), die=ОТ-ДО (по "
        "умолчанию — кубик свода), loadouts=A+B (наборы особенностей, по умолчанию все), max-nodes=Ч (предел "
        "на мир; если он достигнут, итог не установлен)",
    "only these properties": "только эти свойства",
    "worker processes (default 1; auto: one per core)": "рабочие процессы (по умолчанию 1; auto — по одному на ядро)",
    "save the shortest counterexample (of the first violated property) as a ruling scenario":
        "сохранить кратчайший контрпример (первого нарушенного свойства) как сценарий разъяснения",
    "per engine call (default 20)": "на вызов движка (по умолчанию 20)",
    "BMC depth limit (default 160)": "предел глубины BMC (по умолчанию 160)",
    "smt.random_seed (default 0)": "smt.random_seed (по умолчанию 0)",
    "also cross-check each proof with k-induction": "дополнительно перепроверить каждое доказательство k-индукцией",
    "exit 0 when every property is proved within the menu of Z3 worlds (default: 3, since such a proof leaves out "
    "combinations the rulebook admits; the scope is printed either way)":
        "код выхода 0, если каждое свойство доказано в пределах меню миров Z3 (по умолчанию 3: такое доказательство "
        "не покрывает сочетаний, которые допускает свод правил; охват печатается в любом случае)",
    "search the shortest counterexample with BMC (slower; default: Spacer's path)":
        "искать кратчайший контрпример через BMC (медленнее; по умолчанию — путь, найденный Spacer)",
    "split the properties among N processes (default 1; auto: one per core; the verdicts are the same)":
        "разделить свойства между Ч процессами (по умолчанию 1; auto — по одному на ядро; вердикты те же)",
    "save the counterexample of the first violated property as a ruling scenario":
        "сохранить контрпример первого нарушенного свойства как сценарий разъяснения",
    "the base rulebook YAML (e.g. the bundled one: rulebooks/berserk-rp-4.1-2.yaml)":
        "базовый свод, файл YAML (например, встроенный: rulebooks/berserk-rp-4.1-2.yaml)",
    "the draft rulebook YAML": "проект свода, файл YAML",
    "engines run on both (default all: %(default)s)": "движки для обоих сводов (по умолчанию все: %(default)s)",
    "bounds of the exhaustive pass and of the search for the smallest differing game (default: explore's)":
        "границы полного перебора и поиска наименьшей различающейся партии (по умолчанию — как в explore)",
    "Hypothesis examples per rulebook (default 200)": "число примеров Hypothesis на свод (по умолчанию 200)",
    "worker processes: each engine on each rulebook is a task (default auto: one per core)":
        "рабочие процессы: каждый движок на каждом своде — отдельная задача (по умолчанию auto — по одному на ядро)",
    "run every engine on the base again (by default its results are kept in .ruleproof-cache/ and reused "
    "while the base, the options and ruleproof itself are unchanged)":
        "заново выполнить все движки на базовом своде (по умолчанию их результаты хранятся в .ruleproof-cache/ "
        "и используются повторно, пока не изменились базовый свод, параметры и сам ruleproof)",
    "also write diff.md and diff.json into DIR (atomically)": "также записать diff.md и diff.json в ПАПКУ (атомарно)",
    "save the draft's first new counterexample (a property it breaks) as a ruling scenario":
        "сохранить первый новый контрпример проекта (свойство, которое он нарушает) как сценарий разъяснения",
    "rulebook YAML (default: the bundled one)": "свод правил, файл YAML (по умолчанию — встроенный)",
    "only these readings": "только эти прочтения",
    "also write readings.md, readings.json and readings.html into DIR (atomically)":
        "также записать readings.md, readings.json и readings.html в ПАПКУ (атомарно)",
    "which format": "какой формат",
    "scenario: the rulebook whose windows a response may name (default: bundled)":
        "для scenario: свод, окна которого может называть ответ (по умолчанию — встроенный)",
    "write to FILE (default: stdout)": "записать в ФАЙЛ (по умолчанию — стандартный вывод)",
}


def missing(parser: argparse.ArgumentParser) -> list[str]:
    """The help texts of ``parser`` (and its subcommands) that have no Russian here."""
    return [text for text in _texts(parser) if text not in HELP_RU]


def _parsers(parser: argparse.ArgumentParser):
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                yield from _parsers(sub)


def _texts(parser: argparse.ArgumentParser) -> list[str]:
    out = []
    for p in _parsers(parser):
        out += [p.description] if p.description else []
        for action in p._actions:
            if action.help and action.help != argparse.SUPPRESS and action.help not in ARGPARSE_RU:
                out.append(action.help)
            if isinstance(action, argparse._SubParsersAction):
                out += [a.help for a in action._choices_actions if a.help]
    return list(dict.fromkeys(out))


def localize(parser: argparse.ArgumentParser, lang: str) -> None:
    """Put the Russian help on ``parser`` and its subcommands (``lang`` ru; en leaves it as declared)."""
    if lang != "ru":
        return
    for p in _parsers(parser):
        p.description = HELP_RU.get(p.description, p.description) if p.description else p.description
        p.formatter_class = formatter(lang)
        for group in p._action_groups:
            group.title = ARGPARSE_RU.get(group.title, group.title) if group.title else group.title
        actions = list(p._actions)
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                actions += action._choices_actions
        for action in actions:
            if action.help and action.help != argparse.SUPPRESS:
                action.help = HELP_RU.get(action.help, ARGPARSE_RU.get(action.help, action.help))
            if isinstance(action.metavar, str):
                action.metavar = METAVARS_RU.get(action.metavar, action.metavar)
            elif action.metavar is None and not action.option_strings and action.dest in METAVARS_RU:
                action.metavar = METAVARS_RU[action.dest]


def formatter(lang: str):
    """A help formatter whose «usage:» is in ``lang`` and whose option values show translated placeholders."""
    if lang != "ru":
        return argparse.HelpFormatter

    class RussianHelpFormatter(argparse.HelpFormatter):
        def _metavar_formatter(self, action, default_metavar):
            return super()._metavar_formatter(action, METAVARS_RU.get(default_metavar, default_metavar))

    return RussianHelpFormatter


@contextmanager
def argparse_language(lang: str):
    """While inside, argparse speaks ``lang``: its gettext is this module's table (argparse looks its
    ``_`` and ``ngettext`` up at call time)."""
    if lang != "ru":
        yield
        return
    module: Any = argparse  # its ``_`` and ``ngettext`` are not part of its typed interface
    saved = module._, module.ngettext
    module._ = lambda text: ARGPARSE_RU.get(text, text)
    module.ngettext = lambda one, many, n: ARGPARSE_RU.get(one if n == 1 else many, one if n == 1 else many)
    try:
        yield
    finally:
        module._, module.ngettext = saved
