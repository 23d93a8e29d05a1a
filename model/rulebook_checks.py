"""What a rulebook is checked for once its schema holds: clause ids the index knows, tables of the right shape,
guards and operations of the vocabulary with their parameters, assumptions and readings that exist (one
RuleproofError each, at file:line, with the fix)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruleproof.ground.errors import Localized, RuleproofError, did_you_mean, one_of, suggest

from .clauses import ClauseIndex, is_clause_id
from .schema import OperationSpec
from .vocabulary import FEATURE_KINDS, GUARDS, OPERATIONS, STEP_KINDS, TABLES, guard_form, parse_guard, split_guard

__all__ = ["check_clause_ids"]

if TYPE_CHECKING:  # annotations only: the loader runs these checks
    from .rulebook import Rulebook


def check_clause_ids(ids: list[str], locate, index: ClauseIndex) -> None:
    """Every id has the form of a clause id and is in the index; ``locate(j)`` places the j-th."""
    for j, cid in enumerate(ids):
        if not is_clause_id(cid):
            raise RuleproofError("RP122", locate(j), clause=cid)
        if cid not in index:
            raise RuleproofError("RP121", locate(j), clause=cid, hint=did_you_mean(index.suggest(cid)))


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
