"""Questions for judges: where the rules need a ruling, and the smallest game that asks it.

Two kinds of question, each a game two rulebooks play apart in what a judge sees:

* per alternative reading of a rulebook: a game whose *end* differs between the two readings — the cards, the
  action's status, what is paid: the game of the first shipped ruling it changes (a question that ruling already
  answers), else the smallest game the search meets (an open question; :func:`game_apart`), else the first game
  in which they differ in what is offered as it goes (who a window asks first, what a player is offered);
* per clause unit no ruling pins — a one-fault draft of it (the self-test's operators) that every shipped ruling
  passes (:func:`unpinned_drafts`): the first game in which the rulebook and that draft differ in what a judge
  sees.  Answered with the rulebook's side, it becomes the ruling that pins the unit.

Each is written as a ruling draft in the scenario format: the world, the dice and responses, and one case per
alternative, each expecting what that alternative gives (:mod:`ruleproof.question_game`); a question is kept only
if each case passes on its own rulebook and fails on the other (:func:`decides`), and its world is made smaller
while it still decides.  Its text asks the panel which is right, quoting the clauses.  :func:`answer` turns a
question into a ruling: the chosen case's expectations kept, the other dropped.

Ids are derived from the content (the alternative and the game), so the same rulebook gives the same questions.
"""

from __future__ import annotations

import copy
import hashlib
import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ruleproof.generators.bounded import bounded_worlds
from ruleproof.generators.selftest import Draft, drafts
from ruleproof.ground.errors import RuleproofError
from ruleproof.ground.i18n import plural, word
from ruleproof.model.explore import Bounds
from ruleproof.model.readings import applicable, variant
from ruleproof.model.rulebook import Rulebook
from ruleproof.model.rulebook_diff import smallest_difference
from ruleproof.model.scenario import run_scenario, shipped_scenarios
from ruleproof.model.scenario.load import Scenario, load_rulings
from ruleproof.model.scenario_write import (
    choices_from_trace,
    dump_ruling,
    replay_answers,
    scenario_from_run,
    world_from_trace,
)
from ruleproof.question_game import expectations, final, mark_text, seen_text, shrink

__all__ = ["Question", "questions", "unpinned_drafts", "deciding_rulings", "question_doc", "answer", "decides", "cases_of", "game_apart", "SEARCH"]

@dataclass
class Question:
    """One question: which alternative (``reading`` of the rulebook, or a one-fault ``draft`` of a unit) the
    game ``doc`` (a scenario document with a case per alternative) decides; ``pinned``: the shipped ruling that
    already decides it (its game is the question's), None for an open question; ``doc`` None: no game within the
    search differs in what a judge sees (``text`` says what the alternative changes then)."""

    id: str
    kind: str  # "reading" | "unit"
    about: tuple[str, ...]  # the clauses
    label: str  # the reading's id, or the unit
    doc: dict | None = field(repr=False, default=None)
    text: dict = field(default_factory=dict)  # {ru, en}
    pinned: str | None = None
    draft: str | None = None  # a unit's question: the one-fault draft (a self-test draft id) it asks about


def _sides(rb: Rulebook, other: Rulebook, d) -> tuple[tuple[list, str], tuple[list, str]]:
    """Each alternative's game, finished (its events and outcome): the answers the search made, then passes and
    the lowest die face."""
    world = world_from_trace(d.base_events)
    a, b = replay_answers(rb, world, list(d.answers)), replay_answers(other, world, list(d.answers))
    return (list(a.trace.events), a.trace.outcome), (list(b.trace.events), b.trace.outcome)


def _qid(kind: str, label: str, doc: dict) -> str:
    core = {k: doc[k] for k in ("cards", "action", "dice", "responses")}
    digest = hashlib.sha1(json.dumps([kind, label, core], sort_keys=True, default=str).encode()).hexdigest()
    return f"q-{digest[:10]}"


def question_doc(rb: Rulebook, other: Rulebook, games, *, kind: str, label: str, about: tuple[str, ...],
                 titles: tuple[dict, dict], assumption: str | None, clause_text=None) -> dict | None:
    """The scenario document of a question: ``games`` — the same game finished on ``rb`` and on ``other``, each
    (events, outcome) — as a world and its choices, a case ``A`` (``rb``'s reading) and ``B`` (the other) each
    expecting what its game shows where the two differ (:func:`~ruleproof.question_game.expectations`); None when
    nothing a ruling can expect tells them apart."""
    (ea, oa), (eb, ob) = games
    exp_a, exp_b = expectations((ea, oa), (eb, ob)), expectations((eb, ob), (ea, oa))
    if len(exp_a) == 1 and len(exp_b) == 1 and oa == ob:
        return None  # the games end alike and show the same: no ruling could tell the two apart
    (dice_a, resp_a), (dice_b, resp_b) = choices_from_trace(ea), choices_from_trace(eb)
    doc = scenario_from_run(world_from_trace(ea), dice_a, resp_a, properties=[], clauses=about,
                            provenance={}, id="question", source="ruleproof questions")
    doc.pop("expect")
    case_a = {"id": "A", "title": titles[0], "expect": exp_a}
    case_b = {"id": "B", "title": titles[1], "expect": exp_b}
    if dice_b != dice_a:
        case_b["dice"] = dice_b
    if resp_b != resp_a:
        case_b["responses"] = [{"window": w, "player": p, "play": f} for w, p, f in resp_b]
    doc["cases"] = [case_a, case_b]
    if assumption:
        doc["assumptions"] = [assumption]
    doc["id"] = _qid(kind, label, doc)
    doc["title"] = {"ru": f"Вопрос судьям: {label}", "en": f"A question for the judges: {label}"}
    doc["provenance"] = {"question": {"kind": kind, "label": label, "alternatives": {
        "A": {"rulebook": str(rb.path), "reading": None},
        "B": {"rulebook": str(other.path), "reading": label if kind == "reading" else None,
              "draft": label if kind == "unit" else None}}}}
    return doc


def _text(doc: dict, titles: tuple[dict, dict], about: tuple[str, ...], clause_text) -> dict:
    """«В этой ситуации … Чтение A: …; чтение B: …. Какое верно?», the clauses quoted."""
    def said(exp: dict, lang: str) -> str:
        parts = [f"{cid}: " + ", ".join(f"{k} {_word(v, lang)}" for k, v in f.items())
                 for cid, f in exp.get("cards", {}).items()]
        parts += [f"{k} {_word(v, lang)}" for k, v in exp.get("action", {}).items()]
        parts += [seen_text(p, lang) for p in exp.get("events", [])]
        if not exp.get("events"):  # what this side never shows (when it shows nothing of its own instead)
            parts += [seen_text(p, lang, negated=True) for p in exp.get("no_events", [])]
        if exp.get("order"):
            first, then = exp["order"]
            parts.append(f"{mark_text(first, lang)} — {'раньше, чем' if lang == 'ru' else 'before'} {mark_text(then, lang)}")
        return "; ".join(parts) or "—"

    a, b = doc["cases"][0]["expect"], doc["cases"][1]["expect"]
    cards = ", ".join(f"{c.get('name', cid)} ({cid})" for cid, c in doc["cards"].items())
    act = doc["action"]
    quoted = {lang: [(cid, clause_text(cid, lang)) for cid in about] if clause_text else [] for lang in ("ru", "en")}
    quotes = {lang: " ".join(f"{cid} «{text}»" for cid, text in pairs if text) for lang, pairs in quoted.items()}
    ru = (f"В этой ситуации (карты: {cards}; игродействие {act['feature']} карты {act['source']}; "
          f"кубик: {', '.join(map(str, doc['dice'])) or '—'}): {titles[0]['ru']} — {said(a, 'ru')}; "
          f"{titles[1]['ru']} — {said(b, 'ru')}. Какое верно? {quotes['ru']}").strip()
    en = (f"In this situation (cards: {cards}; game action {act['feature']} of {act['source']}; "
          f"die: {', '.join(map(str, doc['dice'])) or '—'}): {titles[0]['en']} — {said(a, 'en')}; "
          f"{titles[1]['en']} — {said(b, 'en')}. Which is right? {quotes['en']}").strip()
    return {"ru": ru, "en": en}


def _word(v, lang: str) -> str:
    """An expected value as a judge reads it (:func:`~ruleproof.ground.i18n.word`; a payment as card:resource:n)."""
    if isinstance(v, list):
        return "[" + ", ".join(":".join(word(p, lang) for p in x) if isinstance(x, list) else word(x, lang) for x in v) + "]"
    return word(v, lang)


#: the search's bounds as a judge reads them
WITHIN = {"ru": "в пределах поиска (X до 1, все наборы особенностей)", "en": "within the search (X up to 1, every loadout)"}

#: the families searched, smallest first: no X and no features, then X up to 1 with every loadout
SEARCH = (Bounds(x_max=0, loadouts=("none",)), Bounds(x_max=0), Bounds(x_max=1))


def game_apart(rb: Rulebook, other: Rulebook, settled: bool = True):
    """The smallest game two rulebooks play apart in what a judge sees, or None within :data:`SEARCH`.

    ``settled`` (a reading's question): a game whose *end* differs is preferred — in each family, smallest
    first, the smallest game they play apart at all, finished with passes and the lowest die; failing that,
    the smallest game of that world whose end differs (every world of a family searched to the end took over
    two minutes a reading: not done); failing every family, the first game that differs in what is offered as
    it goes; failing that, the first game they play apart at all (the order of what a judge sees may differ —
    which window opens first — where nothing else does).  Not ``settled`` (a unit's question): the first game that
    differs in what a judge sees, at once."""
    seen_first = any_first = None
    for bounds in SEARCH:
        worlds = bounded_worlds(bounds.x_max, bounds.loadouts, other)
        d = smallest_difference(rb, other, worlds, bounds)
        if d is None:
            continue
        if d.visible and seen_first is None:
            seen_first = d
        any_first = any_first or d
        if not settled:
            if d.visible:
                return d
            continue
        (ea, _), (eb, _) = _sides(rb, other, d)
        if final(ea) != final(eb):
            return d
        found = smallest_difference(rb, other, [worlds[d.world_index]], bounds, settled=True)
        if found is not None and found.visible:
            return found
    return seen_first or (any_first if settled else None)


def _pinning_game(rb: Rulebook, other: Rulebook, scenarios) -> tuple[str, tuple] | None:
    """The first shipped ruling (one game action) whose game ends differently on the two rulebooks: (its id,
    the two finished games)."""
    for sc in scenarios:
        if sc.spec.then:
            continue
        a, b = run_scenario(sc, rb), run_scenario(sc, other)
        if a.trace.outcome != "completed" or b.trace.outcome != "completed":
            continue  # the other reading asks for a die or a play the ruling does not script
        if a.passed != b.passed and final(a.trace.events) != final(b.trace.events):
            return sc.spec.id, ((list(a.trace.events), a.trace.outcome), (list(b.trace.events), b.trace.outcome))
    return None


def _reading_questions(rb: Rulebook, clause_text, only=None) -> list[Question]:
    """Per applicable reading: the game of the first shipped ruling it changes (the question that ruling
    answers), else the smallest game that differs in what a judge sees, else none found; ``pinned``: the first
    shipped ruling whose outcome the reading changes, whatever game the question uses (None: an open question)."""
    out = []
    scenarios = [sc for _, sc in shipped_scenarios()]
    for r in applicable(rb):
        if only is not None and r.id not in only:
            continue
        other = variant(rb, r.id)
        decided = _decided_by(rb, other, scenarios)
        doc = _reading_doc(rb, other, r, scenarios)
        if doc is None:
            ru = (f"Ни одна партия {WITHIN['ru']} не отличается тем, что видит судья и может ожидать разъяснение, "
                  f"при чтении {r.id} и чтении свода: оно меняет лишь порядок или учёт событий.")
            en = (f"No game {WITHIN['en']} differs in what a judge sees and a ruling can expect under reading "
                  f"{r.id} and the rulebook's: it changes only the order or bookkeeping of events.")
            if decided is not None:
                ru += f" Его уже решает разъяснение {decided} (партия из нескольких игродействий или с другими бросками)."
                en += f" Ruling {decided} decides it already (a game of several actions or other dice)."
            out.append(Question(f"q-none-{r.id}", "reading", r.about, r.id, None, {"ru": ru, "en": en}, decided))
            continue
        text = _text(doc, _titles(r), r.about, clause_text)
        doc["provenance"]["question"]["text"] = text
        if decided is not None:
            doc["provenance"]["question"]["pinned_by"] = decided
        out.append(Question(doc["id"], "reading", r.about, r.id, doc, text, decided))
    return out


def _decided_by(rb: Rulebook, other: Rulebook, scenarios) -> str | None:
    """The first shipped ruling whose outcome differs between two rulebooks (it decides between them), or None."""
    return next((sc.spec.id for sc in scenarios if run_scenario(sc, rb).passed != run_scenario(sc, other).passed), None)


def deciding_rulings(rb: Rulebook, known: dict[str, str | None] | None = None) -> dict[str, str | None]:
    """Per applicable reading of ``rb``: the first shipped ruling that decides it (its outcome differs under the
    reading), or None — what the ruling-debt map needs of every reading, asked or not (a second or so); ``known``:
    readings already settled so (a question's ``pinned``), not run again."""
    known = known or {}
    scenarios = [sc for _, sc in shipped_scenarios()]
    return {r.id: known[r.id] if r.id in known else _decided_by(rb, variant(rb, r.id), scenarios)
            for r in applicable(rb)}


def _titles(r) -> tuple[dict, dict]:
    return ({"ru": f"чтение свода ({r.of or 'как написано'})", "en": f"the rulebook's reading ({r.of or 'as written'})"},
            {"ru": f"чтение {r.id}: {r.statement['ru']}", "en": f"reading {r.id}: {r.statement['en']}"})


def _decided_doc(rb: Rulebook, other: Rulebook, games, **kw) -> dict | None:
    """A question's document for two finished games, made smaller (:func:`~ruleproof.question_game.shrink`),
    kept only if it decides; its id from the smaller game."""
    doc = question_doc(rb, other, games, **kw)
    if doc is None or not decides(doc, rb, other):
        return None
    doc = shrink(doc, lambda d: decides(d, rb, other))
    doc["id"] = _qid(kw["kind"], kw["label"], doc)
    return doc


def _reading_doc(rb: Rulebook, other: Rulebook, r, scenarios) -> dict | None:
    """The question's document: a shipped ruling's game, else the smallest game found; kept when it decides."""
    pinned = _pinning_game(rb, other, scenarios)
    games = [pinned[1]] if pinned is not None else []
    for attempt in (*games, None):
        if attempt is None:
            d = game_apart(rb, other)
            if d is None:
                return None
            attempt = _sides(rb, other, d)
        doc = _decided_doc(rb, other, attempt, kind="reading", label=r.id, about=r.about, titles=_titles(r),
                           assumption=r.of)
        if doc is not None:
            return doc
    return None


def unpinned_drafts(rb: Rulebook, data: dict, units=None) -> dict[str, list[tuple[Draft, Rulebook]]]:
    """The one-fault drafts of ``rb`` (its YAML ``data``; the self-test's operators, :func:`drafts`) that every
    shipped ruling passes, by the unit their edit breaks first — the units no ruling pins, in the order met
    (``units``: only drafts of these)."""
    scenarios = [sc for _, sc in shipped_scenarios() if run_scenario(sc, rb).passed]
    out: dict[str, list[tuple[Draft, Rulebook]]] = {}
    for d in drafts(data):
        if not d.clauses or (units is not None and d.clauses[0] not in units):
            continue
        try:
            other = d.load()
        except RuleproofError:
            continue  # not a loadable rulebook: no question to ask about it
        if all(_passes(sc, other) for sc in scenarios):
            out.setdefault(d.clauses[0], []).append((d, other))
    return out


def _passes(sc, rb: Rulebook) -> bool:
    try:
        return run_scenario(sc, rb).passed
    except RuleproofError:
        return False


def _unit_titles(d: Draft) -> tuple[dict, dict]:
    return ({"ru": "свод как написан", "en": "the rulebook as written"},
            {"ru": f"проект {d.id}: {d.ru}", "en": f"draft {d.id}: {d.en}"})


def _unit_questions(rb: Rulebook, data: dict, clause_text, units=None, tries: int = 3) -> list[Question]:
    """Per unit no ruling pins (:func:`unpinned_drafts`; ``units``: only these): the first of its drafts (up to
    ``tries``) with a game that differs in what a judge sees, asked as the rulebook against that draft."""
    out = []
    for unit, found in unpinned_drafts(rb, data, units).items():
        q, seen = None, False
        for d, other in found[:tries]:
            g = game_apart(rb, other, settled=False)
            seen = seen or g is not None
            doc = g and _decided_doc(rb, other, _sides(rb, other, g), kind="unit", label=d.id, about=d.clauses,
                                     titles=_unit_titles(d), assumption=None)
            if doc:
                text = _text(doc, _unit_titles(d), d.clauses, clause_text)
                doc["provenance"]["question"].update(text=text, unit=unit)
                q = Question(doc["id"], "unit", d.clauses, unit, doc, text, None, d.id)
                break
        out.append(q or _no_unit_question(unit, found, tries, seen))
    return out


def _no_unit_question(unit: str, found: list, tries: int, seen: bool) -> Question:
    """A unit whose drafts give no question: none plays apart in what a judge sees (``seen`` False), or one does
    but only in what a ruling cannot expect (the cards along the way, an order that repeats)."""
    n, tried = len(found), min(len(found), tries)
    which = {"ru": "нём" if tried == 1 else f"первых {tried}", "en": "it" if tried == 1 else f"the first {tried}"}
    why = ({"ru": "партии расходятся, но лишь в том, чего разъяснение ожидать не может (состояние карт по ходу игры, "
                  "повторяющийся порядок)",
            "en": "games part, but only in what a ruling cannot expect (the cards along the way, a repeating order)"}
           if seen else
           {"ru": f"ни одна партия {WITHIN['ru']} не отличается тем, что видит судья: меняются лишь порядок или учёт "
                  f"событий, и разъяснению нечего закрепить",
            "en": f"no game {WITHIN['en']} differs in what a judge sees: only the order or bookkeeping of events "
                  f"changes, and a ruling has nothing to pin"})
    return Question(f"q-none-{unit}", "unit", (unit,), unit, None,
                    {"ru": f"Ни одно разъяснение не замечает {n} {plural(n, 'проект|проекта|проектов', 'ru')} с ошибкой "
                           f"в пункте {unit}, но в {which['ru']} {why['ru']}.",
                     "en": f"No ruling notices {n} one-fault {plural(n, 'draft|drafts')} of clause {unit}, but in "
                           f"{which['en']} {why['en']}."},
                    None, found[0][0].id)


def questions(rb: Rulebook, clause_text=None, only=None, units=None, data: dict | None = None) -> list[Question]:
    """Every question the rulebook raises, in order: per alternative reading (``only``: these reading ids), then
    per clause unit no ruling pins (``units``: only these; an empty set: none; ``data``: the rulebook's YAML,
    read from its file when not given)."""
    out = _reading_questions(rb, clause_text, only)
    if units is None or units:
        data = data if data is not None else yaml.safe_load(Path(rb.path).read_text("utf-8"))
        out += _unit_questions(rb, data, clause_text, units)
    return out


def decides(doc: dict, rb: Rulebook, other: Rulebook) -> bool:
    """Each case of the question passes on its own rulebook (A on ``rb``, B on ``other``) and fails on the other's
    (a document the scenario format refuses decides nothing)."""
    try:
        a, b = cases_of(doc)
        return (run_scenario(a, rb).passed and not run_scenario(a, other).passed
                and run_scenario(b, other).passed and not run_scenario(b, rb).passed)
    except RuleproofError:
        return False


def answer(doc: dict, choose: str) -> dict:
    """A question's document turned into a ruling: the chosen case's world changes and expectations kept at the
    top, the cases dropped; the ruling cites the question and the alternative chosen."""
    cases = {c["id"]: c for c in doc.get("cases", [])}
    if choose not in cases:
        raise KeyError(choose)
    case = cases[choose]
    out = {k: copy.deepcopy(v) for k, v in doc.items() if k not in ("cases", "provenance")}
    for k in ("dice", "responses"):
        if k in case:
            out[k] = copy.deepcopy(case[k])
    out["expect"] = copy.deepcopy(case["expect"])
    q = doc.get("provenance", {}).get("question", {})
    alt = q.get("alternatives", {}).get(choose, {})
    out["id"] = f"{doc['id']}-{choose.lower()}"
    out["title"] = {"ru": f"{case['title']['ru']} (ответ на {doc['id']})",
                    "en": f"{case['title']['en']} (the answer to {doc['id']})"}
    out["source"] = f"ruleproof answer {doc['id']} --choose {choose}"
    out["provenance"] = {"answer": {"question": doc["id"], "chosen": choose, **{k: v for k, v in alt.items() if v}}}
    if alt.get("reading") or alt.get("draft"):
        out.pop("assumptions", None)  # the other reading replaces the assumption the rulebook makes
    return out


def cases_of(doc: dict) -> list[Scenario]:
    """The cases of a question (or a ruling) document as runnable scenarios, read by the loader as a file is."""
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / f"{doc['id']}.yaml"
        p.write_text(dump_ruling(doc), "utf-8")
        return list(load_rulings(p))
