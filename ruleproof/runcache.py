"""Engine runs kept on disk, keyed by everything that decides them.

`diff` checks every draft against the same base rulebook; the base's results (Z3's proofs, the
exhaustive pass, Hypothesis under its fixed seed, the rulings, conformance) are the same every time,
so they are computed once.  The key is a digest of the rulebook's content, the engine, its options,
the versions of Z3 and Hypothesis, the Hypothesis profile, and every file of ruleproof itself (code,
clause index, shipped rulings): any change to any of them is a miss.  At most :data:`MAX_RUNS` runs are kept,
the least recently used removed first.  A file that cannot be read
back is a miss too — the run is made again, never trusted half-written (files are written
atomically).

>>> import tempfile
>>> calls = []
>>> def engine(rb, opts):
...     calls.append(opts["n"])
...     return {"n": opts["n"]}
>>> with tempfile.TemporaryDirectory() as d:
...     a = cached_run(engine, "rulebook text", "demo", {"n": 1}, d)
...     b = cached_run(engine, "rulebook text", "demo", {"n": 1}, d)
...     c = cached_run(engine, "rulebook text", "demo", {"n": 2}, d)
>>> (a, b, c, calls)
(({'n': 1}, False), ({'n': 1}, True), ({'n': 2}, False), [1, 2])
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import pickle
from contextlib import suppress
from functools import lru_cache
from pathlib import Path
from typing import Callable

import z3

from ruleproof.generators.run import load_profile
from ruleproof.ground import interrupt
from ruleproof.ground.errors import RuleproofError
from ruleproof.ground.fileio import write_atomic

__all__ = ["MAX_RUNS", "cached_run", "code_digest", "proof_options", "prune", "run_key"]

#: the packages whose files decide a run (code, the clause index, the bundled rulebook, the rulings)
_PACKAGES = ("ruleproof", "ruleproof.model", "ruleproof.generators", "ruleproof.properties", "ruleproof.reports",
             "ruleproof.rulebooks", "ruleproof.rulings")
#: the options that change no result (where progress goes; where proofs are kept for the next rulebook — a
#: proof carried from there is re-checked, properties/carry.py)
_IRRELEVANT = ("progress", "proofs", "keep_proofs")


def proof_options(cache_dir, keep: bool) -> dict:
    """The engines' options for Z3's kept proofs beside the runs under ``cache_dir`` (None: no cache, none kept
    or re-checked): where they are (``proofs``) and whether new ones are kept (``keep_proofs``)."""
    return {"keep_proofs": keep, **({"proofs": str(Path(cache_dir) / "proofs")} if cache_dir is not None else {})}


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of every .py and .yaml file of ruleproof's packages (their data folders included)."""
    h = hashlib.sha256()
    for name in _PACKAGES:
        root = Path(str(importlib.import_module(name).__file__)).parent
        for path in sorted(p for p in root.rglob("*") if p.suffix in (".py", ".yaml")
                           and "__pycache__" not in p.parts):
            h.update(str(path.relative_to(root)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def _versions() -> str:
    import hypothesis  # hypothesis is slow to import: only when it is used

    return f"z3 {z3.get_full_version()}; hypothesis {hypothesis.__version__}; profile {load_profile()}"


def run_key(content: str, engine: str, opts: dict) -> str:
    """The cache key of ``engine`` run with ``opts`` on a rulebook whose content is ``content``."""
    shown = {k: repr(v) for k, v in sorted(opts.items()) if k not in _IRRELEVANT}
    blob = json.dumps([code_digest(), _versions(), engine, shown, content], ensure_ascii=False)
    return hashlib.sha256(blob.encode()).hexdigest()


def cached_run(run: Callable, rb, engine: str, opts: dict, cache_dir,
               keep: Callable[[object], bool] | None = None) -> tuple[object, bool]:
    """``run(rb, opts)``, or its result kept under ``cache_dir`` from an earlier call with the same key;
    returns (result, whether it came from the cache).  ``rb``: a rulebook (its spec is the content) or
    the content itself.  A result is kept only when ``keep(result)`` (default: always) and Ctrl-C was not
    pressed during the run (an engine cut short may return what it had)."""
    content = rb if isinstance(rb, str) else rb.spec.model_dump_json()
    path = Path(cache_dir) / "runs" / f"{engine}-{run_key(content, engine, opts)}.pickle"
    if path.exists():
        try:
            found = pickle.loads(path.read_bytes())
        except Exception:  # a file of another version, or damaged: made again
            pass
        else:
            with suppress(OSError):  # used now: the last to be pruned
                os.utime(path)
            return found, True
    result = run(rb, opts)
    interrupt.check()  # a run cut short is not kept: KeyboardInterrupt, as if it came during the run
    if keep is not None and not keep(result):
        return result, False
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, pickle.dumps(result))
        prune(path.parent)
    except (OSError, RuleproofError):  # a read-only folder: the run is still good, only not kept
        pass
    return result, False


#: the most runs kept (an editor's every edit is a new key: the oldest go first)
MAX_RUNS = 300


def prune(folder: Path, keep: int | None = None) -> int:
    """Remove the least recently used runs of ``folder`` beyond ``keep`` (default :data:`MAX_RUNS`); returns
    how many were removed (a file another process removed first is not counted)."""
    keep = MAX_RUNS if keep is None else keep
    files = sorted(folder.glob("*.pickle"), key=lambda p: p.stat().st_mtime if p.exists() else 0.0)
    removed = 0
    for old in files[:max(0, len(files) - keep)]:
        with suppress(FileNotFoundError):
            old.unlink()
            removed += 1
    return removed
