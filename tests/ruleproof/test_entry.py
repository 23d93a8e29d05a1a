"""Ctrl-C while the command still loads: exit 130 and one line, also when Python reports the interrupt
wrapped in another error (a class being made when it came: «Error calling __set_name__»)."""

from __future__ import annotations

import pytest

from ruleproof import cli, entry


def _raise_wrapped():
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt as ki:
        raise RuntimeError("Error calling __set_name__ on 'Field' instance 'events' in 'Trace'") from ki


@pytest.mark.parametrize("lang, line", [("en", "interrupted\n"), ("ru", "прервано\n")])
def test_an_interrupt_wrapped_while_loading_is_an_interrupt(monkeypatch, capsys, lang, line):
    monkeypatch.setenv("RULEPROOF_LANG", lang)
    monkeypatch.setattr(cli, "main", _raise_wrapped)
    assert entry.run() == 130
    assert capsys.readouterr().err == line


def test_another_error_is_not_taken_for_an_interrupt(monkeypatch):
    def broken():
        raise RuntimeError("something else")
    monkeypatch.setattr(cli, "main", broken)
    with pytest.raises(RuntimeError, match="something else"):
        entry.run()


def test_the_command_line_starts_without_loading_the_rulebook_or_an_engine():
    """``ruleproof --version`` and ``--help`` build the parser only: no rulebook, engine or report module is
    imported until a command runs (start-up time; measured in benchmarks, not asserted here).  Z3 itself is
    loaded: the Ctrl-C handler stops its solvers."""
    import subprocess
    import sys

    code = ("import sys; from ruleproof.cli import build_parser; build_parser(); "
            "print(sorted(m for m in sys.modules if m.startswith(('ruleproof.model', 'ruleproof.properties', "
            "'ruleproof.generators', 'ruleproof.reports', 'ruleproof.orchestrate', 'hypothesis', 'networkx'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
