"""The exhaustive explorer: every play of bounded worlds, shortest counterexamples, termination, coverage."""

from __future__ import annotations

import json

import pytest
import yaml

from ruleproof.cli import main
from ruleproof.generators.bounded import ALLIES, LOADOUTS, ROLE_ACTIONS, bounded_worlds, role_loadouts
from ruleproof.generators.mutants import PUBLIC, mutant_yaml, mutate, write_mutant
from ruleproof.model.explore import Bounds, explore, explore_results
from ruleproof.model.interpreter import ScriptedChoices, Stepper, run
from ruleproof.model.rulebook import load_rulebook, load_rulebook_text
from ruleproof.model.scenario import load_scenario, run_scenario
from ruleproof.model.scenario_write import choices_from_trace
from ruleproof.properties.catalogue import BY_ID, View

SMALL = Bounds(x_max=0, die=(1, 2))
#: the smallest loadout in which each public mutant's property fails (found by `ruleproof explore`)
MUTANT_LOADOUT = {"M1": "none", "M2": "none", "M3": "none", "M4": "triggers", "M5": "triggers", "M6": "triggers",
                  "M7": "none", "M8": "dice"}


@pytest.fixture(scope="module")
def bundled_small(bundled):
    return explore(bundled, bounded_worlds(0), SMALL)


def _results(out, rb):
    return {r.check: r for r in explore_results(out, rb, "ruleproof explore")}


def test_every_property_holds_on_every_bounded_run_of_the_bundled_rulebook(bundled_small, bundled):
    out = bundled_small
    assert out.complete and not out.violations and not out.deadlocks
    assert out.traces > 1000 and out.states > out.traces and out.depth > 20
    results = _results(out, bundled)
    assert all(r.holds for r in results.values()), [r.check for r in results.values() if not r.holds]
    assert set(BY_ID) < set(results)


def test_every_operation_window_and_response_fires_on_the_bundled_rulebook(bundled_small, bundled):
    out = bundled_small
    for sid, step in bundled.spec.steps.items():
        for i, op in enumerate(step.operations):
            if op.op == "window":
                wid = op.params["id"]
                assert out.windows_opened[wid] > 0, wid
                for kind in op.params["allows"]:
                    assert out.responses[(wid, kind)] > 0, (wid, kind)
            else:
                assert out.ops_fired[str(bundled.where(("steps", sid, "operations", i)))] > 0, (sid, i, op.op)


@pytest.mark.parametrize("mutant", sorted(PUBLIC))
def test_each_public_mutant_gives_a_counterexample_that_replays(mutant):
    rb = load_rulebook_text(mutant_yaml(mutant), f"{mutant}.yaml")
    pid = PUBLIC[mutant]
    out = explore(rb, bounded_worlds(0, (MUTANT_LOADOUT[mutant],)), SMALL)
    assert pid in out.violations
    cx = out.violations[pid]
    # the counterexample replays with scripted choices and violates the same property there
    dice, responses = choices_from_trace(list(cx.events))
    world = bounded_worlds(0, (MUTANT_LOADOUT[mutant],))[cx.world_index]
    assert world.name == cx.world
    trace = run(rb, world.state, ScriptedChoices(dice, responses))
    assert BY_ID[pid].check(View(trace.events)) is not None
    finding = _results(out, rb)[pid].findings[0]
    assert finding.engine == "exhaustive" and finding.trace and set(finding.highlight) <= {e["seq"] for e in finding.trace}
    assert "--save-ruling" in finding.replay


def _all_runs(rb, world, faces=(1, 2)):
    """Brute force, independent of the explorer: every sequence of answers, depth first, by replay."""
    def walk(answers):
        st = Stepper(rb, world.state)
        for a in answers:
            st.answer(a)
        if st.ask is None:
            yield answers, st.trace
            return
        options = range(faces[0], faces[1] + 1) if st.ask.kind == "die" else [None, *(f.id for _, f in st.ask.options)]
        for a in options:
            if st.ask.kind == "respond" and a is not None and len(st.cursor.played) >= 1:
                continue
            yield from walk(answers + [a])
    yield from walk([])


def test_the_counterexample_is_a_shortest_one():
    rb = load_rulebook_text(mutant_yaml("M7"), "M7.yaml")
    worlds = [w for w in bounded_worlds(0, ("calculation",)) if w.name.startswith("spell")][:3]
    out = explore(rb, worlds, SMALL, only=frozenset({"P512.6.3-legality-once"}))
    cx = out.violations["P512.6.3-legality-once"]
    runs = [(len(a), w.name) for w in worlds for a, tr in _all_runs(rb, w)
            if BY_ID["P512.6.3-legality-once"].check(View(tr.events))]
    assert runs and cx.choices == min(n for n, _ in runs)
    # and the explorer saw exactly as many runs as the brute force
    assert out.traces == sum(1 for w in worlds for _ in _all_runs(rb, w))


def test_a_step_without_an_edge_to_take_is_a_deadlock_finding(tmp_path):
    data = mutate("M1")  # any draft; then guard the default edge out of blocking: spells find no edge
    data["id"] = "deadlock-draft"
    data["steps"]["blocking"]["next"][-1]["when"] = "is_attack"
    path = tmp_path / "deadlock.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    rb = load_rulebook(path)
    out = explore(rb, bounded_worlds(0, ("none",)), SMALL, only=frozenset())
    assert out.deadlocks and all(o == "deadlock" for _, _, o in out.deadlocks)
    termination = _results(out, rb)["X1-termination"]
    assert not termination.holds and "deadlock" in termination.findings[0].text("en")


def test_an_operation_that_never_runs_is_a_coverage_finding(tmp_path):
    data = mutate("M1")
    data["id"] = "never-draft"
    ops = data["steps"]["calculation"]["operations"]
    target = next(o for o in ops if o["op"] == "fix_x" and o["x"] == "implicit")
    target["when"] = "action_blocked"  # never true at the calculation step
    path = tmp_path / "never.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    rb = load_rulebook(path)
    out = explore(rb, bounded_worlds(0, ("none",)), SMALL, only=frozenset())
    coverage = _results(out, rb)["X2-action-coverage"]
    texts = [f.text("en") for f in coverage.findings]
    assert any("fix_x x=implicit" in s and "never ran" in s for s in texts), texts
    assert all(f.kind == "coverage" and f.where for f in coverage.findings)



def _guarded_draft(tmp_path, edit) -> object:
    from ruleproof.generators.mutants import bundled_data

    data = bundled_data()
    edit(data["steps"])
    path = tmp_path / "guarded.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    return load_rulebook(path)


def _window(steps, wid):
    return next(o for o in steps["dice"]["operations"] if o.get("id") == wid)


@pytest.mark.parametrize("edit,expect", [
    # a guard that never fails: the window always opens, what happens without it is never played
    (lambda st: _window(st, "dice_modifiers").update(when="not plays_at_least(7)"),
     "the guard «not plays_at_least(7)» of window dice_modifiers (step dice) never failed"),
    # a guard that never holds: the window is skipped every time — never opened (a skipped window used to count)
    (lambda st: _window(st, "dice_modifiers").update(when="plays_at_least(15)"),
     "window dice_modifiers of step dice: never played in it: (never opened)"),
    # an edge that is never taken
    (lambda st: st["dice"]["next"].insert(0, {"to": "completion", "when": "plays_at_least(15)", "cites": ["512.6.2"]}),
     "the edge dice → completion (when «plays_at_least(15)») was never taken"),
])
def test_a_guard_or_edge_never_played_both_ways_is_a_coverage_finding(tmp_path, bundled, edit, expect):
    """X2 asks of every guard that it both held and failed, and of every edge that it was taken, in some
    bounded world; the bundled rulebook does all of that."""
    rb = _guarded_draft(tmp_path, edit)
    findings = _results(explore(rb, bounded_worlds(0, ("none",)), SMALL, only=frozenset()), rb)["X2-action-coverage"].findings
    texts = [f.text("en") for f in findings]
    assert any(expect in t for t in texts), texts
    assert all("never" not in f.text("ru") and "guard" not in f.text("ru") for f in findings)


def test_every_guard_of_the_bundled_rulebook_holds_and_fails_and_every_edge_is_taken(bundled):
    full = explore(bundled, bounded_worlds(1, None, bundled), Bounds(), only=frozenset())
    assert full.complete and not _results(full, bundled)["X2-action-coverage"].findings
    assert len(full.edges_taken) == sum(len(s.next) for s in bundled.spec.steps.values())
    assert len(full.ops_skipped) == 9  # the guarded operations: each skipped somewhere (and run: ops_fired)

def test_two_processes_give_the_same_outcome_as_one():
    rb = load_rulebook_text(mutant_yaml("M4"), "M4.yaml")
    worlds = bounded_worlds(0, ("triggers", "payment"))
    one, two = explore(rb, worlds, SMALL), explore(rb, worlds, SMALL, jobs=2)
    for name in ("states", "transitions", "traces", "depth", "events", "worlds"):
        assert getattr(one, name) == getattr(two, name), name
    assert one.violations.keys() == two.violations.keys()
    for pid in one.violations:
        a, b = one.violations[pid], two.violations[pid]
        assert (a.world, a.answers) == (b.world, b.answers)
    assert one.ops_fired == two.ops_fired and one.responses == two.responses


def test_max_nodes_makes_the_result_inconclusive(bundled):
    out = explore(bundled, bounded_worlds(0, ("none",)), Bounds(x_max=0, max_nodes=5))
    assert not out.complete
    results = _results(out, bundled)
    assert all(r.verdict == "unknown" for pid, r in results.items() if pid in BY_ID)


def test_max_nodes_is_per_world_alike_in_one_process_and_under_jobs(bundled):
    worlds = bounded_worlds(0, ("none",))
    sizes = [explore(bundled, [w], Bounds(x_max=0)).transitions for w in worlds]
    cap = sorted(sizes)[len(sizes) // 2]  # some worlds fit in the budget, some do not
    one = explore(bundled, worlds, Bounds(x_max=0, max_nodes=cap))
    two = explore(bundled, worlds, Bounds(x_max=0, max_nodes=cap), jobs=2)
    assert not one.complete and not two.complete
    assert (one.states, one.traces, one.worlds) == (two.states, two.traces, two.worlds)
    assert one.traces > 0


def test_the_bounded_worlds_cover_every_loadout_and_x_kind():
    ws = bounded_worlds(1)
    assert {w.name.split("/")[-1] for w in ws} >= set(LOADOUTS) - {"none"}
    kinds = {x.kind for w in ws for x in w.state.action.xs}
    assert kinds == {"cost", "targets", "magnitude_chosen", "magnitude_computed", "implicit"}
    assert any(w.state.action.parts_left for w in ws) and any(not w.state.action.needs_magnitude for w in ws)


@pytest.mark.parametrize("mutant,pid,loadout", [
    ("assault-fires-on-nothing", "P540.4.1-return-strike", "triggers"),  # the attacker's own «on assault»
    ("assault-closes-on-return-strike", None, "printed"),  # a defender's «closes after an assault» text
])
def test_the_bounded_worlds_play_the_trigger_words_and_texts_in_every_role(mutant, pid, loadout, bundled):
    """The sweep's blind spots: the bounded worlds give the attacker an «on assault» feature (so a
    draft where it fires on nothing is caught) and a defender a 540.1.2 text (so the two readings of
    «нападение» play differently)."""
    rb = load_rulebook_text(mutant_yaml(mutant), f"{mutant}.yaml")
    worlds = bounded_worlds(0, (loadout,))
    if pid is not None:
        out = explore(rb, worlds, SMALL, only=frozenset([pid]))
        assert pid in out.violations
        return
    def closed(book):  # every die, everybody passing: does the defender end closed?
        return [run(book, w.state, ScriptedChoices([die] * 4, [])).final.card("def").closed
                for w in worlds if any(c.id == "def" for c in w.state.cards) for die in range(1, 7)]
    assert closed(rb) != closed(bundled) and not all(closed(bundled))


# --- the command ------------------------------------------------------------------------------------------

def test_cli_explore_json_on_a_mutant_and_save_ruling(tmp_path, capsys):
    draft = write_mutant("M4", tmp_path)
    saved = tmp_path / "cx.yaml"
    code = main(["explore", str(draft), "--bounds", "x=0,die=1-2,loadouts=triggers", "--format", "json",
                 "--only", "P540.3-action-marker", "--save-ruling", str(saved)])
    doc = json.loads(capsys.readouterr().out)
    assert code == 1 and doc["schema"] == "ruleproof-explore/1" and not doc["ok"]
    failing = [c for c in doc["checks"] if not c["holds"]]
    assert [c["check"] for c in failing][0] == "P540.3-action-marker"
    assert doc["rulebook"]["complete"] and doc["rulebook"]["states"] > 0
    # the saved counterexample is a ruling: it fails on the mutant and passes on the bundled rulebook
    sc = load_scenario(saved)
    assert not run_scenario(sc, load_rulebook(draft)).passed
    assert run_scenario(sc, load_rulebook()).passed


def test_cli_explore_term_bundled_small(capsys):
    code = main(["--lang", "en", "explore", "--bounds", "x=0,die=1-2,loadouts=payment+triggers"])
    out = capsys.readouterr().out
    assert "Exhaustive exploration" in out and "states/s" in out
    # a restricted loadout leaves windows unplayed: reported as coverage findings, exit 1
    assert code == 1 and "X2-action-coverage" in out


@pytest.mark.parametrize("bounds, needle", [("x=-1", "x must be a whole number, 0 or more"), ("die=3-1", "die=LO-HI"),
                                            ("loadouts=nope", "unknown loadout nope"), ("y=1", "unknown bound"),
                                            ("loadouts=roles-nope", "unknown loadout roles-nope")])
def test_cli_explore_bad_bounds_exit_2(bounds, needle, capsys):
    assert main(["explore", "--bounds", bounds]) == 2
    captured = capsys.readouterr()
    assert needle in captured.err and "Traceback" not in captured.err and not captured.out


@pytest.mark.parametrize("name", ["allies", "roles-calculation"])
def test_every_loadout_of_the_family_can_be_named(name, capsys):
    """The allies' and the role loadouts are named in --bounds like the fixed ones (``allies`` was refused:
    the check knew only LOADOUTS)."""
    assert main(["--lang", "en", "explore", "--bounds", f"x=0,loadouts={name}", "--only", "P512.7-payment",
                 "--format", "json"]) != 2  # not bad input (a narrow family may leave windows unplayed: exit 1)
    played = json.loads(capsys.readouterr().out)["rulebook"]
    assert played["bounds"].endswith(f"loadouts={name}") and played["worlds"] > 0 and played["runs"] > 0


def test_cli_explore_unknown_property_is_the_error_prove_gives(capsys):
    assert main(["--lang", "en", "explore", "--only", "P999-nothing"]) == 2
    explore_err = capsys.readouterr().err
    assert main(["--lang", "en", "prove", "--only", "P999-nothing"]) == 2
    prove_err = capsys.readouterr().err
    assert "RP170" in explore_err and "P999-nothing" in explore_err and "Traceback" not in explore_err
    assert explore_err == prove_err


def test_cli_explore_incomplete_exits_3(capsys):
    assert main(["explore", "--bounds", "x=0,loadouts=none,max-nodes=3", "--format", "json"]) == 3
    assert json.loads(capsys.readouterr().out)["rulebook"]["complete"] is False


def test_the_product_of_axes():
    """Per loadout: simple strike and attack (no X, cost, targets; with and without a defender), spell
    and effect (also chosen, computed, implicit magnitude X), each X value in its range, plus a spell
    without magnitude, a spell whose cost-X is above the card's crystals (540.2, 542.2), a compound
    strike and a simple strike at a closed target (512.6.2/b4.2).  A role loadout has four worlds only
    (a strike and an attack with a defender, a spell, an effect)."""
    assert len(bounded_worlds(0, ("none",))) == 6 + 6 + 6 + 6 + 3 + 1
    assert len(bounded_worlds(1, ("none",))) == 8 + 8 + 8 + 8 + 3 + 1  # cost=1 and chosen=1 added
    # no compound strike with the dice loadout; the allies' loadout has the whole product too
    # the printed loadout's «2 раза за ход» source adds a strike after one use and after two (540.1.3) — each
    # also with one of those uses by another feature of the same kind (used=N/kin) — and
    # one where it carries a marker its ally may take away during the action (540.3.1, 510.4); the payment loadout adds a spell whose reserved crystal the ally may take (512.7), a
    # compound strike whose source the ally may close, and a closed source (A-closed-no-close)
    assert len(bounded_worlds(1)) == (len(LOADOUTS) + len(ALLIES)) * 36 - 1 + len(role_loadouts()) * len(ROLE_ACTIONS) + 8
    assert len(role_loadouts()) == 7 and len(bounded_worlds(1, ("roles-calculation",))) == 4


def test_a_configuration_reached_again_reuses_the_events_a_fresh_run_makes(bundled, monkeypatch):
    """The explorer runs the interpreter once per configuration and trace length: a configuration
    reached again by another history reuses the events of the first run (the run is deterministic).
    Every checked run must equal a fresh replay of its answers, and some runs must have been reused."""
    import ruleproof.model.explore as ex
    from ruleproof.model import interpreter

    finished, calls = [], [0]
    finish, advance = ex._finish, interpreter._Run.advance

    def record(node, world, *rest):
        finished.append((world, node))
        return finish(node, world, *rest)

    def counted(self, *args):
        calls[0] += 1
        return advance(self, *args)

    monkeypatch.setattr(ex, "_finish", record)
    monkeypatch.setattr(interpreter._Run, "advance", counted)
    worlds = bounded_worlds(0, ("defence",))
    out = explore(bundled, worlds, SMALL)
    choices = len(worlds) + out.transitions  # the configurations advanced from (forced passes run inside)
    assert out.traces == len(finished) > 100 and calls[0] < choices * 0.7
    monkeypatch.undo()
    for world, node in finished:
        st = Stepper(bundled, world.state)
        for answer in node.answers:
            st.answer(answer)
        assert st.finished and st.trace.events == list(node.events), (world.name, node.answers)


def test_the_reuse_cache_emptied_on_the_way_changes_nothing(bundled, monkeypatch):
    """The events kept for reuse are a cache with a size limit: emptying it every few configurations
    gives the same exploration."""
    import ruleproof.model.explore as ex

    worlds = bounded_worlds(0, ("defence",))
    full = explore(bundled, worlds, SMALL)
    monkeypatch.setattr(ex, "_REUSE_LIMIT", 7)
    small = explore(bundled, worlds, SMALL)
    figures = ("states", "transitions", "forced", "traces", "depth", "steps", "events", "deadlocks", "ops_fired",
               "windows_opened", "responses")
    assert [getattr(small, f) for f in figures] == [getattr(full, f) for f in figures]
    assert full.traces > 100


def test_the_forced_passes_taken_inside_the_interpreter_are_the_ones_a_plain_search_takes(bundled):
    """The explorer lets the interpreter pass where a player can only pass (``auto_pass``).  A plain
    breadth-first search that answers every such turn itself, with no reuse, must find the same
    configurations, choices, forced passes and runs, and the same events on every run."""
    from collections import deque

    from ruleproof.model.interpreter import _Run, start

    worlds = bounded_worlds(0, ("defence", "none"))
    out = explore(bundled, worlds, SMALL, only=frozenset())
    runner, seen = _Run(bundled), set()
    figures = {"transitions": 0, "forced": 0, "traces": 0, "events": 0}
    for world in worlds:
        s, cur = start(bundled, world.state)
        runner.restart(0)
        queue = deque([(*runner.advance(s, cur), tuple(runner.trace.events))])
        while queue:
            s, cur, ask, events = queue.popleft()
            seen.add((s, cur))
            if ask is None:
                figures["traces"] += 1
                figures["events"] += len(events)
                continue
            forced = ask.kind == "respond" and (not ask.options or len(cur.played) >= SMALL.plays_per_window)
            answers = [None] if forced else (range(1, 3) if ask.kind == "die" else [None, *(f.id for _, f in ask.options)])
            for answer in answers:
                figures["forced" if forced else "transitions"] += 1
                runner.restart(len(events))
                queue.append((*runner.advance(s, cur, answer), events + tuple(runner.trace.events)))
    assert {"states": len(seen), **figures} == {"states": out.states, **{k: getattr(out, k) for k in figures}}
    assert out.forced > out.transitions > 100


def test_every_property_is_exercised_by_the_bounded_runs_of_the_bundled_rulebook(bundled_small, bundled):
    """Each property's premise (the situation it speaks of) occurs in some run: its "holds" is not
    vacuous; the count is in each result's note."""
    out = bundled_small
    from ruleproof.properties.catalogue import PROPERTIES

    assert {p.id: out.exercised[p.id] > 0 for p in PROPERTIES} == {p.id: True for p in PROPERTIES}, out.exercised
    results = _results(out, bundled)
    assert results["P540.4.1-return-strike"].note.endswith(f"premise in {out.exercised['P540.4.1-return-strike']}")


def test_a_property_whose_premise_never_occurs_is_not_exercised_never_holds(planted_property, bundled, capsys):
    p = planted_property
    out = explore(bundled, bounded_worlds(0, ("none",)), SMALL, frozenset({p.id}))
    assert out.complete and not out.violations and out.exercised[p.id] == 0
    [result] = [r for r in explore_results(out, bundled, "ruleproof explore") if r.check == p.id]
    assert result.verdict == "unknown" and not result.holds
    [finding] = result.findings
    assert finding.kind == "not_exercised" and finding.verdict == "unknown"
    assert finding.message["en"].startswith("not exercised") and "an event no rulebook has happens" in finding.message["en"]
    assert finding.message["ru"].startswith("не проверено") and "происходит событие" in finding.message["ru"]
    capsys.readouterr()
    code = main(["explore", "--bounds", "x=0,die=1-2", "--only", p.id, "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == 3 and [f["verdict"] for c in doc["checks"] if c["check"] == p.id for f in c["findings"]] == ["unknown"]


def test_an_assault_trigger_widened_to_the_return_strike_is_caught_at_the_default_bounds(bundled):
    """Issue 22's draft: «при нападении» also on the return strike (against 540.4.1). The bounded worlds
    give a defender «on strike/assault» features, so the explorer plays the widening."""
    from pathlib import Path

    text = Path(bundled.path).read_text(encoding="utf-8")
    line = "      assault: [attack]  "
    assert text.count(line) == 1
    draft = load_rulebook_text(text.replace(line, "      assault: [attack, return_strike]  "), "assault-draft.yaml")
    out = explore(draft, bounded_worlds(1, ("triggers",)), Bounds(), frozenset({"P540.4.1-return-strike"}))
    assert "P540.4.1-return-strike" in out.violations
