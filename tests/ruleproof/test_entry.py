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
