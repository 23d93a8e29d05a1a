"""`ruleproof prove [RULEBOOK]`: prove every catalogue property with Z3, for every play.

Prints a table (property, clauses, verdict, engine, seconds, vacuity witness), the Z3 version and
seed, and for each violation the counterexample: the interpreter's trace of its replay and what
replays it (world, dice, responses).  A proof over Z3 worlds that leave out a combination the rulebook
admits (:mod:`ruleproof.model.universe`) is *proved within the menu*, its own verdict.  Exit 0 all
proved and none vacuous, 1 a property violated or vacuous, 3 something unknown or proved only within
the menu (``--accept-menu``: 0 then), 2 bad input.
"""

from __future__ import annotations

import json
import sys

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ruleproof.ground.errors import ExitCode, RuleproofError
from ruleproof.ground.i18n import t, times_text
from ruleproof.ground.verdicts import ProofVerdict

from .common import check_jobs, clause_text_fn, console

__all__ = ["add_parser", "run", "SCHEMA", "exit_code", "outcome_to_json"]

SCHEMA = "ruleproof-prove/1"


def add_parser(sub, common, texts) -> None:
    p = sub.add_parser("prove", parents=[common, texts],
                       help="prove the properties with Z3 (Spacer, BMC): for every play, or a counterexample")
    p.add_argument("rulebook", nargs="?", help="rulebook YAML (default: the bundled РП 4.1-2)")
    p.add_argument("--format", choices=("term", "json"), default="term")
    p.add_argument("--timeout", type=float, default=20.0, metavar="SEC", help="per engine call (default 20)")
    p.add_argument("--depth", type=int, default=160, metavar="K", help="BMC depth limit (default 160)")
    p.add_argument("--seed", type=int, default=0, help="smt.random_seed (default 0)")
    p.add_argument("--only", nargs="*", metavar="ID", help="only these properties")
    p.add_argument("--kinduction", action="store_true", help="also cross-check each proof with k-induction")
    p.add_argument("--shortest", action="store_true",
                   help="search the shortest counterexample with BMC (slower; default: Spacer's path)")
    p.add_argument("--accept-menu", action="store_true",
                   help="exit 0 when every property is proved within the menu of Z3 worlds (default: 3, since "
                        "such a proof leaves out combinations the rulebook admits; the scope is printed either way)")
    p.add_argument("--jobs", default=1, metavar="N|auto",
                   help="split the properties among N processes (default 1; auto: one per core; the verdicts are "
                        "the same)")
    p.add_argument("--save-ruling", metavar="PATH",
                   help="save the counterexample of the first violated property as a ruling scenario")
    p.set_defaults(run=run)


def exit_code(outcome, accept_menu: bool = False) -> int:
    """1 a violation (or a vacuous property), 3 something unknown — or every proof within the menu only,
    unless ``accept_menu`` — else 0."""
    if any(v.verdict == ProofVerdict.VIOLATED or v.vacuous for v in outcome.verdicts):
        return ExitCode.FINDING
    if any(v.verdict != ProofVerdict.PROVED or v.vacuous is None for v in outcome.verdicts):
        return ExitCode.INCONCLUSIVE
    if outcome.verdicts and outcome.within_menu and not accept_menu:
        return ExitCode.INCONCLUSIVE
    return ExitCode.OK


def _verdict_text(v, lang: str, within_menu: bool = False) -> str:
    if v.verdict == ProofVerdict.PROVED:
        return t("rep_scope_within_z3" if within_menu else "prove_proved", lang)
    if v.verdict == ProofVerdict.VIOLATED:
        return t("prove_violated", lang)
    if v.verdict == ProofVerdict.BOUNDED:
        return t("prove_holds_to_depth", lang, depth=v.depth)
    return t("prove_unknown", lang, reason=v.reason_ru if lang == "ru" and v.reason_ru else v.reason)


def _cx_json(cx) -> dict | None:
    if cx is None:
        return None
    from ruleproof.reports.trace import trace_to_json  # start-up: only when the command runs

    return {"dice": cx.dice, "responses": [list(r) for r in cx.responses], "steps": cx.steps,
            "reproduced": cx.reproduced, "replay_mode": cx.replay_mode,
            "world": _world_json(cx.world), "trace": trace_to_json(cx.trace) if cx.trace else []}


def _world_json(world) -> dict:
    a = world.action
    return {"action": {"kind": a.kind, "defender": a.defender, "parts_left": a.parts_left,
                       "xs": [{"name": x.name, "kind": x.kind, "chosen": x.chosen, "compute": x.compute} for x in a.xs],
                       "cost": [list(c) for c in a.cost]},
            "cards": {c.id: {"controller": c.controller, "features": [f.id for f in c.features],
                             "printed": dict(c.printed), "modifiers": dict(c.modifiers), "wounds": c.wounds,
                             "action_markers": c.action_markers, "resources": dict(c.resources)} for c in world.cards}}


def outcome_to_json(outcome, rb) -> dict:
    from ruleproof.properties.prove import verdict_name  # start-up: only when the command runs
    from ruleproof.reports.json_report import results_to_json  # start-up: only when the command runs

    doc = results_to_json(outcome.results, {"id": rb.spec.id, "path": rb.path, "z3_version": outcome.z3_version,
                                            "seed": outcome.seed, "timeout_ms": outcome.timeout_ms,
                                            "max_depth": outcome.max_depth, "seconds": round(outcome.seconds, 2)},
                          rb.spec.model_dump()["assumptions"])
    doc["schema"] = SCHEMA
    doc.update(z3_version=outcome.z3_version, seed=outcome.seed, timeout_ms=outcome.timeout_ms,
               max_depth=outcome.max_depth, seconds=round(outcome.seconds, 2))
    d = outcome.disagreement
    doc["conformance"] = {"agrees": d is None, "code": d.code if d else None, "message": d.text("en") if d else None}
    doc["scope"] = outcome.scope.to_json() if outcome.scope is not None else None
    doc["within_menu"] = outcome.within_menu
    doc["verdicts"] = [{"property": v.pid, "verdict": verdict_name(v, outcome.within_menu), "engine": v.engine, "seconds": round(v.seconds, 3),
                        "reason": v.reason, "depth": v.depth, "vacuous": v.vacuous, "kinduction": v.kinduction,
                        "counterexample": _cx_json(v.counterexample),
                        "witness": {"dice": v.witness.dice, "responses": [list(r) for r in v.witness.responses],
                                    "steps": v.witness.steps} if v.witness else None}
                       for v in outcome.verdicts]
    return doc


def run(args, lang: str) -> int:
    from contextlib import nullcontext  # start-up: only when the command runs

    from ruleproof.model.rulebook import load_rulebook  # start-up: only when the command runs
    from ruleproof.properties.prove import prove  # start-up: only when the command runs

    clause_text = clause_text_fn(args, lang)
    if args.depth < 1:
        raise RuleproofError("RP172", None, value=args.depth)
    args.jobs = check_jobs(args.jobs)
    only = list(args.only) if args.only else None  # known ids: checked by ruleproof.cli
    rb = load_rulebook(args.rulebook)
    status = Console(stderr=True).status("Z3…") if args.format == "term" and sys.stderr.isatty() else nullcontext()
    with status:
        out = prove(rb, only=only, timeout_ms=int(args.timeout * 1000), seed=args.seed, max_depth=args.depth,
                    kinduction=args.kinduction, shortest=args.shortest, jobs=args.jobs)
    saved = _save(args, rb, out)
    if args.format == "json":
        doc = outcome_to_json(out, rb)
        doc["saved_ruling"] = str(saved) if saved else None
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=2, default=str) + "\n")
        return exit_code(out, args.accept_menu)
    con = console()
    _print(con, rb, out, lang, clause_text)
    if saved:
        con.print(t("prove_saved", lang, path=saved))
    code = exit_code(out, args.accept_menu)
    if code == ExitCode.INCONCLUSIVE and exit_code(out, True) == ExitCode.OK:
        con.print(t("prove_menu_exit", lang))
    return code


def _save(args, rb, out):
    if not args.save_ruling:
        return None
    v = next((v for v in out.verdicts if v.verdict == ProofVerdict.VIOLATED and v.counterexample), None)
    if v is None:
        return None
    from ruleproof.model.scenario_write import save_trace_violation  # start-up: only when the command runs

    replay = f"ruleproof prove {rb.path} --only {v.pid}"
    return save_trace_violation(list(v.counterexample.trace.events), rb, args.save_ruling, property=v.pid,
                                replay=replay, engine="z3")


def _print(con, rb, out, lang: str, clause_text) -> None:
    """The verdicts' table, Z3's version and seed, each counterexample with its replay, and the summary line."""
    if out.disagreement is not None:
        con.print(f"[bold yellow]{escape(t('prove_disagreement', lang, text=out.disagreement.text(lang)))}[/]")
    _print_table(con, rb, out, lang)
    con.print(t("prove_meta", lang, version=out.z3_version, seed=out.seed, timeout=out.timeout_ms,
                seconds=out.seconds))
    for v in out.verdicts:
        if v.counterexample is not None:
            _print_counterexample(con, v, lang, clause_text)
    _print_summary(con, out, lang)


def _print_table(con, rb, out, lang: str) -> None:
    from ruleproof.properties.catalogue import BY_ID  # start-up: only when the command runs

    table = Table(title=f"{t('prove_title', lang)} — {escape(rb.path)}")
    for key in ("check", "clauses", "prove_verdict", "prove_engine", "prove_seconds", "prove_witness"):
        table.add_column(t(key, lang), overflow="fold")
    for v in out.verdicts:
        style = {ProofVerdict.PROVED: "cyan" if out.within_menu else "green",
                 ProofVerdict.VIOLATED: "bold red"}.get(v.verdict, "yellow")
        if v.vacuous:
            witness, style = f"[bold red]{t('prove_vacuous', lang)}[/]", "bold red"
        else:
            witness = _witness(v, lang)
        table.add_row(v.pid, ", ".join(BY_ID[v.pid].clauses), f"[{style}]{escape(_verdict_text(v, lang, out.within_menu))}[/]",
                      v.engine, f"{v.seconds:.2f}", witness)
    con.print(table)


def _witness(v, lang: str) -> str:
    """A premise's vacuity witness: the premise and the steps to it (unknown for a proof that found none)."""
    if v.vacuous is None:
        return t("prove_witness_unknown", lang) if v.verdict == ProofVerdict.PROVED else ""
    from ruleproof.properties.monitor_z3 import FORMS  # start-up: only when the command runs

    f = FORMS[v.pid]
    return escape(f.premise_ru if lang == "ru" else f.premise_en) + f" ({len(v.witness.steps)})"


def _print_counterexample(con, v, lang: str, clause_text) -> None:
    """A violated property: the clauses, the world, the offending events, the interpreter's trace and the replay."""
    from ruleproof.properties.catalogue import BY_ID  # start-up: only when the command runs
    from ruleproof.reports.trace import print_offending, print_trace  # start-up: only when the command runs

    cx = v.counterexample
    viol = cx.violation
    message = (viol.en if lang == "en" else viol.ru) if viol else ""
    con.print(f"[bold red]✗ {v.pid}[/] {escape(message)}", highlight=False)
    for cid in BY_ID[v.pid].clauses:
        text = clause_text(cid)
        if text:
            con.print(f"  [dim]{cid}:[/] «{escape(text)}»", highlight=False)
    con.print(f"  {t('prove_world', lang)}: {escape(_world_line(cx.world, lang))}", highlight=False)
    print_offending(con, cx.trace, viol.events if viol else (), lang)
    print_trace(con, cx.trace, lang, title=t("prove_cx", lang, check=v.pid, depth=v.depth, engine=v.engine),
                highlight=viol.events if viol else ())
    con.print("  " + t("prove_replay", lang, dice=cx.dice, responses=cx.responses), highlight=False)
    con.print("  " + (t("prove_replayed", lang, mode=t(f"replay_mode_{cx.replay_mode}", lang)) if cx.reproduced
                      else f"[yellow]{t('prove_not_replayed', lang)}[/]"))


def _print_summary(con, out, lang: str) -> None:
    n = len(out.verdicts)
    bad = sum(v.verdict == ProofVerdict.VIOLATED for v in out.verdicts)
    vac = sum(bool(v.vacuous) for v in out.verdicts)
    unk = sum(v.verdict != ProofVerdict.PROVED and v.verdict != ProofVerdict.VIOLATED or (v.vacuous is None and v.verdict == ProofVerdict.PROVED)
              for v in out.verdicts)
    if bad or vac or unk:
        con.print(f"[bold]{t('prove_summary_bad', lang, bad=bad, vac=vac, unk=unk, n=n)}[/]")
        return
    sc = out.scope
    if sc is None or sc.whole:
        con.print(f"[green]{t('prove_summary_ok', lang, n=n)}[/]")
    else:
        left = "; ".join(c.text(lang) for c in sc.missing[:4]) + (" …" if len(sc.missing) > 4 else "")
        line = t("prove_summary_menu", lang, n=n, covered=sc.covered, admitted=sc.admitted, missing=len(sc.missing),
                 left=left)
        con.print(f"[green]{escape(line)}[/]")


def _feature_label(f, lang: str) -> str:
    """A feature's id; a 540.1 text also says its form, X, limit and marker waiver (they decide payment)."""
    if f.kind != "resource_modifier":
        return f.id
    parts = [t(f"world_form_{f.form}", lang, times=times_text(f.times, lang))]
    if f.limit is not None:
        parts.append(t("world_limit", lang, n=f.limit))
    if not f.action_marker:
        parts.append(t("world_no_marker", lang))
    return f"{f.id} ({', '.join(parts)})"


def _world_line(world, lang: str) -> str:
    """The counterexample's world in one line: the action, its defender, parts and X, the cards' features,
    and the source's action markers and uses this turn when they are not zero.

    >>> from ruleproof.model.menu import menu_world, world_state
    >>> w = world_state({**menu_world(lambda d: d[0], lambda: False), "w_src_rm_form": 3, "w_src_rm_times": 1,
    ...                  "w_src_uses": 1})
    >>> _world_line(w, "en").split("; ", 1)[1]
    'src: src_rm (once a turn); src: action markers 0, uses of act this turn 1'
    >>> _world_line(w, "ru").split("; ", 1)[1]
    'src: src_rm (1 раз за ход); src: маркеров действия 0, применений act за ход 1'
    """
    a = world.action
    feats = "; ".join(f"{c.id}: {', '.join(_feature_label(f, lang) for f in c.features)}"
                      for c in world.cards if c.features)
    src = world.card(a.source)
    own = src.used(a.feature, a.kind)
    kin = src.used_kinds((a.kind,)) - own  # 540.1.3: its other features' game actions of this kind
    if src.action_markers or own or kin:
        feats += ("; " if feats else "") + t("world_counts_kin" if kin else "world_counts", lang, card=src.id,
                                             markers=src.action_markers, feature=a.feature, uses=own, kind=a.kind,
                                             kin=kin)
    xs = ", ".join(f"{x.name}={x.chosen if x.compute is None else '/'.join(x.compute)}" for x in a.xs)
    return t("prove_world_line", lang, kind=a.kind, defender=a.defender or "—", parts=a.parts_left, xs=xs or "—",
             features=feats or "—")
