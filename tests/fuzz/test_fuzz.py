"""The seeded structural fuzzer (fuzzer.py) over 500 broken rulebooks and rulings: no traceback, no
exit code outside 0-3, no hang, no payload executed.  Locally: ``tests/fuzz/fuzzer.py --inputs 5000``."""

from __future__ import annotations

import pytest

import fuzzer


@pytest.mark.slow
def test_500_broken_inputs_are_refused_or_run_never_crash():
    out = fuzzer.run(500, seed=0)
    assert out.inputs == 500
    assert not out.crashes, [(s, what, tb) for s, what, tb in out.crashes[:3]]
    assert not out.hangs, out.hangs[:5]
    assert not fuzzer.PWNED.exists()
    assert set(out.codes) <= {0, 1, 2, 3}, out.codes
    assert out.codes[2] > 100 and out.codes[0] + out.codes[1] > 50, out.line()  # both kinds are exercised


def test_the_fuzzer_sees_a_planted_crash(monkeypatch):
    """A bug planted in the interpreter is reported as a crash (exit 70 on the command line), with its seed."""
    from ruleproof.model import interpreter

    def boom(*a, **k):
        raise ZeroDivisionError("planted")

    monkeypatch.setitem(interpreter.HANDLERS, "release_roles", boom)
    out = fuzzer.run(40, seed=1)
    assert out.crashes and out.codes[70] == len(out.crashes)
    assert any("planted" in tb for _, _, tb in out.crashes)


def test_the_same_seed_gives_the_same_inputs():
    a = [(s, w, t) for s, _, w, t in fuzzer.inputs(20, seed=3)]
    assert a == [(s, w, t) for s, _, w, t in fuzzer.inputs(20, seed=3)]


def test_the_fuzzer_sees_a_planted_hang_by_cpu_time_not_wall_time(monkeypatch):
    """A handler that spins is a hang once it has cost the budget of CPU time (ITIMER_PROF); a sleep — wall time
    that costs nothing, like waiting on a loaded machine — is not."""
    import time

    from ruleproof.model import interpreter

    def spin(*a, **k):
        end = time.process_time() + 5
        while time.process_time() < end:
            pass

    def sleep(r, s, op):
        time.sleep(0.005)
        return done(r, s, op)

    done = interpreter.HANDLERS["release_roles"]
    monkeypatch.setattr(fuzzer, "HANG_SECONDS", 0.5)
    monkeypatch.setitem(interpreter.HANDLERS, "release_roles", spin)
    out = fuzzer.run(3, seed=2, cli_every=1000)  # seed 2: three inputs that run (none refused)
    assert out.hangs and out.inputs == 3
    monkeypatch.setitem(interpreter.HANDLERS, "release_roles", sleep)
    calm = fuzzer.run(3, seed=2, cli_every=1000)
    assert not calm.hangs and sum(calm.codes.values()) == 3
