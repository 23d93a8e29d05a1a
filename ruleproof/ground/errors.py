"""User errors with stable codes, a location and a fix, in Russian and English.

Every error a user can cause (a bad rulebook, a bad rules text, a bad option) is a
:class:`RuleproofError`.  The CLI prints it as one message and exits with code 2; it never
shows a traceback.  Codes are stable: tests and users may rely on them.

>>> err = RuleproofError("RP125", Location("draft.yaml", 12, 5), step="dice", target="dise",
...                      known="calculation, dice")
>>> print(err.render("en"))
draft.yaml:12:5: error RP125: an edge of step 'dice' leads to 'dise', which is not a step of this rulebook
  fix: point the edge at one of the steps: calculation, dice
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from enum import IntEnum

from .i18n import fill

__all__ = ["Location", "RuleproofError", "suggest", "one_of", "did_you_mean", "Localized", "yaml_problem", "MESSAGES", "ExitCode"]

class ExitCode(IntEnum):
    """What a run of ``ruleproof`` ends with."""

    OK = 0  # everything holds
    FINDING = 1  # a finding: a property violated, a ruling failed, a conflict, a change that breaks something
    BAD_INPUT = 2  # one message with file:line, no traceback
    INCONCLUSIVE = 3  # Z3 unknown, a timeout, a bounded search: nothing is claimed to hold
    INTERNAL = 70  # a bug in ruleproof (sysexits' EX_SOFTWARE): never a finding, never 0-3
    INTERRUPTED = 130  # Ctrl-C


@dataclass(frozen=True)
class Location:
    """A place in a user's file: ``file:line:column`` (line and column 1-based, optional)."""

    file: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        out = self.file
        if self.line is not None:
            out += f":{self.line}"
            if self.column is not None:
                out += f":{self.column}"
        return out


# code -> {lang: (what is wrong, how to fix it)}; placeholders are filled from the error's params.
MESSAGES: dict[str, dict[str, tuple[str, str]]] = {
    "RP100": {
        "en": ("file not found", "check the path (to check the bundled rulebook, give no rulebook argument)"),
        "ru": ("файл не найден", "проверьте путь (чтобы проверить встроенный свод правил, не указывайте его)"),
    },
    "RP101": {
        "en": ("this is a directory, a file was expected", "name a file inside it"),
        "ru": ("это папка, а нужен файл", "укажите файл внутри неё"),
    },
    "RP102": {
        "en": ("the file is not valid UTF-8 (byte {byte} cannot be decoded)",
               "save the file in UTF-8 encoding"),
        "ru": ("файл не в кодировке UTF-8 (байт {byte} не декодируется)",
               "сохраните файл в кодировке UTF-8"),
    },
    "RP103": {
        "en": ("invalid YAML: {problem}", "fix the YAML syntax at this place (indentation, quotes, colons)"),
        "ru": ("некорректный YAML: {problem}", "исправьте синтаксис YAML в этом месте (отступы, кавычки, двоеточия)"),
    },
    "RP104": {
        "en": ("the file is empty", "write a {what} into it (see the bundled one for an example)"),
        "ru": ("файл пуст", "запишите в него {what} (образец — встроенный)"),
    },
    "RP105": {
        "en": ("duplicate key '{key}' (first at line {first})", "keep one '{key}' in this mapping"),
        "ru": ("ключ '{key}' повторяется (первый раз в строке {first})", "оставьте в этом отображении один ключ '{key}'"),
    },
    "RP106": {
        "en": ("YAML tag '{tag}' is not allowed: ruleproof loads plain data only and never executes anything",
               "remove the tag and write the value as plain YAML"),
        "ru": ("YAML-тег '{tag}' запрещён: ruleproof читает только данные и ничего не исполняет",
               "уберите тег и запишите значение обычным YAML"),
    },
    "RP107": {
        "en": ("aliases expand to more than {limit} nodes (or refer to themselves)",
               "write the data out without nested aliases"),
        "ru": ("псевдонимы (aliases) разворачиваются более чем в {limit} узлов (или ссылаются сами на себя)",
               "запишите данные без вложенных псевдонимов"),
    },
    "RP108": {
        "en": ("the top level must be a mapping, found {found}",
               "start the file with keys such as 'format:', 'id:', 'steps:'"),
        "ru": ("верхний уровень должен быть отображением, а здесь {found}",
               "начните файл с ключей 'format:', 'id:', 'steps:'"),
    },
    "RP109": {
        "en": ("the file holds {count} YAML {count:document|documents}, one was expected",
               "remove the '---' separators"),
        "ru": ("в файле {count} {count:YAML-документ|YAML-документа|YAML-документов}, нужен один",
               "уберите разделители '---'"),
    },
    "RP110": {
        "en": ("{field}: {problem}", "see the format in {doc}"),
        "ru": ("{field}: {problem}", "см. описание формата в {doc}"),
    },
    "RP111": {
        "en": ("required key '{key}' is missing in {field}", "add '{key}:' here"),
        "ru": ("в {field} нет обязательного ключа '{key}'", "добавьте '{key}:' сюда"),
    },
    "RP112": {
        "en": ("unknown key '{key}' in {field}{hint}", "remove it or correct its spelling; allowed keys: {allowed}"),
        "ru": ("неизвестный ключ '{key}' в {field}{hint}",
               "удалите его или исправьте написание; допустимые ключи: {allowed}"),
    },
    "RP113": {
        "en": ("this is not a regular file ({what})", "give the path of an ordinary file"),
        "ru": ("это не обычный файл ({what})", "укажите путь к обычному файлу"),
    },
    "RP114": {
        "en": ("the file is {size} bytes; ruleproof reads at most {limit}", "give a smaller file (split a rules "
               "text into a folder of .txt files)"),
        "ru": ("в файле {size} байт; ruleproof читает не больше {limit}", "дайте файл поменьше (текст правил можно "
               "разбить на папку .txt-файлов)"),
    },
    "RP115": {
        "en": ("the file cannot be read: {problem}", "check that it is an ordinary file you may read"),
        "ru": ("файл не читается: {problem_ru}", "проверьте, что это обычный файл и у вас есть право его читать"),
    },
    "RP116": {
        "en": ("values are nested more than {limit} levels deep", "a rulebook or a ruling needs a few levels: "
               "look for unclosed brackets or runaway indentation here"),
        "ru": ("значения вложены глубже {limit} уровней", "своду правил и разъяснению хватает нескольких уровней: "
               "поищите здесь незакрытые скобки или сбившиеся отступы"),
    },
    "RP117": {
        "en": ("cannot write {what} here: {problem}", "choose a path in a folder you may write to"),
        "ru": ("сюда нельзя записать {what_ru}: {problem_ru}", "выберите путь в папке, куда у вас есть право записи"),
    },
    "RP118": {
        "en": ("{what}: more than ruleproof reads ({limit})", "a rulebook or a ruling needs far less: look for a "
               "pasted or generated block here"),
        "ru": ("{what_ru}: больше, чем читает ruleproof ({limit})", "своду правил или разъяснению нужно гораздо "
               "меньше: поищите здесь вставленный или сгенерированный блок"),
    },
    "RP119": {
        "en": ("{field}: '{value}' is not one of the values this key takes{hint}", "use one of: {known}"),
        "ru": ("{field}: '{value}' — не из значений, которые принимает этот ключ{hint}",
               "используйте одно из: {known}"),
    },
    "RP120": {
        "en": ("unknown operation '{op}'{hint}", "use one of the operations: {known}"),
        "ru": ("неизвестная операция '{op}'{hint}", "используйте одну из операций: {known}"),
    },
    "RP121": {
        "en": ("unknown clause id '{clause}'{hint}",
               "cite a clause from `ruleproof clauses`, or state an assumption for a clause that is not in the index"),
        "ru": ("неизвестный номер пункта '{clause}'{hint}",
               "сошлитесь на пункт из `ruleproof clauses` или оформите допущение (assumption)"),
    },
    "RP122": {
        "en": ("'{clause}' is not a clause id", "write ids like 512.6.2, 512.6.2/b3, 540.4.1/ex1, quoted"),
        "ru": ("'{clause}' — не номер пункта", "пишите номера вида 512.6.2, 512.6.2/b3, 540.4.1/ex1, в кавычках"),
    },
    "RP123": {
        "en": ("unknown guard '{guard}'", "use one of: {known}, optionally preceded by 'not '"),
        "ru": ("неизвестное условие '{guard}'", "используйте одно из: {known}, можно с 'not ' впереди"),
    },
    "RP144": {
        "en": ("guard '{guard}' compares with a number, and '{value}' is not a whole number from 0 to 15",
               "write it as {form}, e.g. {example}"),
        "ru": ("условие '{guard}' сравнивает с числом, а '{value}' — не целое число от 0 до 15",
               "пишите {form}, например {example}"),
    },
    "RP124": {
        "en": ("guard '{guard}' names '{target}', which is not a step of this rulebook",
               "name one of the steps: {known}"),
        "ru": ("условие '{guard}' ссылается на '{target}', а такого шага в своде нет",
               "укажите один из шагов: {known}"),
    },
    "RP125": {
        "en": ("an edge of step '{step}' leads to '{target}', which is not a step of this rulebook",
               "point the edge at one of the steps: {known}"),
        "ru": ("переход из шага '{step}' ведёт в '{target}', а такого шага в своде нет",
               "направьте переход в один из шагов: {known}"),
    },
    "RP126": {
        "en": ("step '{step}' cannot be reached from the start step '{start}'",
               "add an edge into '{step}' from a reachable step, or remove the step"),
        "ru": ("шаг '{step}' недостижим из начального шага '{start}'",
               "добавьте переход в '{step}' из достижимого шага или удалите шаг"),
    },
    "RP127": {
        "en": ("unknown assumption '{assumption}'{hint}", "declare it under 'assumptions:' or use one of: {known}"),
        "ru": ("неизвестное допущение '{assumption}'{hint}",
               "объявите его в 'assumptions:' или используйте одно из: {known}"),
    },
    "RP128": {
        "en": ("operation '{op}': '{key}' {problem}", "{fix}"),
        "ru": ("операция '{op}', ключ '{key}': {problem}", "{fix}"),
    },
    "RP129": {
        "en": ("the start step '{start}' is not a step of this rulebook", "set 'start:' to one of: {known}"),
        "ru": ("начальный шаг '{start}' не является шагом свода", "укажите в 'start:' один из шагов: {known}"),
    },
    "RP130": {
        "en": ("step '{step}': kind '{kind}' is unknown", "use one of: {known}"),
        "ru": ("шаг '{step}': вид '{kind}' неизвестен", "используйте один из: {known}"),
    },
    "RP131": {
        "en": ("window '{window}': feature kind '{feature}' is unknown", "use one of: {known}"),
        "ru": ("окно '{window}': вид особенности '{feature}' неизвестен", "используйте один из: {known}"),
    },
    "RP132": {
        "en": ("the file format is '{found}', this version reads '{expected}'",
               "set 'format: {expected}' (or upgrade ruleproof)"),
        "ru": ("формат файла '{found}', эта версия читает '{expected}'",
               "укажите 'format: {expected}' (или обновите ruleproof)"),
    },
    "RP133": {
        "en": ("unknown table '{table}'", "use one of: {known}"),
        "ru": ("неизвестная таблица '{table}'", "используйте одну из: {known}"),
    },
    "RP134": {
        "en": ("table '{table}': {problem}", "{fix}"),
        "ru": ("таблица '{table}': {problem_ru}", "{fix_ru}"),
    },
    "RP135": {
        "en": ("the rulebook has no table '{table}' ({what})", "add 'tables: {{{table}: …}}' (see the bundled rulebook)"),
        "ru": ("в своде нет таблицы '{table}' ({what_ru})", "добавьте 'tables: {{{table}: …}}' (образец — встроенный свод)"),
    },
    "RP136": {
        "en": ("reading '{reading}': patch step {n} does not apply: {problem}",
               "point the step at an element of this rulebook (a JSON Pointer such as /steps/payment/operations/1); "
               "a 'test' step names what must be there"),
        "ru": ("прочтение '{reading}': шаг правки {n} не применяется: {problem}",
               "укажите в шаге элемент этого свода (указатель JSON вида /steps/payment/operations/1); "
               "шаг 'test' называет, что там должно быть"),
    },
    "RP137": {
        "en": ("reading '{reading}' turns the rulebook into an invalid one: {problem}", "change the patch: {fix}"),
        "ru": ("прочтение '{reading}' делает свод неверным: {problem}", "измените правку: {fix}"),
    },
    "RP138": {
        "en": ("reading '{reading}' says neither which assumption it replaces nor which clauses it reads",
               "add 'of: <assumption id>' or 'about: [<clause id>, …]'"),
        "ru": ("прочтение '{reading}' не говорит, какое допущение оно заменяет и какие пункты читает иначе",
               "добавьте 'of: <id допущения>' или 'about: [<номер пункта>, …]'"),
    },
    "RP139": {
        "en": ("unknown reading '{reading}' in --only{hint}", "name readings of the rulebook: {known}"),
        "ru": ("неизвестное прочтение '{reading}' в --only{hint}", "укажите прочтения свода: {known}"),
    },
    "RP140": {
        "en": ("no numbered clause found in the rules text", "give a text with clauses like '512.6. …' at line starts"),
        "ru": ("в тексте правил не найдено ни одного пронумерованного пункта",
               "дайте текст с пунктами вида '512.6. …' в начале строк"),
    },
    "RP141": {
        "en": ("clause {clause} appears twice (also at {other})", "keep one copy of the clause in the rules text"),
        "ru": ("пункт {clause} встречается дважды (ещё в {other})", "оставьте в тексте правил одну копию пункта"),
    },
    "RP142": {
        "en": ("no .txt file in the folder", "put the rules text into .txt files (UTF-8)"),
        "ru": ("в папке нет .txt-файлов", "положите текст правил в .txt-файлы (UTF-8)"),
    },
    "RP143": {
        "en": ("this fragment has no numbered clause, so it is unknown which clause it continues",
               "start the fragment with the number line of the clause it belongs to, or join it to that file"),
        "ru": ("во фрагменте нет ни одного пронумерованного пункта, и неясно, какой пункт он продолжает",
               "начните фрагмент со строки с номером пункта или присоедините его к тому файлу"),
    },
    "RP161": {
        "en": ("unknown card '{card}'{hint}", "name one of: {known}"),
        "ru": ("неизвестная карта '{card}'{hint}", "укажите одну из: {known}"),
    },
    "RP162": {
        "en": ("unknown feature '{feature}'{hint}", "play one of the features of the scenario's cards: {known}"),
        "ru": ("неизвестная особенность '{feature}'{hint}", "разыграйте одну из особенностей карт сценария: {known}"),
    },
    "RP163": {
        "en": ("unknown feature kind '{kind}'{hint}", "use one of: {known}"),
        "ru": ("неизвестный вид особенности '{kind}'{hint}", "используйте один из: {known}"),
    },
    "RP164": {
        "en": ("'{key}' means nothing for a feature of kind '{kind}': it would be ignored",
               "remove it, or change the kind: '{key}' is read only for {kinds}"),
        "ru": ("'{key}' ничего не значит для особенности вида '{kind}': ключ был бы проигнорирован",
               "уберите его или смените вид: '{key}' читается только для {kinds}"),
    },
    "RP165": {
        "en": ("no window '{window}' in this rulebook{hint}", "name one of its windows: {known}"),
        "ru": ("в своде нет окна '{window}'{hint}", "укажите одно из его окон: {known}"),
    },
    "RP166": {
        "en": ("--rulings {path}: {problem}",
               "give a folder of ruling scenarios: *.yaml files in the format of rulings/ (see docs/rulings.md)"),
        "ru": ("--rulings {path}: {problem}",
               "укажите папку со сценариями разъяснений: файлы *.yaml в формате rulings/ (см. docs/rulings.md)"),
    },
    "RP167": {
        "en": ("the ruling id '{ruling}' is taken: {other} has it too",
               "give this ruling an id of its own (reports and diff name a ruling by its id)"),
        "ru": ("id разъяснения '{ruling}' уже занят: он же у {other}",
               "дайте этому разъяснению собственный id (отчёты и diff называют разъяснение по id)"),
    },
    "RP170": {
        "en": ("unknown property '{property}' in --only{hint}", "name properties of the catalogue: {known}"),
        "ru": ("неизвестное свойство '{property}' в --only{hint}", "укажите свойства из каталога: {known}"),
    },
    "RP171": {
        "en": ("--timeout must be a finite number of seconds, at least 0.001, not {value}", "e.g. --timeout 20"),
        "ru": ("--timeout должен быть конечным числом секунд, не меньше 0.001, а не {value}", "например, --timeout 20"),
    },
    "RP172": {
        "en": ("--depth must be 1 or more, not {value}", "e.g. --depth 160"),
        "ru": ("--depth должен быть не меньше 1, а не {value}", "например, --depth 160"),
    },
    "RP173": {
        "en": ("--jobs must be a whole number, 1 or more, or auto, not {value}",
               "e.g. --jobs 2, or --jobs auto for one process per core"),
        "ru": ("--jobs должен быть целым числом не меньше 1 или словом auto, а не {value}",
               "например, --jobs 2 или --jobs auto (по одному процессу на ядро)"),
    },
    "RP200": {
        "en": ("unknown property '{property}'", "name a property of the catalogue: {known}"),
        "ru": ("неизвестное свойство '{property}'", "укажите свойство из каталога: {known}"),
    },
    "RP201": {
        "en": ("the counterexample to {property} cannot be saved as a ruling: {problem}",
               "replay it with: {replay} (and report it: this is a ruleproof bug)"),
        "ru": ("контрпример к {property} нельзя сохранить как разъяснение: {problem_ru}",
               "воспроизведите его командой: {replay} (и сообщите: это ошибка ruleproof)"),
    },
    "RP150": {
        "en": ("{problem}", "{fix}"),
        "ru": ("{problem}", "{fix}"),
    },
}

_LABEL = {"en": ("error", "fix"), "ru": ("ошибка", "как исправить")}


@dataclass(frozen=True)
class Localized:
    """A message parameter said in each language (e.g. a YAML parser's problem put into words)."""

    ru: str
    en: str

    def text(self, lang: str) -> str:
        return self.ru if lang == "ru" else self.en


#: the YAML parser's problems as a rules editor would say them (the parser's own words: English only)
_YAML_PROBLEMS = (
    ("expected <block end>, but found", "a line is indented differently from the lines of its level (too far, or not far enough)",
     "строка сдвинута не так, как строки её уровня (слишком далеко или недостаточно)"),
    ("mapping values are not allowed here", "a colon where no key can start: indent the line under its key, or quote a "
     "value that contains ': '", "двоеточие там, где ключ начаться не может: сдвиньте строку под её ключ или возьмите "
     "в кавычки значение, в котором есть «: »"),
    ("could not find expected ':'", "a key without its colon, or a line that continues an unclosed quote",
     "ключ без двоеточия или строка, продолжающая незакрытые кавычки"),
    ("found character '\t' that cannot start any token", "a tab character: YAML indents with spaces only",
     "символ табуляции: в YAML отступы делаются только пробелами"),
    ("expected ',' or '}'", "an inline mapping {…} is not closed, or lacks a comma between entries",
     "встроенное отображение {…} не закрыто или между записями нет запятой"),
    ("expected ',' or ']'", "an inline list […] is not closed, or lacks a comma between items",
     "встроенный список […] не закрыт или между элементами нет запятой"),
    ("expected the node content, but found '<stream end>'", "the file ends where a value was still expected "
     "(an unclosed bracket or quote)", "файл кончается там, где ещё ожидалось значение (незакрытая скобка или кавычка)"),
    ("found unexpected end of stream", "the file ends inside a quote or a bracket",
     "файл кончается внутри кавычек или скобок"),
    ("found duplicate anchor", "the same anchor (&name) is defined twice", "один и тот же якорь (&имя) задан дважды"),
)


def yaml_problem(raw: str) -> Localized:
    """The YAML parser's ``raw`` problem in a rules editor's words, in each language; one it does not
    know is quoted as the parser said it."""
    for start, en, ru in _YAML_PROBLEMS:
        if raw.startswith(start):
            return Localized(ru, en)
    return Localized(f"разборщик YAML сообщает: «{raw}»", raw)


def did_you_mean(near: str | None) -> Localized:
    """«Did you mean …?» after a misspelt name, in each language (nothing when ``near`` is None)."""
    if not near:
        return Localized("", "")
    return Localized(f" (возможно, имелось в виду '{near}'?)", f" (did you mean '{near}'?)")


def one_of(known) -> Localized:
    """«Use one of: a, b» in each language (the fix for a value outside its choices).

    >>> one_of(["A", "B"]).ru
    'используйте одно из: A, B'
    """
    names = ", ".join(str(k) for k in known)
    return Localized(f"используйте одно из: {names}", f"use one of: {names}")


def suggest(name: object, known) -> Localized:
    """:func:`did_you_mean` the known name closest to a misspelt ``name`` (difflib's ratio ≥ 0.6) — or,
    where ``name`` differs from a known one only by a Cyrillic letter that looks like a Latin one, which
    letter (:func:`lookalike`): «did you mean 'B'?» after a Cyrillic 'В' would show two identical names."""
    names = [str(k) for k in known]
    same = lookalike(str(name), names)
    if same is not None:
        return same
    near = difflib.get_close_matches(str(name), names, n=1, cutoff=0.6)
    return did_you_mean(near[0] if near else None)


#: Cyrillic letters that look like Latin ones (a Russian keyboard layout types them in an id or a player)
_CYRILLIC_LOOKALIKES = dict(zip("АВЕКМНОРСТУХаеорксух", "ABEKMHOPCTYXaeopkcyx"))


def _latin(text: str) -> str:
    return "".join(_CYRILLIC_LOOKALIKES.get(c, c) for c in text)


def _letters(pairs: list[tuple[str, str]]) -> tuple[bool, str, str]:
    """Whether one letter is meant, the Cyrillic letters and their Latin twins, each once, in order."""
    seen = list(dict.fromkeys(pairs))
    return len(seen) == 1, ", ".join(c for c, _ in seen), ", ".join(lat for _, lat in seen)


def _twin(name: str, known: list[str]) -> str | None:
    """The known name written like ``name`` but for Cyrillic look-alike letters (their case aside when
    ``name`` has one), if any."""
    plain = _latin(name)
    same = next((k for k in known if _latin(k) == plain), None)
    if same is None and plain != name:
        same = next((k for k in known if _latin(k).casefold() == plain.casefold()), None)
    return same


def _typed_cyrillic(name: str, twin: str) -> Localized | None:
    """``name`` has Cyrillic letters where ``twin`` has Latin ones."""
    pairs = [(c, t) for c, t in zip(name, twin) if c in _CYRILLIC_LOOKALIKES and c != t]
    if not pairs:
        return None
    one, cyr, lat = _letters(pairs)
    whole = f": '{twin}'" if len(name) > 1 else ""
    if one:
        return Localized(f" (буква {cyr} кириллицей — нужна латинская {lat}{whole})",
                         f" (the letter {cyr} is Cyrillic — type the Latin {lat}{whole})")
    return Localized(f" (буквы {cyr} кириллицей — нужны латинские {lat}{whole})",
                     f" (the letters {cyr} are Cyrillic — type the Latin {lat}{whole})")


def _declared_cyrillic(name: str, twin: str) -> Localized | None:
    """``twin`` (the name declared) has Cyrillic letters where ``name`` has Latin ones."""
    pairs = [(t, c) for c, t in zip(name, twin) if t in _CYRILLIC_LOOKALIKES and c != t]
    if not pairs:
        return None
    one, cyr, lat = _letters(pairs)
    letter_ru, latin_ru = ("буква", "латинская") if one else ("буквы", "латинские")
    letter_en = f"the letter {cyr} is" if one else f"the letters {cyr} are"
    return Localized(f" (похоже на '{twin}', но там {letter_ru} {cyr} кириллицей, а здесь {latin_ru} {lat} — "
                     "напишите id одинаково в обоих местах)",
                     f" (looks like '{twin}', but there {letter_en} Cyrillic and here the Latin {lat} — spell the id "
                     "the same in both places)")


def lookalike(name: str, known: list[str]) -> Localized | None:
    """A hint naming the Cyrillic look-alike letters that make ``name`` differ from a known name written
    alike (``В`` for ``B``, ``lеshy`` with a Cyrillic е), or that make a name typed in Latin letters miss
    a known one written with a Cyrillic letter; None when no known name is written alike.

    >>> print(lookalike("В", ["A", "B"]).ru)
     (буква В кириллицей — нужна латинская B)
    >>> print(lookalike("а", ["A", "B"]).en)
     (the letter а is Cyrillic — type the Latin A)
    >>> print(lookalike("lеshy", ["leshy", "archer"]).en)
     (the letter е is Cyrillic — type the Latin e: 'leshy')
    >>> print(lookalike("оrс", ["orc"]).ru)
     (буквы о, с кириллицей — нужны латинские o, c: 'orc')
    >>> print(lookalike("leshy", ["lеshy"]).ru)
     (похоже на 'lеshy', но там буква е кириллицей, а здесь латинская e — напишите id одинаково в обоих местах)
    >>> lookalike("kelle", ["kele"]) is None
    True
    """
    if not name or name in known:
        return None
    twin = _twin(name, known)
    if twin is None:
        return None
    return _typed_cyrillic(name, twin) or _declared_cyrillic(name, twin)


class RuleproofError(Exception):
    """A user error: stable ``code``, optional ``location``, parameters for the message."""

    def __init__(self, code: str, location: Location | None = None, **params: object) -> None:
        if code not in MESSAGES:
            raise KeyError(f"unknown error code {code}")
        self.code = code
        self.location = location
        self.params = params
        super().__init__(self.render("en"))

    def _params(self, lang: str) -> dict:
        return {k: (v.text(_lang(lang)) if isinstance(v, Localized) else v)
                for k, v in self.params.items()}

    def what(self, lang: str = "en") -> str:
        return _format(MESSAGES[self.code][_lang(lang)][0], self._params(lang), _lang(lang))

    def fix(self, lang: str = "en") -> str:
        return _format(MESSAGES[self.code][_lang(lang)][1], self._params(lang), _lang(lang))

    def render(self, lang: str = "en") -> str:
        err, fix = _LABEL[_lang(lang)]
        where = f"{self.location}: " if self.location else ""
        return f"{where}{err} {self.code}: {self.what(lang)}\n  {fix}: {self.fix(lang)}"


class _Params(dict):
    """A message's parameters: a ``{hint}`` the raiser gave none for is empty."""

    def __missing__(self, key: str) -> str:
        if key == "hint":
            return ""
        raise KeyError(key)


def _format(template: str, params: dict, lang: str) -> str:
    """A message filled in: a count's noun agrees with it (``{n:error|errors}``, :func:`~.i18n.fill`)."""
    return fill(template, _Params(params), lang)


def _lang(lang: str) -> str:
    return lang if lang in ("en", "ru") else "en"
