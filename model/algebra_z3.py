"""The symbolic evaluator of the expression layer: meanings as Z3 terms over a compiled system's vector.

:class:`Symbolic` is the second evaluator of :mod:`.algebra`: the same meaning of :mod:`.semantics`
gives here a term over the state vector ``S`` of a :class:`~ruleproof.model.symbolic.System`.  A field
the vector holds as several variables (an optional number, a collection's summary) is a :class:`Rec`
of their terms; a field the model abstracts away is :data:`~.algebra.OPAQUE`, and so is anything
computed from it (writing it into the vector is refused where the word is compiled).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import z3

from .algebra_z3_parts import X_READS, Rec, SymbolicCollections, SymbolicFields, XVal, bit
from .fields import LEGAL, STATUS_CODES
from .menu import NOPT

__all__ = ["Symbolic", "Rec", "XVal", "X_READS", "bit"]


class Symbolic(SymbolicFields, SymbolicCollections):
    """Meanings as Z3 terms over the vector ``S`` of a compiled system, for the menu card ``card``
    (``src``, ``tgt``, ``def``, ``allyA``, ``allyB``; None where no card is asked about).
    ``markers``: the source's action markers to read instead of the vector's (a property's Z3 form
    reads those the card had when it acted)."""

    def __init__(self, sy, S, card: str | None = None, markers=None, die=None) -> None:
        self.sy, self.S, self.role, self._markers, self._die = sy, S, card, markers, die

    def const(self, v):
        return self.sy.true() if v is True else self.sy.false() if v is False else v

    def true(self):
        return self.sy.true()

    def false(self):
        return self.sy.false()

    def not_(self, a):
        return z3.Not(a)

    def and_(self, *xs):
        if any(z3.is_false(x) for x in xs):
            return self.sy.false()
        xs = [x for x in xs if not z3.is_true(x)]  # a literal True says nothing (a smaller term)
        return self.sy.true() if not xs else xs[0] if len(xs) == 1 else z3.And(*xs)

    def or_(self, *xs):
        if any(z3.is_true(x) for x in xs):
            return self.sy.true()
        xs = [x for x in xs if not z3.is_false(x)]
        return self.sy.false() if not xs else xs[0] if len(xs) == 1 else z3.Or(*xs)

    def lt(self, a, b):
        return a < b  # signed: a count left negative by a payment is below any need

    def kind_in(self, *kinds: str):
        return self.sy.is_kind(self.S, *kinds)

    def needs_magnitude(self):
        return self.sy.t(self.S["w_needs_magnitude"])

    def legal_is(self, value: bool | None):
        return self.S["legal"] == self.sy.val(LEGAL[value], "legal")

    def resources_ok_is(self, value: bool | None):
        return self.S["resources_ok"] == self.sy.val(LEGAL[value], "resources_ok")

    def blocked(self):
        return self.sy.t(self.S["blocked"])

    def parts_left(self):
        return self.S["parts_left"] != self.sy.val(0, "parts_left")

    def window_plays(self):
        """The plays of the last window opened: its ``played`` bits (reset when a window opens; an option is
        played at most once in a window), counted in 8 bits."""
        return z3.Sum([z3.ZeroExt(7, self.S[f"played{i}"]) for i in range(NOPT)])

    def visited(self, step: str):
        steps = self.sy.steps
        return self.sy.bit(self.S["visited"], steps.index(step)) if step in steps else self.sy.false()

    def status_is(self, status: str):
        return self.S["status"] == self.sy.val(STATUS_CODES[status], "status")

    def return_strike(self):
        return self.sy.t(self.S["return_strike"])

    def counts_as_assault(self, strike: str):
        """The rulebook's ``assault_strikes`` table counts ``strike`` as an assault (540.1.2): a constant."""
        return self.const(strike in self.sy.assault)

    def is_source(self):
        return self.const(self.role == "src")

    def is_defender(self):
        return self.sy.t(self.S["w_has_defender"]) if self.role == "def" else self.sy.false()

    def closed(self):
        return self.sy.t(self.S[f"{self.role}_closed"]) if self.role in ("src", "def") else self.sy.false()

    def paid_any(self):
        paid = self.S["paid"]
        if self.role == "src":
            return z3.Or(self.sy.bit(paid, 0), self.sy.bit(paid, 2))
        if self.role == "def":
            return self.sy.bit(paid, 1)
        return self.sy.false()

    def paid_resource(self, resource: str):
        """The card paid ``resource``: the paid vector's bits are the menu's cost entries (source's
        close, defender's close, source's crystals)."""
        bits: dict[tuple[str | None, str], int] = {("src", "close"): 0, ("def", "close"): 1, ("src", "crystal"): 2}
        bit = bits.get((self.role, resource))
        return self.sy.false() if bit is None else self.sy.bit(self.S["paid"], bit)

    def markers(self):
        """A card's action markers as a 4-bit value (the vector holds the source's as 2 bits, the
        defender's in the world: they do not change in an action of the source)."""
        if self.role == "src":
            mk = self.S["src_markers"] if self._markers is None else self._markers
            return z3.ZeroExt(2, mk)
        if self.role == "def":
            return self.S["w_def_markers"]
        return self.sy.val(0, 4)

    def uses(self, kinds=None):
        """540.1.3: the source's uses this turn — the world's earlier ones of the declared feature, with
        (``kinds`` given: the card's text's kinds) those of its other features of the kinds the text names
        (``w_src_uses_kin``), and this one once declared; a card that declared nothing (a defender) has made
        none."""
        if self.role == "src":
            part = self.S["part"]
            # a void first declaration (A-refused-declaration) took its use back; a later part's is the first's
            void = z3.And(self.sy.t(self.S["use_void"]), part == self.sy.val(1, "part"))
            counted = z3.And(part != self.sy.val(0, "part"), z3.Not(void))
            earlier = self.S["w_src_uses"] + (self.S["w_src_uses_kin"] if kinds is not None else self.sy.val(0, 4))
            return earlier + z3.If(counted, self.sy.val(1, 4), self.sy.val(0, 4))
        return self.sy.val(0, 4)

    def any_exempt(self):
        return z3.Or(*self.sy.exempt(self.S, True, markers_src=self._markers))

    def marker_waived(self):
        return self.sy.marker_waived(self.S)


if TYPE_CHECKING:
    from .algebra_interface import MeaningAlgebra

    def _conforms(evaluator: Symbolic) -> MeaningAlgebra:
        """The type checker holds this evaluator to the meanings' interface (never called)."""
        return evaluator
