"""Ctrl-C stops Z3 too: ``install()`` once in the command line's process, ``context()`` for every Z3 context.

Z3 catches SIGINT itself and answers *unknown* ("interrupted from keyboard", "canceled" — the same
answer as a timeout), so a run interrupted during a proof would go on and end as if it had finished.
Here Z3's own handler is switched off (``ctrl_c``) and Python's kept; as Python runs its handler
only between bytecodes — after Z3 returns — the signal is also written to a wakeup pipe
(``signal.set_wakeup_fd``), which a watcher thread reads at once and interrupts every live context.
Z3 returns within milliseconds. Z3 reports a canceled query through an error callback, inside which
Python's KeyboardInterrupt is lost; so the watcher interrupts the main thread again every 50 ms
until the command takes it (:func:`taken`), and :func:`check` raises it where Z3 answers *unknown*:
the command exits 130.  Z3 writes to the process's error stream itself (a Spacer query canceled while it
validates its answer prints «rule validation failed when checking: …»), past Python; so from the moment
Ctrl-C is seen until the command takes it, file descriptor 2 points at the null device — the user sees
only the command's one line «interrupted».

>>> ctx = context()
>>> ctx in _CONTEXTS
True
"""

from __future__ import annotations

import _thread
import os
import signal
import sys
import threading
import weakref

import z3

__all__ = ["install", "context", "check", "taken", "requested"]

_CONTEXTS: "weakref.WeakSet[z3.Context]" = weakref.WeakSet()
_INSTALLED: list[int] = []  # the pid it is installed in (a forked worker installs it again)
_REQUESTED = threading.Event()  # Ctrl-C was pressed (Z3 may have swallowed the KeyboardInterrupt)
_TAKEN = threading.Event()  # the command took the KeyboardInterrupt (it is exiting 130)
_STDERR: list[int] = []  # a copy of file descriptor 2 while it is muted (between Ctrl-C and taken())
_MUTE = threading.Lock()


def context() -> z3.Context:
    """A new Z3 context that Ctrl-C interrupts."""
    ctx = z3.Context()
    _CONTEXTS.add(ctx)
    return ctx


def _watch(fd: int) -> None:
    while True:
        try:
            data = os.read(fd, 64)
        except OSError:  # pragma: no cover - the pipe closed with the process
            return
        if signal.SIGINT not in data:
            continue
        _REQUESTED.set()
        _mute_stderr()
        # until the main thread takes the KeyboardInterrupt (a Z3 error callback may swallow one),
        # stop every Z3 query and interrupt the main thread again
        while not _TAKEN.is_set():
            for ctx in list(_CONTEXTS):
                ctx.interrupt()
            _TAKEN.wait(0.05)
            if not _TAKEN.is_set():
                _thread.interrupt_main()


def _mute_stderr() -> None:
    """Point file descriptor 2 at the null device (what Z3 prints while it is canceled is noise), keeping a
    copy to restore in :func:`taken`."""
    with _MUTE:
        if _STDERR or _TAKEN.is_set():
            return
        try:
            sys.stderr.flush()
        except (OSError, ValueError):  # pragma: no cover - a closed stream
            pass
        _STDERR.append(os.dup(2))
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 2)
        os.close(null)


def _unmute_stderr() -> None:
    with _MUTE:
        if _STDERR:
            saved = _STDERR.pop()
            os.dup2(saved, 2)
            os.close(saved)


def _quiet_interrupts(unraisable, default=sys.unraisablehook) -> None:
    """Python's report of an exception it cannot raise, except a KeyboardInterrupt lost in a callback
    (Z3's error handler, a garbage-collector hook: "Exception ignored … KeyboardInterrupt"): the
    watcher raises it again where it counts."""
    if isinstance(unraisable.exc_value, KeyboardInterrupt):
        _REQUESTED.set()
        return
    default(unraisable)


def _on_sigint(signum, frame) -> None:
    """Python's own SIGINT handler, except that the request is recorded first, in the main thread:
    the KeyboardInterrupt may surface as another error (ctypes turns one raised while it converts a
    Z3 call's arguments into ``ArgumentError``) before the watcher thread has read the wakeup pipe."""
    _REQUESTED.set()
    raise KeyboardInterrupt


def requested() -> bool:
    """Ctrl-C was pressed in this run (whether or not the KeyboardInterrupt got through)."""
    return _REQUESTED.is_set()


def taken() -> None:
    """The command caught the KeyboardInterrupt: the watcher stops interrupting the main thread, and the
    error stream is the user's again."""
    _TAKEN.set()
    _unmute_stderr()


def check() -> None:
    """Raise KeyboardInterrupt if Ctrl-C was pressed: called where a Z3 call returns *unknown* or
    fails, since Z3 reports the interruption as an error through a callback, inside which Python's
    KeyboardInterrupt is lost ("Exception ignored on calling ctypes callback")."""
    if _REQUESTED.is_set():
        raise KeyboardInterrupt


def install() -> None:
    """Make Ctrl-C interrupt Z3 in this process (from its main thread; again after a fork).  A run
    starts uninterrupted: an earlier Ctrl-C in the same process (a test calling ``main`` again) is
    forgotten."""
    _REQUESTED.clear()
    _TAKEN.clear()
    if _INSTALLED == [os.getpid()] or threading.current_thread() is not threading.main_thread():
        return
    z3.set_param("ctrl_c", False)
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not where SIGINT is ignored
        signal.signal(signal.SIGINT, _on_sigint)
    sys.unraisablehook = _quiet_interrupts
    r, w = os.pipe()
    os.set_blocking(w, False)
    signal.set_wakeup_fd(w, warn_on_full_buffer=False)
    threading.Thread(target=_watch, args=(r,), name="ruleproof-interrupt", daemon=True).start()
    _INSTALLED[:] = [os.getpid()]
