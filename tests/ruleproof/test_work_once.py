"""A check does each piece of shared work once: the phase graph of a rulebook is built once (every engine
and report reads ``Rulebook.graph``), and each ruling file — shipped or the team's — is read once."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import yaml

from ruleproof.model import rulebook as rulebook_module
from ruleproof.model.scenario import load as scenario_load
from ruleproof.orchestrate import run_check

ROOT = Path(__file__).resolve().parents[2]


def test_a_check_builds_each_graph_and_reads_each_ruling_once(monkeypatch, tmp_path):
    team = tmp_path / "team"
    team.mkdir()
    data = yaml.safe_load((ROOT / "rulings" / "540-kele-attacker.yaml").read_text("utf-8"))
    (team / "team-kele.yaml").write_text(yaml.safe_dump({**data, "id": "team-kele"}, allow_unicode=True), "utf-8")
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
    monkeypatch.setattr(scenario_load, "_READ", {})
    report = run_check(None, 0, engines=("rulings",), jobs=1, rulings=(str(team),))
    assert "team-kele" in {r.check for r in report.rulings}
    assert graphs and max(graphs.values()) == 1, graphs
    assert len(files) == len(scenario_load.shipped_rulings()) + 1 and max(files.values()) == 1, files
