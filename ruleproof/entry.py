"""The ``ruleproof`` command's entry point: Ctrl-C while the program is still loading its modules or
parsing its options also ends with exit 130 and one line (``cli.main`` handles it once it runs)."""

from __future__ import annotations

import sys

__all__ = ["run"]


def run() -> int:
    try:
        from ruleproof.cli import main  # start-up: only when the command runs

        code = main()
        if code == 130:
            _leave_now(code)
        return code
    except BaseException as exc:  # before main() could handle it: while modules load, options are parsed
        if not _interrupted(exc):
            raise
        from ruleproof.ground import interrupt  # start-up: only when the command runs

        interrupt.taken()  # first: until then the watcher (if main installed it) interrupts again every 50 ms
        from ruleproof.ground.i18n import default_lang  # start-up: only when the command runs

        print("прервано" if default_lang() == "ru" else "interrupted", file=sys.stderr)
        return 130


def _interrupted(exc: BaseException | None) -> bool:
    """``exc`` is a KeyboardInterrupt or was caused by one: Ctrl-C while a module's class is being made
    comes out of ``dataclasses`` as «RuntimeError: Error calling __set_name__ …» raised from it.

    >>> try:
    ...     try:
    ...         raise KeyboardInterrupt
    ...     except KeyboardInterrupt as ki:
    ...         raise RuntimeError("Error calling __set_name__") from ki
    ... except RuntimeError as err:
    ...     _interrupted(err), _interrupted(ValueError())
    (True, False)
    """
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def _leave_now(code: int) -> None:
    """Exit an interrupted run at once: the one line is printed, the reports are as they were; the
    interpreter's exit hooks are skipped — concurrent.futures' hook would write to the wakeup pipe of a
    worker pool the interrupt already tore down and print "Exception ignored … Bad file descriptor"."""
    import os  # start-up: only when the command runs

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
