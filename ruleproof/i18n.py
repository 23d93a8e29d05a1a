"""User-facing labels in Russian and English.

>>> t("holds", "ru"), t("holds", "en")
('выполнено', 'holds')
>>> default_lang({"LANG": "ru_RU.UTF-8"}), default_lang({"LANG": "C.UTF-8"})
('ru', 'en')
"""

from __future__ import annotations

import os
from collections.abc import Mapping

__all__ = ["t", "default_lang", "LANGS"]

LANGS = ("ru", "en")

_LABELS: dict[str, tuple[str, str]] = {
    # key: (ru, en)
    "holds": ("выполнено", "holds"),
    "violated": ("нарушено", "violated"),
    "unknown": ("не установлено", "unknown"),
    "check": ("проверка", "check"),
    "clauses": ("пункты", "clauses"),
    "statement": ("что проверяется", "what is checked"),
    "result": ("итог", "result"),
    "where": ("где", "where"),
    "element": ("элемент", "element"),
    "finding": ("находка", "finding"),
    "structure_title": ("Структурные проверки графа фаз", "Structural checks of the phase graph"),
    "rulebook": ("свод правил", "rulebook"),
    "steps": ("шагов", "steps"),
    "edges": ("переходов", "edges"),
    "operations": ("операций", "operations"),
    "windows": ("окон приоритета", "priority windows"),
    "assumptions": ("Допущения (пункты вне выдержек)", "Assumptions (clauses outside the excerpts)"),
    "assumption": ("допущение", "assumption"),
    "about": ("вместо пунктов", "stands in for"),
    "reason": ("причина", "reason"),
    "summary_ok": ("Все {n} проверок выполнены.", "All {n} checks hold."),
    "summary_ok_sampled": ("Все {n} проверок выполнены ({m} из них — на {examples} примерах Hypothesis).",
                           "All {n} checks hold ({m} of them on {examples} Hypothesis examples)."),
    "summary_bad": ("Нарушено проверок: {bad} из {n}; находок: {count}.",
                    "{bad} of {n} checks violated; {count} findings."),
    "official": ("официальный текст", "official text"),
    "our_summary": ("краткое изложение ruleproof", "ruleproof's summary"),
    "id": ("номер", "id"),
    "kind": ("вид", "kind"),
    "status": ("статус", "status"),
    "summary": ("суть", "summary"),
    "clause_index": ("Указатель пунктов", "Clause index"),
    "available": ("есть в выдержках", "in the excerpts"),
    "partial": ("частично", "partial"),
    "referenced": ("только упоминается, текста нет", "referenced, text not available"),
    "text_new": ("В тексте, но не в указателе ruleproof", "In the text but not in ruleproof's index"),
    "text_missing": ("В указателе, но нет в тексте", "In the index but not in the text"),
    "text_refs": ("Упомянуты, но отсутствуют в тексте", "Referenced but not contained in the text"),
    "changed": ("Изменена формулировка", "Wording changed"),
    "added": ("Добавлены", "Added"),
    "removed": ("Удалены", "Removed"),
    "cited_by": ("на них ссылаются", "cited by"),
    "no_changes": ("Формулировки не изменились.", "No wording changed."),
    "nothing_cites": ("ни один элемент модели", "no model element"),
    "written": ("Записано: {path}", "Written: {path}"),
    "trace_seq": ("№", "#"),
    "trace_step": ("шаг", "step"),
    "trace_clauses": ("пункты", "clauses"),
    "trace_event": ("событие", "event"),
    "trace_values": ("значения", "values"),
    "trace_rule": ("строка свода", "rulebook line"),
    "skipped": ("пропущено по условию", "skipped by its guard"),
    "scenario_pass": ("Сценарий {id}: исход совпал с ожидаемым ({n} ожиданий).",
                      "Scenario {id}: the outcome is as expected ({n} expectations)."),
    "scenario_fail": ("Сценарий {id}: исход расходится с ожидаемым — {n}:", "Scenario {id}: the outcome differs — {n}:"),
    "source": ("источник", "source"),
    "replay": ("повторить", "replay"),
    "passed_note": ("пройдено: {note}", "passed {note}"),
    "counterexample": ("Контрпример к {check} (после сокращения)", "Counterexample to {check} (shrunk)"),
    "properties_title": ("Свойства правил под Hypothesis (выборочная проверка, не доказательство)",
                         "Properties of the rules under Hypothesis (sampled, not a proof)"),
    "hypothesis_stats": ("Hypothesis: {examples} примеров, {seconds:.1f} с, профиль {profile}",
                         "Hypothesis: {examples} examples, {seconds:.1f} s, profile {profile}"),
    "selftest_title": ("Самопроверка: ловят ли свойства и решения ошибочные черновики",
                       "Self-test: do the properties and rulings catch faulty drafts"),
    "st_mutant": ("черновик", "draft"),
    "st_operator": ("оператор", "operator"),
    "st_status": ("итог", "status"),
    "st_killed_by": ("кем пойман / почему нет", "killed by / why not"),
    "st_killed": ("пойман", "killed"),
    "st_survived": ("НЕ ПОЙМАН", "SURVIVED"),
    "st_equivalent": ("эквивалентен", "equivalent"),
    "st_undecided": ("не решается выдержками", "undecided by the excerpts"),
    "st_invalid": ("не загружается", "not loadable"),
    "st_property_kills": ("Свойств, поймавших хотя бы один черновик: {n} из {total}",
                          "Properties that kill at least one draft: {n} of {total}"),
    "st_summary": ("Черновиков {mutants}: поймано {killed}, эквивалентных {equivalent}, нерешаемых {undecided}, "
                   "не поймано {survived}; доля пойманных {rate:.1f}% ({seconds:.0f} с)",
                   "{mutants} drafts: {killed} killed, {equivalent} equivalent, {undecided} undecided, "
                   "{survived} survived; kill rate {rate:.1f}% ({seconds:.0f} s)"),
    "rules_text_from": ("Текст правил: {src} ({n} единиц)", "Rules text: {src} ({n} units)"),
    # clause consistency (ruleproof consistency) — keys cons_*
    "cons_title": ("Согласованность пунктов: временные утверждения пунктов и порядок свода (Z3)",
                   "Clause consistency: the clauses' temporal claims and the rulebook's order (Z3)"),
    "cons_claims": ("Проверено утверждений: {n}; пункты: {clauses}", "Claims checked: {n}; clauses: {clauses}"),
    "cons_consistent": ("Итог: согласовано — все {n} утверждений выполнимы вместе с порядком свода.",
                        "Verdict: consistent — all {n} claims hold together with the rulebook's order."),
    "cons_conflict": ("Итог: ПРОТИВОРЕЧИЕ — минимальных ядер: {n}.", "Verdict: CONFLICT — minimal cores: {n}."),
    "cons_not_checked": ("Утверждения пунктов не проверены: порядок самого свода противоречив.",
                         "The clauses' claims were not checked: the rulebook's own order is contradictory."),
    "cons_incomplete": ("Показаны первые {n} ядер; могут быть и другие.",
                        "The first {n} cores are shown; there may be more."),
    "cons_unknown": ("Итог: не установлено — Z3 не дал ответа ({reason}). Это не «согласовано».",
                     "Verdict: unknown — Z3 gave no answer ({reason}). This is not «consistent»."),
    "cons_core": ("Ядро {n}: {claims}", "Core {n}: {claims}"),
    "cons_core_rulebook_only": ("Ядро {n}: порядок самого свода противоречив", "Core {n}: the rulebook's own order is contradictory"),
    "cons_core_clauses": ("пункты:", "clauses:"),
    "cons_core_elements": ("элементы свода:", "rulebook elements:"),
    "cons_no_text": ("(текста нет)", "(no text)"),
    "cons_assumes": ("опирается на допущения: {ids}", "rests on the assumptions: {ids}"),
    "cons_engine": ("Z3 {version}, seed {seed}, {seconds:.2f} с", "Z3 {version}, seed {seed}, {seconds:.2f} s"),
}


def t(key: str, lang: str = "en", **params: object) -> str:
    ru, en = _LABELS[key]
    return (ru if lang == "ru" else en).format(**params)


def default_lang(env: Mapping[str, str] | None = None) -> str:
    env = os.environ if env is None else env
    explicit = env.get("RULEPROOF_LANG", "")
    if explicit in LANGS:
        return explicit
    return "ru" if env.get("LANG", "").lower().startswith("ru") else "en"
