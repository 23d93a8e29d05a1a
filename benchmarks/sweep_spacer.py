"""Spacer options per query: every proof query ``ruleproof prove`` runs on the bundled rulebook (each
property's form, each part of a split form) timed under candidate Fixedpoint option sets — the query
exactly as ``prove`` runs it (``spacer_refined`` on one ``shared_system``, seed 0) — medians over
repeats; then the per-query winners checked on the public mutants (still ``sat``, the counterexample
replayed) and on the vacuity-witness queries (the premise still reached).

Run:  .venv/bin/python benchmarks/sweep_spacer.py [--repeats 3] [--only ID …] [--timeout 10000]
      [--no-mutants] [--no-witnesses] [--top 3]

Two passes: every candidate once per query (a pruning pass: a query's timeout there is at most 4× its
baseline, at least 1.5 s — a set that slow cannot win), then the baseline, the ``--top`` best singles
of each query and their combinations ``--repeats`` times with the full ``--timeout``.  An option name
this Z3 does not know is skipped and listed.  Any result but ``unsat`` (a proof) is a failure of that
option set for that query.

A figure, not a test: machines here are noisy (2 cores shared by several processes).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

import z3

from ruleproof.generators.mutants import PUBLIC, mutant_yaml
from ruleproof.model.rulebook import load_rulebook, load_rulebook_text
from ruleproof.properties import engines as E
from ruleproof.properties import prove as P
from ruleproof.properties.catalogue import PROPERTIES
from ruleproof.properties.monitor_z3 import FORMS

#: candidate option sets (each on top of the query's own options: ``prove._options(form)``)
CANDIDATES: list[dict] = [
    {},
    {"xform.inline_linear_branch": True},
    {"xform.inline_linear": False},
    {"xform.inline_eager": False},
    {"xform.inline_linear": False, "xform.inline_eager": False},
    {"xform.compress_unbound": False},
    {"xform.slice": False},
    {"spacer.use_inductive_generalizer": False},
    {"spacer.use_array_eq_generalizer": False},
    {"spacer.propagate": False},
    {"spacer.mbqi": False},
    {"spacer.use_bg_invs": True},
    {"spacer.ground_pobs": False},
    {"spacer.use_lemma_as_cti": True},
    {"spacer.reach_dnf": False},
    {"spacer.blast_term_ite_inflation": 0},
    {"spacer.blast_term_ite_inflation": 1},
    {"spacer.blast_term_ite_inflation": 10},
    {"spacer.iuc": 0},
    {"spacer.iuc": 2},
    {"spacer.iuc.arith": 0},
    {"spacer.iuc.arith": 3},
    {"spacer.keep_proxy": False},
    {"spacer.native_mbp": False},
    {"spacer.simplify_pob": True},
    {"spacer.eq_prop": False},
    {"spacer.expand_bnd": True},
    {"spacer.use_euf_gen": True},
    {"xform.tail_simplifier_pve": False},
    {"xform.subsumption_checker": False},
    {"xform.coi": False},
    # a few more this Z3 offers (tried globally before; per query they may differ)
    {"spacer.use_iuc": False},
    {"spacer.ctp": False},
    {"spacer.q3": False},
    {"spacer.elim_aux": False},
    {"spacer.push_pob": True},
    {"spacer.use_inc_clause": False},
    {"spacer.weak_abs": False},
    {"xform.elim_term_ite": True},
]


def _median(xs):
    return statistics.median(xs) if xs else float("inf")


def known_options() -> set[str]:
    """The Fixedpoint parameter names of this Z3 (``z3.Fixedpoint().help()``)."""
    descrs = z3.Fixedpoint().param_descrs()
    return {descrs.get_name(i) for i in range(descrs.size())}


def label(opts: dict) -> str:
    return ", ".join(f"{k.split('.', 1)[1] if k.startswith(('spacer.', 'xform.')) else k}={v}"
                     for k, v in sorted(opts.items())) or "(baseline)"


class Query:
    """One Spacer proof query of ``prove``: ``qid`` (the form's or the part's pid), ``pid`` (the catalogue
    property its counterexamples are replayed against), the form (its ``bad``, order, options)."""

    def __init__(self, qid: str, pid: str, form) -> None:
        self.qid, self.pid, self.form = qid, pid, form
        self.base = E._options(form)  # what prove uses today

    def variants(self, cand: dict) -> list[tuple[str, dict]]:
        """The effective option dicts for a candidate: on top of the form's options, and — for a form
        with options of its own — also instead of them."""
        out = [(label(cand), {**self.base, **cand})]
        if self.form.options:
            out.append(("no form opts" + (f" + {label(cand)}" if cand else ""), {**E.SPACER_OPTIONS, **cand}))
        return out


def queries(only) -> list[Query]:
    out = []
    for p in PROPERTIES:
        form = FORMS[p.id]
        for f in form.split or (form,):
            q = Query(f.pid, p.id, f)
            if not only or any(o in (q.qid, q.pid) for o in only):
                out.append(q)
    return out


def run_query(rb, sy, form, pid, opts: dict, timeout_ms: int, seed: int = 0, target=None):
    """(result, seconds, found, cx) of one ``spacer_refined`` call as prove makes it."""
    t = time.perf_counter()
    try:
        r, found, cx = E.spacer_refined(rb, sy, target or form.bad, pid, timeout_ms, seed, E._order(form), opts)
    except z3.Z3Exception as exc:  # spacer_refined catches the engine's; anything else is a failure too
        r, found, cx = f"unknown: {exc}", None, None
    return r, time.perf_counter() - t, found, cx


def measure(rb, sy, q: Query, opts: dict, repeats: int, timeout_ms: int, want: str = "unsat"):
    """Times of ``repeats`` runs (inf for a failed one: not ``want``; the runs stop there), and the results."""
    ts, results = [], []
    for _ in range(repeats):
        r, s, _, _ = run_query(rb, sy, q.form, q.pid, opts, timeout_ms)
        results.append(r)
        ts.append(s if r == want else float("inf"))
        if r != want:
            break  # a failure loses; no need to repeat it
    return ts, results


def fmt(ts) -> str:
    return ", ".join("fail" if t == float("inf") else f"{t:.2f}" for t in ts)


def sweep(rb, sy, qs: list[Query], cands: list[dict], repeats: int, timeout_ms: int, top: int):
    """Pass 1 (1 run each, pruning timeout), pass 2 (``repeats``, full timeout).  Returns, per query,
    {label: (effective options, times, results)} of pass 2, and pass 1's table."""
    pass1: dict[str, dict] = {}
    odd: list[str] = []
    print("## pass 1: every candidate once per query\n", flush=True)
    t0 = time.perf_counter()
    failures: dict[str, int] = {}
    pruned: list[str] = []
    for q in qs:
        base_ts, base_r = measure(rb, sy, q, q.base, 1, timeout_ms)
        b = base_ts[0]
        cut = int(min(timeout_ms, max(4000 * b, 1500))) if b != float("inf") else timeout_ms
        row = {"(baseline)": (q.base, base_ts, base_r)}
        for cand in cands:
            for name, opts in q.variants(cand):
                if name in row or opts == q.base or name in pruned:
                    continue
                ts, rs = measure(rb, sy, q, opts, 1, cut)
                row[name] = (opts, ts, rs)
                if ts[0] == float("inf"):
                    failures[name] = failures.get(name, 0) + 1
                    if failures[name] >= 3:  # failed on 3 queries: it cannot be a per-query choice worth having
                        pruned.append(name)
                if rs[0] not in ("unsat",) and not rs[0].startswith("unknown: timeout") and "canceled" not in rs[0]:
                    odd.append(f"{q.qid} [{name}]: {rs[0]}")
        pass1[q.qid] = row
        best = sorted(((v[1][0], k) for k, v in row.items()), key=lambda x: x[0])[:top + 1]
        print(f"- {q.qid}: baseline {fmt(base_ts)} ({base_r[0]}); best: "
              + "; ".join(f"{k} {t:.2f}" if t != float('inf') else f"{k} fail" for t, k in best)
              + f"  [{time.perf_counter() - t0:.0f} s so far]", flush=True)
    print(f"\npruned after failing on 3 queries (not run on the rest): {', '.join(pruned) or 'none'}\n")
    # per candidate: on how many queries faster than the baseline (pass 1)
    print("| candidate (pass 1) | faster than baseline on | slower on | failed on | sum s (baseline sum) |")
    print("| --- | --- | --- | --- | --- |")
    names = []
    for q in qs:
        names += [k for k in pass1[q.qid] if k not in names]
    for name in names:
        fast = slow = fail = 0
        s = base_sum = 0.0
        for q in qs:
            row = pass1[q.qid]
            if name not in row:
                continue
            t, b = row[name][1][0], row["(baseline)"][1][0]
            s += t
            base_sum += b
            if t == float("inf"):
                fail += 1
            elif t < b:
                fast += 1
            else:
                slow += 1
        print(f"| {name} | {fast} | {slow} | {fail} | {s:.2f} ({base_sum:.2f}) |")
    print(flush=True)

    print(f"## pass 2: baseline, the {top} best singles per query and their combinations, "
          f"{repeats} runs each, timeout {timeout_ms} ms\n", flush=True)
    pass2: dict[str, dict] = {}
    for q in qs:
        row1 = pass1[q.qid]
        b1 = row1["(baseline)"][1][0]
        singles = sorted((v[1][0], k) for k, v in row1.items() if k != "(baseline)" and v[1][0] < b1)[:top]
        trial = {"(baseline)": q.base}
        for _, k in singles:
            trial[k] = row1[k][0]
        # combinations of the best singles (on top of the form's options, or of the first one's base)
        for n in range(2, len(singles) + 1):
            combo, names_ = dict(row1[singles[0][1]][0]), [singles[0][1]]
            for _, k in singles[1:n]:
                combo.update({kk: vv for kk, vv in row1[k][0].items() if kk not in q.base or q.base[kk] != vv})
                names_.append(k)
            if combo not in trial.values():
                trial[" & ".join(names_)] = combo
        # round robin over the sets (a slow drift of the machine or of the long-lived context hits each alike)
        row2 = {name: (opts, [], []) for name, opts in trial.items()}
        for _ in range(repeats):
            for name, opts in trial.items():
                ts, rs = row2[name][1], row2[name][2]
                if ts and ts[-1] == float("inf"):
                    continue  # a failure loses; no need to repeat it
                t, r = measure(rb, sy, q, opts, 1, timeout_ms)
                ts += t
                rs += r
                if r[0] != "unsat":
                    odd.append(f"{q.qid} [{name}] pass 2: {r[0]}")
        pass2[q.qid] = row2
        print(f"- {q.qid}: " + "; ".join(f"{k}: {fmt(v[1])}" for k, v in row2.items()), flush=True)
    print()
    return pass1, pass2, odd


def choose(q: Query, row2: dict, margin: float = 0.85):
    """(best name, its options, its times, recommended?) — recommended when its median is ≤ ``margin`` ×
    the baseline's and its slowest run is faster than the baseline's fastest (not noise)."""
    base = row2["(baseline)"][1]
    best = min(row2, key=lambda k: _median(row2[k][1]))
    ts = row2[best][1]
    ok = best != "(baseline)" and _median(ts) <= margin * _median(base) and max(ts) < min(base)
    return best, row2[best][0], ts, ok


def report(qs: list[Query], pass2: dict) -> dict:
    print("## per query (medians of pass 2)\n")
    print("| query | baseline s | spread | best option set | its s | spread | speed-up | recommended |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    tot_b = tot_best = tot_rec = 0.0
    rec = {}
    for q in qs:
        row2 = pass2[q.qid]
        base = row2["(baseline)"][1]
        best, opts, ts, ok = choose(q, row2)
        mb, mt = _median(base), _median(ts)
        tot_b += mb
        tot_best += mt
        tot_rec += mt if ok else mb
        if ok:
            rec[q.qid] = opts
        spread = lambda xs: f"{min(xs):.2f}–{max(xs):.2f}"  # noqa: E731
        print(f"| {q.qid} | {mb:.2f} | {spread(base)} | {best} | {mt:.2f} | {spread(ts)} | {mb / mt:.2f}× | "
              f"{'yes' if ok else 'no'} |")
    print(f"| **total** | {tot_b:.2f} | | per-query best | {tot_best:.2f} | | {tot_b / tot_best:.2f}× | |")
    print(f"\ntotal with only the recommended (robust) choices: {tot_rec:.2f} s (baseline {tot_b:.2f} s, "
          f"{tot_b / tot_rec:.2f}×)\n", flush=True)
    return rec


def check_mutants(rec: dict, repeats: int, timeout_ms: int, all_pids: list[str]) -> None:
    """Each distinct recommended option set on each public mutant's broken property: still sat, the
    counterexample replayed; baseline vs the set (the one recommended for that property marked)."""
    sets = []
    for opts in rec.values():
        if opts not in sets:
            sets.append(opts)
    print("## public mutants: the broken property's query under the recommended sets\n")
    print("| mutant | property | option set | result | replayed | depth | s (median) | runs |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for m, pid in sorted(PUBLIC.items()):
        rb = load_rulebook_text(mutant_yaml(m), f"{m}.yaml")
        sy = P.shared_system(rb, all_pids)
        form = FORMS[pid]
        base = E._options(form)
        trial = [("baseline", base)] + [(("**own** " if rec.get(pid) == o else "") + label(o), {**base, **o})
                                        for o in sets]
        for name, opts in trial:
            ts, r, cx, found = [], "", None, None
            for _ in range(repeats):
                r, s, found, cx = run_query(rb, sy, form, pid, opts, timeout_ms)
                ts.append(s)
            ok = r == "sat" and cx is not None and cx.reproduced
            print(f"| {m} | {pid} | {name} | {r} | {'yes' if ok else 'NO'} | {found[2] if found else '—'} | "
                  f"{_median(ts):.2f} | {fmt(ts)} |", flush=True)
    print()


def check_witnesses(rb, sy, rec: dict, repeats: int, timeout_ms: int) -> None:
    """prove's vacuity witness for a form uses the form's options too: its premise query (Spacer, then
    the path followed on the exact system) under the recommended set must still find a witness."""
    print("## vacuity-witness queries (premise) under the recommended sets\n")
    print("| form | options | result | witness found | s (median) | baseline s (median) |")
    print("| --- | --- | --- | --- | --- | --- |")
    for qid, opts in rec.items():
        if qid not in FORMS:  # a part of a split form: the witness uses the whole form's options
            continue
        form = FORMS[qid]
        row = []
        for o in (opts, E._options(form)):
            ts, r, found = [], "", None
            for _ in range(repeats):
                r, s, found, _ = run_query(rb, sy, form, None, o, timeout_ms, target=form.premise)
                ts.append(s)
            row.append((r, found is not None, _median(ts)))
        (r, f, s), (_, _, sb) = row
        print(f"| {qid} | {label(opts)} | {r} | {'yes' if f else 'NO'} | {s:.2f} | {sb:.2f} |", flush=True)
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", nargs="*", default=None, help="property ids or part ids (P512.6-may-declare#dice)")
    ap.add_argument("--timeout", type=int, default=10_000, help="ms per Spacer call (pass 2, checks)")
    ap.add_argument("--top", type=int, default=3, help="best singles per query taken to pass 2")
    ap.add_argument("--no-mutants", action="store_true")
    ap.add_argument("--no-witnesses", action="store_true")
    args = ap.parse_args()

    started = time.perf_counter()
    known = known_options()
    cands, unknown = [], []
    for c in CANDIDATES:
        bad = [k for k in c if k not in known]
        (unknown if bad else cands).append(c)
    print(f"# Spacer option sweep — Z3 {z3.get_version_string()}, Python {platform.python_version()}, "
          f"{platform.machine()}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}\n")
    print(f"{len(cands)} candidate sets (baseline included); unknown to this Z3, skipped: "
          f"{', '.join(label(c) for c in unknown) or 'none'}\n", flush=True)

    rb = load_rulebook()
    all_pids = [p.id for p in PROPERTIES]
    sy = P.shared_system(rb, all_pids)
    qs = queries(args.only)
    # warm-up: the system's cached terms (prove's first query pays them) and one discarded query
    E._steps(sy), E._deps(sy), E._pc_successors(sy), E._init(sy)
    run_query(rb, sy, qs[0].form, qs[0].pid, qs[0].base, args.timeout)
    _, pass2, odd = sweep(rb, sy, qs, cands, args.repeats, args.timeout, args.top)
    rec = report(qs, pass2)
    print("## recommended per-query option dicts (effective: replace the form's options)\n")
    print("{")
    for qid, opts in rec.items():
        print(f"    {qid!r}: {opts!r},")
    print("}\n")
    print("## odd results (neither unsat nor a timeout)\n")
    print("\n".join(f"- {o}" for o in odd) or "none", "\n", flush=True)
    if rec and not args.no_witnesses:
        check_witnesses(rb, sy, rec, args.repeats, args.timeout)
    if rec and not args.no_mutants:
        check_mutants(rec, args.repeats, args.timeout, all_pids)
    print(f"wall time of the sweep: {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
