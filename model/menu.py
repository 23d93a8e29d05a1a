"""The world menu: the finite family of worlds the Z3 model quantifies over, and its concrete form.

A symbolic world is a valuation of the world variables (``WORLD_DOMAINS``: the action's kind, its X
kinds, a defender, card values, the 540.1 texts the source and the defender may carry) and one bit
per option of ``OPTIONS`` (a feature a card may hold).  :func:`world_state` maps any valuation back
to the concrete :class:`~ruleproof.model.state.State` the interpreter plays, :func:`world_of` a
concrete world of the menu to its valuation, and :func:`menu_world` draws one (the conformance
check and the tests draw their worlds here).

>>> import random
>>> rng = random.Random(0)
>>> s = world_state(menu_world(rng.choice, lambda: rng.random() < 0.5))
>>> s.action.source, world_of(s) is not None
('src', True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .features import Feature
from .state import Action, Card, State, XVar, use_key
from .universe import feature, scope
from .vocabulary import ATTACKS, X_KINDS, parse_guard

__all__ = ["KINDS", "ATTACKS", "COST_ENTRIES", "X_KINDS_SYM", "ACTION_X_KINDS", "ROLES", "X_NAMES", "card", "x_var", "action", "MAGX", "RM_FORMS", "Option", "OPTIONS", "NOPT", "OPT_INDEX", "WORLD_DOMAINS",
           "menu_world", "WORLD_RULES", "WorldRule", "resource_modifier", "world_state", "world_of", "ACT", "ACT_KIN", "uses_of", "GUARD_CONDITIONS", "DEF_MOVEMENT",
           "src_guard", "SRC_GUARD_CONDITION", "beyond_menu", "menu_scope"]

KINDS = ("simple_strike", "attack", "spell", "effect")
#: the id of the feature the menu's action is declared with (540.1.3 counts its uses in a turn)
ACT = "act"
#: another feature of the source's, used earlier in the turn as a game action of the same kind (540.1.3:
#: «Может атаковать X раз за ход» counts the card's attacks, whichever feature declared them)
ACT_KIN = "act_kin"
#: the X kinds of 542 (the vocabulary's, in its order)
X_KINDS_SYM = tuple(X_KINDS)
#: the X kinds an action itself may carry (a dice or magnitude modifier's X belongs to a feature)
ACTION_X_KINDS = ("cost", "targets", "magnitude_chosen", "magnitude_computed", "implicit")
#: the cards a world is made of, by role, and who controls each (A is the active player)
ROLES = {"src": "A", "tgt": "B", "allyA": "A", "allyB": "B", "def": "B"}
#: the name each X of an action goes by (a cost-X is also the amount of its crystal cost, 542.2)
X_NAMES = {"cost": "X_cost", "targets": "X_targets", "magnitude_chosen": "X_mag", "magnitude_computed": "X_mag",
           "implicit": "X_mag"}


#: what an action of the menu costs (542.2, 540.2): (card, resource, amount or X name, when it is there) —
#: closing the source, closing a defender (A-defender-closes: its return strike is part of a simple strike), a cost-X in crystals
COST_ENTRIES = (("src", "close", "1", "always"), ("def", "close", "1", "defender"),
                ("src", "crystal", X_NAMES["cost"], "cost_x"))


def uses_of(kind: str, own: int = 0, kin: int = 0) -> tuple[tuple[str, int], ...]:
    """The source's uses this turn before its action of ``kind`` (540.1.3): ``own`` of its feature ``ACT``,
    ``kin`` of another feature (``ACT_KIN``) declared as a game action of the same kind.

    >>> uses_of("attack", 1, 1)
    (('act@attack', 1), ('act_kin@attack', 1))
    """
    return tuple((use_key(f, kind), n) for f, n in ((ACT, own), (ACT_KIN, kin)) if n)


def card(cid: str, features=(), *, health: int = 5, movement: int = 1, movement_mod: int = 0, named_power: int = 1,
         strikes: tuple[int, int, int] = (1, 2, 3), wounds: int = 0, markers: int = 0, crystals: int = 0,
         uses: tuple[tuple[str, int], ...] = (), closed: bool = False) -> Card:
    """A card of role ``cid`` (``ROLES``): its printed properties (``strikes``: weak, medium, strong simple
    strike), a modifier of its movement allowance kept apart from them (542.6), one «close» resource,
    ``crystals`` crystals, ``uses``: its per-turn uses of features before this action (540.1.3), and
    whether it is ``closed`` already (540.2: a closed card no longer has its closing).

    >>> c = card("def", wounds=1)
    >>> c.controller, c.printed_value("strike_strong"), c.resource("close"), c.wounds
    ('B', 3, 1, 1)
    """
    weak, medium, strong = strikes
    printed = (("health", health), ("movement", movement), ("named_power", named_power), ("strike_medium", medium),
               ("strike_strong", strong), ("strike_weak", weak))
    return Card(cid, cid, ROLES[cid], printed=printed, modifiers=(("movement", movement_mod),), wounds=wounds,
                action_markers=markers, resources=(("close", 1), ("crystal", crystals)), features=tuple(features),
                uses=tuple(sorted((f, n) for f, n in uses if n)), closed=closed)


def x_var(kind: str, chosen: int | None = None, compute: tuple[str, str, str] | None = None) -> XVar:
    """An X of the action of kind ``kind``: named by the player (``chosen``) or computed (``compute``)."""
    return XVar(X_NAMES[kind], kind, chosen=chosen, compute=compute)


def action(kind: str, xs=(), *, defender: bool = False, magnitude_base: int | None = 1,
           targets: tuple[str, ...] = ("tgt",), **fields) -> Action:
    """The acting card's game action on ``targets``: it closes the source (and a defender, who strikes
    back in a fight by simple strike: 512.6.2/b4.1) and a cost-X is paid in crystals (542.2).  Without an X
    of the magnitude, a spell or an effect has ``magnitude_base``; an attack's comes from the strike."""
    xs = tuple(xs)
    present = {"always": True, "defender": defender, "cost_x": any(x.kind == "cost" for x in xs)}
    cost = [(c, r, amount) for c, r, amount, when in COST_ENTRIES if present[when]]
    magnitude_x = any(x.kind in ("magnitude_chosen", "magnitude_computed", "implicit") for x in xs)
    return Action(feature=ACT, kind=kind, source="src", targets=tuple(targets), defender="def" if defender else None,
                  magnitude_base=None if magnitude_x or kind in ATTACKS else magnitude_base, xs=xs, cost=tuple(cost),
                  **fields)
MAGX = (None, "magnitude_chosen", "magnitude_computed", "implicit")
RM_FORMS = (None, "stays_open", "closes_only_after_assault", "per_turn")


def resource_modifier(card: str, form: str, limit: int, action_marker: bool = True, times: int = 0) -> Feature:
    """The 540.1 text of form ``form`` the menu may give ``card`` (src or def): it spares the card's
    closing; ``limit`` (540.3.1) and ``times`` (540.1.3's X) count only for ``per_turn``, 0 for none;
    ``action_marker`` False: the text says the card gets no action marker (540.3)."""
    per_turn = form == "per_turn"
    return Feature(f"{card}_rm", "resource_modifier", form=form, resources=("close",),
                   limit=limit or None if per_turn else None, times=times or None if per_turn else None,
                   action_marker=action_marker)


@dataclass(frozen=True)
class Option:
    """One feature of the finite menu: the card that holds it and the feature."""

    card: str
    feature: Feature

    @property
    def player(self) -> str:
        return "A" if self.card in ("src", "allyA") else "B"

    @property
    def needs_defender(self) -> bool:
        """Held only in a world with a defender: the defender's own, or one whose text names it."""
        return self.card == "def" or any(e.card == "defender" for e in self.feature.effects)


#: the menu of features a symbolic world may hold (each present or not): (the role of the card holding it,
#: the feature's id in :data:`~.universe.FEATURES`, where its one body is)
MENU: tuple[tuple[str, str], ...] = (
    ("src", "a_reroll"),
    ("tgt", "b_reroll"),
    ("src", "a_six"),
    ("src", "a_dmod"),
    ("src", "a_dmodx"),
    ("tgt", "b_dmod"),
    ("src", "a_mmodx"),
    ("tgt", "b_mmod"),
    ("tgt", "b_reduce"),
    ("tgt", "b_leave"),
    ("tgt", "b_flee"),
    ("src", "a_boost"),
    ("tgt", "b_protect"),
    ("tgt", "b_prevent"),
    ("allyB", "b_replace"),
    ("tgt", "b_block"),
    ("src", "a_assault"),
    ("src", "a_strike"),
    ("def", "d_strike"),
    ("def", "d_assault"),
    ("src", "a_after"),
    ("tgt", "b_after_ill"),
    ("src", "a_after_def"),
    ("src", "a_paid"),
    ("src", "a_paid_crystal"),
    ("def", "d_paid"),
    ("src", "a_acts"),
    ("src", "a_closes"),
    ("src", "a_resmod"),
    ("src", "a_resmod_no_marker"),
    ("def", "d_resmod_strike"),
    ("def", "d_resmod_assault"),
    ("allyA", "xa_unmark"),
    ("allyA", "xa_drain"),
    ("src", "a_after_miss"),
)
OPTIONS: tuple[Option, ...] = tuple(Option(role, feature(fid)) for role, fid in MENU)
NOPT = len(OPTIONS)
OPT_INDEX = {o.feature.id: i for i, o in enumerate(OPTIONS)}

#: the world variables and their finite domains (as in generators/strategies.py)
WORLD_DOMAINS: dict[str, tuple[int, ...]] = {
    "w_kind": (0, 1, 2, 3), "w_has_defender": (0, 1), "w_needs_magnitude": (0, 1), "w_cost_x": (0, 1), "w_cost_x_value": (0, 1, 2, 3, 4),
    "w_targets_x": (0, 1), "w_magnitude_x": (0, 1, 2, 3), "w_magnitude_x_reads_property": (0, 1), "w_parts_left": (0, 1), "w_src_movement": (0, 1, 2, 3),
    "w_src_movement_mod": (-1, 0, 1), "w_tgt_movement": (0, 1, 2, 3), "w_tgt_movement_mod": (-1, 0, 1), "w_src_crystals": (0, 1, 2, 3),
    "w_src_markers": (0, 1), "w_def_markers": (0, 1), "w_def_wounds": (0, 1, 2), "w_src_rm_form": (0, 1, 2, 3), "w_src_rm_limit": (0, 1, 2),
    "w_src_rm_no_marker": (0, 1), "w_src_rm_times": (0, 1, 2), "w_src_uses": (0, 1, 2), "w_src_uses_kin": (0, 1),
    "w_src_closed": (0, 1),
    "w_def_rm_form": (0, 1, 2, 3), "w_def_rm_limit": (1, 2), "w_tgt_guard_threshold": (0, 1, 2, 3),
    "w_tgt_guard_at_most": (0, 1), "w_src_guard_threshold": (0, 1, 2, 3),
}
#: how a sampler (:func:`menu_world`) weighs a world variable's values where not evenly: a closed source is
#: drawn one world in eight (its action is mostly refused at declaration, 540.2, so such runs are short)
SAMPLED: dict[str, tuple[int, ...]] = {"w_src_closed": (0,) * 7 + (1,)}
#: the defender's printed movement (it carries no modifier): what the source's guard reads on a return
#: strike (512.6.2/b4.1.4: the defender is then the attacking creature)
DEF_MOVEMENT = 1


def src_guard(threshold: int) -> Feature:
    """The source's Серк-like text «−1 от атак существ с ``threshold`` или больше» (542.6/ex1): it
    applies to the defender's return strike, where the roles are swapped (512.6.2/b4.1.4)."""
    return Feature("src_guard", "static_modifier", amount=-1, condition=(SRC_GUARD_CONDITION, "movement", threshold),
                   applies_to=("simple_strike", "attack"))
#: the target guard's condition word, by ``w_tgt_guard_at_most``
GUARD_CONDITIONS = ("source_at_least", "source_at_most")
#: the source guard's condition word (Серк's «… или больше»)
SRC_GUARD_CONDITION = GUARD_CONDITIONS[0]


@dataclass(frozen=True)
class WorldRule:
    """A rule of the menu's worlds, stated once: where variable ``var`` takes one of ``values`` (or, with
    ``negate``, none of them), the variables of ``then`` take those values.  :func:`menu_world` mends a
    drawn valuation by it; the Z3 system's ``init`` states it as an implication."""

    var: str
    values: tuple[int, ...]
    then: dict
    negate: bool = False

    def applies(self, v: dict) -> bool:
        return (v[self.var] in self.values) != self.negate


_ATTACK = (0, 1)  # the menu's attack kinds (KINDS: simple_strike, attack)
#: the rules of the menu's worlds, in the order :func:`menu_world` mends by them
WORLD_RULES: tuple[WorldRule, ...] = (
    WorldRule("w_kind", _ATTACK, {"w_has_defender": 0}, negate=True),  # a defender stands against an attack
    WorldRule("w_kind", _ATTACK, {"w_needs_magnitude": 1, "w_magnitude_x": 0}),  # an attack's magnitude: its strike
    WorldRule("w_magnitude_x", (2,), {"w_magnitude_x_reads_property": 0}, negate=True),
    WorldRule("w_src_rm_form", (3,), {"w_src_rm_limit": 0, "w_src_rm_times": 0, "w_src_uses_kin": 0},
              negate=True),  # per_turn only
    WorldRule("w_src_rm_form", (0,), {"w_src_rm_no_marker": 0}),
    WorldRule("w_has_defender", (0,), {"w_def_rm_form": 0, "w_def_markers": 0, "w_def_wounds": 0}),
    WorldRule("w_def_rm_form", (3,), {"w_def_rm_limit": 1}, negate=True),
    WorldRule("w_tgt_guard_threshold", (0,), {"w_tgt_guard_at_most": 0}),
    # a defender's own feature, or one whose text names the defender, only where there is one
    *(WorldRule("w_has_defender", (0,), {f"w_holds{i}": 0}) for i, o in enumerate(OPTIONS) if o.needs_defender),
)


def menu_world(pick: Callable, coin: Callable) -> dict[str, int]:
    """A valuation of the world variables drawn from the menu: ``pick(domain)`` chooses a value of each
    of ``WORLD_DOMAINS`` (weighed by ``SAMPLED``), ``coin()`` whether each option is held; what ``init`` rules out is mended
    (a defender only against an attack, …).  Signed values are stored in their bit-vector form.

    >>> import random
    >>> rng = random.Random(0)
    >>> w = menu_world(rng.choice, lambda: rng.random() < 0.5)
    >>> w["w_has_defender"] == 0 or w["w_kind"] in (0, 1)
    True
    """
    v = {n: pick(SAMPLED.get(n, dom)) for n, dom in WORLD_DOMAINS.items()}
    v.update({f"w_holds{i}": int(coin()) for i in range(NOPT)})
    for r in WORLD_RULES:  # in order: a later rule reads what an earlier one mended
        if r.applies(v):
            v.update(r.then)
    return {n: (x & 0xFF if n in ("w_src_movement_mod", "w_tgt_movement_mod") else x) for n, x in v.items()}


def _signed(v: int, w: int) -> int:
    return v - (1 << w) if v >= 1 << (w - 1) else v


def world_state(values: dict[str, int]) -> State:
    """The concrete world (cards, features, the action) a valuation of the world variables stands for."""
    v = {n: (_signed(x, 8) if n in ("w_src_movement_mod", "w_tgt_movement_mod") else x) for n, x in values.items()}
    has = v["w_holds"] if "w_holds" in v else sum(v[f"w_holds{i}"] << i for i in range(NOPT))
    feats: dict[str, list[Feature]] = {c: [] for c in ("src", "tgt", "allyA", "allyB", "def")}
    for i, o in enumerate(OPTIONS):
        if has >> i & 1:
            feats[o.card].append(o.feature)
    src_form, def_form = RM_FORMS[v["w_src_rm_form"]], RM_FORMS[v["w_def_rm_form"]]
    if src_form is not None:
        feats["src"].append(resource_modifier("src", src_form, v["w_src_rm_limit"],
                                              not v.get("w_src_rm_no_marker", 0), v.get("w_src_rm_times", 0)))
    if def_form is not None:
        feats["def"].append(resource_modifier("def", def_form, v["w_def_rm_limit"]))
    if v["w_tgt_guard_threshold"]:
        feats["tgt"].append(Feature("tgt_guard", "static_modifier", amount=-1,
                                    condition=(GUARD_CONDITIONS[v.get("w_tgt_guard_at_most", 0)], "movement",
                                               v["w_tgt_guard_threshold"]),
                                    applies_to=("simple_strike", "attack")))
    if v.get("w_src_guard_threshold"):
        feats["src"].append(src_guard(v["w_src_guard_threshold"]))

    kind = KINDS[v["w_kind"]]
    uses = uses_of(kind, v.get("w_src_uses", 0), v.get("w_src_uses_kin", 0))
    cards = [card("src", feats["src"], movement=v["w_src_movement"], movement_mod=v["w_src_movement_mod"],
                  markers=v["w_src_markers"], crystals=v["w_src_crystals"], uses=uses,
                  closed=bool(v.get("w_src_closed", 0))),
             card("tgt", feats["tgt"], movement=v["w_tgt_movement"], movement_mod=v["w_tgt_movement_mod"]),
             card("allyA", feats["allyA"]), card("allyB", feats["allyB"])]
    hasdef = bool(v["w_has_defender"])
    if hasdef:
        cards.append(card("def", feats["def"], movement=DEF_MOVEMENT, wounds=v["w_def_wounds"], markers=v["w_def_markers"]))
    xs = []
    if v["w_cost_x"]:
        xs.append(x_var("cost", chosen=v["w_cost_x_value"]))
    if v["w_targets_x"]:
        xs.append(x_var("targets", chosen=1))
    magx = MAGX[v["w_magnitude_x"]]
    if magx == "magnitude_chosen":
        xs.append(x_var(magx, chosen=2))
    elif magx:
        compute = ("property", "target", "movement") if v["w_magnitude_x_reads_property"] else ("wounds", "source", "")
        xs.append(x_var(magx, compute=compute))
    act = action(kind, xs, defender=hasdef, needs_magnitude=bool(v["w_needs_magnitude"]), parts_left=v["w_parts_left"])
    return State(cards=tuple(cards), action=act)


def world_of(state: State) -> dict[str, int] | None:
    """The world variables of a concrete world built by :func:`world_state` (None: not in the menu)."""
    try:
        src, tgt = state.card("src"), state.card("tgt")
    except KeyError:
        return None
    has = _holds_bits(state)
    assert state.action is not None, "a world of the menu is one during its action"
    d = state.card("def") if state.action.defender is not None else None
    texts = _menu_texts(state, src, d)
    if has is None or texts is None or not _menu_action(state.action):
        return None
    uses = _menu_uses(src, state.action, texts[0])
    if uses is None:
        return None
    return {**_action_vars(state.action), **_card_vars(src, tgt, d), **_text_vars(*texts), "w_src_uses": uses[0],
            "w_src_uses_kin": uses[1], **{f"w_holds{i}": has >> i & 1 for i in range(NOPT)}}


def _holds_bits(state: State) -> int | None:
    """Bit i: the world holds option i of the menu, on its card (None: a feature of the menu on another card)."""
    ids = {f.id: c.id for c in state.cards for f in c.features}
    has = 0
    for fid, cid in ids.items():
        if fid in OPT_INDEX:
            if OPTIONS[OPT_INDEX[fid]].card != cid:
                return None
            has |= 1 << OPT_INDEX[fid]
    return has


def _menu_texts(state: State, src, d) -> tuple | None:
    """(the source's 540.1 text, the defender's, the target's guard, the source's guard) as the menu holds them
    (None: a defender or a source text the menu does not stand for)."""
    def named(card, fid):
        return next((f for f in card.features if f.id == fid), None) if card else None

    sg = named(src, "src_guard")
    if d is not None and (d.printed_value("movement") != DEF_MOVEMENT or d.current_value("movement") != DEF_MOVEMENT):
        return None
    if sg is not None and sg != src_guard(sg.condition[2] if sg.condition else 0):
        return None  # a source text the menu's guard does not stand for
    return named(src, "src_rm"), named(d, "def_rm"), named(state.card("tgt"), "tgt_guard"), sg


def _menu_action(a) -> bool:
    """The action is the menu's: its one feature on its one target, a target-count X of 1 (542.3: as many as its
    targets), an X of the magnitude the menu computes (not a bare X, a count or a resource)."""
    if a.feature != ACT or a.targets != ("tgt",):
        return False
    x = {xv.kind: xv for xv in a.xs}
    if "targets" in x and x["targets"].chosen != 1:
        return False
    magx = _magnitude_x(a)
    return a.magnitude_x is None and not (magx and x[MAGX[magx]].compute not in (
        None, ("property", "target", "movement"), ("wounds", "source", "")))


def _magnitude_x(a) -> int:
    kinds = {xv.kind for xv in a.xs}
    return next((i for i, k in enumerate(MAGX) if k and k in kinds), 0)


def _menu_uses(src, a, rs) -> tuple[int, int] | None:
    """(the source's earlier uses of the action's feature, the other uses a per-turn text counts — those of its
    kinds, 540.1.3), None beyond the menu's domains."""
    own = src.used(ACT, a.kind)
    kin = src.used_kinds(rs.applies_to) - (own if a.kind in rs.applies_to else 0) if rs and rs.form == "per_turn" else 0
    if own > max(WORLD_DOMAINS["w_src_uses"]) or kin > max(WORLD_DOMAINS["w_src_uses_kin"]):
        return None
    return own, kin


def _action_vars(a) -> dict[str, int]:
    x = {xv.kind: xv for xv in a.xs}
    magx = _magnitude_x(a)
    return {"w_kind": KINDS.index(a.kind), "w_has_defender": int(a.defender is not None),
            "w_needs_magnitude": int(a.needs_magnitude), "w_cost_x": int("cost" in x),
            "w_cost_x_value": x["cost"].chosen if "cost" in x else 0, "w_targets_x": int("targets" in x),
            "w_magnitude_x": magx,
            "w_magnitude_x_reads_property": int(magx and x[MAGX[magx]].compute is not None
                                                and x[MAGX[magx]].compute[0] == "property"),
            "w_parts_left": a.parts_left}


def _card_vars(src, tgt, d) -> dict[str, int]:
    return {"w_src_movement": src.printed_value("movement"),
            "w_src_movement_mod": src.current_value("movement") - src.printed_value("movement") & 0xFF,
            "w_tgt_movement": tgt.printed_value("movement"),
            "w_tgt_movement_mod": tgt.current_value("movement") - tgt.printed_value("movement") & 0xFF,
            "w_src_crystals": src.resource("crystal"), "w_src_markers": src.action_markers,
            "w_def_markers": d.action_markers if d else 0, "w_def_wounds": d.wounds if d else 0,
            "w_src_closed": int(src.closed)}


def _text_vars(rs, rd, thr, sg) -> dict[str, int]:
    return {"w_src_rm_form": RM_FORMS.index(rs.form) if rs else 0, "w_src_rm_limit": rs.limit if rs and rs.limit else 0,
            "w_src_rm_no_marker": int(rs is not None and not rs.action_marker),
            "w_src_rm_times": rs.times if rs and rs.times else 0,
            "w_def_rm_form": RM_FORMS.index(rd.form) if rd else 0, "w_def_rm_limit": rd.limit if rd and rd.limit else 1,
            "w_tgt_guard_threshold": thr.condition[2] if thr else 0,
            "w_tgt_guard_at_most": GUARD_CONDITIONS.index(thr.condition[0]) if thr else 0,
            "w_src_guard_threshold": sg.condition[2] if sg else 0}


# --- what a rulebook's number guards read beyond the menu ---------------------------------------------------

def _windows_before(rb, sid: str, upto: int) -> list[tuple[str, ...]]:
    """The windows (their ``allows``) that may be the last one opened before operation ``upto`` of step
    ``sid`` (``upto`` past its operations: before its edges) — walking back through the steps that lead
    there, past a window that a ``when:`` may skip."""
    steps = rb.spec.steps
    found: list[tuple[str, ...]] = []
    todo, seen = [(sid, upto)], {sid}
    while todo:
        at, end = todo.pop()
        for op in reversed(steps[at].operations[:end]):
            if op.op == "window":
                found.append(tuple(op.params["allows"]))
                if (op.when or "always") == "always":
                    break  # surely opened: nothing before it is read
        else:
            for prev, step in steps.items():
                if prev not in seen and any(e.to == at for e in step.next):
                    seen.add(prev)
                    todo.append((prev, len(step.operations)))
    return found


def beyond_menu(rb) -> dict[str, str] | None:
    """What a number guard of ``rb`` reads that no world of the menu can show, in both languages (None:
    nothing): ``plays_at_least(N)`` with N above the options any window it may read admits, or
    ``cost_x_at_least(N)`` above the largest cost-X of ``WORLD_DOMAINS``.  Such a guard is never true in
    the Z3 model (while it is in a game), so a proof there says nothing about what follows it.

    >>> from ruleproof.model.rulebook import load_rulebook
    >>> beyond_menu(load_rulebook()) is None
    True
    """
    top_x = max(WORLD_DOMAINS["w_cost_x_value"])
    for sid, step in rb.spec.steps.items():
        places = [(i, op.when) for i, op in enumerate(step.operations)] + [(len(step.operations), e.when)
                                                                             for e in step.next]
        for i, text in places:
            g = parse_guard(text or "always")
            if g is None or g.arg is None or g.name not in ("plays_at_least", "cost_x_at_least"):
                continue
            n = int(g.arg)
            if g.name == "cost_x_at_least" and n > top_x:
                return {"en": f"the guard {g} of step {sid} reads a cost-X of {n}; the Z3 worlds hold one of at most "
                              f"{top_x}",
                        "ru": f"условие {g} шага {sid} сравнивает X ресурсов с {n}, а миры Z3 содержат X не больше "
                              f"{top_x}"}
            reads = _windows_before(rb, sid, i)
            most = max((sum(o.feature.kind in allows for o in OPTIONS) for allows in reads), default=None)
            if g.name == "plays_at_least" and most is not None and n > most:
                return {"en": f"the guard {g} of step {sid} reads {n} plays in one window; the Z3 worlds hold at most "
                              f"{most} features such a window admits",
                        "ru": f"условие {g} шага {sid} требует {n} розыгрышей в одном окне, а в мирах Z3 не больше "
                              f"{most} особенностей, которые такое окно допускает"}
    return None


def menu_scope(rb):
    """What the Z3 worlds cover of the combinations ``rb`` admits (:func:`~.universe.scope`): a proof over
    them is a proof *within the menu* unless it covers every one.

    >>> from ruleproof.model.rulebook import load_rulebook
    >>> s = menu_scope(load_rulebook())
    >>> 0 < s.covered < s.admitted
    True
    """
    return scope(rb, [(o.card, o.feature) for o in OPTIONS])
