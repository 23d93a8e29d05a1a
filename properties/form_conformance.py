"""Property forms checked like meanings: each property's Z3 form against its monitor on the same runs.

A property of the catalogue has two forms (:mod:`.monitor`): its monitor run over a concrete trace
(:mod:`.monitor_run`, what the interpreter's engines judge) and its Z3 form (:mod:`.monitor_z3`, what
``prove`` proves).  Conformance (:mod:`ruleproof.model.conformance`) shows that the interpreter and the
Z3 system take the same steps; this check, run on the same runs (``conformance(rb, also=form_check)``),
shows that the two forms of every property (and of every part it is proved in) read those steps alike.
At every event of a run:

* each history variable of each Z3 form takes its update, evaluated on the abstraction of the states
  before and after the event with the facts of the disjunct that took it, and must equal the
  monitor's (:class:`~.monitor_run.Tracker`; a per-feature variable — one per menu option in Z3, per
  feature of the world in a run — through the feature's id, which is the option's);
* ``bad`` is evaluated on the state after it: the first state where it holds must be the one after
  the event of the monitor's first violation;

and at the end of a run (completed or deadlocked) ``premise`` must agree with the monitor's.  A
difference is a :class:`~ruleproof.model.conformance.Disagreement` ``RC8`` naming the property, the
variable (or ``bad`` / ``premise``), the event and both values.  The Z3 terms are compiled into Python
once per disjunct (:mod:`ruleproof.model.z3eval`).

>>> from ruleproof.model.conformance import conformance
>>> from ruleproof.model.rulebook import load_rulebook
>>> conformance(load_rulebook(), runs=3, seed=0, also=form_check).ok
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter

import z3

from ruleproof.model.conformance import Disagreement, Step
from ruleproof.model.menu import OPTIONS
from ruleproof.model.symbolic import System
from ruleproof.model.z3eval import compile_terms

from . import monitor_z3
from .monitor import Monitor
from .monitor_run import role_of
from .tracker import Tracker

__all__ = ["Part", "FormCheck", "form_check", "parts"]

_ENDS = ("end", "deadlock")
_Z3, _INTERPRETER = ("Z3", "Z3"), ("the interpreter", "интерпретатор")

#: what each bit of a Z3 form's payers stands for (``monitor_z3.Symbolic.payers``: the vector's ``paid``),
#: to read a monitor's payers — (card, resource) pairs — the same way
_PAYER_BITS = {("src", "close"): 0, ("def", "close"): 1, ("src", "crystal"): 2}


@dataclass(frozen=True)
class Part:
    """A property (or a part it is proved in) with its two forms."""

    pid: str
    monitor: Monitor
    form: monitor_z3.Form  # the monitor's Z3 form


def parts() -> list[Part]:
    """Every property of the catalogue and every part it is proved in (``split``)."""
    from .catalogue import PROPERTIES  # read when called (a test plants properties)

    out = []
    for p in PROPERTIES:
        f = monitor_z3.FORMS[p.id]
        out.append(Part(p.id, p.monitor, f))
        out += [Part(m.pid, m, sf) for m, sf in zip(p.monitor.split, f.split)]
    return out


def _groups(ps: list[Part]) -> list[list[Part]]:
    """The parts in groups whose history variables have distinct names (a tracker runs one group)."""
    groups: list[tuple[list, set]] = []
    for part in ps:
        names = {v.name for v in part.monitor.hist}
        for members, used in groups:
            if not names & used:
                members.append(part)
                used |= names
                break
        else:
            groups.append(([part], set(names)))
    return [members for members, _ in groups]


def _variables(part: Part) -> list[tuple]:
    """(the Z3 history variable, the monitor's, the menu option it is kept for or None) of ``part``."""
    hist = iter(part.form.hist)
    out = []
    for v in part.monitor.hist:
        for i in [None] if v.each is None else [i for i, o in enumerate(OPTIONS) if v.each(o.feature, o.card)]:
            hv = next(hist, None)
            want = v.name if i is None else v.name + str(i)
            if hv is None or hv.name != want:
                raise ValueError(f"{part.pid}: the Z3 form keeps {hv and hv.name!r} where the monitor keeps {want!r}")
            out.append((hv, v, i))
    return out


def _tuple_getter(keys: list):
    """The values at ``keys`` of a sequence or mapping, as a tuple."""
    if len(keys) == 1:
        k = keys[0]
        return lambda xs: (xs[k],)
    return itemgetter(*keys) if keys else (lambda xs: ())


class _Env(dict):
    """Values by variable name; a primed name (``x'``) reads the state after the event (``nxt``)."""

    nxt: dict = {}

    def __missing__(self, key):
        if key.endswith("'"):
            return self.nxt[key[:-1]]
        raise KeyError(key)


class FormCheck:
    """The forms of ``ps`` (default: :func:`parts`) on the runs of system ``sy``: called with a run's world
    variables and its :class:`~ruleproof.model.conformance.Step` records, the first disagreement or None."""

    def __init__(self, sy: System, ps: list[Part] | None = None) -> None:
        self.sy = sy
        self.groups = _groups(parts() if ps is None else ps)
        self.parts = [p for g in self.groups for p in g]
        self.names: list[str] = []  # the value's name (in an _Env) of each Z3 history variable
        self.vars: list[tuple] = []  # (group, part, Z3 history variable, monitor's, option or None)
        self.frames: list[dict] = []  # per group: the state and that group's history, as Z3 terms
        bad, premise = [], []
        for g, members in enumerate(self.groups):
            S = dict(sy.pre)
            for part in members:
                for hv, v, i in _variables(part):
                    name = f"{g}|{hv.name}"
                    S[hv.name] = z3.BitVec(name, hv.width, sy.ctx)
                    self.names.append(name)
                    self.vars.append((g, part, hv, v, i))
            self.frames.append(S)
            for part in members:
                bad.append(part.form.bad(sy, S))
                premise.append(part.form.premise(sy, S))
        self.init = tuple(hv.init for _, _, hv, _, _ in self.vars)
        self.bad = compile_terms(bad)
        self.premise = compile_terms(premise)
        self._updates: dict[int, tuple] = {}  # per disjunct: the variables it may change, their function
        # per tuple of terms (Z3 shares equal terms): the function, and the terms
        self._compiled: dict[tuple, tuple[Callable[[dict], tuple], list]] = {}
        self.runs = self.events = 0

    def _update(self, d) -> tuple:
        """The Z3 forms' history updates at disjunct ``d``: (the indices of the variables whose update is
        not their own value, compiled (state before + history, after) -> their new values)."""
        found = self._updates.get(d.id)
        if found is None:
            sy = self.sy
            changed, terms = [], []
            for j, (g, _, hv, _, _) in enumerate(self.vars):
                t = hv.update(sy, d, self.frames[g], sy.post)
                if t is self.frames[g][hv.name]:  # unchanged (the very term: most updates, most events)
                    continue
                changed.append(j)
                terms.append(sy.val(int(t), hv.width) if isinstance(t, int) else t)
            # keyed by the terms' AST ids, which Z3 reuses once a term is freed: the entry keeps its terms
            # alive, so that no later term can take one of their ids and be given this function
            key = tuple(t.get_id() for t in terms)
            entry = self._compiled.get(key)
            if entry is None and terms:
                entry = self._compiled[key] = (compile_terms(terms), terms)
            found = self._updates[d.id] = (tuple(changed), entry[0] if entry else None)
        return found

    def _pairs(self, trackers: list, held: dict) -> tuple[list, list]:
        """Per group: (index of a Z3 variable, the monitor's key for it) — a per-feature variable for each
        feature of the world —; and the per-feature variables only one side keeps."""
        out, missing = [], []
        for g, t in enumerate(trackers):
            pairs = []
            kept: dict = {}  # per (part, per-feature variable): the monitor's keys
            for zi, (vg, part, hv, v, i) in enumerate(self.vars):
                if vg != g:
                    continue
                if i is None:
                    pairs.append((zi, v.name))
                    continue
                keys = kept.get((part.pid, v.name))
                if keys is None:
                    keys = kept[(part.pid, v.name)] = {v.name + h.key for h in t.view.handles(v.each)}
                key = v.name + OPTIONS[i].feature.id
                if held.get(f"w_holds{i}"):
                    if key not in keys:
                        missing.append((part, hv.name, _Z3))
                    pairs.append((zi, key))
                    keys.discard(key)
            missing += [(part, key, _INTERPRETER) for (pid, _), keys in kept.items() for key in sorted(keys)
                        for part in self.groups[g] if part.pid == pid]
            out.append(pairs)
        return out, missing

    def __call__(self, world_vars: dict, steps: list[Step]) -> Disagreement | None:
        if not steps:
            return None
        sy = self.sy
        first = steps[0].at.event.state
        trackers = [Tracker([p.monitor for p in members], first) for members in self.groups]
        tracks = [t.start() for t in trackers]
        pairs, missing = self._pairs(trackers, steps[0].pre)

        def bad(step: Step, interp: tuple, z3_: tuple) -> Disagreement:
            e = step.at.event
            return Disagreement("RC8", e.op, e.step, sy.loc_name(step.at.loc), e.seq, interp[0], z3_[0],
                                dict(world_vars), interpreter_ru=interp[1], z3_ru=z3_[1])

        if missing:
            part, name, side = missing[0]
            keeps = (f"{part.pid}: only {side[0]} keeps the per-feature variable {name}",
                     f"{part.pid}: переменную по особенности {name} ведёт только {side[1]}")
            return bad(steps[0], keeps, keeps)
        getters = [(_tuple_getter([zi for zi, _ in ps]), _tuple_getter([k for _, k in ps])) for ps in pairs]
        where = [(g, mi) for g, members in enumerate(self.groups) for mi in range(len(members))]
        z3_bad: list[int | None] = [None] * len(self.parts)  # the event after which Z3's bad first held
        self.runs += 1
        vals: Sequence = self.init
        env = _Env(steps[0].pre)
        env.update(zip(self.names, vals))
        for step in steps:
            e = step.at.event
            changed, fn = self._update(step.disjunct)
            new = _Env(step.post)
            if changed:
                env.nxt = step.post
                updated = list(vals)
                for j, x in zip(changed, fn(env)):
                    updated[j] = x
                vals = updated
            new.update(zip(self.names, vals))
            tracks = [t.feed(tr, (e,)) for t, tr in zip(trackers, tracks)]
            self.events += 1
            found = self._histories(first, getters, pairs, tracks, vals)  # the history after the event
            if found is not None:
                return bad(step, *found)
            found = self._bad_state(self.bad(new), tracks, where, z3_bad, e.seq)
            if found is not None:
                return bad(step, *found)
            env = new
        last = steps[-1]
        if last.at.event.op in _ENDS:  # the run is over: the premises
            found = self._premises(env, tracks, where)
            if found is not None:
                return bad(last, *found)
        return None

    def _histories(self, first, getters: list, pairs: list, tracks: list, vals) -> tuple | None:
        """The first history variable of any group whose values differ after the event (None: they agree)."""
        for g, (zget, cget) in enumerate(getters):
            H = tracks[g].hist
            if zget(vals) != cget(H):
                found = self._history(first, pairs[g], vals, H)
                if found is not None:
                    return found
        return None

    def _bad_state(self, bads: tuple, tracks: list, where: list, z3_bad: list[int | None], seq: int) -> tuple | None:
        """The event after which each part's bad state first held, in Z3 (``bads``, kept in ``z3_bad``) and in the
        monitor: the first part where one holds and the other does not, as (interpreter's, Z3's) texts."""
        if not any(bads) and all(tr.found.count(None) == len(tr.found) for tr in tracks):
            return None
        for j, (g, mi) in enumerate(where):
            if bads[j] and z3_bad[j] is None:
                z3_bad[j] = seq
            v = tracks[g].found[mi]
            if (v is None) != (z3_bad[j] is None):
                return _first_bad(self.parts[j].pid, v, z3_bad[j])
        return None

    def _premises(self, env, tracks: list, where: list) -> tuple | None:
        """At the end of the run: the first part whose premise held in one and not in the other."""
        held = self.premise(env)
        for j, (g, mi) in enumerate(where):
            was = tracks[g].premised[mi]
            if bool(held[j]) != bool(was):
                pid = self.parts[j].pid
                return _premise(pid, was), _premise(pid, held[j])
        return None

    def _history(self, first, pairs: list, vals: Sequence, H: dict) -> tuple | None:
        """The first history variable whose values differ: (interpreter's, Z3's), each (English, Russian)."""
        for zi, key in pairs:
            z, c = vals[zi], H[key]
            if isinstance(c, (set, frozenset)):  # payers: (card, resource) pairs, bits in Z3
                c_bits = _payer_bits(first, c)
                if c_bits == z:
                    continue
                c = "{" + ", ".join(" ".join(map(str, x)) for x in sorted(c)) + "}"
            elif c == z:
                continue
            pid, name = self.vars[zi][1].pid, self.vars[zi][2].name
            return ((f"{pid}: history variable {key} = {c} after the event",
                     f"{pid}: переменная истории {key} = {c} после события"),
                    (f"{pid}: history variable {name} = {z} after the event",
                     f"{pid}: переменная истории {name} = {z} после события"))
        return None


def _first_bad(pid: str, violation, seq: int | None) -> tuple[tuple, tuple]:
    """How the monitor's first violation and the Z3 form's first bad state read: (English, Russian) each."""
    if violation is None:
        interp = (f"{pid}: not violated", f"{pid}: не нарушено")
    else:
        at = violation.events[-1]
        interp = (f"{pid}: violated at event #{at} ({violation.en})",
                  f"{pid}: нарушено в событии #{at} ({violation.ru})")
    if seq is None:
        return interp, (f"{pid}: never bad", f"{pid}: плохого состояния нет")
    return interp, (f"{pid}: bad after event #{seq}", f"{pid}: плохое состояние после события #{seq}")


def _premise(pid: str, held) -> tuple[str, str]:
    return ((f"{pid}: premise holds", f"{pid}: посылка выполнена") if held else
            (f"{pid}: premise does not hold", f"{pid}: посылка не выполнена"))


def _payer_bits(first, payers) -> int | None:
    """A monitor's payers as the vector's bits (None: a payer the vector has no bit for)."""
    bits = 0
    for card, res in payers:
        bit = _PAYER_BITS.get((role_of(first.action, first.card(card)), res))
        if bit is None:
            return None
        bits |= 1 << bit
    return bits


def form_check(sy: System) -> FormCheck:
    """The check of every property form on the runs of ``sy`` (``conformance(..., also=form_check)``)."""
    return FormCheck(sy)
