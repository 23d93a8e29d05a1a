"""The phase graph and its pictures: dot, Mermaid (rendered by the real Mermaid in Chromium when
available), SVG and PNG without any system binary."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ruleproof.cli import main
from ruleproof.model.draw import to_dot, to_image, to_mermaid
from ruleproof.model.graph import build_graph, operations_by_step, windows
from ruleproof.model.rulebook import load_rulebook

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def G():
    return build_graph(load_rulebook())


def test_graph_carries_clauses_operations_and_guards(G):
    assert list(G) == ["declaration", "claim_resolution", "dice", "calculation", "blocking", "effect",
                       "completion", "payment", "handover"]
    assert G.nodes["calculation"]["cites"][0] == "512.6.3"
    ops = [o["op"] for o in operations_by_step(G)["calculation"]]
    assert ops.index("check_source_legality") < ops.index("apply_magnitude_modifiers") < ops.index("finalize_magnitude")
    assert [w["allows"] for w in windows(G, "blocking")] == [["block"]]
    loop = [(u, v) for u, v, d in G.edges(data=True) if d["loop"]]
    assert loop == [("completion", "declaration")]
    assert G.edges["blocking", "completion"]["guard"] == "action_blocked"
    assert all(d["cites"] for _, _, d in G.edges(data=True))


def test_dot_lists_every_step_and_edge(G):
    text = to_dot(G, "en", highlight=["dice", "calculation", "completion"])
    assert text.startswith('digraph "berserk-rp-4.1-2" {')
    for n in G:
        assert f'"{n}" [label=' in text
    assert text.count(" -> ") == G.number_of_edges()
    assert '"calculation" -> "completion" [label="the game action is illegal\\n512.6.3/b3", color=' in text
    assert '"completion" -> "declaration" [label="a compound feature\'s next part can be declared\\n512.6.6/b4", style=dashed]' in text
    if shutil.which("dot"):
        subprocess.run(["dot", "-Tsvg"], input=text, text=True, check=True, capture_output=True)


def test_mermaid_is_well_formed(G):
    for lang in ("ru", "en"):
        lines = to_mermaid(G, lang).splitlines()
        assert lines[0] == "flowchart TD"
        nodes = [ln for ln in lines if re.fullmatch(r'  [A-Za-z0-9_]+\["[^"]*"\]', ln)]
        edges = [ln for ln in lines if re.fullmatch(r'  [A-Za-z0-9_]+ (-->|-\.->)(\|"[^"]*"\|)? [A-Za-z0-9_]+', ln)]
        assert len(nodes) == G.number_of_nodes() and len(edges) == G.number_of_edges()
        assert len(lines) == 1 + len(nodes) + len(edges)
    assert "Шаг расчёта" in to_mermaid(G, "ru") and "игродействие нелегально" in to_mermaid(G, "ru")


def test_highlighted_path_in_mermaid(G):
    text = to_mermaid(G, "en", highlight=["calculation", "completion"])
    assert "style calculation fill:#ffe08a" in text and re.search(r"linkStyle \d+ stroke:#d62728", text)


def test_svg_is_readable_text_and_deterministic(G, tmp_path):
    a, b = tmp_path / "a.svg", tmp_path / "b.svg"
    to_image(G, a, "ru")
    to_image(G, b, "ru")
    assert a.read_bytes() == b.read_bytes()
    root = ET.parse(a).getroot()
    texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    for name in ("Объявление", "Шаг расчёта", "Этап оплаты", "512.6.3/b3", "действие заблокировано"):
        assert name in texts


def test_png_via_cli(tmp_path, capsys):
    out = tmp_path / "g.png"
    assert main(["graph", "--format", "png", "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert width >= 1000 and height >= 1000
    assert oct(out.stat().st_mode & 0o777) != "0o600"


def test_graph_cli_text_formats_and_errors(tmp_path, capsys):
    assert main(["graph", "--format", "mermaid"]) == 0
    assert capsys.readouterr().out.startswith("flowchart TD")
    assert main(["graph", "--format", "dot", "-o", str(tmp_path / "g.dot")]) == 0
    assert (tmp_path / "g.dot").read_text("utf-8").startswith("digraph")
    assert main(["graph", "--format", "svg", "-o", str(tmp_path / "g.png")]) == 2
    assert "RP150" in capsys.readouterr().err
    assert main(["graph", "--format", "svg", "-o", str(tmp_path / "missing" / "g.svg")]) == 2
    err = capsys.readouterr().err
    assert "does not exist" in err and "Traceback" not in err
    assert not list(tmp_path.glob(".*"))  # no temporary file left behind


def _mermaid_js() -> Path | None:
    for candidate in (os.environ.get("RULEPROOF_MERMAID_JS"),
                      ROOT / ".ci" / "cache" / "node_modules" / "mermaid" / "dist" / "mermaid.min.js"):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_mermaid_renders_in_a_browser(G, tmp_path, lang):
    """Parse and render with the real Mermaid library in headless Chromium (.ci/run installs both)."""
    chromium, js = shutil.which("chromium"), _mermaid_js()
    if not chromium or not js:
        pytest.skip("needs chromium and the mermaid npm package (.ci/run installs them)")
    page = tmp_path / "page.html"
    page.write_text(f"""<!doctype html><html><head><meta charset="utf-8"><title>PENDING</title>
<script src="{js.as_uri()}"></script></head><body><div id="out"></div><script>
(async () => {{
  try {{
    mermaid.initialize({{startOnLoad: false, securityLevel: 'strict'}});
    await mermaid.parse({json.dumps(to_mermaid(G, lang))});
    const r = await mermaid.render('g', {json.dumps(to_mermaid(G, lang))});
    document.getElementById('out').innerHTML = r.svg;
    const s = document.querySelector('#out svg');
    document.title = 'RENDER_OK nodes=' + s.querySelectorAll('g.node').length
                   + ' labels=' + s.querySelectorAll('g.edgeLabel').length;
  }} catch (e) {{ document.title = 'ERROR ' + (e && e.message || e); }}
}})();
</script></body></html>""", encoding="utf-8")
    proc = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                           "--no-first-run", "--disable-background-networking", "--disable-component-update",
                           "--disable-sync", "--allow-file-access-from-files", "--virtual-time-budget=15000",
                           f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri()],
                          capture_output=True, text=True, timeout=120)
    title = re.search(r"<title>([^<]*)</title>", proc.stdout)
    assert title, proc.stderr[-2000:]
    assert title.group(1) == f"RENDER_OK nodes={G.number_of_nodes()} labels={G.number_of_edges()}"
