"""Clause consistency (properties/consistency.py): the bundled rules are consistent, the example drafts
and the mutants give the expected minimal cores, and every claim can be made to fail."""

from __future__ import annotations

import copy
from importlib import resources
from pathlib import Path

import pytest
import yaml
import z3

from ruleproof.generators.mutants import find_op, mutant_yaml
from ruleproof.model.clauses import default_index
from ruleproof.model.rulebook import load_rulebook, load_rulebook_text
from ruleproof.properties.claims import BY_ID, CLAIMS
from ruleproof.properties.consistency import ORDER_CHECK, consistency, main_path

DRAFTS = Path(str(resources.files("ruleproof.rulebooks").joinpath("drafts")))


def _load(data: dict, name: str = "draft.yaml"):
    return load_rulebook_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), name)


def _line(where: str) -> str:
    file, line = where.split(":")[:2]
    return Path(file).read_text("utf-8").splitlines()[int(line) - 1]


def _cores_with(out, claim_id: str) -> list:
    return [c for c in out.cores if claim_id in c.claims]


@pytest.fixture(scope="module")
def data(bundled):
    return yaml.safe_load(Path(bundled.path).read_text("utf-8"))


# --- the bundled rules ------------------------------------------------------------------------------

def test_bundled_rulebook_is_consistent(bundled):
    out = consistency(bundled)
    assert out.status == "consistent" and out.cores == () and out.core == ()
    assert [r.check for r in out.results] == [c.id for c in CLAIMS] and all(r.holds for r in out.results)
    assert all(r.engine == "z3" and not r.findings for r in out.results)
    assert out.z3_version == z3.get_version_string() and out.seed == 0 and out.seconds > 0


def test_claims_cite_known_clauses_and_referenced_ones_through_an_assumption(bundled):
    index = default_index()
    assert len({c.id for c in CLAIMS}) == len(CLAIMS) >= 20
    for c in CLAIMS:
        assert c.clauses and all(cid in index for cid in c.clauses), c.id
        assert c.ru and c.en and c.relations
        if any(index.needs_assumption(cid) for cid in c.clauses):
            assert c.assumes and all(a in bundled.spec.assumptions for a in c.assumes), c.id


def test_main_path_follows_the_unguarded_edges(bundled):
    assert main_path(bundled) == ["declaration", "claim_resolution", "dice", "calculation", "blocking", "effect",
                                  "completion", "payment", "handover"]


# --- the two example drafts (rulebooks/drafts) --------------------------------------------------------

def test_cost_x_at_payment_draft_contradicts_542_2_with_540_2_reservation():
    rb = load_rulebook(DRAFTS / "cost-x-at-payment.yaml")
    assert rb.spec.id == "draft-cost-x-at-payment"
    out = consistency(rb)
    assert out.status == "conflict" and out.complete
    assert out.core == ("540.2", "542.2")
    # one minimal core names both clauses: the reservation at declaration needs cost-X
    [joint] = [c for c in out.cores if {"540.2", "542.2"} <= set(c.clauses)]
    assert joint.claims == ("C540.2-reservation-needs-cost-x",)
    lines = {e.label: _line(e.where) for e in joint.elements}
    assert "fix_x, x: cost" in lines["step payment / op 1 fix_x x=cost"]
    assert "reserve_resources" in lines["step declaration / op 6 reserve_resources"]
    # and 542.2 alone: cost-X not fixed at the declaration
    assert [c.claims for c in out.cores] == [("C542.2-cost-x-at-declaration",), ("C540.2-reservation-needs-cost-x",)]
    violated = {r.check for r in out.results if not r.holds}
    assert violated == {"C542.2-cost-x-at-declaration", "C540.2-reservation-needs-cost-x"}
    f = next(r for r in out.results if r.check == "C540.2-reservation-needs-cost-x").findings[0]
    assert (f.kind, f.verdict, f.engine) == ("conflict", "violated", "z3") and f.clauses == ("540.2", "542.2")
    assert f.where.startswith(str(DRAFTS / "cost-x-at-payment.yaml")) and f.replay.startswith("ruleproof consistency")


def test_magnitude_modifiers_first_draft_contradicts_542_4_and_542_5_with_512_6_3():
    rb = load_rulebook(DRAFTS / "magnitude-modifiers-first.yaml")
    assert rb.spec.id == "draft-magnitude-modifiers-first"
    out = consistency(rb)
    assert out.status == "conflict" and out.complete
    assert set(out.core) == {"542.4/b2", "542.5/b2", "542.8", "512.6.3/b4"}
    moved = {e.label for c in out.cores for e in c.elements}
    assert {"step calculation / op 3 apply_magnitude_modifiers",
            "step calculation / op 4 fix_x x=magnitude_computed"} <= moved
    for core in out.cores:  # every core rests on the moved operation
        assert "step calculation / op 3 apply_magnitude_modifiers" in {e.label for e in core.elements}


def test_drafts_differ_from_the_bundled_rulebook_by_one_edit(data):
    for name, op_name in (("cost-x-at-payment.yaml", "fix_x"), ("magnitude-modifiers-first.yaml",
                                                                  "apply_magnitude_modifiers")):
        text = (DRAFTS / name).read_text("utf-8")
        head = text.split("\n", 1)[1] if text.startswith("# yaml-language-server:") else text  # the schema line
        assert head.startswith("# DRAFT") and "Why it is a draft" in text
        draft = yaml.safe_load(text)
        assert draft["id"] != data["id"]
        assert {k: v for k, v in draft.items() if k not in ("id", "steps", "readings")} == \
            {k: v for k, v in data.items() if k not in ("id", "steps", "readings")}  # a draft has no readings
        changed = [s for s in data["steps"] if draft["steps"][s] != data["steps"][s]]
        assert 1 <= len(changed) <= 2, name
        ops = [o["op"] for s in data["steps"].values() for o in s.get("operations", [])]
        assert sorted(ops) == sorted(o["op"] for s in draft["steps"].values() for o in s.get("operations", []))


def test_magnitude_modifiers_moved_into_the_dice_step_contradicts_512_6_3(data):
    d = copy.deepcopy(data)
    moved = d["steps"]["calculation"]["operations"].pop(find_op(d, "calculation", "apply_magnitude_modifiers"))
    d["steps"]["dice"]["operations"].append(moved)
    out = consistency(_load(d))
    assert out.status == "conflict"
    assert {"C512.6.3-legality-before-magnitude", "C512.6.3-x-then-modifiers",
            "C542.4-computed-x-right-before-modifiers", "C542.5-magnitude-modifier-x-right-before"} <= \
        {cid for c in out.cores for cid in c.claims}
    assert {"512.6.3/b3", "512.6.3/b4", "542.4/b2", "542.5/b2"} <= set(out.core)


# --- mutants -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("mutant, claim, element", [
    ("M2", "C542.3-targets-x-at-declaration", "step calculation / op 3 fix_x x=targets"),
    ("M3", "C542.4-computed-x-right-before-modifiers", "step calculation / op 6 fix_x x=magnitude_computed"),
    ("M7", "C512.6.3-legality-before-magnitude", "step blocking / op 2 check_source_legality"),
    ("marker-before-payment", "C540.3-action-marker-at-payment", "step payment / op 1 give_action_marker"),
    ("claims-unresolved", "C512.5-claims-resolved-first", "no resolve_claims"),
])
def test_mutants_give_a_core(mutant, claim, element):
    out = consistency(load_rulebook_text(mutant_yaml(mutant), f"{mutant}.yaml"))
    assert out.status == "conflict"
    [core, *_] = _cores_with(out, claim)
    assert element in {e.label for e in core.elements}
    assert set(BY_ID[claim].clauses) <= set(out.core)


def test_a_missing_event_is_an_element_of_the_core():
    out = consistency(load_rulebook_text(mutant_yaml("no-payment"), "no-payment.yaml"))
    assert out.status == "conflict"
    for core in out.cores:
        [absent] = core.elements
        assert absent.kind == "absence" and absent.label == "no pay_reserved"
        assert "pay" in absent.en and absent.where.startswith("no-payment.yaml:")


# --- every claim can fail ---------------------------------------------------------------------------------

def _ops(d, step):
    return d["steps"][step]["operations"]


def _move(step, op, to_step, position=None, after=None, **params):
    def edit(d):
        moved = _ops(d, step).pop(find_op(d, step, op, **params))
        target = _ops(d, to_step)
        pos = find_op(d, to_step, after) + 1 if after else (len(target) if position is None else position)
        target.insert(pos, moved)
    return edit


def _window_before(step, window_id, before_op):
    def edit(d):
        w = _ops(d, step).pop(find_op(d, step, "window", id=window_id))
        _ops(d, step).insert(find_op(d, step, before_op), w)
    return edit


#: for each claim, one draft edit that contradicts it
CLAIM_EDITS = {
    "C542.2-cost-x-at-declaration": _move("declaration", "fix_x", "payment", 0, x="cost"),
    "C540.2-reservation-needs-cost-x": _move("declaration", "fix_x", "declaration", x="cost"),
    "C540.2-reservation-at-declaration": _move("declaration", "reserve_resources", "claim_resolution"),
    "C542.3-targets-x-at-declaration": _move("declaration", "fix_x", "calculation", 2, x="targets"),
    "C542.4-chosen-x-at-declaration": _move("declaration", "fix_x", "calculation", 2, x="magnitude_chosen"),
    "C542.4-computed-x-right-before-modifiers": _move("calculation", "fix_x", "calculation",
                                                      after="apply_magnitude_modifiers", x="magnitude_computed"),
    "C542.5-dice-modifier-x-right-before": _move("dice", "fix_x", "dice", 1, x="dice_modifier"),
    "C542.5-magnitude-modifier-x-right-before": _move("calculation", "fix_x", "calculation", 0,
                                                      x="magnitude_modifier"),
    "C542.8-implicit-x-right-before": _move("calculation", "fix_x", "calculation", after="finalize_magnitude",
                                            x="implicit"),
    "C512.6.2-raw-die-after-rerolls": _move("dice", "fix_raw_die", "dice", 1),
    "C512.6.2-final-die-after-modifiers": _move("dice", "fix_final_die", "dice", after="fix_raw_die"),
    "C512.6.2-base-from-final-die": _move("dice", "determine_base", "dice", 0),
    "C512.6.3-legality-after-window": _window_before("calculation", "calculation", "finalize_magnitude"),
    "C512.6.3-legality-before-magnitude": _move("calculation", "check_source_legality", "calculation",
                                                after="finalize_magnitude"),
    "C512.6.3-x-then-modifiers": _move("calculation", "apply_magnitude_modifiers", "calculation",
                                       after="check_source_legality"),
    "C512.6.3-final-magnitude-before-blocking": _move("calculation", "finalize_magnitude", "blocking"),
    "C512.6.4-blocking-before-effect": lambda d: _ops(d, "effect").insert(
        1, _ops(d, "blocking").pop(find_op(d, "blocking", "window", id="blocking"))),
    "C512.6.5-triggers-after-effect": _window_before("effect", "effect_triggers", "apply_effect"),
    "C512.6.6-after-only-after-effect": lambda d: _ops(d, "effect").insert(
        0, _ops(d, "completion").pop(find_op(d, "completion", "window", id="after_ability"))),
    "C512.6.6-roles-after-after": _move("completion", "release_roles", "completion", 0),
    "C512.7-payment-after-completion": _move("completion", "release_roles", "payment"),
    "C540.3-action-marker-at-payment": _move("payment", "give_action_marker", "payment", 0),
    "C512.7-payment-triggers-then-unstack": _move("payment", "remove_from_stack", "payment", 0),
    "C512.5-claims-resolved-first": _move("claim_resolution", "resolve_claims", "dice", 1),
    "C512.6.1-step-order": lambda d: d["steps"]["blocking"]["operations"].insert(
        0, _ops(d, "effect").pop(find_op(d, "effect", "apply_effect"))),
}


def test_every_claim_has_an_edit_that_breaks_it():
    assert set(CLAIM_EDITS) == set(BY_ID)


@pytest.mark.parametrize("claim", [c.id for c in CLAIMS])
def test_each_claim_can_fail(claim, data):
    d = copy.deepcopy(data)
    CLAIM_EDITS[claim](d)
    out = consistency(_load(d, f"{claim}.yaml"))
    assert out.status == "conflict", claim
    assert _cores_with(out, claim), [c.claims for c in out.cores]
    assert set(BY_ID[claim].clauses) <= set(out.core)
    assert not next(r for r in out.results if r.check == claim).holds


# --- the cores are minimal; the rest is consistent; unknown is not consistent ----------------------------

def test_cores_are_minimal_and_the_claims_outside_them_are_consistent():
    rb = load_rulebook(DRAFTS / "magnitude-modifiers-first.yaml")
    out = consistency(rb)
    in_cores = {cid for c in out.cores for cid in c.claims}
    for core in out.cores:
        alone = consistency(rb, claims=tuple(BY_ID[c] for c in core.claims))
        assert alone.status == "conflict"
    rest = tuple(c for c in CLAIMS if c.id not in in_cores)
    assert consistency(rb, claims=rest).status == "consistent"
    assert {r.check for r in out.results if r.holds} == {c.id for c in rest}


def test_the_outcome_is_reproducible():
    rb = load_rulebook(DRAFTS / "cost-x-at-payment.yaml")
    a, b = consistency(rb), consistency(rb)
    assert a.cores == b.cores and a.core == b.core


def test_z3_unknown_is_reported_as_unknown(bundled, monkeypatch):
    monkeypatch.setattr(z3.Solver, "check", lambda self, *a: z3.unknown)
    monkeypatch.setattr(z3.Solver, "reason_unknown", lambda self: "timeout")
    out = consistency(bundled)
    assert out.status == "unknown" and out.reason == "timeout"
    assert not any(r.holds for r in out.results)
    assert {f.verdict for r in out.results for f in r.findings} == {"unknown"}


def test_a_cycle_off_the_main_path_is_a_core_without_claims(data):
    d = copy.deepcopy(data)
    d["steps"]["claim_resolution"]["next"].insert(0, {"to": "x1", "when": "is_attack", "cites": ["512.6.2"]})
    step = {"kind": "blocking", "name": {"ru": "x", "en": "x"}, "cites": ["512.6.4"]}
    d["steps"]["x1"] = {**step, "next": [{"to": "x2", "cites": ["512.6.4"]}]}
    d["steps"]["x2"] = {**step, "next": [{"to": "x1", "cites": ["512.6.4"]}, {"to": "calculation", "cites": ["512.6.4"]}]}
    out = consistency(_load(d, "cycle.yaml"))
    assert out.status == "conflict"
    [core] = out.cores
    assert core.claims == () and {e.label for e in core.elements} == {"edge x1 → x2", "edge x2 → x1"}
    order, *claims = out.results
    assert order.check == ORDER_CHECK and not order.holds and order.findings[0].verdict == "violated"
    assert {f.verdict for r in claims for f in r.findings} == {"unknown"}  # not checked, never "holds"


def test_enumeration_stopped_early_leaves_the_other_claims_unknown():
    out = consistency(load_rulebook(DRAFTS / "magnitude-modifiers-first.yaml"), max_cores=1)
    assert out.status == "conflict" and not out.complete and len(out.cores) == 1
    verdicts = {r.check: {f.verdict for f in r.findings} for r in out.results}
    assert verdicts[out.cores[0].claims[0]] == {"violated"}
    assert all(v == {"unknown"} for k, v in verdicts.items() if k not in out.cores[0].claims)
