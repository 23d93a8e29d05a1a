"""Waiting for a change to files: what ``check --watch`` re-checks on.

A file's fingerprint is its content's digest (a folder's: each ``*.yaml`` in it, by name) — a save
that writes the same bytes is no change, an editor that replaces the file is one.  Polling, not an OS
notification service: the same on every system, and a rulebook is a few files.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as d:
...     p = pathlib.Path(d, "rb.yaml"); _ = p.write_text("a: 1")
...     before = fingerprint([p])
...     edits = iter([lambda: None, lambda: p.write_text("a: 2")])
...     _ = wait_for_change([p], before, sleep=lambda s: next(edits)())
...     fingerprint([p]) != before
True
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from collections.abc import Callable, Iterable

__all__ = ["POLL_SECONDS", "fingerprint", "wait_for_change"]

#: how often the files are looked at
POLL_SECONDS = 0.5


def fingerprint(paths: Iterable[str | Path]) -> str:
    """One digest of the contents of ``paths`` (a folder: its ``*.yaml`` files; a missing path counts as
    missing, so that it appearing again is a change)."""
    h = hashlib.sha256()
    for path in map(Path, paths):
        files = sorted(path.glob("*.yaml")) if path.is_dir() else [path]
        for f in files:
            h.update(str(f).encode())
            try:
                h.update(f.read_bytes())
            except OSError:  # missing or being replaced: read again at the next poll
                h.update(b"\0missing")
    return h.hexdigest()


def wait_for_change(paths: Iterable[str | Path], seen: str, sleep: Callable[[float], object] = time.sleep,
                    poll: float = POLL_SECONDS) -> str:
    """Block until the fingerprint of ``paths`` differs from ``seen``; return the new one.  Ctrl-C
    (KeyboardInterrupt) ends the wait."""
    paths = list(paths)
    while True:
        sleep(poll)
        now = fingerprint(paths)
        if now != seen:
            return now
