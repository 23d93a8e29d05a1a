"""Safe YAML loading that remembers where every value came from.

``load_yaml`` reads one YAML document into plain Python data (dict, list, str, int, float, bool,
None) and a :class:`LocMap` from each value's path (a tuple of keys and indices) to its
:class:`~ruleproof.ground.errors.Location`.  It never executes anything: only the YAML core tags are
accepted, duplicate keys are errors (PyYAML silently keeps the last one), and alias expansion is
bounded, so an alias bomb stops with an error instead of eating memory.

Numbers keep their source text (``RawInt``/``RawFloat``), so that a clause id written unquoted
(``540.3``, ``542``) is read back exactly as written.

>>> data, locs = load_yaml_text("steps:\\n  dice: {clause: 512.6.2}\\n", "x.yaml")
>>> data["steps"]["dice"]["clause"], str(locs[("steps", "dice")])
('512.6.2', 'x.yaml:2:3')
"""

from __future__ import annotations

import errno
import stat
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from ruleproof.ground.errors import Localized, Location, RuleproofError, yaml_problem
from ruleproof.ground.i18n import plural

__all__ = ["LocMap", "RawInt", "RawFloat", "load_yaml", "load_yaml_text", "read_text", "MAX_NODES", "MAX_DEPTH",
           "MAX_BYTES", "MAX_ITEMS", "MAX_STRING", "MAX_NUMBER"]

MAX_NODES = 100_000
#: how deep values may nest (the bundled rulebook needs 6 levels; PyYAML's reader recurses per level)
MAX_DEPTH = 40
#: the largest file read (a whole rules text is a few megabytes)
MAX_BYTES = 64 * 1024 * 1024
#: the most items of one YAML list or mapping, and the longest string (the bundled rulebook's are 20
#: and 400): a value beyond them is a broken or hostile input, refused at load (RP118)
MAX_ITEMS = 2_000
MAX_STRING = 20_000
#: the largest number (a die face, an X, an amount: the engines hold small numbers)
MAX_NUMBER = 10 ** 9

_CORE = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_CORE + t for t in ("str", "int", "float", "bool", "null", "timestamp")}


class RawInt(int):
    """An int that remembers how it was written."""

    raw: str


class RawFloat(float):
    """A float that remembers how it was written (``540.30`` stays ``540.30``)."""

    raw: str


class LocMap(dict):
    """Path tuple -> Location.  ``at(path)`` falls back to the nearest recorded ancestor."""

    file: str = "<input>"

    def at(self, path: tuple) -> Location:
        path = tuple(path)
        while path:
            if path in self:
                return self[path]
            path = path[:-1]
        return self.get((), Location(self.file))


def read_text(path: str | Path) -> tuple[str, str]:
    """Read a UTF-8 text file; return (text, display name).  Errors are RuleproofErrors."""
    p = Path(path)
    name = str(path)
    if not p.exists():
        raise RuleproofError("RP100", Location(name))
    if p.is_dir():
        raise RuleproofError("RP101", Location(name))
    data = _read_regular(p, name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise RuleproofError("RP102", Location(name, line, col), byte=hex(data[exc.start])) from None
    return text.removeprefix("\ufeff"), name


def _read_regular(p: Path, name: str) -> bytes:
    """The bytes of an ordinary file of at most MAX_BYTES (a device, a pipe or a file that cannot be
    read is refused before anything is read from it)."""
    try:
        mode = p.stat().st_mode
        if not stat.S_ISREG(mode):
            what = "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a pipe or socket"
            raise RuleproofError("RP113", Location(name), what=what)
        with p.open("rb") as fh:
            data = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        code = errno.errorcode.get(exc.errno, type(exc).__name__) if exc.errno is not None else type(exc).__name__
        raise RuleproofError("RP115", Location(name), problem=exc.strerror or code, problem_ru=f"код {code}") from None
    if len(data) > MAX_BYTES:
        raise RuleproofError("RP114", Location(name), size=Localized(f"больше {MAX_BYTES}", f"more than {MAX_BYTES}"), limit=MAX_BYTES)
    return data


#: libyaml's parser where PyYAML was built with it: the same nodes, tags and marks as PyYAML's own (checked on
#: every shipped YAML file), about ten times faster
_FAST = getattr(yaml, "CSafeLoader", None)


def _compose(text: str) -> list:
    """The YAML documents of ``text`` as nodes.  A text libyaml refuses is parsed again by PyYAML's own parser,
    whose messages the error texts translate (:func:`yaml_problem`)."""
    if _FAST is not None:
        try:
            return list(yaml.compose_all(text, Loader=_FAST))
        except yaml.YAMLError:
            pass
    return list(yaml.compose_all(text, Loader=yaml.SafeLoader))


def load_yaml(path: str | Path, what: str = "rulebook") -> tuple[Any, LocMap]:
    """Load one YAML file safely.  See the module docstring."""
    text, name = read_text(path)
    return load_yaml_text(text, name, what)


def load_yaml_text(text: str, name: str = "<input>", what: str = "rulebook") -> tuple[Any, LocMap]:
    if not text.strip() or all(not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()):
        raise RuleproofError("RP104", Location(name), what=what)
    deep = _too_deep(text)
    if deep is not None:
        raise RuleproofError("RP116", Location(name, *deep), limit=MAX_DEPTH)
    try:
        docs = _compose(text)
    except RecursionError:  # pragma: no cover - _too_deep finds such nesting first
        raise RuleproofError("RP116", Location(name), limit=MAX_DEPTH) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        loc = Location(name, mark.line + 1, mark.column + 1) if mark else Location(name)
        raise RuleproofError("RP103", loc, problem=yaml_problem(exc.problem or exc.context or "syntax error")) from None
    except yaml.YAMLError as exc:  # pragma: no cover - PyYAML raises marked errors in practice
        raise RuleproofError("RP103", Location(name), problem=yaml_problem(str(exc))) from None
    docs = [d for d in docs if d is not None]
    if not docs:
        raise RuleproofError("RP104", Location(name), what=what)
    if len(docs) > 1:
        raise RuleproofError("RP109", _loc(name, docs[1]), count=len(docs))
    locs = LocMap()
    locs.file = name
    builder = _Builder(name, locs)
    data = builder.build(docs[0], ())
    return data, locs


def _too_deep(text: str) -> tuple[int, int] | None:
    """(line, column) where flow brackets or block indentation first nest deeper than MAX_DEPTH, or
    None: PyYAML's reader recurses once per level, so such a file is refused before it is read (a
    bracket inside a quoted string counts too — harmless, as no real file nests that far)."""
    depth = 0
    for n, line in enumerate(text.splitlines(), 1):
        stripped = line.lstrip(" -")
        if stripped and not stripped.startswith("#") and (len(line) - len(stripped)) // 2 > MAX_DEPTH:
            return n, 1
        for col, ch in enumerate(line, 1):
            if ch in "[{":
                depth += 1
                if depth > MAX_DEPTH:
                    return n, col
            elif ch in "]}":
                depth = max(0, depth - 1)
    return None


def _loc(name: str, node: Node) -> Location:
    return Location(name, node.start_mark.line + 1, node.start_mark.column + 1)


class _Builder:
    """Turns a composed node tree into plain data, with locations and safety checks."""

    def __init__(self, name: str, locs: LocMap) -> None:
        self.name = name
        self.locs = locs
        self.count = 0
        self.active: set[int] = set()
        self.constructor = SafeConstructor()

    def build(self, node: Node, path: tuple) -> Any:
        self.count += 1
        if self.count > MAX_NODES or id(node) in self.active:
            raise RuleproofError("RP107", _loc(self.name, node), limit=MAX_NODES)
        self.locs.setdefault(path, _loc(self.name, node))
        if not isinstance(node, ScalarNode) and len(node.value) > MAX_ITEMS:
            n = len(node.value)
            raise RuleproofError("RP118", _loc(self.name, node), what=f"{n} {plural(n, 'item|items')}",
                                 what_ru=f"{n} {plural(n, 'элемент|элемента|элементов', 'ru')}", limit=MAX_ITEMS)
        if isinstance(node, ScalarNode):
            return self._scalar(node)
        self.active.add(id(node))
        try:
            if isinstance(node, SequenceNode):
                self._check_tag(node, _CORE + "seq")
                return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
            if isinstance(node, MappingNode):
                self._check_tag(node, _CORE + "map")
                return self._mapping(node, path)
        finally:
            self.active.discard(id(node))
        raise RuleproofError("RP103", _loc(self.name, node), problem=Localized("узел неизвестного вида", "unsupported node"))  # pragma: no cover

    def _mapping(self, node: MappingNode, path: tuple) -> dict:
        out: dict = {}
        first_line: dict = {}
        for key_node, value_node in node.value:
            if key_node.tag == _CORE + "merge":
                raise RuleproofError("RP106", _loc(self.name, key_node), tag=Localized("<< (ключ слияния)", "<< (merge key)"))
            if not isinstance(key_node, ScalarNode):
                raise RuleproofError("RP103", _loc(self.name, key_node), problem=Localized("ключ отображения должен быть простым значением",
                                                                  "a mapping key must be a plain value"))
            key = self._scalar(key_node)
            key = key.raw if hasattr(key, "raw") else key
            if isinstance(key, (int, float)) or key is None or isinstance(key, bool):
                key = key_node.value
            if key in out:
                raise RuleproofError("RP105", _loc(self.name, key_node), key=key, first=first_line[key])
            first_line[key] = key_node.start_mark.line + 1
            self.locs[path + (key,)] = _loc(self.name, key_node)  # a value is located by its key
            out[key] = self.build(value_node, path + (key,))
        return out

    def _check_tag(self, node: Node, expected: str) -> None:
        if node.tag != expected:
            raise RuleproofError("RP106", _loc(self.name, node), tag=node.tag)

    def _scalar(self, node: ScalarNode) -> Any:
        if node.tag not in _SCALAR_TAGS:
            raise RuleproofError("RP106", _loc(self.name, node), tag=node.tag)
        if len(node.value) > MAX_STRING:
            n = len(node.value)
            raise RuleproofError("RP118", _loc(self.name, node), what=f"a value of {n} {plural(n, 'character|characters')}",
                                 what_ru=f"значение из {n} {plural(n, 'символа|символов|символов', 'ru')}",
                                 limit=MAX_STRING)
        if node.tag == _CORE + "timestamp":
            return node.value
        value = SafeConstructor.yaml_constructors[node.tag](self.constructor, node)
        if isinstance(value, bool) or value is None:
            return value
        if isinstance(value, int):
            if abs(value) > MAX_NUMBER:
                raise RuleproofError("RP118", _loc(self.name, node), what=f"the number {node.value[:30]}",
                                     what_ru=f"число {node.value[:30]}", limit=MAX_NUMBER)
            value = RawInt(value)
            value.raw = node.value
        elif isinstance(value, float):
            value = RawFloat(value)
            value.raw = node.value
        return value
