"""Alternative readings of a rulebook: named, cited patches of its data.

Where the excerpts leave a real choice (an assumption, an ambiguous clause) the rulebook may say what
the other reading would be, in its ``readings:`` section::

    readings:
      R-marker-before-payment:
        of: A-action-marker               # the assumption it is an alternative to (optional)
        about: ["540.3", "510.2"]         # the clauses it reads otherwise
        statement: {ru: "…", en: "…"}
        patch:                            # JSON Patch (RFC 6902) on the rulebook's data
          - {op: test, path: /steps/payment/operations/1/op, value: give_action_marker}
          - {op: move, from: /steps/payment/operations/1, path: /steps/payment/operations/0}

:func:`variant` applies a reading's patch and validates the result like any draft; a patch that does
not apply (a path that is not there, a ``test`` that fails) or a result that is not a valid rulebook
is an error at the reading's line.  ``test`` steps pin what the patch expects to find, so a patch
written against an older rulebook fails loudly instead of editing the wrong element.

>>> from ruleproof.model.rulebook import load_rulebook
>>> rb = load_rulebook()
>>> r = readings(rb)[0]
>>> r.id, r.of
('R-marker-before-payment', 'A-action-marker')
>>> [op.op for op in variant(rb, r.id).spec.steps["payment"].operations][:2]
['give_action_marker', 'pay_reserved']
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

import jsonpatch

from ruleproof.ground.errors import Localized, Location, RuleproofError

from .rulebook import Rulebook, validate_data

__all__ = ["Reading", "readings", "variant", "assumption_of"]


@dataclass(frozen=True)
class Reading:
    """One alternative reading: what it changes (``patch``), what it is about and where it is written."""

    id: str
    of: str | None  # the assumption it is an alternative to
    about: tuple[str, ...]  # the clauses it reads otherwise
    statement: dict  # {ru, en}
    patch: tuple[dict, ...]
    where: Location

    def text(self, lang: str) -> str:
        return self.statement.get(lang) or self.statement["en"]


def readings(rb: Rulebook) -> list[Reading]:
    """The rulebook's alternative readings, in the order written."""
    raw = (rb.data or {}).get("readings") or {}
    out = []
    for rid, spec in rb.spec.readings.items():
        about = tuple(spec.about) or (tuple(rb.spec.assumptions[spec.of].about) if spec.of else ())
        out.append(Reading(rid, spec.of, about, {"ru": spec.statement.ru, "en": spec.statement.en},
                           tuple(_plain(op) for op in raw[rid]["patch"]), rb.where(("readings", rid))))
    return out


def assumption_of(r: Reading) -> str:
    """What a reading stands for in a dependency list: its assumption, else its clauses."""
    return r.of or ", ".join(r.about)


def variant(rb: Rulebook, rid: str) -> Rulebook:
    """The rulebook read the way reading ``rid`` says: its patch applied to a copy of the data (the
    ``readings`` section left out), validated like any draft.  Built once per rulebook and reading
    (``check`` asks for it to validate, then for the rulings, then for the counterexamples)."""
    made = rb.__dict__.setdefault("_variants", {})
    if rid not in made:
        made[rid] = _variant(rb, rid)
    return made[rid]


def _variant(rb: Rulebook, rid: str) -> Rulebook:
    assert rb.data is not None, "a rulebook with readings keeps the data it was loaded from"
    data = copy.deepcopy(rb.data)
    data.pop("readings", None)
    for j, op in enumerate(rb.data["readings"][rid]["patch"]):
        try:
            data = jsonpatch.apply_patch(data, [_plain(op)], in_place=True)
        except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as exc:
            raise RuleproofError("RP136", rb.where(("readings", rid, "patch", j)), reading=rid, n=j + 1,
                                 problem=_problem(exc, _plain(op), data)) from None
    try:
        return validate_data(data, rb.locs, f"{rb.path} [{rid}]", rb.index)
    except RuleproofError as exc:
        raise RuleproofError("RP137", rb.where(("readings", rid)), reading=rid,
                             problem=Localized(exc.what("ru"), exc.what("en")),
                             fix=Localized(exc.fix("ru"), exc.fix("en"))) from None


def _plain(value):
    """The YAML data as plain JSON values (a number keeps its value, not its source text)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _problem(exc: Exception, op: dict, data: dict) -> Localized:
    path = op.get("path", "")
    if isinstance(exc, jsonpatch.JsonPatchTestFailed):
        found = jsonpatch.JsonPointer(path).resolve(data, None)
        return Localized(f"по пути {path} записано {found!r}, а 'test' ждёт {op.get('value')!r}",
                         f"{path} holds {found!r}, its 'test' expects {op.get('value')!r}")
    if isinstance(exc, jsonpatch.InvalidJsonPatch):
        return Localized("шаг правки неверен: нужны op (add, remove, replace, move, copy, test), path и, где нужно, "
                         "value или from", f"an invalid patch step ({exc})")
    where = op.get("from", path) if isinstance(exc, jsonpatch.JsonPatchConflict) else path
    return Localized(f"пути {where} в своде нет", f"the rulebook has no {where} ({exc})")
