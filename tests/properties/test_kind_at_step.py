"""P512.6-kind-at-its-step: a feature is played only at a step its kind's clause allows (512.6.2/b2, b3,
512.6.3/b2, 512.6.4/b1 …).  A draft whose blocking window also admits magnitude modifiers — a one-fault
self-test draft — breaks it in two engines; the bundled rulebook keeps it (its tests run every property on it)."""

from __future__ import annotations

import pytest
import yaml

from ruleproof.generators.bounded import bounded_worlds
from ruleproof.generators.run import hypothesis_pass
from ruleproof.generators.selftest import drafts
from ruleproof.model.explore import Bounds, explore
from ruleproof.model.rulebook import load_rulebook_text
from ruleproof.properties.catalogue import BY_ID

PID = "P512.6-kind-at-its-step"
DRAFT = "widen:blocking:magnitude_modifier"


def test_the_property_cites_the_clauses_that_place_each_kind():
    assert {"512.6.2/b2", "512.6.2/b3", "512.7/b2"} <= set(BY_ID[PID].clauses)


@pytest.mark.slow  # the exhaustive pass over the calculation worlds and 100 Hypothesis examples: ~25–36 s
def test_a_window_widened_to_another_kind_breaks_it_in_two_engines():
    d = next(d for d in drafts() if d.id == DRAFT)
    rb = load_rulebook_text(yaml.safe_dump(d.data, allow_unicode=True, sort_keys=False), "draft.yaml")
    b = Bounds()
    worlds = [w for w in bounded_worlds(b.x_max, b.loadouts, rb) if w.name.endswith("/calculation")]
    assert PID in explore(rb, worlds, b).violations
    [r] = hypothesis_pass(rb, examples=100, cache_dir=None, only=frozenset({PID})).results
    assert r.verdict == "violated", r.note
