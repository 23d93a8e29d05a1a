"""User-facing labels in Russian and English.

>>> t("holds", "ru"), t("holds", "en")
('выполнено', 'holds')
>>> default_lang({"LANG": "ru_RU.UTF-8"}), default_lang({"LANG": "C.UTF-8"})
('ru', 'en')
>>> answers_text((4, None, "kele_heal"), "ru")
'кубик 4, пас, kele_heal'

A count and its noun agree by the language's plural rules: a template names the forms after the count's
field, ``{n} {n:ожидание|ожидания|ожиданий}`` (Russian: one, few, many) or ``{n} {n:check|checks}``:

>>> [t("scenario_pass", "ru", id="s", n=n).split("(")[1] for n in (1, 3, 11)]
['1 ожидание).', '3 ожидания).', '11 ожиданий).']
>>> t("scenario_pass", "en", id="s", n=1)
'Scenario s: the outcome is as expected (1 expectation).'
"""

from __future__ import annotations

import os
import re
import string
from collections.abc import Mapping, Sequence

__all__ = ["t", "fill", "default_lang", "answers_text", "word", "times_text", "plural", "reason_text", "LANGS"]

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
    "internal_error": ("ruleproof: внутренняя ошибка (ошибка самого ruleproof, а не находка в правилах): {error}; "
                       "команда: {command}; трассировка сохранена в {path} — пожалуйста, сообщите о ней",
                       "ruleproof: internal error (a bug in ruleproof, not a finding about the rules): {error}; "
                       "command: {command}; traceback saved to {path} — please report it"),
    "trace_seq": ("№", "#"),
    "trace_step": ("шаг", "step"),
    "trace_clauses": ("пункты", "clauses"),
    "trace_event": ("событие", "event"),
    "trace_values": ("значения", "values"),
    "trace_rule": ("строка свода", "rulebook line"),
    "skipped": ("пропущено по условию", "skipped by its guard"),
    "scenario_pass": ("Сценарий {id}: исход совпал с ожидаемым ({n} {n:ожидание|ожидания|ожиданий}).",
                      "Scenario {id}: the outcome is as expected ({n} {n:expectation|expectations})."),
    "rep_omitted": ("(опущено)", "(left out)"),
    "rep_omitted_n": ("событий: {n}, №{a}–{b}", "{n} events, #{a}–#{b}"),
    "rep_draft_title": ("Проект правил: {title}", "Draft rules: {title}"),
    "rep_copy_of_bundled": ("изменённая копия встроенного свода: тот же id {id}, другие правила",
                            "a changed copy of the bundled rulebook: the same id {id}, other rules"),
    "rep_reading_not_applicable": ("не применимо к этому своду ({why})", "does not apply to this rulebook ({why})"),
    "rd_not_applicable": ("Прочтение {id} к этому своду не применимо ({why}): не сравнивается.",
                          "Reading {id} does not apply to this rulebook ({why}): not compared."),
    "run_compact": ("Показано событий: {shown} из {n} (выборы, решения по условиям и изменения; все — --full).",
                    "Events shown: {shown} of {n} (choices, the guards' decisions and changes; every one: --full)."),
    "run_cases": ("Вариантов с ожидаемым исходом: {ok} из {n}.", "Cases with the expected outcome: {ok} of {n}."),
    "scenario_fail": ("Сценарий {id}: исход расходится с ожидаемым — {n} {n:расхождение|расхождения|расхождений}:",
                      "Scenario {id}: the outcome differs — {n} {n:difference|differences}:"),
    "source": ("источник", "source"),
    "plug_ruling": ("Разъяснение", "Ruling"),
    "plug_expected": ("ожидалось", "expected"),
    "plug_actual": ("получено", "actual"),
    "plug_trace": ("Ход игродействия (исход: {outcome})", "Trace of the game action (outcome: {outcome})"),
    "replay": ("повторить", "replay"),
    "unit_section": ("раздел", "section"),
    "unit_clause": ("пункт", "clause"),
    "unit_lead": ("вводная часть", "lead"),
    "unit_bullet": ("пункт списка", "bullet"),
    "unit_paragraph": ("абзац", "paragraph"),
    "unit_tail": ("заключительная часть", "tail"),
    "unit_example": ("пример", "example"),
    "diff_progress": ("сравнение: готово {task}", "diff: {task} done"),
    "passed_note": ("пройдено: {note}", "passed {note}"),
    "note_explore": ("{runs} {runs:прогон|прогона|прогонов}, {states} {states:состояние|состояния|состояний}",
                     "{runs} runs, {states} states"),
    "note_bounded": (" (остановлено ограничением {by}: перебор неполный)", " (stopped at {by}: bounded, incomplete)"),
    "note_premise": ("; ситуация свойства — в {k}", "; premise in {k}"),
    "note_deadlocks": ("{n} {n:прогон|прогона|прогонов} без конца", "{n} runs without an end"),
    "note_rulings": ("{n} {n:игродействие|игродействия|игродействий} {m} {m:разъяснения|разъяснений|разъяснений}",
                     "{n} game actions of {m} rulings"),
    "note_operations": ("выполнено операций: {n}", "{n} operations ran"),
    "note_z3_carried": ("{verdict} ({engine}, {s} с); перенесено с прежней проверки: инвариант проверен на {checked} "
                        "{checked:правиле|правилах|правилах} ({unchanged} без изменений)",
                        "{verdict} ({engine}, {s} s); carried from an earlier check: the invariant re-checked on "
                        "{checked} rules ({unchanged} unchanged)"),
    "note_z3_afresh": ("; {fresh} из {queries} запросов доказаны заново", "; {fresh} of {queries} queries proved afresh"),
    "note_conformance": ("{steps} {steps:шаг|шага|шагов}, {runs} {runs:прогон|прогона|прогонов}; "
                         "воспроизведено шагов путей Z3: {walked}",
                         "{steps} steps, {runs} runs; {walked} steps of Z3 paths replayed"),
    "counterexample": ("Контрпример к {check} (после сокращения)", "Counterexample to {check} (shrunk)"),
    "properties_title": ("Свойства правил под Hypothesis (выборочная проверка, не доказательство)",
                         "Properties of the rules under Hypothesis (sampled, not a proof)"),
    "hypothesis_stats": ("Hypothesis: {examples} примеров, {seconds:.1f} с, профиль {profile}",
                         "Hypothesis: {examples} examples, {seconds:.1f} s, profile {profile}"),
    "selftest_title": ("Самопроверка: ловят ли свойства и разъяснения ошибочные черновики",
                       "Self-test: do the properties and rulings catch faulty drafts"),
    "st_mutant": ("черновик", "draft"),
    "st_operator": ("оператор", "operator"),
    "st_status": ("итог", "status"),
    "st_killed_by": ("кем пойман / почему нет", "killed by / why not"),
    "st_killed": ("пойман", "killed"),
    "st_survived": ("НЕ ПОЙМАН", "SURVIVED"),
    "st_equivalent": ("эквивалентен", "equivalent"),
    "st_undecided": ("не решён", "undecided"),
    "st_invalid": ("не загружается", "not loadable"),
    "st_property_kills": ("Свойств, поймавших хотя бы один черновик: {n} из {total}",
                          "Properties that kill at least one draft: {n} of {total}"),
    "st_summary": ("Черновиков {mutants}: поймано {killed}, эквивалентных {equivalent}, нерешаемых {undecided}, "
                   "не поймано {survived}; доля пойманных {rate:.1f}% ({seconds:.0f} с)",
                   "{mutants} drafts: {killed} killed, {equivalent} equivalent, {undecided} undecided, "
                   "{survived} survived; kill rate {rate:.1f}% ({seconds:.0f} s)"),
    # clause coverage by failure (ruleproof clauses --broken) — keys br_*
    "br_running": ("ломаем пункты по одному…", "breaking the clauses one at a time…"),
    "br_title": ("Что ломается, если нарушить пункт — {edition} ({n} черновиков с одной ошибкой)",
                 "What fails when a clause is broken — {edition} ({n} one-fault drafts)"),
    "br_col_drafts": ("черновики, нарушающие пункт", "drafts that break it"),
    "br_col_properties": ("нарушенные свойства", "properties that fail"),
    "br_col_checks": ("проверки и утверждения", "checks and claims that fail"),
    "br_col_rulings": ("разъяснения", "rulings that fail"),
    "br_col_coverage": ("слабейший случай", "weakest case"),
    "br_property": ("свойство", "property"),
    "br_check": ("проверка", "check"),
    "br_rulings": ("только разъяснения", "rulings only"),
    "br_unnoticed": ("НЕ ЗАМЕЧЕНО", "UNNOTICED"),
    "br_reading": ("другое прочтение (решают разъяснения)", "another reading (rulings decide)"),
    "br_no_change": ("поведение не меняется", "no change"),
    "br_not_broken": ("ни один черновик не нарушает", "no draft breaks it"),
    "br_summary": ("Пунктов {units}: слабейший нарушающий черновик ловит свойство — {property}, проверка — {check}, "
                   "только разъяснения — {rulings}; не замечено — {unnoticed}; другое прочтение — {reading}; "
                   "поведение не меняется — {no_change}; "
                   "не нарушается ни одним черновиком — {not_broken} ({seconds:.0f} с)",
                   "{units} units: the weakest draft that breaks it is caught by a property — {property}, a check — "
                   "{check}, rulings only — {rulings}; unnoticed — {unnoticed}; another reading — {reading}; no change — "
                   "{no_change}; broken by no "
                   "draft — {not_broken} ({seconds:.0f} s)"),
    "check_cached": ("Результаты взяты из кэша (.ruleproof-cache/; свод, параметры и ruleproof не менялись): "
                     "{engines}. Запустить заново: --no-cache",
                     "These results came from the cache (.ruleproof-cache/; the rulebook, the options and ruleproof "
                     "are unchanged): {engines}. To run them again: --no-cache"),
    "check_carried": ("Z3: {carried} из {proved} доказательств перенесены с прежней проверки (их инвариант проверен "
                      "заново на этом своде, на изменившихся правилах); остальные доказаны заново. Всё заново: "
                      "--no-cache",
                      "Z3: {carried} of {proved} proofs carried over from an earlier check (their invariant re-checked "
                      "on this rulebook, on the rules that changed); the rest proved afresh. All afresh: --no-cache"),
    "watch_ran": ("Проверка {n}: движки запущены — {ran}; взяты из кэша — {cached}",
                  "Check {n}: engines run — {ran}; taken from the cache — {cached}"),
    "watch_engine": ("  {engine}: проверок {checks}, нарушено {violated}, не установлено {unknown} — {when} "
                     "(ответ через {at} с)",
                     "  {engine}: {checks} checks, {violated} violated, {unknown} inconclusive — {when} "
                     "(answered {at} s in)"),
    "watch_seconds": ("{seconds} с", "{seconds} s"),
    "watch_from_cache": ("из кэша", "from the cache"),
    "watch_done": ("Проверка {n} закончена за {seconds} с, код выхода {code}. Жду изменений: {paths} (выход — прерывание с клавиатуры)",
                   "Check {n} done in {seconds} s, exit code {code}. Waiting for a change: {paths} (Ctrl-C ends)"),
    "diff_cached": ("Результаты базового свода взяты из кэша (.ruleproof-cache/; свод, параметры и ruleproof не "
                    "менялись): {engines}. Запустить заново: --no-cache",
                    "The base rulebook's results came from the cache (.ruleproof-cache/; the base, the options and "
                    "ruleproof are unchanged): {engines}. To run them again: --no-cache"),
    "rules_text_from": ("Текст правил: {src} ({n} {n:единица|единицы|единиц})",
                        "Rules text: {src} ({n} {n:unit|units})"),
    "lookup_cited_by": ("На пункт ссылаются ({n})", "Cited by ({n})"),
    "lookup_cited_none": ("На пункт не ссылается ни один элемент, свойство, решение, допущение или прочтение",
                      "No element, property, ruling, assumption or reading cites it"),
    "cite_kind_property": ("свойство", "property"), "cite_kind_ruling": ("решение", "ruling"),
    "cite_kind_assumption": ("допущение", "assumption"), "cite_kind_reading": ("прочтение", "reading"),
    "cite_kind_step": ("шаг", "step"), "cite_kind_operation": ("операция", "operation"),
    "cite_kind_window": ("окно", "window"), "cite_kind_edge": ("переход", "edge"), "cite_kind_table": ("таблица", "table"),
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
    # reports (reports/*): headings, columns, verdicts — keys rep_*
    "rep_title": ("Отчёт ruleproof", "ruleproof report"),
    "rep_rulebook": ("Свод правил", "Rulebook"),
    "rep_rulebook_counts": ("{steps} {steps:шаг|шага|шагов}, {edges} {edges:переход|перехода|переходов}, "
                            "{operations} {operations:операция|операции|операций}, "
                            "{windows} {windows:окно|окна|окон} приоритета, "
                            "{assumptions} {assumptions:допущение|допущения|допущений}",
                            "{steps} {steps:step|steps}, {edges} {edges:edge|edges}, "
                            "{operations} {operations:operation|operations}, "
                            "{windows} priority {windows:window|windows}, "
                            "{assumptions} {assumptions:assumption|assumptions}"),
    "rep_edition": ("редакция «{edition}»", "edition «{edition}»"),
    "rep_summary": ("Итог", "Summary"),
    "rep_overall_holds": ("Все проверки выполнены ({n}).", "Every check holds ({n})."),
    "rep_overall_violated": ("Нарушено проверок: {bad} из {n}; находок: {count}.",
                             "{bad} of {n} checks violated; findings: {count}."),
    "rep_overall_unknown": ("Нарушений не найдено, но без ответа осталось проверок: {bad} из {n}.",
                            "No violation found, but {bad} of {n} checks are inconclusive."),
    "rep_exit_code": ("Код выхода: {code}", "Exit code: {code}"),
    "rep_group_structure": ("Структурные проверки графа фаз", "Structural checks of the phase graph"),
    "rep_group_rulings": ("Разъяснения: сценарии на интерпретаторе", "Rulings: scenarios on the interpreter"),
    "rep_group_hypothesis": ("Свойства правил под Hypothesis (выборочная проверка, не доказательство)",
                             "Properties of the rules under Hypothesis (sampled, not a proof)"),
    "rep_group_exhaustive": ("Полный перебор (в пределах границы)", "Exhaustive exploration (within its bound)"),
    "rep_group_z3": ("Доказательство в Z3", "Proof with Z3"),
    "rep_group_consistency": ("Непротиворечивость пунктов", "Consistency of the clauses"),
    "rep_group_conformance": ("Согласие интерпретатора и модели Z3 на этом своде правил",
                              "Agreement of the interpreter and the Z3 model on this rulebook"),
    "rep_short_structure": ("структура графа", "graph structure"),
    "rep_short_rulings": ("разъяснения", "rulings"),
    "rep_short_hypothesis": ("свойства (Hypothesis)", "properties (Hypothesis)"),
    "rep_short_exhaustive": ("полный перебор", "exhaustive search"),
    "rep_short_z3": ("доказательство (Z3)", "proof (Z3)"),
    "rep_short_consistency": ("непротиворечивость", "consistency"),
    "rep_short_conformance": ("согласие движков", "engine agreement"),
    "rep_stats_hypothesis": ("{examples} примеров, зерно {seed}", "{examples} examples, seed {seed}"),
    "rep_stat_seed": ("зерно {v}", "seed {v}"),
    "rep_stat_timeout_ms": ("предел {v} мс на запрос", "timeout {v} ms per query"),
    "rep_stat_max_depth": ("глубина до {v}", "depth up to {v}"),
    "rep_stat_states": ("состояний: {v}", "{v} states"),
    "rep_stat_traces": ("трасс: {v}", "{v} traces"),
    "rep_stat_runs": ("прогонов: {v}", "{v} runs"),
    "rep_stat_steps": ("шагов сверено: {v}", "{v} steps compared"),
    "rep_stat_incomplete": ("перебор не полон", "the search is not complete"),
    "rep_proved": ("доказано", "proved"),
    "rep_col_check": ("Проверка", "Check"),
    "rep_col_clauses": ("Пункты", "Clauses"),
    "rep_col_statement": ("Что проверяется", "What is checked"),
    "rep_col_result": ("Итог", "Result"),
    "rep_col_group": ("Движок", "Engine"),
    "rep_col_checks_n": ("Проверок", "Checks"),
    "rep_col_violated_n": ("Нарушено", "Violated"),
    "rep_col_unknown_n": ("Без ответа", "Inconclusive"),
    "rep_col_seq": ("№", "#"),
    "rep_col_step": ("Шаг", "Step"),
    "rep_col_event": ("Событие", "Event"),
    "rep_col_values": ("Значения", "Values"),
    "rep_col_rule": ("Строка свода", "Rulebook line"),
    "rep_col_changes": ("Изменения состояния", "State changes"),
    "rep_col_unit": ("Пункт", "Clause"),
    "rep_col_text_status": ("Текст в выдержках", "Text in the excerpts"),
    "rep_col_coverage": ("Покрытие", "Coverage"),
    "rep_col_properties": ("Свойства", "Properties"),
    "rep_col_rulings": ("Разъяснения", "Rulings"),
    "rep_col_structure": ("Структурные проверки", "Structural checks"),
    "rep_col_assumptions": ("Допущения", "Assumptions"),
    "rep_col_id": ("Обозначение", "Id"),
    "rep_col_about": ("Вместо пунктов", "Stands in for"),
    "rep_col_assumption": ("Допущение", "Assumption"),
    "rep_col_reason": ("Причина", "Reason"),
    "rep_verdict_holds": ("выполнено", "holds"),
    "rep_verdict_violated": ("нарушено", "violated"),
    "rep_verdict_unknown": ("не установлено", "inconclusive"),
    "rep_verdict_timeout": ("не уложилось во время", "timed out"),
    "rep_verdict_error": ("сбой проверки", "engine error"),
    "rep_verdict_uncovered": ("не покрыт", "not covered"),
    "rep_passed_examples": ("выполнено на {n} {n:примере|примерах|примерах}", "holds on {n} {n:example|examples}"),
    "rep_topped_up": ("; ещё {n} {n:пример|примера|примеров} — для ситуаций, которые не сыграли",
                      "; {n} more {n:example|examples} for situations not yet played"),
    "rep_passed_examples_premise": ("выполнено на {n} {n:примере|примерах|примерах} (ситуация свойства — в {k} из "
                                    "{runs} {runs:прогона|прогонов|прогонов})",
                                    "holds on {n} {n:example|examples} (its situation in {k} of {runs} {runs:run|runs})"),
    "rep_findings": ("Находки", "Findings"),
    "rep_no_findings": ("Находок нет.", "No findings."),
    "rep_kind": ("Вид", "Kind"),
    "rep_engine": ("Движок", "Engine"),
    "rep_where": ("Где", "Where"),
    "el_step": ("шаг", "step"), "el_edge": ("переход", "edge"), "el_op": ("операция", "op"),
    "el_window": ("окно", "window"), "el_world": ("мир", "world"), "el_events": ("события", "events"),
    "el_depth": ("глубина", "depth"), "el_clause": ("пункт", "clause"),
    "rep_offending": ("Нарушающее событие", "Offending event"),
    "rep_passing_collapsed": ("Все проверки группы выполнены; раскройте, чтобы увидеть список.",
                              "Every check of the group holds; open to see the list."),
    "rep_element": ("Элемент", "Element"),
    "rep_kind_structure": ("структурная проверка", "structural check"),
    "rep_kind_property": ("нарушение свойства", "property violation"),
    "rep_kind_vacuous": ("свойство выполняется впустую", "vacuous property"),
    "rep_kind_not_exercised": ("ситуация свойства не разыграна", "not exercised"),
    "rep_kind_conflict": ("противоречие пунктов", "clause conflict"),
    "rep_kind_ruling": ("расхождение с разъяснением", "ruling mismatch"),
    "rep_kind_ruling_property": ("свойство нарушено в игре разъяснения", "property violated in a ruling's game"),
    "rep_kind_unknown": ("без ответа", "inconclusive"),
    "rep_kind_coverage": ("покрытие пунктов", "clause coverage"),
    "rep_kind_conformance": ("расхождение интерпретатора и модели Z3", "interpreter and Z3 model disagree"),
    "rep_engine_graph": ("граф фаз", "phase graph"),
    "rep_engine_interpreter": ("интерпретатор", "interpreter"),
    "rep_engine_hypothesis": ("Hypothesis", "Hypothesis"),
    "rep_engine_exhaustive": ("полный перебор", "exhaustive search"),
    "rep_engine_z3": ("Z3", "Z3"),
    "rep_engine_coverage": ("покрытие", "coverage"),
    "rep_engine_conformance": ("согласие движков", "engine agreement"),
    "rep_counterexample": ("Контрпример: выделенные события (▶) нарушают свойство",
                           "Counterexample: the highlighted events (▶) break the property"),
    "rep_counterexample_ruling": ("Ход партии: выделенные события (▶) расходятся с разъяснением",
                                  "The run: the highlighted events (▶) depart from the ruling"),
    "rep_initial_state": ("начальное состояние", "initial state"),
    "rep_replay": ("Как воспроизвести", "How to replay"),
    "rep_command": ("Команда", "Command"),
    "rep_seed": ("Зерно", "Seed"),
    "rep_scenario": ("Файл сценария", "Scenario file"),
    "rep_depends_on": ("Опирается на допущения", "Depends on the assumptions"),
    "rep_depends_readings": ("меняется при прочтениях: {ids}", "changes under the readings: {ids}"),
    "rep_readings": ("Другие прочтения свода", "Alternative readings"),
    "rep_rulings_not_run": ("разъяснения не проверялись", "the rulings did not run"),
    "rep_readings_note": ("Что меняет каждое прочтение в свойствах и противоречиях, показывает ruleproof readings.",
                          "What each reading changes in the properties and conflicts: ruleproof readings."),
    "rep_depends_none": ("не меняется ни при одном из прочтений свода", "changes under none of the rulebook's readings"),
    "rep_quotes": ("Пункты правил", "Clauses of the rules"),
    "rep_quote_official": ("Официальный текст из: {src}; где его нет — краткое изложение ruleproof.",
                           "Official wording from: {src}; where it has none, ruleproof's summary."),
    "rep_quote_summary": ("Краткое изложение ruleproof (официальный текст — с ключом --rules-text).",
                          "ruleproof's summary (the official wording with --rules-text)."),
    "rep_graph": ("Граф фаз", "Phase graph"),
    "rep_graph_path": ("Выделен путь контрпримера к {check}: {path}.",
                       "Highlighted: the path of the counterexample to {check}: {path}."),
    "rep_graph_no_path": ("Контрпримеров нет: путь не выделен.", "No counterexample: no path is highlighted."),
    "rep_coverage": ("Покрытие пунктов", "Clause coverage"),
    "rep_coverage_summary": ("Пунктов: {units}; покрыто прямо — {direct}, косвенно — {indirect}, не покрыто — "
                             "{none} (из них с текстом в выдержках — {uncovered}).",
                             "{units} clause units: {direct} covered directly, {indirect} indirectly, {none} not "
                             "covered ({uncovered} of them with text in the excerpts)."),
    "rep_uncovered": ("Непокрытые пункты", "Uncovered clauses"),
    "rep_debt": ("Долг по разъяснениям", "Ruling debt"),
    "rep_debt_note": ("Пункты по убыванию долга: сначала те, о которых есть прочтение, не решённое ни одним "
                      "разъяснением, и нет разъяснения; затем прочтение не решено; открытый вопрос (ruleproof "
                      "questions); нет разъяснения; закреплён.",
                      "Clause units by debt, most pressing first: a reading no ruling decides and no ruling on the "
                      "unit; a reading not decided; an open question (ruleproof questions); no ruling; pinned."),
    "rep_debt_summary": ("Пунктов: {units}; с нерешённым прочтением — {open}, без разъяснения — {bare}, "
                         "закреплено — {pinned}.",
                         "{units} clause units: {open} with a reading not decided, {bare} with no ruling, "
                         "{pinned} pinned."),
    "rep_col_debt": ("Долг", "Debt"),
    "rep_col_open_readings": ("Нерешённые прочтения", "Readings not decided"),
    "rep_col_decided_readings": ("Решённые прочтения", "Readings decided"),
    "rep_col_questions": ("Открытые вопросы", "Open questions"),
    "debt_reading_no_ruling": ("прочтение без разъяснения", "reading, no ruling"),
    "debt_reading_open": ("прочтение не решено", "reading not decided"),
    "debt_question": ("открытый вопрос", "open question"),
    "debt_no_ruling": ("нет разъяснения", "no ruling"),
    "debt_pinned": ("закреплён", "pinned"),
    "rep_cov_direct": ("прямое", "direct"),
    "rep_cov_indirect": ("косвенное", "indirect"),
    "rep_cov_none": ("нет", "none"),
    "rep_assumptions": ("Допущения (пункты вне выдержек)", "Assumptions (clauses outside the excerpts)"),
    "rep_run": ("Сведения о запуске", "Run details"),
    "rep_versions": ("Версии", "Versions"),
    "rep_language": ("Язык отчёта", "Report language"),
    "rep_generated": ("Создан", "Generated"),
    "rep_seconds": ("{engine}: {seconds} с", "{engine}: {seconds} s"),
    "rep_itf_files": ("Трассы в формате ITF", "Traces in ITF"),
    "rep_written": ("Отчёты записаны: {paths}", "Reports written: {paths}"),
    "rep_no_itf": ("ITF: контрпримеров нет — файл трассы не записан.",
                   "ITF: no counterexample, so no trace file was written."),
    # exhaustive exploration (ruleproof explore) — keys ex_*
    "prove_disagreement": ("Модель Z3 расходится с интерпретатором на этом своде правил, доказательства не "
                           "принимаются: {text}",
                           "The Z3 model disagrees with the interpreter on this rulebook; no proof is trusted: {text}"),
    "prove_title": ("Доказательство свойств (Z3)", "Proofs of the properties (Z3)"),
    "prove_verdict": ("вердикт", "verdict"),
    "prove_engine": ("движок", "engine"),
    "prove_seconds": ("с", "s"),
    "prove_witness": ("посылка (не пустая)", "premise (non-vacuous)"),
    "prove_proved": ("доказано", "proved"),
    "prove_menu_exit": ("Код выхода 3: доказательства не покрывают всех сочетаний, которые допускает свод правил "
                        "(--accept-menu принимает доказательство в пределах меню: код 0).",
                        "Exit code 3: the proofs do not cover every combination the rulebook admits (--accept-menu "
                        "accepts a proof within the menu: exit code 0)."),
    "prove_violated": ("нарушено", "violated"),
    "prove_holds_to_depth": ("выполняется до глубины {depth}", "holds to depth {depth}"),
    "prove_unknown": ("не установлено ({reason})", "unknown ({reason})"),
    "prove_vacuous": ("пусто: посылка недостижима", "vacuous: the premise is unreachable"),
    "prove_witness_unknown": ("достижимость посылки не установлена", "premise reachability unknown"),
    "prove_meta": ("Z3 {version}, seed {seed}, тайм-аут {timeout} мс, {seconds:.1f} с",
                   "Z3 {version}, seed {seed}, timeout {timeout} ms, {seconds:.1f} s"),
    "prove_cx": ("Контрпример к {check} (глубина {depth}, {engine})", "Counterexample to {check} (depth {depth}, {engine})"),
    "prove_world": ("Мир", "World"),
    # a 540.1 text and a card's counts in a counterexample's world line
    "world_form_stays_open": ("не закрывается", "stays open"),
    "world_form_closes_only_after_assault": ("закрывается только после нападения", "closes only after an assault"),
    "world_form_per_turn": ("{times} за ход", "{times} a turn"),
    "world_any_times": ("любое количество раз", "any number of times"),
    "world_limit": ("лимит маркеров {n}", "marker limit {n}"),
    "world_no_marker": ("без маркера действия", "no action marker"),
    "world_counts": ("{card}: маркеров действия {markers}, применений {feature} за ход {uses}",
                     "{card}: action markers {markers}, uses of {feature} this turn {uses}"),
    "world_counts_kin": ("{card}: маркеров действия {markers}, применений {feature} за ход {uses}, других особенностей "
                         "тем же видом игродействия ({kind}) {kin}",
                         "{card}: action markers {markers}, uses of {feature} this turn {uses}, of its other features "
                         "as the same kind of game action ({kind}) {kin}"),
    "prove_replay": ("Воспроизведение: кубики {dice}; ответы {responses}", "Replay: dice {dice}; responses {responses}"),
    "prove_world_line": ("{kind}, защитник: {defender}, частей осталось: {parts}, X: {xs}; {features}",
                         "{kind}, defender: {defender}, parts left: {parts}, X: {xs}; {features}"),
    "replay_mode_scripted": ("по сценарию ответов", "scripted"),
    "replay_mode_exact": ("ответ за ответом", "exact"),
    "prove_replayed": ("интерпретатор подтверждает нарушение ({mode})", "the interpreter confirms the violation ({mode})"),
    "prove_not_replayed": ("интерпретатор НЕ подтверждает нарушение", "the interpreter does NOT confirm the violation"),
    "rep_scope_whole": ("игры покрывают все {admitted} сочетаний, которые допускает свод правил",
                        "the games cover all {admitted} combinations the rulebook admits"),
    "rep_scope_partial": ("{within}: игры покрывают {covered} из {admitted} сочетаний, которые допускает свод "
                          "правил; не сыграно {n}: {left}",
                          "{within}: the games cover {covered} of the {admitted} combinations the rulebook "
                          "admits; {n} not played: {left}"),
    "rep_scope_within_z3": ("доказано в пределах меню", "proved within the menu"),
    "rep_scope_within_bounds": ("верно в пределах семейства миров", "holds within the family of worlds"),
    "rep_outside_menu": ("доказательства Z3 не покрывают игры {n} разъяснений: {rulings}",
                         "the Z3 proofs do not cover the games of {n} rulings: {rulings}"),
    "rep_scope_within_sample": ("верно на сыгранных примерах", "holds on the examples played"),
    "prove_summary_menu": ("Все {n} свойств доказаны для любой партии в пределах меню миров Z3 ({covered} из "
                           "{admitted} сочетаний, которые допускает свод правил; не сыграно {missing}: {left}); "
                           "ни одно не пусто.",
                           "All {n} properties proved for every play within the menu of Z3 worlds ({covered} of the "
                           "{admitted} combinations the rulebook admits; {missing} not played: {left}); none vacuous."),
    "prove_summary_ok": ("Все {n} свойств доказаны для любой партии; ни одно не пусто.",
                         "All {n} properties proved for every play; none vacuous."),
    "prove_summary_bad": ("Нарушено: {bad}; пусто: {vac}; не установлено: {unk} (из {n}).",
                          "Violated: {bad}; vacuous: {vac}; unknown: {unk} (of {n})."),
    "prove_saved": ("Контрпример сохранён как разъяснение: {path}", "Counterexample saved as a ruling: {path}"),
    "ex_title": ("Полный перебор: каждая партия каждого мира в границах", "Exhaustive exploration: every play of every bounded world"),
    "ex_bounds": ("Границы: {bounds}; миров: {worlds}", "Bounds: {bounds}; worlds: {worlds}"),
    "ex_bounds_plays": ("; из них с большим числом розыгрышей в окне (условие plays_at_least): {groups}",
                        "; of them searched with more plays per window (the guard plays_at_least): {groups}"),
    "ex_bounds_group": ("plays={plays} — {n}", "plays={plays} — {n}"),
    "ex_bounds_faces": (" (кубик в них — только {lo}–{hi})", " (their die showing only {lo}–{hi})"),
    "ex_results": ("Свойства на всех прогонах в границах", "Properties on every run within the bounds"),
    "ex_figures": ("Миров {worlds}, различных состояний {states}, выборов {transitions} (и вынужденных пасов "
                   "{forced_passes}), прогонов {runs}, глубина {depth}, событий в прогоне до {max_events}; "
                   "{seconds} с, {states_per_second} состояний/с, процессов {jobs}",
                   "Worlds {worlds}, distinct states {states}, choices {transitions} (and forced passes "
                   "{forced_passes}), runs {runs}, depth {depth}, up to {max_events} events a run; "
                   "{seconds} s, {states_per_second} states/s, processes {jobs}"),
    "ex_saved": ("Контрпример сохранён как разъяснение: {path} (ruleproof run {path} --rulebook {rulebook})",
                 "Counterexample saved as a ruling: {path} (ruleproof run {path} --rulebook {rulebook})"),
    "ex_incomplete": ("Перебор остановлен границей {bound}: результат неполный (ничего не утверждается).",
                      "The search stopped at {bound}: the result is incomplete (nothing is claimed to hold)."),
    "bound_max_nodes": ("max-nodes (число узлов на мир)", "max-nodes (nodes per world)"),
    "bound_memory": ("memory (память процесса, МБ)", "memory (the process's memory, MB)"),
    # ruleproof diff — keys diff_*
    "diff_title": ("Что меняет проект правил", "What the draft changes"),
    "diff_base": ("Основа", "Base"),
    "diff_draft": ("Проект", "Draft"),
    "diff_changes": ("Изменённые элементы по пунктам: {n}", "Changed elements, by clause: {n}"),
    "diff_added": ("добавлено", "added"),
    "diff_removed": ("удалено", "removed"),
    "diff_moved": ("перенесено", "moved"),
    "diff_changed_el": ("изменено", "changed"),
    "diff_verdicts": ("Свойства, у которых меняется вердикт: {n}", "Properties whose verdict changes: {n}"),
    "diff_conflicts": ("Противоречия пунктов, которые появляются или исчезают: {n}",
                       "Clause conflicts that appear or disappear: {n}"),
    "diff_appears": ("появляется", "appears"),
    "diff_disappears": ("исчезает", "disappears"),
    "diff_rulings": ("Разъяснения, исход которых меняется: {n}", "Rulings whose outcome changes: {n}"),
    "diff_passes": ("выполняется", "passes"),
    "diff_fails": ("не выполняется", "fails"),
    "diff_col_verdict": ("Вердикт: основа → проект", "Verdict: base → draft"),
    "diff_col_what": ("Что", "What"),
    "diff_col_claims": ("Утверждения", "Claims"),
    "diff_col_ruling": ("Разъяснение", "Ruling"),
    "diff_col_outcome": ("Исход: основа → проект", "Outcome: base → draft"),
    "diff_col_engine": ("Движок", "Engine"),
    "diff_engines": ("Движки (секунды: основа, проект) и сколько вердиктов у каждого меняется:",
                     "Engines (seconds: base, draft) and how many verdicts each changes:"),
    "diff_engine_row": ("  {engine}: {base:.1f} с, {draft:.1f} с — меняется {n}",
                        "  {engine}: {base:.1f} s, {draft:.1f} s — {n} changed"),
    "diff_v_not_exercised": ("не разыграно", "not exercised"),
    "diff_scope": ("игры покрывают {bc} из {ba} сочетаний на исходном своде, {dc} из {da} на проекте",
                   "the games cover {bc} of {ba} combinations on the base, {dc} of {da} on the draft"),
    "diff_scope_left": ("; не сыграны на проекте: {left}", "; not played on the draft: {left}"),
    "diff_v_proved": ("доказано", "proved"),
    "diff_v_vacuous": ("впустую", "vacuous"),
    "diff_col_message": ("Что нарушено", "What breaks"),
    "diff_same_behaviour": ("Своды различаются только формулировками (названия, ссылки на пункты, тексты допущений): "
                            "каждую партию они играют одинаково — это видно без перебора, и движки проверили базовый свод "
                            "за оба.",
                            "The rulebooks differ in wording only (names, clause references, the assumptions' statements): "
                            "they play every game alike — no search needed to see it, and the engines ran on the base for "
                            "both."),
    "diff_same_games": ("В границах перебора оба свода играют каждую партию одинаково.",
                        "Within the bounds, both rulebooks play every game the same way."),
    "diff_game": ("Наименьшая партия, где своды расходятся: мир {world}, выборов {n}: {answers}",
                  "The smallest game on which they differ: world {world}, {n} choices: {answers}"),
    "diff_invisible": ("В сыгранных партиях своды расходятся только порядком или служебными событиями: ни "
                       "состояние карт, ни статус, ни оплата, ни предложенные особенности не различаются.",
                       "In the games played the rulebooks differ only in the order or bookkeeping of events: no "
                       "card's state, status, payment or offer differs."),
    "ans_pass": ("пас", "pass"),
    "took": ("{seconds:.1f} с; {engines}", "{seconds:.1f} s; {engines}"),
    "ans_die": ("кубик {v}", "die {v}"),
    "diff_side_by_side": ("Та же партия на обоих сводах (▶ — первое расхождение)",
                          "The same game on both rulebooks (▶ — where they part)"),
    "diff_changed": ("Итог: проект меняет вердикты или разъяснения (код выхода 1).",
                     "Verdict: the draft changes verdicts or rulings (exit code 1)."),
    "diff_unchanged": ("Итог: проект не меняет ни одного вердикта и ни одного разъяснения (код выхода 0).",
                       "Verdict: the draft changes no verdict and no ruling (exit code 0)."),
    # ruleproof readings — keys rd_*
    "rd_title": ("Прочтения свода {id}: {n}", "Readings of the rulebook {id}: {n}"),
    "rd_progress": ("прочтение {i} из {n}: {id}", "reading {i} of {n}: {id}"),
    "rd_col_reading": ("Прочтение", "Reading"),
    "rd_col_of": ("Допущение, пункты", "Assumption, clauses"),
    "rd_col_says": ("Что оно говорит", "What it says"),
    "rd_col_status": ("Значимо ли", "Does it matter"),
    "rd_col_properties": ("Свойства: вердикт меняется", "Properties whose verdict changes"),
    "rd_col_rulings": ("Разъяснения: исход меняется", "Rulings whose outcome changes"),
    "rd_col_conflicts": ("Противоречия пунктов", "Clause conflicts"),
    "rd_status_material": ("значимо", "material"),
    "rd_status_immaterial_proved": ("не значимо (доказано)", "immaterial (proved)"),
    "rd_status_immaterial_bounded": ("не значимо в границах перебора", "immaterial within the bounds"),
    "rd_plays_differ": ("Партии расходятся, но ни одна проверка от этого не меняется.",
                        "The games part, but no check comes out otherwise."),
    "rd_side_by_side": ("Та же партия при обоих прочтениях (▶ — первое расхождение)",
                        "The same game under both readings (▶ — where they part)"),
    "rd_own": ("Прочтение свода", "The rulebook's reading"),
    "rd_other": ("Другое прочтение", "The other reading"),
    "rd_summary": ("Итог: значимых прочтений {material}; не значимых — доказано {proved}, в границах перебора {bounded}.",
                   "Verdict: {material} material; immaterial — {proved} proved, {bounded} within the bounds."),
    "diff_nothing_to_save": ("Проект не нарушает новых свойств: сохранять как разъяснение нечего.",
                             "The draft breaks no new property: there is no counterexample to save."),
}


def plural(n: object, forms: str | Sequence[str], lang: str = "en") -> str:
    """The form of a noun that goes with the count ``n``: ``forms`` are Russian's one|few|many
    (1 ожидание, 2–4 ожидания, 5+ and 11–14 ожиданий) or English's one|other, as a sequence or one string
    split at ``|``.  A count written as digits (a note's regex group) counts too.

    >>> [plural(n, "ожидание|ожидания|ожиданий", "ru") for n in (1, 2, 5, 11, 12, 21, 22, 25, 111, 0)]
    ['ожидание', 'ожидания', 'ожиданий', 'ожиданий', 'ожиданий', 'ожидание', 'ожидания', 'ожиданий', 'ожиданий', 'ожиданий']
    >>> plural(1, "check|checks"), plural("3", "check|checks")
    ('check', 'checks')
    """
    words = forms.split("|") if isinstance(forms, str) else list(forms)
    count = abs(int(n)) if isinstance(n, int) or (isinstance(n, str) and n.strip().isdigit()) else None
    if count is None:  # not a whole number (a fraction, a word): the form for many
        return words[-1]
    if lang == "ru" and len(words) == 3:
        if count % 10 == 1 and count % 100 != 11:
            return words[0]
        return words[1] if count % 10 in (2, 3, 4) and count % 100 not in (12, 13, 14) else words[2]
    return words[0] if count == 1 else words[-1]


class _Texts(string.Formatter):
    """``str.format`` with one addition: a field whose format spec holds ``|`` is the noun that agrees
    with that field's count (:func:`plural`), in the template's language."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def format_field(self, value: object, format_spec: str) -> str:
        if "|" in format_spec:
            return plural(value, format_spec, self.lang)
        return super().format_field(value, format_spec)


def word(v: object, lang: str = "en") -> str:
    """A plain value as a reader's word, the way a ruling file may write it: true/false as да/нет in
    Russian and true/false in English, no value as «—», the accounts' marker ``unknown`` (a modifier that
    could not be applied) as «не установлено» (the one place that says so), and a run's stop reason in
    the reader's language (:func:`reason_text`).

    >>> word(True, "ru"), word(False, "en"), word(3, "ru"), word("unknown", "ru"), word(None, "en")
    ('да', 'false', '3', 'не установлено', '—')
    """
    if isinstance(v, bool):
        return ("да" if v else "нет") if lang == "ru" else ("true" if v else "false")
    if v is None:
        return "—"
    if v == "unknown" and lang == "ru":
        return t("unknown", lang)
    if isinstance(v, str) and v.startswith(_REASON_STARTS):
        return reason_text(v, lang)
    return str(v)


#: why a scripted run ran out of choices, as the interpreter says it (model/interpreter.py's ScriptedChoices,
#: in English: the event's value is data) -> the reader's words
_REASONS = (
    (re.compile(r"the rules asked for die result #(?P<k>\d+) \((?P<why>[^)]*)\), but only (?P<n>\d+) are scripted"),
     "правила запросили результат кубика №{k} ({why}), а в dice: {n} {n:результат|результата|результатов}",
     "the rules asked for die result #{k} ({why}), but dice: lists {n} {n:result|results}"),
    (re.compile(r"scripted die result #(?P<k>\d+) is (?P<v>-?\d+), which this rulebook's die "
                r"\((?P<lo>\d+)–(?P<hi>\d+), table die_faces\) never shows"),
     "результат кубика №{k} в dice: — {v}, а кубик этого свода показывает только {lo}–{hi} (таблица die_faces)",
     "scripted die result #{k} is {v}, which this rulebook's die ({lo}–{hi}, table die_faces) never shows"),
)


_REASON_STARTS = ("the rules asked", "scripted die")


def reason_text(reason: str, lang: str = "en") -> str:
    """A run's stop reason (an ``out_of_choices`` event's ``reason``) in the reader's language; any other
    text as it is.

    >>> reason_text("the rules asked for die result #1 (roll), but only 0 are scripted", "ru")
    'правила запросили результат кубика №1 (бросок), а в dice: 0 результатов'
    >>> reason_text("the rules asked for die result #2 (reroll kele_reroll), but only 1 are scripted", "en")
    'the rules asked for die result #2 (reroll kele_reroll), but dice: lists 1 result'
    """
    for pattern, ru, en in _REASONS:
        m = pattern.fullmatch(reason)
        if m:
            g = m.groupdict()
            if lang == "ru" and "why" in g:  # roll | reroll FEATURE
                g["why"] = "бросок" if g["why"] == "roll" else re.sub(r"^reroll\b", "переброс", g["why"])
            return fill(ru if lang == "ru" else en, g, lang)
    return reason


def times_text(n: int | None, lang: str = "en") -> str:
    """«X раз» of a 540.1.3 text as a reader says it (None: any number of times).

    >>> [times_text(n, "ru") for n in (1, 2, 5, 11, 22, None)]
    ['1 раз', '2 раза', '5 раз', '11 раз', '22 раза', 'любое количество раз']
    >>> [times_text(n, "en") for n in (1, 2, 3)]
    ['once', 'twice', '3 times']
    """
    if n is None:
        return t("world_any_times", lang)
    if lang == "ru":
        return f"{n} {plural(n, ('раз', 'раза', 'раз'), lang)}"
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def t(key: str, lang: str = "en", **params: object) -> str:
    ru, en = _LABELS[key]
    return fill(ru if lang == "ru" else en, params, lang)


def fill(template: str, params: Mapping[str, object], lang: str = "en") -> str:
    """``template.format_map(params)``, a count's noun agreeing with it (``{n:error|errors}``, :func:`plural`).

    >>> fill("в файле {count} {count:документ|документа|документов}", {"count": 2}, "ru")
    'в файле 2 документа'
    """
    return _Texts(lang).vformat(template, (), params)


def answers_text(answers, lang: str = "en") -> str:
    """A run's choices as a judge reads them: a die value, a pass, or the id of the feature played."""
    return ", ".join(t("ans_pass", lang) if a is None else t("ans_die", lang, v=a) if isinstance(a, int)
                     else str(a) for a in answers) or "—"


def _lang_of(locale: str) -> str | None:
    """``ru`` or ``en`` for a locale name (``ru_RU.UTF-8``, ``en``), else None."""
    code = locale.strip().lower()[:2]
    return code if code in LANGS else None


def default_lang(env: Mapping[str, str] | None = None) -> str:
    """The language when ``--lang`` is not given: ``RULEPROOF_LANG`` (``ru``, ``en`` or a locale name such as
    ``ru_RU.UTF-8``), then the order gettext reads the
    environment in — ``LANGUAGE`` (a list: its first ru or en), unless the locale is C or POSIX, then the first
    of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set; English where none says Russian.

    >>> default_lang({"LC_ALL": "ru_RU.UTF-8", "LANG": "C.UTF-8"}), default_lang({"LANGUAGE": "de:ru", "LANG": "de_DE"})
    ('ru', 'ru')
    >>> default_lang({"LC_ALL": "C", "LANGUAGE": "ru"}), default_lang({"LANG": "ru_RU", "RULEPROOF_LANG": "en"})
    ('en', 'en')
    >>> default_lang({"RULEPROOF_LANG": "ru_RU.UTF-8", "LANG": "en_US.UTF-8"}), default_lang({"LANGUAGE": "ru"})
    ('ru', 'ru')
    """
    env = os.environ if env is None else env
    explicit = _lang_of(env.get("RULEPROOF_LANG", ""))
    if explicit:
        return explicit
    locale = next((env[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(k)), "")
    if locale.split(".")[0] not in ("C", "POSIX"):
        for item in env.get("LANGUAGE", "").split(":"):
            found = _lang_of(item)
            if found:
                return found
    return _lang_of(locale) or "en"
