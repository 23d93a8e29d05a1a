"""Hostile and careless inputs (issue 23's reproducers): each is bad input — exit 2, one message, no
traceback, nothing written — or, for a bug in ruleproof, exit 70 with one line and a saved traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from ruleproof.cli import main
from ruleproof.generators.mutants import bundled_data, mutant_yaml


def _draft(tmp_path: Path, edit, name: str = "draft.yaml") -> Path:
    d = bundled_data()
    edit(d)
    p = tmp_path / name
    p.write_text(yaml.safe_dump(d, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return p


def _bad(capsys, argv: list[str], code: str, *words: str) -> str:
    rc = main(["--lang", "en", *argv])
    out, err = capsys.readouterr()
    assert rc == 2, (rc, err)
    assert "Traceback" not in err and out == ""
    assert f"error {code}:" in err and err.count("error ") == 1, err
    for w in words:
        assert w in err, err
    return err


def _rows(key: str, value):
    def edit(d):
        d["tables"][key]["rows"][next(iter(d["tables"][key]["rows"]))] = value
    return edit


@pytest.mark.parametrize("value", [["weak"], ["weak", "none", "strong"], "weak", []])
def test_a_strike_table_row_of_the_wrong_shape_is_refused_at_load(tmp_path, capsys, value):
    path = _draft(tmp_path, _rows("strike_table", value))
    _bad(capsys, ["check", str(path), "--engines", "structure"], "RP134", "strike_table", "2 values")


@pytest.mark.parametrize("rows, words", [({"min": 1, "max": 10 ** 9}, "outside 1..15"),
                                         ({"min": -3, "max": 6}, "outside 1..15"),
                                         ({"min": 5, "max": 2}, "greater than max"),
                                         ({"min": [], "max": 6}, "a whole number")])
def test_die_faces_out_of_range_are_refused_at_load(tmp_path, capsys, rows, words):
    path = _draft(tmp_path, lambda d: d["tables"]["die_faces"].__setitem__("rows", rows))
    _bad(capsys, ["check", str(path), "--engines", "structure"], "RP134", words)


@pytest.mark.parametrize("text, words", [("a: [" + ", ".join(["1"] * 10_000) + "]\n", "10000 items"),
                                         ("a: " + "x" * 100_000 + "\n", "100000 characters"),
                                         ("tables: {die_faces: {rows: {min: 1, max: " + "9" * 400 + "}}}\n", "the number")])
def test_huge_lists_strings_and_numbers_are_refused_at_load(tmp_path, capsys, text, words):
    path = tmp_path / "huge.yaml"
    path.write_text(text, encoding="utf-8")
    err = _bad(capsys, ["check", str(path), "--engines", "structure"], "RP118", words)
    assert len(err) < 400  # the value is not echoed back


@pytest.mark.parametrize("text", ["a: " + "[" * 400 + "]" * 400 + "\n",
                                  "a:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 300)) + "  " * 300 + "x: 1\n"])
def test_deep_nesting_is_refused_not_a_recursion_error(tmp_path, capsys, text):
    path = tmp_path / "deep.yaml"
    path.write_text(text, encoding="utf-8")
    err = _bad(capsys, ["check", str(path), "--engines", "structure"], "RP116", "nested")
    assert err.startswith(f"{path}:")


@pytest.mark.parametrize("path, code", [("/dev/zero", "RP113"), ("/proc/self/mem", "RP115")])
def test_devices_and_unreadable_files_are_refused_up_front(capsys, path, code):
    if not Path(path).exists():
        pytest.skip(f"{path} is not on this system")
    _bad(capsys, ["check", path, "--engines", "structure"], code)
    _bad(capsys, ["clauses", "--rules-text", path], code)


@pytest.mark.parametrize("value", ["inf", "nan", "-1", "0", "0.0001"])
def test_timeouts_must_be_finite_positive_and_at_least_a_millisecond(capsys, value):
    _bad(capsys, ["prove", "--timeout", value], "RP171", "--timeout")
    _bad(capsys, ["check", "--timeout", value], "RP171")


def test_selftest_with_an_unknown_draft_is_bad_input(capsys):
    _bad(capsys, ["selftest", "--only", "NOPE"], "RP150", "NOPE")


def test_prove_only_does_not_swallow_the_rulebook(tmp_path, capsys):
    path = tmp_path / "M6.yaml"
    path.write_text(mutant_yaml("M6"), encoding="utf-8")
    from ruleproof.generators.mutants import PUBLIC

    rc = main(["--lang", "en", "prove", "--only", PUBLIC["M6"], str(path), "--format", "json"])
    out, _ = capsys.readouterr()
    assert rc == 1 and str(path) in out  # the draft was proved, not the bundled rulebook
    _bad(capsys, ["prove", "--only", "P999-nothing", str(path)], "RP170", "P999-nothing")


@pytest.mark.parametrize("argv,code,near", [
    (["explore", "--only", "P512.7-paymnt"], "RP170", "P512.7-payment"),
    (["check", "--engines", "rulngs"], "RP150", "rulings"),
    (["explore", "--bounds", "plyas=1"], "RP150", "plays"),
])
def test_a_misspelt_option_value_gets_the_nearest(capsys, argv, code, near):
    _bad(capsys, argv, code, f"(did you mean '{near}'?)")
    assert main(["--lang", "ru", *argv]) == 2
    err = capsys.readouterr().err
    assert f"ошибка {code}" in err and f"(возможно, имелось в виду '{near}'?)" in err and "did you" not in err


@pytest.mark.parametrize("argv", [["check", "--report", "/proc/ruleproof-x", "--format", "json"],
                                  ["check", "--save-ruling", "/proc/ruleproof-x.yaml"],
                                  ["graph", "-o", "/nonexistent-folder/g.svg"],
                                  ["diff", "rulebooks/berserk-rp-4.1-2.yaml", "rulebooks/berserk-rp-4.1-2.yaml",
                                   "--report", "/proc/ruleproof-x"]])
def test_unwritable_outputs_are_refused_before_the_run(monkeypatch, capsys, argv):
    def no_run(*a, **k):  # the run must not start: the path is checked first
        raise AssertionError("the run started")

    monkeypatch.setattr("ruleproof.orchestrate.run_check", no_run)
    _bad(capsys, argv, "RP117")


def test_a_bug_is_exit_70_with_one_line_and_a_saved_traceback(monkeypatch, capsys):
    def planted(args, lang):
        raise ZeroDivisionError("planted bug")

    monkeypatch.setattr("ruleproof.commands.graph.run", planted)
    rc = main(["--lang", "en", "graph", "--format", "dot"])
    out, err = capsys.readouterr()
    assert rc == 70 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "internal error" in err and "ZeroDivisionError: planted bug" in err and "graph --format dot" in err
    saved = Path(re.search(r"traceback saved to (\S+)", err).group(1))
    assert "ZeroDivisionError: planted bug" in saved.read_text("utf-8")
    saved.unlink()
    rc = main(["--lang", "ru", "graph", "--format", "dot"])
    err = capsys.readouterr().err
    assert rc == 70 and "внутренняя ошибка" in err and "internal" not in err
    Path(re.search(r"сохранена в (\S+)", err).group(1)).unlink()


def test_ctrl_c_is_exit_130_with_one_line(monkeypatch, capsys):
    def interrupted(args, lang):
        raise KeyboardInterrupt

    monkeypatch.setattr("ruleproof.commands.graph.run", interrupted)
    assert main(["--lang", "en", "graph", "--format", "dot"]) == 130
    assert capsys.readouterr().err == "interrupted\n"


@pytest.mark.parametrize("pressed, code", [(True, 130), (False, 70)])
def test_a_z3_call_cut_short_by_ctrl_c_is_an_interruption(monkeypatch, capsys, pressed, code):
    """Ctrl-C while ctypes converts a Z3 call's arguments surfaces as ctypes.ArgumentError («argument 1:
    KeyboardInterrupt»): after Ctrl-C that is the interruption (exit 130, one line); the same error
    without Ctrl-C stays a bug (exit 70)."""
    import ctypes

    from ruleproof.ground import interrupt

    def cut_short(args, lang):
        if pressed:
            interrupt._REQUESTED.set()
        raise ctypes.ArgumentError("argument 1: KeyboardInterrupt: ")

    monkeypatch.setattr("ruleproof.commands.graph.run", cut_short)
    assert main(["--lang", "en", "graph", "--format", "dot"]) == code
    err = capsys.readouterr().err
    if pressed:
        assert err == "interrupted\n"
    else:
        assert "internal error" in err and "ArgumentError: argument 1: KeyboardInterrupt" in err
        Path(re.search(r"traceback saved to (\S+)", err).group(1)).unlink()


def _interrupt(argv: list[str], after: float, cwd: Path) -> tuple[int, str, float]:
    import signal
    import subprocess
    import sys
    import time

    exe = Path(sys.executable).with_name("ruleproof")
    import os

    # its own process group: on a timeout the workers it forked are killed with it (they would hold
    # the pipes open, and the test would hang instead of failing)
    p = subprocess.Popen([str(exe), "--lang", "en", *argv], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, start_new_session=True,
                         # a job started in the background by a non-interactive shell inherits SIGINT
                         # ignored, and Python then installs no KeyboardInterrupt handler: give the
                         # command the default disposition a user's terminal gives it
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(after)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)  # to the command only, not to its workers: it must stop them itself
    try:
        _, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:  # pragma: no cover - the failure this test is about
        os.killpg(p.pid, signal.SIGKILL)
        _, err = p.communicate()
    return p.returncode, err, time.monotonic() - sent


@pytest.mark.parametrize("disposition, expected", [("SIG_DFL", "requested True"), ("SIG_IGN", "ignored")])
def test_ctrl_c_is_recorded_before_the_keyboard_interrupt_surfaces(disposition, expected):
    """The KeyboardInterrupt may surface as another error (ctypes.ArgumentError in a Z3 call) before
    the watcher thread has read the wakeup pipe — the CI run saw exit 70 for that race: the SIGINT
    handler itself records the request, in the main thread. Where SIGINT is ignored, it stays ignored."""
    import signal
    import subprocess
    import sys

    code = (
        "import os, signal, time\n"
        "from ruleproof.ground import interrupt\n"
        "interrupt.install()\n"
        "try:\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    time.sleep(0.5)\n"
        "    print('ignored')\n"
        "except KeyboardInterrupt:\n"
        "    print('requested', interrupt.requested())\n"
        "    interrupt.taken()\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, getattr(signal, disposition)))
    assert out.stdout.strip() == expected, out.stderr


def test_what_z3_prints_while_it_is_canceled_never_reaches_the_user():
    """Z3 writes to file descriptor 2 itself (a Spacer query canceled while it validates its answer prints
    «rule validation failed when checking: …»; a CI run went red on it), and only once the watcher has
    canceled it: from Ctrl-C until the command takes it, descriptor 2 is muted. A stand-in for a Z3 context
    prints when it is interrupted, as Z3 does, and the main thread returns only after that, as from a Z3
    call; after ``taken()`` the stream is the user's again."""
    import signal
    import subprocess
    import sys

    code = (
        "import os, signal, threading, time\n"
        "from ruleproof.ground import interrupt\n"
        "class Z3Like:\n"
        "    canceled = threading.Event()\n"
        "    def interrupt(self):\n"
        "        os.write(2, b'rule validation failed when checking: (exists ...)\\n')\n"
        "        self.canceled.set()\n"
        "ctx = Z3Like()\n"
        "interrupt.install()\n"
        "interrupt._CONTEXTS.add(ctx)\n"
        "os.write(2, b'before\\n')\n"
        "try:\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    time.sleep(5)\n"
        "except KeyboardInterrupt:\n"
        "    assert ctx.canceled.wait(10)  # a Z3 call returns once it is canceled\n"
        "    interrupt.taken()\n"
        "    os.write(2, b'interrupted\\n')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert out.stderr == "before\ninterrupted\n", out.stderr


@pytest.mark.parametrize("engines, after", [("z3", 3.5), ("hypothesis", 3.0), ("consistency,z3", 3.0), ("z3", 0.3)])
def test_ctrl_c_stops_every_engine_and_leaves_the_old_report_set(tmp_path, engines, after):
    """SIGINT during Z3 (which catches it itself) or Hypothesis, or while the program still loads: exit
    130 with one line, promptly (the seconds are printed, not asserted: the machine is noisy), and the
    report folder holds the old set."""
    reports = tmp_path / "reports"
    reports.mkdir()
    for name in ("report.json", "report.md"):
        (reports / name).write_text("OLD", encoding="utf-8")
    rc, err, seconds = _interrupt(["check", "--engines", engines, "--report", str(reports), "--format", "json,md",
                                   "--examples", "5000"], after, tmp_path)
    print(f"{engines}: exit {rc} {seconds:.2f} s after SIGINT")
    assert rc == 130 and err == "interrupted\n", err
    assert sorted(p.name for p in reports.iterdir()) == ["report.json", "report.md"]  # no temporary file left
    assert {p.read_text("utf-8") for p in reports.iterdir()} == {"OLD"}


def test_an_interrupt_while_writing_comes_after_the_whole_set(tmp_path):
    """SIGINT raised while the report files are renamed one by one is held back until all are in place.
    (In a process of its own: a SIGINT sent to the test's own process could land, late, in the next test —
    under pytest-xdist it took a worker down.)"""
    import subprocess
    import sys

    code = (
        "import os, signal, sys\n"
        "from pathlib import Path\n"
        "from ruleproof.ground import fileio\n"
        "from ruleproof.reports.writers import write_files\n"
        "real, calls = os.replace, []\n"
        "def replace(src, dst):\n"
        "    calls.append(dst)\n"
        "    if len(calls) == 1:\n"
        "        os.kill(os.getpid(), signal.SIGINT)  # mid-way through the renames\n"
        "    real(src, dst)\n"
        "fileio.os.replace = replace\n"
        "try:\n"
        "    write_files({'a.json': '{}', 'b.md': 'new', 'c.html': '<p>'}, Path(sys.argv[1]))\n"
        "    print('no interrupt')\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted after', len(calls))\n"
    )
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "out")], capture_output=True, text=True,
                         timeout=120, preexec_fn=_default_sigint)
    assert out.stdout.strip() == "interrupted after 3", out.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["a.json", "b.md", "c.html"]


def _default_sigint() -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_two_runs_at_once_on_one_report_folder_leave_whole_files(tmp_path):
    """Two `check --report DIR` at the same time: every file in DIR is whole and valid afterwards."""
    import json
    import subprocess
    import sys

    exe = Path(sys.executable).with_name("ruleproof")
    reports = tmp_path / "reports"
    argv = [str(exe), "--lang", "en", "check", "--engines", "structure,rulings", "--report", str(reports),
            "--format", "json,md,junit"]
    runs = [subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    assert [p.wait(timeout=300) for p in runs] == [0, 0], [p.stderr.read() for p in runs]
    names = sorted(p.name for p in reports.iterdir())
    assert names == ["report.json", "report.junit.xml", "report.md"], names  # no temporary file left
    assert json.loads((reports / "report.json").read_text("utf-8"))["exit_code"] == 0
    assert (reports / "report.md").read_text("utf-8").startswith("#")


def test_explore_honours_a_memory_budget(tmp_path, capsys):
    """One back edge (payment -> dice once the dice step was visited) makes every run loop to the step
    limit; the search grew to gigabytes whatever max-nodes said. With a memory budget it stops:
    inconclusive (exit 3), and it says which bound stopped it."""
    import json

    def loop(d):
        d["steps"]["payment"].setdefault("next", []).insert(0, {"to": "dice", "when": "visited(dice)",
                                                                 "cites": ["512.7"]})

    path = _draft(tmp_path, loop)
    rc = main(["--lang", "en", "explore", str(path), "--bounds", "memory=600", "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert rc == 3
    assert doc["rulebook"]["complete"] is False and doc["rulebook"]["stopped_by"] == "memory"
    rc = main(["--lang", "ru", "explore", str(path), "--bounds", "memory=600"])
    out = capsys.readouterr().out
    assert rc == 3 and "границей memory" in out


def test_a_looping_draft_makes_a_bounded_report(tmp_path, capsys):
    """One back edge (handover -> completion) makes every ruling run to the step limit: each finding
    keeps at most TRACE_LIMIT events (the middle is one "omitted" row whose diff bridges the gap), and
    the steps visited are diffed as what was appended — the JSON was 38 MB for 64 rulings (about 600 kB a
    ruling), now it stays below 200 kB a ruling."""
    import json

    from ruleproof.reports.trace import TRACE_LIMIT, states_from_trace

    def back_edge(d):
        d["steps"]["handover"].setdefault("next", []).insert(0, {"to": "completion", "when": "always",
                                                                  "cites": ["512.6.6"]})

    path = _draft(tmp_path, back_edge)
    rc = main(["--lang", "en", "check", str(path), "--engines", "structure,rulings", "--format", "json"])
    text = capsys.readouterr().out
    report = json.loads(text)
    rulings = [r for s in report["sections"] if s["group"] == "rulings" for r in s["results"]]
    assert rc == 1 and len(rulings) > 60 and len(text.encode()) < 200_000 * len(rulings), len(text)
    traces = [f["trace"] for s in report["sections"] for r in s["results"] for f in r["findings"]
              if f.get("trace")]
    assert len(traces) > 30 and all(len(t) <= TRACE_LIMIT + 1 for t in traces)
    gap = next(r for r in traces[0] if r["op"] == "omitted")
    assert gap["values"]["events"] > 100
    final = states_from_trace(traces[0])[-1]
    assert final["visited"][-1] in ("completion", "payment", "handover") and len(final["visited"]) > 90


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and re.fullmatch(r"ruleproof \d+\.\d+\.\d+\n", capsys.readouterr().out)
