"""The structural diff of two rulebooks: an element is "moved" only when its order among its neighbours changed,
so moving one operation lists exactly that operation (and only its clauses)."""

from __future__ import annotations

import pytest
import yaml

from ruleproof.generators.mutants import bundled_data
from ruleproof.model.rulebook import load_rulebook
from ruleproof.model.rulebook_diff import by_clause, moved_within, structural_diff

BASE = load_rulebook()


def _moved(tmp_path, step: str, op: str, to: int):
    data = bundled_data()
    ops = data["steps"][step]["operations"]
    ops.insert(to, ops.pop(next(i for i, o in enumerate(ops) if o["op"] == op)))
    p = tmp_path / "draft.yaml"
    p.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), "utf-8")
    return load_rulebook(p)


@pytest.mark.parametrize("step, op, to", [("payment", "give_action_marker", 0), ("dice", "fix_raw_die", 0),
                                          ("calculation", "finalize_magnitude", 1), ("payment", "pay_reserved", 3)])
def test_moving_one_operation_lists_exactly_that_element(tmp_path, step, op, to):
    changes = structural_diff(BASE, _moved(tmp_path, step, op, to))
    assert [(c.what, c.element.split()[1]) for c in changes] == [("moved", op)], [c.en for c in changes]
    cited = {cid for c in changes for cid in c.clauses}
    assert set(by_clause(changes)) == cited  # the clause entries are that operation's, no neighbour's


def test_moved_within_names_what_left_its_neighbours():
    assert moved_within(list("abcxd"), list("xabcd")) == {"x"}
    assert moved_within(list("abcd"), list("abcd")) == set()
    assert len(moved_within(list("abcd"), list("dcba"))) == 3  # one kept: the others moved


def _smallest(tmp_path, step: str, op: str, to: int):
    from ruleproof.generators.bounded import bounded_worlds
    from ruleproof.model.explore import Bounds
    from ruleproof.model.rulebook_diff import smallest_difference

    draft = _moved(tmp_path, step, op, to)
    bounds = Bounds(x_max=0, loadouts=("none",))
    return smallest_difference(BASE, draft, bounded_worlds(bounds.x_max, bounds.loadouts, draft), bounds)


def test_the_smallest_difference_is_one_a_judge_sees(tmp_path):
    """The marker given before payment: the cards pass through other states — a difference a judge sees."""
    d = _smallest(tmp_path, "payment", "give_action_marker", 0)
    assert d is not None and d.visible
    assert d.base_events[d.first].op != d.draft_events[d.first].op


def test_a_difference_only_in_the_order_of_events_says_so(tmp_path, capsys):
    """The die's effect taken off the stack before the final value is fixed: the events part, but no card,
    status, payment or offer differs in any game played — the difference is marked so, and the diff says it."""
    d = _smallest(tmp_path, "dice", "remove_die_effect", 6)
    assert d is not None and not d.visible
    from ruleproof.model.rulebook_diff import visible_key

    assert visible_key(d.base_events) == visible_key(d.draft_events)
