"""Bounded worlds for the exhaustive explorer: a fixed, enumerable family of cards, features and
game actions, built from the same vocabulary the Hypothesis strategies draw from.

The family is a product of small axes — the action's kind, one X of each kind (its value up to a
bound), whether a defender deals a return strike — times a few *loadouts*: which features the
players hold (and a defender, in ``DEFENDERS``).  Each loadout gives the players the features one group of windows admits, so that
together they make every window of the bundled rulebook offer every feature kind it allows, while
each single world stays small enough to enumerate every play.  (The compound strike is left out of
the ``dice`` loadout: two parts, each with rerolls, square the number of dice paths.)  A spell's
computed X counts cards («число ваших открытых существ»), an effect's cost-X is also its magnitude
(542.2's bare X), and the ``printed`` loadout's guards compare both ways, so that a condition read
on the current value is caught here too (the family's source has 2 printed and 3 current).  The
computed :func:`role_loadouts` hand every role the admitted kinds it holds in no fixed loadout.

>>> ws = bounded_worlds(x_max=1)
>>> len(ws) > 50, len({w.name for w in ws}) == len(ws)
(True, True)
>>> sorted({w.state.action.kind for w in ws})
['attack', 'effect', 'simple_strike', 'spell']
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from ruleproof.model.features import Feature
from ruleproof.model.menu import ATTACKS, action, card, uses_of, x_var
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.state import Card, State, XVar
from ruleproof.model.universe import feature as F, plays_features, scope

from .uses import uses

__all__ = ["World", "LOADOUTS", "DEFENDERS", "ALLIES", "ROLE_CARDS", "bounded_worlds", "two_plays_worlds", "plays_searched", "PLAYS_CAP", "widenings", "widened_loadouts",
           "role_loadouts", "role_holdings", "loadout_names", "worlds_scope"]


@dataclass(frozen=True)
class World:
    name: str  # e.g. "spell/cost=2/dice" — what it is, for reports and replays
    state: State
    plays: int = 0  # plays per window the search allows in this world at least (above the bounds' plays=N)
    faces: int = 0  # the die shows only its first ``faces`` faces here (0: every face the bounds allow)


def _f(fid: str, kind: str, **kw) -> Feature:
    """A feature made up on the spot with a computed id (the widened and role loadouts, the many-rerolls
    worlds); a fixed id's one body is :data:`~ruleproof.model.universe.FEATURES`'s (:func:`F`)."""
    return Feature(fid, kind, **kw)


#: loadout name -> (features of the source's side A, features of side B); ids are unique
LOADOUTS: dict[str, tuple[tuple[Feature, ...], tuple[Feature, ...]]] = {
    "none": ((), ()),
    # 512.6.2/b2: an accompanying feature «если на кубике выпало 1» fires only on the die's last value
    # (a 1: the small bounds' die 1–2 plays it, and Hypothesis, which leans to small values, draws it)
    "dice": ((F("a_reroll"), F("a_plus"), F("a_one")), (F("b_minus_x"),)),
    # 542.3: b_flee, a target that leaves the active zone after the declaration
    "calculation": ((F("a_mag"), F("a_mag_x")), (F("b_reduce"), F("b_vanish"), F("b_flee"), F("b_prevent"))),
    # a 540.1 text that spares the source's closing: a block offered (or not) to a resource-modified action;
    # «после промаха» of an attack that missed and was then blocked (A-status-kept)
    "defence": ((F("a_protect"), F("a_replace"), F("a_stay"), F("a_after_miss")), (F("b_block"), F("b_grow"))),
    # 540.4.1: the attacker's own «on assault» fires on its strike (not on a return strike)
    "triggers": ((F("a_heal"), F("a_free"), F("a_assault_wound")), (F("b_assault"), F("b_spite"))),
    # 540.1.2: the source «Закрывается после … нападения» — its own attack is an assault, whatever else is
    "payment": ((F("a_paid"), F("a_acts"), F("a_paid_crystal"), F("a_assault_only")), (F("b_closed"),)),
    # the source's «−1 от атак существ с 2 или больше» meets the defender's return strike (512.6.2/b4.1.4);
    # its «Может атаковать 2 раза за ход, после 1-й атаки не закрывается» (540.1.3 with 540.3.1): the
    # family adds worlds where it has used that twice already, and once (:func:`bounded_worlds`);
    # «… с 2 или меньше» (b_ford): the family's source (printed 2, current 3) is where the reading matters
    "printed": ((F("a_open"), F("a_serk")), (F("b_serk"), F("b_ford"))),
    # 540.3 «если иного не указано в тексте особенности»: a 540.1 text that also waives the action marker
    "waiver": ((F("a_quiet"),), ()),
}


#: loadout name -> the features a defender holds in it (540.4.1: a defender's «on strike» fires on its
#: return strike, its «on assault» does not; 540.1.2: its «closes after an assault» text)
DEFENDERS: dict[str, tuple[Feature, ...]] = {
    "triggers": (F("d_heal"), F("d_assault_wound"), F("d_steady"), F("d_rush")),
    # 540.1.2 «Закрывается после … нападения» on a defender: is its return strike an assault?
    "printed": (F("d_assault_only"),),
}


#: loadout name -> the features each side's ally (a card that takes no part in the action) holds: the
#: kinds whose offer turns on who holds them — «при ударе/нападении», a modification of one's own
#: resources, «при оплате», an accompanying die feature, «после …», a block
ALLIES: dict[str, tuple[tuple[Feature, ...], tuple[Feature, ...]]] = {
    "allies": ((F("xa_heal"), F("xa_rush"), F("xa_paid"), F("xa_one")), (F("xb_assault"), F("xb_block"), F("xb_spite"))),
}


CRYSTALS = 2  # what every card of the family has of the resource a cost-X is paid in


def _card(cid: str, features: tuple[Feature, ...], wounds: int = 1) -> Card:
    return card(cid, features, movement=2, movement_mod=1, wounds=wounds, crystals=CRYSTALS)


def _xs(setup: str, value: int | None, action_kind: str) -> tuple[XVar, ...]:
    kind = {"chosen": "magnitude_chosen", "computed": "magnitude_computed"}.get(setup, setup)
    if setup in ("cost", "targets", "chosen"):
        return (x_var(kind, chosen=value),)
    if setup == "computed" and action_kind == "spell":  # an X that counts cards: «число ваших открытых существ»
        return (x_var(kind, compute=("count", "source", "open")),)
    if setup in ("computed", "implicit"):
        return (x_var(kind, compute=("wounds", "target", "")),)
    return ()


def _bare(kind: str, setup: str) -> dict:
    """An effect's cost-X is also its magnitude — 542.2's bare X (a spell's stays a cost alone)."""
    return {"magnitude_x": x_var("cost").name} if kind == "effect" and setup == "cost" else {}


#: the feature kinds that carry a trigger word (the rows of the ``trigger_words`` table)
TRIGGERED = ("effect_trigger", "resource_modification")


def widenings(rb, base=None) -> tuple[tuple[str, str, str], ...]:
    """What ``rb`` lets happen that ``base`` (default: the bundled rulebook) does not, in terms the
    loadouts speak: (window, feature kind, trigger word or '') for each kind a window admits anew, and
    for each trigger word whose table row is new or changed, each triggered kind its windows admit.

    >>> from ruleproof.model.rulebook import load_rulebook
    >>> widenings(load_rulebook())
    ()
    """
    theirs, base_rows = _what_admits(base) if base is not None else _bundled_admits()
    mine, rows = _what_admits(rb)
    out = [(w, k, "") for w, allows in mine.items() for k in allows if k not in theirs.get(w, ())]
    changed = [word for word in rows if rows[word] != base_rows.get(word)]
    out += [(w, k, word) for word in changed for w, allows in mine.items() for k in allows if k in TRIGGERED]
    return tuple(dict.fromkeys(out))


def _what_admits(rb) -> tuple[dict, dict]:
    """(window -> the kinds it admits, the ``trigger_words`` rows) of ``rb``."""
    return dict(uses(rb).windows), rb.table("trigger_words")


@lru_cache(maxsize=1)
def _bundled_admits() -> tuple[dict, dict]:
    """:func:`_what_admits` of the bundled rulebook, loaded once (``bounded_worlds`` asks for every draft)."""
    return _what_admits(load_rulebook())


def _prototype(kind: str) -> Feature:
    """The loadouts' first feature of ``kind`` (every kind a window of the bundled rulebook admits has one)."""
    every = [f for a, b in LOADOUTS.values() for f in (*a, *b)] + [f for fs in DEFENDERS.values() for f in fs]
    return next(f for f in every if f.kind == kind)


#: the roles a loadout gives features to — the source (attacker's side), the target (the opponent), a
#: defender, a bystander of each side — and the prefix of a widened feature's id in each
ROLE_CARDS = {"src": "wa", "tgt": "wb", "def": "wd", "allyA": "wxa", "allyB": "wxb"}


def widened_loadouts(rb, base=None) -> dict[str, tuple[tuple[Feature, ...], ...]]:
    """One loadout per window that ``rb`` widens (see :func:`widenings`): each of :data:`ROLE_CARDS` —
    the attacker's side, the opponent, a defender and a bystander of each side — holds a feature of
    every widened kind (with the widened trigger word), so the exhaustive pass plays the widening in
    every role.  Empty for the bundled rulebook: the fixed loadouts already play everything it admits."""
    out: dict[str, tuple[list, ...]] = {}
    for window, kind, word in widenings(rb, base):
        holders = out.setdefault(f"widened-{window}", tuple([] for _ in ROLE_CARDS))
        proto = _prototype(kind)
        for side, prefix in zip(holders, ROLE_CARDS.values()):
            fid = "_".join(p for p in (prefix, kind, word) if p)
            side.append(replace(proto, id=fid, trigger=word) if word else replace(proto, id=fid))
    return {name: tuple(tuple(side) for side in holders) for name, holders in out.items()}


#: a role loadout's id prefix for each of :data:`ROLE_CARDS` (a widened loadout's, with an ``r``)
_ROLE_PREFIX = {role: "r" + prefix[1:] for role, prefix in ROLE_CARDS.items()}


def role_holdings() -> dict[str, set[tuple[str, str]]]:
    """role -> the (feature kind, trigger word) pairs it holds in some fixed loadout (:data:`LOADOUTS`,
    :data:`DEFENDERS`, :data:`ALLIES`).

    >>> ("block", "") in role_holdings()["tgt"], ("block", "") in role_holdings()["src"]
    (True, False)
    """
    out: dict[str, set] = {role: set() for role in ROLE_CARDS}
    for sides in _fixed_table().values():
        for role, side in zip(ROLE_CARDS, sides):
            out[role] |= {(f.kind, f.trigger) for f in side}
    return out


def _fixed_table() -> dict[str, tuple[tuple[Feature, ...], ...]]:
    """The fixed loadouts as (src, tgt, def, allyA, allyB) features."""
    return {**{k: (a, b, DEFENDERS.get(k, ()), (), ()) for k, (a, b) in LOADOUTS.items()},
            **{k: ((), (), (), *ALLIES[k]) for k in ALLIES}}


@lru_cache(maxsize=1)
def role_loadouts() -> dict[str, tuple[tuple[Feature, ...], ...]]:
    """The roles the fixed loadouts leave out, computed from the bundled rulebook's windows: one loadout
    ``roles-<window>`` per window, in which each of :data:`ROLE_CARDS` holds a feature of every kind the
    window admits (a triggered kind once per trigger word of the ``trigger_words`` table) that it holds
    in no fixed loadout.  With them every admitted kind is played in every role (attacker's side,
    opponent, defender, a bystander of each side); a draft's new kinds come in :func:`widened_loadouts`.
    Their worlds are few (:data:`ROLE_ACTIONS`): the X axes are the fixed loadouts' business.

    >>> sorted(role_loadouts())[:2]
    ['roles-after_ability', 'roles-blocking']
    """
    windows, rows = _bundled_admits()
    held = role_holdings()
    out: dict[str, tuple[tuple[Feature, ...], ...]] = {}
    for window, allows in windows.items():
        sides = tuple(tuple(replace(_prototype(kind), id="_".join(p for p in (prefix, kind, word) if p),
                                    **({"trigger": word} if word else {}))
                            for kind in allows for word in (tuple(rows) if kind in TRIGGERED else ("",))
                            if (kind, word) not in held[role])
                      for role, prefix in _ROLE_PREFIX.items())
        if any(sides):
            out[f"roles-{window}"] = sides
    return out


def loadout_names() -> tuple[str, ...]:
    """The loadouts every rulebook's family has: the fixed ones, the allies' and the role loadouts (a
    draft's ``widened-<window>`` come on top, from :func:`widened_loadouts`).

    >>> "allies" in loadout_names(), "roles-calculation" in loadout_names()
    (True, True)
    """
    return (*_fixed_table(), *role_loadouts())


#: the actions of a role loadout's worlds: (kind, with a defender) — every window is reached by one
ROLE_ACTIONS = (("simple_strike", True), ("attack", True), ("spell", False), ("effect", False))


def bounded_worlds(x_max: int = 1, loadouts: tuple[str, ...] | None = None, rulebook=None) -> list[World]:
    """Every world of the family with X values 0..``x_max`` (targets 1..``x_max``, at least 1); with
    ``rulebook``, also the worlds of its :func:`widened_loadouts` (unless ``loadouts`` names others), and
    for a rulebook that reads ``plays_at_least``, two plays per window in each world and the worlds of
    :func:`two_plays_worlds`."""
    out: list[World] = []
    widened = widened_loadouts(rulebook) if rulebook is not None else {}
    reads = uses(rulebook) if rulebook is not None else None  # what the rulebook's guards read
    # 542.2: a rulebook that turns on «X ≥ N» (cost_x_at_least) gets a cost-X at each such N above the
    # bounds, with the crystals for it (the declaration stands)
    numbers = [n for n in reads.cost_numbers if n > x_max] if reads else []
    roles = role_loadouts()
    table = {**_fixed_table(), **roles, **widened}
    for loadout in loadouts or tuple(table):
        if loadout not in table:
            continue  # a widened loadout named in the bounds of a rulebook that does not widen it
        a_feats, b_feats, d_feats, *ally_feats = table[loadout]
        pair: tuple[Card, ...] = (_card("src", a_feats), _card("tgt", b_feats, wounds=0))  # source and target
        if any(ally_feats):  # and a bystander of each side
            pair += tuple(_card(cid, fs, wounds=0) for cid, fs in zip(("allyA", "allyB"), ally_feats))
        if loadout in roles:
            out += _role_worlds(loadout, pair, d_feats)
            continue
        out += _action_worlds(loadout, pair, d_feats, x_max)
        out += _cost_worlds(loadout, pair, numbers)
        out += _turn_worlds(loadout, pair, a_feats)
        if loadout == "payment":
            out += _payment_worlds(pair)
        # 512.6.2/b4.2: a simple strike at a closed card is no fight (no strike table, no return strike)
        closed = (pair[0], replace(pair[1], closed=True), *pair[2:])
        out.append(World("/".join(p for p in ("simple_strike", "closed-target", loadout) if p != "none"),
                         State(cards=closed, action=action("simple_strike"))))
    if reads and reads.play_numbers:
        # a rulebook that turns on how many features a window played: two plays per window in every world,
        # so that a guard reading two is played wherever it stands (more: the many-rerolls worlds below)
        out = [replace(w, plays=max(w.plays, 2)) for w in out]
        if loadouts is None or "dice" in loadouts:
            out += _plays_worlds(reads.play_numbers)
    return out


def _role_worlds(loadout: str, pair: tuple, d_feats) -> list[World]:
    """A role loadout: each kind of action of :data:`ROLE_ACTIONS`, with its defender where it has one."""
    out = []
    for kind, defender in ROLE_ACTIONS:
        cards = (*pair, _card("def", d_feats)) if defender else pair
        name = "/".join((kind, "defender", loadout) if defender else (kind, loadout))
        out.append(World(name, State(cards=cards, action=action(kind, defender=defender, magnitude_base=1))))
    return out


def _action_worlds(loadout: str, pair: tuple, d_feats, x_max: int) -> list[World]:
    """Each kind of action with each setup of its X (none, a cost-X, a target-count X and, for a non-attack, a
    magnitude chosen, computed or bare), each X value up to ``x_max``, with and without a defender."""
    out = []
    for kind in ("simple_strike", "attack", "spell", "effect"):
        setups = ("none", "cost", "targets") + (() if kind in ATTACKS else ("chosen", "computed", "implicit"))
        for setup in setups:
            # 542.3: the player chooses exactly X targets — among the target and its ally, if it has one
            foes = tuple(c.id for c in pair if c.id in ("tgt", "allyB"))
            values = {"cost": range(0, x_max + 1), "targets": range(1, min(max(x_max, 1), len(foes)) + 1),
                      "chosen": range(0, x_max + 1)}.get(setup, (None,))
            for value in values:
                for defender in ((False, True) if kind in ATTACKS else (False,)):
                    xs = _xs(setup, value, kind)
                    cards = (*pair, _card("def", d_feats)) if defender else pair
                    act = action(kind, xs, defender=defender, magnitude_base=None if xs else 1,
                                 targets=foes[:value] if setup == "targets" else foes[:1], **_bare(kind, setup))
                    name = "/".join(p for p in (kind, setup if value is None else f"{setup}={value}",
                                                "defender" if defender else "", loadout) if p and p != "none")
                    out.append(World(name or kind, State(cards=cards, action=act)))
    return out


def _cost_worlds(loadout: str, pair: tuple, numbers: list[int]) -> list[World]:
    """540.2/542.2: a spell with no magnitude, a cost-X above what the card has (the declaration must not stand),
    a cost-X at each number a guard compares it with (with the crystals for it); a compound strike."""
    out = []
    # 540.2/542.2: a cost-X above what the card has (the declaration must not stand)
    variants: list[tuple[str, str, dict[str, Any]]] = [("spell", "no-magnitude", {"needs_magnitude": False}),
                ("spell", "cost-over", {"xs": (x_var("cost", chosen=CRYSTALS + 1),)})]
    for n in numbers:
        rich = tuple(c.with_resource("crystal", n) if c.id == "src" else c for c in pair)
        name = "/".join(p for p in ("spell", f"cost={n}", loadout) if p != "none")
        out.append(World(name, State(cards=rich, action=action("spell", (x_var("cost", chosen=n),)))))
    if loadout != "dice":  # a compound strike rolls twice: with rerolls that squares the dice paths
        variants.append(("simple_strike", "compound", {"parts_left": 1}))
    for kind, variant, changes in variants:
        name = "/".join(p for p in (kind, variant, loadout) if p != "none")
        out.append(World(name, State(cards=pair, action=action(kind, **changes))))
    return out


def _turn_worlds(loadout: str, pair: tuple, a_feats) -> list[World]:
    """What happened earlier this turn: uses of a «X раз за ход» source (540.1.3), a marker an ally may take
    away (540.3.1 with 510.4)."""
    out = []
    # 540.1.3: a «X раз за ход» source that has used its feature this turn already (up to X, and beyond)
    # — by the feature it declares now, or (used-kin) by another feature of the same kind of game action
    for n in range(1, max((f.times or 0 for f in a_feats), default=0) + 1):
        for own, kin, tag in ((n, 0, f"used={n}"), (n - 1, 1, f"used={n}/kin")):
            used = (replace(pair[0], uses=uses_of("simple_strike", own, kin)), *pair[1:])
            name = "/".join(p for p in ("simple_strike", tag, loadout) if p != "none")
            out.append(World(name, State(cards=used, action=action("simple_strike"))))
    # 540.3.1 with 510.4 (A-lost-markers): a source under a marker limit that has acted once this turn
    # (one action marker), whose ally may take that marker away during the action
    if any(f.limit for f in a_feats):
        marked = (replace(pair[0], uses=uses_of("simple_strike", 1), action_markers=1), pair[1],
                  _card("allyA", (F("xa_unmark"),), wounds=0))
        name = "/".join(p for p in ("simple_strike", "marker-lost", loadout) if p != "none")
        out.append(World(name, State(cards=marked, action=action("simple_strike"))))
    return out


def _payment_worlds(pair: tuple) -> list[World]:
    """The payment loadout's worlds where a card's ally changes what the payment finds (512.7, 540.2)."""
    out = []
    drained = (pair[0].with_resource("crystal", 1), pair[1], _card("allyA", (F("xa_drain"),), wounds=0))
    out.append(World("spell/cost=1/crystal-lost/payment",
                     State(cards=drained, action=action("spell", (x_var("cost", chosen=1),)))))
    # A-closed-no-close: a compound strike whose source its ally may close before the second part
    shut = (*pair[:2], _card("allyA", (F("xa_close"),), wounds=0))
    out.append(World("simple_strike/compound/source-closed/payment",
                     State(cards=shut, action=action("simple_strike", parts_left=1))))
    # … and a source closed already, whose simple strike costs it «закрыться» (540.2)
    out.append(World("simple_strike/closed-source/payment",
                     State(cards=(replace(pair[0], closed=True), *pair[1:]), action=action("simple_strike"))))
    return out


def two_plays_worlds(rulebook) -> list[World]:
    """512.6.2/b2: a rulebook that turns on how many features a window played (``plays_at_least(N)``) gets
    the dice loadout with more rerolls and dice modifiers, searched with N plays per window (at least two,
    at most :data:`PLAYS_CAP`) whatever the bounds' ``plays=N``, so that both the reroll window and the
    dice-modifier window can play N features — for each kind of action.  With three plays or more the
    die of these worlds shows only its first two faces (each reroll multiplies the runs by the faces).
    No world for a rulebook that reads no such guard (or none given).

    >>> from ruleproof.generators.mutants import mutant_yaml
    >>> from ruleproof.model.rulebook import load_rulebook, load_rulebook_text
    >>> draft = load_rulebook_text(mutant_yaml("two-rerolls-no-dice-modifiers"), "draft.yaml")
    >>> two_plays_worlds(load_rulebook()), [w.name for w in two_plays_worlds(draft)]
    ([], ['simple_strike/defender/two-rerolls', 'attack/two-rerolls', 'spell/two-rerolls'])
    >>> [[f.id for f in c.features] for c in _plays_worlds((4,))[0].state.cards][:2]
    [['a_reroll', 'a_reroll2', 'a_plus', 'a_plus2', 'a_one'], ['b_reroll', 'b_reroll2', 'b_minus', 'b_minus2']]
    """
    return _plays_worlds(uses(rulebook).play_numbers) if rulebook is not None else []


#: the most plays per window the exhaustive search gives a world (a guard that reads more is searched with
#: this many: its exhaustive verdict is bounded below the guard's number, and the report says so)
PLAYS_CAP = 4
_COUNT_WORDS = {2: "two", 3: "three", 4: "four"}


def plays_searched(numbers: tuple[int, ...]) -> int:
    """Plays per window of the worlds of :func:`two_plays_worlds` for the guard numbers a rulebook reads
    (0: none read).

    >>> plays_searched(()), plays_searched((1,)), plays_searched((3,)), plays_searched((2, 9))
    (0, 2, 3, 4)
    """
    return min(max(2, *numbers), PLAYS_CAP) if numbers else 0


def _plays_worlds(numbers: tuple[int, ...]) -> list[World]:
    """The worlds of :func:`two_plays_worlds` for the ``plays_at_least`` numbers a rulebook reads (none: no world)."""
    n = plays_searched(numbers)
    if not n:
        return []
    # n rerolls and n dice modifiers in all (universe.plays_features), and the dice loadout's «если на
    # кубике выпало 1», which fires on the die's last value only
    more_a, more_b = plays_features(n)
    pair = (_card("src", (*more_a, F("a_one"))), _card("tgt", more_b, wounds=0))
    out = []
    for kind, defender in (("simple_strike", True), ("attack", False), ("spell", False)):
        cards = (*pair, _card("def", DEFENDERS.get("dice", ()))) if defender else pair
        name = "/".join(p for p in (kind, "defender" if defender else "", f"{_COUNT_WORDS[n]}-rerolls") if p)
        out.append(World(name, State(cards=cards, action=action(kind, defender=defender, magnitude_base=1)), plays=n,
                         faces=2 if n > 2 else 0))
    return out


def worlds_scope(rb, worlds: list[World]):
    """What bounded ``worlds`` cover of the combinations ``rb`` admits (:func:`~ruleproof.model.universe.scope`;
    the family's card ids are the roles).

    >>> from ruleproof.model.rulebook import load_rulebook
    >>> rb = load_rulebook()
    >>> s = worlds_scope(rb, bounded_worlds(1, None, rb))
    >>> 0 < s.covered < s.admitted
    True
    """
    return scope(rb, {(c.id, f) for w in worlds for c in w.state.cards for f in c.features})
