"""540.1: a card's own text that stops a resource being paid («не закрывается после …») — one meaning,
over the expression layer, that the interpreter, the Z3 encoding and the concrete evaluator's own
observations (:func:`~.algebra.exemptions`, :func:`~.algebra.marker_waived`) all read; and the strikes a
card deals in an action, which 540.1.2's «нападение» counts.

>>> from ruleproof.model.algebra import Concrete
>>> callable(exempts(Concrete(), "stays_open", None, ("attack",)))
True
"""

from __future__ import annotations

from .vocabulary import ATTACKS

__all__ = ["STRIKES", "strikes", "exempts"]

#: the strikes a card can deal in an action (the values of the ``trigger_words`` and ``assault_strikes`` tables)
STRIKES = ("attack", "return_strike")


def strikes(E, strike: str):
    """The card asked about deals ``strike`` in this action: ``attack`` (its own, as the attacking
    source) or ``return_strike`` (as the defender, 512.6.2/b4.1.4)."""
    if strike == "attack":
        return E.and_(E.kind_in(*ATTACKS), E.is_source())
    return E.and_(E.return_strike(), E.is_defender())


def exempts(E, form: str, limit, kinds: tuple[str, ...], times=None, per: str = "kind"):
    """A card's «не закрывается после …» text of form ``form`` (540.1.1 stays_open, 540.1.2
    closes_only_after_assault, 540.1.3 per_turn with 540.3.1's ``limit``, an E-value or None) applies
    to the action asked about, for the card asked about: it takes part in the action (the source or
    a defender), the action is of one of ``kinds``, it was no assault of its own (540.1.2), it has
    fewer action markers than the limit (540.3.1), and — 540.1.3 «X раз за ход», ``times`` its X (an
    E-value or None: «любое количество раз») — this use of the declared feature is one of the first X
    of the turn (:meth:`uses`; A-per-turn-count: a use beyond X pays as usual) — ``per`` "kind": the card's
    game actions this turn of the text's ``kinds`` («Может атаковать …» counts its attacks, whichever feature
    declared them), "feature": only the uses of the feature declared now (a draft's reading).  Which strikes
    are the card's «нападение» the rulebook's ``assault_strikes`` table says (:meth:`counts_as_assault`)."""
    parts = [E.or_(E.is_source(), E.is_defender()), E.kind_in(*kinds)]
    if form == "closes_only_after_assault":
        parts.append(E.not_(E.or_(*[E.and_(E.counts_as_assault(s), strikes(E, s)) for s in STRIKES])))
    if limit is not None:
        parts.append(E.lt(E.markers(), limit))
    if times is not None:
        parts.append(E.not_(E.lt(times, E.uses(kinds if per == "kind" else None))))
    return E.and_(*parts)
