"""Hash caching for the immutable records of a run (the explorer hashes every configuration).

A record's hash is computed once and kept in its ``__dict__``; :func:`~.state.evolve` drops it from
the copy it makes, and pickling drops it (string hashes differ between processes).

>>> from dataclasses import dataclass
>>> @cached_hash
... @dataclass(frozen=True)
... class P:
...     x: int
>>> p = P(1)
>>> hash(p) == hash(P(1)) == hash((1,)), "_h" in p.__dict__, "_h" in p.__getstate__()
(True, True, False)
"""

from __future__ import annotations

from dataclasses import fields

__all__ = ["cached_hash", "HASH_KEY"]

HASH_KEY = "_h"


def cached_hash(cls):
    """Give the frozen dataclass ``cls`` a hash computed once per object (equal to the hash of
    the tuple of its fields, so equal records hash equal)."""
    names = tuple(f.name for f in fields(cls))

    def __hash__(self) -> int:
        d = self.__dict__
        h = d.get(HASH_KEY)
        if h is None:
            h = d[HASH_KEY] = hash(tuple([d[n] for n in names]))
        return h

    def __getstate__(self) -> dict:
        d = dict(self.__dict__)
        d.pop(HASH_KEY, None)
        return d

    cls.__hash__ = __hash__
    cls.__getstate__ = __getstate__
    return cls
