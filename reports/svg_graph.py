"""The phase graph as inline SVG for the HTML report: no external resources, deterministic output.

Steps are boxes, top to bottom by rank; a path (the steps a counterexample visited) is marked: its
steps and edges get the CSS class ``on-path`` and ``data-path-index`` (the positions in the path),
so a reader sees it in colour and a test can find it.

>>> g = {"start": "a", "nodes": [{"id": "a", "name": {"en": "A", "ru": "А"}, "rank": 0, "cites": ["1"]},
...      {"id": "b", "name": {"en": "B", "ru": "Б"}, "rank": 1, "cites": []}],
...      "edges": [{"from": "a", "to": "b", "loop": False, "label": {"en": "", "ru": ""}}]}
>>> svg = graph_svg(g, "ru", path=["a", "b"])
>>> svg.count('class="rp-step on-path"'), 'data-from="a" data-to="b"' in svg
(2, True)
"""

from __future__ import annotations

from html import escape

__all__ = ["graph_svg"]

W, H, GAP, MARGIN = 250, 50, 84, 360


def _q(s) -> str:
    return escape(str(s), quote=True)


def graph_svg(graph: dict, lang: str, path: list[str] | None = None, title: str = "", uid: str = "",
              detail: bool = False) -> str:
    """``uid`` makes the marker ids unique when a page holds several graphs; ``detail``: each step lists its
    operations and windows (a step's ``ops`` in the graph data), those a draft changed marked ✎.  The picture's
    box holds every label (its left edge moves left for a label that would stick out)."""
    path = list(path or [])
    arrows = (f"rp-arrow-{_q(uid)}", f"rp-arrow-hl-{_q(uid)}") if uid else ("rp-arrow", "rp-arrow-hl")
    half = {n["id"]: (H + (LINE * len(n.get("ops", ())) + 6 if detail and n.get("ops") else 0)) / 2
            for n in graph["nodes"]}
    pos, row_of, width, height = _layout(graph, half)
    on_steps = {s: [i for i, p in enumerate(path) if p == s] for s in set(path)}
    pairs = list(zip(path, path[1:]))
    on_edges = {pair: [i for i, p in enumerate(pairs) if p == pair] for pair in set(pairs)}
    arrow, arrow_hl = arrows
    body: list[str] = []
    if title:
        body.append(f"<title>{_q(title)}</title>")
    side, extents = 1, [0.0, width]
    for e in graph["edges"]:
        side = _edge(body, e, pos, row_of, on_edges, side, arrows, lang, half, extents)
    for n in graph["nodes"]:
        body.append(_node(n, pos, on_steps, lang, half[n["id"]], detail))
    x0, x1 = min(0.0, extents[0] - 8), max(width, extents[1] + 8)
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="rp-graph" viewBox="{x0:.0f} 0 {x1 - x0:.0f} {height:.0f}" '
            f'width="{x1 - x0:.0f}" height="{height:.0f}" role="img" aria-label="{_q(title)}">'
            "<defs>"
            f'<marker id="{arrow}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="9" markerHeight="9" '
            'markerUnits="userSpaceOnUse" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#333"/></marker>'
            f'<marker id="{arrow_hl}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="11" markerHeight="11" '
            'markerUnits="userSpaceOnUse" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#d62728"/></marker>'
            "</defs>")
    return "".join([head, *body, "</svg>"])


#: a line of text inside a detailed step (px), and how wide a character of an edge label is taken to be
LINE, CHAR = 13, 6.3


def _layout(graph: dict, half: dict) -> tuple[dict, dict, float, float]:
    """(each step's centre, each step's row, the width, the height): the steps by rank, one row per rank, each
    row as tall as its tallest step."""
    ranks = sorted({n["rank"] for n in graph["nodes"]})
    layer = {r: [n for n in graph["nodes"] if n["rank"] == r] for r in ranks}
    widest = max(len(v) for v in layer.values())
    width = MARGIN * 2 + widest * W + (widest - 1) * 40
    cx = width / 2
    pos = {}
    y = 40.0
    for r in ranks:
        tall = max(half[n["id"]] for n in layer[r])
        for i, n in enumerate(layer[r]):
            pos[n["id"]] = (cx + (i - (len(layer[r]) - 1) / 2) * (W + 40), y + tall)
        y += 2 * tall + (GAP - H)
    row_of = {n["id"]: ranks.index(n["rank"]) for n in graph["nodes"]}
    return pos, row_of, width, y + 10


def _edge(out: list[str], e: dict, pos: dict, row_of: dict, on_edges: dict, side: int, arrows: tuple, lang: str,
          half: dict, extents: list[float]) -> int:
    """One edge (a straight line to the next row, else a curve on alternate sides; a loop dashed) and its label,
    appended to ``out``; ``extents`` (left, right) grows to hold the label; returns the side the next curve takes."""
    arrow, arrow_hl = arrows
    u, v = e["from"], e["to"]
    (x1, y1), (x2, y2) = pos[u], pos[v]
    hl = (u, v) in on_edges
    span = abs(row_of[v] - row_of[u])
    if span == 1 and not e["loop"] and x1 == x2:
        d = f"M{x1:.0f},{y1 + half[u]:.0f} L{x2:.0f},{y2 - half[v] - 2:.0f}"
        lx, ly, anchor = x1 + 8, (y1 + half[u] + y2 - half[v]) / 2 + 4, "start"
    else:
        sgn = 1 if e["loop"] else -side
        if not e["loop"]:
            side = -side
        bulge = W / 2 + 30 + 18 * span
        sx, ex = x1 + sgn * W / 2, x2 + sgn * W / 2
        d = (f"M{sx:.0f},{y1:.0f} C{x1 + sgn * bulge:.0f},{y1:.0f} {x2 + sgn * bulge:.0f},{y2:.0f} "
             f"{ex + sgn * 2:.0f},{y2:.0f}")
        lx, ly, anchor = x1 + sgn * (W / 2 + 8 + 13.5 * span), (y1 + y2) / 2 + 4, "start" if sgn > 0 else "end"
    cls = "rp-edge on-path" if hl else "rp-edge"
    data = f' data-path-index="{" ".join(map(str, on_edges[(u, v)]))}"' if hl else ""
    dash = ' stroke-dasharray="6 4"' if e["loop"] else ""
    out.append(f'<g class="{cls}" data-from="{_q(u)}" data-to="{_q(v)}"{data}>'
               f'<path d="{d}" fill="none" stroke="{"#d62728" if hl else "#333"}" '
               f'stroke-width="{2.6 if hl else 1.2}"{dash} '
               f'marker-end="url(#{arrow_hl if hl else arrow})"/>')
    label = e.get("label", {}).get(lang, "")
    if label:
        wide = CHAR * len(label)
        extents[0] = min(extents[0], lx - wide if anchor == "end" else lx)
        extents[1] = max(extents[1], lx + wide if anchor == "start" else lx)
        out.append(f'<text x="{lx:.0f}" y="{ly:.0f}" text-anchor="{anchor}" font-size="10.5" '
                   f'fill="{"#d62728" if hl else "#444"}">{_q(label)}</text>')
    out.append("</g>")
    return side


def _node(n: dict, pos: dict, on_steps: dict, lang: str, half: float, detail: bool) -> str:
    """One step: a box with its name, id and first citations; with ``detail``, a line per operation (✎: a draft
    changed it)."""
    x, y = pos[n["id"]]
    hl = n["id"] in on_steps
    ops = n.get("ops", ()) if detail else ()
    changed = any(o.get("changed") for o in ops)
    cls = "rp-step on-path" if hl else "rp-step"
    cls += " rp-changed" if changed else ""
    data = f' data-path-index="{" ".join(map(str, on_steps[n["id"]]))}"' if hl else ""
    top = y - half
    out = [f'<g class="{cls}" data-step="{_q(n["id"])}"{data}>'
           f'<rect x="{x - W / 2:.0f}" y="{top:.0f}" width="{W}" height="{2 * half:.0f}" rx="9" '
           f'fill="{"#ffe08a" if hl else "#eef3fb"}" stroke="{"#d62728" if hl else "#e8590c" if changed else "#4a6fa5"}" '
           f'stroke-width="{2.4 if hl or changed else 1.2}"/>'
           f'<text x="{x:.0f}" y="{top + H / 2 - 4:.0f}" text-anchor="middle" font-size="13" font-weight="bold">'
           f'{_q(n["name"].get(lang, n["id"]))}</text>'
           f'<text x="{x:.0f}" y="{top + H / 2 + 14:.0f}" text-anchor="middle" font-size="10.5" fill="#333">'
           f'{_q(n["id"])} · {_q(" ".join(n.get("cites", [])[:2]))}</text>']
    for k, o in enumerate(ops):
        ch = bool(o.get("changed"))
        style = ' class="rp-op rp-op-changed" fill="#e8590c" font-weight="bold"' if ch else ' class="rp-op" fill="#333"'
        out.append(f'<text{style} data-op="{_q(o["op"])}" x="{x - W / 2 + 10:.0f}" y="{top + H + 4 + LINE * k:.0f}" '
                   f'font-size="10">{_q(("✎ " if ch else "") + o["label"].get(lang, o["op"]))}</text>')
    out.append("</g>")
    return "".join(out)
