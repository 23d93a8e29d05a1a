"""A seeded structural fuzzer of ruleproof's inputs: the bundled rulebook and the shipped rulings, broken.

Each input is one seeded mutation of a rulebook or of a ruling — a deleted key, a value of the wrong
type, an unknown word, a dangling edge, a cycle, a duplicate id, a huge or negative number, deep
nesting, a long string, strange unicode, a payload in a guard, or the YAML text cut or garbled — and
is run the way the tool runs it: loaded, checked for structure, played (every shipped ruling on a
rulebook, a ruling on the bundled rulebook); every twentieth through the command line instead
(``ruleproof check`` / ``ruleproof run`` in-process). An input may be refused (a RuleproofError:
exit 2) or run (exit 0, 1 or 3); anything else — another exception (exit 70), a run that costs
more than ``HANG_SECONDS`` of CPU time (not wall time: a shared machine slows the clock, not the work), a
payload that executed — is a failure.

Run:  .venv/bin/python tests/fuzz/fuzzer.py --inputs 5000 [--seed 0]
(prints the counts: inputs, outcomes by exit code, crashes, hangs; exit 1 if any crash or hang).
The test suite runs 500 inputs (``tests/fuzz/test_fuzz.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import random
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ruleproof.cli import main
from ruleproof.ground.errors import RuleproofError
from ruleproof.generators.mutants import bundled_data
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.scenario import load_rulings, run_scenario, shipped_rulings
from ruleproof.model.graph import build_graph
from ruleproof.model.structure import run_structure_checks

HANG_SECONDS = 10
#: a file the payloads try to create: it must never appear
PWNED = Path(tempfile.gettempdir()) / "ruleproof-fuzz-pwned"
PAYLOADS = (f"__import__('os').system('touch {PWNED}')", f"!!python/object/apply:os.system ['touch {PWNED}']",
            f"{{{{ open('{PWNED}', 'w') }}}}", "not visited(__class__.__mro__)", "eval('1')")
STRANGE = ("\u202e", "\x00", "\ufeff", "🂡" * 50, "e\u0301" * 30, "\ud7ff", "\u2028", "Ё" * 5000)


@dataclass
class Outcome:
    inputs: int = 0
    codes: Counter = field(default_factory=Counter)  # exit code (as the CLI would give it) -> inputs
    crashes: list = field(default_factory=list)  # (seed, what, traceback)
    hangs: list = field(default_factory=list)
    seconds: float = 0.0

    def line(self) -> str:
        codes = ", ".join(f"exit {k}: {v}" for k, v in sorted(self.codes.items()))
        return (f"{self.inputs} inputs in {self.seconds:.1f} s — {codes}; tracebacks: {len(self.crashes)}, "
                f"hangs: {len(self.hangs)}, payloads executed: {int(PWNED.exists())}")


# --- mutations --------------------------------------------------------------------------------------------

def _paths(node, path=()):
    """Every (path, value) of a data tree."""
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, path + (i,))


def _parent(data, path):
    node = data
    for k in path[:-1]:
        node = node[k]
    return node


def _set(data, path, value):
    if path:
        _parent(data, path)[path[-1]] = value


def _nested(value, depth: int):
    for _ in range(depth):
        value = [value]
    return value


def mutate_data(data, rng: random.Random) -> str:
    """Break ``data`` in place by one seeded operator; return the operator's name."""
    paths = [p for p, _ in _paths(data) if p]
    path = rng.choice(paths)
    value = _parent(data, path)[path[-1]]
    op = rng.choice(("delete", "type", "word", "number", "deep", "long", "unicode", "payload", "duplicate",
                     "edge", "cycle", "empty"))
    if op == "delete":
        parent = _parent(data, path)
        if isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent.pop(path[-1])
    elif op == "type":
        _set(data, path, rng.choice((None, True, 3, -1, 2.5, "text", [], {}, [1, 2], {"a": 1})))
    elif op == "word":
        _set(data, path, rng.choice(("bogus_word", "dise", "window", "visited(nowhere)", "not not always", "")))
    elif op == "number":
        _set(data, path, rng.choice((10 ** 400, -10 ** 9, 10 ** 9, -1, 0, 2 ** 63, float("nan"), float("inf"))))
    elif op == "deep":
        _set(data, path, _nested(value, rng.choice((20, 60, 300))))
    elif op == "long":
        _set(data, path, "x" * rng.choice((1000, 100_000)) if rng.random() < 0.5 else list(range(10_000)))
    elif op == "unicode":
        _set(data, path, rng.choice(STRANGE) + (value if isinstance(value, str) else ""))
    elif op == "payload":
        guards = [p for p, v in _paths(data) if p and p[-1] == "when"]
        _set(data, rng.choice(guards) if guards else path, rng.choice(PAYLOADS))
    elif op == "duplicate":
        parent = _parent(data, path)
        if isinstance(parent, list):
            parent.append(copy.deepcopy(value))
        elif isinstance(parent, dict):
            parent[f"{path[-1]}_copy"] = copy.deepcopy(value)
    elif op == "edge":
        steps = data.get("steps") if isinstance(data, dict) else None
        if isinstance(steps, dict) and steps:
            step = steps[rng.choice(list(steps))]
            if isinstance(step, dict) and isinstance(step.setdefault("next", []), list):  # an earlier edit may have broken it
                step["next"].insert(0, {"to": rng.choice(("nowhere", *steps)),
                                        "when": rng.choice(("always", "is_attack", "visited(dice)")),
                                        "cites": ["512.6"]})
    elif op == "cycle":
        steps = data.get("steps") if isinstance(data, dict) else None
        if isinstance(steps, dict) and len(steps) > 1:
            names = list(steps)
            last = steps[names[-1]]
            if isinstance(last, dict):
                last["next"] = [{"to": names[0], "when": "always", "cites": ["512.6"]}]
    else:
        _set(data, path, rng.choice(({}, [], "", None)))
    return op


def mutate_text(text: str, rng: random.Random) -> str:
    """Garble a YAML text: cut it, insert a character, duplicate or swap lines, break indentation."""
    lines = text.splitlines()
    op = rng.choice(("cut", "insert", "dupline", "swap", "indent", "tabs"))
    if op == "cut":
        return text[: rng.randrange(len(text))]
    if op == "insert":
        i = rng.randrange(len(text))
        return text[:i] + rng.choice(":[]{}-#&*!|>'\"%@`\t\x00") + text[i:]
    i = rng.randrange(len(lines))
    if op == "dupline":
        lines.insert(i, lines[i])
    elif op == "swap" and len(lines) > 1:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif op == "indent":
        lines[i] = " " + lines[i]
    else:
        lines[i] = lines[i].replace("  ", "\t")
    return "\n".join(lines) + "\n"


# --- running one input ---------------------------------------------------------------------------------------

class _Hang(Exception):
    pass


def _alarm(signum, frame):
    raise _Hang()


_SCENARIOS = None


def _scenarios():
    global _SCENARIOS
    if _SCENARIOS is None:
        _SCENARIOS = [sc for p in shipped_rulings() for sc in load_rulings(p)]
    return _SCENARIOS


def _library(kind: str, path: Path) -> int:
    """Load and run an input as the engines do; the exit code the CLI would give it (0 or 2)."""
    try:
        if kind == "rulebook":
            rb = load_rulebook(path)
            run_structure_checks(build_graph(rb), rb.index)
            for sc in _scenarios():
                run_scenario(sc, rb)
        else:
            for sc in load_rulings(path):
                run_scenario(sc, load_rulebook())
    except RuleproofError:
        return 2
    return 0


def _cli(kind: str, path: Path) -> int:
    argv = (["--lang", "en", "check", str(path), "--engines", "structure,rulings", "--examples", "0",
             "--format", "json"] if kind == "rulebook" else ["--lang", "ru", "run", str(path), "--format", "json"])
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()) as err:
        code = main(argv)
    if code == 70:
        raise RuntimeError(err.getvalue())
    return code


def inputs(n: int, seed: int = 0):
    """``n`` seeded inputs: (seed, kind, what was done, YAML text)."""
    base_rb = bundled_data()
    rulings = [(p.name, yaml.safe_load(p.read_text("utf-8"))) for p in shipped_rulings()]
    for i in range(n):
        s = seed * 1_000_003 + i
        rng = random.Random(s)
        if rng.random() < 0.65:
            kind, data, name = "rulebook", copy.deepcopy(base_rb), "rulebook"
        else:
            name, data = rng.choice(rulings)
            kind, data = "ruling", copy.deepcopy(data)
        if rng.random() < 0.8:
            ops = [mutate_data(data, rng) for _ in range(rng.choice((1, 1, 2, 3)))]
            text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1_000_000)
        else:
            ops = ["text"]
            text = mutate_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), rng)
        yield s, kind, f"{name}: {'+'.join(ops)}", text


def run(n: int, seed: int = 0, cli_every: int = 20) -> Outcome:
    """Run ``n`` inputs; the outcome counts."""
    PWNED.unlink(missing_ok=True)
    out = Outcome()
    start = time.perf_counter()
    # the budget is CPU time the input costs this process (ITIMER_PROF), not wall time: a machine shared with
    # other test workers slows the wall clock, never the work an input needs (a loaded CI once called one a hang)
    old = signal.signal(signal.SIGPROF, _alarm)
    with tempfile.TemporaryDirectory() as tmp:
        for i, (s, kind, what, text) in enumerate(inputs(n, seed)):
            path = Path(tmp) / f"input-{s}.yaml"
            path.write_text(text, encoding="utf-8", errors="surrogatepass")
            signal.setitimer(signal.ITIMER_PROF, HANG_SECONDS)
            try:
                code = _cli(kind, path) if i % cli_every == 0 else _library(kind, path)
                out.codes[code] += 1
            except _Hang:
                out.hangs.append((s, what))
            except Exception:  # noqa: BLE001 - what the fuzzer is looking for
                out.codes[70] += 1
                out.crashes.append((s, what, traceback.format_exc(limit=-4)))
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
            out.inputs += 1
    signal.signal(signal.SIGPROF, old)
    out.seconds = time.perf_counter() - start
    return out


def _main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    out = run(args.inputs, args.seed)
    print(out.line())
    for s, what, tb in out.crashes[:10]:
        print(f"\ncrash, seed {s} ({what}):\n{tb}")
    for s, what in out.hangs[:10]:
        print(f"hang, seed {s} ({what})")
    return 1 if out.crashes or out.hangs or PWNED.exists() else 0


if __name__ == "__main__":
    sys.exit(_main())
