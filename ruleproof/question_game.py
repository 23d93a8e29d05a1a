"""The game of a question for judges: what each alternative's game ends with or offers, and the game made smaller.

A question (:mod:`ruleproof.questions`) plays one game on two rulebooks.  :func:`expectations` says, for each side,
what a ruling would expect of it where the two differ in what a judge sees: the cards, the action's status and
payment at the end (:func:`final`); when those end alike, what is seen as the game goes (:func:`seen`: the steps
played, the die, which player a window asks first, what a player is offered, what is played); when that is alike
too, the order in which the two do the first thing they do in another order (``order``).  :func:`shrink` then
leaves out of the question's world every card, feature and scripted response the question does not need — the
smaller game is kept only while it still decides the question.

>>> seen_text({"op": "pass", "window": "reroll", "player": "B", "offered": ["drum"]}, "en")
'window reroll: player B is offered drum'
"""

from __future__ import annotations

import copy
from typing import Callable

from ruleproof.model.vocabulary import OPERATIONS

__all__ = ["CARD_FIELDS", "final", "seen", "expectations", "seen_text", "mark_text", "shrink"]

#: the card fields a question expects (what a judge sees of a card at the end)
CARD_FIELDS = ("wounds", "closed", "action_markers", "in_active_zone")

#: the events a judge sees as the game goes, and which of their values: the steps played, the die rolled, who a
#: window asks first, what a player is offered when passing, what is played
_SEEN = {"enter": (), "roll_die": ("die",), "window": ("id", "first"), "pass": ("window", "player", "offered"),
         "play": ("window", "player", "feature")}


def final(events) -> tuple[dict, dict]:
    """(cards, action) at a game's end, as a ruling expects them."""
    state = events[-1].state
    cards = {c.id: {k: getattr(c, k) for k in CARD_FIELDS} for c in state.cards}
    a = state.action
    action = {"status": a.status, "paid": [list(p) for p in a.paid]} if a is not None else {}
    return cards, action


def _plain(v):
    return [_plain(x) for x in v] if isinstance(v, (list, tuple)) else v


def _pattern(e, keys) -> dict:
    """An event as a ruling matches it: its operation, its step and these of its values."""
    return {"op": e.op, "step": e.step, **{k: _plain(e.values[k]) for k in keys if k in e.values}}


def seen(events) -> list[dict]:
    """The event patterns a judge sees as the game goes (each once, in the order met): a ruling's ``events``."""
    out: list[dict] = []
    for e in events:
        if e.op in _SEEN:
            p = _pattern(e, _SEEN[e.op])
            if p not in out:
                out.append(p)
    return out


def _apart(mine: dict, other: dict) -> dict:
    """The fields of ``mine`` (name -> value, or card -> its fields) that ``other`` does not share."""
    return {k: v for k, v in mine.items() if other.get(k) != v}


def expectations(mine: tuple[list, str], other: tuple[list, str]) -> dict:
    """What one side's game — (events, outcome) — ends with where it differs from the other's; when the two end
    alike, the first thing seen on this side and not on the other (``events``) and the first seen only on the
    other (``no_events``); when they show the same, the first thing this side does in another order (``order``)."""
    (events, outcome), (oevents, _) = mine, other
    (cards, action), (ocards, oaction) = final(events), final(oevents)
    exp: dict = {"outcome": outcome}
    diff_cards = {cid: _apart(f, ocards.get(cid, {})) for cid, f in cards.items()}
    exp["cards"] = {cid: f for cid, f in diff_cards.items() if f}
    exp["action"] = _apart(action, oaction)
    if not exp["cards"] and not exp["action"]:
        a, b = seen(events), seen(oevents)
        exp["events"], exp["no_events"] = [p for p in a if p not in b][:1], [p for p in b if p not in a][:1]
        if not exp["events"] and not exp["no_events"]:
            exp["order"] = _order(events, oevents)
    return {k: v for k, v in exp.items() if v}


def _mark(e) -> dict:
    """An event as an ``order`` expectation names it: its operation and step, and what tells it apart (the window,
    the player, the feature played, the die, the card)."""
    return _pattern(e, tuple(k for k in _SEEN.get(e.op, ("card",)) if k != "offered"))


def _shown(events) -> list:
    """The events a judge sees happen: those of :data:`_SEEN` (steps, the die, windows, passes, plays) and every
    one that changes a card."""
    out, cards = [], None
    for e in events:
        now = repr(e.state.cards)
        if e.op in _SEEN or (cards is not None and now != cards):
            out.append(e)
        cards = now
    return out


def _order(events, oevents) -> list[dict] | None:
    """Where two games that show the same things part in the order of what a judge sees (:func:`_shown`): [what
    this side does first, what the other does there instead] — when this side does that later too (None
    otherwise)."""
    a, b = [_mark(e) for e in _shown(events)], [_mark(e) for e in _shown(oevents)]
    k = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), None)
    # each mark met there for the first time (a repeat would match an earlier event), the other's done later here
    if k is None or a[k] in a[:k] or b[k] in b[:k] or b[k] not in a[k + 1:]:
        return None
    return [a[k], b[k]]


def seen_text(p: dict, lang: str, negated: bool = False) -> str:
    """One seen event as a judge reads it (``negated``: that it does not happen)."""
    ru, op = lang == "ru", p["op"]
    if op == "enter":
        return (f"шаг {p['step']} " + ("пропускается" if negated else "разыгрывается") if ru
                else f"step {p['step']} is " + ("skipped" if negated else "played"))
    if op == "window" and negated:
        return f"окно {p.get('id')} не открывается" if ru else f"window {p.get('id')} is not opened"
    if op == "roll_die":
        text = f"кубик бросается: {p.get('die')}" if ru else f"the die is rolled: {p.get('die')}"
    elif op == "window":
        text = (f"окно {p.get('id')}: приоритет сначала у игрока {p.get('first')}" if ru
                else f"window {p.get('id')}: priority first to player {p.get('first')}")
    elif op == "play":
        text = (f"окно {p.get('window')}: игрок {p.get('player')} играет {p.get('feature')}" if ru
                else f"window {p.get('window')}: player {p.get('player')} plays {p.get('feature')}")
    else:
        offered = ", ".join(p.get("offered") or ()) or ("ничего" if ru else "nothing")
        text = (f"окно {p.get('window')}: игроку {p.get('player')} предложено {offered}" if ru
                else f"window {p.get('window')}: player {p.get('player')} is offered {offered}")
    return (("нет: " if ru else "never: ") + text) if negated else text


def mark_text(p: dict, lang: str) -> str:
    """An event of an ``order`` expectation as a judge reads it: the operation's name, its card or window, its step.

    >>> mark_text({"op": "give_action_marker", "step": "payment", "card": "src"}, "ru")
    'выдать маркер действия (src; шаг payment)'
    >>> mark_text({"op": "window", "step": "payment", "id": "payment_triggers", "first": "A"}, "en")
    'window payment_triggers opens'
    """
    if p["op"] in ("window", "pass", "play", "enter", "roll_die"):
        shown = {k: v for k, v in p.items() if k != "offered"}
        if p["op"] == "pass":
            return (f"окно {p.get('window')}: игрок {p.get('player')} пасует" if lang == "ru"
                    else f"window {p.get('window')}: player {p.get('player')} passes")
        if p["op"] == "window":
            return f"окно {p.get('id')} открывается" if lang == "ru" else f"window {p.get('id')} opens"
        return seen_text(shown, lang)
    kind = OPERATIONS.get(p["op"])
    name = (kind.ru if lang == "ru" else kind.en) if kind else p["op"]
    what = "; ".join([*(str(v) for k, v in p.items() if k not in ("op", "step")),
                      f"{'шаг' if lang == 'ru' else 'step'} {p['step']}"])
    return f"{name} ({what})"


def _features_of(doc: dict, cid: str) -> set[str]:
    return {f["id"] for f in doc["cards"][cid].get("features", [])}


def _without(doc: dict, card: str | None = None, feature: str | None = None) -> dict:
    """``doc`` without a card (its features, the responses that play them and what is expected of it) or one
    feature (and the responses that play it)."""
    out = copy.deepcopy(doc)
    gone = {feature} if feature else _features_of(doc, card) if card else set()
    if card:
        del out["cards"][card]
    for c in out["cards"].values():
        if feature and c.get("features"):
            c["features"] = [f for f in c["features"] if f["id"] != feature]
            if not c["features"]:
                del c["features"]
    for holder in (out, *out.get("cases", [])):
        if "responses" in holder:
            holder["responses"] = [r for r in holder["responses"] if r["play"] not in gone]
        if card and card in holder.get("expect", {}).get("cards", {}):
            del holder["expect"]["cards"][card]
    return out


def shrink(doc: dict, decides: Callable[[dict], bool]) -> dict:
    """The question's world made smaller while ``decides(doc)`` holds: each card apart from the action's source,
    targets, defender and payers left out if it can be, then each feature of the cards kept (greedy, in the world's
    order).  ``decides`` says False for a world the scenario format refuses (a card a feature names left out)."""
    action = doc["action"]
    needed = {action["source"], *action.get("targets", []), *(c["card"] for c in action.get("cost", [])),
              *([action["defender"]] if action.get("defender") else [])}
    for cid in [c for c in doc["cards"] if c not in needed]:
        smaller = _without(doc, card=cid)
        if decides(smaller):
            doc = smaller
    for cid in list(doc["cards"]):
        for fid in sorted(_features_of(doc, cid)):
            if fid == action.get("feature"):
                continue
            smaller = _without(doc, feature=fid)
            if decides(smaller):
                doc = smaller
    return doc
