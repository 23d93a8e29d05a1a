"""What a draft changes against a base rulebook: its elements, and the smallest game they differ on.

:func:`structural_diff` compares the two rulebooks element by element — steps, operations, priority
windows (what they admit, who goes first), guards, edges, tables, assumptions — and says for each
change whether the element was added, removed, moved or changed, with the clauses either version
cites.  An operation is known by its name and its distinguishing parameter (``fix_x`` by its X
kind, ``window`` by its id), so moving it to another step or another place reads as a move.

:func:`smallest_difference` runs the same world with the same choices on both rulebooks, breadth
first over the bounded worlds (fewest choices first), and returns the first run on which they part:
the first event that differs, or a choice one of them asks and the other does not.

>>> from ruleproof.model.rulebook import load_rulebook
>>> rb = load_rulebook()
>>> structural_diff(rb, rb)
[]
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .interpreter import Event, _Run, start
from .rulebook import Rulebook
from .vocabulary import OPERATIONS

__all__ = ["Change", "structural_diff", "by_clause", "Difference", "smallest_difference", "event_key", "moved_within",
           "changed_operations", "visible_key", "final_key"]


@dataclass(frozen=True)
class Change:
    what: str  # added | removed | moved | changed
    element: str  # e.g. "operation fix_x x=cost", "window reroll", "edge blocking → effect", "step dice"
    clauses: tuple[str, ...]
    en: str
    ru: str
    where: str = ""  # file:line in the draft (or in the base for a removed element)

    def text(self, lang: str) -> str:
        return self.ru if lang == "ru" else self.en


def _op_label(op) -> str:
    p = op.params
    if op.op == "window":
        return f"window {p['id']}"
    return f"operation {op.op}" + (f" x={p['x']}" if "x" in p else "")


def _ru_label(label: str) -> str:
    """An element's label for a Russian reader: «операция fix_x x=cost», «окно reroll»."""
    for en, ru in (("operation ", "операция "), ("window ", "окно ")):
        if label.startswith(en):
            return ru + label[len(en):]
    return label


def _g(label: str, feminine: str) -> str:
    """The verb's form for the element: «операция … удалена», «окно … удалено»."""
    return feminine[:-1] + "о" if label.startswith("window ") else feminine


def _ops(rb: Rulebook) -> dict[str, tuple[str, int, object]]:
    """label (made unique by occurrence) -> (step, index, spec)."""
    out: dict[str, tuple[str, int, object]] = {}
    for sid, step in rb.spec.steps.items():
        for i, op in enumerate(step.operations):
            label, n = _op_label(op), 2
            while label in out:
                label = f"{_op_label(op)} #{n}"
                n += 1
            out[label] = (sid, i, op)
    return out


def changed_operations(base: Rulebook, draft: Rulebook) -> set[tuple[str, int]]:
    """(step, position) in ``draft`` of every operation or window its structural diff names (added, moved, with
    another guard, parameter or citation): what a picture of the draft marks as changed."""
    dops = _ops(draft)
    named = (c.element.removeprefix("guard of ") for c in structural_diff(base, draft) if c.what != "removed")
    return {dops[label][:2] for label in named if label in dops}


def _cites(*specs) -> tuple[str, ...]:
    return tuple(dict.fromkeys(c for s in specs if s is not None for c in s.cites))


def _w(rb: Rulebook, *path) -> str:
    return str(rb.where(tuple(path)))


def structural_diff(base: Rulebook, draft: Rulebook) -> list[Change]:
    """Every element of ``draft`` that differs from ``base`` (empty: the same rules, whatever the wording):
    its steps and their edges, the operations, the tables, the assumptions and the start step."""
    out: list[Change] = []
    _step_changes(base, draft, out)
    _operation_changes(base, draft, out)
    _table_changes(base, draft, out)
    _assumption_changes(base, draft, out)
    if base.spec.start != draft.spec.start:
        out.append(Change("changed", "start step", (), f"start step {base.spec.start} → {draft.spec.start}",
                          f"начальный шаг {base.spec.start} → {draft.spec.start}"))
    return out


def _step_changes(base: Rulebook, draft: Rulebook, out: list[Change]) -> None:
    """Steps removed, added, of another kind; per step kept, its edges (:func:`_edge_changes`)."""
    bs, ds = base.spec.steps, draft.spec.steps
    for sid in bs.keys() - ds.keys():
        out.append(Change("removed", f"step {sid}", _cites(bs[sid]), f"step {sid} removed", f"шаг {sid} удалён",
                          _w(base, "steps", sid)))
    for sid in ds.keys() - bs.keys():
        out.append(Change("added", f"step {sid}", _cites(ds[sid]), f"step {sid} added", f"добавлен шаг {sid}",
                          _w(draft, "steps", sid)))
    for sid in sorted(bs.keys() & ds.keys()):
        if bs[sid].kind != ds[sid].kind:
            out.append(Change("changed", f"step {sid}", _cites(bs[sid], ds[sid]),
                              f"step {sid}: kind {bs[sid].kind} → {ds[sid].kind}",
                              f"шаг {sid}: вид {bs[sid].kind} → {ds[sid].kind}", _w(draft, "steps", sid)))
        _edge_changes(base, draft, sid, out)


def _edge_changes(base: Rulebook, draft: Rulebook, sid: str, out: list[Change]) -> None:
    """The edges of step ``sid`` (in both): removed, added, with another guard, tried in another order."""
    bs, ds = base.spec.steps, draft.spec.steps
    bedges = {e.to: e for e in bs[sid].next}
    dedges = {e.to: e for e in ds[sid].next}
    for to in bedges.keys() - dedges.keys():
        out.append(Change("removed", f"edge {sid} → {to}", _cites(bedges[to]), f"edge {sid} → {to} removed",
                          f"переход {sid} → {to} удалён", _w(base, "steps", sid)))
    for to in dedges.keys() - bedges.keys():
        i = [e.to for e in ds[sid].next].index(to)
        out.append(Change("added", f"edge {sid} → {to}", _cites(dedges[to]),
                          f"edge {sid} → {to} added (when {dedges[to].when})",
                          f"добавлен переход {sid} → {to} (при {dedges[to].when})", _w(draft, "steps", sid, "next", i)))
    for to in bedges.keys() & dedges.keys():
        i = [e.to for e in ds[sid].next].index(to)
        if bedges[to].when != dedges[to].when:
            out.append(Change("changed", f"guard of edge {sid} → {to}", _cites(bedges[to], dedges[to]),
                              f"edge {sid} → {to}: guard {bedges[to].when} → {dedges[to].when}",
                              f"переход {sid} → {to}: условие {bedges[to].when} → {dedges[to].when}",
                              _w(draft, "steps", sid, "next", i)))
    border = [e.to for e in bs[sid].next if e.to in dedges]
    dorder = [e.to for e in ds[sid].next if e.to in bedges]
    if border != dorder:
        out.append(Change("moved", f"edges of {sid}", _cites(*bs[sid].next, *ds[sid].next),
                          f"step {sid}: edges tried in a different order ({', '.join(dorder)})",
                          f"шаг {sid}: переходы проверяются в другом порядке ({', '.join(dorder)})",
                          _w(draft, "steps", sid)))


def _operation_changes(base: Rulebook, draft: Rulebook, out: list[Change]) -> None:
    """Operations removed, added, and per operation in both (:func:`_operation_change`), in the draft's order."""
    ds = draft.spec.steps
    bops, dops = _ops(base), _ops(draft)
    for label in bops.keys() - dops.keys():
        sid, i, op = bops[label]
        out.append(Change("removed", label, _cites(op), f"{label} removed from step {sid}",
                          f"{_ru_label(label)} {_g(label, 'удалена')} из шага {sid}", _w(base, "steps", sid, "operations", i)))
    for label in dops.keys() - bops.keys():
        sid, i, op = dops[label]
        out.append(Change("added", label, _cites(op), f"{label} added to step {sid} at position {i + 1}",
                          f"{_ru_label(label)} {_g(label, 'добавлена')} в шаг {sid} на место {i + 1}", _w(draft, "steps", sid, "operations", i)))
    common = bops.keys() & dops.keys()
    for label in sorted(common, key=lambda k: (list(ds).index(dops[k][0]) if dops[k][0] in ds else 0, dops[k][1])):
        _operation_change(label, bops, dops, common, draft, out)


def _operation_change(label: str, bops: dict, dops: dict, common, draft: Rulebook, out: list[Change]) -> None:
    """One operation in both rulebooks: moved to another step or among its neighbours, its guard, its parameters
    (a window's admitted kinds and priority: :func:`_window_changes`), its citations."""
    (bsid, bi, bop), (dsid, di, dop) = bops[label], dops[label]
    where = _w(draft, "steps", dsid, "operations", di)
    if bsid != dsid:
        out.append(Change("moved", label, _cites(bop, dop), f"{label} moved from step {bsid} to step {dsid}",
                          f"{_ru_label(label)} {_g(label, 'перенесена')} из шага {bsid} в шаг {dsid}", where))
    else:
        stayed = [lb for lb in common if bops[lb][0] == dops[lb][0] == bsid]  # in this step in both
        if label in moved_within(sorted(stayed, key=lambda lb: bops[lb][1]), sorted(stayed, key=lambda lb: dops[lb][1])):
            out.append(Change("moved", label, _cites(bop, dop),
                              f"{label} moved within step {dsid} (now position {di + 1})",
                              f"{_ru_label(label)} {_g(label, 'переставлена')} внутри шага {dsid} (теперь место {di + 1})", where))
    if bop.when != dop.when:
        out.append(Change("changed", f"guard of {label}", _cites(bop, dop), f"{label}: guard {bop.when} → {dop.when}",
                          f"{_ru_label(label)}: условие {bop.when} → {dop.when}", where))
    bp, dp = bop.params, dop.params
    if dop.op == "window":
        _window_changes(label, bp, dp, _cites(bop, dop), where, out)
    else:
        for k in sorted(set(bp) | set(dp)):
            if bp.get(k) != dp.get(k):
                out.append(Change("changed", label, _cites(bop, dop), f"{label}: {k} {bp.get(k)} → {dp.get(k)}",
                                  f"{label}: {k} {bp.get(k)} → {dp.get(k)}", where))
    if tuple(bop.cites) != tuple(dop.cites):
        out.append(Change("changed", label, _cites(bop, dop), f"{label}: cites {', '.join(dop.cites)}",
                          f"{_ru_label(label)}: ссылается на {', '.join(dop.cites)}", where))


def moved_within(before: list[str], after: list[str]) -> set[str]:
    """The elements that moved when ``before`` became ``after`` (the same elements, reordered): those outside a
    longest common subsequence — so moving one element names that one, not the neighbours it jumped over.

    >>> sorted(moved_within(["a", "b", "c", "x", "d"], ["x", "a", "b", "c", "d"]))
    ['x']
    >>> sorted(moved_within(["a", "b"], ["b", "a"]))  # two swapped: the one brought forward moved
    ['b']
    """
    n, m = len(before), len(after)
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = best[i + 1][j + 1] + 1 if before[i] == after[j] else max(best[i + 1][j], best[i][j + 1])
    kept, i, j = set(), 0, 0
    while i < n and j < m:
        if before[i] == after[j]:
            kept.add(before[i])
            i, j = i + 1, j + 1
        elif best[i + 1][j] > best[i][j + 1]:  # a tie keeps the base's element: the one now before it moved
            i += 1
        else:
            j += 1
    return set(before) - kept


def _window_changes(label: str, bp: dict, dp: dict, cites: tuple, where: str, out: list[Change]) -> None:
    """A window's admitted kinds gained and lost, and its priority."""
    gone, new = [k for k in bp["allows"] if k not in dp["allows"]], [k for k in dp["allows"] if k not in bp["allows"]]
    if gone or new:
        out.append(Change("changed", label, cites,
                          f"{label} admits {'+' + ', +'.join(new) if new else ''}"
                          f"{'; ' if gone and new else ''}{'−' + ', −'.join(gone) if gone else ''}",
                          f"{_ru_label(label)} допускает {'+' + ', +'.join(new) if new else ''}"
                          f"{'; ' if gone and new else ''}{'−' + ', −'.join(gone) if gone else ''}", where))
    if bp.get("first") != dp.get("first"):
        out.append(Change("changed", label, cites, f"{label}: priority first {bp.get('first')} → "
                          f"{dp.get('first')}", f"{_ru_label(label)}: приоритет сначала {bp.get('first')} → {dp.get('first')}",
                          where))


def _table_changes(base: Rulebook, draft: Rulebook, out: list[Change]) -> None:
    """Each row of a table whose value differs (a table added or removed: each of its rows)."""
    for name in sorted(base.spec.tables.keys() | draft.spec.tables.keys()):
        bt, dt = base.spec.tables.get(name), draft.spec.tables.get(name)
        brows = base.table(name) if bt else {}
        drows = draft.table(name) if dt else {}
        for key in sorted(set(brows) | set(drows)):
            if brows.get(key) != drows.get(key):
                out.append(Change("changed", f"table {name}", _cites(bt, dt),
                                  f"table {name}: {key}: {brows.get(key)} → {drows.get(key)}",
                                  f"таблица {name}: {key}: {brows.get(key)} → {drows.get(key)}",
                                  _w(draft, "tables", name) if dt else _w(base, "tables", name)))


def _assumption_changes(base: Rulebook, draft: Rulebook, out: list[Change]) -> None:
    """Assumptions removed, added, or about other clauses."""
    ba, da = base.spec.assumptions, draft.spec.assumptions
    for aid in sorted(ba.keys() | da.keys()):
        if aid not in da:
            out.append(Change("removed", f"assumption {aid}", tuple(ba[aid].about), f"assumption {aid} removed",
                              f"допущение {aid} удалено", _w(base, "assumptions", aid)))
        elif aid not in ba:
            out.append(Change("added", f"assumption {aid}", tuple(da[aid].about), f"assumption {aid} added",
                              f"добавлено допущение {aid}", _w(draft, "assumptions", aid)))
        elif tuple(ba[aid].about) != tuple(da[aid].about):
            out.append(Change("changed", f"assumption {aid}", tuple(da[aid].about),
                              f"assumption {aid} now about {', '.join(da[aid].about) or '—'}",
                              f"допущение {aid} теперь о {', '.join(da[aid].about) or '—'}", _w(draft, "assumptions", aid)))


def by_clause(changes: list[Change]) -> dict[str, list[Change]]:
    """The changes grouped by the clauses they cite (a change citing two clauses is under both)."""
    out: dict[str, list[Change]] = {}
    for c in changes:
        for cid in c.clauses or ("—",):
            out.setdefault(cid, []).append(c)
    return dict(sorted(out.items()))


# --- the smallest game on which two rulebooks differ ------------------------------------------------------

#: what a rulebook's parts say for a reader only: no operation, edge or table reads them
_WORDING = ("cites", "assumes", "note")


def behaviour(rb: Rulebook) -> dict:
    """The rulebook as the interpreter reads it: its spec without the wording — the title, edition and
    id, the steps' names, every ``cites``/``assumes``/``note``, the assumptions' statements — and
    without its alternative readings (a reading is another rulebook, played only when asked for).  Two
    rulebooks with the same behaviour play every game alike, event for event (:func:`event_key`
    compares nothing else), so no game need be played to show it.

    >>> from ruleproof.model.rulebook import load_rulebook
    >>> rb = load_rulebook()
    >>> behaviour(rb) == behaviour(rb), "title" in behaviour(rb), "start" in behaviour(rb)
    (True, False, True)
    """
    d = rb.spec.model_dump(mode="json")
    drop = lambda x: {k: v for k, v in x.items() if k not in _WORDING}  # noqa: E731
    return {"start": d["start"], "assumptions": sorted(d["assumptions"]),
            "tables": {n: drop(t) for n, t in d["tables"].items()},
            "steps": {sid: {**{k: v for k, v in drop(st).items() if k not in ("name", "operations", "next")},
                            "operations": [drop(o) for o in st["operations"]], "next": [drop(e) for e in st["next"]]}
                      for sid, st in d["steps"].items()}}


def event_key(e: Event) -> tuple:
    """What of an event two rulebooks must agree on: the step, the operation, the values it computed
    and the cards after it (the clauses, the rulebook line, the wording and the operation's parameters
    as the rulebook writes them may differ: a parameter that changes the game changes a value or a card;
    a window's values are what it computed, so they are kept)."""
    echo = () if e.op == "window" else tuple(getattr(OPERATIONS.get(e.op), "params", ()))
    return (e.step, e.op, tuple(sorted((k, repr(v)) for k, v in e.values.items() if k not in echo)),
            repr(e.state.cards))


@dataclass(frozen=True)
class Difference:
    world: str
    world_index: int
    answers: tuple
    base_events: tuple[Event, ...]
    draft_events: tuple[Event, ...]
    first: int  # index (seq) of the first event where they part
    reason: str  # events | choice
    #: the games differ in what a judge sees — the cards' states as they go, the action's status, what is paid,
    #: what is offered (False: only in the order or bookkeeping of events, in every game the search played)
    visible: bool = True

    @property
    def choices(self) -> int:
        return len(self.answers)


def visible_key(events) -> tuple:
    """What a judge sees of a game: the cards' states one after another (a repeat left out), the offers made,
    and the action's status and payment at the end — not the order of the events that made them."""
    cards: list[str] = []
    offers: list[tuple] = []
    for e in events:
        c = repr(e.state.cards)
        if not cards or cards[-1] != c:
            cards.append(c)
        offered = e.values.get("offered") if e.op in ("pass", "play") else None
        if offered and (not offers or offers[-1] != tuple(offered)):
            offers.append(tuple(offered))
    last = events[-1].state.action if events else None
    return (tuple(cards), tuple(offers), getattr(last, "status", None), repr(getattr(last, "paid", None)))


def _ask_key(ask) -> tuple | None:
    if ask is None:
        return None
    if ask.kind == "die":
        return ("die", ask.faces)
    return ("respond", ask.window, ask.player, tuple(f.id for _, f in ask.options))


def smallest_difference(base: Rulebook, draft: Rulebook, worlds: list, bounds, settled: bool = False) -> Difference | None:
    """The first world (in order) and fewest choices on which ``base`` and ``draft`` run differently; ``visible``
    says whether a judge sees it (:func:`visible_key`, or the offers) there or once that game is played on with
    passes and the lowest die — else they differ only in the order or bookkeeping of events.  None when every
    game is played alike.  ``settled``: only a game whose *end* differs counts (:func:`final_key`: the cards, the
    action's status and payment once both games are over) — the game a ruling can pin; a parting nobody sees is
    then played on, deeper choices searched (slower)."""
    seen = _settled if settled else _visible
    runs = (_Run(base), _Run(draft))

    def advance(i, node_state, cursor, events, answer):
        r = runs[i]
        r.restart(len(events))
        s, cur, ask = r.advance(node_state, cursor, answer)
        return s, cur, ask, events + tuple(r.trace.events)

    # breadth first over all worlds at once, one number of choices at a time (worlds in order within
    # it): the first difference met has the fewest choices, and of those the earliest world — and no
    # world is played deeper than that (a world-by-world search plays every world before the one that
    # differs to its end).  A game that parts only in the order or bookkeeping of its events (nothing a
    # judge sees differs) is kept as a last resort and played on: a deeper choice may part visibly
    level: list[tuple[int, tuple, tuple, int, Difference | None]] = [
        (wi, tuple(advance(i, *start(rb, world.state), (), None) for i, rb in enumerate((base, draft))), (), 0, None)
        for wi, world in enumerate(worlds)]
    quiet: Difference | None = None
    while level:
        deeper = []
        for wi, (a, b), answers, same, parted in level:
            ea, eb = a[3], b[3]
            if parted is None:
                parted = _parting(worlds[wi].name, wi, answers, a, b, same, seen)
                if parted is not None and (parted.visible or not settled):
                    return parted if parted.visible else dataclasses.replace(
                        parted, visible=_seen_later(a, b, advance))
            elif seen(a, b):
                return dataclasses.replace(parted, answers=answers, base_events=ea, draft_events=eb, visible=True)
            ask = a[2]
            if ask is None or _ask_key(ask) != _ask_key(b[2]):
                if parted is not None and quiet is None:
                    quiet = dataclasses.replace(parted, answers=answers, base_events=ea, draft_events=eb)
                continue
            n = min(len(ea), len(eb))
            for ans in _options(ask, a[1], bounds, base, worlds[wi]):
                deeper.append((wi, (advance(0, a[0], a[1], ea, ans), advance(1, b[0], b[1], eb, ans)),
                               answers + (ans,), n, parted))
        level = deeper
    return quiet


def _options(ask, cursor, bounds, base: Rulebook, world) -> tuple:
    """The answers the search tries at a choice: every die value within the bounds, or a pass and each feature
    offered (a pass only, once the world's plays are used up)."""
    if ask.kind == "die":
        return tuple(bounds.die_values(base, world))
    if len(cursor.played) >= bounds.plays_in(world):
        return (None,)
    return (None, *(f.id for _, f in ask.options))


def _seen_later(a, b, advance) -> bool:
    """Whether two runs that parted unseen part in what a judge sees once both are played to their end with passes
    and the lowest die (one game more, not a search)."""
    for _ in range(400):  # a bound on the answers: a run ends at its step limit anyway
        if a[2] is None and b[2] is None:
            break
        if _visible(a, b):
            return True
        answer = (a[2].faces[0] if a[2].kind == "die" else None) if a[2] is not None else None
        a = advance(0, a[0], a[1], a[3], answer) if a[2] is not None else a
        b = advance(1, b[0], b[1], b[3], answer) if b[2] is not None else b
    return visible_key(a[3]) != visible_key(b[3])


def final_key(events) -> tuple:
    """What a ruling can expect of a finished game: the cards, the action's status and what it paid at the end."""
    last = events[-1].state if events else None
    return (repr(getattr(last, "cards", None)), getattr(getattr(last, "action", None), "status", None),
            repr(getattr(getattr(last, "action", None), "paid", None)))


def _visible(a, b) -> bool:
    """Two runs (state, cursor, ask, events) part in what a judge sees as they go, or in what they offer next."""
    return visible_key(a[3]) != visible_key(b[3]) or _ask_key(a[2]) != _ask_key(b[2])


def _settled(a, b) -> bool:
    """Two finished runs end apart (cards, status, payment); unfinished ones are not judged yet."""
    return a[2] is None and b[2] is None and final_key(a[3]) != final_key(b[3])


def _parting(world: str, wi: int, answers: tuple, a, b, same: int, seen=_visible) -> Difference | None:
    """Where two runs of one game part (from event ``same`` on), and whether a judge sees it; None: not yet."""
    ea, eb = a[3], b[3]
    n = min(len(ea), len(eb))
    first = next((k for k in range(same, n) if event_key(ea[k]) != event_key(eb[k])), None)
    if first is None and len(ea) != len(eb):
        first = n
    reason = "events"
    if first is None and _ask_key(a[2]) != _ask_key(b[2]):
        first, reason = n, "choice"
    if first is None:
        return None
    shown = (reason == "choice" and seen is _visible) or seen(a, b)
    return Difference(world, wi, answers, ea, eb, first, reason, visible=shown)
