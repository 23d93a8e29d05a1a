"""Property forms checked like meanings (properties/form_conformance.py): on the conformance runs, every
history variable, ``bad`` and ``premise`` of each Z3 form agree with the monitor run over the same trace —
and a fault planted in any observation of either evaluator (monitor_z3.Symbolic, monitor_run.Concrete)
is caught."""

from __future__ import annotations

import functools
import random

import pytest
import yaml
import z3

from ruleproof.generators.selftest import drafts
from ruleproof.model.conformance import Checker, check_trace, conformance, sample_play
from ruleproof.model.rulebook import load_rulebook, load_rulebook_text
from ruleproof.model.symbolic import compile_rulebook
from ruleproof.orchestrate import distrust_proofs, run_check
from ruleproof.properties import monitor_run, monitor_z3, tracker
from ruleproof.properties.form_conformance import FormCheck, form_check
from ruleproof.reports.finding import CheckResult

RB = load_rulebook()
CLASSES = {"Symbolic": monitor_z3.Symbolic, "Concrete": monitor_run.Concrete}


def _public(cls) -> list[str]:
    return sorted(n for n, v in vars(cls).items() if callable(v) and not n.startswith("_"))


#: observations no run of the bundled rulebook reads (the properties read them only where a rulebook
#: goes wrong, or with a parameter the bundled rulebook does not use), each with a draft that does
ON_A_DRAFT = {
    "false": "skip:calculation",  # a step of 512.6.1 left out: _MAY_SKIP's «no clause allows it»
    "after_declare": "narrow:reroll:reroll",  # a part ends with a feature not offered: P512.6-may-declare's pulse
    "reading_matters": "modifiers-read-current",  # apply_magnitude_modifiers reads: current
    "return_roles_matter": "return-roles-kept",  # apply_magnitude_modifiers return_roles: kept
    "reserved_any": "no-payment",  # a run that ends with its reserved resources unpaid
}
#: observations no fault of which can be caught, and why (test_the_uncatchable_are_never_asked shows it)
NEVER_ASKED = {
    ("Symbolic", "true"): "no property reads it",
    ("Concrete", "true"): "no property reads it",
    ("Concrete", "set_if"): "the tracker sets a flag itself (Hist.sets), never through set_if",
}
#: a wrong key is no silent wrong value: the history has no such variable (KeyError)
KEYS = "key"


def _flip(r):
    """The opposite answer: a truth value negated, a number's lowest bit flipped, a set or list emptied."""
    if isinstance(r, bool):
        return not r
    if isinstance(r, z3.BoolRef):
        return z3.Not(r)
    if isinstance(r, int):
        return r ^ 1
    if isinstance(r, z3.BitVecRef):
        return r ^ 1
    if isinstance(r, (list, frozenset)):
        return type(r)()
    raise TypeError(f"no fault for a {type(r).__name__}")


def _plant(monkeypatch, cls_name: str, name: str, fault=_flip) -> None:
    """Replace the observation by a faulty one (and start the trackers' caches afresh)."""
    cls = CLASSES[cls_name]
    real = vars(cls)[name]
    monkeypatch.setattr(cls, name, lambda *a, **k: fault(real(*a, **k)))
    monkeypatch.setattr(tracker, "_LIVE", {})


def _record(rb, runs: int, seed: int = 0):
    """The system of ``rb`` and its conformance runs (world, steps), as the conformance pass plays them."""
    sy = compile_rulebook(rb)
    checker, rng, out = Checker(sy), random.Random(seed), []
    for _ in range(runs):
        world, events, _ = sample_play(rb, rng)
        steps: list = []
        n, found = check_trace(checker, world, events, steps)
        assert found is None, found.text()
        out.append((world, steps))
    return sy, out


def _first(check, runs):
    """The check's first disagreement on ``runs`` (a FormCheck, or a system to make one for)."""
    if not isinstance(check, FormCheck):
        check = FormCheck(check)
    return next((d for world, steps in runs if (d := check(world, steps)) is not None), None)


@pytest.fixture(scope="module")
def bundled():
    """The conformance pass of the bundled rulebook with the forms checked: (its outcome, the check, the
    system, the runs — world and steps — it was given)."""
    made, runs = [], []

    def also(sy):
        check = form_check(sy)
        made.append((sy, check))

        def each(world, steps):
            runs.append((world, steps))
            return check(world, steps)
        return each

    out = conformance(RB, seed=0, also=also)
    [(sy, check)] = made
    return out, check, sy, runs


@pytest.fixture(scope="module")
def agreed(bundled):
    """The bundled rulebook's system and runs, on which the forms agree (else no fault can be told apart:
    test_the_forms_agree_on_the_bundled_rulebook fails)."""
    out, check, sy, runs = bundled
    if not out.ok:
        pytest.skip(f"the forms disagree without a fault: {out.disagreement.text()}")
    return check, sy, runs


@functools.lru_cache(maxsize=None)
def _draft_runs(did: str):
    """The system of selftest draft ``did`` and 10 conformance runs of it, on which the forms agree."""
    d = _selftest()[did]
    rb = load_rulebook_text(yaml.safe_dump(d.data, allow_unicode=True, sort_keys=False), f"{did}.yaml")
    sy, runs = _record(rb, 10)
    found = _first(sy, runs)
    assert found is None, f"{did}: the forms disagree without a fault: {found.text()}"
    return sy, runs


@functools.lru_cache(maxsize=None)
def _selftest() -> dict:
    return {d.id: d for d in drafts()}


def test_the_forms_agree_on_the_bundled_rulebook(bundled):
    out, check, _, runs = bundled
    assert out.ok, out.disagreement.text()
    assert check.runs == out.runs == len(runs) == 120 and check.events == out.steps > 8500


_CAUGHT = [(c, n) for c, cls in CLASSES.items() for n in _public(cls)
           if n not in ON_A_DRAFT and (c, n) not in NEVER_ASKED and n != KEYS]


@pytest.mark.parametrize(("cls", "name"), _CAUGHT, ids=[f"{c}.{n}" for c, n in _CAUGHT])
def test_a_fault_in_an_observation_is_caught(agreed, monkeypatch, cls, name):
    check, sy, runs = agreed
    _plant(monkeypatch, cls, name)
    # the Z3 side compiled without the fault stays valid for a fault of the monitors' evaluator
    found = _first(check if cls == "Concrete" else sy, runs)
    assert found is not None, f"{cls}.{name} answering the opposite goes unnoticed"
    assert found.code == "RC8" and found.interpreter.startswith("P"), found.text()


_ON_DRAFTS = [(c, n) for c in CLASSES for n in sorted(ON_A_DRAFT)]


@pytest.mark.parametrize(("cls", "name"), _ON_DRAFTS, ids=[f"{c}.{n}" for c, n in _ON_DRAFTS])
def test_a_fault_only_a_faulty_rulebook_reaches_is_caught_there(agreed, monkeypatch, cls, name):
    """(``agreed``: where the bundled rulebook's forms disagree, so do a draft's — the same cause.)"""
    sy, runs = _draft_runs(ON_A_DRAFT[name])
    _plant(monkeypatch, cls, name)
    found = _first(sy, runs)
    assert found is not None and found.code == "RC8", f"{cls}.{name} on {ON_A_DRAFT[name]}"


@pytest.mark.parametrize("cls", sorted(CLASSES))
def test_a_wrong_key_reads_no_variable(agreed, monkeypatch, cls):
    """A per-feature variable read under its bare name (the feature dropped): no history has it."""
    _, sy, runs = agreed
    monkeypatch.setattr(CLASSES[cls], KEYS, lambda self, name, f=None: name)
    monkeypatch.setattr(tracker, "_LIVE", {})
    with pytest.raises(KeyError):
        _first(sy, runs)


def test_every_observation_is_in_one_list():
    for c, cls in CLASSES.items():
        public = set(_public(cls))
        assert set(ON_A_DRAFT) <= public and KEYS in public
        assert {n for k, n in NEVER_ASKED if k == c} <= public


def test_the_uncatchable_are_never_asked(agreed, monkeypatch):
    """The observations whose faults cannot be caught are those no check ever calls."""
    _, sy, runs = agreed
    calls: list = []
    for c, name in NEVER_ASKED:
        real = vars(CLASSES[c])[name]
        monkeypatch.setattr(CLASSES[c], name, lambda *a, _r=real, _k=(c, name), **k: calls.append(_k) or _r(*a, **k))
    monkeypatch.setattr(tracker, "_LIVE", {})
    assert _first(sy, runs) is None
    assert calls == []


def test_check_reports_a_fault_as_rc8_and_distrusts_the_proofs(monkeypatch, tmp_path):
    """The fault of issue 45: the Z3 form of P512.7-payment never sees a payment other than the due one.
    On the bundled rulebook no run pays other than the due (both forms say so); M5, which closes a card
    its text spares, does, and there the forms part."""
    from ruleproof.generators.mutants import mutant_yaml

    monkeypatch.setattr(monitor_z3.Symbolic, "pays_other_than_due", lambda self, *a, **k: self.false())
    draft = tmp_path / "M5.yaml"
    draft.write_text(mutant_yaml("M5"), encoding="utf-8")
    rep = run_check(draft, engines=("conformance",))
    [result] = rep.conformance
    [finding] = result.findings
    assert not rep.ok and finding.failed
    en, ru = finding.text("en"), finding.text("ru")
    assert en.startswith("RC8: a property's Z3 form") and "P512.7-payment" in en and "hp_amount" in en, en
    assert "--seed 0" in finding.replay
    assert ru.startswith("RC8: форма свойства") and "переменная истории hp_amount" in ru
    assert not any(w in ru for w in ("history", "variable", "after the event", "disagree")), ru
    proved = CheckResult("P512.7-payment", ("512.7",), {"ru": "", "en": ""}, "z3", (), note="proved")
    [after] = distrust_proofs([proved], rep.conformance)
    assert after.verdict == "unknown" and "RC8" in after.findings[-1].text("en")
