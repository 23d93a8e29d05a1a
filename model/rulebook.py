"""Load and validate a rulebook file; every problem is a RuleproofError with file:line.

>>> rb = load_rulebook()            # the bundled rules, РП 4.1-2
>>> rb.spec.start, len(rb.spec.steps) >= 9
('declaration', True)
>>> where = rb.where(("steps", "dice"))
>>> open(where.file, encoding="utf-8").read().splitlines()[where.line - 1]
'  dice:'

"""

from __future__ import annotations

import re
import types
import typing
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Iterator

from pydantic import BaseModel, ValidationError

from ruleproof.ground.errors import Localized, Location, RuleproofError, did_you_mean, one_of, suggest

from .clauses import ClauseIndex, default_index, is_clause_id
from .graph import build_graph
from .schema import FORMAT, OperationSpec, RulebookSpec
from .structure import unreachable_steps
from .vocabulary import FEATURE_KINDS, GUARDS, OPERATIONS, STEP_KINDS, TABLES, guard_form, parse_guard, split_guard
from .yaml_source import LocMap, load_yaml, load_yaml_text

__all__ = ["Rulebook", "Citation", "load_rulebook", "load_rulebook_text", "bundled_rulebook_path", "describe_location",
           "BUNDLED", "from_pydantic", "check_clause_ids", "validate_data"]

BUNDLED = "berserk-rp-4.1-2.yaml"


@dataclass(frozen=True)
class Citation:
    """One model element and the clauses it cites (for `clauses --against` and coverage)."""

    element: str  # e.g. "step dice", "step dice / op 2 roll_die", "edge dice → calculation"
    kind: str  # step | operation | window | edge | table | assumption | reading
    clauses: tuple[str, ...]
    where: Location


@dataclass
class Rulebook:
    """A validated rulebook: its spec, where each part was written, and the clause index used."""

    spec: RulebookSpec
    locs: LocMap
    path: str
    index: ClauseIndex = field(default_factory=default_index)
    data: dict | None = field(default=None, repr=False, compare=False)  # as loaded (for readings' patches)

    def where(self, path: tuple) -> Location:
        return self.locs.at(path)

    def table(self, name: str) -> dict:
        """A table's rows with string keys (``strike_table``: die → [strength, return strength])."""
        return {str(getattr(k, "raw", k)): v for k, v in self.spec.tables[name].rows.items()}

    def citations(self) -> Iterator[Citation]:
        for aid, a in self.spec.assumptions.items():
            yield Citation(f"assumption {aid}", "assumption", tuple(a.about), self.where(("assumptions", aid)))
        for rid, r in self.spec.readings.items():
            yield Citation(f"reading {rid}", "reading", tuple(r.about), self.where(("readings", rid)))
        for name, table in self.spec.tables.items():
            yield Citation(f"table {name}", "table", tuple(table.cites), self.where(("tables", name)))
        for sid, step in self.spec.steps.items():
            yield Citation(f"step {sid}", "step", tuple(step.cites), self.where(("steps", sid)))
            for i, op in enumerate(step.operations):
                kind = "window" if op.op == "window" else "operation"
                label = f"window {op.params.get('id')}" if kind == "window" else f"op {i + 1} {op.op}"
                yield Citation(f"step {sid} / {label}", kind, tuple(op.cites),
                               self.where(("steps", sid, "operations", i)))
            for i, edge in enumerate(step.next):
                yield Citation(f"edge {sid} → {edge.to}", "edge", tuple(edge.cites),
                               self.where(("steps", sid, "next", i)))


def bundled_rulebook_path() -> Path:
    return Path(str(resources.files("ruleproof.rulebooks").joinpath(BUNDLED)))


def load_rulebook(path: str | Path | None = None, index: ClauseIndex | None = None,
                  check_reachable: bool = True) -> Rulebook:
    """Load a rulebook file (default: the bundled one) and validate it fully."""
    path = bundled_rulebook_path() if path is None else path
    data, locs = load_yaml(path, "rulebook")
    return _validate(data, locs, str(path), index or default_index(), check_reachable)


def load_rulebook_text(text: str, name: str = "<input>", index: ClauseIndex | None = None,
                       check_reachable: bool = True) -> Rulebook:
    data, locs = load_yaml_text(text, name, "rulebook")
    return _validate(data, locs, name, index or default_index(), check_reachable)


def validate_data(data: Any, locs: LocMap, name: str, index: ClauseIndex, check_reachable: bool = True) -> Rulebook:
    """A rulebook from already loaded data (``locs``: where each part was written), validated fully."""
    return _validate(data, locs, name, index, check_reachable)


def _validate(data: Any, locs: LocMap, name: str, index: ClauseIndex, check_reachable: bool) -> Rulebook:
    if not isinstance(data, dict):
        raise RuleproofError("RP108", locs.at(()), found=type(data).__name__)
    fmt = data.get("format")
    if fmt is not None and str(getattr(fmt, "raw", fmt)) != FORMAT:
        raise RuleproofError("RP132", locs.at(("format",)), found=fmt, expected=FORMAT)
    try:
        spec = RulebookSpec.model_validate(data)
    except ValidationError as exc:
        raise from_pydantic(exc, locs, RulebookSpec) from None
    rb = Rulebook(spec, locs, name, index, data)
    _Semantics(rb).run()
    if check_reachable:
        for sid in unreachable_steps(build_graph(rb)):
            raise RuleproofError("RP126", rb.where(("steps", sid)), step=sid, start=spec.start)
    return rb


def check_clause_ids(ids: list[str], locate, index: ClauseIndex) -> None:
    """Every id has the form of a clause id and is in the index; ``locate(j)`` places the j-th."""
    for j, cid in enumerate(ids):
        if not is_clause_id(cid):
            raise RuleproofError("RP122", locate(j), clause=cid)
        if cid not in index:
            raise RuleproofError("RP121", locate(j), clause=cid, hint=did_you_mean(index.suggest(cid)))


# --- shape errors from pydantic -------------------------------------------------------------------

#: pydantic's error types in Russian (the English side is pydantic's own message); ``{…}`` reads the
#: error's context (``ge``, ``min_length``)
_RU = {
    "string_type": "ожидается строка", "list_type": "ожидается список", "dict_type": "ожидается отображение",
    "model_type": "ожидается отображение", "bool_type": "ожидается true или false",
    "int_type": "ожидается целое число", "bool_parsing": "ожидается true или false",
    "int_parsing": "ожидается целое число", "int_from_float": "ожидается целое число, а здесь дробное",
    "float_parsing": "ожидается число", "float_type": "ожидается число",
    "greater_than_equal": "ожидается число не меньше {ge}", "greater_than": "ожидается число больше {gt}",
    "less_than_equal": "ожидается число не больше {le}", "tuple_type": "ожидается список",
    "too_short": "слишком мало элементов: нужно не меньше {min_length}",
    "too_long": "слишком много элементов: можно не больше {max_length}",
    "string_too_short": "ожидается непустая строка",
}


def _problem(err: dict) -> Localized:
    """A pydantic error's problem in each language; a type without a Russian text is named by the value
    it refused, never in English prose."""
    ctx = err.get("ctx") or {}
    ru = _RU.get(err["type"])
    return Localized(ru.format(**ctx) if ru else f"недопустимое значение {err.get('input')!r}", err["msg"])


def _choices(err: dict) -> list[str]:
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
        allowed = ", ".join(model.model_fields) if model is not None and hasattr(model, "model_fields") else "—"
        return RuleproofError("RP112", locs.at(loc), key=loc[-1], field=describe_location(loc[:-1]), allowed=allowed)
    if err["type"] == "literal_error" and (choices := _choices(err)):
        named = [c for c in choices if c]  # '' (the key left empty) is listed last, quoted
        return RuleproofError("RP119", locs.at(loc), field=describe_location(loc), value=err.get("input"),
                              hint=suggest(err.get("input"), named),
                              known=", ".join(named + (["''"] if "" in choices else [])))
    doc = "docs/rulebook-format.md" if root is RulebookSpec else "docs/rulings.md"
    return RuleproofError("RP110", locs.at(loc), field=describe_location(loc), problem=_problem(err), doc=doc)


# --- meaning -----------------------------------------------------------------------------------------

class _Semantics:
    """Checks names against the vocabulary, clause ids against the index, edges against steps."""

    def __init__(self, rb: Rulebook) -> None:
        self.rb = rb
        self.steps = rb.spec.steps
        self.known_steps = ", ".join(self.steps)

    def run(self) -> None:
        spec = self.rb.spec
        if spec.start not in self.steps:
            raise RuleproofError("RP129", self.rb.where(("start",)), start=spec.start, known=self.known_steps)
        for aid, a in spec.assumptions.items():
            self._clauses(a.about, ("assumptions", aid, "about"))
        for name, kind in TABLES.items():
            if name not in spec.tables:
                raise RuleproofError("RP135", self.rb.where(("tables",)), table=name, what=kind.en, what_ru=kind.ru)
        for name, table in spec.tables.items():
            self._table(name, table, ("tables", name))
        for rid, r in spec.readings.items():
            self._reading(rid, r)
        for sid, step in self.steps.items():
            base = ("steps", sid)
            if step.kind not in STEP_KINDS:
                raise RuleproofError("RP130", self.rb.where(base + ("kind",)), step=sid, kind=step.kind,
                                     known=", ".join(STEP_KINDS))
            self._cited(step.cites, step.assumes, base)
            for i, op in enumerate(step.operations):
                self._operation(op, base + ("operations", i))
            for i, edge in enumerate(step.next):
                where = base + ("next", i)
                if edge.to not in self.steps:
                    raise RuleproofError("RP125", self.rb.where(where + ("to",)), step=sid, target=edge.to,
                                         known=self.known_steps)
                self._guard(edge.when, where + ("when",))
                self._cited(edge.cites, edge.assumes, where)

    def _table(self, name: str, table, path: tuple) -> None:
        kind = TABLES.get(name)
        if kind is None:
            raise RuleproofError("RP133", self.rb.where(path), table=name, known=", ".join(TABLES))
        rows = {str(getattr(k, "raw", k)): v for k, v in table.rows.items()}
        missing = [k for k in kind.keys if k not in rows]
        extra = [k for k in rows if k not in kind.keys]
        if missing or extra:
            raise RuleproofError("RP134", self.rb.where(path + ("rows",)), table=name,
                                 problem=f"rows must be exactly {', '.join(kind.keys)}",
                                 problem_ru=f"строки должны быть ровно такими: {', '.join(kind.keys)}",
                                 fix="add the missing rows, remove the others", fix_ru="добавьте недостающие строки, уберите лишние")
        for key, value in rows.items():
            self._table_row(name, kind, key, value, path)
        if "min" in kind.keys and "max" in kind.keys and rows["min"] > rows["max"]:
            raise RuleproofError("RP134", self.rb.where(path + ("rows", "min")), table=name,
                                 problem=f"min {rows['min']} is greater than max {rows['max']}",
                                 problem_ru=f"min {rows['min']} больше max {rows['max']}",
                                 fix="swap them: min is the lowest face", fix_ru="поменяйте их местами: min — меньшая грань")
        self._cited(table.cites, table.assumes, path)

    def _table_row(self, name: str, kind, key: str, value, path: tuple) -> None:
        """One row of a table: its width, each value allowed at its position, within the table's bounds."""
        values = value if isinstance(value, list) else [value]
        where = self.rb.where(path + ("rows", key))
        if kind.width is not None and (not isinstance(value, list) or len(value) != kind.width):
            raise RuleproofError("RP134", where, table=name, problem=f"row {key} has {_short(value)}",
                                 problem_ru=f"в строке {key} значение {_short(value)}",
                                 fix=f"write {kind.width} values: [strength, return strength], e.g. [weak, none]",
                                 fix_ru=f"запишите {kind.width} значения: [сила, сила ответного удара], "
                                        f"например [weak, none]")
        self._row_values(name, kind, key, value, values, where)
        if kind.bounds and not all(kind.bounds[0] <= v <= kind.bounds[1] for v in values):
            lo, hi = kind.bounds
            raise RuleproofError("RP134", where, table=name, problem=f"row {key} is {_short(value)}, outside {lo}..{hi}",
                                 problem_ru=f"строка {key} равна {_short(value)}, вне {lo}..{hi}",
                                 fix=f"use a number from {lo} to {hi} (the engines hold die values in that range)",
                                 fix_ru=f"укажите число от {lo} до {hi} (движки хранят значения кубика в этих пределах)")

    def _row_values(self, name: str, kind, key: str, value, values: list, where) -> None:
        """Each value of a row is one its position allows (or a whole number, for a table of numbers)."""
        bad = None  # the position of the first value its position does not allow
        if kind.values:  # a table with columns allows by position, else the same everywhere
            allows = kind.columns or (kind.values,) * len(values)
            bad = next((i for i, (v, a) in enumerate(zip(values, allows)) if v not in a), None)
            ok = bad is None
        else:
            ok = not isinstance(value, list) and isinstance(value, int) and not isinstance(value, bool)
        if not ok:
            choices = allows[bad] if bad is not None else ()
            allowed = ", ".join(choices)
            odd = values[bad] if bad is not None else None
            near = suggest(odd, choices) if odd is not None else did_you_mean(None)
            at_en = f" (position {bad + 1})" if kind.columns and bad is not None else ""
            at_ru = f" (позиция {bad + 1})" if kind.columns and bad is not None else ""
            raise RuleproofError("RP134", where, table=name,
                                 problem=f"row {key} has {_short(value)}{at_en}{near.en}",
                                 problem_ru=f"в строке {key} значение {_short(value)}{at_ru}{near.ru}",
                                 fix=f"use: {allowed}" if allowed else "write a whole number",
                                 fix_ru=f"допустимо: {allowed}" if allowed else "запишите целое число")

    def _reading(self, rid: str, r) -> None:
        path = ("readings", rid)
        if r.of is not None and r.of not in self.rb.spec.assumptions:
            raise RuleproofError("RP127", self.rb.where(path + ("of",)), assumption=r.of,
                                 known=", ".join(self.rb.spec.assumptions) or "—")
        if r.of is None and not r.about:
            raise RuleproofError("RP138", self.rb.where(path), reading=rid)
        self._clauses(r.about, path + ("about",))

    def _cited(self, cites: list[str], assumes: list[str], path: tuple) -> None:
        self._clauses(cites, path + ("cites",))
        for j, aid in enumerate(assumes):
            if aid not in self.rb.spec.assumptions:
                raise RuleproofError("RP127", self.rb.where(path + ("assumes", j)), assumption=aid,
                                     known=", ".join(self.rb.spec.assumptions) or "—")

    def _clauses(self, ids: list[str], path: tuple) -> None:
        check_clause_ids(ids, lambda j: self.rb.where(path + (j,)), self.rb.index)

    def _guard(self, text: str, path: tuple) -> None:
        guard = parse_guard(text)
        written = split_guard(text) if guard is None else None
        if written and written.arg is not None and written.name in GUARDS \
                and GUARDS[written.name].takes_number:  # a number guard with something else in parentheses
            raise RuleproofError("RP144", self.rb.where(path), guard=text, value=written.arg,
                                 form=guard_form(GUARDS[written.name]), example=f"{written.name}(2)")
        if guard is None:
            raise RuleproofError("RP123", self.rb.where(path), guard=text,
                                 known=", ".join(guard_form(g) for g in GUARDS.values()))
        if GUARDS[guard.name].takes_step and guard.arg not in self.steps:
            raise RuleproofError("RP124", self.rb.where(path), guard=text, target=guard.arg,
                                 known=self.known_steps)

    def _operation(self, op: OperationSpec, path: tuple) -> None:
        kind = OPERATIONS.get(op.op)
        if kind is None:
            raise RuleproofError("RP120", self.rb.where(path + ("op",)), op=op.op, hint=suggest(op.op, OPERATIONS),
                                 known=", ".join(OPERATIONS))
        params = op.params
        for key, value in params.items():
            spec = kind.params.get(key)
            where = self.rb.where(path + (key,))
            if spec is None:
                allowed = ", ".join(["op", "cites", "assumes", "when", "note", *kind.params])
                raise RuleproofError("RP112", where, key=key, field=_operation_field(op.op), allowed=allowed)
            problem = _param_problem(spec, value)
            if problem:
                raise RuleproofError("RP128", where, op=op.op, key=key, problem=problem[0], fix=problem[1])
        for key, spec in kind.params.items():
            if spec.required and key not in params:
                raise RuleproofError("RP111", self.rb.where(path), key=key, field=_operation_field(op.op))
        if op.op == "window":
            for j, feat in enumerate(params["allows"]):
                if feat not in FEATURE_KINDS:
                    raise RuleproofError("RP131", self.rb.where(path + ("allows", j)), window=params["id"],
                                         feature=feat, known=", ".join(FEATURE_KINDS))
        self._guard(op.when, path + ("when",))
        self._cited(op.cites, op.assumes, path)


def _operation_field(op: str) -> Localized:
    """Where a key of an operation is, as RP111/RP112 say it («в операции 'fix_x'»)."""
    return Localized(f"операции '{op}'", f"operation '{op}'")


def _param_problem(spec, value) -> tuple[Localized, Localized] | None:
    """What is wrong with an operation parameter's ``value`` and how to fix it, in each language."""
    value = getattr(value, "raw", value)
    if spec.kind == "choice" and value not in spec.choices:
        near = suggest(value, spec.choices)
        return Localized(f"значение '{value}'{near.ru}", f"is '{value}'{near.en}"), one_of(spec.choices)
    if spec.kind == "bool" and not isinstance(value, bool):
        return (Localized(f"значение '{value}', а нужно true или false", f"is '{value}', not true/false"),
                Localized("запишите true или false", "write true or false"))
    if spec.kind == "str" and not isinstance(value, str):
        return (Localized(f"значение '{value}', а нужно имя", f"is '{value}', not a name"),
                Localized("запишите короткое имя", "write a short name"))
    if spec.kind == "features" and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        return (Localized("нужен список видов особенностей", "must be a list of feature kinds"),
                Localized("например, allows: [reroll]", "write e.g. allows: [reroll]"))
    return None


def _short(value, limit: int = 60) -> str:
    """A value as a message quotes it: its repr, cut to ``limit`` characters (a hostile input does not
    make the message long)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
