"""Under ``--lang ru`` the jobs' output is Russian: check, diff, run, explain, prove, explore and clauses print no
Latin-script word outside identifiers — the vocabulary's words, the rulebook's and the rulings' ids,
the event fields a ruling's ``events:`` names, clause and check ids, file names and tool names."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from ruleproof.cli import build_parser, main
from ruleproof.model.menu import ROLES
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.scenario import run_scenario, shipped_scenarios
from ruleproof.model.vocabulary import FEATURE_KINDS, GUARDS, OPERATIONS, STEP_KINDS, STRENGTHS, TABLES, X_KINDS
from ruleproof.properties.catalogue import PROPERTIES

from test_cli_lang import NAMES, _identifiers  # noqa: E402 (the --help test's names, one list)

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "rulebooks" / "berserk-rp-4.1-2.yaml"
DRAFT = ROOT / "rulebooks" / "drafts" / "marker-only-when-paid.yaml"
KELE = ROOT / "rulings" / "540-kele-attacker.yaml"
TOKEN = re.compile(r"[A-Za-z0-9_.:/\[\]-]*[A-Za-z][A-Za-z0-9_.:/\[\]-]*")
OUTCOMES = {"completed", "deadlock", "step_limit", "out_of_choices"}


@pytest.fixture(scope="module")
def allowed() -> set[str]:
    """Every identifier a Russian reader meets as the user typed it or as the YAML spells it."""
    from ruleproof.generators.bounded import ALLIES, DEFENDERS, LOADOUTS, role_loadouts, widened_loadouts
    from ruleproof.generators.strategies import PER_TURN_TEXT
    from ruleproof.model.menu import KINDS, OPTIONS, X_NAMES, resource_modifier, src_guard, x_var
    from ruleproof.reports.trace import flatten_state

    out = _identifiers(build_parser("ru")) | NAMES | OUTCOMES | {"not", "op", "spacer", "bmc", "damage", "heal"}
    out |= {o.feature.id for o in OPTIONS} | {f.id for a, b in LOADOUTS.values() for f in (*a, *b)}
    out |= {f.id for fs in DEFENDERS.values() for f in fs} | {f.id for a, b in ALLIES.values() for f in (*a, *b)}
    out |= {f.id for sides in role_loadouts().values() for side in sides for f in side}
    out |= {resource_modifier(c, "once", 1).id for c in ("src", "def")} | {"tgt_guard", src_guard(1).id}  # the Z3 menu's own
    out |= {x_var(k).name for k in X_NAMES} | set(KINDS)
    out |= {f"{c}_f{i}" for c in ("src", "tgt", "def", "allyA", "allyB") for i in range(8)}  # Hypothesis' features
    out.add(PER_TURN_TEXT)
    out |= set(OPERATIONS) | set(FEATURE_KINDS) | set(GUARDS) | set(STEP_KINDS) | set(TABLES) | set(X_KINDS)
    out |= set(STRENGTHS) | set(ROLES) | {p.id for p in PROPERTIES}
    for rb in (load_rulebook(BASE), load_rulebook(DRAFT)):
        out |= {f.id for sides in widened_loadouts(rb).values() for side in sides for f in side}
        out |= set(rb.spec.assumptions) | set(rb.spec.readings) | set(rb.spec.steps) | {rb.spec.id}
        for step in rb.spec.steps.values():
            for op in step.operations:
                out |= set(op.params) | {str(v) for v in op.params.values() if isinstance(v, str)}
        for _, sc in shipped_scenarios():
            out |= {sc.spec.id, *sc.spec.id.split("/"), *sc.spec.cards, sc.spec.action.feature}
            for card in sc.spec.cards.values():
                out |= {f.id for f in card.features} | set(card.resources)
            for e in run_scenario(sc, rb).trace.events:
                out |= set(e.values) | {e.op}
                for path, value in flatten_state(e.state).items():  # the state-change column's paths and words
                    out |= {str(p) for p in path} | ({value} if isinstance(value, str) else set())
    return out


def _known(part: str, allowed: set[str]) -> bool:
    """An identifier, a number (signed too: a modifier's «b_serk:-1»), or a piece of an identifier a
    table cell folded over two lines."""
    return part in allowed or re.fullmatch(r"[+-]?\d+", part) is not None or any(
        len(part) < len(a) and (a.startswith(part) or a.endswith(part)) for a in allowed)


def _latin(text: str, allowed: set[str]) -> Counter:
    found: Counter = Counter()
    for tok in TOKEN.findall(text):
        tok = tok.strip(".:-/[]")
        if not tok or tok in allowed:
            continue
        if (re.fullmatch(r"[A-Z]+\d[\w.\-/]*", tok)  # check and clause ids: P512.7-payment, S1-reachable, M4
                or re.fullmatch(r"\d[\w.]*(/[a-z]+\d[\w.]*)*", tok)  # clause units: 512.6.2/b4.1
                or re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:]+Z", tok)  # a timestamp
                or re.fullmatch(r"q-[0-9a-f]{10}|q-none-R-[\w-]+", tok)  # a question's id
                or "/" in tok or re.search(r"\.(yaml|yml|txt|md|json|html|svg|png|xml)(:\d+)*$", tok)  # files
                or re.fullmatch(r"(cards|action|x|then\[\d+\])\.[\w.\[\]]+", tok)  # expectation paths
                or all(_known(p, allowed) for p in re.split(r"[:.]", tok))):  # kele:close:1, src.uses.act
            continue
        found[tok] += 1
    return found


JOBS = {
    "run": ["run", str(KELE)],
    "run-failing": ["run", str(KELE), "--rulebook", str(DRAFT)],
    "run-full": ["run", str(KELE), "--full"],
    "explain": ["explain", str(KELE)],
    "questions": ["questions", "--only", "R-strike-row-4", "R-defender-marker", "R-non-active-first-late"],
    "explain-failing": ["explain", str(KELE), "--rulebook", str(DRAFT)],
    "check": ["check", "--engines", "structure,rulings,conformance,consistency"],
    "clauses": ["clauses"],
    "prove": ["prove", "--only", "P512.7-payment", "--accept-menu"],
    "explore": ["explore", "--only", "P512.7-payment"],
    # one loadout (the one whose world the draft plays apart): every table of the default bounds' output, 6× faster
    "diff": ["diff", str(BASE), str(DRAFT), "--engines", "rulings,exhaustive", "--no-cache", "--jobs", "1",
             "--bounds", "x=0,loadouts=defence"],
    # the engines' own counterexamples: world, trace with its state changes, replay
    "prove-failing": ["prove", str(DRAFT), "--only", "P540.3-action-marker"],
    "explore-failing": ["explore", str(DRAFT), "--only", "P540.3-action-marker"],
    "check-failing": ["check", str(DRAFT), "--engines", "structure,hypothesis,z3", "--examples", "40"],
}


#: the jobs that take over 20 s on 2 cores (deselected by ``-m "not slow"``)
SLOW_JOBS = {"check-failing"}


@pytest.mark.parametrize("job", [pytest.param(j, marks=pytest.mark.slow) if j in SLOW_JOBS else j for j in sorted(JOBS)])
def test_the_job_speaks_russian(job, allowed, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")
    code = main(["--lang", "ru", *JOBS[job]])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    assert out.strip()
    words = _latin(out + err, allowed)
    assert not words, words.most_common(20)


def test_the_detector_finds_english_prose(allowed):
    assert _latin("пройдено: 15828 runs, 119080 states", allowed) == Counter({"runs": 1, "states": 1})
    assert not _latin("окно reroll допускает +die_trigger; P512.7-payment; kele:close:1; b_serk:-1", allowed)
    assert _latin("b_serk:minus", allowed) == Counter({"b_serk:minus": 1})


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_reports_speak_russian(fmt, allowed, tmp_path, capsys):
    """The Markdown and HTML reports of a draft with findings (identifiers aside; HTML's markup, styles and
    attributes are not text)."""
    import html as html_lib

    code = main(["--lang", "ru", "check", str(DRAFT), "--engines", "structure,rulings", "--report", str(tmp_path),
                 "--format", fmt])
    capsys.readouterr()
    assert code == 1
    text = (tmp_path / f"report.{fmt}").read_text("utf-8")
    if fmt == "html":
        text = re.sub(r"<(style|script)\b.*?</\1>", " ", text, flags=re.S).replace("<wbr>", "")
        text = html_lib.unescape(re.sub(r"<[^>]+>", " ", text))
    words = _latin(text, allowed | {"python", "z3-solver"})  # the versions line names the tools
    assert not words, words.most_common(20)
