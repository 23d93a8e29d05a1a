"""`check`'s run cache and `check --watch`: a second check of the same rulebook comes from the cache and says
so, an edit runs the engines again and an edit undone is a cache hit, a run with an inconclusive result is
not kept; each round of the watch says which engines ran, bad input in a round is said and the watch goes on."""

from __future__ import annotations

import json
import re

import pytest

from ruleproof.cli import build_parser, main
from ruleproof.commands import check as check_cmd

ENGINES = "structure,rulings,consistency"


@pytest.fixture
def cache_on(monkeypatch, tmp_path):
    """The cache as a user's `check` has it, in a folder of this test's own (.ruleproof-cache/ of its cwd)."""
    monkeypatch.setattr(check_cmd, "CACHE_ON", True)
    monkeypatch.chdir(tmp_path)
    return tmp_path / ".ruleproof-cache"


def _verdicts(out: str) -> list[tuple[str, str]]:
    """(check, verdict) of every result of a JSON report, in its order."""
    return [(r["check"], r["verdict"]) for s in json.loads(out)["sections"] for r in s["results"]]


def _first_window_second(d: dict) -> None:
    """An edit that changes behaviour: the re-roll window asks the non-active player first (S5 fails)."""
    ops = d["steps"]["dice"]["operations"]
    next(op for op in ops if op.get("id") == "reroll")["first"] = "non_active_player"


def test_a_second_check_comes_from_the_cache_and_an_edit_runs_again(cache_on, write_rulebook, capsys):
    path = write_rulebook(name="draft.yaml")
    argv = ["--lang", "en", "check", str(path), "--engines", ENGINES, "--format", "json"]
    assert main(argv) == 0
    cold = capsys.readouterr()
    assert "cache" not in cold.err and list((cache_on / "runs").glob("rulings-*.pickle"))
    assert main(argv) == 0
    warm = capsys.readouterr()
    assert ("These results came from the cache (.ruleproof-cache/; the rulebook, the options and ruleproof are "
            "unchanged): rulings, consistency. To run them again: --no-cache") in warm.err
    assert _verdicts(warm.out) == _verdicts(cold.out) and len(_verdicts(cold.out)) > 100
    assert main([*argv, "--no-cache"]) == 0
    assert "cache" not in capsys.readouterr().err
    write_rulebook(_first_window_second, name="draft.yaml")  # the same file, edited
    assert main(argv) == 1
    edited = capsys.readouterr()
    assert "cache" not in edited.err
    assert ("S5-active-player-first", "violated") in _verdicts(edited.out)


def test_kept_proofs_are_carried_to_an_edit_and_only_kept_when_asked(cache_on, write_rulebook, capsys, monkeypatch):
    """`check --keep-proofs` keeps Z3's new proofs; the next `check` of an edited rulebook re-checks them instead
    of searching and says so; a plain `check` keeps none (the extraction costs a cold check). One property, so
    that Z3 takes a second."""
    from functools import partial

    from ruleproof.properties import prove as prove_module

    monkeypatch.setattr(prove_module, "prove", partial(prove_module.prove, only=["P512.7-payment"]))
    path = write_rulebook(name="draft.yaml")
    argv = ["--lang", "en", "check", str(path), "--engines", "z3", "--format", "json"]
    assert main(argv) in (0, 3)
    assert not list((cache_on / "proofs").glob("*.json"))  # a one-off check keeps no proof
    write_rulebook(_first_window_second, name="draft.yaml")  # an edit: Z3 runs again, its proof kept
    main([*argv, "--keep-proofs"])
    assert "carried" not in capsys.readouterr().err and list((cache_on / "proofs").glob("*.json"))

    def both_windows(d: dict) -> None:
        _first_window_second(d)
        ops = d["steps"]["dice"]["operations"]
        next(op for op in ops if op.get("id") == "dice_modifiers")["first"] = "non_active_player"

    write_rulebook(both_windows, name="draft.yaml")  # a second edit: the kept proof re-checked, not searched
    main(argv)
    err = capsys.readouterr().err
    assert "Z3: 1 of 1 proofs carried over from an earlier check" in err, err
    main(["--lang", "ru", *argv[2:], "--no-cache"])  # --no-cache: every proof searched afresh
    assert "перенесены" not in capsys.readouterr().err


def test_a_run_with_an_inconclusive_result_is_not_kept(tmp_path):
    """An engine run with an inconclusive result (a time limit: the machine's load, not the rulebook, decided
    it) is made again next time; a decided one is kept; a run Ctrl-C cut short is never kept."""
    from ruleproof.ground import interrupt
    from ruleproof.orchestrate import EngineRun, _decided
    from ruleproof.reports.finding import CheckResult, Finding, Verdict
    from ruleproof.runcache import cached_run

    unknown = CheckResult("P1", (), {"ru": "", "en": ""}, "z3", (Finding(
        kind="unknown", check="P1", verdict=Verdict.UNKNOWN, engine="z3", clauses=(), message={"ru": "", "en": ""}),))
    holds = CheckResult("P1", (), {"ru": "", "en": ""}, "z3")
    calls: list[str] = []

    def engine(result):
        def run(rb, opts):
            calls.append(result.verdict)
            return EngineRun("z3", [result], 0.0)
        return run

    for _ in range(2):
        run, hit = cached_run(engine(unknown), "content A", "z3", {}, tmp_path, keep=_decided)
        assert not hit and run.results == [unknown]
    for _ in range(2):
        cached_run(engine(holds), "content B", "z3", {}, tmp_path, keep=_decided)
    assert calls == [Verdict.UNKNOWN, Verdict.UNKNOWN, Verdict.HOLDS]
    interrupt._REQUESTED.set()
    try:
        with pytest.raises(KeyboardInterrupt):
            cached_run(engine(holds), "content C", "z3", {}, tmp_path, keep=_decided)
    finally:
        interrupt._REQUESTED.clear()
    assert not cached_run(engine(holds), "content C", "z3", {}, tmp_path, keep=_decided)[1]


def test_watch_checks_again_at_each_change_and_goes_on_after_bad_input(cache_on, write_rulebook, capsys):
    path = write_rulebook(name="draft.yaml")
    original = path.read_text("utf-8")
    edits = iter([
        lambda: path.write_text(original + "steps: [\n", "utf-8"),  # a YAML error: said, and the watch goes on
        lambda: path.write_text(original, "utf-8"),  # undone: every engine from the cache
        lambda: write_rulebook(_first_window_second, name="draft.yaml"),  # a behaviour edit: run again, exit 1
    ])

    def sleep(_seconds):
        edit = next(edits, None)
        if edit is None:
            raise KeyboardInterrupt  # Ctrl-C while waiting ends the watch
        edit()

    args = build_parser("en").parse_args(["check", str(path), "--watch", "--engines", ENGINES, "--summary"])
    with pytest.raises(KeyboardInterrupt):
        check_cmd.watch(args, "en", sleep=sleep)
    err = capsys.readouterr().err
    rounds = err.split("Waiting for a change")
    assert len(rounds) == 5, err  # four checks, then the wait Ctrl-C ended
    assert "Check 1: engines run — rulings, consistency; taken from the cache — —" in rounds[0]
    assert "exit code 0" in rounds[0]
    # each engine's verdict as its run comes back, before the round's end
    assert re.search(r"  rulings: \d+ checks, 0 violated, 0 inconclusive — [\d.]+ s \(answered [\d.]+ s in\)\n", rounds[0]), rounds[0]
    assert re.search(r"  consistency: \d+ checks, 0 violated, 0 inconclusive — [\d.]+ s \(answered [\d.]+ s in\)\n", rounds[0])
    assert f"{path}:" in rounds[1] and "RP103" in rounds[1] and "Check 2 done" in rounds[1] and "exit code 2" in rounds[1]
    assert "Check 3: engines run — —; taken from the cache — rulings, consistency" in rounds[2]
    assert re.search(r"  rulings: \d+ checks, 0 violated, 0 inconclusive — from the cache \(answered [\d.]+ s in\)\n", rounds[2])
    assert "exit code 0" in rounds[2]
    assert "Check 4: engines run — rulings, consistency; taken from the cache — —" in rounds[3]
    assert "exit code 1" in rounds[3]
    assert re.search(r"  rulings: \d+ checks, \d+ violated", rounds[3])


def test_watch_needs_a_rulebook_file(capsys):
    assert main(["--lang", "en", "check", "--watch"]) == 2
    err = capsys.readouterr().err
    assert "RP150" in err and "--watch watches a rulebook file" in err and "Traceback" not in err


def test_a_round_speaks_russian(cache_on, write_rulebook, capsys):
    path = write_rulebook(name="draft.yaml")

    def sleep(_seconds):
        raise KeyboardInterrupt

    args = build_parser("ru").parse_args(["check", str(path), "--watch", "--engines", ENGINES, "--summary"])
    with pytest.raises(KeyboardInterrupt):
        check_cmd.watch(args, "ru", sleep=sleep)
    err = capsys.readouterr().err
    assert re.search(r"  разъяснения: проверок \d+, нарушено 0, не установлено 0 — [\d.]+ с \(ответ через [\d.]+ с\)", err)
    assert "Проверка 1: движки запущены — rulings, consistency; взяты из кэша — —" in err
    assert "Проверка 1 закончена за" in err and "Жду изменений" in err
    assert not re.search(r"\b(checks|violated|inconclusive|engines run|Waiting|done in)\b", err), err


def test_the_cache_keeps_the_most_recently_used_runs(tmp_path, monkeypatch):
    """An editor's every edit is a new key: past :data:`MAX_RUNS` runs the least recently used go (a hit counts
    as a use)."""
    import os

    from ruleproof import runcache

    monkeypatch.setattr(runcache, "MAX_RUNS", 3)
    calls: list[str] = []

    def engine(rb, opts):
        calls.append(rb)
        return rb

    for n, content in enumerate(["a", "b", "c"]):
        runcache.cached_run(engine, content, "demo", {}, tmp_path)
        path = tmp_path / "runs" / f"demo-{runcache.run_key(content, 'demo', {})}.pickle"
        os.utime(path, (1e9 + n, 1e9 + n))  # distinct times, the oldest first, on any file system
    runcache.cached_run(engine, "a", "demo", {}, tmp_path)  # a hit: "a" is used now, "b" is the oldest
    runcache.cached_run(engine, "d", "demo", {}, tmp_path)  # a fourth run: "b" goes
    assert calls == ["a", "b", "c", "d"]
    assert len(list((tmp_path / "runs").glob("*.pickle"))) == 3
    assert runcache.cached_run(engine, "a", "demo", {}, tmp_path)[1]
    assert runcache.cached_run(engine, "c", "demo", {}, tmp_path)[1]
    assert not runcache.cached_run(engine, "b", "demo", {}, tmp_path)[1]
