"""Trace writer: an interpreter trace as a table a judge can read (step, clauses, event, values,
what changed in the state).

``trace_to_json`` turns the interpreter's events into plain dicts; each carries ``diff``, the
state change the event made: a list of ``{"path": [...], "old": …, "new": …}`` (``old`` absent
for a value that appears, ``new`` absent for one that goes), or ``{"path": [...], "append": […]}``
for a sequence that grew (the steps visited: only the new items, so a long run's trace does not
repeat the whole list at every step).  The first event's diff is the whole
initial state, so the states can be rebuilt from the dicts alone (:func:`states_from_trace`).

>>> from ruleproof.model.state import Card, State
>>> a = State(cards=(Card("kele", "Келе", "A", wounds=2),), action=None)
>>> b = State(cards=(Card("kele", "Келе", "A", wounds=0),), action=None)
>>> state_diff(flatten_state(a), flatten_state(b))
[{'path': ['cards', 'kele', 'wounds'], 'old': 2, 'new': 0}]
>>> format_diff(state_diff(flatten_state(a), flatten_state(b)))
'kele.wounds: 2 → 0'
>>> format_diff([{"path": ["visited"], "old": ["dice"], "new": ["dice", "calculation"]}])
'visited += [calculation]'
"""

from __future__ import annotations

import copy
from dataclasses import fields, is_dataclass

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ruleproof.ground.i18n import t, word

__all__ = ["print_trace", "format_values", "format_diff", "trace_to_json", "flatten_state", "state_diff",
           "apply_diff", "states_from_trace", "visible_events", "is_initial", "event_cells", "offending_line", "print_offending", "MARK"]

#: how every format marks an offending event (term, run, prove, md, html, junit)
MARK = "▶"

#: card fields that hold (name, number) pairs: shown and diffed as maps
_PAIR_MAPS = ("printed", "modifiers", "resources", "uses")
_MISSING = object()


def _item(i, lang: str) -> str:
    """One entry of a listed value: a tuple (an account such as ``b_ford:-1:unknown``) joined by ':'."""
    return ":".join(word(p, lang) for p in i) if isinstance(i, (tuple, list)) else word(i, lang)


def format_values(values: dict, lang: str = "en") -> str:
    """``{'die': 4, 'applied': ()}`` → ``die=4``; empty values are left out.

    >>> format_values({"legal": True, "checks": 1}, "ru")
    'legal=да; checks=1'
    >>> format_values({"applied": [("b_ford", -1, "unknown")]}, "ru")
    'applied=b_ford:-1:не установлено'
    """
    parts = []
    for k, v in values.items():
        if v in ((), [], None, ""):
            continue
        if isinstance(v, (tuple, list)):
            v = ", ".join(_item(i, lang) for i in v)
        parts.append(f"{k}={word(v, lang)}")
    return "; ".join(parts)


def _show(v, lang: str = "en") -> str:
    if v is None:
        return "—"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_item(i, lang) for i in v) + "]"
    if isinstance(v, dict):
        return "{}" if not v else str(v)
    return word(v, lang)


def format_diff(diff: list[dict], limit: int | None = None, lang: str = "en") -> str:
    """``kele.wounds: 2 → 0; action.die_raw: — → 4`` (``cards.`` left out of the paths)."""
    parts = []
    for d in diff:
        if d.get("old", d.get("new")) == {} and ("old" not in d or "new" not in d):
            continue  # an empty map's placeholder appearing or going: its entries say it
        path = d["path"][1:] if d["path"][:1] == ["cards"] else d["path"]
        name = ".".join(map(str, path))
        old, new = d.get("old"), d.get("new")
        if "append" in d:
            parts.append(f"{name} += {_show(d['append'], lang)}")
        elif isinstance(old, list) and isinstance(new, list) and old and len(new) > len(old) \
                and new[:len(old)] == old:
            parts.append(f"{name} += {_show(new[len(old):], lang)}")
        elif "old" not in d:
            parts.append(f"{name} = {_show(d['new'], lang)}")
        elif "new" not in d:
            parts.append(f"{name}: {_show(d['old'], lang)} → ∅")
        else:
            parts.append(f"{name}: {_show(d['old'], lang)} → {_show(d['new'], lang)}")
    if limit is not None and len(parts) > limit:
        parts = parts[:limit] + [f"… (+{len(parts) - limit})"]
    return "; ".join(parts)


def is_initial(row: dict, position: int) -> bool:
    """The first event of a trace carries the whole initial state as its diff."""
    return position == 0 and bool(row.get("diff")) and all("old" not in d for d in row["diff"])


def event_cells(r: dict, position: int, lang: str, highlight: tuple[int, ...] = (),
                limit: int | None = 8) -> dict[str, str]:
    """One trace row as text cells (seq, step, clauses, event, values, changes, rule); an offending
    event's seq carries the mark and its values include what was offered.

    >>> row = {"seq": 7, "step": "payment", "clauses": ["512.7"], "op": "pass", "rule": "",
    ...        "values": {"window": "payment_triggers", "offered": ["a_pay"]}, "diff": []}
    >>> c = event_cells(row, 3, "en", highlight=(7,))
    >>> c["seq"], c["values"]
    ('▶ 7', 'window=payment_triggers; offered=a_pay')
    """
    mark = r["seq"] in highlight
    if r["op"] == "omitted":  # the middle of a long trace, left out of the report
        v = r["values"]
        return {"seq": str(r["seq"]), "step": "", "clauses": "", "rule": "",
                "event": t("rep_omitted", lang), "values": t("rep_omitted_n", lang, n=v.get("events"), a=v.get("from"),
                                                              b=v.get("to")),
                "changes": format_diff(r.get("diff", []), limit, lang)}
    values = {k: v for k, v in r["values"].items() if k != "skipped" and (k != "offered" or mark)}
    event = f"{r['label']} ({r['op']})" if r.get("label") else r["op"]  # ``run``: the name in the reader's language
    if r["values"].get("skipped") is True:
        event += f" — {t('skipped', lang)}"
    return {"seq": f"{MARK} {r['seq']}" if mark else str(r["seq"]), "step": r["step"],
            "clauses": ", ".join(r["clauses"]), "event": event, "values": format_values(values, lang),
            "changes": t("rep_initial_state", lang) if is_initial(r, position) else format_diff(r.get("diff", []), limit, lang),
            "rule": ":".join(r["rule"].rsplit("/", 1)[-1].split(":")[:2]) if r.get("rule") else ""}


def offending_line(trace, highlight: tuple[int, ...], lang: str) -> str:
    """The first offending event in one line (``▶ 54 · handover · end · step=handover · …``), or ''.
    ``trace``: a Trace, its events, or their rows as dicts (as a Finding keeps them)."""
    if not highlight:
        return ""
    events = list(getattr(trace, "events", trace))
    rows = events if events and isinstance(events[0], dict) else trace_to_json(events, limit=None)
    for i, r in enumerate(rows):
        if r["seq"] in highlight:
            c = event_cells(r, i, lang, highlight)
            return " · ".join(x for x in (c["seq"], c["step"], c["clauses"], c["event"], c["values"], c["changes"]) if x)
    return ""


def print_offending(console: Console, trace, highlight: tuple[int, ...], lang: str) -> None:
    """The offending event in one line, above or below its trace (every terminal output: check, run, prove)."""
    line = offending_line(trace, highlight, lang)
    if line:
        console.print(f"  [bold red]{t('rep_offending', lang)}: {escape(line)}[/]", highlight=False, soft_wrap=True)


def visible_events(rows: list[dict], highlight: tuple[int, ...] = ()) -> list[dict]:
    """A counterexample shown compact: passes and window closings are implied (unless highlighted)."""
    return [r for r in rows if r["op"] not in ("pass", "window_closed") or r["seq"] in highlight]


def print_trace(console: Console, trace, lang: str, title: str = "", highlight: tuple[int, ...] = (),
                diff: bool = False, compact: bool | None = None) -> None:
    """A Trace, or its events as dicts (as a Finding keeps them); ``highlight``: seqs to mark.
    A counterexample (a list of dicts) is shown compact unless ``compact`` says otherwise: passes and
    window closings are implied.  ``diff``: add a column with what each event changed in the state."""
    given = not hasattr(trace, "events")  # rows already (a Finding's, or chosen by the caller)
    compact = given if compact is None else compact
    rows = list(trace) if given else trace_to_json(trace)
    if compact:
        rows = visible_events(list(rows), highlight)
    keys = ("seq", "step", "clauses", "event", "values", "rule") + (("changes",) if diff else ())
    table = Table(title=title or None)
    for key in keys:
        label = t(f"rep_col_{key}", lang) if diff else t(f"trace_{key}", lang)  # a report's columns are capitalised
        table.add_column(label, no_wrap=key in ("seq", "step", "rule"), overflow="fold",
                         ratio=3 if key in ("values", "changes") else None)
    for i, r in enumerate(rows):
        c = event_cells(r, i, lang, highlight)
        style = "bold red" if r["seq"] in highlight else ("dim" if r["op"] in ("pass", "enter", "window_closed") else "")
        table.add_row(*(Text(c[k]) for k in keys), style=style)
    console.print(table)


# --- state snapshots as flat paths -------------------------------------------------------------


def _plain(v):
    if isinstance(v, (tuple, list)):
        return [_plain(i) for i in v]
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items()}
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if is_dataclass(v):
        return getattr(v, "id", None) or getattr(v, "name", None) or repr(v)
    return str(v)


def _record(out: dict, path: tuple, obj, skip: tuple[str, ...] = ()) -> None:
    """A record's fields into ``out`` by path: a pair map by its keys, X variables by name, modifications by feature
    (each an empty mapping when there is none), the rest as plain values."""
    for f in fields(obj):
        name = f.name
        if name in skip:
            continue
        v = getattr(obj, name)
        nested = _nested(name, v)
        if nested is None:
            out[path + (name,)] = _plain(v)
            continue
        if not v:
            out[path + (name,)] = {}
        for key, x, inner_skip in nested:
            if inner_skip is None:
                out[path + (name, key)] = _plain(x)
            else:
                _record(out, path + (name, key), x, inner_skip)


def _nested(name: str, v) -> list | None:
    """(key, value, fields to skip or None for a plain value) of a field held by key (None: a plain field)."""
    if name in _PAIR_MAPS and isinstance(v, tuple) and all(
            isinstance(i, tuple) and len(i) == 2 and isinstance(i[0], str) for i in v):
        return [(str(k), x, None) for k, x in v]
    if name == "xs" and isinstance(v, tuple) and all(hasattr(x, "name") for x in v):
        return [(x.name, x, ("name",)) for x in v]
    if name == "modifications" and isinstance(v, tuple) and all(hasattr(m, "feature") for m in v):
        return [(m.feature, m, ("feature",)) for m in v]
    return None


def flatten_state(state) -> dict[tuple[str, ...], object]:
    """A game state as ``{path: value}``: cards by id (their features left out: they do not change),
    the executing action (its X variables by name, modifications by feature), the rest as is."""
    out: dict[tuple[str, ...], object] = {}
    for f in fields(state):
        v = getattr(state, f.name)
        if f.name == "cards":
            if not v:
                out[("cards",)] = {}
            for c in v:
                _record(out, ("cards", c.id), c, ("id", "features"))
        elif f.name == "action" and v is not None:
            _record(out, ("action",), v)
        else:
            out[(f.name,)] = _plain(v)
    return out


def state_diff(old: dict, new: dict) -> list[dict]:
    """What changed from one flat state to the next, in path order."""
    out = []
    for path in sorted(set(old) | set(new)):
        a, b = old.get(path, _MISSING), new.get(path, _MISSING)
        if a == b:
            continue
        entry: dict = {"path": list(path)}
        if isinstance(a, list) and isinstance(b, list) and a and len(b) > len(a) and b[:len(a)] == a:
            entry["append"] = b[len(a):]  # a sequence that grew (the steps visited): only what came
            out.append(entry)
            continue
        if a is not _MISSING:
            entry["old"] = a
        if b is not _MISSING:
            entry["new"] = b
        out.append(entry)
    return out


def apply_diff(state: dict, diff: list[dict]) -> dict:
    """A nested state (dicts) with ``diff`` applied: removals first, then new values."""
    state = copy.deepcopy(state)
    for d in diff:
        if "new" not in d and "append" not in d:
            node = state
            for k in d["path"][:-1]:
                node = node.get(k, {})
            if isinstance(node, dict):
                node.pop(d["path"][-1], None)
    for d in diff:
        if "new" in d or "append" in d:
            node = state
            for k in d["path"][:-1]:
                if not isinstance(node.get(k), dict):
                    node[k] = {}
                node = node[k]
            if "append" in d:
                node[d["path"][-1]] = list(node.get(d["path"][-1], [])) + copy.deepcopy(d["append"])
            else:
                node[d["path"][-1]] = copy.deepcopy(d["new"])
    return state


def states_from_trace(rows: list[dict]) -> list[dict]:
    """The nested state after each event, rebuilt from the events' diffs."""
    states: list[dict] = []
    cur: dict = {}
    for r in rows:
        cur = apply_diff(cur, r.get("diff", []))
        states.append(cur)
    return states


#: the most events a finding carries (a shipped ruling has up to 131; a looping draft's runs reach the step
#: limit with thousands): the middle of a longer trace is one "omitted" row, so a report's size does
#: not grow with a hostile rulebook
TRACE_LIMIT = 200


def trace_to_json(trace, limit: int | None = TRACE_LIMIT) -> list[dict]:
    """A trace (or its list of events) as plain JSON-ready dicts, each with its state diff.  A trace
    longer than ``limit`` keeps its first two thirds and last third of ``limit`` events; the ones
    between become one row (``op: omitted``, how many, and their state change in one diff, so the
    states still rebuild: :func:`states_from_trace`).

    >>> from ruleproof.model.interpreter import Event
    >>> from ruleproof.model.state import State
    >>> events = [Event(i, "dice", "roll_die", (), {"die": i}, State(cards=(), action=None)) for i in range(10)]
    >>> [r["op"] for r in trace_to_json(events, limit=6)]
    ['roll_die', 'roll_die', 'roll_die', 'roll_die', 'omitted', 'roll_die', 'roll_die']
    """
    events = list(getattr(trace, "events", trace))
    head, tail = (len(events), 0) if limit is None or len(events) <= limit else (limit * 2 // 3, limit // 3)
    rows: list[dict] = []
    prev: dict[tuple[str, ...], object] = {}  # the flattened state after the last row
    for i, e in enumerate(events):
        if head <= i < len(events) - tail:
            if i != head:
                continue
            last = events[len(events) - tail - 1]  # the gap's row carries the state after it
            row = {"seq": e.seq, "step": "", "op": "omitted", "clauses": [], "assumes": [], "rule": "",
                   "values": {"events": len(events) - head - tail, "from": e.seq, "to": last.seq}}
        else:
            last = e
            row = {"seq": e.seq, "step": e.step, "op": e.op, "clauses": list(e.clauses), "assumes": list(e.assumes),
                   "rule": e.where, "values": {k: _plain(v) for k, v in e.values.items()}}
        state = getattr(last, "state", None)
        if state is not None:
            flat = flatten_state(state)
            row["diff"] = state_diff(prev, flat)
            prev = flat
        rows.append(row)
    return rows
