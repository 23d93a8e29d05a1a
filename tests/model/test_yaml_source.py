"""YAML is parsed by libyaml where PyYAML has it: the same nodes, tags and marks as PyYAML's own parser (file:line
of every element rests on the marks), and PyYAML's messages for a text either refuses."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ruleproof.ground.errors import RuleproofError
from ruleproof.model.yaml_source import load_yaml_text, yaml_problem

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted([*ROOT.glob("rulebooks/**/*.yaml"), *ROOT.glob("rulings/**/*.yaml")])


def _tree(node):
    marks = (node.tag, node.start_mark.line, node.start_mark.column, node.end_mark.line, node.end_mark.column)
    if isinstance(node, yaml.ScalarNode):
        return (*marks, node.value)
    if isinstance(node, yaml.SequenceNode):
        return (*marks, [_tree(x) for x in node.value])
    return (*marks, [(_tree(k), _tree(v)) for k, v in node.value])


@pytest.mark.skipif(not hasattr(yaml, "CSafeLoader"), reason="PyYAML built without libyaml")
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_libyaml_gives_the_nodes_and_marks_of_pyyaml(path):
    text = path.read_text("utf-8")
    slow = [_tree(d) for d in yaml.compose_all(text, Loader=yaml.SafeLoader)]
    fast = [_tree(d) for d in yaml.compose_all(text, Loader=yaml.CSafeLoader)]
    assert fast == slow and len(SHIPPED) > 50


def test_a_refused_text_gets_pyyamls_message_and_place():
    """libyaml's own words («did not find expected ',' or ']'») have no translation: PyYAML's are shown."""
    with pytest.raises(RuleproofError) as err:
        load_yaml_text("id: a\nsteps: [one, two\n", "draft.yaml")
    with pytest.raises(yaml.YAMLError) as pyyaml:
        yaml.compose("id: a\nsteps: [one, two\n", Loader=yaml.SafeLoader)
    mark = pyyaml.value.problem_mark
    shown = err.value.render("en")
    assert err.value.code == "RP103" and f"draft.yaml:{mark.line + 1}" in shown and yaml_problem(pyyaml.value.problem).en in shown
