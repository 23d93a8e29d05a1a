"""Atomic file output: write to a temporary file beside the target, then rename.

An error or Ctrl-C never leaves a half-written report.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> write_atomic(d / "r.txt", "готово").read_text("utf-8")
'готово'
"""

from __future__ import annotations

import os
import signal
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from .errors import Localized, Location, RuleproofError

__all__ = ["write_atomic", "atomic_path", "no_interrupts"]


@contextmanager
def no_interrupts() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) back while files are written and renamed: a report set is whole or not
    there, and no temporary file is left behind; the interrupt is raised right after (exit 130).
    (Python's handler is swapped, not the signal mask: another thread may be the one that receives
    the signal.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    old = signal.signal(signal.SIGINT, lambda signum, frame: held.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
    if held:
        raise KeyboardInterrupt


@contextmanager
def atomic_path(target: str | Path) -> Iterator[Path]:
    """Yield a temporary path in the target's folder; on success rename it onto the target."""
    target = Path(target)
    if not target.parent.exists() or not target.parent.is_dir():
        raise RuleproofError("RP150", Location(str(target)),
                             problem=Localized(f"папки {target.parent} нет", f"the folder {target.parent} does not exist"),
                             fix=Localized("сначала создайте папку или выберите другой путь",
                                           "create the folder first or choose another output path"))
    if target.is_dir():
        raise RuleproofError("RP101", Location(str(target)))
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=target.suffix, dir=target.parent)
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # a report is an ordinary file, not mkstemp's private 0600
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.replace(tmp_path, target)
    finally:
        if tmp_path.exists():
            tmp_path.unlink()


def write_atomic(target: str | Path, content: str | bytes) -> Path:
    with no_interrupts(), atomic_path(target) as tmp:
        if isinstance(content, str):
            tmp.write_text(content, encoding="utf-8")
        else:
            tmp.write_bytes(content)
    return Path(target)
