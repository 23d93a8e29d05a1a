"""`ruleproof diff BASE DRAFT` on the example drafts in rulebooks/drafts/: each with its expected diff."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from ruleproof.cli import main
from ruleproof.diff import diff_rulebooks
from ruleproof.model.explore import Bounds
from ruleproof.model.rulebook import bundled_rulebook_path, load_rulebook
from ruleproof.model.rulebook_diff import by_clause, structural_diff
from ruleproof.model.scenario import load_scenario, run_scenario

DRAFTS = Path(bundled_rulebook_path()).parent / "drafts"
BASE = str(bundled_rulebook_path())
#: small bounds that still show each draft's difference (the default is x=0 over every loadout)
SMALL = "x=0,loadouts=none+triggers"


@pytest.fixture(scope="module")
def base():
    return load_rulebook()


#: the engines of the per-draft expectations below (every engine, Z3 and Hypothesis too, is the command's
#: default: its test is the assault draft's, below)
BOUNDED = ("conformance", "rulings", "exhaustive", "consistency")


@pytest.fixture(scope="module")
def diffs(base, tmp_path_factory):
    """Each example draft against the bundled rulebook; the base's runs made once and reused from a cache of the
    module's own (the same verdicts: test_the_base_results_are_kept_and_reused)."""
    bounds, cache = Bounds(x_max=0, loadouts=("none", "triggers")), tmp_path_factory.mktemp("diff-cache")
    return {p.stem: diff_rulebooks(base, load_rulebook(p), BOUNDED, bounds=bounds, cache_dir=cache)
            for p in sorted(DRAFTS.glob("*.yaml"))}


def test_there_is_one_draft_of_each_kind(diffs):
    assert {"marker-only-when-paid", "cost-x-at-payment", "strike-table-row-4", "reworded",
            "assault-on-return-strike"} <= set(diffs)


@pytest.mark.slow
def test_the_assault_trigger_widened_to_the_return_strike_is_caught_by_every_engine(base):
    """Issue 22's draft: «при нападении» carried to the return strike (against 540.4.1).  ``diff`` with its
    defaults — every engine, the explorer's default bounds, a worker per core — reports the property
    broken by the exhaustive pass, Z3 and Hypothesis, the shipped rulings it changes, and the smallest
    game on which the two rulebooks part."""
    d = diff_rulebooks(base, load_rulebook(DRAFTS / "assault-on-return-strike.yaml"), jobs=2)
    [change] = d.structure
    assert change.element == "table trigger_words" and "540.4.1" in change.clauses
    broken = {v.engine: (v.base, v.draft) for v in d.verdicts if v.property == "P540.4.1-return-strike"}
    assert broken.get("exhaustive") == ("holds", "violated") and broken.get("z3") == ("proved within the menu", "violated"), broken
    assert len(broken) >= 2 and all(after == "violated" for _, after in broken.values())
    assert {v.property for v in d.verdicts} == {"P540.4.1-return-strike"}, d.verdicts
    assert set(d.timings) >= {f"{e}/{side}" for e in d.engines if e != "consistency" for side in ("base", "draft")}
    assert d.difference is not None and d.conflicts == []
    assert "P540.4.1-return-strike" in d.counterexamples


def test_a_harmless_rewording_changes_nothing(diffs):
    """Wording only: the engines run on the base for both (the draft plays every game as the base does,
    by construction), the consistency claims on each (they read the cites), and no game is searched."""
    d = diffs["reworded"]
    assert d.structure == [] and d.verdicts == [] and d.rulings == [] and d.conflicts == []
    assert d.difference is None and not d.changed and d.same_behaviour
    assert set(d.timings) == {"conformance/base", "rulings/base", "exhaustive/base", "consistency/base",
                              "consistency/draft"}
    assert all(base == draft for base, draft in d.sides.values())
    assert not diffs["marker-only-when-paid"].same_behaviour and "difference" in diffs["marker-only-when-paid"].timings


def test_a_change_that_plays_differently_is_not_wording(base, edited_copy):
    """A step's name is wording; an operation's guard is not (the smallest game is searched then)."""
    path = DRAFTS / "reworded.yaml"

    def rename(data):
        data["steps"]["dice"]["name"] = {"ru": "Бросок", "en": "The roll"}

    def reguard(data):
        for op in data["steps"]["payment"]["operations"]:
            if op["op"] == "give_action_marker":
                op["when"] = "not resource_modified"  # M4

    bounds = Bounds(x_max=0, loadouts=("none",))
    renamed = diff_rulebooks(base, load_rulebook(edited_copy(path, rename)), ("rulings",), bounds=bounds)
    assert renamed.same_behaviour and renamed.difference is None
    guarded = diff_rulebooks(base, load_rulebook(edited_copy(path, reguard)), ("rulings",), bounds=bounds)
    assert not guarded.same_behaviour and guarded.rulings


def test_a_draft_that_breaks_a_property(diffs):
    d = diffs["marker-only-when-paid"]
    [change] = d.structure
    assert change.what == "changed" and change.element == "guard of operation give_action_marker"
    assert set(change.clauses) == {"540.3", "510.2"} and ":" in change.where
    # broken in the bounded worlds, and in the games of the shipped rulings (every property judges each)
    assert [(v.property, v.engine, v.base, v.draft) for v in d.verdicts] == [
        ("P540.3-action-marker", "exhaustive", "holds", "violated"), ("P540.3-action-marker", "rulings", "holds", "violated")]
    assert {r.ruling for r in d.rulings} >= {"kele-attacker", "kele-defender", "stays-open-printed"}
    assert all((r.base, r.draft) == ("passes", "fails") for r in d.rulings)
    assert d.conflicts == []
    # the smallest game: the same world and choices, parting at the action marker
    g = d.difference
    assert g.base_events[g.first].op == "give_action_marker" and g.draft_events[g.first].values.get("skipped")
    assert [e.op for e in g.base_events[: g.first]] == [e.op for e in g.draft_events[: g.first]]
    assert "P540.3-action-marker" in d.counterexamples


def test_a_draft_that_contradicts_another_clause(diffs):
    d = diffs["cost-x-at-payment"]
    moved = [c for c in d.structure if c.what == "moved"]
    assert [c.element for c in moved] == ["operation fix_x x=cost"]
    assert "declaration" in moved[0].en and "payment" in moved[0].en
    assert ("P542.2-cost-x", "holds", "violated") in [(v.property, v.base, v.draft) for v in d.verdicts]
    appeared = {c.claims for c in d.conflicts if c.what == "appears"}
    assert ("C542.2-cost-x-at-declaration",) in appeared and ("C540.2-reservation-needs-cost-x",) in appeared
    assert {cid for c in d.conflicts for cid in c.clauses} >= {"542.2", "540.2"}
    assert "542.2" in by_clause(d.structure)


def test_a_draft_that_changes_rulings_only(diffs):
    d = diffs["strike-table-row-4"]
    [change] = d.structure
    assert change.element == "table strike_table" and "4" in change.en
    assert d.verdicts == [] and d.conflicts == []
    assert d.rulings and {"kele-attacker", "effect-applied"} <= {r.ruling for r in d.rulings}
    g = d.difference
    assert g.base_events[g.first].op == "determine_base"
    assert g.base_events[g.first].values["strength"] == "medium" and g.draft_events[g.first].values["strength"] == "strong"


def test_magnitude_modifiers_first_brings_conflicts(diffs):
    d = diffs["magnitude-modifiers-first"]
    assert any(c.what == "moved" and "apply_magnitude_modifiers" in c.element for c in d.structure)
    assert {cid for c in d.conflicts for cid in c.clauses} & {"542.4/b2", "542.5/b2", "512.6.3/b4"}


def test_the_base_results_are_kept_and_reused(base, tmp_path):
    """The base's engine runs come from the cache the second time, with the same verdicts; a base that
    differs in anything (here its id) is run again."""
    draft = load_rulebook(DRAFTS / "marker-only-when-paid.yaml")
    bounds = Bounds(x_max=0, loadouts=("none",))
    first = diff_rulebooks(base, draft, BOUNDED, bounds=bounds, cache_dir=tmp_path)
    again = diff_rulebooks(base, draft, BOUNDED, bounds=bounds, cache_dir=tmp_path)
    assert first.cached == () and set(again.cached) == {"conformance", "rulings", "exhaustive"}
    assert again.verdicts == first.verdicts and again.rulings == first.rulings and first.changed
    other = load_rulebook(DRAFTS / "reworded.yaml")
    assert diff_rulebooks(other, draft, BOUNDED, bounds=bounds, cache_dir=tmp_path).cached == ()


# --- the command ------------------------------------------------------------------------------------------

@pytest.mark.slow
def test_cli_diff_against_itself_exits_0(base, capsys):
    """Every engine (the default) on the same rulebook twice: no element and no verdict moves, no game is
    searched (they play every game alike), each engine has its row."""
    assert structural_diff(base, base) == []
    assert main(["--lang", "en", "diff", BASE, BASE, "--bounds", "x=0,loadouts=none", "--examples", "20", "--no-cache"]) == 0
    out = capsys.readouterr().out
    assert "changes no verdict and no ruling" in out and "Changed elements, by clause: 0" in out
    assert "they play every game alike" in out and "no search needed" in out
    for engine in ("engine agreement", "rulings", "exhaustive search", "properties (Hypothesis)", "proof (Z3)"):
        assert f"  {engine}: " in out and "— 0 changed" in out  # each engine named in the reader's language


def test_cli_diff_json_report_and_save_ruling(tmp_path, capsys):
    draft = str(DRAFTS / "marker-only-when-paid.yaml")
    saved = tmp_path / "marker.yaml"
    code = main(["--lang", "ru", "diff", BASE, draft, "--bounds", SMALL, "--format", "json",
                 "--engines", ",".join(BOUNDED),
                 "--report", str(tmp_path / "out"), "--save-ruling", str(saved)])
    doc = json.loads(capsys.readouterr().out)
    assert code == 1 and doc["schema"] == "ruleproof-diff/1" and doc["changed"]
    assert doc["verdicts"][0]["property"] == "P540.3-action-marker"
    sd = doc["smallest_difference"]
    assert sd["base"][-1]["op"] == "give_action_marker" and sd["draft"][-1]["values"]["skipped"] is True
    md = (tmp_path / "out" / "diff.md").read_text("utf-8")
    assert "Что меняет проект правил" in md and "▶" in md
    assert json.loads((tmp_path / "out" / "diff.json").read_text("utf-8")) == doc
    # the saved counterexample is a ruling: it fails on the draft and passes on the base
    sc = load_scenario(saved)
    assert not run_scenario(sc, load_rulebook(draft)).passed
    assert run_scenario(sc, load_rulebook()).passed


def test_cli_diff_term_in_russian(capsys):
    draft = str(DRAFTS / "strike-table-row-4.yaml")
    assert main(["--lang", "ru", "diff", BASE, draft, "--bounds", "x=0,loadouts=none",
                 "--engines", "rulings"]) == 1
    out = capsys.readouterr().out
    assert "Разъяснения, исход которых меняется" in out and "выполняется → не выполняется" in out and " s;" not in out
    assert "Наименьшая партия" in out and "▶" in out


@pytest.mark.parametrize("argv, needle", [
    (["diff", BASE, "nope.yaml"], "RP100"),
    (["diff", BASE, BASE, "--engines", "magic"], "unknown engine magic"),
    (["diff", BASE, BASE, "--bounds", "x=1,die=9-1"], "die=LO-HI"),
])
def test_cli_diff_bad_input_exits_2(argv, needle, capsys):
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert needle in captured.err and "Traceback" not in captured.err and not captured.out


def test_cli_diff_report_into_a_file_is_bad_input(tmp_path, capsys):
    """--report names a folder: a file there is bad input (exit 2, no traceback), left as it was."""
    target = tmp_path / "diff-report"
    target.write_text("keep me", "utf-8")
    code = main(["diff", BASE, str(DRAFTS / "reworded.yaml"), "--bounds", "x=0,loadouts=none",
                 "--engines", "rulings", "--report", str(target)])
    captured = capsys.readouterr()
    assert code == 2 and "it is a file, a folder was expected" in captured.err and "Traceback" not in captured.err
    assert target.read_text("utf-8") == "keep me" and sorted(p.name for p in tmp_path.iterdir()) == ["diff-report"]


def test_a_z3_verdict_reads_proved_or_vacuous_from_the_findings():
    from ruleproof.diff import _verdict
    from ruleproof.reports.finding import CheckResult, Finding

    def result(*findings):
        return CheckResult("P540.2-reserved", ("540.2",), {"en": "", "ru": ""}, "z3", findings,
                           note="whatever the note says")

    vacuous = Finding(kind="vacuous", check="P540.2-reserved", verdict="violated", engine="z3", clauses=("540.2",),
                      message={"en": "premise unreachable", "ru": "посылка недостижима"})
    violated = Finding(kind="property", check="P540.2-reserved", verdict="violated", engine="z3", clauses=("540.2",),
                       message={"en": "paid", "ru": "оплачено"})
    assert _verdict(result()) == "proved"
    menu = dataclasses.replace(result(), note="proved within the menu (spacer, 0.40 s)")
    assert _verdict(menu) == "proved within the menu"
    assert _verdict(result(vacuous)) == "vacuous"
    unplayed = Finding(kind="not_exercised", check="P540.2-reserved", verdict="unknown", engine="exhaustive",
                       clauses=("540.2",), message={"en": "not exercised", "ru": "не проверено"})
    assert _verdict(dataclasses.replace(result(unplayed), engine="exhaustive")) == "not exercised"
    assert _verdict(result(violated)) == "violated"


@pytest.mark.parametrize("jobs", [1, 2])
def test_diff_tells_each_task_as_it_finishes(jobs):
    """`diff` shows progress: every task (each engine on each rulebook, the smallest difference) is told
    once as it finishes, the count running up to the total — with one process and with a pool."""
    from ruleproof.diff import diff_rulebooks
    from ruleproof.model.explore import Bounds

    seen = []
    diff_rulebooks(load_rulebook(), load_rulebook(DRAFTS / "marker-only-when-paid.yaml"), ("rulings", "exhaustive"),
                   Bounds(x_max=0, die=(1, 2), loadouts=("none",)), jobs=jobs,
                   progress=lambda name, done, total: seen.append((name, done, total)))
    assert sorted(n for n, _, _ in seen) == ["difference", "exhaustive/base", "exhaustive/draft",
                                             "rulings/base", "rulings/draft"]
    assert [d for _, d, _ in seen] == [1, 2, 3, 4, 5] and {t for _, _, t in seen} == {5}


def test_diff_prints_each_engines_scope_on_both_rulebooks(capsys):
    """Every engine that plays games says, on the base and on the draft, how many of the combinations each
    admits its games cover (model/universe.py), and the JSON keeps both scopes."""
    base = bundled_rulebook_path()
    draft = Path(base).parent / "drafts" / "cost-x-at-payment.yaml"
    args = ["diff", str(base), str(draft), "--engines", "exhaustive", "--bounds", "x=0,die=1-2", "--no-cache",
            "--jobs", "1"]
    main(["--lang", "en", *args])
    out = " ".join(capsys.readouterr().out.split())
    assert "the games cover 49 of 345 combinations on the base, 49 of 345 on the draft; not played on the draft: " \
           "after_ability window: «after [ability]»" in out
    main(["--lang", "ru", *args, "--format", "json"])
    scope = json.loads(capsys.readouterr().out)["scopes"]["exhaustive"]
    assert scope["base"]["covered"] == scope["draft"]["covered"] == 49
    assert len(scope["draft"]["missing"]) == 345 - 49
