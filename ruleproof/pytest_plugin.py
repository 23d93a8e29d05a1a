"""Rulings as a pytest suite: every ruling scenario file is a test item (registered as the ``pytest11``
entry point ``ruleproof``, so installing ruleproof is enough).

What is collected: every ``*.yaml``/``*.yml`` file under a folder named ``rulings`` (a malformed one
is a collection error with file:line, not a silent skip), and any other YAML file whose top-level
``format:`` line says ``ruleproof-scenario/1`` (only the first lines are read to tell).  Never
collected: other YAML (rulebooks, CI files), and files under a ``data`` folder inside a ``tests``
folder (test fixtures), nor what the ``ruleproof_exclude`` ini patterns match.

``--rulebook PATH`` (or the ``ruleproof_rulebook`` ini value, relative to the ini file) runs the
rulings against a draft instead of the bundled rulebook.  A failure shows the ruling, the clauses,
each expectation with what was expected and what happened, the trace as a plain-text table and the
command that replays it.  ``RULEPROOF_LANG=ru`` gives the Russian texts.

>>> looks_like_scenario("format: ruleproof-scenario/1\\nid: x\\n")
True
>>> looks_like_scenario("format: ruleproof-rulebook/1\\n"), looks_like_scenario("  format: ruleproof-scenario/1")
(False, False)
"""

from __future__ import annotations

import fnmatch
import io
import re
from pathlib import Path

import pytest

__all__ = ["looks_like_scenario", "ScenarioFile", "ScenarioItem", "ScenarioFailed", "HEAD_BYTES"]

HEAD_BYTES = 8192  # how much of a YAML file is read to tell a scenario
_FORMAT_LINE = re.compile(r"""^format:\s*["']?ruleproof-scenario/1["']?\s*(#.*)?$""", re.M)
_KEY = pytest.StashKey[dict]()


def looks_like_scenario(head: str) -> bool:
    """Whether a YAML text's top level says ``format: ruleproof-scenario/1``."""
    return bool(_FORMAT_LINE.search(head))


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("ruleproof", "ruleproof rulings")
    group.addoption("--rulebook", dest="ruleproof_rulebook", default=None, metavar="PATH",
                    help="run the ruling scenarios against this rulebook (a draft) instead of the bundled one")
    parser.addini("ruleproof_rulebook", "rulebook the ruling scenarios run against (default: the bundled one)",
                  default="")
    parser.addini("ruleproof_exclude", "glob patterns (relative to the rootdir) of YAML files never collected as "
                  "rulings", type="linelist", default=[])


def _lang() -> str:
    from ruleproof.ground.i18n import default_lang  # start-up: pytest loads this plugin in every run

    return default_lang()


def _rulebook_arg(config: pytest.Config) -> str | None:
    arg = config.getoption("ruleproof_rulebook", None)
    if arg:
        return arg
    ini = config.getini("ruleproof_rulebook")
    if ini:
        base = config.inipath.parent if config.inipath else config.rootpath
        return str(base / ini)
    return None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "ruling: a ruleproof ruling scenario (collected from a YAML file)")
    config.stash[_KEY] = {"arg": None, "rb": None}
    arg = _rulebook_arg(config)
    if arg is None:
        return
    from ruleproof.ground.errors import RuleproofError  # start-up: pytest loads this plugin in every run
    from ruleproof.model.rulebook import load_rulebook  # start-up: pytest loads this plugin in every run

    try:
        rb = load_rulebook(arg)
    except RuleproofError as err:
        raise pytest.UsageError(f"--rulebook {arg}: " + err.render(_lang())) from None
    config.stash[_KEY].update(arg=arg, rb=rb)


def _rulebook(config: pytest.Config):
    state = config.stash[_KEY]
    if state["rb"] is None:
        from ruleproof.model.rulebook import load_rulebook  # start-up: pytest loads this plugin in every run

        state["rb"] = load_rulebook()
    return state["rb"]


def _relative(path: Path, config: pytest.Config) -> Path:
    try:
        return path.relative_to(config.rootpath)
    except ValueError:
        return path


def _excluded(rel: Path, config: pytest.Config) -> bool:
    parts = rel.parts
    if any(p == "data" and "tests" in parts[:i] for i, p in enumerate(parts)):
        return True
    return any(fnmatch.fnmatch(rel.as_posix(), pat) for pat in config.getini("ruleproof_exclude"))


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    if file_path.suffix not in (".yaml", ".yml"):
        return None
    rel = _relative(file_path, parent.config)
    if _excluded(rel, parent.config):
        return None
    if "rulings" not in rel.parent.parts:
        try:
            with open(file_path, "rb") as fh:
                head = fh.read(HEAD_BYTES).decode("utf-8", "replace")
        except OSError:
            return None
        if not looks_like_scenario(head):
            return None
    return ScenarioFile.from_parent(parent, path=file_path)


class ScenarioFailed(Exception):
    """A ruling's outcome differs from what it expects."""

    def __init__(self, result) -> None:
        super().__init__(f"{len(result.failures)} expectations failed")
        self.result = result


class ScenarioFile(pytest.File):
    """A ruling scenario file: one test item per ruling, named by its id (a file with ``cases:`` gives
    one item per case, ``file-id/case-id``)."""

    def collect(self):
        from ruleproof.model.scenario import load_rulings  # start-up: pytest loads this plugin in every run

        rb = self.config.stash[_KEY]["rb"]
        for sc in load_rulings(self.path, rb.index if rb is not None else None):
            yield ScenarioItem.from_parent(self, name=sc.spec.id, scenario=sc)

    def repr_failure(self, excinfo, style=None):
        from ruleproof.ground.errors import RuleproofError  # start-up: pytest loads this plugin in every run

        if isinstance(excinfo.value, RuleproofError):
            return excinfo.value.render(_lang())
        return super().repr_failure(excinfo, style)


class ScenarioItem(pytest.Item):
    def __init__(self, *, scenario, **kw) -> None:
        super().__init__(**kw)
        self.scenario = scenario
        self.add_marker("ruling")

    def runtest(self) -> None:
        from ruleproof.model.scenario import run_scenario  # start-up: pytest loads this plugin in every run

        result = run_scenario(self.scenario, _rulebook(self.config))
        if not result.passed:
            raise ScenarioFailed(result)

    def replay(self) -> str:
        arg = self.config.stash[_KEY]["arg"]
        return f"ruleproof run {self.path}{self.scenario.case_option}" + (f" --rulebook {arg}" if arg else "")

    def repr_failure(self, excinfo, style=None):
        from ruleproof.ground.errors import RuleproofError  # start-up: pytest loads this plugin in every run

        lang = _lang()
        if isinstance(excinfo.value, RuleproofError):
            return excinfo.value.render(lang)
        if isinstance(excinfo.value, ScenarioFailed):
            return failure_text(excinfo.value.result, _rulebook(self.config), self.replay(), lang)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        loc = self.scenario.where(("id",))
        line = loc.line - 1 if loc.line else None
        return self.path, line, f"ruling {self.scenario.spec.id}"


def failure_text(result, rb, replay: str, lang: str = "en", width: int = 120) -> str:
    """A failed ruling as plain text: clauses, expected, actual, the trace table, the replay command."""
    from rich.console import Console  # start-up: pytest loads this plugin in every run

    from ruleproof.ground.i18n import t  # start-up: pytest loads this plugin in every run
    from ruleproof.reports.trace import print_trace, trace_to_json  # start-up: pytest loads this plugin in every run

    sc = result.scenario
    spec = sc.spec
    first = result.failures[0]
    lines = [first.text(lang) + (f" (+{len(result.failures) - 1})" if len(result.failures) > 1 else ""),
             f"{t('plug_ruling', lang)} {spec.id}: {spec.title.model_dump()[lang]}",
             f"{t('source', lang)}: {spec.source}",
             f"{t('rulebook', lang)}: {rb.path}",
             f"{t('clauses', lang)}: {', '.join(spec.clauses)}",
             t("scenario_fail", lang, id=spec.id, n=len(result.failures))]
    for f in result.failures:
        lines.append(f"  ✗ {f.named(lang)}")
        if tuple(f.clauses) != tuple(spec.clauses):
            lines.append(f"      {t('clauses', lang)}: {', '.join(f.clauses)}")
        lines.append(f"      {t('plug_expected', lang)}: {f.wanted(lang)!r}")
        lines.append(f"      {t('plug_actual', lang)}: {f.shown(lang)!r}")
    out = io.StringIO()
    con = Console(file=out, width=width, color_system=None, force_terminal=False, soft_wrap=False)
    print_trace(con, trace_to_json(result.trace), lang, title=t("plug_trace", lang, outcome=result.trace.outcome),
                highlight=result.departures)
    lines.append(out.getvalue().rstrip())
    lines.append(f"{t('replay', lang)}: {replay}")
    return "\n".join(lines)
