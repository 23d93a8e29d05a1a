"""Quick in-process benchmarks: the machine's calibration workload, loading the bundled rulebook and the
shipped rulings, the interpreter playing the rulings, and the explorer on one small set of worlds.  Rounds
as pytest-benchmark decides (``--benchmark-min-rounds``, ``--benchmark-max-time``); each result is checked to
be the real one."""

from __future__ import annotations

import gc

from calibrate import workload

#: ``workload(200_000)``'s checksum (calibrate.py): a changed workload shows here
WORKLOAD_CHECKSUM = 221_568


def _median(benchmark) -> float | None:
    stats = getattr(benchmark, "stats", None)
    return stats.stats.median if stats is not None else None


def test_calibration_workload(benchmark):
    """``calibrate.py``'s fixed workload (no ruleproof), 5 rounds with the garbage collector off, as
    ``calibrate()`` times it: the machine's speed in this run, as a benchmark of its own."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        checksum = benchmark.pedantic(workload, rounds=5, iterations=1)
    finally:
        if enabled:
            gc.enable()
    assert checksum == WORKLOAD_CHECKSUM


def test_load_rulebook(benchmark):
    """The bundled rulebook read, validated, its graph checked (``load_rulebook()``; the clause index warm)."""
    from ruleproof.model.rulebook import load_rulebook

    rb = benchmark(load_rulebook)
    assert rb.spec.id == "berserk-rp-4.1-2" and rb.spec.steps


def test_shipped_rulings(benchmark, bundled):
    """Every shipped ruling file read and validated (``shipped_scenarios``, a file with cases giving one each)."""
    from ruleproof.model.scenario import shipped_rulings, shipped_scenarios

    scenarios = benchmark(shipped_scenarios, bundled.index)
    assert len(scenarios) >= len(shipped_rulings()) > 0
    benchmark.extra_info["rulings"] = len(scenarios)


def test_interpreter_on_rulings(benchmark, bundled):
    """The interpreter plays every shipped ruling on the bundled rulebook (``run_scenario``, loading excluded)."""
    from ruleproof.model.scenario import run_scenario, shipped_scenarios

    scenarios = [sc for _, sc in shipped_scenarios(bundled.index)]
    results = benchmark(lambda: [run_scenario(sc, bundled) for sc in scenarios])
    assert all(r.passed for r in results), [sc.spec.id for sc, r in zip(scenarios, results) if not r.passed]
    events = sum(len(r.trace.events) for r in results)
    assert events > 0
    benchmark.extra_info.update(rulings=len(scenarios), events=events)
    median = _median(benchmark)
    if median:
        benchmark.extra_info["events_per_s"] = round(events / median)


def test_explore_small(benchmark, bundled):
    """The explorer in one process on ``--bounds x=0,die=1-2,loadouts=dice`` (every property): the search alone."""
    from ruleproof.generators.bounded import bounded_worlds
    from ruleproof.model.explore import Bounds, explore

    bounds = Bounds(x_max=0, die=(1, 2), loadouts=("dice",))
    worlds = bounded_worlds(bounds.x_max, bounds.loadouts, bundled)
    out = benchmark(explore, bundled, worlds, bounds)
    assert out.complete and out.states > 0 and out.traces > 0 and not out.violations, out.violations
    benchmark.extra_info.update(worlds=out.worlds, states=out.states)
    median = _median(benchmark)
    if median:
        benchmark.extra_info["states_per_s"] = round(out.states / median)
