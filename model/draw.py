"""Draw the phase graph: Graphviz dot, Mermaid, or SVG/PNG (matplotlib, no system binary needed).

``highlight`` (a list of step ids) marks a path, e.g. a counterexample's.

>>> from ruleproof.model.rulebook import load_rulebook
>>> from ruleproof.model.graph import build_graph
>>> text = to_mermaid(build_graph(load_rulebook()), "en")
>>> text.splitlines()[0], 'calculation -->|"the game action is illegal<br/>512.6.3/b3"| completion' in text
('flowchart TD', True)
"""

from __future__ import annotations

from pathlib import Path

import networkx as nx

from .vocabulary import GUARDS, parse_guard

__all__ = ["to_dot", "to_mermaid", "to_image", "FORMATS"]

FORMATS = ("dot", "mermaid", "svg", "png")


def _label(G: nx.DiGraph, n: str, lang: str) -> tuple[str, str]:
    node = G.nodes[n]
    return node["name"][lang], " ".join(node["cites"][:2])


def _edge_label(d: dict, lang: str = "en", sep: str = " · ") -> str:
    """The guard in words of ``lang`` (none for 'always') and the first clause the edge cites."""
    guard = parse_guard(d["guard"])
    words = ""
    if guard is not None and guard.name != "always":
        kind = GUARDS[guard.name]
        words = getattr(kind, lang) + (f" {guard.arg}" if guard.arg else "")
        if guard.negated:
            words = ("не: " if lang == "ru" else "not: ") + words
    cites = " ".join(d["cites"][:1])
    return sep.join(p for p in (words, cites) if p)


def _ordered_edges(G: nx.DiGraph) -> list[tuple[str, str, dict]]:
    return sorted(G.edges(data=True), key=lambda e: (list(G).index(e[0]), e[2]["order"]))


def to_dot(G: nx.DiGraph, lang: str = "en", highlight: list[str] | None = None) -> str:
    """Graphviz source: one box per step (name, clauses), guards on the edges."""
    hl = set(zip(highlight or [], (highlight or [])[1:]))
    q = lambda s: s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")  # noqa: E731
    lines = [f'digraph "{q(G.graph.get("rulebook", "rulebook"))}" {{', "  rankdir=TB;",
             '  node [shape=box, style="rounded,filled", fillcolor="#eef3fb", fontname="DejaVu Sans"];',
             '  edge [fontname="DejaVu Sans", fontsize=10];']
    for n in G:
        name, cites = _label(G, n, lang)
        extra = ', fillcolor="#ffe08a", penwidth=2' if n in (highlight or []) else ""
        lines.append(f'  "{q(n)}" [label="{q(name)}\\n{q(cites)}"{extra}];')
    for u, v, d in _ordered_edges(G):
        attrs = [f'label="{q(_edge_label(d, lang, chr(10)))}"']
        if d["loop"]:
            attrs.append("style=dashed")
        if (u, v) in hl:
            attrs.append('color="#d62728", penwidth=2.5')
        lines.append(f'  "{q(u)}" -> "{q(v)}" [{", ".join(attrs)}];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def to_mermaid(G: nx.DiGraph, lang: str = "en", highlight: list[str] | None = None) -> str:
    """Mermaid flowchart source (renders on GitHub, GitLab and in the Mermaid live editor)."""
    hl = set(zip(highlight or [], (highlight or [])[1:]))
    q = lambda s: s.replace('"', "#quot;")  # noqa: E731
    ids = {n: "".join(c if c.isalnum() or c == "_" else "_" for c in n) for n in G}
    lines = ["flowchart TD"]
    for n in G:
        name, cites = _label(G, n, lang)
        lines.append(f'  {ids[n]}["{q(name)}<br/>{q(cites)}"]')
    link_styles = []
    for i, (u, v, d) in enumerate(_ordered_edges(G)):
        arrow = "-.->" if d["loop"] else "-->"
        label = _edge_label(d, lang, "<br/>")
        lines.append(f'  {ids[u]} {arrow}|"{q(label)}"| {ids[v]}' if label else f"  {ids[u]} {arrow} {ids[v]}")
        if (u, v) in hl:
            link_styles.append(f"  linkStyle {i} stroke:#d62728,stroke-width:3px")
    for n in highlight or []:
        if n in ids:
            lines.append(f"  style {ids[n]} fill:#ffe08a,stroke:#d62728,stroke-width:2px")
    return "\n".join(lines + link_styles) + "\n"


def to_image(G: nx.DiGraph, path: str | Path, lang: str = "en", highlight: list[str] | None = None) -> Path:
    """Draw the graph to ``path`` (.svg or .png) with matplotlib; steps top to bottom by rank."""
    import matplotlib  # matplotlib is slow to import: only when it is used

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # matplotlib is slow to import: only when it is used
    from matplotlib.patches import FancyBboxPatch  # matplotlib is slow to import: only when it is used

    path = Path(path)
    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "ruleproof",
                         "font.family": ["DejaVu Sans", "sans-serif"]}):
        _draw(G, path, highlight, lang, plt, FancyBboxPatch)
    return path


#: the size of a step's box
_BOX = (4.4, 0.9)


def _draw(G: nx.DiGraph, path: Path, highlight: list[str] | None, lang: str, plt, FancyBboxPatch) -> None:
    hl_nodes = set(highlight or [])
    hl_edges = set(zip(highlight or [], (highlight or [])[1:]))
    ranks = sorted({G.nodes[n]["rank"] for n in G})
    layer = {r: [n for n in G if G.nodes[n]["rank"] == r] for r in ranks}
    pos: dict[str, tuple[float, float]] = {}
    for row, r in enumerate(ranks):
        for col, n in enumerate(layer[r]):
            pos[n] = (col * 5.4 - (len(layer[r]) - 1) * 2.7, -row * 1.6)
    width, height = _BOX
    fig, ax = plt.subplots(figsize=(12, 1.0 * len(ranks) + 1.2))
    ax.set_axis_off()
    ax.set_aspect("equal")
    for n, (x, y) in pos.items():
        _draw_step(ax, G, n, x, y, n in hl_nodes, lang, FancyBboxPatch)
    side = 1
    for u, v, d in _ordered_edges(G):
        adjacent = abs(ranks.index(G.nodes[u]["rank"]) - ranks.index(G.nodes[v]["rank"])) == 1
        side = _draw_edge(ax, pos[u], pos[v], d, adjacent, (u, v) in hl_edges, side, lang)
    xs = [p[0] for p in pos.values()]
    ys = [p[1] for p in pos.values()]
    ax.set_xlim(min(xs) - width / 2 - 4.8, max(xs) + width / 2 + 4.8)
    ax.set_ylim(min(ys) - 0.8, max(ys) + 0.9)
    ax.set_title(f"{G.graph.get('rulebook', '')}", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, format=path.suffix.lstrip(".") or "svg", dpi=130, metadata=_metadata(path))
    plt.close(fig)


def _draw_step(ax, G: nx.DiGraph, n: str, x: float, y: float, hl: bool, lang: str, FancyBboxPatch) -> None:
    """A step's box: its name, its id and first citations (on the path: highlighted)."""
    width, height = _BOX
    name, cites = _label(G, n, lang)
    ax.add_patch(FancyBboxPatch((x - width / 2, y - height / 2), width, height,
                                boxstyle="round,pad=0.02,rounding_size=0.15",
                                fc="#ffe08a" if hl else "#eef3fb", ec="#d62728" if hl else "#4a6fa5",
                                lw=2 if hl else 1.2))
    ax.text(x, y + 0.13, name, ha="center", va="center", fontsize=10, weight="bold")
    ax.text(x, y - 0.2, f"{n} · {cites}", ha="center", va="center", fontsize=7.5, color="#333")


def _draw_edge(ax, p1: tuple, p2: tuple, d: dict, adjacent: bool, hl: bool, side: int, lang: str) -> int:
    """An edge and its guard: straight to the next row, the compound-feature loop far right, a skip edge on
    alternate sides of the column; returns the side the next skip edge takes."""
    width, height = _BOX
    (x1, y1), (x2, y2) = p1, p2
    if adjacent and not d["loop"]:
        start, end, style = (x1, y1 - height / 2), (x2, y2 + height / 2), "arc3,rad=0"
        lx, ly, ha = (x1 + x2) / 2 + 0.08, (y1 + y2) / 2, "left"
    elif d["loop"]:  # the compound-feature return: far right, entering the boxes off-centre
        start, end = (x1 + width / 2, y1 - 0.3), (x2 + width / 2, y2 - 0.25)
        style = "arc3,rad=0.45" if y2 > y1 else "arc3,rad=-0.45"
        lx, ly, ha = x1 + width / 2 + 0.2 + 0.24 * abs(y2 - y1), (y1 + y2) / 2, "left"
    else:  # skip edges alternate left and right of the column
        sgn, side = -side, -side
        start, end = (x1 + sgn * width / 2, y1 - 0.15), (x2 + sgn * width / 2, y2 + 0.15)
        style = f"arc3,rad={-0.4 * sgn if y2 < y1 else 0.4 * sgn}"  # bulge away from the column
        reach = width / 2 + 0.1 + 0.2 * abs(y2 - y1)
        lx, ly, ha = x1 + sgn * reach, (y1 + y2) / 2, "left" if sgn > 0 else "right"
    color = "#d62728" if hl else ("#555" if d["loop"] else "#222")
    ax.annotate("", xy=end, xytext=start,
                arrowprops=dict(arrowstyle="-|>", color=color, lw=2.2 if hl else 1.1,
                                linestyle="--" if d["loop"] else "-", connectionstyle=style, shrinkA=2, shrinkB=2))
    label = _edge_label(d, lang, "\n")
    if label:
        ax.text(lx, ly, label, fontsize=8, ha=ha, va="center", color=color,
                bbox=dict(fc="white", ec="none", alpha=0.85, pad=0.5))
    return side


def _metadata(path: Path) -> dict:
    """Deterministic output: no creation date or software version in the file."""
    if path.suffix == ".svg":
        return {"Date": None, "Creator": "ruleproof"}
    return {"Software": "ruleproof"}
