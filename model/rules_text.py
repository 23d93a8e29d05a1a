"""Parse a rules text (numbered clauses, «●» «○» «■» bullets, ПРИМЕР blocks) into clause units.

The official wording of the rules is never shipped with ruleproof: it is read from a document the
user gives (``--rules-text PATH``, a file or a folder of ``.txt`` files).  Every addressable piece
of the text is a *unit*:

==================  ==========================================================
``512.6.2``         the clause's lead text (after the number)
``512.6.2/b3``      its third «●» bullet; ``/b4.1`` the first «○» under it;
                    ``/b4.1.2`` the second «■» under that
``542.1/p1``        a plain paragraph that follows the bullets
``540.4.1/ex1``     the first ПРИМЕР block after the clause
``512.5/t1``        a bullet of a clause whose beginning is not in the text
==================  ==========================================================

Fragments may come in any order: a fragment that starts mid-clause continues the clause that
another fragment leaves open (the one whose last clause precedes this fragment's first clause);
when no fragment does, the orphan lines become the tail (``/t1``…) of the preceding clause, which
is then marked partial.

>>> text = "512.6.2. Шаг.\\n● первый;\\n○ вложенный\\n■ глубже\\nПРИМЕР: Пример."
>>> rt = parse_rules_text([("a.txt", text)])
>>> [u.id for u in rt.units.values()]
['512.6.2', '512.6.2/b1', '512.6.2/b1.1', '512.6.2/b1.1.1', '512.6.2/ex1']
>>> rt.units["512.6.2/b1.1.1"].text, str(rt.units["512.6.2/b1.1.1"].where)
('глубже', 'a.txt:4')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ruleproof.ground.errors import Location, RuleproofError

from .yaml_source import read_text

__all__ = ["Unit", "RulesText", "parse_rules_text", "load_rules_text", "clause_key", "parent_of",
           "REFERENCE_RE", "HEADER_RE", "find_references"]

HEADER_RE = re.compile(r"^\s*(\d{3}(?:\.\d+)*)\.(?!\d)\s*(.*)$")
#: a reference to a clause: a dotted id (540.2, 510.4), a section number followed by its title or a
#: full stop («см. 306. Бросок кубика», «в 511.»), or a list of numbers after «см.»/«п.»
#: («см. 720.10, 720.9 и 703»); a bare number in running text («на 100 единиц») is not one.
REFERENCE_RE = re.compile(r"(?<![\d.,])(\d{3}(?:\.\d+)+|\d{3}(?=\.(?!\d)))(?!\d)")
_REF_LIST_RE = re.compile(r"(?:\bсм\.|\bп\.)\s*((?:п\.\s*)?\d{3}(?:\.\d+)*(?:\s*(?:,|\bи\b)\s*(?:п\.\s*)?\d{3}(?:\.\d+)*)*)",
                          re.IGNORECASE)
_ID_RE = re.compile(r"(?<![\d.])\d{3}(?:\.\d+)*(?!\d)")


def find_references(text: str) -> list[str]:
    """Clause ids a piece of text refers to, in order of appearance.

    >>> find_references("см. 306. Бросок; на 100 единиц; См. 720.10, 720.9 и 703; согласно 520. Модиф.")
    ['306', '720.10', '720.9', '703', '520']
    """
    found = [(m.start(1), m.group(1)) for m in REFERENCE_RE.finditer(text)]
    for m in _REF_LIST_RE.finditer(text):
        found += [(m.start(1) + n.start(), n.group()) for n in _ID_RE.finditer(m.group(1))]
    return list(dict.fromkeys(ref for _, ref in sorted(found)))


_BULLETS = {"●": 1, "○": 2, "■": 3}
_EXAMPLE_RE = re.compile(r"^\s*ПРИМЕР\s*:?\s*(.*)$")


@dataclass
class Unit:
    """One addressable piece of the rules text."""

    id: str
    kind: str  # lead | bullet | paragraph | example | tail
    text: str
    where: Location
    parent: str | None = None

    def append(self, line: str) -> None:
        self.text = f"{self.text} {line.strip()}".strip() if self.text else line.strip()


@dataclass
class RulesText:
    """Units by id (document order), the clauses seen, partial clauses, and references."""

    units: dict[str, Unit] = field(default_factory=dict)
    clauses: list[str] = field(default_factory=list)
    partial: set[str] = field(default_factory=set)
    references: dict[str, list[str]] = field(default_factory=dict)  # referenced id -> citing units
    sources: list[str] = field(default_factory=list)
    starts: dict[str, Location] = field(default_factory=dict)  # clause id -> where it begins

    def text_of(self, unit_id: str) -> str | None:
        """The wording of a unit with its sub-bullets; for a clause id, its lead and its own units
        (not its sub-clauses, which are clauses of their own)."""
        prefix = unit_id + ("." if "/" in unit_id else "/")
        parts = [u.text for uid, u in self.units.items() if uid == unit_id or uid.startswith(prefix)]
        return "\n".join(parts) if parts else None

    def referenced_only(self) -> list[str]:
        """Clause ids the text refers to but does not contain (sorted)."""
        present = set(self.clauses)
        return sorted((r for r in self.references if r not in present), key=clause_key)


def clause_key(cid: str) -> tuple:
    """Sort key for clause/unit ids: numeric parts, then the unit suffix.

    >>> sorted(["512.10", "512.6.2/b10", "512.6.2/b2", "512.6"], key=clause_key)
    ['512.6', '512.6.2/b2', '512.6.2/b10', '512.10']
    """
    clause, _, unit = cid.partition("/")
    nums = tuple(int(p) for p in clause.split(".") if p.isdigit())
    m = re.match(r"([a-z]+)([\d.]*)", unit)
    tail: tuple = ()
    if m:
        tail = (m.group(1),) + tuple(int(p) for p in m.group(2).split(".") if p)
    return nums + (-1,) + tail if unit else nums


def parent_of(unit_id: str) -> str | None:
    """The unit or clause that contains ``unit_id``.

    >>> parent_of("512.6.2/b4.1.2"), parent_of("512.6.2/b4"), parent_of("512.6.2"), parent_of("542")
    ('512.6.2/b4.1', '512.6.2', '512.6', None)
    """
    clause, sep, unit = unit_id.partition("/")
    if sep:
        head, dot, _ = unit.rpartition(".")
        return f"{clause}/{head}" if dot else clause
    head, dot, _ = clause.rpartition(".")
    return head if dot else None


@dataclass
class _Fragment:
    name: str
    lines: list[tuple[int, str]]  # (line number, text)
    head: list[tuple[int, str]]
    first: str | None
    last: str | None


def load_rules_text(path: str | Path) -> RulesText:
    """Read a rules text from a file or a folder of ``.txt`` files."""
    p = Path(path)
    if not p.exists():
        raise RuleproofError("RP100", Location(str(path)))
    files = sorted(p.glob("*.txt")) if p.is_dir() else [p]
    if not files:
        raise RuleproofError("RP142", Location(str(path)))
    return parse_rules_text([(str(f), read_text(f)[0]) for f in files])


def parse_rules_text(fragments: list[tuple[str, str]]) -> RulesText:
    """Parse ``(name, text)`` fragments, given in any order, into one :class:`RulesText`."""
    frags = [_split(name, text) for name, text in fragments]
    if not any(f.first for f in frags):
        raise RuleproofError("RP140", Location(fragments[0][0] if fragments else "<input>"))
    for frag in frags:
        if frag.first is None and frag.lines:
            raise RuleproofError("RP143", Location(frag.name, frag.lines[0][0]))
    successor, has_pred = _links(frags)
    out = RulesText(sources=[f.name for f in frags])
    starts = sorted((i for i in range(len(frags)) if i not in has_pred),
                    key=lambda i: clause_key(frags[i].first or "999"))
    visited: set[int] = set()
    # fragments that only continue one another in a ring have no start: begin at the lowest one
    starts += sorted((i for i in range(len(frags)) if i in has_pred and not _reached(i, starts, successor)),
                     key=lambda i: clause_key(frags[i].first or "999"))[:1]
    for i in starts:
        if i not in visited:
            _parse_chain(out, frags, i, successor, visited)
    return out


def _links(frags: list[_Fragment]) -> tuple[dict[int, int], set[int]]:
    """(fragment -> the fragment that continues it, the fragments that continue another): each fragment that
    starts mid-clause is linked to the one that leaves that clause open."""
    successor: dict[int, int] = {}
    has_pred: set[int] = set()
    for i, frag in enumerate(frags):
        if not frag.head or frag.first is None:
            continue
        pred = _predecessor(frag.first)
        for j, other in enumerate(frags):
            if j != i and j not in successor and other.last and pred and (
                    other.last == pred or other.last.startswith(pred + ".")):
                successor[j] = i
                has_pred.add(i)
                break
    return successor, has_pred


def _parse_chain(out: RulesText, frags: list[_Fragment], i: int, successor: dict[int, int], visited: set[int]) -> None:
    """The fragments from ``i`` on, each continuing the one before, parsed as one text into ``out``."""
    parser = _Parser(out)
    chain_start = True
    while True:
        frag = frags[i]
        if frag.head and chain_start:
            parser.orphan_head(frag, _predecessor(frag.first) if frag.first else None)
            parser.feed(frag.name, frag.lines[len(frag.head):])
        else:
            parser.feed(frag.name, frag.lines)
        visited.add(i)
        chain_start = False
        if i not in successor or successor[i] in visited:
            break
        i = successor[i]


def _reached(i: int, starts: list[int], successor: dict[int, int]) -> bool:
    for j in starts:
        seen = set()
        while j not in seen:
            if j == i:
                return True
            seen.add(j)
            if j not in successor:
                break
            j = successor[j]
    return False


def _split(name: str, text: str) -> _Fragment:
    lines = [(n, ln.rstrip()) for n, ln in enumerate(text.splitlines(), 1) if ln.strip()]
    head: list[tuple[int, str]] = []
    ids = []
    for n, ln in lines:
        m = HEADER_RE.match(ln)
        if m:
            ids.append(m.group(1))
        elif not ids:
            head.append((n, ln))
    return _Fragment(name, lines, head, ids[0] if ids else None, ids[-1] if ids else None)


def _predecessor(cid: str) -> str | None:
    """The clause just before ``cid`` at its own level: 512.6.3 -> 512.6.2; 512.6.1 -> 512.6."""
    head, dot, last = cid.rpartition(".")
    if not dot:
        return str(int(cid) - 1) if int(cid) > 100 else None
    if int(last) > 1:
        return f"{head}.{int(last) - 1}"
    return head


class _Parser:
    """Line-by-line state machine; state carries across the fragments of one chain."""

    def __init__(self, out: RulesText) -> None:
        self.out = out
        self.clause: str | None = None
        self.prefix = "b"
        self.counters = [0, 0, 0]
        self.stack: list[str | None] = [None, None, None]
        self.current: Unit | None = None
        self.paragraphs = 0
        self.examples = 0
        self.in_example = False
        self.pending: list[str] = []  # lines continuing the current unit, joined when it is done (linear)

    def _flush(self) -> None:
        """The current unit is done: join its continuation lines once and index its references (once
        per unit, not per line: the parser is linear in the length of the text)."""
        cur = self.current
        if cur is None:
            return
        if self.pending:
            cur.text = " ".join([cur.text, *self.pending] if cur.text else self.pending).strip()
            self.pending = []
        self._refs(cur)

    def orphan_head(self, frag: _Fragment, clause: str | None) -> None:
        if clause is None:
            return
        self._start_clause(clause, "", Location(frag.name, frag.head[0][0]), partial=True)
        self.feed(frag.name, frag.head)

    def _start_clause(self, cid: str, lead: str, where: Location, partial: bool = False) -> None:
        if cid in self.out.starts:
            raise RuleproofError("RP141", where, clause=cid, other=self.out.starts[cid])
        self._flush()
        self.out.clauses.append(cid)
        self.out.starts[cid] = where
        self.clause = cid
        self.prefix = "t" if partial else "b"
        self.counters = [0, 0, 0]
        self.stack = [None, None, None]
        self.paragraphs = self.examples = 0
        self.in_example = False
        if partial:
            self.out.partial.add(cid)
            self.current = None
        else:
            self.current = self._add(Unit(cid, "lead", lead.strip(), where, parent_of(cid)))

    def _add(self, unit: Unit) -> Unit:
        self.out.units[unit.id] = unit
        return unit

    def feed(self, name: str, lines: list[tuple[int, str]]) -> None:
        for n, line in lines:
            self._line(Location(name, n), line)
        self._flush()

    def _line(self, where: Location, line: str) -> None:
        stripped = line.strip()
        m = HEADER_RE.match(line)
        if m:
            self._start_clause(m.group(1), m.group(2), where)
            return
        if self.clause is None:  # text before any clause and no clause to continue: ignore
            return
        ex = _EXAMPLE_RE.match(line)
        level = _BULLETS.get(stripped[:1])
        if ex:
            self.examples += 1
            self.in_example = True
            uid = f"{self.clause}/ex{self.examples}"
            self._flush()
            self.current = self._add(Unit(uid, "example", ex.group(1).strip(), where, self.clause))
        elif level and not self.in_example:
            parent_unit = self.stack[level - 2] if level > 1 else None
            if level > 1 and parent_unit is None:  # a sub-bullet with no parent bullet: treat as top
                level = 1
            self.counters[level - 1] += 1
            for deeper in range(level, 3):
                self.counters[deeper] = 0
            number = ".".join(str(c) for c in self.counters[:level])
            uid = f"{self.clause}/{self.prefix}{number}"
            kind = "tail" if self.prefix == "t" else "bullet"
            self._flush()
            self.current = self._add(Unit(uid, kind, stripped[1:].strip(), where,
                                          parent_unit or self.clause))
            self.stack[level - 1] = uid
            for deeper in range(level, 3):
                self.stack[deeper] = None
        elif self.current is not None and not self.in_example and self._new_paragraph(stripped):
            self.paragraphs += 1
            uid = f"{self.clause}/p{self.paragraphs}"
            self._flush()
            self.current = self._add(Unit(uid, "paragraph", stripped, where, self.clause))
        elif self.current is not None:
            self.pending.append(stripped)
        else:
            self.paragraphs += 1
            uid = f"{self.clause}/p{self.paragraphs}"
            self.current = self._add(Unit(uid, "paragraph", stripped, where, self.clause))

    def _new_paragraph(self, stripped: str) -> bool:
        """Unmarked text after a finished bullet, starting a new sentence, is a paragraph."""
        cur = self.current
        assert cur is not None
        last = self.pending[-1] if self.pending else cur.text
        return cur.kind in ("bullet", "tail") and bool(last) and last[-1:] in ".;:!?" and stripped[:1].isupper()

    def _refs(self, unit: Unit) -> None:
        own = unit.id.partition("/")[0]
        for ref in find_references(unit.text):
            if ref != own:
                cited = self.out.references.setdefault(ref, [])
                if unit.id not in cited:
                    cited.append(unit.id)
