"""`ruleproof check`: what it prints, its JSON, its languages, and the README that documents it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ruleproof.cli import main
from ruleproof.model.structure import STRUCTURE_CHECKS
from ruleproof.model.vocabulary import FEATURE_KINDS, GUARDS, OPERATIONS, STEP_KINDS

ROOT = Path(__file__).resolve().parents[2]
CYRILLIC = re.compile("[А-Яа-яЁё]")


def test_json_output(capsys):
    assert main(["check", "--format", "json", "--engines", "structure"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["schema"] == "ruleproof-report/1" and doc["verdict"] == "holds" and doc["exit_code"] == 0
    assert doc["rulebook"]["id"] == "berserk-rp-4.1-2" and doc["rulebook"]["counts"]["steps"] == 9
    [section] = doc["sections"]
    assert [c["check"] for c in section["results"]] == [c.id for c in STRUCTURE_CHECKS]
    assert set(doc["assumptions"]) >= {"A-die-roll", "A-strike-table", "A-action-marker"}


def test_json_output_with_a_finding(write_rulebook, op_index, capsys):
    def edit(d):
        d["steps"]["dice"]["operations"][op_index(d, "dice", "window", id="reroll")]["first"] = "non_active_player"
    path = write_rulebook(edit)
    assert main(["check", str(path), "--format", "json", "--engines", "structure"]) == 1
    doc = json.loads(capsys.readouterr().out)
    [bad] = [c for c in doc["sections"][0]["results"] if c["verdict"] != "holds"]
    [f] = bad["findings"]
    assert f["check"] == "S5-active-player-first" and f["clauses"] == ["512.6.2/b2"]
    assert f["where"].startswith(f"{path}:") and f["message"]["ru"] and f["message"]["en"]


def test_english_output_has_no_russian_labels(capsys):
    assert main(["--lang", "en", "check", "--engines", "structure"]) == 0
    out = capsys.readouterr().out
    headers = [ln for ln in out.splitlines() if "┃" in ln]
    assert headers and not any(CYRILLIC.search(h) for h in headers)
    assert "Structural checks of the phase graph" in out and "Assumptions" in out


def test_russian_output_has_russian_labels(capsys):
    assert main(["check", "--lang", "ru", "--engines", "structure"]) == 0
    out = capsys.readouterr().out
    headers = [ln for ln in out.splitlines() if "┃" in ln]
    assert all(CYRILLIC.search(h) for h in headers)
    assert "Все проверки выполнены (8)." in out and "Допущения" in out


def test_console_script_and_module_entry():
    for cmd in ([sys.executable, "-m", "ruleproof", "check"], [str(Path(sys.executable).parent / "ruleproof"), "check"]):
        proc = subprocess.run(cmd + ["--lang", "en", "--engines", "structure"], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        assert "Every check holds (8)." in proc.stdout


def test_readme_documents_the_vocabulary_and_checks():
    """The vocabulary is documented in docs/rulebook-format.md, the structural checks in docs/checks.md."""
    fmt = (ROOT / "docs" / "rulebook-format.md").read_text("utf-8")
    for name in [*STEP_KINDS, *OPERATIONS, *FEATURE_KINDS, *GUARDS]:
        assert f"`{name}" in fmt, name
    checks = (ROOT / "docs" / "checks.md").read_text("utf-8")
    for name in (c.id for c in STRUCTURE_CHECKS):
        assert f"`{name}" in checks, name


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text("utf-8")
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    blocks = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    assert len(blocks) == 2
    install, tests = blocks
    assert install in ci and tests in ci
    assert "rc\" -eq 5" in ci


# --- every engine, the reports, --jobs and --save-ruling through the command ---------------------------

ENGINES_FAST = "structure,rulings,hypothesis,exhaustive,consistency"
BOUNDS_FAST = "x=0,die=1-2,loadouts=none+triggers"


def _files(folder: Path) -> dict[str, Path]:
    return {p.name: p for p in folder.iterdir()}


def test_check_writes_every_report_format_on_a_mutant(tmp_path, capsys):
    from ruleproof.generators.mutants import write_mutant
    from ruleproof.model.scenario import load_scenario, run_scenario
    from ruleproof.model.rulebook import load_rulebook

    draft = write_mutant("M4", tmp_path)
    out, saved = tmp_path / "out", tmp_path / "cx.yaml"
    code = main(["--lang", "ru", "check", str(draft), "--engines", ENGINES_FAST, "--examples", "20",
                 "--bounds", BOUNDS_FAST, "--report", str(out), "--format", "md,html,json,junit,itf",
                 "--save-ruling", str(saved)])
    capsys.readouterr()
    assert code == 1
    files = _files(out)
    assert {"report.md", "report.html", "report.json", "report.junit.xml"} <= set(files)
    assert any(name.endswith(".itf.json") for name in files)
    doc = json.loads(files["report.json"].read_text("utf-8"))
    groups = {s["group"]: s for s in doc["sections"]}
    assert set(groups) >= {"structure", "rulings", "exhaustive", "consistency"}
    violated = {r["check"] for s in doc["sections"] for r in s["results"] if r["verdict"] == "violated"}
    assert "P540.3-action-marker" in violated and "kele-attacker" in violated
    html = files["report.html"].read_text("utf-8")
    assert "P540.3-action-marker" in html and "Отчёт ruleproof" in html
    try:
        from lxml import etree
    except ImportError:  # pragma: no cover
        return
    schema = etree.XMLSchema(etree.parse(str(ROOT / "tests" / "data" / "junit-10.xsd")))
    assert schema.validate(etree.parse(str(files["report.junit.xml"])))
    # the first counterexample (the exhaustive engine's, the shortest) saved as a ruling
    sc = load_scenario(saved)
    assert not run_scenario(sc, load_rulebook(draft)).passed and run_scenario(sc, load_rulebook()).passed


def test_check_on_the_bundled_rulebook_with_every_report(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["--lang", "en", "check", "--engines", ENGINES_FAST, "--examples", "10", "--bounds", BOUNDS_FAST,
                 "--report", str(out), "--format", "term,md,html,json,junit,itf"]) in (0, 1)
    term = capsys.readouterr().out
    doc = json.loads((out / "report.json").read_text("utf-8"))
    # restricted loadouts leave windows unplayed (coverage of the exhaustive pass) and some properties
    # not exercised (inconclusive, never "holds"); nothing else fails
    failing = {r["check"] for s in doc["sections"] for r in s["results"] if r["verdict"] != "holds"}
    unexercised = {r["check"] for s in doc["sections"] for r in s["results"] if r["verdict"] == "unknown"
                   and all(f["message"]["en"].startswith("not exercised") for f in r["findings"])}
    assert failing - unexercised <= {"X2-action-coverage"} and unexercised
    assert "Summary" in term and "Exhaustive" in term or "exhaustive" in term


@pytest.mark.parametrize("lang,says", [("en", "inconclusive"), ("ru", "не установлено")])
def test_explore_table_calls_a_property_it_never_exercised_inconclusive_not_violated(capsys, lang, says):
    """A property whose situation no bounded world plays is reported as inconclusive — in the table row
    and in the finding's mark — never as "violated"."""
    main(["--lang", lang, "explore", "--bounds", "x=0,loadouts=none", "--only", "P540.3-unless-text"])
    out = capsys.readouterr().out
    [row] = [ln for ln in out.splitlines() if ln.startswith("│ P540.3-unless-text")]
    assert says in row and "violated" not in row and "нарушено" not in row
    assert "? P540.3-unless-text" in out and "✗ P540.3-unless-text" not in out


def test_check_jobs_2_gives_the_same_results_as_1(capsys):
    from ruleproof.orchestrate import run_check
    from ruleproof.commands.explore import parse_bounds

    kw = dict(engines=("rulings", "exhaustive", "consistency"), bounds=parse_bounds(BOUNDS_FAST))
    one, two = run_check(None, 0, None, jobs=1, **kw), run_check(None, 0, None, jobs=2, **kw)
    assert [(r.check, r.verdict, len(r.findings)) for r in one.results] == \
        [(r.check, r.verdict, len(r.findings)) for r in two.results]


@pytest.mark.parametrize("command", ["check", "explore", "prove"])
@pytest.mark.parametrize("jobs", ["0", "-1", "two", "1.5", ""])
def test_jobs_below_1_or_not_a_number_is_bad_input_for_every_command(command, jobs, capsys):
    assert main(["--lang", "en", command, "--jobs", jobs]) == 2
    err = capsys.readouterr().err
    assert "RP173" in err and f"--jobs must be a whole number, 1 or more, or auto, not {jobs!r}" in err
    assert "Traceback" not in err


def test_jobs_auto_is_one_process_per_available_core(capsys):
    """``--jobs auto`` runs as many processes as the cores this process may use (the JSON says how many)."""
    import json
    import os

    from ruleproof.commands.common import available_cores, check_jobs

    assert available_cores() == len(os.sched_getaffinity(0)) >= 1
    assert check_jobs("auto") == available_cores() and check_jobs("3") == 3 and check_jobs(1) == 1
    assert main(["--lang", "ru", "explore", "--jobs", "0"]) == 2
    assert "--jobs должен быть целым числом не меньше 1 или словом auto, а не '0'" in capsys.readouterr().err
    assert main(["explore", "--bounds", "x=0,die=1-2", "--jobs", "auto", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["rulebook"]["jobs"] == available_cores()


@pytest.mark.parametrize("jobs", ["auto", "2"])
def test_check_takes_jobs_as_a_number_or_auto(jobs, capsys):
    """``check --jobs`` reaches the engines as a number (argparse hands it over as text)."""
    assert main(["--lang", "en", "check", "--engines", "structure", "--jobs", jobs, "--format", "json"]) == 0
    assert "Traceback" not in capsys.readouterr().err


def test_check_bad_engine_or_format_exits_2_before_running(capsys, tmp_path):
    assert main(["check", "--engines", "structure,magic"]) == 2
    assert "unknown engine magic" in capsys.readouterr().err
    assert main(["check", "--engines", "structure", "--format", "md"]) == 2
    assert "--report DIR" in capsys.readouterr().err
    assert main(["check", "--engines", "structure", "--format", "pdf", "--report", str(tmp_path / "r")]) == 2
    assert not (tmp_path / "r").exists()


def test_check_summary_prints_only_the_table_and_the_verdict(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["--lang", "ru", "check", "--engines", "structure,rulings", "--summary"]) == 0
    short = capsys.readouterr().out
    assert main(["--lang", "ru", "check", "--engines", "structure,rulings"]) == 0
    whole = capsys.readouterr().out
    assert "Все проверки выполнены" in short and "Код выхода: 0" in short and "32 допущения" in short
    assert short.count("\n") < 20 < whole.count("\n")
    assert main(["--lang", "en", "check", str(ROOT / "rulebooks" / "drafts" / "marker-only-when-paid.yaml"), "--engines", "rulings", "--summary"]) == 1
    assert "Exit code: 1" in capsys.readouterr().out


def test_a_property_no_rulings_game_plays_is_not_exercised_there_never_holds(planted_property, capsys):
    """The rulings engine judges every property on the rulings' games: one whose situation none of them plays is
    inconclusive there (exit 3), like the other engines' — while on the bundled rulebook every real property's
    situation is played by some ruling."""
    assert main(["--lang", "en", "check", "--engines", "structure,rulings", "--format", "json"]) == 3
    doc = json.loads(capsys.readouterr().out)
    results = {r["check"]: r for s in doc["sections"] for r in s["results"] if r["check"].startswith("P")}
    planted = results.pop(planted_property.id)
    [finding] = planted["findings"]
    assert planted["verdict"] == "unknown" and finding["kind"] == "not_exercised"
    assert finding["message"]["en"].startswith("not exercised") and "a ruling whose game plays it" in finding["message"]["en"]
    assert results and {r["verdict"] for r in results.values()} == {"holds"}
