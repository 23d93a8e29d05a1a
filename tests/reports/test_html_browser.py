"""The HTML report in a real browser: headless Chromium (Debian's ``chromium``; ``.ci/run`` installs
it when missing) opens the report of the mutant M4, whose action-marker property a short Hypothesis
run violates (and the report of the rulings M4 fails), takes screenshots and dumps the rendered page;
the tests find the violated property, the trace table with the offending event highlighted, the
highlighted path in the phase graph and Russian text rendered; and, measured by the browser at
1280×800, the findings above the fold with the offending event, no horizontal overflow, unique ids
and no console message.  Skipped when Chromium is absent."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from ruleproof.reports.writers import write_reports

M4_PROP = "P540.3-action-marker"
GRAPH_RED = (0xD6, 0x27, 0x28)  # the colour of a highlighted edge/box outline in the phase graph
BAD = (0xC6, 0x28, 0x28)  # --bad: a finding's left border, its verdict and its offending event
SCREEN = (1280, 800)

#: injected into a copy of the page (the report itself has no script): what the browser laid out
PROBE = """<script>
(function () {
  var box = function (sel) { var e = document.querySelector(sel); return e ? e.getBoundingClientRect() : null; };
  var d = document.documentElement, over = [];
  document.querySelectorAll("table.rp-trace").forEach(function (tb) {
    var card = tb.closest("article").getBoundingClientRect(), r = tb.getBoundingClientRect();
    if (r.right > card.right + 1) over.push(tb.closest("article").id);
  });
  var f = box("#findings"), o = box(".rp-offending-line");
  document.body.setAttribute("data-probe", JSON.stringify({
    findings_top: f ? f.top : null, offending_bottom: o ? o.bottom : null,
    scroll_width: d.scrollWidth, width: window.innerWidth, height: window.innerHeight, overflowing: over,
    ids: [].map.call(document.querySelectorAll("[id]"), function (e) { return e.id; })}));
})();
</script></body>"""


def _chromium(tmp_path: Path, page: Path, *args: str) -> subprocess.CompletedProcess:
    chromium = shutil.which("chromium")
    if not chromium:
        pytest.skip("needs chromium (.ci/run installs it)")
    return subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                           "--disable-background-networking", "--disable-component-update", "--disable-sync",
                           "--hide-scrollbars", f"--user-data-dir={tmp_path / 'profile'}", *args, page.as_uri()],
                          capture_output=True, text=True, timeout=180)


@pytest.fixture(scope="module")
def page(m4_report, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("html")
    write_reports(m4_report, out, "html", "ru")
    return out / "report.html"


@pytest.fixture(scope="module")
def rulings_page(m4_rulings_report, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("html-rulings")
    assert m4_rulings_report.findings and all(f.highlight for f in m4_rulings_report.findings)
    write_reports(m4_rulings_report, out, "html", "ru")
    return out / "report.html"


def _probe(tmp_path: Path, page: Path) -> tuple[dict, str]:
    copy = tmp_path / "probe.html"
    copy.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE), encoding="utf-8")
    proc = _chromium(tmp_path, copy, f"--window-size={SCREEN[0]},{SCREEN[1]}", "--enable-logging=stderr", "--v=0",
                     "--dump-dom")
    found = re.search(r'data-probe="([^"]*)"', proc.stdout)
    assert found, proc.stderr[-2000:]
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&")), proc.stderr


@pytest.mark.parametrize("which", ["page", "rulings_page"])
def test_findings_first_and_nothing_overflows(which, request, tmp_path):
    """At 1280×800 the first screen shows the findings and the first offending event; the page
    does not scroll sideways, no trace table leaves its card, ids are unique, the console is quiet."""
    probe, log = _probe(tmp_path, request.getfixturevalue(which))
    assert probe["width"] == SCREEN[0]
    assert probe["findings_top"] < probe["height"] * 0.4, probe
    assert 0 < probe["offending_bottom"] <= probe["height"], probe  # the ▶ line is above the fold
    assert probe["scroll_width"] <= probe["width"], probe
    assert probe["overflowing"] == [], probe
    ids = probe["ids"]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert ":CONSOLE" not in log, [line for line in log.splitlines() if ":CONSOLE" in line]


def test_first_screen_shows_the_finding(rulings_page, tmp_path):
    """A Russian screenshot of the first screen: the finding's card (its red left border, from the
    findings heading down) and its offending event marked ▶ in the trace further down."""
    Image = pytest.importorskip("PIL.Image")
    import numpy as np

    shot = tmp_path / "first.png"
    proc = _chromium(tmp_path, rulings_page, f"--window-size={SCREEN[0]},{SCREEN[1]}", f"--screenshot={shot}")
    assert shot.is_file(), proc.stderr[-2000:]
    px = np.asarray(Image.open(shot).convert("RGB")).astype(int)
    assert px.shape == (SCREEN[1], SCREEN[0], 3)
    bad = (np.abs(px - np.array(BAD)).max(axis=2) <= 12)
    columns = bad.sum(axis=0)
    assert columns.max() > 250, "no finding card (its red border) on the first screen"
    html = rulings_page.read_text(encoding="utf-8")
    first = re.search(r'<article class="rp-finding" id="finding-1".*?</article>', html, re.S).group(0)
    assert re.search(r'<dd class="rp-offending-line">▶ \d+ · ', first)
    assert re.search(r'<tr class="rp-offending" data-seq="\d+"[^>]*><td>▶ \d+</td>', first)


def test_rendered_dom_has_the_key_elements(page, m4_report, tmp_path):
    proc = _chromium(tmp_path, page, "--dump-dom")
    dom = proc.stdout
    assert "<h1" in dom, proc.stderr[-2000:]
    # the Russian heading, as the browser decoded it
    assert re.search(r'<h1 id="rp-title">Отчёт ruleproof: Проект правил: Расширенные правила «Берсерк»', dom)
    assert "<h2>Находки</h2>" in dom and "<h2>Граф фаз</h2>" in dom and "<h2>Покрытие пунктов</h2>" in dom
    # the violated property
    (f,) = m4_report.findings
    article = re.search(rf'<article class="rp-finding" id="finding-1" data-check="{re.escape(M4_PROP)}"'
                        r'.*?</article>', dom, re.S)
    assert article, "no finding for the violated property"
    assert "нарушено" in article.group(0) and "540.3" in article.group(0)
    # the trace table, the offending event highlighted
    table = re.search(r'<table class="rp-trace">.*?</table>', article.group(0), re.S).group(0)
    rows = re.findall(r'<tr[^>]*data-seq="(\d+)"', table)
    assert len(rows) > 10
    offending = [int(s) for s in re.findall(r'<tr class="rp-offending" data-seq="(\d+)"', table)]
    assert offending == list(f.highlight)
    # the highlighted path in the phase graph
    figure = re.search(rf'<figure class="rp-path"[^>]*data-check="{re.escape(M4_PROP)}".*?</figure>', dom, re.S)
    assert figure, "no phase graph for the counterexample"
    steps = re.findall(r'<g class="rp-step on-path" data-step="([^"]+)" data-path-index="([\d ]+)"', figure.group(0))
    by_index = sorted((int(i), s) for s, idx in steps for i in idx.split())
    assert [s for _, s in by_index] == f.path and f.path[-2:] == ["payment", "handover"]
    assert len(re.findall(r'<g class="rp-edge on-path"', figure.group(0))) == len(set(zip(f.path, f.path[1:])))
    plain = set(re.findall(r'<g class="rp-step" data-step="([^"]+)"', figure.group(0)))
    assert plain == {n["id"] for n in m4_report.graph["nodes"]} - set(f.path)  # unvisited steps stay plain


def test_screenshot_shows_text_and_the_highlighted_path(page, tmp_path):
    Image = pytest.importorskip("PIL.Image")
    import numpy as np

    shot = tmp_path / "report.png"
    proc = _chromium(tmp_path, page, "--window-size=1300,9000", f"--screenshot={shot}")
    assert shot.is_file(), proc.stderr[-2000:]
    px = np.asarray(Image.open(shot).convert("RGB")).astype(int)
    assert px.shape == (9000, 1300, 3)
    dark = int((px[:140].sum(axis=2) < 200).sum())
    assert dark > 2000, "the heading is not drawn"  # the Cyrillic heading is drawn: not a blank page
    assert len(np.unique(px[:2000].reshape(-1, 3), axis=0)) > 50  # text, tables, colours
    reds = int((np.abs(px - np.array(GRAPH_RED)).max(axis=2) <= 12).sum())
    assert reds > 1500, "the counterexample's path is not drawn highlighted"


def test_cyrillic_font_available():
    """Cyrillic renders as glyphs only if a font has them (the screenshot test relies on it)."""
    fc = shutil.which("fc-list")
    if not fc or not shutil.which("chromium"):
        pytest.skip("needs fontconfig and chromium")
    fonts = subprocess.run([fc, ":lang=ru", "family"], capture_output=True, text=True).stdout
    assert fonts.strip(), "no font with Cyrillic: the browser would draw empty boxes"


#: the phase graph and the tables as the browser laid them out: each graph's text outside its picture, the
#: operations listed in the steps (✎: changed by the draft), how a table cell may break its words
GRAPH_PROBE = """<script>
(function () {
  var outside = [];
  document.querySelectorAll("svg.rp-graph").forEach(function (svg) {
    var vb = svg.viewBox.baseVal;
    svg.querySelectorAll("text").forEach(function (t) {
      var b = t.getBBox();
      if (b.x < vb.x - 1 || b.y < vb.y - 1 || b.x + b.width > vb.x + vb.width + 1 || b.y + b.height > vb.y + vb.height + 1)
        outside.push(t.textContent);
    });
  });
  var td = document.querySelector("td");
  document.body.setAttribute("data-probe", JSON.stringify({
    outside: outside, ops: document.querySelectorAll("svg.rp-graph text.rp-op").length,
    changed: [].map.call(document.querySelectorAll("svg.rp-graph text.rp-op-changed"), function (t) { return t.textContent; }),
    wrap: td ? getComputedStyle(td).overflowWrap : null}));
})();
</script></body>"""


def test_the_graph_holds_its_labels_and_shows_a_drafts_change(tmp_path):
    """In Chromium: no label of any phase graph lies outside its picture; the report's graph lists each step's
    operations and windows, the one the draft changed marked ✎; table cells break no word in the middle."""
    from ruleproof.orchestrate import run_check
    from ruleproof.reports.bundle import report_from_check

    draft = Path(__file__).resolve().parents[2] / "rulebooks" / "drafts" / "marker-only-when-paid.yaml"
    report = report_from_check(run_check(draft, engines=("structure", "rulings")), lang="ru")
    write_reports(report, tmp_path / "out", "html", "ru")
    copy = tmp_path / "graph.html"
    copy.write_text((tmp_path / "out" / "report.html").read_text("utf-8").replace("</body>", GRAPH_PROBE), "utf-8")
    proc = _chromium(tmp_path, copy, "--window-size=1280,800", "--dump-dom")
    found = re.search(r'data-probe="([^"]*)"', proc.stdout)
    assert found, proc.stderr[-2000:]
    probe = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    assert probe["outside"] == [], probe["outside"]
    assert probe["ops"] >= 27 and probe["changed"] == ["✎ give_action_marker [not resource_modified]"]
    assert probe["wrap"] == "break-word"
