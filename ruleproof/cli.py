"""The `ruleproof` command line: the options every command shares, the commands of
:data:`ruleproof.commands.COMMANDS` (one module each), and what ends a run — an exit code, one message for
bad input, a saved traceback for a bug, one line for Ctrl-C.

Exit codes: 0 everything holds, 1 a finding, 2 bad input (one message, no traceback),
3 inconclusive (reserved for the engines that can be: Z3, bounded search), 70 an internal error
(a bug in ruleproof: one line naming the command and a saved traceback file), 130 interrupted.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import traceback
from importlib import import_module
from importlib.metadata import PackageNotFoundError, version as installed
from pathlib import Path

from ruleproof.commands import COMMANDS
from ruleproof.commands.common import check_timeout, check_writable, split_only
from ruleproof.ground import interrupt
from ruleproof.ground.errors import ExitCode, RuleproofError
from ruleproof.ground.i18n import LANGS, default_lang, t
from ruleproof.i18n_cli import argparse_language, localize

__all__ = ["main", "build_parser", "argv_lang", "version"]


def build_parser(lang: str = "en") -> argparse.ArgumentParser:
    """The command line, its help in ``lang`` (:mod:`ruleproof.i18n_cli`)."""
    p = _build_parser()
    localize(p, lang)
    return p


def argv_lang(argv: list[str]) -> str:
    """The language a command line asks for (``--lang X`` anywhere, else the environment's), before
    argparse reads it: the help and argparse's errors must already speak it."""
    for i, arg in enumerate(argv):
        value = argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else arg[7:] if arg.startswith("--lang=") else None
        if value in LANGS:
            return value
    return default_lang()


def _build_parser() -> argparse.ArgumentParser:
    lang_help = "language of messages and reports (default: from RULEPROOF_LANG, LANGUAGE, LC_ALL, LC_MESSAGES or LANG)"
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--lang", choices=LANGS, default=argparse.SUPPRESS, help=lang_help)
    texts = argparse.ArgumentParser(add_help=False)
    texts.add_argument("--rules-text", metavar="PATH",
                       help="the official rules text (a .txt file or a folder of them); reports quote it")

    p = argparse.ArgumentParser(prog="ruleproof",
                                description="Check the written rules of «Берсерк» like a model checker checks a protocol.")
    p.add_argument("--lang", choices=LANGS, default=default_lang(), help=lang_help)
    p.add_argument("--version", action="version", version=f"ruleproof {version()}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    for name in COMMANDS:
        import_module(f"ruleproof.commands.{name}").add_parser(sub, common=common, texts=texts)
    return p


def version() -> str:
    """The installed package's version (the source tree's when it is not installed)."""
    try:
        return installed("ruleproof")
    except PackageNotFoundError:  # pragma: no cover - run from a checkout that was never installed
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    with argparse_language(argv_lang(argv)):
        args = build_parser(argv_lang(argv)).parse_args(argv)
    lang = args.lang
    interrupt.install()  # Ctrl-C stops Z3 too
    try:
        _check_args(args)
        code = args.run(args, lang)
        interrupt.check()  # Ctrl-C that something swallowed on the way still ends the run as interrupted
        return code
    except RuleproofError as err:
        interrupt.taken()  # the error stream is the user's again, should Ctrl-C have muted it
        print(err.render(lang), file=sys.stderr)
        return ExitCode.BAD_INPUT
    except KeyboardInterrupt:
        pass
    except Exception as exc:  # noqa: BLE001 - the one place a bug becomes an exit code (70), not a finding
        # after Ctrl-C a call cut short may fail otherwise: a KeyboardInterrupt raised while ctypes
        # converts a Z3 call's arguments comes out as ctypes.ArgumentError — the interruption, not a bug
        if not interrupt.requested():
            interrupt.taken()
            return internal_error(exc, argv, lang)
    interrupt.taken()
    print("interrupted" if lang == "en" else "прервано", file=sys.stderr)
    return ExitCode.INTERRUPTED


def internal_error(exc: BaseException, argv: list[str], lang: str) -> int:
    """Report a bug in ruleproof: one line naming the command, the traceback saved to a file."""
    text = "".join(traceback.format_exception(exc))
    path = Path(tempfile.gettempdir()) / f"ruleproof-crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
    try:
        path.write_text(f"ruleproof {' '.join(argv)}\n\n{text}", encoding="utf-8")
    except OSError:
        path = Path("-")  # nowhere to save it: the one line is all there is
    error = f"{type(exc).__name__}: {str(exc)[:200]}"
    print(t("internal_error", lang, error=error, command="ruleproof " + " ".join(argv)[:200], path=path),
          file=sys.stderr)
    return ExitCode.INTERNAL


def _check_args(args) -> None:
    """The options every command shares, checked before any work: finite positive timeouts, output
    paths that can be written, ``--only`` ids (and a rulebook it swallowed)."""
    if getattr(args, "timeout", None) is not None:
        check_timeout(args.timeout)
    for attr, folder in (("report", True), ("save_ruling", False), ("output", False)):
        value = getattr(args, attr, None)
        if value:
            check_writable(value, folder)
    if getattr(args, "only", None) and args.command in ("prove", "explore"):
        from ruleproof.properties.catalogue import BY_ID  # read only when --only is given

        split_only(args, tuple(BY_ID))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
