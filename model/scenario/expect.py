"""A scenario's outcome against what it expects: each kind of expectation a named step, each failure with where
the run went otherwise."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ruleproof.ground.i18n import reason_text, word

from ..interpreter import Trace
from .spec import FLAG_WORDS, ExpectSpec

if TYPE_CHECKING:  # annotations only: a result names the scenario it is of
    from .load import Scenario


@dataclass
class Failure:
    what: str  # the expectation, e.g. "cards.kele.closed"
    expected: Any
    actual: Any
    clauses: tuple[str, ...] = ()
    events: tuple[int, ...] = ()  # seq numbers of the offending events (a violated property)
    actual_ru: Any = None  # ``actual`` in Russian, where it is a sentence
    expected_ru: Any = None  # ``expected`` in Russian, where it is a word
    what_ru: str | None = None  # ``what`` in Russian, where it is more than a path
    what_en: str | None = None  # ``what`` for an English reader, where ``what`` (the failure's key) shows Python

    def shown(self, lang: str = "en") -> Any:
        if lang == "ru":
            return _shown(self.actual_ru if self.actual_ru is not None else self.actual, "ru")
        return _shown(self.actual, "en")

    def wanted(self, lang: str = "en") -> Any:
        if lang == "ru":
            return _shown(self.expected_ru if self.expected_ru is not None else self.expected, "ru")
        return _shown(self.expected, "en")

    def named(self, lang: str = "en") -> str:
        if lang == "ru":
            return self.what_ru if self.what_ru is not None else self.what
        return self.what_en if self.what_en is not None else self.what

    def text(self, lang: str = "en") -> str:
        """The failure in one line: what, what was expected, what the run gave — values as a ruling writes
        them (да/нет in Russian, true/false in English, «ничего»/nothing for no value).

        >>> f = Failure("cards.kele.closed", True, False)
        >>> f.text("ru"), f.text("en")
        ('cards.kele.closed: ожидалось да, получено нет', 'cards.kele.closed: expected true, got false')
        >>> Failure("x.X.value", 3, None).text("ru")
        'x.X.value: ожидалось 3, получено ничего'
        """
        if lang == "ru":
            return f"{self.named(lang)}: ожидалось {self.wanted(lang)!r}, получено {self.shown(lang)!r}"
        return f"{self.named(lang)}: expected {self.wanted(lang)!r}, got {self.shown(lang)!r}"


class _Word(str):
    """A word standing for a value (да/нет, true/false, ничего): shown without quotes."""

    def __repr__(self) -> str:
        return str(self)


#: no value, as a reader is told it
_NOTHING = {"ru": "ничего", "en": "nothing"}


def _shown(v: Any, lang: str) -> Any:
    """A value as a reader sees it: true/false as да/нет in Russian and true/false in English, None as
    «ничего»/nothing (inside lists, tuples and mappings too)."""
    if isinstance(v, bool):
        return _Word(word(v, lang))
    if v is None:
        return _Word(_NOTHING.get(lang, "nothing"))
    if isinstance(v, list):
        return [_shown(i, lang) for i in v]
    if isinstance(v, tuple):
        return tuple(_shown(i, lang) for i in v)
    if isinstance(v, dict):
        return {k: _shown(i, lang) for k, i in v.items()}
    return v


@dataclass
class ScenarioResult:
    scenario: Scenario
    trace: Trace  # the whole turn
    failures: list[Failure] = field(default_factory=list)
    parts: list[Trace] = field(default_factory=list)  # each game action's own trace, in order

    @property
    def passed(self) -> bool:
        return not self.failures

    @property
    def departures(self) -> tuple[int, ...]:
        """The events where the run departs from its expectations (each failure's), in order: what
        every format marks ▶."""
        return tuple(sorted({n for f in self.failures for n in f.events}))


def _norm(v: Any) -> Any:
    """Compare YAML values with state values: lists = tuples; RawInt = int."""
    if isinstance(v, (list, tuple)):
        return [_norm(i) for i in v]
    if isinstance(v, bool) or v is None:
        return v
    for t in (int, float, str):
        if isinstance(v, t):
            return t(v)
    return v


def _values_text(values: list, lang: str) -> str:
    """Event values for a reader (true/false as да/нет in Russian, true/false in English)."""
    return repr([{k: _shown(v, lang) for k, v in d.items()} for d in values])


def _event_text(want, lang: str) -> str:
    """An expected event for a reader (true/false as да/нет in Russian, true/false in English).

    >>> _event_text({"op": "check_resources", "ok": False}, "ru"), _event_text({"ok": True}, "en")
    ("{'op': 'check_resources', 'ok': нет}", "{'ok': true}")
    """
    return repr({k: _shown(v, lang) for k, v in dict(want).items()})


def _read_like(want: Any, got: Any) -> Any:
    """An expected event value read as the run's value is typed, as a card's would be: «да»/«нет» (and
    true/false written as words) where the run has a yes/no, a quoted number where it has a number.

    >>> _read_like("нет", False), _read_like("2", 2), _read_like("2", "2"), _read_like(["да"], (True,))
    (False, 2, '2', [True])
    """
    if isinstance(got, bool) and isinstance(want, str):
        return {**FLAG_WORDS, "true": True, "false": False}.get(want.strip().casefold(), want)
    if isinstance(got, int) and not isinstance(got, bool) and isinstance(want, str) and want.strip().isdigit():
        return int(want)
    if isinstance(want, list) and isinstance(got, (list, tuple)) and len(want) == len(got):
        return [_read_like(w, g) for w, g in zip(want, got)]
    return want


def _last_change(trace: Trace, get) -> tuple[int, ...]:
    """The event that last changed a value (the one that set what the expectation rejects), or the
    last event when nothing changed it (the action ended without the expected change)."""
    def value(e):
        try:
            return _norm(get(e.state))
        except (AttributeError, KeyError, LookupError, TypeError):
            return _MISSING

    seq, prev = None, _MISSING
    for e in trace.events:
        now = value(e)
        if now != prev and prev is not _MISSING:
            seq = e.seq
        prev = now
    return (seq,) if seq is not None else ((trace.events[-1].seq,) if trace.events else ())


def _first_departure(trace: Trace, steps: list[str]) -> tuple[int, ...]:
    """The first ``enter`` event whose step differs from the expected visit order (or the last event)."""
    enters = [e for e in trace.events if e.op == "enter"]
    for k, e in enumerate(enters):
        if k >= len(steps) or e.values["step"] != steps[k]:
            return (e.seq,)
    return (trace.events[-1].seq,) if trace.events else ()


def _matches(event, want: dict) -> bool:
    for key, value in want.items():
        actual = event.op if key == "op" else event.step if key == "step" else event.values.get(key, _MISSING)
        if actual is _MISSING or _norm(actual) != _norm(_read_like(value, actual)):
            return False
    return True


_MISSING = object()


def _compare(res: ScenarioResult, trace: Trace, exp: ExpectSpec, clauses: tuple, prefix: str) -> None:
    """The failures of one game action against its expectations (``prefix``: which action, for the reader)."""
    def fail(f: Failure) -> None:
        if prefix:  # which action it is of (a Russian name stays as it is: "then[1]" before a Russian word
            # would be a stray Latin token in Russian output)
            f = replace(f, what=prefix + f.what, what_en=f.what_en and prefix + f.what_en)
        res.failures.append(f)

    end = (trace.events[-1].seq,) if trace.events else ()  # where an action ended without what was expected
    for expected in _EXPECTATIONS:
        expected(trace, exp, clauses, end, fail)


def _expect_outcome(trace: Trace, exp: ExpectSpec, clauses: tuple, end: tuple, fail) -> None:
    """``outcome``: how the action ended."""
    if trace.outcome != exp.outcome:
        reason = trace.events[-1].values.get("reason", "") if trace.events else ""
        if not reason:
            fail(Failure("outcome", exp.outcome, trace.outcome, clauses, end))
            return
        fix = next((f for start, f in _REASON_FIXES if reason.startswith(start)), None)
        ru, en = (f" — {fix[0]}", f" — {fix[1]}") if fix else ("", "")
        fail(Failure("outcome", exp.outcome, _Word(f"{trace.outcome}: {reason_text(reason, 'en')}{en}"), clauses, end,
                     actual_ru=_Word(f"{trace.outcome}: {reason_text(reason, 'ru')}{ru}")))


#: how a scenario mends a run that stopped for want of a scripted choice: (how its reason starts, (ru, en))
_REASON_FIXES = (
    ("the rules asked for die result", ("допишите в dice: то, что выпало на кубике, по порядку бросков, например "
                                        "dice: [4]",
                                        "add what the die shows under dice:, in the order of the rolls, e.g. dice: [4]")),
    ("scripted die result", ("исправьте это значение в dice:", "correct that value under dice:")),
)


def _expect_unused(trace: Trace, exp: ExpectSpec, clauses: tuple, end: tuple, fail) -> None:
    """``unused``: the responses never offered — and only those."""
    never = {f for _, _, f in trace.unused}
    for window, player, feature in trace.unused:
        if feature not in exp.unused:
            passes = tuple(e.seq for e in trace.events if e.op == "pass" and e.values.get("window") == window
                           and e.values.get("player") == player)
            fail(Failure(f"response {feature} ({player} in window {window})", "played", "never offered", clauses,
                         passes or end, actual_ru=_Word("не предложен ни разу"), expected_ru=_Word("разыгран"),
                         what_ru=f"ответ {feature} ({player}, окно {window})"))
    for feature in exp.unused:
        if feature not in never:
            plays = tuple(e.seq for e in trace.events if e.op == "play" and e.values.get("feature") == feature)
            fail(Failure(f"response {feature}", "not offered (unused)", "offered and played", clauses, plays[:1] or end,
                         actual_ru=_Word("предложен и разыгран"), expected_ru=_Word("не предложен (unused)"),
                         what_ru=f"ответ {feature}"))


def _expect_cards(trace: Trace, exp: ExpectSpec, clauses: tuple, end: tuple, fail) -> None:
    """``cards``: each card's fields (``resources``: each named resource) after the action."""
    final = trace.final
    for cid, fields in exp.cards.items():
        card = final.card(cid)
        for key, want in fields.items():
            if key == "resources" and isinstance(want, dict):  # each named resource: {crystal: 0}
                for word, n in want.items():
                    got = final.card(cid).resource(word)
                    if _norm(got) != _norm(n):
                        fail(Failure(f"cards.{cid}.resources.{word}", n, got, clauses,
                                     _last_change(trace, lambda st, c=cid, r=word: st.card(c).resource(r))))
                continue
            got = getattr(card, key)
            if _norm(got) != _norm(want):
                fail(Failure(f"cards.{cid}.{key}", want, got, clauses,
                             _last_change(trace, lambda st, c=cid, k=key: getattr(st.card(c), k))))


def _expect_action(trace: Trace, exp: ExpectSpec, clauses: tuple, end: tuple, fail) -> None:
    """``action``: the action's fields after it."""
    final = trace.final
    for key, want in exp.action.items():
        got = getattr(final.action, key)
        if _norm(got) != _norm(want):
            fail(Failure(f"action.{key}", want, got, clauses, _last_change(trace, lambda st, k=key: getattr(st.action, k))))


def _expect_x(trace: Trace, exp: ExpectSpec, clauses: tuple, end: tuple, fail) -> None:
    """``x``: each X's fields after the action."""
    final = trace.final
    for name, fields in exp.x.items():
        assert final.action is not None, "a ruling's run ends in the state of its action"
        xv = final.action.x(name)
        for key, want in fields.items():
            got = getattr(xv, key)
            if _norm(got) != _norm(want):
                fail(Failure(f"x.{name}.{key}", want, got, clauses,
                             _last_change(trace, lambda st, n=name, k=key: getattr(st.action.x(n), k))))


def _expect_events(trace: Trace, exp: ExpectSpec, clauses: tuple, end: tuple, fail) -> None:
    """``events``: each present (an event with these values)."""
    for want in exp.events:
        if not any(_matches(e, want) for e in trace.events):
            same_op = [e for e in trace.events if e.op == want.get("op")]
            near = [e.values for e in same_op][:3]
            fail(Failure(f"event {dict(want)}", "present",
                         _Word(f"absent (events of that op: {_values_text(near, 'en')})"),
                         clauses, tuple(e.seq for e in same_op[:3]) or end,
                         actual_ru=_Word(f"нет (события этой операции: {_values_text(near, 'ru')})"),
                         expected_ru=_Word("есть"),
                         what_ru=f"событие {_event_text(want, 'ru')}", what_en=f"event {_event_text(want, 'en')}"))


def _expect_no_events(trace: Trace, exp: ExpectSpec, clauses: tuple, end: tuple, fail) -> None:
    """``no_events``: each absent."""
    for want in exp.no_events:
        hits = [e for e in trace.events if _matches(e, want)]
        if hits:
            fail(Failure(f"no event {dict(want)}", "absent", f"at #{hits[0].seq} in step {hits[0].step}", clauses,
                         (hits[0].seq,), actual_ru=_Word(f"есть: №{hits[0].seq}, шаг {hits[0].step}"), expected_ru=_Word("нет"),
                         what_ru=f"нет события {_event_text(want, 'ru')}",
                         what_en=f"no event {_event_text(want, 'en')}"))


def _expect_order(trace: Trace, exp: ExpectSpec, clauses: tuple, end: tuple, fail) -> None:
    """``order``: events matching these, one after another in this order (other events may come between)."""
    if not exp.order:
        return
    k = 0
    for e in trace.events:
        if k < len(exp.order) and _matches(e, exp.order[k]):
            k += 1
    if k < len(exp.order):
        want = exp.order[k]
        hits = [e for e in trace.events if _matches(e, want)]
        before = ", ".join(_event_text(w, "en") for w in exp.order[:k]) or "the start"
        before_ru = ", ".join(_event_text(w, "ru") for w in exp.order[:k]) or "начала"
        fail(Failure(f"order: event {dict(want)}", _Word(f"after {before}"), _Word(f"at #{hits[0].seq}" if hits else "absent"),
                     clauses, (hits[0].seq,) if hits else end,
                     actual_ru=_Word(f"№{hits[0].seq}" if hits else "нет"), expected_ru=_Word(f"после: {before_ru}"),
                     what_ru=f"порядок: событие {_event_text(want, 'ru')}",
                     what_en=f"order: event {_event_text(want, 'en')}"))


def _expect_properties(trace: Trace, exp: ExpectSpec, clauses: tuple, end: tuple, fail) -> None:
    """``properties``: each holds on the action's trace."""
    if exp.properties:
        from ruleproof.properties.catalogue import BY_ID, View  # read when called (a test plants properties)

        view = View(trace.events)
        for pid in exp.properties:
            p = BY_ID[pid]
            v = p.check(view)
            if v is not None:
                at = ", ".join(f"#{n}" for n in v.events)
                fail(Failure(f"property {pid}", "holds", f"violated at events {at}: {v.en}", p.clauses, v.events,
                             _Word(f"нарушено в событиях {at}: {v.ru}"), _Word("выполняется"), f"свойство {pid}"))


def _expect_visited(trace: Trace, exp: ExpectSpec, clauses: tuple, end: tuple, fail) -> None:
    """``visited``: the steps entered, in order."""
    if exp.visited is not None:
        visited = [e.values["step"] for e in trace.events if e.op == "enter"]
        if visited != list(exp.visited):
            fail(Failure("visited", list(exp.visited), visited, clauses, _first_departure(trace, list(exp.visited))))


#: what an ``expect`` can say, checked in this order
_EXPECTATIONS = (_expect_outcome, _expect_unused, _expect_cards, _expect_action, _expect_x, _expect_events,
                 _expect_no_events, _expect_order, _expect_properties, _expect_visited)
