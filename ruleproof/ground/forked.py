"""Run a function over items in forked worker processes: ``fork_map(fn, items, jobs)``.

The workers are forked, so ``fn`` — a closure over a rulebook, worlds, options… — is inherited, not
pickled; each worker has its own memory (its own Z3 contexts).  Only the items and the results
travel between processes.  Items are handed out one at a time as workers come free.

>>> base = 10
>>> fork_map(lambda i: base + i, [1, 2, 3], 2)
[11, 12, 13]
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Callable, Sequence

from ruleproof.ground.interrupt import install

__all__ = ["fork_map"]

_FN: list = []  # the function a forked worker inherits


def _call(item):
    install()  # a forked worker has no watcher thread of its own yet: Ctrl-C must stop its Z3 too
    return _FN[0](item)


def fork_map(fn: Callable, items: Sequence, jobs: int, done: Callable[[int, object], None] | None = None) -> list:
    """``[fn(item) for item in items]``, computed in ``min(jobs, len(items))`` forked processes; the
    results come back in the order of ``items`` (``done(i, result)`` is told as each item ``i`` finishes).  When
    the caller stops (Ctrl-C sent to this process only, or an error), the workers are terminated at
    once — not left to finish the items already handed to them."""
    _FN[:] = [fn]
    # an executor's workers may fork workers of their own (a multiprocessing Pool's may not)
    pool = ProcessPoolExecutor(min(jobs, len(items)), mp_context=multiprocessing.get_context("fork"))
    try:
        futures = {pool.submit(_call, item): i for i, item in enumerate(items)}
        results: list = [None] * len(items)
        for future in as_completed(futures):
            i = futures[future]
            results[i] = future.result()
            if done is not None:
                done(i, results[i])
    except BaseException:
        # leaving the executor would wait for every item already handed out: stop the workers now
        for proc in list((getattr(pool, "_processes", None) or {}).values()):
            proc.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    finally:
        _FN.clear()
    pool.shutdown()
    return results
