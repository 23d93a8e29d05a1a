"""Bad rulebooks: one message with file:line, what is wrong and how to fix it; exit 2; no traceback."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from ruleproof.cli import main
from ruleproof.ground.errors import RuleproofError
from ruleproof.model.rulebook import load_rulebook, load_rulebook_text


def run_check(path: Path | str, capsys, lang: str = "en") -> tuple[int, str, str]:
    rc = main(["--lang", lang, "check", str(path), "--engines", "structure"])
    out, err = capsys.readouterr()
    return rc, out, err


def assert_bad_input(path, capsys, code: str, line: int | None, *words: str) -> str:
    rc, out, err = run_check(path, capsys)
    assert rc == 2, err
    assert out == "", "no report may be written on bad input"
    assert "Traceback" not in err
    assert f"error {code}:" in err
    assert "fix:" in err
    where = f"{path}:{line}" if line is not None else str(path)
    assert err.startswith(where), err
    for w in words:
        assert w in err, err
    assert err.count("error ") == 1, "exactly one message"
    return err


def write(tmp_path: Path, text: str | bytes, name: str = "rb.yaml") -> Path:
    p = tmp_path / name
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p


def test_invalid_yaml(tmp_path, capsys):
    p = write(tmp_path, "format: ruleproof-rulebook/1\nsteps:\n  dice: [unclosed\n")
    assert_bad_input(p, capsys, "RP103", 4, "invalid YAML")


def test_empty_file(tmp_path, capsys):
    assert_bad_input(write(tmp_path, "\n# only a comment\n"), capsys, "RP104", None, "empty")


def test_wrong_top_level_type(tmp_path, capsys):
    assert_bad_input(write(tmp_path, "- a\n- b\n"), capsys, "RP108", 1, "mapping", "list")


def test_missing_key(write_rulebook, capsys, bundled_data):
    p = write_rulebook(lambda d: d["steps"]["dice"].pop("kind"))
    err = assert_bad_input(p, capsys, "RP111", None, "'kind'", "steps → dice")
    assert f"{p}:" in err


def test_missing_top_level_key(tmp_path, capsys):
    p = write(tmp_path, "format: ruleproof-rulebook/1\nid: x\ntitle: {ru: a, en: b}\nstart: a\n")
    assert_bad_input(p, capsys, "RP111", 1, "'steps'")


def test_unknown_key(write_rulebook, capsys):
    p = write_rulebook(lambda d: d["steps"]["dice"].update(nxt=[]))
    assert_bad_input(p, capsys, "RP112", None, "'nxt'", "allowed keys", "next")


def test_unknown_operation(write_rulebook, capsys):
    def edit(d):
        d["steps"]["dice"]["operations"][0]["op"] = "roll_dice"
    err = assert_bad_input(write_rulebook(edit), capsys, "RP120", None, "'roll_dice'", "did you mean 'roll_die'")
    assert "fix_x" in err  # the fix lists the known operations


def test_unknown_clause_id(write_rulebook, capsys):
    def edit(d):
        d["steps"]["calculation"]["cites"] = ["512.6.33"]
    assert_bad_input(write_rulebook(edit), capsys, "RP121", None, "'512.6.33'", "did you mean")


def test_malformed_clause_id(write_rulebook, capsys):
    def edit(d):
        d["steps"]["calculation"]["cites"] = ["п. 512.6.3"]
    assert_bad_input(write_rulebook(edit), capsys, "RP122", None, "not a clause id")


def test_unquoted_clause_ids_are_read_as_written(tmp_path):
    """YAML would read 540.3 as a float and 542 as an int; ids keep their written form."""
    text = (Path(load_rulebook().path).read_text("utf-8")
            .replace('cites: ["540.3", "510.2"]', "cites: [540.3, 510.2]")
            .replace('cites: ["542.2", "542.3", "540.2", "512"]', "cites: [542.2, 542.3, 540.2, 512]"))
    assert "cites: [540.3, 510.2]" in text
    rb = load_rulebook_text(text, "unquoted.yaml")
    assert rb.spec.steps["declaration"].cites == ["542.2", "542.3", "540.2", "512"]
    assert rb.spec.steps["payment"].operations[1].cites == ["540.3", "510.2"]


def test_guard_naming_unknown_step(write_rulebook, capsys):
    def edit(d):
        d["steps"]["blocking"]["next"][0]["when"] = "visited(calculaton)"
    assert_bad_input(write_rulebook(edit), capsys, "RP124", None, "'calculaton'", "calculation")


def test_unknown_guard(write_rulebook, capsys):
    def edit(d):
        d["steps"]["blocking"]["next"][0]["when"] = "is_blocked"
    assert_bad_input(write_rulebook(edit), capsys, "RP123", None, "'is_blocked'", "action_blocked")


@pytest.mark.parametrize("when, value", [("cost_x_at_least(x)", "x"), ("cost_x_at_least(16)", "16"),
                                         ("cost_x_at_least(-1)", "-1"), ("not cost_x_at_least()", ""),
                                         ("cost_x_at_least(1.5)", "1.5"), ("plays_at_least(two)", "two"),
                                         ("not plays_at_least(99)", "99")])
def test_a_number_guard_needs_a_whole_number_from_0_to_15(write_rulebook, capsys, when, value):
    def edit(d):
        d["steps"]["blocking"]["next"][0]["when"] = when
    name = when.removeprefix("not ").split("(")[0]
    assert_bad_input(write_rulebook(edit), capsys, "RP144", None, f"'{when}'", f"'{value}' is not a whole number",
                     f"{name}(N)", f"{name}(2)")


def test_a_number_guard_without_its_number_is_unknown(write_rulebook, capsys):
    def edit(d):
        d["steps"]["blocking"]["next"][0]["when"] = "cost_x_at_least"
    assert_bad_input(write_rulebook(edit), capsys, "RP123", None, "'cost_x_at_least'", "cost_x_at_least(N)",
                     "visited(STEP)")


def test_dangling_edge(write_rulebook, capsys):
    def edit(d):
        d["steps"]["dice"]["next"][0]["to"] = "calc"
    assert_bad_input(write_rulebook(edit), capsys, "RP125", None, "'calc'", "calculation")


def test_unreachable_step(write_rulebook, capsys):
    def edit(d):  # nothing leads to blocking any more
        d["steps"]["calculation"]["next"][1]["to"] = "effect"
    err = assert_bad_input(write_rulebook(edit), capsys, "RP126", None, "'blocking'", "cannot be reached")
    assert "add an edge into 'blocking'" in err


def test_unknown_assumption(write_rulebook, capsys):
    def edit(d):
        d["steps"]["dice"]["operations"][0]["assumes"] = ["A-die"]
    assert_bad_input(write_rulebook(edit), capsys, "RP127", None, "'A-die'", "A-die-roll")


def test_bad_operation_parameter(write_rulebook, capsys, op_index):
    def edit(d):
        d["steps"]["declaration"]["operations"][op_index(d, "declaration", "fix_x", x="cost")]["x"] = "price"
    assert_bad_input(write_rulebook(edit), capsys, "RP128", None, "'x' is 'price'", "cost, targets")


@pytest.mark.parametrize("edit,code,en,ru", [
    (lambda d, i: d["steps"]["dice"]["operations"][i(d, "dice", "fix_x", x="dice_modifier")]
     .update(reads="printd"), "RP128", "'reads' is 'printd' (did you mean 'printed'?)",
     "ключ 'reads': значение 'printd' (возможно, имелось в виду 'printed'?)"),
    (lambda d, i: d["tables"]["trigger_words"]["rows"].update(strike=["atack", "return_strike"]), "RP134",
     "(did you mean 'attack'?)", "(возможно, имелось в виду 'attack'?)"),
])
def test_a_misspelt_value_gets_the_nearest_in_the_message_language(write_rulebook, capsys, op_index, edit, code,
                                                                     en, ru):
    """A misspelt parameter value or trigger word is named with the nearest choice; the Russian message
    says it in Russian (it used to read «'reads' is 'printd'» and «use one of»)."""
    path = write_rulebook(lambda d: edit(d, op_index))
    assert_bad_input(path, capsys, code, None, en)
    rc, out, err = run_check(path, capsys, "ru")
    assert rc == 2 and f"ошибка {code}" in err and ru in err
    assert not any(w in err for w in (" is ", "use one of", "did you mean")), err


def test_unknown_feature_kind_in_window(write_rulebook, capsys, op_index):
    def edit(d):
        d["steps"]["dice"]["operations"][op_index(d, "dice", "window", id="reroll")]["allows"] = ["re-roll"]
    assert_bad_input(write_rulebook(edit), capsys, "RP131", None, "'re-roll'", "reroll")


def test_wrong_format_version(write_rulebook, capsys):
    assert_bad_input(write_rulebook(lambda d: d.update(format="ruleproof-rulebook/9")), capsys, "RP132", None,
                     "ruleproof-rulebook/1")


def test_duplicate_keys(tmp_path, capsys):
    text = Path(load_rulebook().path).read_text("utf-8")
    text = text.replace("  handover:\n", "  dice:\n    kind: dice\n    name: {ru: x, en: x}\n  handover:\n")
    p = write(tmp_path, text)
    first = text.splitlines().index("  dice:") + 1
    second = len(text.splitlines()) - text.splitlines()[::-1].index("  dice:")
    assert_bad_input(p, capsys, "RP105", second, "duplicate key 'dice'", f"first at line {first}")


def test_python_tag_is_not_executed(tmp_path, capsys):
    marker = tmp_path / "pwned"
    p = write(tmp_path, f'format: !!python/object/apply:os.system ["touch {marker}"]\n')
    assert_bad_input(p, capsys, "RP106", 1, "tag:yaml.org,2002:python/object/apply:os.system", "never executes")
    assert not marker.exists()


def test_alias_bomb_stops_quickly(tmp_path, capsys):
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        refs = ",".join([f"*a{i - 1}"] * 9)
        lines.append(f"a{i}: &a{i} [{refs}]")
    p = write(tmp_path, "\n".join(lines) + "\n")
    started = time.process_time()
    assert_bad_input(p, capsys, "RP107", None, "aliases expand")
    assert time.process_time() - started < 60  # 9**10 nodes would never finish; the budget stops it


def test_recursive_alias(tmp_path, capsys):
    assert_bad_input(write(tmp_path, "a: &a [*a]\n"), capsys, "RP107", 1, "refer to themselves")


def test_non_utf8_file(tmp_path, capsys):
    p = write(tmp_path, "id: x\ntitle: {ru: ".encode() + "Берсерк".encode("cp1251") + b", en: b}\n")
    assert_bad_input(p, capsys, "RP102", 2, "not valid UTF-8")


def test_missing_file(tmp_path, capsys):
    assert_bad_input(tmp_path / "nope.yaml", capsys, "RP100", None, "not found")


def test_directory(tmp_path, capsys):
    assert_bad_input(tmp_path, capsys, "RP101", None, "directory")


def test_multiple_documents(tmp_path, capsys):
    assert_bad_input(write(tmp_path, "a: 1\n---\nb: 2\n"), capsys, "RP109", 3, "2 YAML documents")


def test_errors_in_russian(write_rulebook, capsys):
    def edit(d):
        d["steps"]["dice"]["next"][0]["to"] = "calc"
    rc, out, err = run_check(write_rulebook(edit), capsys, lang="ru")
    assert rc == 2 and "ошибка RP125" in err and "как исправить" in err and "Traceback" not in err


def test_wrong_value_type_ru_and_en(write_rulebook, capsys):
    def edit(d):
        d["steps"]["dice"]["cites"] = {"a": 1}
    p = write_rulebook(edit)
    rc, _, err = run_check(p, capsys)
    assert rc == 2 and "error RP110: steps → dice → cites" in err and "valid list" in err
    rc, _, err = run_check(p, capsys, lang="ru")
    assert rc == 2 and "ожидается список" in err


def test_error_location_points_at_the_culprit(tmp_path):
    text = Path(load_rulebook().path).read_text("utf-8").replace("{op: roll_die,", "{op: roll_dice,")
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "roll_dice" in ln)
    with pytest.raises(RuleproofError) as exc:
        load_rulebook_text(text, "edited.yaml")
    assert exc.value.code == "RP120"
    assert (exc.value.location.file, exc.value.location.line) == ("edited.yaml", line)


def test_subprocess_bad_input_has_no_traceback(tmp_path):
    p = write(tmp_path, "steps: [\n")
    proc = subprocess.run([sys.executable, "-m", "ruleproof", "check", str(p)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr and "RP103" in proc.stderr


def test_missing_table(write_rulebook, capsys):
    assert_bad_input(write_rulebook(lambda d: d["tables"].pop("strike_table")), capsys, "RP135", None,
                     "no table 'strike_table'")


def test_unknown_table(write_rulebook, capsys):
    def edit(d):
        d["tables"]["strike_tabel"] = {"cites": ["512.6.2/b4.1.1"], "rows": {}}
    assert_bad_input(write_rulebook(edit), capsys, "RP133", None, "'strike_tabel'", "strike_table")


def test_bad_table_row(write_rulebook, capsys):
    def edit(d):
        d["tables"]["strike_table"]["rows"]["3"] = ["mediun", "none"]
    assert_bad_input(write_rulebook(edit), capsys, "RP134", None, "row 3", "weak, medium, strong, miss", "(position 1)", "medium")


def test_table_missing_a_row(write_rulebook, capsys):
    def edit(d):
        del d["tables"]["strike_table"]["rows"]["6"]
    assert_bad_input(write_rulebook(edit), capsys, "RP134", None, "rows must be exactly 1, 2, 3, 4, 5, 6")
