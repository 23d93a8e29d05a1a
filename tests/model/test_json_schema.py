"""The JSON Schemas an editor uses (model/json_schema.py, `ruleproof schema`): every shipped YAML
validates against them, the files in schemas/ are what the command writes, each shipped YAML names
its schema on its first line, and the misspellings an editor makes are schema errors."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import jsonschema
import pytest

from ruleproof.commands.schema import render
from ruleproof.model.json_schema import SCHEMAS, rulebook_schema, scenario_schema
from ruleproof.model.yaml_source import load_yaml

ROOT = Path(__file__).resolve().parents[2]
RULEBOOKS = [ROOT / "rulebooks" / "berserk-rp-4.1-2.yaml", *sorted((ROOT / "rulebooks" / "drafts").glob("*.yaml"))]
RULINGS = sorted((ROOT / "rulings").glob("*.yaml"))
SHIPPED = [("rulebook", p) for p in RULEBOOKS] + [("scenario", p) for p in RULINGS]


@pytest.fixture(scope="module")
def validators():
    out = {"rulebook": rulebook_schema(), "scenario": scenario_schema()}
    for s in out.values():
        jsonschema.Draft7Validator.check_schema(s)
    return {k: jsonschema.Draft7Validator(s) for k, s in out.items()}


def _errors(validator, data) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message[:160]}" for e in validator.iter_errors(data)]


@pytest.mark.parametrize("kind,path", SHIPPED, ids=[p.name for _, p in SHIPPED])
def test_every_shipped_yaml_validates(kind, path, validators):
    data, _ = load_yaml(path, kind)
    assert _errors(validators[kind], data) == []


@pytest.mark.parametrize("kind,path", SHIPPED, ids=[p.name for _, p in SHIPPED])
def test_every_shipped_yaml_names_its_schema_first(kind, path):
    first = path.read_text("utf-8").splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    target = (path.parent / first.split("$schema=", 1)[1].strip()).resolve()
    assert target in (ROOT / "schemas" / f"{kind}.schema.json", ROOT / "schemas" / f"{kind}.ru.schema.json")


@pytest.mark.parametrize("kind", SCHEMAS)
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_schemas_in_the_repository_are_what_the_command_writes(kind, lang):
    name = f"{kind}.schema.json" if lang == "en" else f"{kind}.{lang}.schema.json"
    assert (ROOT / "schemas" / name).read_text("utf-8") == render(kind, lang), \
        f"regenerate: ruleproof schema {kind} --lang {lang} -o schemas/{name}"


def test_misspellings_are_schema_errors(validators):
    rb, _ = load_yaml(RULEBOOKS[0], "rulebook")
    sc, _ = load_yaml(ROOT / "rulings" / "540-text-waives-marker.yaml", "scenario")
    cases = []
    d = copy.deepcopy(rb)
    d["steps"]["payment"]["operations"][0]["exempt_modifed"] = False  # a parameter the operation lacks
    cases.append(("rulebook", d, "exempt_modifed"))
    d = copy.deepcopy(rb)
    d["steps"]["payment"]["operations"][0]["when"] = "resource_modifed"  # no such guard
    cases.append(("rulebook", d, "resource_modifed"))
    d = copy.deepcopy(rb)
    d["steps"]["payment"]["operations"][0]["op"] = "pay_reservd"  # no such operation
    cases.append(("rulebook", d, "pay_reservd"))
    d = copy.deepcopy(sc)
    d["responses"] = [{"window": "efect_triggers", "player": "A", "play": "scout_swift"}]  # no such window
    cases.append(("scenario", d, "efect_triggers"))
    d = copy.deepcopy(sc)
    d["cards"]["scout"]["features"][0]["kind"] = "resource_modifer"  # no such feature kind
    cases.append(("scenario", d, "resource_modifer"))
    d = copy.deepcopy(sc)
    d["cards"]["scout"]["features"][0]["kind"] = "block"  # a key (form, action_marker) block does not read
    cases.append(("scenario", d, "block"))
    for kind, data, culprit in cases:
        errors = _errors(validators[kind], data)
        assert errors and any(culprit in e for e in errors), (culprit, errors)


def test_an_unquoted_clause_id_is_a_word(validators):
    sc, _ = load_yaml(ROOT / "rulings" / "540-text-waives-marker.yaml", "scenario")
    sc = copy.deepcopy(sc)
    sc["clauses"] = [540.3]  # the loader keeps the text 540.3
    assert _errors(validators["scenario"], sc) == []


def test_schema_command_writes_a_file(tmp_path, capsys):
    from ruleproof.cli import main

    out = tmp_path / "s.json"
    assert main(["schema", "scenario", "-o", str(out), "--lang", "ru"]) == 0
    doc = json.loads(out.read_text("utf-8"))
    assert doc["title"].startswith("Разъяснение")
    assert "Записано" in capsys.readouterr().err


def test_cases_and_a_top_level_expect_exclude_each_other(validators):
    sc, _ = load_yaml(ROOT / "rulings" / "512-after-status.yaml", "scenario")
    assert _errors(validators["scenario"], sc) == []
    both = {**copy.deepcopy(sc), "expect": {"outcome": "completed"}}
    assert _errors(validators["scenario"], both)
    neither = {k: v for k, v in sc.items() if k != "cases"}
    assert _errors(validators["scenario"], neither)
    d = copy.deepcopy(sc)
    d["cases"][0]["cards"] = {"warden": {"wound": 0}}  # a misspelt card field in a case
    assert any("wound" in e for e in _errors(validators["scenario"], d))


def test_the_schema_command_offers_every_schema():
    from ruleproof.commands.schema import KINDS

    assert KINDS == SCHEMAS


@pytest.mark.parametrize("kind,path", SHIPPED, ids=[p.name for _, p in SHIPPED])
def test_every_shipped_yaml_validates_as_an_editor_reads_it(kind, path, validators):
    """PyYAML and editors read YAML 1.1 (a bare ``on:`` key is true): the shipped files validate read so too."""
    import yaml

    assert _errors(validators[kind], yaml.safe_load(path.read_text("utf-8"))) == []


def _strip(node):
    if isinstance(node, dict):
        return {k: _strip(v) for k, v in node.items() if k not in ("description", "title")}
    return [_strip(v) for v in node] if isinstance(node, list) else node


@pytest.mark.parametrize("kind", SCHEMAS)
def test_the_russian_schema_validates_as_the_english_one(kind):
    """An editor line may name either: they differ in their descriptions only."""
    en, ru = (json.loads((ROOT / "schemas" / f"{kind}{s}.schema.json").read_text("utf-8")) for s in ("", ".ru"))
    assert _strip(en) == _strip(ru)
    assert any("ё" in v or "ы" in v for v in json.dumps(ru, ensure_ascii=False).split('"'))


def test_the_editor_takes_what_the_loader_reads(tmp_path, validators):
    """да/нет (any case), a quoted number, in a card and in ``expect``: the schema and the loader both take them;
    a misspelled expectation field: both refuse it (the loader with RP112)."""
    import yaml

    from ruleproof.ground.errors import RuleproofError
    from ruleproof.model.scenario import load_scenario

    data = yaml.safe_load((ROOT / "rulings" / "542-leshy.yaml").read_text("utf-8"))
    data["cards"]["leshy"]["wounds"] = "2"
    data["cards"]["archer"]["closed"] = "Нет"
    data["expect"]["cards"]["leshy"] = {"wounds": "0", "healthy": "ДА", "closed": "нет"}
    data["expect"]["x"]["X"]["value"] = "3"
    data["expect"]["action"]["legal"] = "да"
    path = tmp_path / "judge.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), "utf-8")
    assert _errors(validators["scenario"], data) == []
    load_scenario(path)  # the loader reads it too
    for section, key in (("cards", "helthy"), ("action", "magnitude_finall"), ("x", "fixd_at")):
        bad = copy.deepcopy(data)
        target = bad["expect"][section]
        (target["leshy"] if section == "cards" else target["X"] if section == "x" else target)[key] = 1
        assert _errors(validators["scenario"], bad), key
        path.write_text(yaml.safe_dump(bad, allow_unicode=True), "utf-8")
        with pytest.raises(RuleproofError) as err:
            load_scenario(path)
        assert err.value.code in ("RP112", "RP113", "RP110"), err.value.code

