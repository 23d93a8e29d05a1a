"""The abstraction: a concrete interpreter state as the Z3 model's state vector.

:func:`abstract` reads, from a :class:`~ruleproof.model.state.State` at a location of the compiled
system, the value of every vector variable; :func:`beyond_bounds` says when a state holds more than
the vector can (a counter past its width), where the model stops being exact.  The conformance
check compares the interpreter with the model through these.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .fields import FIELDS
from .menu import NOPT, X_KINDS_SYM
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
    a = state.action
    src = state.card("src")
    d = state.card("def") if world["w_has_defender"] else None
    out = dict(world)
    out.update({f"played{i}": played >> i & 1 for i in range(NOPT)})
    out.update({"pc": pc,
                "window_player": wpl,
                "window_passes": wps,
                "part": min(a.declared, 7),
                "parts_left": a.parts_left,
                "visited": sum(1 << sys.steps.index(s) for s in set(state.visited))})
    for k in X_KINDS_SYM:
        xv = next((x for x in a.xs if x.kind == k), None)
        out[f"x_{k}_declared"] = int(xv is not None)
        out[f"x_{k}_fixed"] = int(xv is not None and xv.value is not None)
        rb = 0
        if xv is not None and xv.value is not None and xv.compute and xv.compute[0] == "property":
            who = {"self": xv.owner or a.source, "source": a.source, "target": a.targets[0]}.get(xv.compute[1])
            rb = int(xv.value != state.card(who).printed_value(xv.compute[2]))
        out[f"x_{k}_not_printed"] = rb
    dx = next((x for x in a.xs if x.kind == "dice_modifier"), None)
    out["dice_x_value"] = (dx.value if dx is not None and dx.value is not None else 0) & 0xFF
    out["reserved_done"] = int(a.reserved_done)
    keys = {(c, r) for c, r, _ in a.reserved}
    out["reserved"] = int(("src", "close") in keys) | int(("def", "close") in keys) << 1 | int(("src", "crystal") in keys) << 2
    out["reserved_crystals"] = next((n for c, r, n in a.reserved if r == "crystal"), 0)
    mods = {(m.card, r) for m in a.modifications for r in m.resources}
    out["modified_src"], out["modified_def"] = int(("src", "close") in mods), int(("def", "close") in mods)
    out["blocked"] = int(a.blocked)
    const, n = 0, 0
    for mode, amount in a.dice_mods:
        if isinstance(amount, int):
            const += amount if mode == "add" else -amount
        else:
            n += 1
    out.update({"dice_const": const & 0xFF,
                "dice_x_count": min(n, 3),
                "dice_mods_declared": int(bool(a.dice_mods)),
                "dice_mods_applied": int(a.dice_mods_applied),
                "final_die": (a.die_final or 0) & 0xFF,
                "final_die_set": int(a.die_final is not None),
                "return_strike": int(a.return_strike),
                "paid_done": int(a.paid_done)})
    pk = {(c, r) for c, r, _ in a.paid}
    out["paid"] = int(("src", "close") in pk) | int(("def", "close") in pk) << 1 | int(("src", "crystal") in pk) << 2
    out.update({"src_closed": int(src.closed),
                "src_movement_mod": (src.current_value("movement") - src.printed_value("movement")) & 0xFF,
                "src_crystals": src.resource("crystal") & 0xFF,
                "def_closed": int(d.closed) if d else 0,
                "def_wounds": min(d.wounds, 3) if d else 0})
    for f in FIELDS.values():  # the fields an operation's meaning writes: read as fields.py says
        if f.var:
            top = (1 << sys.width[f.name]) - 1
            v = f.code(f.get(state))
            out[f.name] = min(v, top) if f.kind in ("counter", "count") else v & top
    return out
