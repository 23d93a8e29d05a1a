"""Every structural check holds on the bundled rulebook and fails on a rulebook edited to break it,
naming the clause and the place in the file."""

from __future__ import annotations

import networkx as nx
import pytest

from ruleproof.cli import main
from ruleproof.model.clauses import default_index
from ruleproof.model.graph import build_graph
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.structure import (STRUCTURE_CHECKS, check_citations, check_cycles, check_execution_order,
                                       check_die_faces, check_placement, check_priority, check_reachable,
                                       check_reaches_payment_end, run_structure_checks)


def graph_of(path, **kw) -> nx.DiGraph:
    return build_graph(load_rulebook(path, **kw))


def only(findings, check: str):
    assert findings, f"{check} found nothing"
    assert {f.check for f in findings} == {check}
    return findings


def test_bundled_rulebook_passes_every_check():
    results = run_structure_checks(build_graph(load_rulebook()))
    assert [r.check for r in results] == [c.id for c in STRUCTURE_CHECKS]
    assert len(results) == 8
    assert all(r.holds for r in results), [f.text() for r in results for f in r.findings]


def test_every_check_cites_known_clauses():
    index = default_index()
    for c in STRUCTURE_CHECKS:
        assert c.clauses and all(cid in index for cid in c.clauses), c.id


# --- S1 reachability ------------------------------------------------------------------------------

def test_s1_unreachable_step(write_rulebook):
    def edit(d):
        d["steps"]["calculation"]["next"][1]["to"] = "effect"
    G = graph_of(write_rulebook(edit), check_reachable=False)
    [f] = only(check_reachable(G, default_index()), "S1-reachable")
    assert f.element == "step blocking"
    assert "512.6.4" in f.clauses and "512.6.1" in f.clauses
    assert f.where and f.where.split(":")[1].isdigit()


# --- S2 every step reaches the end of payment --------------------------------------------------------

def test_s2_dead_end_step(write_rulebook):
    G = graph_of(write_rulebook(lambda d: d["steps"]["effect"].update(next=[])))
    findings = only(check_reaches_payment_end(G, default_index()), "S2-reaches-payment-end")
    assert [f.element for f in findings] == ["step effect"]
    assert "512.7/b3" in findings[0].clauses and "512.6.5" in findings[0].clauses


def test_s2_path_that_skips_payment(write_rulebook):
    def edit(d):
        d["steps"]["completion"]["next"].insert(1, {"to": "handover", "when": "action_blocked",
                                                    "cites": ["512.6.6/b4"]})
    [f] = only(check_reaches_payment_end(graph_of(write_rulebook(edit)), default_index()),
               "S2-reaches-payment-end")
    assert "without the payment stage" in f.text("en") and "минуя этап оплаты" in f.text("ru")
    assert "512.7" in f.clauses


# --- S3 512.6.1's order -------------------------------------------------------------------------------

def test_s3_swapped_steps(write_rulebook):
    """Blocking moved before calculation: dice → blocking → calculation → effect."""
    from ruleproof.generators.mutants import MUTANTS

    findings = only(check_execution_order(graph_of(write_rulebook(MUTANTS["blocking-before-calculation"].edit)),
                                          default_index()), "S3-execution-order")
    assert [f.element for f in findings] == ["edge blocking → calculation"]
    assert {"512.6.1", "512.6.4", "512.6.3"} <= set(findings[0].clauses)


def test_s3_missing_step(write_rulebook):
    def edit(d):
        del d["steps"]["blocking"]
        d["steps"]["calculation"]["next"][1]["to"] = "effect"
    [f] = only(check_execution_order(graph_of(write_rulebook(edit)), default_index()), "S3-execution-order")
    assert f.clauses[0] == "512.6.1/b3"
    assert "no blocking step" in f.text("en")


def test_s3_payment_before_completion(write_rulebook):
    def edit(d):
        s = d["steps"]
        s["effect"]["next"] = [{"to": "payment", "cites": ["512.6.5/b1"]}]
        s["payment"]["next"] = [{"to": "completion", "cites": ["512.7/b3"]}]
        s["completion"]["next"] = [{"to": "declaration", "when": "compound_has_next", "cites": ["512.6.6/b4"]},
                                   {"to": "handover", "cites": ["512.6.6/b4"]}]
        s["blocking"]["next"][0]["to"] = "payment"
        s["calculation"]["next"][0]["to"] = "payment"
    findings = check_execution_order(graph_of(write_rulebook(edit)), default_index())
    assert "edge payment → completion" in [f.element for f in findings]


# --- S4 cycles -----------------------------------------------------------------------------------------

def test_s4_cycle_that_is_not_the_compound_loop(write_rulebook):
    def edit(d):
        d["steps"]["effect"]["next"].insert(0, {"to": "calculation", "when": "action_blocked",
                                                "cites": ["512.6.5/b1"]})
    [f] = only(check_cycles(graph_of(write_rulebook(edit)), default_index()), "S4-no-cycle")
    assert "512.6.6/b4" in f.clauses and f.element == "edge effect → calculation"
    assert "calculation → blocking → effect → calculation" in f.text("en")


def test_s4_compound_loop_to_the_wrong_step(write_rulebook):
    def edit(d):
        d["steps"]["completion"]["next"][0]["to"] = "dice"
    [f] = only(check_cycles(graph_of(write_rulebook(edit)), default_index()), "S4-no-cycle")
    assert f.element == "edge completion → dice" and "does not lead to claim forming" in f.text("en")


def test_s4_unguarded_back_edge_is_a_cycle(write_rulebook):
    def edit(d):
        d["steps"]["completion"]["next"][0]["when"] = "not action_blocked"
    [f] = only(check_cycles(graph_of(write_rulebook(edit)), default_index()), "S4-no-cycle")
    assert f.element == "edge completion → declaration"


# --- S5 the active player first --------------------------------------------------------------------------

def test_s5_window_giving_priority_to_the_other_player(write_rulebook, op_index):
    def edit(d):
        d["steps"]["blocking"]["operations"][op_index(d, "blocking", "window")]["first"] = "non_active_player"
    [f] = only(check_priority(graph_of(write_rulebook(edit)), default_index()), "S5-active-player-first")
    assert f.clauses == ("512.6.4/b1", "512.6.4/b2") and f.element == "step blocking / window blocking"


# --- S6 citations ---------------------------------------------------------------------------------------

def test_s6_uncited_operation(write_rulebook, op_index):
    def edit(d):
        d["steps"]["completion"]["operations"][op_index(d, "completion", "release_roles")]["cites"] = []
    [f] = only(check_citations(graph_of(write_rulebook(edit)), default_index()), "S6-citations")
    assert f.element == "step completion / op 2 release_roles" and "cites no clause" in f.text("en")


def test_s6_referenced_clause_without_assumption(write_rulebook, op_index):
    def edit(d):
        d["steps"]["dice"]["operations"][op_index(d, "dice", "apply_dice_modifiers")].pop("assumes")
    [f] = only(check_citations(graph_of(write_rulebook(edit)), default_index()), "S6-citations")
    assert f.clauses == ("519",) and "no assumption" in f.text("en")


def test_s6_assumption_about_another_clause_does_not_count(write_rulebook, op_index):
    def edit(d):
        d["steps"]["dice"]["operations"][op_index(d, "dice", "apply_dice_modifiers")]["assumes"] = ["A-die-roll"]
    [f] = only(check_citations(graph_of(write_rulebook(edit)), default_index()), "S6-citations")
    assert f.clauses == ("519",)


def test_s6_unknown_clause_in_an_edited_graph():
    G = build_graph(load_rulebook())
    G.edges["dice", "calculation"]["cites"] = ["512.6.9"]
    [f] = only(check_citations(G, default_index()), "S6-citations")
    assert f.element == "edge dice → calculation" and "unknown clause 512.6.9" in f.text("en")


# --- S7 placement ----------------------------------------------------------------------------------------

def test_s7_cost_x_fixed_at_payment(write_rulebook, op_index):
    """Public mutant M1's shape: cost-X fixed at the payment stage instead of at declaration."""
    def edit(d):
        op = d["steps"]["declaration"]["operations"].pop(op_index(d, "declaration", "fix_x", x="cost"))
        d["steps"]["payment"]["operations"].insert(0, op)
    [f] = only(check_placement(graph_of(write_rulebook(edit)), default_index()), "S7-placement")
    assert f.clauses == ("542.2",) and f.element == "step payment / op 1 fix_x cost"
    assert "allows it only in: declaration" in f.text("en")


def test_s7_block_admitted_in_the_calculation_window(write_rulebook, op_index):
    def edit(d):
        d["steps"]["calculation"]["operations"][op_index(d, "calculation", "window")]["allows"].append("block")
    [f] = only(check_placement(graph_of(write_rulebook(edit)), default_index()), "S7-placement")
    assert f.clauses == ("512.6.4/b2",) and "admits block" in f.text("en")


def test_s7_legality_checked_at_blocking(write_rulebook):
    def edit(d):
        d["steps"]["blocking"]["operations"].append({"op": "check_source_legality", "cites": ["512.6.3/b3"]})
    [f] = only(check_placement(graph_of(write_rulebook(edit)), default_index()), "S7-placement")
    assert f.clauses == ("512.6.3/b3",)


# --- through the CLI ------------------------------------------------------------------------------------

@pytest.mark.parametrize("lang,word", [("en", "violated"), ("ru", "нарушено")])
def test_check_command_reports_a_broken_rulebook(write_rulebook, op_index, capsys, lang, word):
    def edit(d):
        d["steps"]["blocking"]["operations"][op_index(d, "blocking", "window")]["first"] = "non_active_player"
    path = write_rulebook(edit)
    rc = main(["--lang", lang, "check", str(path), "--engines", "structure"])
    out = capsys.readouterr().out
    assert rc == 1
    assert word in out and "S5-active-player-first" in out and f"{path}:" in out
    assert "512.6.4/b1" in out


def test_check_command_on_the_bundled_rulebook(capsys):
    assert main(["--lang", "en", "check", "--engines", "structure"]) == 0
    out = capsys.readouterr().out
    assert "Every check holds (8)." in out
    for c in STRUCTURE_CHECKS:
        assert c.id in out
    assert "9 steps, 13 edges" in out and "A-strike-table" in out


def test_check_quotes_the_official_text(write_rulebook, op_index, capsys, seeds):
    def edit(d):
        d["steps"]["blocking"]["operations"][op_index(d, "blocking", "window")]["first"] = "non_active_player"
    rc = main(["--lang", "ru", "check", str(write_rulebook(edit)), "--rules-text", str(seeds), "--engines", "structure"])
    out = capsys.readouterr().out
    assert rc == 1 and "«Приоритет получает Активный Игрок;»" in out


def test_s6_table_citing_a_referenced_clause_without_assumption(write_rulebook):
    def edit(d):
        d["tables"]["die_faces"]["assumes"] = []
    [f] = only(check_citations(graph_of(write_rulebook(edit)), default_index()), "S6-citations")
    assert f.element == "table die_faces" and f.clauses == ("306",)


@pytest.mark.parametrize("faces,says", [
    ((1, 5), "rows for 6, which the die (1–5) never shows"),
    ((1, 8), "no row for the die's faces 7, 8"),
])
def test_s8_die_faces_and_strike_table_rows(write_rulebook, faces, says):
    """A draft with a 1–5 (or 1–8) die is caught: the strike table's rows are the faces 1–6 (RP134)."""
    def edit(d):
        d["tables"]["die_faces"]["rows"] = {"min": faces[0], "max": faces[1]}
    [f] = only(check_die_faces(graph_of(write_rulebook(edit)), default_index()), "S8-die-faces")
    assert says in f.text("en") and f.element == "table strike_table" and f.clauses == ("512.6.2/b4.1.1", "512.6.2/b1")
    assert set(f.assumptions) == {"A-die-roll", "A-strike-table"}


def test_a_scripted_die_the_rulebook_die_never_shows_fails_the_ruling(tmp_path):
    """A ruling that scripts a 7 cannot be played on a 1–6 die: it fails and says why."""
    from ruleproof.model.scenario import load_scenario, run_scenario, shipped_rulings

    [path] = [p for p in shipped_rulings() if p.name == "512-attack-always-rolls.yaml"]
    typo = tmp_path / "typo.yaml"
    typo.write_text(path.read_text("utf-8").replace("dice: [5]", "dice: [7]"), "utf-8")
    res = run_scenario(load_scenario(typo), load_rulebook())
    assert not res.passed and res.trace.outcome == "out_of_choices"
    assert "is 7, which this rulebook's die (1–6" in res.trace.events[-1].values["reason"]
