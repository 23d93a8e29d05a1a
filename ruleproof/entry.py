"""The ``ruleproof`` command's entry point: Ctrl-C while the program is still loading its modules or
parsing its options also ends with exit 130 and one line (``cli.main`` handles it once it runs)."""

from __future__ import annotations

import sys

__all__ = ["run"]


def run() -> int:
    try:
        from ruleproof.cli import main

        return main()
    except KeyboardInterrupt:  # before main() could handle it: while modules load, options are parsed
        from ruleproof import interrupt

        interrupt.taken()  # first: until then the watcher (if main installed it) interrupts again every 50 ms
        from ruleproof.i18n import default_lang

        print("прервано" if default_lang() == "ru" else "interrupted", file=sys.stderr)
        return 130
