"""The Z3 side of the words: each operation's and each play's body, derived from :mod:`.semantics`.

Every operation and every feature kind's play has one meaning, in :mod:`.semantics`; here it is
compiled (:mod:`.derive`) into ``(guard, updates)`` over the pre-state vector, and wrapped with what
belongs to the rulebook's structure rather than to a word: the operation's ``when:`` guard and the
location after it, a window's turn bookkeeping (who has priority, passes, which option was played).
The interpreter's handlers are derived from the same meanings; :mod:`.conformance` checks on every
rulebook the tool is given that the two agree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import z3

from .derive import symbolic_operation, symbolic_play
from .menu import OPTIONS
from .semantics import OPERATIONS

if TYPE_CHECKING:
    from .symbolic import System

__all__ = ["OPS", "op_body", "play_body"]


def op_body(sy: System, S, die, gtext: str, nxt: int, meaning, params: dict, step_kind: str):
    g, upd = meaning(sy, S, die, params, step_kind)
    upd = dict(upd)
    upd["pc"] = sy.val(nxt, "pc")
    return z3.And(sy.guard(gtext, S), g), upd


#: operation -> its body, compiled from its one meaning (semantics.OPERATIONS)
OPS: dict[str, Callable] = {name: symbolic_operation(name) for name in OPERATIONS}


def play_body(sy: System, S, die, oi: int, opener: int, window: dict | None = None):
    """A play of menu option ``oi`` at a window turn (its parameters: ``window``): offered to the player with
    priority, what the feature's play does (semantics.PLAYS), and the turn's bookkeeping."""
    o = OPTIONS[oi]
    guard, upd = symbolic_play(sy, S, die, o.feature, o.card)
    upd = dict(upd)
    upd.update({f"played{oi}": sy.val(1, 1), "window_passes": sy.val(0, 2), "window_player": sy.val(opener, 1)})
    return z3.And(sy.offered(S, oi, (o.feature.kind,), S["window_player"], window), guard), upd
