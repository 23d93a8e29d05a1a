"""A ruling's game told as a story (``ruleproof explain``): the position, then each step of the game action
as sentences with the clauses it applies quoted, the cards' state before and after each play, the outcome,
and for an expectation the run did not meet, *why not*: the event that gave the other outcome, with its
clause, the guard that decided it and the assumptions it rests on.

The story is built from the interpreter's trace (:func:`ruleproof.reports.trace.trace_to_json`), so it
says what the engines did, never more; every name a judge reads is the vocabulary's Russian (or English)
one, the rulebook's and the ruling's ids kept as written.

"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ruleproof.ground.i18n import word
from ruleproof.model.clauses import default_index
from ruleproof.model.vocabulary import STEP_KINDS

from .sentences import card_line, guard_words, items, op_name, op_sentence, say
from .trace import format_diff, state_diff, states_from_trace, trace_to_json

__all__ = ["QUOTE_LIMIT", "Block", "Story", "narrate", "narrate_finding", "quoted_units", "render_text", "tell"]

#: a quoted clause longer than this is cut at a word and marked «…» (``--full`` quotes it whole)
QUOTE_LIMIT = 240


@dataclass(frozen=True)
class Block:
    """One paragraph of the story: a heading, its sentences, the clauses it quotes (id, text, official?),
    and what it changed in the cards and the action (one line)."""

    kind: str  # "position" | "step" | "play" | "outcome" | "why_not" | "action"
    heading: str
    sentences: tuple[str, ...] = ()
    quotes: tuple[tuple[str, str, bool], ...] = ()
    changes: str = ""
    seqs: tuple[int, ...] = ()
    clauses: tuple[str, ...] = ()  # every unit the step applies (each quoted here or in a block before)


@dataclass
class Story:
    title: str
    blocks: list[Block] = field(default_factory=list)
    passed: bool = True


def _quote(cid: str, rules, index, lang: str, limit: int | None) -> tuple[str, str, bool] | None:
    """(id, text, official?): the rules text's wording when given, else ruleproof's own summary."""
    text = rules.text_of(cid) if rules is not None else None
    official = bool(text)
    if not text:
        text = index.summary(cid, lang) if index is not None else None
    if not text:
        return None
    text = " ".join(text.split())
    if limit is not None and len(text) > limit:
        text = text[:limit].rsplit(" ", 1)[0] + " …"
    return cid, text, official


def quoted_units(cids: list[str], index) -> list[str]:
    """The clause units a step quotes: those it cites whose text is in the excerpts, a unit left out when a
    narrower one of it is cited too (512.6.2/b4.1.1 says what 512.6.2/b4 would say at length).

    >>> from ruleproof.model.clauses import default_index
    >>> quoted_units(["512.6.2", "512.6.2/b1", "306", "512.6.2/b4", "512.6.2/b4.1", "540.3", "540.3.1"],
    ...              default_index())
    ['512.6.2/b1', '512.6.2/b4.1', '540.3', '540.3.1']
    """
    def narrower(a: str, b: str) -> bool:  # a is a unit of b's own text (a sub-clause is a clause of its own)
        return a.startswith(b + "/") or ("/" in b and a.startswith(b + "."))

    return [c for c in cids if (index is None or index.status(c) != "referenced")
            and not any(narrower(o, c) for o in cids)]


def _cards_changed(diff: list[dict]) -> list[str]:
    return list(dict.fromkeys(d["path"][1] for d in diff if d["path"][:1] == ["cards"] and len(d["path"]) > 1))


def _step_heading(row: dict, lang: str, number: int) -> str:
    kind = STEP_KINDS.get(str(row.get("values", {}).get("kind", "")))
    name = (kind.ru if lang == "ru" else kind.en) if kind else row["step"]
    return say(lang, "{n}. Шаг {step}: {name}", "{n}. Step {step}: {name}", n=number, step=row["step"], name=name)


def _events(result) -> tuple[list[dict], list[dict], list[int]]:
    """The trace as rows, the state after each, and the row where each game action (after the first) starts."""
    rows = trace_to_json(result.trace, limit=None)
    starts = []
    seq = 0
    for part in getattr(result, "parts", [])[:-1]:
        seq += len(part.events)
        starts.append(seq)
    return rows, states_from_trace(rows), starts


def narrate(result, rb, lang: str = "ru", rules=None, index=None, quote_limit: int | None = QUOTE_LIMIT) -> Story:
    """The story of one ruling's run (a :class:`~ruleproof.model.scenario.ScenarioResult`) on rulebook ``rb``.
    ``rules``: a loaded rules text (its wording is quoted), ``index``: the clause index (its summaries are
    quoted otherwise)."""
    sc = result.scenario
    rows, _, starts = _events(result)
    story = tell(rows, f"{sc.spec.title.model_dump()[lang]} ({sc.spec.id})", lang, rules,
                 index if index is not None else rb.index, quote_limit, starts)
    story.passed = result.passed
    story.blocks.append(_outcome(result, lang))
    for f in result.failures:
        story.blocks.append(_why_not(f, rows, lang))
    return story


def narrate_finding(f, lang: str = "ru", rules=None, index=None, quote_limit: int | None = QUOTE_LIMIT) -> Story:
    """The story of an engine's counterexample (a :class:`~ruleproof.reports.finding.Finding` with a trace):
    its game as :func:`tell` tells it, then why the check fails there — the offending events with their
    clauses, rulebook lines, guards and assumptions — and what replays it."""
    rows = [dict(r) for r in f.trace]
    story = tell(rows, f"{f.check} — {f.text(lang)}", lang, rules, index if index is not None else default_index(),
                 quote_limit)
    story.passed = False
    by_seq = {r["seq"]: r for r in rows}
    lines = [line for seq in f.highlight if seq in by_seq for line in _departure_lines(by_seq[seq], lang)]
    decided = _decisions(rows, lang)
    if decided:
        lines += [say(lang, "решения свода по условиям в этой игре:",
                      "the rulebook's choices by its guards in this game:"), *decided]
    if f.replay:
        lines.append(say(lang, "повторить: {r}", "replay: {r}", r=f.replay))
    story.blocks.append(Block("why_not", say(lang, "Почему нарушено: {c} ({e})", "Why it fails: {c} ({e})",
                                             c=f.check, e=f.engine), tuple(lines), seqs=tuple(f.highlight)))
    return story


def tell(rows: list[dict], title: str, lang: str, rules=None, index=None, quote_limit: int | None = QUOTE_LIMIT,
         starts: tuple[int, ...] | list[int] = ()) -> Story:
    """A trace's rows (:func:`~ruleproof.reports.trace.trace_to_json`) as a story: the position, then each step
    and each play; ``starts``: the rows where a next game action of the turn begins."""
    states = states_from_trace(rows)
    story = Story(title=title)
    story.blocks.append(_position(states[0] if states else {}, lang))
    quoted: set[str] = set()
    step_no = 0
    played: dict = {}  # window id -> features played in it since it opened
    cur: dict | None = None  # the step being told: heading, sentences, clauses, first state index
    for i, r in enumerate(rows):
        if i in starts:
            _close_step(story, cur, rows, states, quoted, rules, index, lang, quote_limit)
            cur = None
            story.blocks.append(Block("action", say(lang, "Следующее игродействие (с позиции, которую оставило "
                                                           "предыдущее)", "The next game action (from the position "
                                                                          "the one before left)")))
        if r["op"] == "enter":
            _close_step(story, cur, rows, states, quoted, rules, index, lang, quote_limit)
            step_no += 1
            cur = {"heading": _step_heading(r, lang, step_no), "sentences": [], "clauses": [], "first": i,
                   "last": i, "seqs": []}
        if cur is None:
            cur = {"heading": say(lang, "{n}. Шаг {step}", "{n}. Step {step}", n=step_no, step=r["step"]),
                   "sentences": [], "clauses": [], "first": i, "last": i, "seqs": []}
        cur["last"] = i
        cur["seqs"].append(r["seq"])
        if r["values"].get("skipped") is not True:  # a skipped operation is told by its guard, not its clauses
            cur["clauses"] += [c for c in r["clauses"] if c not in cur["clauses"]]
        if r["op"] == "play":
            played[r["values"].get("window")] = played.get(r["values"].get("window"), 0) + 1
            _close_step(story, cur, rows, states, quoted, rules, index, lang, quote_limit, upto=i - 1)
            story.blocks.append(_play(r, states[i - 1] if i else {}, states[i], lang))
            cur = {**cur, "heading": cur["heading"] + (" (продолжение)" if lang == "ru" else " (continued)"),
                   "sentences": [], "first": i + 1, "seqs": []}
            continue
        said = _sentence(r, played, lang)
        if said:
            cur["sentences"].append(said)
    _close_step(story, cur, rows, states, quoted, rules, index, lang, quote_limit)
    return story


def _sentence(r: dict, played: dict, lang: str) -> str:
    """An event's sentence in its story: a window that closes with no play says both players passed."""
    v = r["values"]
    if r["op"] == "window":
        played[v.get("id")] = 0
    if r["op"] == "window_closed" and not played.get(v.get("id")):
        return say(lang, "Оба игрока пасуют, окно {id} закрыто.", "Both players pass; window {id} closes.", id=v.get("id"))
    if r["op"] == "omitted":
        return say(lang, "… событий пропущено в отчёте: {n} (№{a}–{b}).", "… events left out of the report: {n} "
                                                                          "(#{a}–{b}).", n=v.get("events"),
                   a=v.get("from"), b=v.get("to"))
    return op_sentence(r, lang)


def _close_step(story: Story, cur, rows, states, quoted: set[str], rules, index, lang, limit, upto=None) -> None:
    if cur is None:
        return
    last = cur["last"] if upto is None else upto
    if last < cur["first"] and not cur["sentences"]:
        return
    before = states[cur["first"] - 1] if cur["first"] > 0 else {}
    after = states[last] if last >= 0 else {}
    changes = format_diff([d for d in _flat_diff(before, after) if d["path"][:1] in (["cards"], ["action"])],
                          None, lang) if cur["first"] > 0 else ""
    quotes, applied, outside = _step_quotes(cur["clauses"], quoted, rules, index, lang, limit)
    sentences = tuple(cur["sentences"]) + ((say(lang, "Ссылается на пункты вне выдержек (их текста нет; "
                                                       "см. допущения свода): {c}.",
                                                 "Refers to clauses outside the excerpts (no text; see the "
                                                 "rulebook's assumptions): {c}.", c=", ".join(outside)),)
                                           if outside else ())
    story.blocks.append(Block("step", cur["heading"], sentences, tuple(quotes), changes, tuple(cur["seqs"]), applied))
    cur["clauses"] = [c for c in cur["clauses"] if c not in quoted]


def _step_quotes(cids: list[str], quoted: set[str], rules, index, lang: str, limit: int | None):
    """(the quotes a step adds, the units it applies, those outside the excerpts not named before); ``quoted``
    grows by what the step quotes or names."""
    quotes = []
    units = quoted_units(cids, index)
    for cid in units:
        q = None if cid in quoted else _quote(cid, rules, index, lang, limit)
        if q is not None:
            quoted.add(cid)
            quotes.append(q)
    outside = [c for c in cids if index is not None and index.status(c) == "referenced"]
    applied = tuple(c for c in units if c in quoted) + tuple(outside)
    fresh = [c for c in outside if c not in quoted]
    quoted.update(outside)
    return quotes, applied, fresh


def _flat(state: dict, prefix=()) -> dict:
    out: dict = {}
    for k, v in state.items():
        if isinstance(v, dict) and v:
            out.update(_flat(v, prefix + (k,)))
        else:
            out[prefix + (k,)] = v
    return out


def _flat_diff(before: dict, after: dict) -> list[dict]:
    return state_diff(_flat(before), _flat(after))


def _position(state: dict, lang: str) -> Block:
    cards = state.get("cards", {})
    lines = [card_line(c, cid, lang) for cid, c in cards.items()]
    a = state.get("action") or {}
    if a:
        lines.append(say(lang, "Игродействие: {f} ({kind}) карты {src}; цели: {tg}.",
                         "The game action: {f} ({kind}) of {src}; targets: {tg}.", f=a.get("feature"),
                         kind=a.get("kind"), src=a.get("source"), tg=items(tuple(a.get("targets") or ()), lang)))
    return Block("position", say(lang, "Исходное положение", "The position"), tuple(lines))


def _play(row: dict, before: dict, after: dict, lang: str) -> Block:
    v = row["values"]
    heading = say(lang, "Розыгрыш: игрок {p} разыгрывает {f} карты {c} в окне {w}",
                   "A play: player {p} plays {f} of {c} in window {w}", p=v.get("player"), f=v.get("feature"),
                   c=v.get("card"), w=v.get("window"))
    touched = _cards_changed(row.get("diff", [])) or [v.get("card")]
    lines = []
    for cid in touched:
        if cid in before.get("cards", {}):
            lines.append(say(lang, "до: {s}", "before: {s}", s=card_line(before["cards"][cid], cid, lang)))
        if cid in after.get("cards", {}):
            lines.append(say(lang, "после: {s}", "after: {s}", s=card_line(after["cards"][cid], cid, lang)))
    return Block("play", heading, tuple(lines), (), format_diff(row.get("diff", []), None, lang), (row["seq"],))


#: how a run ended, as a judge reads it
_OUTCOMES = {"completed": ("завершено", "completed"), "deadlock": ("зашло в тупик (нет шага, куда идти)",
                                                                   "deadlocked (no step to go on to)"),
             "step_limit": ("прервано: достигнут предел шагов", "cut off at the step limit"),
             "out_of_choices": ("прервано: выборов в сценарии не хватило", "cut off: the scenario ran out of choices")}


def _outcome(result, lang: str) -> Block:
    pair = _OUTCOMES.get(result.trace.outcome)
    outcome = (pair[0] if lang == "ru" else pair[1]) if pair else word(result.trace.outcome, lang)
    if result.passed:
        return Block("outcome", say(lang, "Итог", "Outcome"), (
            say(lang, "Игродействие: {o}. Всё, что ожидает разъяснение, выполнено.",
                 "The game action: {o}. Everything the ruling expects holds.", o=outcome),))
    return Block("outcome", say(lang, "Итог", "Outcome"), (
        say(lang, "Игродействие: {o}. Не выполнено {n} {n:ожидание|ожидания|ожиданий}:",
             "The game action: {o}. {n} {n:expectation|expectations} not met:", o=outcome,
             n=len(result.failures)),))


def _state_path(what: str) -> list[str] | None:
    """An expectation's path as a path of the trace's state (``then[1].x.X.value`` → action, xs, X, value)."""
    parts = re.sub(r"^then\[\d+\]\.", "", what).split(".")
    if parts[0] == "cards" and len(parts) == 3:
        return parts
    if parts[0] == "action" and len(parts) == 2:
        return parts
    if parts[0] == "x" and len(parts) == 3:
        return ["action", "xs", parts[1], parts[2]]
    return None


def _decisions(rows: list[dict], lang: str, limit: int = 8) -> list[str]:
    """The rulebook's choices by its guards in this game: each operation a guard skipped, each guarded edge taken."""
    out = []
    for r in rows:
        v = r["values"]
        if v.get("skipped") is True or (r["op"] == "goto" and v.get("guard") not in (None, "always")):
            out.append(say(lang, "  №{s} ({step}): {what}", "  #{s} ({step}): {what}", s=r["seq"], step=r["step"],
                            what=op_sentence(r, lang)) + (f" [{r['rule']}]" if r.get("rule") else ""))
    return out[:limit] + ([f"  … (+{len(out) - limit})"] if len(out) > limit else [])


def _value_lines(path: list[str], rows: list[dict], lang: str) -> list[str]:
    """Who set a card's or the action's field last (or that nothing did), and the rulebook's guard choices."""
    lines = []
    setters = [r for r in rows if any(d["path"] == path for d in r.get("diff", []))]
    if setters and setters[-1] is not rows[0]:
        last = setters[-1]
        lines.append(say(lang, "значение установило событие №{s} (шаг {step}): {what}",
                         "the value was set by event #{s} (step {step}): {what}", s=last["seq"],
                         step=last["step"], what=op_sentence(last, lang) or op_name(last["op"], lang)))
    elif setters:  # only the position set it (a value the run derives, can_move or healthy, has no setter)
        lines.append(say(lang, "значение не менялось с исходного положения: ни одна операция свода его не изменила",
                         "the value never changed from the position: no operation of the rulebook changed it"))
    decided = _decisions(rows, lang)
    if decided:
        lines.append(say(lang, "решения свода по условиям в этой игре:",
                         "the rulebook's choices by its guards in this game:"))
    return lines + decided


def _departure_lines(r: dict, lang: str) -> list[str]:
    """An event where the run departed: what it did, its clauses, rulebook line, guard and assumptions."""
    lines = [say(lang, "событие №{s}, шаг {step}: {what}", "event #{s}, step {step}: {what}", s=r["seq"],
                 step=r["step"], what=op_sentence(r, lang) or op_name(r["op"], lang))]
    if r["clauses"]:
        lines.append(say(lang, "  по пунктам {c}", "  by clauses {c}", c=", ".join(r["clauses"])))
    if r.get("rule"):
        lines.append(say(lang, "  строка свода правил: {w}", "  rulebook line: {w}", w=r["rule"]))
    guard = r["values"].get("guard")
    if guard not in (None, "always") and r["values"].get("skipped") is not True:  # a skipped one says it above
        lines.append(say(lang, "  решило условие {g}: выполнено", "  decided by the guard {g}: it holds",
                         g=guard_words(str(guard), lang)))
    if r.get("assumes"):
        lines.append(say(lang, "  допущения: {a}", "  assumptions: {a}", a=", ".join(r["assumes"])))
    return lines


def _why_not(f, rows: list[dict], lang: str) -> Block:
    """Why the run gave another outcome than the ruling expects: for a card's or the action's field, the event
    that last set it (or that none did) and the rulebook's choices by its guards; then the event(s) where the
    run departed, each with its step, operation, clauses, rulebook line, guard and assumptions."""
    by_seq = {r["seq"]: r for r in rows}
    path = _state_path(f.what)
    lines = _value_lines(path, rows, lang) if path is not None else []
    for seq in f.events:
        r = by_seq.get(seq)
        if r is not None and not (path is not None and r["op"] == "end"):  # a final value departs at the end
            lines += _departure_lines(r, lang)
    if not lines:
        lines.append(say(lang, "пункты разъяснения: {c}", "the ruling's clauses: {c}", c=", ".join(f.clauses) or "—"))
    return Block("why_not", say(lang, "Почему не так: {t}", "Why not: {t}", t=f.text(lang)), tuple(lines),
                 seqs=tuple(f.events))


def render_text(story: Story, lang: str) -> str:
    """The story as plain text (what the terminal prints without colour)."""
    out = [story.title, ""]
    for b in story.blocks:
        out.append(b.heading)
        out += [f"  {s}" for s in b.sentences]
        if b.clauses:
            out.append(say(lang, "  пункты: {c}", "  clauses: {c}", c=", ".join(b.clauses)))
        for cid, text, official in b.quotes:
            mark = "" if official else (" (пересказ ruleproof)" if lang == "ru" else " (ruleproof's summary)")
            out.append(f"  {cid}{mark}: «{text}»")
        if b.changes:
            out.append(say(lang, "  изменения: {c}", "  changes: {c}", c=b.changes))
        out.append("")
    return "\n".join(out).rstrip() + "\n"
