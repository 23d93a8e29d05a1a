"""All report writers behind one interface, and writing them atomically.

A :class:`Writer` turns a :class:`~ruleproof.reports.bundle.Report` into files
(``render(report, lang, clause_text) -> {file name: text}``); the terminal writer writes no file
but prints (``show``).  :func:`write_reports` renders every requested format in memory first and
then writes all files through temporary files renamed into place together: an error in any writer,
a failed write or Ctrl-C leaves no report file half-written — and none of this run's files at all.

>>> parse_formats("md, html,json")
('md', 'html', 'json')
>>> sorted(WRITERS)
['html', 'itf', 'json', 'junit', 'md', 'term']
"""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from rich.console import Console

from ruleproof.ground.errors import Localized, Location, RuleproofError
from ruleproof.ground.fileio import atomic_path, no_interrupts

from . import html_report, itf, json_report, junit, markdown, terminal
from .bundle import ClauseText, Report, make_clause_text

__all__ = ["Writer", "WRITERS", "FORMATS", "parse_formats", "render_reports", "write_files", "write_reports"]

Render = Callable[[Report, str, ClauseText], dict[str, str]]
Show = Callable[[Console, Report, str, ClauseText], None]


@dataclass(frozen=True)
class Writer:
    name: str
    render: Render  # report, lang, clause_text -> {file name: content}
    files: str  # what it writes, for help texts
    show: Show | None = None  # (console, report, lang, clause_text): the terminal writer


def _no_files(report: Report, lang: str, clause_text: ClauseText) -> dict[str, str]:
    return {}


WRITERS: dict[str, Writer] = {
    "term": Writer("term", _no_files, "(terminal)", terminal.print_report),
    "md": Writer("md", markdown.render, markdown.FILENAME),
    "html": Writer("html", html_report.render, html_report.FILENAME),
    "json": Writer("json", json_report.render, json_report.FILENAME),
    "junit": Writer("junit", junit.render, junit.FILENAME),
    "itf": Writer("itf", itf.render, "<check>.itf.json (one per counterexample)"),
}
FORMATS = tuple(WRITERS)


def parse_formats(text: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """``"md,html"`` (or a list) → ``("md", "html")``; an unknown format is bad input (RP150)."""
    items = text.split(",") if isinstance(text, str) else [p for x in text for p in str(x).split(",")]
    names = tuple(dict.fromkeys(x.strip().lower() for x in items if x.strip()))
    unknown = [n for n in names if n not in WRITERS]
    if unknown or not names:
        listed = ", ".join(unknown)
        raise RuleproofError("RP150", None, problem=Localized(f"неизвестный формат отчёта: {listed or '(не задан)'}",
                                                              f"unknown report format {listed or '(none)'}"),
                             fix=Localized(f"перечислите через запятую: {', '.join(FORMATS)}",
                                           f"use a comma-separated list of: {', '.join(FORMATS)}"))
    return names


def render_reports(report: Report, formats, lang: str, clause_text: ClauseText | None = None) -> dict[str, str]:
    """Every file of every format, in memory: {file name: content}."""
    clause_text = clause_text or make_clause_text()
    files: dict[str, str] = {}
    for name in parse_formats(formats):
        files.update(WRITERS[name].render(report, lang, clause_text))
    return files


def write_files(files: dict[str, str], out_dir: str | Path) -> list[Path]:
    """Write ``files`` (name -> text) into the folder ``out_dir`` (created if missing), all or none:
    every file goes to a temporary file first, and all are renamed at the end."""
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise RuleproofError("RP150", Location(str(out)), problem=Localized(f"{out} — файл, а не папка",
                                                                            f"{out} is a file, not a folder"),
                             fix=Localized("укажите в --report папку (её создадут, если её нет)",
                                           "give --report a folder (it is created when missing)"))
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with no_interrupts(), ExitStack() as stack:
        for name, content in files.items():
            target = out / name
            tmp = stack.enter_context(atomic_path(target))
            tmp.write_bytes(content.encode("utf-8"))
            written.append(target)
    return written


def write_reports(report: Report, out_dir: str | Path, formats, lang: str, clause_text: ClauseText | None = None,
                  console=None) -> list[Path]:
    """Write the reports of ``formats`` into ``out_dir`` (created if missing) atomically; print the
    terminal report on ``console`` (default: stdout) when ``term`` is among them.  Returns the files."""
    clause_text = clause_text or make_clause_text()
    formats = parse_formats(formats)
    files = render_reports(report, [f for f in formats if f != "term"] or ["term"], lang, clause_text)
    written = write_files(files, out_dir) if files else []
    show = WRITERS["term"].show
    if "term" in formats and show is not None:  # the terminal writer shows (it has no files)
        show(console or Console(highlight=False, emoji=False), report, lang, clause_text)
    return written
