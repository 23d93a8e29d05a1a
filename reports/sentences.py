"""The sentences of a story (:mod:`ruleproof.reports.narrative`): an event, a guard, a card's state in the
reader's words — the vocabulary's Russian (or English) names, the rulebook's and the ruling's ids as written.

>>> card_line({"name": "Леший", "controller": "A", "wounds": 2, "closed": False, "resources": {"close": 1}},
...           "leshy", "ru")
'Леший (leshy), игрок A: ран 2; открыта; ресурсы: close 1'
>>> card_line({"name": "Kele", "controller": "B", "wounds": 0, "closed": True}, "kele", "en")
'Kele (kele), player B: wounds 0; closed'
"""

from __future__ import annotations

from ruleproof.ground.i18n import fill, word
from ruleproof.model.vocabulary import GUARDS, OPERATIONS, parse_guard

__all__ = ["card_line", "guard_words", "items", "op_name", "op_sentence", "say"]


def say(lang: str, ru: str, en: str, **params) -> str:
    return fill(ru if lang == "ru" else en, params, lang)


def items(v, lang: str) -> str:
    """A listed value (``[('leshy', 'close', 1)]`` → ``leshy close 1``), «ничего»/nothing when empty."""
    if v in (None, (), [], ""):
        return "ничего" if lang == "ru" else "nothing"
    if isinstance(v, (list, tuple)):
        return ", ".join(" ".join(word(p, lang) for p in i) if isinstance(i, (list, tuple)) else word(i, lang)
                         for i in v)
    return word(v, lang)


def guard_words(text: str, lang: str) -> str:
    """A guard as the reader's words: ``not resources_short`` → «не (карта не обладает ресурсами …)».

    >>> guard_words("not action_blocked", "ru")
    'не «действие заблокировано»'
    >>> guard_words("visited(dice)", "en")
    '«the game action passed the step» dice'
    """
    g = parse_guard(text)
    if g is None or g.name not in GUARDS:
        return text
    kind = GUARDS[g.name]
    said = f"«{kind.ru if lang == 'ru' else kind.en}»" + (f" {g.arg}" if g.arg is not None else "")
    return (("не " if lang == "ru" else "not ") + said) if g.negated else said


def _pairs(m, lang: str) -> str:
    return ", ".join(f"{k} {word(v, lang)}" for k, v in (m or {}).items())


def card_line(card: dict, cid: str, lang: str) -> str:
    """A card's state in one line: name, controller, wounds, open or closed, markers, resources."""
    ru = lang == "ru"
    parts = [say(lang, "ран {v}", "wounds {v}", v=card.get("wounds", 0)),
             ("закрыта" if ru else "closed") if card.get("closed") else ("открыта" if ru else "open")]
    if card.get("action_markers"):
        parts.append(say(lang, "маркеров действия: {v}", "action markers: {v}", v=card["action_markers"]))
    if card.get("in_active_zone") is False:
        parts.append("вне активной зоны" if ru else "out of the active zone")
    if card.get("modifiers"):
        parts.append(say(lang, "модификаторы: {v}", "modifiers: {v}", v=_pairs(card["modifiers"], lang)))
    if card.get("resources"):
        parts.append(say(lang, "ресурсы: {v}", "resources: {v}", v=_pairs(card["resources"], lang)))
    if card.get("uses"):
        parts.append(say(lang, "применений за ход: {v}", "uses this turn: {v}", v=_pairs(card["uses"], lang)))
    who = say(lang, "игрок {p}", "player {p}", p=card.get("controller", "?"))
    return f"{card.get('name', cid)} ({cid}), {who}: " + "; ".join(parts)


#: the interpreter's events that are not operations of a step (model/interpreter.py), by name
_EVENT_NAMES: dict[str, tuple[str, str]] = {
    "enter": ("начало шага", "step entered"), "goto": ("переход", "edge taken"),
    "play": ("особенность разыграна", "feature played"), "pass": ("пас", "pass"),
    "window_closed": ("окно закрыто", "window closed"), "end": ("конец игродействия", "end of the game action"),
    "omitted": ("пропущенные строки", "rows left out"),
}


def op_name(op: str, lang: str) -> str:
    """An operation's or event's name in the reader's language (an unknown one as it is).

    >>> op_name("roll_die", "ru"), op_name("play", "en"), op_name("mystery", "ru")
    ('бросить кубик', 'feature played', 'mystery')
    """
    kind = OPERATIONS.get(op)
    if kind is not None:
        return kind.ru if lang == "ru" else kind.en
    pair = _EVENT_NAMES.get(op)
    return (pair[0] if lang == "ru" else pair[1]) if pair else op


#: op -> (ru, en) sentence over the event's values (``fill``: plural forms allowed); an op not listed is
#: told by its vocabulary name and its values
_SAY: dict[str, tuple[str, str]] = {
    "declare": ("Объявлена особенность {feature} (часть {part}), она помещена в очередь заявок.",
                "{feature} is declared (part {part}) and put in the claim queue."),
    "check_resources": ("Проверка ресурсов для объявления: {ok}.", "Resources to declare checked: {ok}."),
    "reserve_resources": ("Зарезервировано: {reserved}.", "Reserved: {reserved}."),
    "resolve_claims": ("Заявки разрешены: {resolved}.", "Claims resolved: {resolved}."),
    "roll_die": ("Брошен кубик: {die}.", "The die is rolled: {die}."),
    "fix_raw_die": ("Значение кубика без модификаторов зафиксировано: {die_raw}.",
                    "The die's value without modifiers is fixed: {die_raw}."),
    "apply_dice_modifiers": ("Модификаторы броска применены: кубик {die} (применено: {applied}).",
                             "Dice modifiers applied: the die is {die} (applied: {applied})."),
    "fix_final_die": ("Итоговый бросок зафиксирован: {die_final}.", "The final die value is fixed: {die_final}."),
    "remove_die_effect": ("Эффект броска кубика убран из стека.", "The die's effect leaves the stack."),
    "determine_base": ("Сила и величина без модификаторов: сила {strength}, величина {magnitude}.",
                       "Strength and magnitude without modifiers: strength {strength}, magnitude {magnitude}."),
    "check_source_legality": ("Проверка легальности: {legal}.", "Legality checked: {legal}."),
    "apply_magnitude_modifiers": ("Модификаторы величины: {base} → {magnitude} (применено: {applied}).",
                                  "Magnitude modifiers: {base} → {magnitude} (applied: {applied})."),
    "finalize_magnitude": ("Окончательная величина: {magnitude}.", "The final magnitude: {magnitude}."),
    "apply_effect": ("Эффект наложен: {applied}.", "The effect is applied: {applied}."),
    "release_roles": ("Карты перестают быть источниками, целями, атакующими и защитниками.",
                      "The cards stop being sources, targets, attackers and defenders."),
    "pay_reserved": ("Оплачено: {paid}; не оплачено: {unpaid}.", "Paid: {paid}; not paid: {unpaid}."),
    "give_action_marker": ("Карта {card} получает маркеров действия: {markers}.",
                           "{card} gets action markers: {markers}."),
    "remove_from_stack": ("Особенность удалена из стека.", "The feature leaves the stack."),
    "window": ("Открыто окно приоритета {id}: первым отвечает игрок {first}; можно разыграть: {allows}.",
               "Priority window {id} opens: player {first} answers first; it admits: {allows}."),
    "end": ("Игродействие закончено.", "The game action ends."),
}


def _skipped(op: str, v: dict, lang: str) -> str:
    """An operation its guard skipped: what the guard says, and whether that is so."""
    g = parse_guard(str(v.get("guard", "")))
    if g is None or g.name not in GUARDS:
        return say(lang, "«{op}» не выполняется по условию {w}.", "«{op}» is not performed: guard {w}.",
                    op=op_name(op, lang), w=v.get("guard"))
    fact = guard_words(g.name + (f"({g.arg})" if g.arg is not None else ""), lang)
    # a skipped operation's guard did not hold: its word is so when the guard negates it, not so otherwise
    so = ("так и есть", "is so") if g.negated else ("не так", "is not so")
    return say(lang, "«{op}» не выполняется: {f} — {so} (условие свода: {w}).",
               "«{op}» is not performed: {f} {so} (the rulebook's guard: {w}).",
               op=op_name(op, lang), f=fact, so=so[0] if lang == "ru" else so[1], w=v["guard"])


def _goto(v: dict, lang: str) -> str:
    if v.get("guard") in (None, "always"):
        return say(lang, "Переход к шагу {to}.", "On to step {to}.", to=v.get("to"))
    return say(lang, "Переход к шагу {to}: выполнено условие {g}.", "On to step {to}: its guard {g} holds.",
                to=v.get("to"), g=guard_words(str(v["guard"]), lang))


def _fix_x(v: dict, lang: str) -> str:
    if not v.get("fixed"):
        return ""  # no X of that kind: nothing to tell
    return say(lang, "X ({x}) зафиксирован: {fixed}.", "X ({x}) is fixed: {fixed}.", x=v.get("x"),
                fixed=", ".join(f"{n} = {word(val, lang)}" for n, val in v["fixed"]))


def _base_without_table(v: dict, lang: str) -> str:
    told = [say(lang, "сила {x}", "strength {x}", x=v["strength"])] if v.get("strength") else []
    told.append(say(lang, "величина {x}", "magnitude {x}", x=word(v.get("magnitude"), lang)))
    return say(lang, "Без Таблицы ударов — сила и величина без модификаторов: {t}.",
                "Without the strike table — strength and magnitude without modifiers: {t}.", t=", ".join(told))


def _templated(op: str, v: dict, lang: str) -> str:
    """An operation told by its template in :data:`_SAY` (its values as a reader's words)."""
    params = {k: items(x, lang) for k, x in v.items()}
    params.setdefault("applied", items((), lang))
    params.setdefault("unpaid", items((), lang))
    for k in ("ok", "legal"):
        if isinstance(v.get(k), bool):
            params[k] = (("да" if v[k] else "нет") if lang == "ru" else ("yes" if v[k] else "no"))
    if op == "check_resources" and v.get("short"):
        params["ok"] += say(lang, " (не хватает: {s})", " (short: {s})", s=items(v["short"], lang))
    try:
        return fill(_SAY[op][0] if lang == "ru" else _SAY[op][1], params, lang)
    except (KeyError, IndexError):
        return _plain(op, v, lang)  # a value the template names is missing: told plainly


def _plain(op: str, v: dict, lang: str) -> str:
    shown = "; ".join(f"{k} {items(x, lang)}" for k, x in v.items() if x not in (None, (), [], ""))
    return f"{op_name(op, lang).capitalize()}" + (f": {shown}." if shown else ".")


#: the events told elsewhere: a pass with its window, a step's entry by its heading, a play in its own block
_UNTOLD = ("pass", "enter", "play", "omitted")


def op_sentence(row: dict, lang: str) -> str:
    """One event as a sentence ('' for one told elsewhere).

    >>> op_sentence({"op": "roll_die", "values": {"die": 4}}, "ru")
    'Брошен кубик: 4.'
    >>> op_sentence({"op": "remove_from_stack", "values": {"skipped": True, "guard": "resources_short"}}, "ru")
    '«удалить особенность из стека» не выполняется: «карта не обладает ресурсами для объявления» — не так (условие свода: resources_short).'
    >>> op_sentence({"op": "goto", "values": {"from": "dice", "to": "calculation", "guard": "always"}}, "en")
    'On to step calculation.'
    """
    op, v = row["op"], row.get("values", {})
    if v.get("skipped") is True:
        return _skipped(op, v, lang)
    if op in _UNTOLD:
        return ""
    if op == "determine_base" and not v.get("table", True):
        return _base_without_table(v, lang)
    special = {"goto": _goto, "fix_x": _fix_x}.get(op)
    if special is not None:
        return special(v, lang)
    if op == "window_closed":
        return say(lang, "Окно {id} закрыто.", "Window {id} closes.", id=v.get("id"))
    return _templated(op, v, lang) if op in _SAY else _plain(op, v, lang)
