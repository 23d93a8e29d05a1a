"""JSON Schemas of the rulebook and the scenario (ruling) formats, for an editor.

Generated from the loader's own pydantic models (:mod:`.schema`, :mod:`.scenario`), with the
vocabulary as enums — operations and their parameters, step kinds, guards, feature kinds and the keys
each reads, effects, trigger words, the windows of a rulebook, the catalogue's properties — and ru/en
descriptions from the same records.  An editor that speaks the YAML language server reads them from a
first line ``# yaml-language-server: $schema=…``; ``ruleproof schema rulebook|scenario`` writes them.
A schema is a help for writing, not the judge: the loader's checks (clause ids, references, placement)
still decide.  Draft-07, the dialect editors support most widely.

>>> s = rulebook_schema("en")
>>> "give_action_marker" in s["definitions"]["OperationSpec"]["properties"]["op"]["enum"]
True
>>> sorted(scenario_schema("en")["definitions"]["FeatureSpec"]["properties"]["kind"]["enum"])[:2]
['after_ability', 'block']
"""

from __future__ import annotations

import re
from dataclasses import fields as dc_fields
from typing import Any, get_type_hints

from .features import CARD_FEATURE_KEYS, CARD_FEATURE_KINDS, EFFECTS
from .scenario import ScenarioSpec
from .scenario.run import _bundled_windows
from .scenario.spec import _CARD_FIELDS
from .schema import RulebookSpec
from .state import Action
from .vocabulary import FEATURE_KEYS, FEATURE_KINDS, GUARDS, OPERATIONS, STEP_KINDS, TABLES, Param, guard_form

__all__ = ["rulebook_schema", "scenario_schema", "SCHEMAS", "schema_of"]

DRAFT = "http://json-schema.org/draft-07/schema#"
_REF = "#/definitions/{model}"

#: what each schema is of: the kind name -> its generator
SCHEMAS = ("rulebook", "scenario")


def _base(model, title: str, lang: str) -> dict:
    s = model.model_json_schema(ref_template=_REF)
    defs = s.pop("$defs", {})
    _words(s)
    _words(defs)
    return {"$schema": DRAFT, **s, "title": title, "definitions": defs}


def _words(node: Any) -> None:
    """Ids and clause ids may be written unquoted (540.3): the loader keeps their text, so the schema
    takes a number where it takes a word."""
    if isinstance(node, dict):
        if isinstance(node.get("title"), str):  # pydantic's titles are the field names, in English
            del node["title"]
        if node.get("type") == "string" and "enum" not in node and "const" not in node and "pattern" not in node:
            node["type"] = ["string", "number"]
        for v in node.values():
            _words(v)
    elif isinstance(node, list):
        for v in node:
            _words(v)


def _d(ru: str, en: str, lang: str) -> str:
    return ru if lang == "ru" else en


def _param(p: Param, lang: str) -> dict:
    if p.kind == "bool":
        return {"type": "boolean", "default": p.default} if p.default is not None else {"type": "boolean"}
    if p.kind == "choice":
        return {"enum": list(p.choices), **({"default": p.default} if p.default is not None else {})}
    if p.kind == "features":
        return {"type": "array", "items": {"enum": sorted(FEATURE_KINDS)}, "uniqueItems": True}
    return {"type": ["string", "number"]}


def _guard_pattern() -> str:
    names = [re.escape(g.name) + (r"\s*\(\s*[A-Za-z0-9_\-]+\s*\)" if g.takes_step else
                                  r"\s*\(\s*(?:1[0-5]|[0-9])\s*\)" if g.takes_number else "")
             for g in GUARDS.values()]
    return r"^\s*(not\s+)?(" + "|".join(names) + r")\s*$"


def rulebook_schema(lang: str = "en") -> dict:
    """The rulebook format (``ruleproof-rulebook/1``)."""
    s = _base(RulebookSpec, _d("Свод правил ruleproof (ruleproof-rulebook/1)", "ruleproof rulebook (ruleproof-rulebook/1)",
                               lang), lang)
    defs = s["definitions"]
    guard = {"type": "string", "pattern": _guard_pattern(), "description": "; ".join(
        f"{guard_form(g)}: {_d(g.ru, g.en, lang)}" for g in GUARDS.values())}
    op = defs["OperationSpec"]
    common = {k: v for k, v in op["properties"].items() if k != "op"}
    common["when"] = guard
    op["properties"]["op"] = {"enum": sorted(OPERATIONS), "description": _d(
        "операция из словаря (ruleproof/model/vocabulary.py)", "an operation of the vocabulary", lang)}
    op["properties"]["when"] = guard
    op["allOf"] = [{"if": {"properties": {"op": {"const": k.name}}, "required": ["op"]},
                    "then": {"description": f"{k.name}: {_d(k.ru, k.en, lang)} ({', '.join(k.cites)})",
                             "properties": {"op": {"const": k.name}, **common,
                                            **{n: _param(p, lang) for n, p in k.params.items()}},
                             "required": ["op", *[n for n, p in k.params.items() if p.required]],
                             "additionalProperties": False}}
                   for k in OPERATIONS.values()]
    op.pop("additionalProperties", None)
    defs["EdgeSpec"]["properties"]["when"] = guard
    defs["StepSpec"]["properties"]["kind"] = {"enum": list(STEP_KINDS), "description": "; ".join(
        f"{k.name}: {_d(k.ru, k.en, lang)}" for k in STEP_KINDS.values())}
    s["properties"]["format"] = {"const": "ruleproof-rulebook/1"}
    s["properties"]["tables"]["propertyNames"] = {"enum": sorted(TABLES)}
    op["description"] = _d("op — операция словаря; остальные ключи — её параметры (сверяются со словарём)",
                           "op names the operation; the other keys are its parameters (checked against the vocabulary)",
                           lang)
    defs["ReadingSpec"]["description"] = _d(
        "Другое прочтение (ruleproof readings): of — допущение, которое оно заменяет, about — пункты, которые оно "
        "читает иначе (нужно хотя бы одно из двух), statement — что оно говорит, patch — правка свода",
        "An alternative reading (ruleproof readings): of — the assumption it replaces, about — the clauses it reads "
        "otherwise (at least one of the two), statement — what it says, patch — the edit of the rulebook", lang)
    defs["PatchStep"]["description"] = _d(
        "Шаг правки JSON Patch (RFC 6902) над данными свода; path и from — указатели JSON вида "
        "/steps/payment/operations/1; шаг test называет, что там должно быть",
        "A JSON Patch (RFC 6902) step on the rulebook's data; path and from are JSON Pointers such as "
        "/steps/payment/operations/1; a test step names what must be there", lang)
    return s


def _any_case(words) -> str:
    """A regex (JSON Schema's ECMA dialect has no case flag) for any of ``words`` in any case, spaces around."""
    alts = ["".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else re.escape(c) for c in w) for w in words]
    return r"^\s*(?:" + "|".join(alts) + r")\s*$"


#: what the loader reads as a yes/no (pydantic's words for a bool, and да/нет): the editor takes the same
FLAG = {"anyOf": [{"type": "boolean"}, {"type": "string", "pattern": _any_case(
    ("да", "нет", "true", "false", "yes", "no", "on", "off", "t", "f", "y", "n", "1", "0"))}]}
#: a number the loader reads: written as a number or quoted
_NUMBER = {"type": "string", "pattern": r"^\s*-?\d+\s*$"}


def _readable(node: Any) -> None:
    """The scenario schema takes what the loader reads: a yes/no as да/нет too, a number quoted too."""
    if isinstance(node, dict):
        for k, v in list(node.items()):
            if isinstance(v, dict) and v.get("type") == "boolean":
                node[k] = {**{x: y for x, y in v.items() if x != "type"}, **FLAG}
            elif isinstance(v, dict) and v.get("type") == "integer":
                node[k] = {**{x: y for x, y in v.items() if x not in ("type", "minimum")},
                           "anyOf": [{"type": "integer", **({"minimum": v["minimum"]} if "minimum" in v else {})},
                                     _NUMBER]}
            else:
                _readable(v)
    elif isinstance(node, list):
        for v in node:
            _readable(v)


def _expect_fields(lang: str) -> dict:
    """``expect``'s ``cards``, ``x`` and ``action``: the fields the loader knows (RP112 for another), each read as
    its type (the same reading as a card's)."""
    count = {"anyOf": [{"type": "integer", "minimum": 0}, _NUMBER]}
    number = {"anyOf": [{"type": "integer"}, _NUMBER]}
    word = {"type": ["string", "number"]}
    card = {k: (count if k in ("wounds", "action_markers") else
                {"type": "object", "additionalProperties": count} if k == "resources" else FLAG) for k in _CARD_FIELDS}
    hints = get_type_hints(Action)
    by_type: dict[type, dict[str, Any]] = {bool: FLAG, int: number, str: word}

    def of(tp) -> dict:
        args = [a for a in getattr(tp, "__args__", (tp,)) if a is not type(None)]
        base = by_type.get(args[0]) if len(args) == 1 else None
        if base is None:
            return {}
        return {"anyOf": [base, {"type": "null"}]} if type(None) in getattr(tp, "__args__", ()) else base

    action = {f.name: of(hints.get(f.name)) for f in dc_fields(Action)}
    x = {"value": {"anyOf": [number, {"type": "null"}]}, "fixed_at": {"anyOf": [word, {"type": "null"}]},
         "fixes": count}
    return {
        "cards": {"type": "object", "description": _d("ожидаемые поля карт: " + ", ".join(_CARD_FIELDS),
                                                      "the cards' expected fields: " + ", ".join(_CARD_FIELDS), lang),
                  "additionalProperties": {"type": "object", "properties": card, "additionalProperties": False}},
        "x": {"type": "object", "additionalProperties": {"type": "object", "properties": x,
                                                         "additionalProperties": False}},
        "action": {"type": "object", "properties": action, "additionalProperties": False},
    }


def scenario_schema(lang: str = "en", windows: tuple[str, ...] | None = None) -> dict:
    """The scenario format (``ruleproof-scenario/1``); ``windows``: the window ids a response may name
    (the rulebook's; default the bundled rulebook's)."""
    from ruleproof.properties.catalogue import PROPERTIES  # read when called (a test plants properties)

    s = _base(ScenarioSpec, _d("Разъяснение ruleproof (ruleproof-scenario/1)", "ruleproof ruling (ruleproof-scenario/1)",
                               lang), lang)
    defs = s["definitions"]
    kinds = {**{k.name: _d(k.ru, k.en, lang) for k in FEATURE_KINDS.values()},
             **{k: k for k in CARD_FEATURE_KINDS}}
    feature = defs["FeatureSpec"]
    feature["properties"]["kind"] = {"enum": sorted(kinds), "description": "; ".join(
        f"{k}: {v}" for k, v in sorted(kinds.items()))}
    keys = {k.name: set(k.keys) for k in FEATURE_KINDS.values()} | {k: set(v) for k, v in CARD_FEATURE_KEYS.items()}
    every = set(FEATURE_KEYS)
    # a key that means something only for some kinds is refused on the others (RP164)
    feature["allOf"] = [{"if": {"properties": {"kind": {"const": kind}}, "required": ["kind"]},
                         "then": {"not": {"anyOf": [{"required": [k]} for k in sorted(every - mine)]}}}
                        for kind, mine in sorted(keys.items()) if every - mine]
    defs["EffectSpec"]["properties"]["do"] = {"enum": list(EFFECTS)}
    defs["ResponseSpec"]["properties"]["window"] = {"enum": list(windows if windows is not None else _bundled_windows())}
    _readable(s)
    defs["ExpectSpec"]["properties"].update(_expect_fields(lang))
    defs["ExpectSpec"]["properties"]["properties"] = {"type": "array", "items": {"enum": [p.id for p in PROPERTIES]}}
    defs["FollowSpec"]["description"] = _d(
        "Следующее игродействие того же хода: начинается с карт в том состоянии, в каком их оставило "
        "предыдущее (раны, закрытость, маркеры действия, использования за ход); свои броски, ответы и ожидания.",
        "A further game action in the same turn: it starts from the cards as the action before left them "
        "(wounds, closed, action markers, per-turn uses), with its own dice, responses and expectations.", lang)
    s["properties"]["then"]["description"] = _d("дальнейшие игродействия того же хода, по порядку",
                                                "further game actions in the same turn, in order", lang)
    defs["CaseSpec"]["description"] = _d(
        "Вариант разъяснения: мир и игродействие файла, изменённые там, где вариант это указывает "
        "(карты, игродействие, броски, ответы), со своими ожиданиями; его id — id-файла/id-варианта.",
        "A case of the ruling: the file's world and action, changed where the case says (cards, action, dice, "
        "responses), with its own expectations; its id is file-id/case-id.", lang)
    defs["CardPatch"]["description"] = _d("Что вариант меняет в карте файла (остальное — как в файле)",
                                          "What the case changes in a card of the file (the rest as the file has it)",
                                          lang)
    s["properties"]["cases"]["description"] = _d(
        "несколько вариантов на одном мире, у каждого свой expect (тогда expect наверху не пишется)",
        "several cases on one world, each with its own expect (then no expect at the top)", lang)
    s["oneOf"] = [{"required": ["expect"], "not": {"required": ["cases"]}},
                  {"required": ["cases"], "not": {"required": ["expect"]}}]
    s["properties"]["format"] = {"const": "ruleproof-scenario/1"}
    return s


def schema_of(kind: str, lang: str = "en", windows: tuple[str, ...] | None = None) -> dict:
    """The schema of ``kind`` (one of :data:`SCHEMAS`)."""
    return rulebook_schema(lang) if kind == "rulebook" else scenario_schema(lang, windows)
