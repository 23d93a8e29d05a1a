"""Alternative readings of a rulebook: named, cited patches of its data.

Where the excerpts leave a real choice (an assumption, an ambiguous clause) the rulebook may say what
the other reading would be, in its ``readings:`` section::

    readings:
      R-marker-before-payment:
        of: A-action-marker               # the assumption it is an alternative to (optional)
        about: ["540.3", "510.2"]         # the clauses it reads otherwise
        statement: {ru: "…", en: "…"}
        patch:                            # JSON Patch (RFC 6902) on the rulebook's data
          - {op: move, from: "/steps/payment/operations/{op=give_action_marker}",
             path: "/steps/payment/operations/{op=pay_reserved}"}

A step of a list is named by what it holds, not by its place: ``{op=give_action_marker}`` is the one
element whose ``op`` is that (``{op=fix_x,x=cost}`` when one key is not enough; an edge by its ``to`` or
``when``); as the target of ``add`` or ``move`` it is the place of that element (the moved one goes before
it).  Plain positions (``/operations/1``) still work.  So a draft that moves an operation leaves the
readings about other operations applying as written.

:func:`variant` applies a reading's patch and validates the result like any draft.  A reading that does
not apply to a rulebook — an element it names is not there, a ``test`` step finds another value — is
*not applicable* there (:func:`not_applicable` says why): it is reported so, and never blocks a check.  A
patch that is not a patch (a bad step, a selector that names several elements) or a result that is not a
valid rulebook is an error at the reading's line.

>>> from ruleproof.model.rulebook import load_rulebook
>>> rb = load_rulebook()
>>> r = readings(rb)[0]
>>> r.id, r.of
('R-marker-before-payment', 'A-action-marker')
>>> [op.op for op in variant(rb, r.id).spec.steps["payment"].operations][:2]
['give_action_marker', 'pay_reserved']
>>> resolve("/steps/payment/operations/{op=give_action_marker}/defender", rb.data)
'/steps/payment/operations/1/defender'
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass

import jsonpatch

from ruleproof.ground.errors import Localized, Location, RuleproofError

from .rulebook import Rulebook, validate_data

__all__ = ["Reading", "readings", "variant", "assumption_of", "applicable", "not_applicable", "resolve", "NotApplicable"]


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


class NotApplicable(Exception):
    """A reading's patch finds not what it names in this rulebook (``step``: which patch step, from 1)."""

    def __init__(self, reading: str, step: int, reason: Localized) -> None:
        super().__init__(reason.en)
        self.reading, self.step, self.reason = reading, step, reason


def applicable(rb: Rulebook) -> list[Reading]:
    """The readings that apply to ``rb`` (each one's variant is a valid rulebook), in the order written."""
    gone = not_applicable(rb)
    return [r for r in readings(rb) if r.id not in gone]


def not_applicable(rb: Rulebook) -> dict[str, Localized]:
    """Per reading that does not apply to ``rb``: why (which step, what it did not find).  Raises for a patch
    that is not one (RP136) or a variant that is not a valid rulebook (RP137): those are the author's to fix."""
    done = rb.__dict__.get("_not_applicable")
    if done is None:
        done = {}
        for r in readings(rb):
            try:
                variant(rb, r.id)
            except NotApplicable as exc:
                done[r.id] = Localized(f"шаг правки {exc.step}: {exc.reason.ru}", f"patch step {exc.step}: {exc.reason.en}")
        rb.__dict__["_not_applicable"] = done
    return done


_SELECTOR = re.compile(r"^\{([^{}]+)\}$")


def resolve(pointer: str, data) -> str:
    """A JSON Pointer whose list steps may name their element (``{op=give_action_marker}``, ``{op=fix_x,x=cost}``)
    as a plain one (``/steps/payment/operations/1``).  An element named that is not there: :class:`LookupError`;
    one that names several: :class:`ValueError`."""
    if "{" not in pointer:
        return pointer
    node, out = data, list[str]()
    for token in pointer.split("/")[1:]:
        m = _SELECTOR.match(token)
        if m is not None:
            if not isinstance(node, list):
                raise LookupError(f"/{'/'.join(out)} is not a list")
            want = dict(kv.split("=", 1) for kv in m.group(1).split(","))
            hits = [i for i, item in enumerate(node) if isinstance(item, dict)
                    and all(_same(item.get(k.strip()), v.strip()) for k, v in want.items())]
            if not hits:
                raise LookupError(f"/{'/'.join(out)}/{token}")
            if len(hits) > 1:
                raise ValueError(f"/{'/'.join(out)}/{token} names {len(hits)} elements")
            token = str(hits[0])
        out.append(token)
        node = _step(node, token)
    return "/" + "/".join(out)


def _same(value, written: str) -> bool:
    """An element's value against a selector's text (``table=true`` matches YAML's true)."""
    if isinstance(value, bool):
        return written.lower() == str(value).lower()
    return value is not None and str(value) == written


def _step(node, token: str):
    try:
        return node[int(token)] if isinstance(node, list) else node[token.replace("~1", "/").replace("~0", "~")]
    except (KeyError, IndexError, ValueError, TypeError):
        return None  # the last step may name a place that is not there yet (add)


def _concrete(op: dict, data) -> dict:
    """A patch step with its named elements as positions: ``from`` in ``data``, ``path`` in the data as the step
    sees it (for ``move``, with ``from`` taken out first, as RFC 6902 says)."""
    out = dict(op)
    if "from" in out:
        out["from"] = resolve(str(out["from"]), data)
    if "path" in out and "{" in str(out["path"]):
        seen = data
        if out.get("op") == "move":
            seen = jsonpatch.apply_patch(data, [{"op": "remove", "path": out["from"]}], in_place=False)
        out["path"] = resolve(str(out["path"]), seen)
    return out


def _variant(rb: Rulebook, rid: str) -> Rulebook:
    assert rb.data is not None, "a rulebook with readings keeps the data it was loaded from"
    data = copy.deepcopy(rb.data)
    data.pop("readings", None)
    for j, op in enumerate(rb.data["readings"][rid]["patch"]):
        where = rb.where(("readings", rid, "patch", j))
        plain = _plain(op)
        try:
            plain = _concrete(plain, data)
            data = jsonpatch.apply_patch(data, [plain], in_place=True)
        except ValueError as exc:  # a selector naming several elements (jsonpatch's errors are not ValueErrors)
            raise RuleproofError("RP136", where, reading=rid, n=j + 1, problem=Localized(
                f"{exc}: добавьте ключ, например {{op=fix_x,x=cost}}", f"{exc}: add a key, e.g. {{op=fix_x,x=cost}}")) from None
        except LookupError as exc:
            raise NotApplicable(rid, j + 1, Localized(f"в своде нет {exc.args[0]}", f"the rulebook has no {exc.args[0]}")) from None
        except jsonpatch.InvalidJsonPatch as exc:
            raise RuleproofError("RP136", where, reading=rid, n=j + 1, problem=_problem(exc, plain, data)) from None
        except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException) as exc:
            raise NotApplicable(rid, j + 1, _problem(exc, plain, data)) from None
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
