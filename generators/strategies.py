"""Hypothesis strategies for worlds: cards, features of every kind, game actions with every X kind.

Hypothesis's strength here is the *world*; the plays (dice, responses) are drawn step by step by the
game test (:mod:`.machine`).

>>> from hypothesis import find
>>> w = find(worlds(), lambda s: s.action.kind == "spell" and any(x.kind == "cost" for x in s.action.xs))
>>> w.action.kind, [x.kind for x in w.action.xs][:1]
('spell', ['cost'])
"""

from __future__ import annotations

import zlib
from dataclasses import replace

from hypothesis import strategies as st

from ruleproof.model.features import Effect, Feature
from ruleproof.model.menu import ACT, ACT_KIN, ACTION_X_KINDS, ATTACKS, KINDS, X_NAMES, action, card, uses_of, x_var
from ruleproof.model.state import Action, Card, State
from ruleproof.model.universe import aimed_feature, combos, plays_features
from ruleproof.model.vocabulary import FEATURE_KINDS

from .uses import Uses

__all__ = ["features", "cards", "actions", "worlds", "FEATURE_KINDS_ALL", "DEFENDER_KINDS", "X_KINDS_DRAWN", "TRIGGERS",
           "PER_TURN_TEXT", "TARGET_FLEES", "AIMED", "MISS_BLOCK", "AFTER_MISS",
           "MARKER_LIMIT_TEXT"]

FEATURE_KINDS_ALL = (*FEATURE_KINDS, "static_modifier", "resource_modifier")
X_KINDS_DRAWN = ACTION_X_KINDS


#: the trigger words drawn when no rulebook says which (those of the bundled one)
TRIGGERS = ("strike", "assault")


@st.composite
def features(draw, fid: str, kinds: tuple[str, ...] = FEATURE_KINDS_ALL, triggers: tuple[str, ...] = TRIGGERS) -> Feature:
    """One feature of any kind, with the parameters that kind uses (a trigger: one of ``triggers``)."""
    kind = draw(st.sampled_from(kinds))
    f = Feature(fid, kind)
    small = st.integers(1, 2)
    if kind == "dice_modifier":
        x = draw(st.none() | st.just(("property", "self", "movement")))
        return Feature(fid, kind, mode=draw(st.sampled_from(["add", "sub", "set"])),
                       amount=None if x else draw(small), x=x)
    if kind == "magnitude_modifier":
        x = draw(st.none() | st.sampled_from([("wounds", "target", ""), ("property", "source", "movement")]))
        return Feature(fid, kind, amount=None if x else draw(st.integers(-1, 2)), x=x)
    if kind == "reduce_to_strength":
        return Feature(fid, kind, strength=draw(st.sampled_from(["weak", "medium", "strong"])))
    if kind == "sudden_action":
        effect = draw(st.sampled_from([Effect("wound", "source", 1), Effect("wound", "target", 1),
                                       Effect("leave_zone", "source"), Effect("leave_zone", "target"),
                                       Effect("add_modifier", "source", 1, "movement"),
                                       # sudden changes of the board: a card closes, loses a resource or a marker
                                       Effect("close", "target"), Effect("lose_resource", "source", 1, "crystal"),
                                       Effect("lose_markers", "source", 1)]))
        return Feature(fid, kind, effects=(effect,))
    if kind == "effect_trigger":
        heal = draw(small)
        return Feature(fid, kind, trigger=draw(st.sampled_from(triggers)),
                       effects=(Effect("heal", "self", heal),), then_if_healthy=draw(st.sampled_from([(), ("close",)])))
    if kind == "after_ability":
        return Feature(fid, kind, on_status=draw(st.sampled_from(["any", "hit", "miss", "blocked", "illegal"])),
                       effects=(Effect("wound", "source", 1),))
    if kind == "payment_trigger":
        on = draw(st.sampled_from(["payment", "acts", "closes_after"]))
        return Feature(fid, kind, on=on, resources=draw(st.sampled_from([(), ("close",), ("crystal",)]))
                       if on == "payment" else ())
    if kind == "resource_modification":  # «не закрывается после этой атаки», with trigger words or none (540.4.1)
        return Feature(fid, kind, resources=("close",), modifies="self", trigger=draw(st.sampled_from(("", *triggers))),
                       action_marker=draw(st.booleans()))  # 540.3: its text may waive the action marker
    if kind == "die_trigger":  # «если на кубике выпало …» (512.6.2/b2)
        values = draw(st.lists(st.integers(1, 6), min_size=1, max_size=2, unique=True))
        return Feature(fid, kind, on_die=tuple(sorted(values)), effects=(Effect("heal", "self", 1),))
    if kind == "static_modifier":
        return Feature(fid, kind, amount=-1, condition=("source_at_least", "movement", draw(st.integers(1, 3))),
                       applies_to=ATTACKS)
    if kind == "resource_modifier":
        form = draw(st.sampled_from(["stays_open", "closes_only_after_assault", "per_turn"]))
        per_turn = form == "per_turn"  # 540.3.1's limit and 540.1.3's X (each may be absent)
        return Feature(fid, kind, form=form, resources=("close",),
                       limit=draw(st.sampled_from([None, 1, 2])) if per_turn else None,
                       times=draw(st.sampled_from([None, 1, 2])) if per_turn else None, action_marker=draw(st.booleans()))
    return f  # reroll, protection, prevention, replacement, block: no parameters


#: the id of the «X раз за ход» text a world now and then gives its source (:func:`worlds`)
PER_TURN_TEXT = "src_per_turn"
#: the id of the sudden action by which a world's target now and then leaves the active zone (542.3)
TARGET_FLEES = "tgt_flees"
#: the ids of a block the target's side holds and of the source's «после промаха», given now and then where a
#: window reads the last status only (``after_status: last``: a block replaces the miss, 512.6.6/b2)
MISS_BLOCK, AFTER_MISS = "tgt_block", "src_after_miss"
#: the id of a feature aimed at one combination of the universe
AIMED = "aimed"
#: the id of the «после 1-й … не закрывается» text (540.3.1) a source gets when a feature aimed at it takes markers
MARKER_LIMIT_TEXT = "src_marker_limit"
#: the features a world of an aimed round holds, each made for a combination not yet played
AIMS_PER_WORLD = 4


def _nth(fid: str, i: int) -> str:
    """The id of the ``i``-th (from 0) of several such features: ``fid``, then ``fid_2``, ``fid_3``…"""
    return fid if i == 0 else f"{fid}_{i + 1}"


#: the feature kinds a defender is drawn with: any, the triggered ones four times as often (540.4.1 speaks of
#: a defender's «on strike»/«on assault» on its return strike, which a uniform draw seldom plays)
DEFENDER_KINDS = (*FEATURE_KINDS_ALL, *("effect_trigger",) * 4)


@st.composite
def cards(draw, cid: str, n_features: int = 2, kinds: tuple[str, ...] = FEATURE_KINDS_ALL,
          triggers: tuple[str, ...] = TRIGGERS, least: int = 0) -> Card:
    """A card of role ``cid`` (``menu.ROLES``) with drawn printed values and features of ``kinds``."""
    health, movement, named_power = draw(st.integers(3, 6)), draw(st.integers(0, 3)), draw(st.integers(0, 2))
    medium, strong, weak = draw(st.integers(1, 3)), draw(st.integers(2, 4)), draw(st.integers(0, 2))
    movement_mod = draw(st.integers(-1, 1))
    feats = tuple(draw(features(f"{cid}_f{i}", kinds, triggers)) for i in range(draw(st.integers(least, n_features))))
    # its uses earlier this turn: around a «X раз за ход» text's X when it has one (this use the X-th, the
    # last spared, or beyond X — 540.1.3), else 0..2 — the action's feature's, or one of them another
    # feature's (540.1.3 counts the card's game actions of the text's kinds, whichever feature declared them)
    times = [f.times for f in feats if f.times]
    used = draw(st.sampled_from([0, times[0] - 1, times[0]]) if times else st.integers(0, 2))
    kin = draw(st.integers(0, min(used, 1)))
    return card(cid, feats, health=health, movement=movement, movement_mod=movement_mod, named_power=named_power,
                strikes=(weak, medium, strong), wounds=draw(st.integers(0, 2)), markers=draw(st.integers(0, 1)),
                crystals=draw(st.integers(0, 3)), uses=((ACT, used - kin), (ACT_KIN, kin)))


def _keyed(c: Card, kind: str) -> Card:
    """The card with the uses drawn before its action's ``kind`` was (counts of ``ACT`` and ``ACT_KIN``) keyed as
    :func:`~ruleproof.model.menu.uses_of` keys them: game actions of that kind."""
    drawn = dict(c.uses)
    return replace(c, uses=uses_of(kind, drawn.get(ACT, 0), drawn.get(ACT_KIN, 0)))


@st.composite
def actions(draw, has_defender: bool, crystals: int = 3, cost_x: int | None = None) -> Action:
    """The source's action; a cost-X is mostly within the source's ``crystals`` (542.2: a player names it
    from what the card has), now and then above them (a declaration 540.2 refuses); ``cost_x``: the action
    has a cost-X of that value."""
    # a defender stands against an attack (and strikes back in a fight by simple strike: 512.6.2/b4.1)
    kind = draw(st.sampled_from(ATTACKS if has_defender else KINDS))
    xs = []
    x_kinds = draw(st.lists(st.sampled_from(X_KINDS_DRAWN), unique=True, max_size=2))
    magnitude_kinds = [k for k in x_kinds if k.startswith("magnitude") or k == "implicit"]
    x_kinds = [k for k in x_kinds if k not in magnitude_kinds[1:]]  # one magnitude X at most
    if cost_x is not None and "cost" not in x_kinds:
        x_kinds.append("cost")
    for k in x_kinds:
        x = _x_of(draw, k, kind, crystals, cost_x)
        if x is not None:
            xs.append(x)
    magnitude_x = any(x.name == X_NAMES["magnitude_chosen"] for x in xs)
    effect = draw(st.sampled_from(["damage", "heal"])) if kind not in ATTACKS else "damage"
    needs_magnitude = True if kind in ATTACKS else draw(st.booleans())
    base = None if magnitude_x or kind in ATTACKS else draw(st.integers(0, 3))
    # 542.3: the player chooses exactly X targets — a second one is the target's ally
    n = next((x.chosen for x in xs if x.kind == "targets"), 1)
    return action(kind, xs, defender=has_defender and kind in ATTACKS, magnitude_base=base, effect=effect,
                  needs_magnitude=needs_magnitude, parts_left=draw(st.integers(0, 1)), targets=("tgt", "allyB")[:n])


def _x_of(draw, k: str, kind: str, crystals: int, cost_x: int | None):
    """An X of kind ``k`` for an action of ``kind`` (None: an attack has no magnitude X)."""
    if k == "cost" and cost_x is not None:
        return x_var("cost", chosen=cost_x)
    if k == "cost":
        over = draw(st.integers(0, 3)) == 0
        return x_var("cost", chosen=draw(st.integers(crystals + 1, crystals + 2) if over else st.integers(0, crystals)))
    if k == "targets":
        return x_var("targets", chosen=draw(st.integers(1, 2)))
    if k == "magnitude_chosen" and kind not in ATTACKS:
        return x_var("magnitude_chosen", chosen=draw(st.integers(0, 3)))
    if k in ("magnitude_computed", "implicit") and kind not in ATTACKS:
        compute = draw(st.sampled_from([("wounds", "source", ""), ("property", "target", "movement"),
                                        ("resource", "source", "crystal"), ("wounds", "target", "")]))
        return x_var(k, compute=compute)
    return None


def _spread(cs) -> int:
    """A number read off the cards drawn so far (their values and features): added to a drawn index, it
    spreads the aims of the examples over the list — Hypothesis draws an index of 0 in a large share of
    its examples, which would aim them all at one combination — and stays the same when an example is
    replayed (the cards are drawn from the same data)."""
    return zlib.crc32(repr([(c.id, c.printed, c.modifiers, c.wounds, c.action_markers, c.resources,
                             [f.id for f in c.features]) for c in cs]).encode())


def _aim(cs: list, aim, at: int, fid: str) -> list:
    """``cs`` with card ``at`` holding a feature ``fid`` made for combination ``aim``, and the card it
    touches given something to act on: a marker to lose (on the source, with 540.3.1's limit, which reads
    the markers), a crystal, a wound to heal."""
    cs = list(cs)
    cs[at] = replace(cs[at], features=(*cs[at].features, aimed_feature(aim, cs[at].id, fid)))
    touched = next((i for i, c in enumerate(cs) if c.id == aim.role), None)
    if touched is not None:
        c = cs[touched]
        if aim.effect == "lose_markers" and c.id == "src" and not any(f.limit for f in c.features):
            # «может атаковать 2 раза за ход, после 1-й атаки не закрывается», this its second use (540.1.3)
            c = replace(c, features=(*c.features, Feature(MARKER_LIMIT_TEXT, "resource_modifier", form="per_turn",
                                                          resources=("close",), times=2, limit=1)),
                        uses=((ACT, 1),))
        if aim.effect == "lose_markers":
            c = replace(c, action_markers=max(c.action_markers, 1))
        elif aim.effect == "lose_resource":
            c = c.with_resource("crystal", max(c.resource("crystal"), 1))
        elif aim.effect == "heal":
            c = replace(c, wounds=max(c.wounds, 1))
        cs[touched] = c
    return cs


@st.composite
def worlds(draw, used: Uses | None = None, aims: tuple = ()) -> State:
    """A source (player A), a target (B), maybe a defender (B), an ally of each side; an action.

    ``aims``: combinations of the universe (:mod:`ruleproof.model.universe`) not yet played — every world
    is then aimed at one of them (else one world in three at any the rulebook admits).
    ``used``: what the rulebook under test uses (:func:`~.uses.uses`).  Each world then draws a *focus*
    of up to two of its windows, and every card draws the feature kinds those windows admit (and those
    that make a guard the rulebook reads hold) more often than the rest — so that a situation one window
    or guard makes (a block against a resource-modified action, an X dice modifier played) comes up
    in a few hundred examples; the trigger words are the rulebook's.
    """
    kinds: tuple[str, ...] = FEATURE_KINDS_ALL
    defender_kinds: tuple[str, ...] = DEFENDER_KINDS
    triggers: tuple[str, ...] = TRIGGERS
    if used is not None:
        focus = draw(st.lists(st.sampled_from(used.windows), max_size=2, unique=True), label="focus")
        favoured = tuple(k for _, allows in focus for k in allows) + used.guarded_kinds
        kinds, defender_kinds = favoured * 2 + FEATURE_KINDS_ALL, favoured + DEFENDER_KINDS
        triggers = used.triggers or TRIGGERS
    has_defender = draw(st.booleans())
    cs = [draw(cards(role, kinds=kinds, triggers=triggers)) for role in ("src", "tgt", "allyA", "allyB")]
    _now_and_then(draw, cs, used)
    cost_x = _cost_x(draw, cs, used)
    plays_world = _plays_world(draw, cs, used)
    if used is not None and not plays_world:
        cs = _aimed(draw, cs, used, aims, has_defender)
    if has_defender:
        cs.append(draw(cards("def", kinds=defender_kinds, triggers=triggers, least=1)))  # a defender that can respond
    seen: set[str] = set()
    for c in cs:  # feature ids are unique per card already; keep them unique overall
        assert not seen & {f.id for f in c.features}
        seen |= {f.id for f in c.features}
    act = draw(actions(has_defender, cs[0].resource("crystal"), cost_x))
    return State(cards=tuple(_keyed(c, act.kind) for c in cs), action=act)


def _now_and_then(draw, cs: list, used: Uses | None) -> None:
    """Now and then (in place): a closed target, a source at its «X раз за ход», a miss then blocked (a rulebook
    whose «после …» reads the last status), a target that can leave the active zone."""
    if draw(st.integers(0, 7)) == 0:  # now and then a closed target (512.6.2/b4.2: a strike at it is no fight)
        cs[1] = replace(cs[1], closed=True)
    if draw(st.integers(0, 7)) == 0:  # now and then a source whose «X раз за ход» is at its X (540.1.3)
        times = draw(st.integers(1, 2))
        text = Feature(PER_TURN_TEXT, "resource_modifier", form="per_turn", resources=("close",), times=times)
        n = draw(st.sampled_from([times, times - 1]))  # this use beyond X first: Hypothesis favours the first
        kin = draw(st.integers(0, min(n, 1)))  # one of them, now and then, by another feature of the same kind
        cs[0] = replace(cs[0], features=(*cs[0].features, text), uses=((ACT, n - kin), (ACT_KIN, kin)))
    if used is not None and used.after_last and draw(st.integers(0, 2)) == 0:
        # a rulebook whose «после …» reads the last status: a miss that is then blocked, one world in three
        cs[1] = replace(cs[1], features=(*cs[1].features, Feature(MISS_BLOCK, "block")))
        cs[0] = replace(cs[0], features=(*cs[0].features, Feature(AFTER_MISS, "after_ability", on_status="miss",
                                                                  effects=(Effect("wound", "source", 1),))))
    if draw(st.integers(0, 7)) == 0:  # now and then a target that can leave the active zone (542.3: not re-checked)
        cs[1] = replace(cs[1], features=(*cs[1].features, Feature(TARGET_FLEES, "sudden_action",
                                                                  effects=(Effect("leave_zone", "self"),))))


def _cost_x(draw, cs: list, used: Uses | None) -> int | None:
    """The cost-X of the action (None: none chosen here)."""
    cost_x = None
    if used is not None and used.cost_numbers and draw(st.integers(0, 2)) == 0:
        # a rulebook that turns on «X ≥ N» (cost_x_at_least): a cost-X at N or just below it, which the
        # source has the crystals for (542.2), one world in three
        n = draw(st.sampled_from(used.cost_numbers))
        cost_x = draw(st.sampled_from(sorted({max(n - 1, 0), n})))
        if cs[0].resource("crystal") < cost_x:
            cs[0] = cs[0].with_resource("crystal", cost_x)
    return cost_x


def _plays_world(draw, cs: list, used: Uses | None) -> bool:
    """Whether this is a world of many plays per window (the features added in place)."""
    plays_world = bool(used is not None and used.play_numbers and draw(st.integers(0, 2)) == 0)
    if plays_world and used is not None:
        # a rulebook that turns on how many features a window played (512.6.2/b2: «после разрешения всех таких
        # особенностей»): N rerolls for one window and N dice modifiers for the next, N one of the numbers it
        # reads (at least two), the source's side holding the odd one — one world in three
        n = max(2, draw(st.sampled_from(used.play_numbers)))
        for at, side in enumerate(plays_features(n)):  # the same features as the explorer's worlds
            cs[at] = replace(cs[at], features=(*cs[at].features, *side))
    return plays_world


def _aimed(draw, cs: list, used: Uses, aims: tuple, has_defender: bool) -> list:
    """A world aimed at combinations of the universe: each of ``aims`` (an aimed round) or, one world in three,
    one the rulebook admits."""
    if aims:
        # an aimed round (model/universe.py): every world holds AIMS_PER_WORLD features, each made for a combination not
        # yet played (an index over all of them, not an effect first: each is as likely), held by any card
        every = sorted(c for c in aims if has_defender or c.role != "def") \
            or sorted(c for c in combos(used.windows) if c.role != "def")
        spread = _spread(cs)
        for k in range(AIMS_PER_WORLD):
            i = (draw(st.integers(0, len(every) - 1), label="aim") + spread * (k + 1)) % len(every)
            cs = _aim(cs, every[i], draw(st.integers(0, len(cs) - 1)), _nth(AIMED, k))
    elif draw(st.integers(0, 2)) == 0:
        # one world in three (not one with many rerolls) holds a feature made for one combination the rulebook
        # admits — an effect first, then the card it touches, then the kind and window — held by any card
        every = sorted(c for c in combos(used.windows) if has_defender or c.role != "def")
        effect = draw(st.sampled_from(sorted({c.effect for c in every})), label="aim-effect")
        role = draw(st.sampled_from(sorted({c.role for c in every if c.effect == effect})), label="aim-role")
        aim = draw(st.sampled_from([c for c in every if c.effect == effect and c.role == role]), label="aim")
        cs = _aim(cs, aim, draw(st.integers(0, len(cs) - 1)), AIMED)
    return cs
