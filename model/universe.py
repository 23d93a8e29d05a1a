"""The universe of games: the one place the engines' fixed features are defined, and what a rulebook admits.

Every feature a family of worlds holds by a fixed id — the Z3 menu's options (:mod:`.menu`), the
explorer's loadouts (``generators/bounded.py``) — has exactly one body, here, in :data:`FEATURES`;
the families name features by id (:func:`feature`), so no id means two things in two engines.

A verdict says "for every game in a set"; :func:`admitted` computes the set's axes from the vocabulary
and the rulebook under test — every feature kind a window of the rulebook admits, × every effect of
``features.EFFECTS`` (for the kinds whose text has effects), × every role of the card it touches (or,
for a kind without effects, of the card holding it): the source, the target, a defender, the source's
ally, a bystander of the other side.  :func:`covered` says which of those combinations a family of
worlds holds, and :func:`scope` compares the two: what a proof over that family covers and what it
leaves out.  A proof whose family leaves an admitted combination out is a proof *within the menu*.

>>> from ruleproof.model.rulebook import load_rulebook
>>> rb = load_rulebook()
>>> combos = admitted(rb)
>>> Combo("calculation", "sudden_action", "lose_markers", "src") in combos
True
>>> feature("xa_unmark").effects[0].do
'lose_markers'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable

from .features import EFFECTS, Effect, Feature
from .vocabulary import ATTACKS, FEATURE_KINDS

__all__ = ["FEATURES", "feature", "plays_features", "PLAYS_FEATURES", "Combo", "ROLES", "admitted", "covered", "Scope", "scope", "window_kinds",
           "effect_kinds", "combos", "aimed_feature", "played"]


def _f(fid: str, kind: str, **kw) -> Feature:
    return Feature(fid, kind, **kw)


_HEAL1 = (Effect("heal", "self", 1),)
_WOUND_SRC = (Effect("wound", "source", 1),)

#: every feature a family of worlds names by id: one body each (ids are unique; a test pins that no
#: other module builds a feature with a literal id)
FEATURES: dict[str, Feature] = {f.id: f for f in (
    # 512.6.2: the dice step
    _f("a_reroll", "reroll"),
    _f("b_reroll", "reroll"),
    _f("a_six", "die_trigger", on_die=(6,), effects=_HEAL1),  # 512.6.2/b2 «если на кубике выпало 6»
    _f("a_one", "die_trigger", on_die=(1,), effects=_HEAL1),  # … «выпало 1»: the small dice of the bounds
    _f("xa_one", "die_trigger", on_die=(1,), effects=_HEAL1),
    _f("a_dmod", "dice_modifier", mode="add", amount=1),
    _f("a_plus", "dice_modifier", mode="add", amount=1),
    _f("a_dmodx", "dice_modifier", mode="add", x=("property", "self", "movement")),
    _f("b_dmod", "dice_modifier", mode="sub", amount=2),
    _f("b_minus", "dice_modifier", mode="sub", amount=1),
    _f("b_minus_x", "dice_modifier", mode="sub", x=("property", "self", "movement")),
    # 512.6.3: the calculation step
    _f("a_mmodx", "magnitude_modifier", x=("property", "source", "movement")),
    _f("a_mag", "magnitude_modifier", amount=1),
    _f("a_mag_x", "magnitude_modifier", x=("wounds", "target", "")),
    _f("b_mmod", "magnitude_modifier", amount=-1),
    _f("b_reduce", "reduce_to_strength", strength="weak"),
    _f("b_leave", "sudden_action", effects=(Effect("leave_zone", "source"),)),
    _f("b_vanish", "sudden_action", effects=(Effect("leave_zone", "source"),)),
    # 542.3: the target leaves the active zone after the declaration (its number is not re-checked)
    _f("b_flee", "sudden_action", effects=(Effect("leave_zone", "self"),)),
    _f("a_boost", "sudden_action", effects=(Effect("add_modifier", "source", 1, "movement"),)),
    _f("b_grow", "sudden_action", effects=(Effect("add_modifier", "source", 1, "movement"),)),
    # 540.3.1 with 510.4 (A-lost-markers): the source's ally takes its action marker during the action
    _f("xa_unmark", "sudden_action", effects=(Effect("lose_markers", "source", 1),)),
    # 512.7 with 510.4: the source's ally takes a crystal the action reserved before payment
    _f("xa_drain", "sudden_action", effects=(Effect("lose_resource", "source", 1, "crystal"),)),
    # A-closed-no-close: the source's ally closes it before a compound feature's next part
    _f("xa_close", "sudden_action", effects=(Effect("close", "source"),)),
    _f("b_protect", "protection"),
    _f("a_protect", "protection"),
    _f("b_prevent", "prevention"),
    _f("b_replace", "replacement"),
    _f("a_replace", "replacement"),
    # 512.6.4: blocking
    _f("b_block", "block"),
    _f("xb_block", "block"),
    # 512.6.5: the effect's triggers (540.4.1: «при ударе» fires on a return strike, «при нападении» not)
    _f("a_assault", "effect_trigger", trigger="assault", effects=_HEAL1),
    _f("a_assault_wound", "effect_trigger", trigger="assault", effects=(Effect("wound", "target", 1),)),
    _f("a_strike", "effect_trigger", trigger="strike", effects=_HEAL1),
    _f("a_heal", "effect_trigger", trigger="strike", effects=(Effect("heal", "self", 2),), then_if_healthy=("close",)),
    _f("b_assault", "effect_trigger", trigger="assault", effects=_WOUND_SRC),
    _f("d_strike", "effect_trigger", trigger="strike", effects=_HEAL1, then_if_healthy=("close",)),
    _f("d_heal", "effect_trigger", trigger="strike", effects=_HEAL1),
    _f("d_assault", "effect_trigger", trigger="assault", effects=_HEAL1),
    _f("d_assault_wound", "effect_trigger", trigger="assault", effects=_WOUND_SRC),
    _f("xa_heal", "effect_trigger", trigger="strike", effects=_HEAL1),
    _f("xb_assault", "effect_trigger", trigger="assault", effects=_WOUND_SRC),
    # 512.6.6/b2: «после …»
    _f("a_after", "after_ability", on_status="any", effects=_WOUND_SRC),
    _f("b_after_ill", "after_ability", on_status="illegal", effects=_WOUND_SRC),
    # A-status-kept: «после промаха» of an attack that missed and was then blocked (512.6.6/b2)
    _f("a_after_miss", "after_ability", on_status="miss", effects=_WOUND_SRC),
    # 540.4/ex1: the defender wounded again after its «if healthy» modification, before payment
    _f("a_after_def", "after_ability", on_status="any", effects=(Effect("wound", "defender", 1),)),
    _f("b_spite", "after_ability", on_status="any", effects=_WOUND_SRC),
    _f("xb_spite", "after_ability", on_status="any", effects=_WOUND_SRC),
    # 512.7/b2: payment triggers
    _f("a_paid", "payment_trigger", on="payment"),
    _f("a_paid_crystal", "payment_trigger", on="payment", resources=("crystal",)),
    _f("d_paid", "payment_trigger", on="payment"),
    _f("xa_paid", "payment_trigger", on="payment"),
    _f("a_acts", "payment_trigger", on="acts"),
    _f("a_closes", "payment_trigger", on="closes_after"),
    _f("b_closed", "payment_trigger", on="closes_after"),
    # 540.4: modifications of the executing action's resources (540.3: one whose text waives the marker)
    _f("a_resmod", "resource_modification", resources=("close",), modifies="source"),
    _f("a_free", "resource_modification", resources=("close",), modifies="source"),
    _f("a_resmod_no_marker", "resource_modification", resources=("close",), modifies="source", action_marker=False),
    _f("d_resmod_strike", "resource_modification", trigger="strike", resources=("close",), modifies="self"),
    _f("d_steady", "resource_modification", trigger="strike", resources=("close",), modifies="self"),
    _f("d_resmod_assault", "resource_modification", trigger="assault", resources=("close",), modifies="self"),
    _f("d_rush", "resource_modification", trigger="assault", resources=("close",), modifies="self"),
    _f("xa_rush", "resource_modification", trigger="assault", resources=("close",), modifies="self"),
    # 540.1: a card's own texts (540.3: one that also waives the action marker; 540.1.3 with 540.3.1)
    _f("a_stay", "resource_modifier", form="stays_open", resources=("close",)),
    _f("a_quiet", "resource_modifier", form="stays_open", resources=("close",), action_marker=False),
    _f("a_open", "resource_modifier", form="per_turn", resources=("close",), times=2, limit=1),
    _f("d_assault_only", "resource_modifier", form="closes_only_after_assault", resources=("close",)),
    _f("a_assault_only", "resource_modifier", form="closes_only_after_assault", resources=("close",)),
    # 542.6/ex1 (Серк): «−1 от атак существ с 2 или больше»; «… с 2 или меньше»
    _f("a_serk", "static_modifier", amount=-1, condition=("source_at_least", "movement", 2), applies_to=ATTACKS),
    _f("b_serk", "static_modifier", amount=-1, condition=("source_at_least", "movement", 2), applies_to=ATTACKS),
    _f("b_ford", "static_modifier", amount=-1, condition=("source_at_most", "movement", 2), applies_to=ATTACKS),
)}


def feature(fid: str) -> Feature:
    """The one body of the feature ``fid``."""
    return FEATURES[fid]


#: the features a world holds several of for a rulebook that reads ``plays_at_least`` (:func:`plays_features`)
PLAYS_FEATURES = (("a_reroll", "a_plus"), ("b_reroll", "b_minus"))


def plays_features(n: int) -> tuple[tuple[Feature, ...], tuple[Feature, ...]]:
    """512.6.2/b2 «после разрешения всех таких особенностей»: ``n`` rerolls and ``n`` dice modifiers in all,
    the source's side holding the odd one — (the source's, the target's) — for a rulebook whose guard reads
    how many features a window played.  The first of each is the fixed feature, the others numbered
    copies of its body (the explorer's worlds and Hypothesis's hold the same ones).

    >>> [[f.id for f in side] for side in plays_features(3)]
    [['a_reroll', 'a_reroll2', 'a_plus', 'a_plus2'], ['b_reroll', 'b_minus']]
    """
    def copies(fid: str, k: int) -> tuple[Feature, ...]:
        return tuple(replace(FEATURES[fid], id=fid if i == 0 else f"{fid}{i + 1}") for i in range(k))

    return tuple(tuple(f for fid in fids for f in copies(fid, k))  # type: ignore[return-value]
                 for fids, k in zip(PLAYS_FEATURES, ((n + 1) // 2, n // 2)))


#: the roles of the cards of a game, as the families name them (A is the active player)
ROLES = ("src", "tgt", "def", "allyA", "allyB")
#: an effect's card word -> the role it names (``self``: the holder's)
_REFS = {"source": "src", "target": "tgt", "defender": "def"}


@dataclass(frozen=True, order=True)
class Combo:
    """One combination of the universe: a feature of ``kind`` played in ``window``, its ``effect`` (``-``
    for a kind without effects) on a card of ``role`` (for a kind without effects: the holder's)."""

    window: str
    kind: str
    effect: str
    role: str

    def __str__(self) -> str:
        return f"{self.window}:{self.kind}:{self.effect}@{self.role}"

    @classmethod
    def parse(cls, text: str) -> "Combo":
        """The combination :meth:`__str__` wrote."""
        window, kind, rest = text.split(":", 2)
        effect, role = rest.rsplit("@", 1)
        return cls(window, kind, effect, role)

    def text(self, lang: str = "en") -> str:
        """In words: the window, the kind, what its effect does and to whom (or who holds it).

        >>> Combo("calculation", "sudden_action", "lose_markers", "src").text("ru")
        'окно calculation: внезапное игродействие без условия — теряет маркеры действия — источник'
        """
        kind = FEATURE_KINDS[self.kind].ru if lang == "ru" else FEATURE_KINDS[self.kind].en
        i = 0 if lang == "ru" else 1
        role = _ROLE_WORDS.get(self.role, (self.role, self.role))[i]
        if self.effect == "-":
            return (f"окно {self.window}: {kind} — у карты: {role}" if lang == "ru"
                    else f"{self.window} window: {kind} — held by the {role}")
        effect = _EFFECT_WORDS.get(self.effect, (self.effect, self.effect))[i]
        return (f"окно {self.window}: {kind} — {effect} — {role}" if lang == "ru"
                else f"{self.window} window: {kind} — {effect} — the {role}")


#: what an effect does, in words (ru, en)
_EFFECT_WORDS = {"heal": ("излечивает", "heals"), "wound": ("ранит", "wounds"),
                 "leave_zone": ("уводит из активной зоны", "takes out of the active zone"),
                 "add_modifier": ("даёт модификатор", "gives a modifier"), "close": ("закрывает", "closes"),
                 "lose_resource": ("отнимает ресурс", "takes a resource"),
                 "lose_markers": ("теряет маркеры действия", "takes action markers")}
#: a role, in words (ru, en)
_ROLE_WORDS = {"src": ("источник", "source"), "tgt": ("цель", "target"), "def": ("защитник", "defender"),
               "allyA": ("союзник источника", "source's ally"),
               "allyB": ("посторонняя карта соперника", "opponent's bystander")}


def effect_kinds() -> frozenset[str]:
    """The window-played kinds whose text has effects (the vocabulary's keys say so)."""
    return frozenset(k for k, fk in FEATURE_KINDS.items() if "effects" in fk.keys)


def window_kinds(rb) -> dict[str, tuple[str, ...]]:
    """window id -> the feature kinds it admits, in ``rb``."""
    out: dict[str, tuple[str, ...]] = {}
    for step in rb.spec.steps.values():
        for op in step.operations:
            if op.op == "window":
                out[op.params["id"]] = tuple(dict.fromkeys((*out.get(op.params["id"], ()), *op.params["allows"])))
    return out


def admitted(rb) -> frozenset[Combo]:
    """Every combination ``rb`` admits: each window × each kind it admits × (for a kind with effects) each
    effect of ``features.EFFECTS`` × each role."""
    return combos(window_kinds(rb).items())


#: kinds with effects whose play does something of its own without them (a block blocks): a feature of such a
#: kind with no effects is a combination of its own ("-")
ACTS_ALONE = frozenset({"block"})


def combos(windows) -> frozenset[Combo]:
    """:func:`admitted` from ``windows``: (window id, the kinds it admits) pairs."""
    fx = effect_kinds()
    out: set[Combo] = set()
    for window, kinds in windows:
        for kind in kinds:
            for effect in ((*EFFECTS, *(("-",) if kind in ACTS_ALONE else ())) if kind in fx else ("-",)):
                out.update(Combo(window, kind, effect, role) for role in ROLES)
    return frozenset(out)


def _touches(f: Feature, holder: str, refs: dict | None = None) -> set[tuple[str, str]]:
    """(effect, role of the card it touches) of ``f`` held by a card of role ``holder`` (``refs``: an
    effect's card word or card id -> role, beyond the families' own)."""
    if f.kind not in effect_kinds() or (f.kind in ACTS_ALONE and not f.effects):
        return {("-", holder)}
    refs = refs or _REFS
    out = {(e.do, holder if e.card == "self" else refs.get(e.card, e.card if e.card in ROLES else ""))
           for e in f.effects}
    return {(do, role) for do, role in out if role}


def covered(rb, held: Iterable[tuple[str, Feature]]) -> frozenset[Combo]:
    """The combinations of :func:`admitted` that features ``held`` — (holder's role, feature) pairs —
    play in ``rb``'s windows."""
    windows = window_kinds(rb)
    out: set[Combo] = set()
    for holder, f in held:
        for window, kinds in windows.items():
            if f.kind in kinds:
                out.update(Combo(window, f.kind, do, role) for do, role in _touches(f, holder))
    return frozenset(out) & admitted(rb)


@dataclass(frozen=True)
class Scope:
    """What a family of worlds covers of what a rulebook admits."""

    admitted: int
    covered: int
    missing: tuple[Combo, ...]

    @property
    def whole(self) -> bool:
        return not self.missing

    def text(self, lang: str = "en", most: int = 6) -> str:
        """One line: «a of N combinations», and the first ``most`` left out."""
        left = "; ".join(c.text(lang) for c in self.missing[:most]) + (" …" if len(self.missing) > most else "")
        if lang == "ru":
            s = f"игры покрывают {self.covered} из {self.admitted} сочетаний, которые допускает свод правил"
            return s + (f"; не сыграны ({len(self.missing)}): {left}" if self.missing else "")
        s = f"the games cover {self.covered} of the {self.admitted} combinations the rulebook admits"
        return s + (f"; not played ({len(self.missing)}): {left}" if self.missing else "")

    @classmethod
    def of(cls, every: frozenset, got) -> "Scope":
        """What ``got`` covers of ``every``."""
        got = frozenset(got) & every
        return cls(len(every), len(got), tuple(sorted(every - got)))

    def to_json(self) -> dict:
        return {"admitted": self.admitted, "covered": self.covered, "missing": [str(c) for c in self.missing]}


def scope(rb, held: Iterable[tuple[str, Feature]]) -> Scope:
    """:class:`Scope` of the family holding ``held`` on ``rb``.

    >>> from ruleproof.model.rulebook import load_rulebook
    >>> s = scope(load_rulebook(), [("allyA", feature("xa_unmark"))])
    >>> s.covered, s.whole
    (1, False)
    """
    return Scope.of(admitted(rb), covered(rb, held))


#: an effect's parameters, by what it does (the amount 1; the property or resource it reads)
_EFFECT_ARGS = {"heal": (1, ""), "wound": (1, ""), "leave_zone": (0, ""), "add_modifier": (1, "movement"),
                "close": (0, ""), "lose_resource": (1, "crystal"), "lose_markers": (1, "")}
_WORDS = {v: k for k, v in _REFS.items()}


def aimed_feature(combo: Combo, holder: str, fid: str) -> Feature:
    """A feature with id ``fid`` held by a card of role ``holder`` that plays ``combo``: the first fixed
    feature of its kind (:data:`FEATURES`) with the combination's effect on the card of its role.

    >>> f = aimed_feature(Combo("calculation", "sudden_action", "lose_markers", "src"), "allyA", "x")
    >>> f.effects
    (Effect(do='lose_markers', card='source', amount=1, prop=''),)
    """
    proto = next(f for f in FEATURES.values() if f.kind == combo.kind)
    if combo.effect == "-":
        return replace(proto, id=fid)
    amount, prop = _EFFECT_ARGS[combo.effect]
    ref = "self" if combo.role == holder else _WORDS.get(combo.role, combo.role)
    return replace(proto, id=fid, effects=(Effect(combo.effect, ref, amount, prop),), then_if_healthy=())


def played(events) -> frozenset[Combo]:
    """The combinations a run's ``events`` played: each feature played, in its window, by the role of the
    card holding it (the world's first state says who holds what).

    >>> from ruleproof.model.rulebook import load_rulebook
    >>> from ruleproof.model.scenario import load_scenario, run_scenario, shipped_rulings
    >>> sc = next(load_scenario(p) for p in shipped_rulings() if p.name == "540-per-turn-marker-lost-own-action.yaml")
    >>> lost = next(c for c in sc.cases() if c.spec_case.id == "marker-lost")
    >>> sorted(map(str, played(run_scenario(lost, load_rulebook()).trace.events)))
    ['calculation:sudden_action:lose_markers@src']
    """
    if not events:
        return frozenset()
    first = events[0].state
    a = first.action
    roles = {c.id: ("src" if c.id == a.source else "def" if c.id == a.defender else "tgt" if c.id in a.targets
                    else "ally" + c.controller) for c in first.cards}
    refs = {**_REFS, **roles}
    holders = {f.id: (roles[c.id], f) for c in first.cards for f in c.features}
    out = set()
    for e in events:
        if e.op == "play" and e.values.get("feature") in holders:
            role, f = holders[e.values["feature"]]
            for do, who in _touches(f, role, refs):
                out.add(Combo(e.values["window"], f.kind, do, who))
    return frozenset(out)
