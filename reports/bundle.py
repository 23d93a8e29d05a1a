"""The report bundle: everything one run of ``ruleproof check`` found, as data the writers format.

A :class:`Report` holds the rulebook (id, path, title, counts), the check results grouped by the
engine that produced them (:class:`Section`: structure, rulings, hypothesis, exhaustive, z3,
consistency — whichever ran), the rulebook's assumptions, the clause coverage, the phase graph as
plain data (for the HTML picture) and the metadata (seed, examples, versions, language).  The only
volatile part — when it was made and how long the engines took — is ``meta["generated"]``; every
writer prints it in one marked place so that two runs compare equal once it is masked
(:func:`mask_generated`).

>>> from ruleproof.orchestrate import run_check
>>> rep = report_from_check(run_check(), timestamp="2026-01-01T00:00:00Z")
>>> [s.group for s in rep.sections], rep.exit_code, rep.rulebook["id"]
(['structure'], <ExitCode.OK: 0>, 'berserk-rp-4.1-2')
>>> make_clause_text()("540.3", "en")[:40]
'When applied to an action, the card stil'
"""

from __future__ import annotations

import dataclasses
import platform
import re
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Callable

from ruleproof.engine_registry import ENGINES, NAMES
from ruleproof.ground.errors import ExitCode
from ruleproof.model.clauses import default_index
from ruleproof.model.draw import _edge_label, _ordered_edges
from ruleproof.model.readings import not_applicable
from ruleproof.model.rulebook import bundled_rulebook_path, load_rulebook
from ruleproof.model.rulebook_diff import behaviour, changed_operations
from ruleproof.model.rules_text import load_rules_text

from .coverage import Coverage, build_coverage
from .finding import CheckResult, Finding, Verdict

__all__ = ["Report", "Section", "ENGINE_GROUPS", "ClauseText", "report_from_check", "make_clause_text",
           "graph_data", "versions", "mask_generated", "GENERATED_RE"]

#: the engine groups a report can hold, in the order they are shown
ENGINE_GROUPS = NAMES
#: attribute names of a CheckReport under which each group's results may be found
_ATTRS = {"structure": ("structure",), **{e.name: (e.field,) for e in ENGINES}}

ClauseText = Callable[[str, str], "str | None"]

#: matches the one volatile line/attribute value every writer emits (a UTC timestamp)
GENERATED_RE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")


@dataclass(frozen=True)
class Section:
    """The results of one engine group, with its figures (e.g. examples, seed)."""

    group: str
    results: tuple[CheckResult, ...]
    stats: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return all(r.holds for r in self.results)

    @property
    def verdict(self) -> Verdict:
        return Verdict.overall(r.verdict for r in self.results)


@dataclass(frozen=True)
class Report:
    rulebook: dict  # id, path, title {ru, en}, edition, counts {steps, edges, operations, windows, assumptions}
    sections: tuple[Section, ...]
    assumptions: dict[str, dict] = field(default_factory=dict)
    coverage: Coverage | None = None
    # the rulebook's alternative readings: id -> {of, about, statement {ru, en}, rulings (the rulings whose
    # outcome it changes; None: the rulings did not run)}
    readings: dict[str, dict] = field(default_factory=dict)
    graph: dict | None = None  # graph_data(): nodes and edges with their labels in both languages
    meta: dict = field(default_factory=dict)  # seed, examples, versions, lang, rules_text, generated {at, seconds}

    @property
    def results(self) -> list[CheckResult]:
        return [r for s in self.sections for r in s.results]

    @property
    def findings(self) -> list[Finding]:
        """Every finding of the engines (coverage findings apart)."""
        return [f for r in self.results for f in r.findings]

    @property
    def counterexamples(self) -> list[Finding]:
        return [f for f in self.findings if f.trace]

    @property
    def coverage_findings(self) -> tuple[Finding, ...]:
        return self.coverage.findings if self.coverage else ()

    @property
    def verdict(self) -> Verdict:
        """``violated`` (exit 1), ``unknown`` (inconclusive, exit 3) or ``holds`` (exit 0)."""
        return Verdict.overall(r.verdict for r in self.results)

    @property
    def ok(self) -> bool:
        return self.verdict == Verdict.HOLDS

    @property
    def exit_code(self) -> ExitCode:
        return {Verdict.HOLDS: ExitCode.OK, Verdict.VIOLATED: ExitCode.FINDING,
                Verdict.UNKNOWN: ExitCode.INCONCLUSIVE}[self.verdict]

    def section(self, group: str) -> Section | None:
        return next((s for s in self.sections if s.group == group), None)


def versions() -> dict[str, str]:
    """ruleproof, z3-solver, hypothesis and Python versions (read from the installed metadata)."""
    out = {}
    for name in ("ruleproof", "z3-solver", "hypothesis"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:  # pragma: no cover
            out[name] = "?"
    out["python"] = platform.python_version()
    return out


def graph_data(G, changed: AbstractSet[tuple[str, int]] = frozenset()) -> dict:
    """The phase graph as plain data: steps (name, kind, rank, clauses, their operations and windows — ``changed``:
    the (step, position) a draft changed) and edges (guard label)."""
    nodes = [{"id": n, "name": dict(G.nodes[n]["name"]), "kind": G.nodes[n]["kind"], "rank": G.nodes[n]["rank"],
              "stage": G.nodes[n]["stage"], "cites": list(G.nodes[n]["cites"]),
              "terminal": bool(G.nodes[n]["terminal"]),
              "ops": [_op_entry(o, (n, i) in changed) for i, o in enumerate(G.nodes[n].get("operations", ()))]}
             for n in G]
    edges = [{"from": u, "to": v, "guard": d["guard"], "cites": list(d["cites"]), "loop": bool(d["loop"]),
              "label": {lang: _edge_label(d, lang, " · ") for lang in ("ru", "en")}} for u, v, d in _ordered_edges(G)]
    return {"start": G.graph["start"], "nodes": nodes, "edges": edges}


def _op_entry(o: dict, changed: bool) -> dict:
    """An operation as a step of the picture lists it: ``window reroll`` / ``окно reroll``, ``fix_x cost``, its guard."""
    if o["op"] == "window":
        label = {"ru": f"окно {o.get('id')}", "en": f"window {o.get('id')}"}
    else:
        name = o["op"] + (f" {o['x']}" if "x" in o else "")
        label = {"ru": name, "en": name}
    if o.get("when") not in (None, "always"):
        label = {k: f"{v} [{o['when']}]" for k, v in label.items()}
    return {"op": o["op"], "label": label, "changed": changed}


def make_clause_text(rules_text=None, index=None) -> ClauseText:
    """``clause_text(cid, lang)``: the official Russian wording when a rules text is given (a path
    or a loaded RulesText) and has the unit, else ruleproof's own summary in ``lang``."""
    index = index or default_index()
    rules = rules_text
    if isinstance(rules_text, (str, bytes)) or hasattr(rules_text, "__fspath__"):
        rules = load_rules_text(rules_text)

    def clause_text(cid: str, lang: str = "en") -> str | None:
        if rules is not None:
            official = rules.text_of(cid)
            if official:
                return official
        return index.summary(cid, lang) or None

    return clause_text


#: figures of an engine's outcome that a report shows (and keeps in JSON)
_STATS = ("examples", "seed", "timeout_ms", "max_depth", "z3_version", "status", "complete", "states", "traces")


def _results_of(check, group: str) -> tuple[list[CheckResult] | None, object]:
    """(the group's results, the outcome object they came from, if any)."""
    for attr in _ATTRS[group]:
        value = getattr(check, attr, None)
        if value is None:
            continue
        results = getattr(value, "results", value)
        if isinstance(results, (list, tuple)) and all(isinstance(r, CheckResult) for r in results):
            return list(results), (value if value is not results else None)
    return None, None


_DURATION = re.compile(r",? *\d+(\.\d+)? ?(s|ms|с|мс)\b")


def _timeless(r: CheckResult) -> CheckResult:
    """A note without durations (e.g. Z3's ``proved (bmc, 0.12 s)``): timings vary between runs and
    live in ``meta["generated"]``, so that the rest of a report is deterministic."""
    note = _DURATION.sub("", r.note).replace("()", "").replace("( ", "(").strip()
    return r if note == r.note and r.seconds is None else dataclasses.replace(r, note=note, seconds=None)


def _section(check, group: str, results: list[CheckResult] | None, h, seconds: dict, check_seconds: dict
             ) -> Section | None:
    """One engine's section (None: the engine did not run), its figures; its times go into ``seconds`` and
    ``check_seconds`` (``results``: given for an engine not on the CheckReport; ``h``: the Hypothesis outcome)."""
    outcome = None
    if results is None:
        results, outcome = _results_of(check, group)
    if group == "hypothesis" and h is not None:
        outcome = h
    if group == "structure" and results is None:
        results = []
    if results is None or (group != "structure" and not results):
        return None
    stats = _stats(check, group, outcome, seconds)
    if group == "hypothesis" and h is not None:
        results = [_with_seed(r, h.seed) for r in results]
    check_seconds.update({f"{group}/{r.check}": round(r.seconds, 3) for r in results if r.seconds is not None})
    return Section(group, tuple(_timeless(r) for r in results), stats)


def _stats(check, group: str, outcome, seconds: dict) -> dict:
    """The figures of an engine's outcome a report shows (its seconds into ``seconds``), and what its games cover."""
    stats: dict = {}
    if outcome is not None:
        stats = {k: getattr(outcome, k) for k in _STATS if isinstance(getattr(outcome, k, None), (int, str, bool))}
        if isinstance(getattr(outcome, "seconds", None), (int, float)):
            seconds[group] = round(outcome.seconds, 1)
    run = (getattr(check, "runs", None) or {}).get(group)
    if run is not None and isinstance(getattr(run, "stats", None), dict):
        # what the engine's games cover (model/universe.py); the rulings whose games the proofs do not
        stats.update({k: run.stats[k] for k in ("scope", "outside_menu") if run.stats.get(k)})
    return stats


def report_from_check(check, *, lang: str = "en", rules_text: str | None = None, timestamp: str | None = None,
                      coverage: bool = True, extra: dict[str, list[CheckResult]] | None = None) -> Report:
    """Bundle an ``orchestrate.CheckReport``: each engine group that ran becomes a Section
    (``extra``: more groups by name, for engines not yet on the CheckReport).  ``timestamp``
    (ISO 8601, UTC) defaults to now."""
    rb, G = check.rulebook, check.graph
    h = getattr(check, "hypothesis", None)
    sections = []
    seconds: dict[str, float] = {}
    check_seconds: dict[str, float] = {}  # "group/check" -> its own time, where the engine measured one
    for group in ENGINE_GROUPS:
        section = _section(check, group, (extra or {}).get(group), h, seconds, check_seconds)
        if section is not None:
            sections.append(section)
    counts = check.counts() if hasattr(check, "counts") else {}
    assumptions = {aid: _plain_assumption(a) for aid, a in G.graph.get("assumptions", {}).items()}
    meta = {"lang": lang, "seed": h.seed if h is not None else None,
            "examples": h.examples if h is not None else 0, "rules_text": str(rules_text) if rules_text else None,
            "versions": versions(),
            "generated": {"at": timestamp or datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                          "seconds": seconds, "check_seconds": check_seconds}}
    bundled = None if _is_bundled(rb) else load_rulebook()  # a draft's report compares it with the bundled rulebook
    marks = draft_marks(rb, bundled)
    return Report(
        rulebook={"id": rb.spec.id, "path": str(rb.path), "title": rb.spec.title.model_dump(),
                  "edition": rb.spec.edition, "counts": counts, **marks},
        sections=tuple(sections), assumptions=assumptions, readings=_readings(rb, sections),
        coverage=build_coverage(assumptions=assumptions) if coverage else None,
        graph=graph_data(G, changed_operations(bundled, rb) if bundled is not None else frozenset()), meta=meta)


def _is_bundled(rb) -> bool:
    return rb.path is None or Path(rb.path).resolve() == bundled_rulebook_path().resolve()


def draft_marks(rb, bundled=None) -> dict[str, bool]:
    """Whether a rulebook is a draft (any file but the bundled one), and whether it keeps the bundled rulebook's
    id though its rules differ (a copy edited in place): every report says so in its title.  ``bundled``: the
    bundled rulebook, if the caller has it loaded."""
    if _is_bundled(rb):
        return {"draft": False, "copy_of_bundled": False}
    bundled = bundled if bundled is not None else load_rulebook()
    return {"draft": True,
            "copy_of_bundled": rb.spec.id == bundled.spec.id and behaviour(rb) != behaviour(bundled)}


def _readings(rb, sections) -> dict[str, dict]:
    """The rulebook's readings, each with the rulings whose outcome it changes (from the rulings'
    ``depends_on``: "R-x" or "R-x (A-y)")."""
    rulings = next((s.results for s in sections if s.group == "rulings"), None)
    gone = not_applicable(rb) if rb.spec.readings else {}
    out = {}
    for rid, r in rb.spec.readings.items():
        changed = None if rulings is None else [x.check for x in rulings
                                                if any(d.split(" (")[0] == rid for d in x.depends_on or ())]
        out[rid] = {"of": r.of, "about": [str(c) for c in r.about], "statement": r.statement.model_dump(),
                    "rulings": changed,
                    "not_applicable": {"ru": gone[rid].ru, "en": gone[rid].en} if rid in gone else None}
    return out


def _plain_assumption(a: dict) -> dict:
    return {"about": [str(x) for x in a.get("about", [])], "statement": dict(a["statement"]),
            "reason": dict(a["reason"])}


def _with_seed(r: CheckResult, seed: int | None) -> CheckResult:
    if seed is None or not r.findings:
        return r
    return dataclasses.replace(r, findings=tuple(dataclasses.replace(f, seed=f.seed if f.seed is not None else seed)
                                                 for f in r.findings))


def mask_generated(text: str) -> str:
    """Mask the volatile parts — the line with the generation time (which also says how long the
    engines took), JSON's ``"seconds"`` and JUnit's ``time`` — so that two runs can be compared.

    >>> mask_generated('a\\n*Generated: 2026-01-01T00:00:00Z (hypothesis: 3.1 s)*\\nb')
    'a\\n<generated>\\nb'
    """
    text = re.sub(r'"(check_)?seconds": \{[^}]*\}', r'"\1seconds": {}', text)
    text = re.sub(r' time="[^"]*"', ' time=""', text)
    return "\n".join("<generated>" if GENERATED_RE.search(line) else line for line in text.split("\n"))
