"""A check does each piece of shared work once: the phase graph of a rulebook is built once (every engine
and report reads ``Rulebook.graph``), and each shipped ruling file is read once."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from ruleproof.model import rulebook as rulebook_module
from ruleproof.model.scenario import load as scenario_load
from ruleproof.orchestrate import run_check


def test_a_check_builds_each_graph_and_reads_each_ruling_once(monkeypatch):
    graphs: Counter = Counter()
    files: Counter = Counter()
    build, read = rulebook_module.build_graph, scenario_load.load_scenario

    def counted_build(rb):
        graphs[id(rb)] += 1
        return build(rb)

    def counted_read(path, index=None):
        files[Path(path).name] += 1
        return read(path, index)

    monkeypatch.setattr(rulebook_module, "build_graph", counted_build)
    monkeypatch.setattr(scenario_load, "load_scenario", counted_read)
    report = run_check(None, 0, engines=("rulings",), jobs=1)
    assert report.rulings
    assert graphs and max(graphs.values()) == 1, graphs
    assert len(files) == len(scenario_load.shipped_rulings()) and max(files.values()) == 1, files
