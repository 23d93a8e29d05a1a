"""The abstraction: a concrete interpreter state as the Z3 model's state vector.

:func:`abstract` reads, from a :class:`~ruleproof.model.state.State` at a location of the compiled
system, the value of every vector variable; :func:`beyond_bounds` says when a state holds more than
the vector can (a counter past its width), where the model stops being exact.  The conformance
check compares the interpreter with the model through these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .fields import FIELDS, summary
from .menu import NOPT
from .state import State

if TYPE_CHECKING:
    from .symbolic import System

__all__ = ["abstract", "beyond_bounds"]


def beyond_bounds(state: State) -> dict[str, str] | None:
    """What of a concrete state the vector cannot hold exactly (a counter or value past its
    bit-width, where :func:`abstract` would clamp it and the encoding would compute with the clamped
    value), in both languages, or None: within those bounds the encoding is exact, beyond them it is
    not."""
    a = state.action
    assert a is not None, "the states the model's vector stands for are those of an action"
    n = sum(1 for _, amount in a.dice_mods if not isinstance(amount, int))
    if n > 3:
        return {"en": f"{n} dice modifiers with an X (the model counts up to 3)",
                "ru": f"модификаторов броска с X: {n} (модель считает до 3)"}
    for what, v in (("die", a.die_rolls[-1] if a.die_rolls else 0), ("raw die", a.die_raw or 0)):
        if not 0 <= v <= 15:
            return {"en": f"{what} {v} (the model holds 0..15)", "ru": f"кубик {v} (модель хранит 0..15)"}
    for what, v in (("final die", a.die_final or 0),):
        if not -128 <= v <= 127:
            return {"en": f"{what} {v} (the model holds -128..127)",
                    "ru": f"итоговый бросок {v} (модель хранит -128..127)"}
    return None


def abstract(sys: System, state: State, world: dict[str, int], pc: int, wpl: int = 0, wps: int = 0,
             played: int = 0) -> dict[str, int]:
    """The vector (world + core variables) of a concrete interpreter state at location ``pc``."""
    out = dict(world)
    out.update({f"played{i}": played >> i & 1 for i in range(NOPT)})
    out.update({"pc": pc, "window_player": wpl, "window_passes": wps,
                "visited": sum(1 << sys.steps.index(s) for s in set(state.visited))})
    out.update(summary(state))
    for f in FIELDS.values():  # the fields an operation's meaning writes: read as fields.py says
        if f.var:
            top = (1 << sys.width[f.name]) - 1
            v = f.code(f.get(state))
            out[f.name] = min(v, top) if f.kind in ("counter", "count") else v & top
            if f.kind == "opt":
                out[f"{f.name}_set"] = int(f.get(state) is not None)
    return out
