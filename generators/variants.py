"""Drafts that use every word of the vocabulary the way the bundled rulebook does not.

The bundled rulebook uses each operation with one set of parameters and guards a few elements; a
draft may use the others (``reads: current``, ``include_modified: false``, a window opened by the
other player, a ``when:`` guard on a window, …).  Every engine must give such a draft the same
meaning, so the conformance tests run on each of these:

* each operation parameter set to each value other than the one the bundled rulebook gives it;
* each guard word (``visited(step)`` for every step), and its negation, on a window, on an
  operation and on an edge;
* the die with other faces.

>>> ds = list(parameter_drafts())
>>> len(ds) > 40, len({d.id for d in ds}) == len(ds)
(True, True)
>>> next(d for d in ds if d.id == "when:window:resource_modified").operator
'guard a window'
"""

from __future__ import annotations

import copy
from typing import Iterator

from ruleproof.model.vocabulary import GUARDS, OPERATIONS

from .mutants import bundled_data
from .selftest import Draft

__all__ = ["parameter_drafts", "guard_texts"]


def guard_texts(steps) -> list[str]:
    """Every guard of the vocabulary, ``visited`` once per step, a number guard with 2 (the least X a
    cost-X of 1 does not reach): the plain forms (negation apart)."""
    out = []
    for name, g in GUARDS.items():
        if name == "always":
            continue
        out += [f"{name}({s})" for s in steps] if g.takes_step else [f"{name}(2)"] if g.takes_number else [name]
    return out


def _first(d: dict, op: str, **params):
    for sid, step in d["steps"].items():
        for i, o in enumerate(step.get("operations", [])):
            if o["op"] == op and all(o.get(k) == v for k, v in params.items()):
                return sid, i
    raise LookupError(op)


def parameter_drafts(base: dict | None = None) -> Iterator[Draft]:
    """One draft per non-default use of a word (see the module's docstring)."""
    base = base if base is not None else bundled_data()

    def copy_() -> dict:
        return copy.deepcopy(base)

    for sid, step in base["steps"].items():
        for i, o in enumerate(step.get("operations", [])):
            kind = OPERATIONS[o["op"]]
            for pname, param in kind.params.items():
                values: tuple[object, ...]  # the parameter's other values (a flag's one, a choice's)
                if param.kind == "bool":
                    values = (not o.get(pname, param.default),)
                elif param.kind == "choice" and pname != "x":
                    values = tuple(v for v in param.choices if v != o.get(pname, param.default))
                else:
                    continue
                for v in values:
                    d = copy_()
                    d["steps"][sid]["operations"][i][pname] = v
                    label = o["op"] + (f" {o['x']}" if "x" in o else "") + (f" {o['id']}" if "id" in o else "")
                    yield Draft(f"param:{sid}:{i}:{pname}={v}", "parameter", f"{label} in {sid}: {pname}={v}",
                                f"{label} в {sid}: {pname}={v}", d)
    window = _first(base, "window", id="blocking")
    op = _first(base, "give_action_marker")
    edge = ("claim_resolution", 1)  # the unguarded edge to the dice step
    for text in guard_texts(base["steps"]):
        for neg in ("", "not "):
            when = neg + text
            tag = when.replace(" ", "_")
            d = copy_()
            d["steps"][window[0]]["operations"][window[1]]["when"] = when
            yield Draft(f"when:window:{tag}", "guard a window", f"the blocking window only when {when}",
                        f"окно блокирования только при {when}", d)
            d = copy_()
            d["steps"][op[0]]["operations"][op[1]]["when"] = when
            yield Draft(f"when:op:{tag}", "guard an operation", f"the action marker only when {when}",
                        f"маркер действия только при {when}", d)
            d = copy_()
            nxt = d["steps"][edge[0]]["next"]
            nxt.insert(edge[1], {"to": "calculation", "when": when, "cites": ["512.6.2"]})
            yield Draft(f"when:edge:{tag}", "guard an edge", f"claim resolution goes to calculation when {when}",
                        f"после разрешения заявок — к шагу расчёта при {when}", d)
    for lo, hi in ((1, 4), (2, 6), (1, 8)):
        d = copy_()
        d["tables"]["die_faces"]["rows"] = {"min": lo, "max": hi}
        yield Draft(f"faces:{lo}-{hi}", "die faces", f"a die with faces {lo}–{hi}", f"кубик с гранями {lo}–{hi}", d)
