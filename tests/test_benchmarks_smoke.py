"""Smoke test of the benchmark scripts with tiny parameters: the table has the expected rows and
verdicts (timings are figures, never asserted)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    sys.path.insert(0, str(BENCH))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module


@pytest.fixture(scope="module")
def compare():
    return _load("compare")


@pytest.fixture(scope="module")
def scale():
    return _load("scale")


def test_compare_one_mutant_every_engine(compare):
    from ruleproof.model.explore import Bounds

    opts = {"bounds": Bounds(x_max=0, die=(1, 2), loadouts=("none",)), "examples": 20, "timeout_ms": None}
    rows = compare.compare(("M7",), compare.ENGINES, repeats=1, opts=opts)
    assert [(r.rulebook, r.engine) for r in rows] == [("M7", "explore"), ("M7", "z3"), ("M7", "hypothesis")]
    assert all(r.properties == ("P512.6.3-legality-once",) for r in rows)
    # every engine kills M7; explore and hypothesis report a rate and when the first counterexample came
    assert [r.verdict for r in rows] == ["violated"] * 3, [(r.engine, r.verdict, r.note) for r in rows]
    assert rows[0].rate and rows[2].rate and rows[0].first_cx is not None and rows[2].first_cx is not None
    table = compare.format_table(rows)
    assert table.count("| M7 | P512.6.3-legality-once |") == 3
    assert "| M7 | " in table.split("explore / z3")[1]  # the ratios row


def test_compare_bundled_holds_under_explore(compare):
    from ruleproof.model.explore import Bounds

    opts = {"bounds": Bounds(x_max=0, die=(1, 2), loadouts=("none",)), "examples": 1, "timeout_ms": None}
    rows = compare.compare(("bundled",), ("explore", "hypothesis"), repeats=1, opts=opts)
    # one example cannot play every situation (a world draws two X kinds at most; M1–M3's properties
    # need three): Hypothesis does not say "holds" of every property — not exercised
    assert [r.verdict for r in rows] == ["holds", "unknown"]
    assert rows[0].first_cx is None and len(rows[0].properties) == 8


def test_an_engine_error_is_a_row_not_a_crash(compare, monkeypatch):
    from ruleproof.properties import prove

    def broken(*a, **kw):
        raise RuntimeError("boom")

    monkeypatch.setattr(prove, "prove", broken)
    row = compare.measure("M7", "z3", frozenset({"P512.6.3-legality-once"}), {"timeout_ms": None}, 1)
    assert row.verdict == "error: RuntimeError: boom"


def test_synthetic_rulebooks_load_and_run(scale):
    from ruleproof.generators.bounded import bounded_worlds
    from ruleproof.model.interpreter import RandomChoices, run
    from ruleproof.model.rulebook import load_rulebook_text

    one, two = (load_rulebook_text(scale.synthetic_yaml(k), f"x{k}.yaml") for k in (1, 2))
    assert len(two.spec.steps) == len(one.spec.steps) + len(scale.CHAIN)
    world = bounded_worlds(0, ("none",))[0]
    short, long = (run(rb, world.state, RandomChoices(seed=1)) for rb in (one, two))
    assert len(long.events) > len(short.events)
    assert any(e.op == "window" and e.values["id"] == "reroll__2" for e in long.events)


def test_fit_exponent(scale):
    assert scale.fit_exponent([10, 100, 1000], [1.0, 10.0, 100.0]) == pytest.approx(1.0)
    assert scale.fit_exponent([1, 2, 4], [1.0, 4.0, 16.0]) == pytest.approx(2.0)


def test_ab_explore_takes_an_old_commit_out_as_its_own_package(tmp_path):
    """The old side of ``ab_explore.py`` imports none of the working tree's modules."""
    import subprocess

    if not (BENCH.parent / ".git").exists():
        pytest.skip("not a git clone: ab_explore.py compares commits")
    ab = _load("ab_explore")
    ab.old_package("HEAD", tmp_path)
    code = ("import sys; import rpold.model.explore, rpold.properties.catalogue, rpold.model.rulebook as r; "
            "rb = r.load_rulebook(); print(rb.spec.id, sorted({m.split('.')[0] for m in sys.modules} & {'ruleproof', 'rpold'}))")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["berserk-rp-4.1-2", "['rpold']"]


def test_ab_explore_times_each_sides_command_from_its_own_package():
    """``ab_explore.py REV --cli JOBS`` runs the old side's command from the old package and the new
    side's from the installed one (never the old folder shadowed by a checkout in the current folder)."""
    import subprocess

    if not (BENCH.parent / ".git").exists():
        pytest.skip("not a git clone: ab_explore.py compares commits")
    out = subprocess.run([sys.executable, str(BENCH / "ab_explore.py"), "HEAD", "--cli", "1", "--bounds",
                          "x=0,loadouts=none"], cwd=BENCH.parent, capture_output=True, text=True, check=True).stdout
    old = next(line for line in out.splitlines() if "old (HEAD)" in line)
    new = next(line for line in out.splitlines() if "new (installed)" in line)
    assert "/rpold)" in old and "rpold" not in new and "new/old time" in out
    assert "calibration (benchmarks/calibrate.py): " in out and " s after" in out
    assert int(out.split(" states")[0].rsplit(" ", 1)[1]) > 100  # the one state count both sides explored


def test_explore_split_runs_both_sides_over_the_same_states():
    """``explore_split.py``: with every property and with none, alternated, over the same states."""
    runs = _load("explore_split").split("x=0,die=1-2,loadouts=none", jobs=1, rounds=2)
    assert [len(runs["on"]), len(runs["off"])] == [2, 2]
    assert len({o.states for side in runs.values() for o in side}) == 1
    assert all(o.complete and o.traces > 0 for side in runs.values() for o in side)


def test_calibration_is_a_fixed_workload_timed():
    """``calibrate.py``: the same work every time (its checksum), a positive median time."""
    cal = _load("calibrate")
    assert cal.workload(1_000) == cal.workload(1_000) == 1_000 + 1_000 + (1_000 - 1) % 64 + 1
    assert cal.workload(64) != cal.workload(65)
    assert cal.calibrate(repeats=3, n=2_000) > 0


def test_the_pytest_benchmark_suite_collects():
    """``benchmarks/suite`` (pytest-benchmark; outside the test run): it collects, with every benchmark the
    README's table quotes.  Nothing is run or timed here."""
    import os
    import subprocess

    pytest.importorskip("pytest_benchmark")
    env = {k: v for k, v in os.environ.items() if k != "PYTEST_ADDOPTS"}
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "benchmarks/suite"], check=False, cwd=BENCH.parent, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    ids = {line.strip() for line in done.stdout.splitlines() if "::" in line}
    drafts = sorted(p.stem for p in (BENCH.parent / "rulebooks" / "drafts").glob("*.yaml"))
    assert ids == {f"benchmarks/suite/test_bench_{module}.py::test_{name}" for module, names in (
        ("commands", ("check", "prove", "explore")),
        ("edits", (*(f"diff_{w}[{d}]" for w in ("cold", "warm") for d in drafts), "check_one_line_edit")),
        ("inprocess", ("calibration_workload", "load_rulebook", "shipped_rulings", "interpreter_on_rulings",
                       "explore_small"))) for name in names}, done.stdout
