"""The loader's schema errors in the user's words: pydantic's error at a place of a YAML file becomes one
RuleproofError (RP110-RP112, RP119) at file:line, in Russian and English, with the allowed choices."""

from __future__ import annotations

import re
import types
import typing

from pydantic import BaseModel, ValidationError

from ruleproof.ground.errors import Localized, Location, RuleproofError, suggest

from .schema import RulebookSpec
from .yaml_source import LocMap

if typing.TYPE_CHECKING:
    from pydantic_core import ErrorDetails  # pydantic's own dependency: named for the type checker only

__all__ = ["describe_location", "from_pydantic", "value_error"]


#: pydantic's error types in Russian (the English side is pydantic's own message); ``{…}`` reads the
#: error's context (``ge``, ``min_length``)
_RU = {
    "string_type": "ожидается строка", "list_type": "ожидается список", "dict_type": "ожидается отображение",
    "model_type": "ожидается отображение", "bool_type": "ожидается да или нет (или true, false)",
    "int_type": "ожидается целое число", "bool_parsing": "ожидается да или нет (или true, false)",
    "int_parsing": "ожидается целое число", "int_from_float": "ожидается целое число, а здесь дробное",
    "float_parsing": "ожидается число", "float_type": "ожидается число",
    "greater_than_equal": "ожидается число не меньше {ge}", "greater_than": "ожидается число больше {gt}",
    "less_than_equal": "ожидается число не больше {le}", "tuple_type": "ожидается список",
    "too_short": "слишком мало элементов: нужно не меньше {min_length}",
    "too_long": "слишком много элементов: можно не больше {max_length}",
    "string_too_short": "ожидается непустая строка",
}


#: pydantic's error types said otherwise in English (a yes/no is written true or false, as the output prints it)
_EN = {"bool_type": "expected true or false", "bool_parsing": "expected true or false"}


def _problem(err: ErrorDetails) -> Localized:
    """A pydantic error's problem in each language; a type without a Russian text is named by the value
    it refused, never in English prose."""
    ctx = err.get("ctx") or {}
    ru = _RU.get(err["type"])
    return Localized(ru.format(**ctx) if ru else f"недопустимое значение {err.get('input')!r}",
                     _EN.get(err["type"], err["msg"]))


def value_error(exc: ValidationError, where: Location, field: str) -> RuleproofError:
    """One RuleproofError (RP110, or RP119 for a value outside its choices) for a value that a type of
    the scenario format refused, read where the loader found it (``field``: its place, for the reader)."""
    err = exc.errors()[0]
    if err["type"] == "literal_error" and (choices := _choices(err)):
        return RuleproofError("RP119", where, field=field, value=err.get("input"),
                              hint=suggest(err.get("input"), choices), known=", ".join(choices))
    said = _SAID.get(err["type"])
    if said is not None:
        (ru, en), fix = said
        return RuleproofError("RP150", where, problem=Localized(f"{field}: {ru}, а здесь {err.get('input')!r}",
                                                                f"{field}: {en}, not {err.get('input')!r}"),
                              fix=fix)
    return RuleproofError("RP110", where, field=field, problem=_problem(err), doc="docs/rulings.md")


_YES_NO = (("ожидается да или нет", "expected true or false"), Localized("напишите да или нет", "write true or false"))
_WHOLE = (("ожидается целое число", "expected a whole number"),
          Localized("напишите целое число, например 0", "write a whole number, e.g. 0"))

#: a value of the wrong type in an expectation: what is wrong and how to mend it, by pydantic's error type
_SAID = {"bool_type": _YES_NO, "bool_parsing": _YES_NO, "int_type": _WHOLE, "int_parsing": _WHOLE,
         "int_from_float": _WHOLE}


def _choices(err: ErrorDetails) -> list[str]:
    """The values a Literal field allows, as pydantic lists them (``'A' or 'B'``)."""
    return re.findall(r"'((?:[^'\\]|\\.)*)'", str((err.get("ctx") or {}).get("expected", "")))


def _model_at(root: type, loc: tuple) -> type | None:
    """The pydantic model a location points into (for the list of allowed keys)."""
    def unwrap(t):
        while typing.get_origin(t) in (typing.Union, types.UnionType, typing.Annotated):
            t = [a for a in typing.get_args(t) if a is not type(None)][0]
        return t

    current: object = unwrap(root)
    for part in loc:
        origin = typing.get_origin(current)
        if origin in (list, dict):
            current = unwrap(typing.get_args(current)[-1])
        elif isinstance(current, type) and issubclass(current, BaseModel) and part in current.model_fields:
            current = unwrap(current.model_fields[part].annotation)
        else:
            return None
    return current if isinstance(current, type) else None


def describe_location(loc: tuple):
    """A place in a YAML document for a reader: ``steps → dice → operations[2]``, or «the top level»."""
    out = ""
    for part in loc:
        out += f"[{part + 1}]" if isinstance(part, int) else (f" → {part}" if out else str(part))
    return out or Localized("корне файла", "the top level")


def from_pydantic(exc: ValidationError, locs: LocMap, root: type) -> RuleproofError:
    """One RuleproofError (the first problem) from a pydantic ValidationError, located in the file."""
    err = exc.errors()[0]
    loc = tuple(err["loc"])
    if err["type"] == "missing":
        return RuleproofError("RP111", locs.at(loc[:-1]), key=loc[-1], field=describe_location(loc[:-1]))
    if err["type"] == "extra_forbidden":
        model = _model_at(root, loc[:-1])
        keys = list(model.model_fields) if model is not None and hasattr(model, "model_fields") else []
        allowed = ", ".join(keys) or "—"
        hint = suggest(loc[-1], keys)
        return RuleproofError("RP112", locs.at(loc), key=loc[-1], field=describe_location(loc[:-1]), allowed=allowed,
                              hint=hint)
    if err["type"] == "literal_error" and (choices := _choices(err)):
        named = [c for c in choices if c]  # '' (the key left empty) is listed last, quoted
        return RuleproofError("RP119", locs.at(loc), field=describe_location(loc), value=err.get("input"),
                              hint=suggest(err.get("input"), named),
                              known=", ".join(named + (["''"] if "" in choices else [])))
    doc = "docs/rulebook-format.md" if root is RulebookSpec else "docs/rulings.md"
    return RuleproofError("RP110", locs.at(loc), field=describe_location(loc), problem=_problem(err), doc=doc)
