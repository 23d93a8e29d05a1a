"""Evaluate Z3 bit-vector terms on concrete values, fast: a term is compiled once into a Python function.

The conformance check evaluates every disjunct of a transition system on the abstraction of every
interpreter state; substituting values and simplifying in Z3 costs milliseconds a step.  Here a
term (a DAG of Z3 applications over bit-vector and Boolean variables) becomes straight-line Python
code, one line per shared sub-term, compiled to a code object: a function of a dict of variable
values (unsigned integers) that returns an int or a bool.  Only the operations a compiled rulebook
uses are known; any other raises :class:`Unsupported` (a clear error, never a wrong value).

>>> import z3
>>> x, y = z3.BitVec("x", 4), z3.BitVec("y", 4)
>>> f = compile_terms([z3.If(z3.UGE(x, y), x - y, y - x), x + y, x < y])
>>> f({"x": 3, "y": 14})
(11, 1, False)
"""

from __future__ import annotations

from typing import Callable, Sequence

import z3

__all__ = ["compile_terms", "Unsupported"]


class Unsupported(ValueError):
    """A term uses an operation this evaluator does not know."""


def _mask(w: int) -> int:
    return (1 << w) - 1


_BINARY = {
    z3.Z3_OP_BADD: "({a} + {b}) & {m}", z3.Z3_OP_BSUB: "({a} - {b}) & {m}", z3.Z3_OP_BMUL: "({a} * {b}) & {m}",
    z3.Z3_OP_BOR: "({a} | {b})", z3.Z3_OP_BAND: "({a} & {b})", z3.Z3_OP_BXOR: "({a} ^ {b})",
    z3.Z3_OP_UGEQ: "({a} >= {b})", z3.Z3_OP_ULEQ: "({a} <= {b})", z3.Z3_OP_UGT: "({a} > {b})",
    z3.Z3_OP_ULT: "({a} < {b})",
    z3.Z3_OP_SGEQ: "(_s({a}, {w}) >= _s({b}, {w}))", z3.Z3_OP_SLEQ: "(_s({a}, {w}) <= _s({b}, {w}))",
    z3.Z3_OP_SGT: "(_s({a}, {w}) > _s({b}, {w}))", z3.Z3_OP_SLT: "(_s({a}, {w}) < _s({b}, {w}))",
    z3.Z3_OP_IMPLIES: "((not {a}) or {b})", z3.Z3_OP_XOR: "({a} != {b})",
}


def _signed(v: int, w: int) -> int:
    return v - (1 << w) if v >> (w - 1) & 1 else v


class _Compiler:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.names: dict[int, str] = {}  # AST id -> the local holding its value
        self.vars: dict[str, str] = {}  # variable name -> the local holding it

    def var(self, name: str) -> str:
        local = self.vars.get(name)
        if local is None:
            local = self.vars[name] = f"v{len(self.vars)}"
            self.lines.append(f"{local} = env[{name!r}]")
        return local

    def term(self, e) -> str:
        key = e.get_id()
        local = self.names.get(key)
        if local is not None:
            return local
        code = self._code(e)
        if code.isidentifier() or code.lstrip("-").isdigit() or code in ("True", "False"):
            self.names[key] = code
            return code
        local = self.names[key] = f"t{len(self.names)}"
        self.lines.append(f"{local} = {code}")
        return local

    def _code(self, e) -> str:
        if z3.is_bv_value(e):
            return str(e.as_long())
        if z3.is_true(e):
            return "True"
        if z3.is_false(e):
            return "False"
        if z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            return self.var(e.decl().name())
        k = e.decl().kind()
        args = [self.term(c) for c in e.children()]
        w = e.size() if z3.is_bv(e) else (e.arg(0).size() if e.num_args() and z3.is_bv(e.arg(0)) else 0)
        form = _FORMS.get(k)
        if form is not None:
            return form(e, args, w)
        if k in _NARY and len(args) > 2:
            acc = args[0]
            for b in args[1:]:
                acc = _BINARY[k].format(a=acc, b=b, m=_mask(w), w=w)
            return acc
        if k in _BINARY and len(args) == 2:
            return _BINARY[k].format(a=args[0], b=args[1], m=_mask(w), w=w)
        raise Unsupported(f"no concrete evaluation for {e.decl()} in {str(e)[:80]}")


def _concat(e, args: list[str], w: int) -> str:
    out, shift = [], 0
    for c, a in reversed(list(zip(e.children(), args))):
        out.append(f"({a} << {shift})" if shift else a)
        shift += c.size()
    return "(" + " | ".join(out) + ")"


def _extract(e, args: list[str], w: int) -> str:
    hi, lo = e.params()
    return f"(({args[0]} >> {lo}) & {_mask(hi - lo + 1)})"


#: Python for a Z3 operation (its term, its arguments' code, its width): the Boolean connectives and the
#: bit-vector operations that are not binary
_FORMS: dict[int, Callable] = {
    z3.Z3_OP_ITE: lambda e, args, w: f"({args[1]} if {args[0]} else {args[2]})",
    z3.Z3_OP_AND: lambda e, args, w: "(" + " and ".join(args) + ")" if args else "True",
    z3.Z3_OP_OR: lambda e, args, w: "(" + " or ".join(args) + ")" if args else "False",
    z3.Z3_OP_NOT: lambda e, args, w: f"(not {args[0]})",
    z3.Z3_OP_EQ: lambda e, args, w: f"({args[0]} == {args[1]})",
    z3.Z3_OP_DISTINCT: lambda e, args, w: f"(len({{{', '.join(args)}}}) == {len(args)})",
    z3.Z3_OP_BNOT: lambda e, args, w: f"({args[0]} ^ {_mask(w)})",
    z3.Z3_OP_BNEG: lambda e, args, w: f"(-{args[0]} & {_mask(w)})",
    z3.Z3_OP_EXTRACT: _extract,
    z3.Z3_OP_ZERO_EXT: lambda e, args, w: args[0],
    z3.Z3_OP_SIGN_EXT: lambda e, args, w: f"(_s({args[0]}, {e.arg(0).size()}) & {_mask(w)})",
    z3.Z3_OP_CONCAT: _concat,
}
#: the associative operations Z3 may give more than two arguments
_NARY = frozenset({z3.Z3_OP_BADD, z3.Z3_OP_BMUL, z3.Z3_OP_BOR, z3.Z3_OP_BAND, z3.Z3_OP_BXOR})


def compile_terms(terms: Sequence) -> Callable[[dict], tuple]:
    """One function computing every term of ``terms`` from a dict of variable values (shared
    sub-terms computed once).  Bit-vector values are unsigned ints, Booleans bools."""
    c = _Compiler()
    outs = [c.term(t) for t in terms]
    body = "\n".join(f"    {line}" for line in c.lines) or "    pass"
    src = f"def _f(env):\n{body}\n    return ({', '.join(outs)}{',' if len(outs) == 1 else ''})\n"
    scope: dict = {"_s": _signed}
    exec(compile(src, "<z3eval>", "exec"), scope)  # noqa: S102 - our own generated code, from Z3 terms
    return scope["_f"]
