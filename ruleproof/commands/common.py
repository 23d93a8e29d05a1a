"""What the commands share: the checks of options every command reads the same way (time limits, output
paths, ``--only`` ids, engine names, ``--jobs``), the terminal console, the clause-text lookup and text
output.  The command line's own checks (:func:`ruleproof.cli.main`) and each command module import them."""

from __future__ import annotations

import errno
import math
import os
import sys
import tempfile
from pathlib import Path

from rich.console import Console

from ruleproof.ground.errors import ExitCode, Localized, Location, RuleproofError, suggest
from ruleproof.ground.fileio import write_atomic
from ruleproof.ground.i18n import t

__all__ = ["RULINGS_HELP", "check_timeout", "check_writable", "split_only", "console", "clause_text_fn",
           "parse_names", "check_jobs", "available_cores", "write_text"]

#: the help of ``--rulings DIR`` (check, diff, readings)
RULINGS_HELP = ("a folder of your own ruling scenarios (*.yaml, the format of rulings/), run with the shipped "
                "ones; may be given several times")


def check_timeout(seconds: float) -> float:
    """A time limit in seconds: finite, positive and at least 1 ms (Z3 reads 0 ms as no limit: RP171).

    >>> check_timeout(20.0)
    20.0
    """
    if not (math.isfinite(seconds) and seconds > 0 and int(seconds * 1000) >= 1):
        raise RuleproofError("RP171", None, value=seconds)
    return seconds


def check_writable(path: str, folder: bool) -> None:
    """An output path (a report folder, a file) can be written — checked before the run, not after it
    (RP117 or RP150)."""
    p = Path(path)
    what, what_ru = ("the reports", "отчёты") if folder else ("a file", "файл")
    target = p if folder and p.exists() else p.parent if str(p.parent) else Path(".")
    if p.exists() and (p.is_dir() != folder):
        problem = "it is a file, a folder was expected" if folder else "it is a folder, a file was expected"
        problem_ru = "это файл, а нужна папка" if folder else "это папка, а нужен файл"
        raise RuleproofError("RP117", Location(path), what=what, what_ru=what_ru, problem=problem, problem_ru=problem_ru)
    if not target.is_dir():
        raise RuleproofError("RP117", Location(path), what=what, what_ru=what_ru,
                             problem=f"the folder {target} does not exist", problem_ru=f"папки {target} нет")
    try:  # write access as the system grants it (permissions, a read-only or virtual file system)
        fd, probe = tempfile.mkstemp(prefix=".ruleproof-probe-", dir=target)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise RuleproofError("RP117", Location(path), what=what, what_ru=what_ru,
                             problem=f"the folder {target} is not writable ({exc.strerror})",
                             problem_ru=f"в папку {target} нельзя писать (код {errno.errorcode.get(exc.errno or 0, exc.errno)})"
                             ) from None


def split_only(args, known: tuple[str, ...]) -> None:
    """``--only ID …`` takes several values, so it swallows a rulebook path written after it
    (``prove --only P draft.yaml``): a last value that is not an id but a file (or a .yaml name) is
    the rulebook when none was given; any other unknown id is bad input (RP170)."""
    only = list(args.only)
    last = only[-1]
    if last not in known and getattr(args, "rulebook", "") is None and (
            last.endswith((".yaml", ".yml")) or Path(last).is_file()):
        args.rulebook = last
        only.pop()
    for pid in only:
        if pid not in known:
            raise RuleproofError("RP170", None, property=pid, hint=suggest(pid, known), known=", ".join(known))
    args.only = only or None


def console() -> Console:
    return Console(highlight=False, emoji=False, width=None if sys.stdout.isatty() else 140)


def clause_text_fn(args, lang: str):
    """clause id -> the official wording (when --rules-text is given) or ruleproof's summary in ``lang``."""
    from ruleproof.reports.bundle import make_clause_text  # start-up: only when the command runs

    text = make_clause_text(getattr(args, "rules_text", None))
    return lambda cid: text(cid, lang)


def parse_names(text: str, known: tuple[str, ...], what: Localized = Localized("движок", "engine")) -> tuple[str, ...]:
    """``"a, b"`` -> ("a", "b"), each one of ``known``; anything else is bad input (RP150).

    >>> parse_names("rulings, z3", ("rulings", "z3", "consistency"))
    ('rulings', 'z3')
    """
    names = tuple(dict.fromkeys(x.strip() for x in text.split(",") if x.strip()))
    unknown = [n for n in names if n not in known]
    if unknown:
        listed = ", ".join(unknown)
        raise RuleproofError("RP150", None, problem=Localized(f"неизвестный {what.ru}: {listed}{suggest(unknown[0], known).ru}",
                                                              f"unknown {what.en} {listed}{suggest(unknown[0], known).en}"),
                             fix=Localized(f"перечислите через запятую: {', '.join(known)}",
                                           f"use a comma-separated list of: {', '.join(known)}"))
    return names


def check_jobs(jobs: int | str) -> int:
    """``--jobs N`` (one worker process or more) or ``--jobs auto`` (one per core this process may
    run on) as a number; anything else is bad input (RP173).

    >>> check_jobs("2"), check_jobs("auto") == available_cores()
    (2, True)
    """
    if jobs == "auto":
        return available_cores()
    try:
        n = int(jobs)
    except (TypeError, ValueError):
        n = 0
    if n < 1:
        raise RuleproofError("RP173", None, value=repr(jobs))
    return n


def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it, else all)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def write_text(text: str, output: str | None, lang: str) -> int:
    """A command's text output: into the file ``output`` (atomically, saying so) or on stdout."""
    if output:
        write_atomic(output, text)
        print(t("written", lang, path=output), file=sys.stderr)
    else:
        sys.stdout.write(text)
    return ExitCode.OK

