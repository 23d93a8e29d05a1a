"""One meaning per word: each word of the vocabulary has its behaviour in one place, and a second
table of it anywhere in the package fails here (the day someone adds it)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import tomllib
from pathlib import Path

from ruleproof.model import algebra, semantics, symbolic
from ruleproof.model.interpreter import _Run
from ruleproof.model.vocabulary import FEATURE_KINDS, GUARDS, OPERATIONS

#: every package of the distribution that holds code (pyproject.toml's list; the data packages left out)
PACKAGES = tuple(p for p in tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text("utf-8"))
                 ["tool"]["setuptools"]["packages"] if p not in ("ruleproof.rulebooks", "ruleproof.rulings"))


def _modules():
    for pkg in PACKAGES:
        p = importlib.import_module(pkg)
        for m in pkgutil.iter_modules(p.__path__):
            if not m.ispkg and m.name != "__main__":
                yield importlib.import_module(f"{pkg}.{m.name}")


def tables(words: set[str]) -> dict[int, str]:
    """Every dict in the package (module globals and class attributes) keyed by two or more of
    ``words``: id of the dict -> where it is defined (re-exports of one object count once)."""
    found: dict[int, str] = {}
    for mod in _modules():
        items = list(vars(mod).items())
        for name, value in list(items):
            if inspect.isclass(value) and value.__module__ == mod.__name__:
                items += [(f"{name}.{k}", v) for k, v in vars(value).items()]
        for name, value in items:
            if isinstance(value, dict) and len({k for k in value if isinstance(k, str)} & words) >= 2:
                where = f"{mod.__name__}.{name}"
                if id(value) not in found or getattr(value, "__module__", None):
                    found.setdefault(id(value), where)
    return found


def _where(*objs) -> set[int]:
    return {id(o) for o in objs}


def _sources():
    from pathlib import Path

    for mod in _modules():
        path = Path(mod.__file__)
        yield f"{path.parent.name}/{path.name}", path.read_text(encoding="utf-8")


def literal_tables(words: set[str], sources=None) -> list[str]:
    """Every dict or set written in the package's source (inside functions too) whose keys or items
    hold two or more of ``words``, as file:line."""
    import ast

    found = []
    for name, text in sources if sources is not None else _sources():
        for node in ast.walk(ast.parse(text)):
            items = node.keys if isinstance(node, ast.Dict) else node.elts if isinstance(node, ast.Set) else ()
            names = {k.value for k in items if isinstance(k, ast.Constant) and isinstance(k.value, str)}
            if len(names & words) >= 2:
                found.append(f"{name}:{node.lineno}")
    return found


def test_guards_have_one_declaration_and_one_meaning():
    assert set(tables(set(GUARDS))) == _where(GUARDS, semantics.GUARDS), tables(set(GUARDS))
    assert set(semantics.GUARDS) == set(GUARDS)
    # no other table of guard words written anywhere, inside a function either (the old System.guard)
    [where] = literal_tables(set(GUARDS) - {"always"})
    assert where.startswith("model/semantics.py:"), where


def test_the_source_scan_sees_a_table_inside_a_method():
    """literal_tables reads method bodies: the shape of the old second meaning (System.guard) is found."""
    src = "class System:\n    def guard(self, S):\n        return {'is_attack': 1, 'action_blocked': 2}[S]\n"
    assert literal_tables(set(GUARDS), [("model/symbolic.py", src)]) == ["model/symbolic.py:3"]


def test_offers_have_one_meaning():
    """When a held feature may be played is defined in semantics.OFFERS only: neither engine
    compares feature kinds where it asks (their code names none)."""
    kinds = set(FEATURE_KINDS)
    for fn in (_Run.offer, _Run.options, symbolic.System.playable, symbolic.System.offered):
        src = inspect.getsource(fn)
        assert not [k for k in kinds if f'"{k}"' in src], fn.__qualname__
    assert set(semantics.OFFERS) <= kinds


def test_exemptions_have_one_meaning():
    """540's exemptions: the interpreter, the encoding and the payment property all read
    exempts.exempts; none tests a 540.1 form itself."""
    from ruleproof.model import algebra_z3
    from ruleproof.properties import monitor_run, monitor_z3

    for fn in (symbolic.System.exempt, algebra.exemptions, algebra_z3.Symbolic.exempt_entry,
               monitor_run.Concrete.exempt_any, monitor_run.Concrete.unpaid_any, monitor_run.Concrete.pays_other_than_due,
               monitor_z3.Symbolic.exempt_any, monitor_z3.Symbolic.unpaid_any, monitor_z3.Symbolic.pays_other_than_due):
        src = inspect.getsource(fn)
        assert "closes_only_after_assault" not in src and "stays_open" not in src, fn.__qualname__


def test_properties_have_one_definition():
    """Each property is one monitor of the catalogue; the trace predicate and the Z3 form are derived
    from it.  No table keyed by property ids holds anything the catalogue did not derive, no module
    but the catalogue states a property (no ``z3forms``), and each Z3 form's history variables are the
    monitor's own (per feature: one per option of the menu)."""
    import re

    from ruleproof.model.menu import OPTIONS
    from ruleproof.properties import catalogue, monitor_z3

    ids = {p.id for p in catalogue.PROPERTIES}
    from ruleproof.properties import schedule

    # BY_ID and FORMS are the catalogue and what is derived from it; the scheduler's table holds
    # measured proof times (the order proofs are handed out in), not what a property means
    assert set(tables(ids)) == _where(catalogue.BY_ID, monitor_z3.FORMS, schedule._COST), tables(ids)
    assert not any(m.__name__.endswith("z3forms") for m in _modules())
    for p in catalogue.PROPERTIES:
        form = monitor_z3.FORMS[p.id]
        want = [v.name + ("" if v.each is None else str(i)) for v in p.monitor.hist
                for i in ((None,) if v.each is None else [i for i, o in enumerate(OPTIONS) if v.each(o.feature, o.card)])]
        assert [h.name for h in form.hist] == want, p.id
        assert p.check.__func__ is catalogue.Property.check  # the trace predicate: the monitor run
    # a property's statement (its bad conditions, its clauses) is written in the catalogue only
    for name, text in _sources():
        if name.startswith("catalogue/"):
            continue
        stated = [m for m in re.findall(r'Bad\(|Monitor\(\s*"P5', text)]
        assert not stated or name == "properties/monitor.py", name


def test_property_constants_are_stated_once():
    """The may-declare table and the step order live in the catalogue (and only there)."""
    from ruleproof.properties import catalogue

    may = tables({"reroll", "dice_modifier", "block", "magnitude_modifier"})
    assert _where(catalogue.MAY_DECLARE) <= set(may)
    assert catalogue.STEP_ORDER[0] == "declaration" and catalogue.STEP_ORDER.index("payment") > catalogue.STEP_ORDER.index("completion")


def _twice() -> list[str]:
    """The operations whose update each engine still writes itself (not derived from semantics)."""
    from ruleproof.model import encoding, interpreter

    def derived(table: dict, n: str) -> bool:  # absent from a table (the loop's own step) or compiled from semantics
        return n not in table or getattr(table[n], "meaning", None) == n

    return sorted(n for n in OPERATIONS if n != "window" and not (
        derived(interpreter.HANDLERS, n) and derived(encoding.OPS, n)))


def test_operations_in_semantics_are_derived_by_both_engines():
    """An operation of semantics.OPERATIONS has no handler or Z3 body of its own: both are compiled
    from its one meaning (a hand-written one put back in either table fails here)."""
    from ruleproof.model import encoding, interpreter

    assert len(semantics.OPERATIONS) >= 10
    for name in semantics.OPERATIONS:
        assert getattr(interpreter.HANDLERS[name], "meaning", None) == name, name
        assert getattr(encoding.OPS[name], "meaning", None) == name, name
    assert not set(semantics.OPERATIONS) & set(_twice())


def test_every_operation_has_one_meaning():
    """No operation's update is written by an engine itself: both tables are compiled from semantics."""
    assert _twice() == [], _twice()
    assert set(semantics.OPERATIONS) == set(OPERATIONS) - {"window"}


def test_plays_have_one_meaning():
    """What playing a feature of each kind does is semantics.PLAYS only: neither engine names a feature
    kind where it plays one, and no other table is keyed by the kinds."""
    from ruleproof.model import derive, encoding, interpreter

    for fn in (encoding.play_body, interpreter._Run._answer, derive.concrete_play, derive.symbolic_play):
        src = inspect.getsource(fn)
        assert not [k for k in FEATURE_KINDS if f'"{k}"' in src], fn.__qualname__
    from ruleproof.model.vocabulary import X_KINDS
    from ruleproof.properties.catalogue import MAY_DECLARE

    kinds = set(FEATURE_KINDS) - set(X_KINDS)  # "dice_modifier" also names an X kind (542.5)
    # MAY_DECLARE is a property's statement of what the clauses allow, not a meaning of a play
    assert set(tables(kinds)) == _where(FEATURE_KINDS, semantics.OFFERS, semantics.PLAYS, MAY_DECLARE)
    assert set(semantics.PLAYS) == set(FEATURE_KINDS)


def test_a_hand_written_play_put_back_is_seen():
    """The table scan finds a second table of plays (the shape of the old interpreter.PLAYS)."""
    src = "PLAYS = {'block': _play_block, 'reroll': _play_reroll}\n"
    assert literal_tables(set(FEATURE_KINDS), [("model/interpreter.py", src)]) == ["model/interpreter.py:1"]


def test_worlds_are_made_from_one_menu():
    """The Hypothesis strategies, the explorer's bounded worlds and the Z3 world menu build their cards,
    X variables and actions with the menu's builders (model/menu.py): roles, the printed layout, X
    names and the action's cost are stated once."""
    import re

    from ruleproof.generators import bounded, strategies
    from ruleproof.model import menu

    for mod in (bounded, strategies, menu):
        src = inspect.getsource(mod)
        for builder in ("card", "action", "x_var"):
            src = src.replace(inspect.getsource(getattr(menu, builder)), "") if mod is menu else src
        assert not re.search(r"\b(Card|Action|XVar)\(", src), mod.__name__
    from hypothesis import find

    drawn = find(strategies.worlds(), lambda s: len(s.cards) == 5)
    made = bounded.bounded_worlds(0)[0].state
    for state in (drawn, made, menu.world_state(menu.menu_world(lambda d: d[0], lambda: True))):
        assert all(c.controller == menu.ROLES[c.id] for c in state.cards)
        assert [k for k, _ in state.cards[0].printed] == [k for k, _ in menu.card("src").printed]


def test_the_abstraction_of_a_field_is_stated_once():
    """A field an operation's meaning writes is abstracted by fields.py alone: abstraction.abstract
    reads it through FIELDS and names none of them itself."""
    from ruleproof.model import abstraction
    from ruleproof.model.fields import FIELDS

    src = inspect.getsource(abstraction.abstract)
    named = [f.name for f in FIELDS.values() if f.var and f'"{f.name}"' in src]
    assert not named, named
    assert "FIELDS" in src
