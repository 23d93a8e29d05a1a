"""Proofs carried over (properties/carry.py): an earlier proof's inductive invariant, re-checked on the next
rulebook instead of a new Spacer search — the same verdicts as proving afresh, and never a proof the
re-check does not back."""

from __future__ import annotations

import json
import shutil

import pytest

from ruleproof.generators.selftest import drafts
from ruleproof.ground.verdicts import ProofVerdict
from ruleproof.properties.carry import Carried, ProofStore, carried_reason
from ruleproof.properties.prove import prove

#: the kind of selftest drafts the incremental proofs are compared on: each misses one exit, so some rules
#: change, some proofs carry with those rules re-checked and some properties break
KIND = "miss exit"
#: a property whose proof carries on the bundled rulebook (its certificate checks on every rule)
CARRIES = "P512.6-active-player-first"


def _verdicts(out) -> dict:
    return {v.pid: v.verdict for v in out.verdicts}


@pytest.mark.slow
def test_an_incremental_proof_equals_a_full_one_on_every_draft_of_one_kind(bundled, tmp_path):
    base = tmp_path / "base"
    fresh = prove(bundled, agree=False, vacuity=False, carry=ProofStore(base))
    assert not any(v.carried for v in fresh.verdicts)  # nothing kept yet: every proof made afresh
    store = ProofStore(base)  # each certificate now re-checked on every rule of the rulebook it came from
    again = prove(bundled, agree=False, vacuity=False, carry=store)
    assert _verdicts(again) == _verdicts(fresh)
    assert sum(v.carried for v in again.verdicts) >= 30 and all(e.unchanged == 0 for e in store.log if e)
    assert all("carried" in v.reason for v in again.verdicts if v.carried)
    kind = [d for d in drafts() if d.operator == KIND]
    assert len(kind) >= 2
    refused = 0
    for draft in kind:
        folder = tmp_path / draft.id.replace(":", "_")
        shutil.copytree(base, folder)  # each draft starts from the base's proofs
        store = ProofStore(folder)
        rb = draft.load()
        incremental = prove(rb, agree=False, vacuity=False, carry=store)
        full = prove(rb, agree=False, vacuity=False)
        assert _verdicts(incremental) == _verdicts(full), draft.id
        assert ProofVerdict.VIOLATED in _verdicts(full).values(), draft.id  # the draft does break something
        carried = [e for e in store.log if e is not None]
        assert carried and sum(e.checked for e in carried) > 0, draft.id  # the changed rules were re-checked…
        assert all(e.unchanged > 0 for e in carried), draft.id  # …and only they
        refused += store.refused
    assert refused > 0  # some proof the drafts broke was offered and not carried


def test_an_invariant_edited_in_the_store_is_checked_again_and_refused(bundled, tmp_path):
    for _ in range(2):  # a proof, then its certificate re-checked on every rule
        out = prove(bundled, only=[CARRIES], agree=False, vacuity=False, carry=ProofStore(tmp_path))
    assert out.verdicts[0].carried and out.verdicts[0].verdict == ProofVerdict.PROVED
    (path,) = [p for p in tmp_path.glob("*.json") if json.loads(p.read_text())["invariants"]]
    cert = json.loads(path.read_text())
    cert["invariants"] = {loc: "true" for loc in cert["invariants"]}  # holds everywhere: excludes no target state
    path.write_text(json.dumps(cert))
    store = ProofStore(tmp_path)
    out = prove(bundled, only=[CARRIES], agree=False, vacuity=False, carry=store)
    assert store.refused == 1 and store.log == [None]  # not carried: Spacer proved it again
    assert out.verdicts[0].verdict == ProofVerdict.PROVED and not out.verdicts[0].carried


def test_a_damaged_store_file_is_no_certificate(tmp_path):
    store = ProofStore(tmp_path)
    store.folder.mkdir(exist_ok=True)
    store._path("target").write_text("{not json")
    assert store.get("target") is None


def test_the_reason_says_how_much_was_rechecked():
    en, ru = carried_reason([Carried(3, 150), None])
    assert en.startswith("carried: an earlier proof's invariant re-checked on 3 rules (150 unchanged)")
    assert "1 of 2 queries proved afresh" in en and ru.startswith("перенесено")
    assert carried_reason([None]) is None and carried_reason([]) is None
