"""The ``ruleproof`` command's entry point: Ctrl-C while the program is still loading its modules or
parsing its options also ends with exit 130 and one line (``cli.main`` handles it once it runs)."""

from __future__ import annotations

import sys

__all__ = ["run"]


def run() -> int:
    try:
        from ruleproof.cli import main

        code = main()
        if code == 130:
            _leave_now(code)
        return code
    except KeyboardInterrupt:  # before main() could handle it: while modules load, options are parsed
        from ruleproof import interrupt

        interrupt.taken()  # first: until then the watcher (if main installed it) interrupts again every 50 ms
        from ruleproof.i18n import default_lang

        print("прервано" if default_lang() == "ru" else "interrupted", file=sys.stderr)
        return 130


def _leave_now(code: int) -> None:
    """Exit an interrupted run at once: the one line is printed, the reports are as they were; the
    interpreter's exit hooks are skipped — concurrent.futures' hook would write to the wakeup pipe of a
    worker pool the interrupt already tore down and print "Exception ignored … Bad file descriptor"."""
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
