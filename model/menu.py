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

from .features import Effect, Feature
from .state import Action, Card, State, XVar
from .vocabulary import ATTACKS, X_KINDS

__all__ = ["KINDS", "ATTACKS", "COST_ENTRIES", "X_KINDS_SYM", "ACTION_X_KINDS", "ROLES", "X_NAMES", "card", "x_var", "action", "MAGX", "RM_FORMS", "Option", "OPTIONS", "NOPT", "OPT_INDEX", "WORLD_DOMAINS",
           "menu_world", "resource_modifier", "world_state", "world_of", "GUARD_CONDITIONS", "DEF_MOVEMENT",
           "src_guard", "SRC_GUARD_CONDITION", "beyond_menu"]

KINDS = ("simple_strike", "attack", "spell", "effect")
#: the id of the feature the menu's action is declared with (540.1.3 counts its uses in a turn)
ACT = "act"
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


def card(cid: str, features=(), *, health: int = 5, movement: int = 1, movement_mod: int = 0, named_power: int = 1,
         strikes: tuple[int, int, int] = (1, 2, 3), wounds: int = 0, markers: int = 0, crystals: int = 0,
         uses: tuple[tuple[str, int], ...] = ()) -> Card:
    """A card of role ``cid`` (``ROLES``): its printed properties (``strikes``: weak, medium, strong simple
    strike), a modifier of its movement allowance kept apart from them (542.6), one «close» resource,
    ``crystals`` crystals and ``uses``: its per-turn uses of features before this action (540.1.3).

    >>> c = card("def", wounds=1)
    >>> c.controller, c.printed_value("strike_strong"), c.resource("close"), c.wounds
    ('B', 3, 1, 1)
    """
    weak, medium, strong = strikes
    printed = (("health", health), ("movement", movement), ("named_power", named_power), ("strike_medium", medium),
               ("strike_strong", strong), ("strike_weak", weak))
    return Card(cid, cid, ROLES[cid], printed=printed, modifiers=(("movement", movement_mod),), wounds=wounds,
                action_markers=markers, resources=(("close", 1), ("crystal", crystals)), features=tuple(features),
                uses=tuple((f, n) for f, n in uses if n))


def x_var(kind: str, chosen: int | None = None, compute: tuple[str, str, str] | None = None) -> XVar:
    """An X of the action of kind ``kind``: named by the player (``chosen``) or computed (``compute``)."""
    return XVar(X_NAMES[kind], kind, chosen=chosen, compute=compute)


def action(kind: str, xs=(), *, defender: bool = False, magnitude_base: int | None = 1, **fields) -> Action:
    """The acting card's game action on the target: it closes the source (and a defender, who strikes
    back in a fight by simple strike: 512.6.2/b4.1) and a cost-X is paid in crystals (542.2).  Without an X
    of the magnitude, a spell or an effect has ``magnitude_base``; an attack's comes from the strike."""
    xs = tuple(xs)
    present = {"always": True, "defender": defender, "cost_x": any(x.kind == "cost" for x in xs)}
    cost = [(c, r, amount) for c, r, amount, when in COST_ENTRIES if present[when]]
    magnitude_x = any(x.kind in ("magnitude_chosen", "magnitude_computed", "implicit") for x in xs)
    return Action(feature=ACT, kind=kind, source="src", targets=("tgt",), defender="def" if defender else None,
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


def _f(fid: str, kind: str, **kw) -> Feature:
    return Feature(fid, kind, **kw)


#: the menu of features a symbolic world may hold (each present or not)
OPTIONS: tuple[Option, ...] = (
    Option("src", _f("a_reroll", "reroll")),
    Option("tgt", _f("b_reroll", "reroll")),
    # 512.6.2/b2: an accompanying feature «если на кубике выпало 6»
    Option("src", _f("a_six", "die_trigger", on_die=(6,), effects=(Effect("heal", "self", 1),))),
    Option("src", _f("a_dmod", "dice_modifier", mode="add", amount=1)),
    Option("src", _f("a_dmodx", "dice_modifier", mode="add", x=("property", "self", "movement"))),
    Option("tgt", _f("b_dmod", "dice_modifier", mode="sub", amount=2)),
    Option("src", _f("a_mmodx", "magnitude_modifier", x=("property", "source", "movement"))),
    Option("tgt", _f("b_mmod", "magnitude_modifier", amount=-1)),
    Option("tgt", _f("b_reduce", "reduce_to_strength", strength="weak")),
    Option("tgt", _f("b_leave", "sudden_action", effects=(Effect("leave_zone", "source"),))),
    # 542.3: the target leaves the active zone after the declaration (its number is not re-checked)
    Option("tgt", _f("b_flee", "sudden_action", effects=(Effect("leave_zone", "self"),))),
    Option("src", _f("a_boost", "sudden_action", effects=(Effect("add_modifier", "source", 1, "movement"),))),
    Option("tgt", _f("b_protect", "protection")),
    Option("tgt", _f("b_prevent", "prevention")),
    Option("allyB", _f("b_replace", "replacement")),
    Option("tgt", _f("b_block", "block")),
    Option("src", _f("a_assault", "effect_trigger", trigger="assault", effects=(Effect("heal", "self", 1),))),
    Option("src", _f("a_strike", "effect_trigger", trigger="strike", effects=(Effect("heal", "self", 1),))),
    Option("def", _f("d_strike", "effect_trigger", trigger="strike", effects=(Effect("heal", "self", 1),),
                     then_if_healthy=("close",))),
    Option("def", _f("d_assault", "effect_trigger", trigger="assault", effects=(Effect("heal", "self", 1),))),
    Option("src", _f("a_after", "after_ability", on_status="any", effects=(Effect("wound", "source", 1),))),
    Option("tgt", _f("b_after_ill", "after_ability", on_status="illegal", effects=(Effect("wound", "source", 1),))),
    # 540.4/ex1: the defender wounded again after its «if healthy» modification, before payment
    Option("src", _f("a_after_def", "after_ability", on_status="any", effects=(Effect("wound", "defender", 1),))),
    Option("src", _f("a_paid", "payment_trigger", on="payment")),
    Option("src", _f("a_paid_crystal", "payment_trigger", on="payment", resources=("crystal",))),
    Option("def", _f("d_paid", "payment_trigger", on="payment")),
    Option("src", _f("a_acts", "payment_trigger", on="acts")),
    Option("src", _f("a_closes", "payment_trigger", on="closes_after")),
    Option("src", _f("a_resmod", "resource_modification", resources=("close",), modifies="source")),
    # 540.3 «если иного не указано в тексте особенности»: one whose text says the card gets no action marker
    Option("src", _f("a_resmod_no_marker", "resource_modification", resources=("close",), modifies="source",
                     action_marker=False)),
    # 540.4.1: a defender's modification «при ударе» fires on its return strike, one «при нападении» does not
    Option("def", _f("d_resmod_strike", "resource_modification", trigger="strike", resources=("close",),
                     modifies="self")),
    Option("def", _f("d_resmod_assault", "resource_modification", trigger="assault", resources=("close",),
                     modifies="self")),
)
NOPT = len(OPTIONS)
OPT_INDEX = {o.feature.id: i for i, o in enumerate(OPTIONS)}

#: the world variables and their finite domains (as in generators/strategies.py)
WORLD_DOMAINS: dict[str, tuple[int, ...]] = {
    "w_kind": (0, 1, 2, 3), "w_has_defender": (0, 1), "w_needs_magnitude": (0, 1), "w_cost_x": (0, 1), "w_cost_x_value": (0, 1, 2, 3, 4),
    "w_targets_x": (0, 1), "w_magnitude_x": (0, 1, 2, 3), "w_magnitude_x_reads_property": (0, 1), "w_parts_left": (0, 1), "w_src_movement": (0, 1, 2, 3),
    "w_src_movement_mod": (-1, 0, 1), "w_tgt_movement": (0, 1, 2, 3), "w_tgt_movement_mod": (-1, 0, 1), "w_src_crystals": (0, 1, 2, 3),
    "w_src_markers": (0, 1), "w_def_markers": (0, 1), "w_def_wounds": (0, 1, 2), "w_src_rm_form": (0, 1, 2, 3), "w_src_rm_limit": (0, 1, 2),
    "w_src_rm_no_marker": (0, 1), "w_src_rm_times": (0, 1, 2), "w_src_uses": (0, 1, 2),
    "w_def_rm_form": (0, 1, 2, 3), "w_def_rm_limit": (1, 2), "w_tgt_guard_threshold": (0, 1, 2, 3),
    "w_tgt_guard_at_most": (0, 1), "w_src_guard_threshold": (0, 1, 2, 3),
}
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


def menu_world(pick: Callable, coin: Callable) -> dict[str, int]:
    """A valuation of the world variables drawn from the menu: ``pick(domain)`` chooses a value of each
    of ``WORLD_DOMAINS``, ``coin()`` whether each option is held; what ``init`` rules out is mended
    (a defender only against an attack, …).  Signed values are stored in their bit-vector form.

    >>> import random
    >>> rng = random.Random(0)
    >>> w = menu_world(rng.choice, lambda: rng.random() < 0.5)
    >>> w["w_has_defender"] == 0 or w["w_kind"] in (0, 1)
    True
    """
    v = {n: pick(dom) for n, dom in WORLD_DOMAINS.items()}
    attack = v["w_kind"] in (0, 1)
    if not attack:
        v["w_has_defender"] = 0
    if attack:
        v["w_needs_magnitude"], v["w_magnitude_x"] = 1, 0
    if v["w_magnitude_x"] != 2:
        v["w_magnitude_x_reads_property"] = 0
    if v["w_src_rm_form"] != 3:
        v["w_src_rm_limit"], v["w_src_rm_times"] = 0, 0
    if not v["w_src_rm_form"]:
        v["w_src_rm_no_marker"] = 0
    if v["w_def_rm_form"] != 3:
        v["w_def_rm_limit"] = 1
    if not v["w_has_defender"]:
        v["w_def_rm_form"], v["w_def_markers"], v["w_def_wounds"] = 0, 0, 0
    if not v["w_tgt_guard_threshold"]:
        v["w_tgt_guard_at_most"] = 0
    for i, o in enumerate(OPTIONS):
        v[f"w_holds{i}"] = int(coin() and (not o.needs_defender or bool(v["w_has_defender"])))
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
    if v["w_src_rm_form"]:
        feats["src"].append(resource_modifier("src", RM_FORMS[v["w_src_rm_form"]], v["w_src_rm_limit"],
                                              not v.get("w_src_rm_no_marker", 0), v.get("w_src_rm_times", 0)))
    if v["w_def_rm_form"]:
        feats["def"].append(resource_modifier("def", RM_FORMS[v["w_def_rm_form"]], v["w_def_rm_limit"]))
    if v["w_tgt_guard_threshold"]:
        feats["tgt"].append(Feature("tgt_guard", "static_modifier", amount=-1,
                                    condition=(GUARD_CONDITIONS[v.get("w_tgt_guard_at_most", 0)], "movement",
                                               v["w_tgt_guard_threshold"]),
                                    applies_to=("simple_strike", "attack")))
    if v.get("w_src_guard_threshold"):
        feats["src"].append(src_guard(v["w_src_guard_threshold"]))

    cards = [card("src", feats["src"], movement=v["w_src_movement"], movement_mod=v["w_src_movement_mod"],
                  markers=v["w_src_markers"], crystals=v["w_src_crystals"], uses=((ACT, v.get("w_src_uses", 0)),)),
             card("tgt", feats["tgt"], movement=v["w_tgt_movement"], movement_mod=v["w_tgt_movement_mod"]),
             card("allyA", feats["allyA"]), card("allyB", feats["allyB"])]
    kind = KINDS[v["w_kind"]]
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
    a = state.action
    try:
        src, tgt = state.card("src"), state.card("tgt")
    except KeyError:
        return None
    ids = {f.id: c.id for c in state.cards for f in c.features}
    has = 0
    for fid, cid in ids.items():
        if fid in OPT_INDEX:
            if OPTIONS[OPT_INDEX[fid]].card != cid:
                return None
            has |= 1 << OPT_INDEX[fid]
    hasdef = a.defender is not None
    d = state.card("def") if hasdef else None
    rm = lambda c, fid: next((f for f in c.features if f.id == fid), None) if c else None  # noqa: E731
    rs, rd = rm(src, "src_rm"), rm(d, "def_rm")
    thr = rm(tgt, "tgt_guard")
    sg = rm(src, "src_guard")
    if d is not None and (d.printed_value("movement") != DEF_MOVEMENT or d.current_value("movement") != DEF_MOVEMENT):
        return None
    if sg is not None and sg != src_guard(sg.condition[2] if sg.condition else 0):
        return None  # a source text the menu's guard does not stand for
    if a.feature != ACT or any(f != ACT for f, _ in src.uses):
        return None  # the menu counts the uses of its one declared feature only
    x = {xv.kind: xv for xv in a.xs}
    magx = next((i for i, k in enumerate(MAGX) if k and k in x), 0)
    if a.magnitude_x is not None or magx and x[MAGX[magx]].compute not in (None, ("property", "target", "movement"), ("wounds", "source", "")):
        return None  # a bare X, or an X the menu does not compute (a count, a resource)
    return {"w_kind": KINDS.index(a.kind), "w_has_defender": int(hasdef), "w_needs_magnitude": int(a.needs_magnitude),
            "w_cost_x": int("cost" in x), "w_cost_x_value": x["cost"].chosen if "cost" in x else 0,
            "w_targets_x": int("targets" in x), "w_magnitude_x": magx,
            "w_magnitude_x_reads_property": int(magx and x[MAGX[magx]].compute is not None and x[MAGX[magx]].compute[0] == "property"),
            "w_parts_left": a.parts_left, "w_src_movement": src.printed_value("movement"),
            "w_src_movement_mod": src.current_value("movement") - src.printed_value("movement") & 0xFF,
            "w_tgt_movement": tgt.printed_value("movement"),
            "w_tgt_movement_mod": tgt.current_value("movement") - tgt.printed_value("movement") & 0xFF,
            "w_src_crystals": src.resource("crystal"), "w_src_markers": src.action_markers, "w_def_markers": d.action_markers if d else 0,
            "w_def_wounds": d.wounds if d else 0, "w_src_rm_form": RM_FORMS.index(rs.form) if rs else 0,
            "w_src_rm_limit": rs.limit if rs and rs.limit else 0, "w_src_rm_no_marker": int(rs is not None and not rs.action_marker),
            "w_src_rm_times": rs.times if rs and rs.times else 0, "w_src_uses": src.used(ACT),
            "w_def_rm_form": RM_FORMS.index(rd.form) if rd else 0,
            "w_def_rm_limit": rd.limit if rd and rd.limit else 1, "w_tgt_guard_threshold": thr.condition[2] if thr else 0,
            "w_tgt_guard_at_most": GUARD_CONDITIONS.index(thr.condition[0]) if thr else 0,
            "w_src_guard_threshold": sg.condition[2] if sg else 0,
            **{f"w_holds{i}": has >> i & 1 for i in range(NOPT)}}


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
    from .vocabulary import parse_guard

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
