"""The rules-text parser's time against the length of a clause: linear, not quadratic.

Run:  .venv/bin/python benchmarks/bench_rules_text.py [--repeats 3]

Two shapes of input: one clause followed by N continuation lines (the shape that was quadratic: the
parser re-joined and re-scanned the whole unit on every line — 1k/2k/4k/8k lines took
1.9/5.1/19/76 s before issue 23), and a text of about 20 MB with many clauses. Prints the median
seconds over the repeats, and seconds per 1,000 lines (flat when linear). A figure, not a test.
"""

from __future__ import annotations

import argparse
import statistics
import time

from ruleproof.model.rules_text import parse_rules_text


def _time(text: str, repeats: int) -> float:
    out = []
    for _ in range(repeats):
        t = time.perf_counter()
        parse_rules_text([("bench.txt", text)])
        out.append(time.perf_counter() - t)
    return statistics.median(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    print(f"{'input':<34} {'median s':>9} {'s / 1k lines':>13}")
    for n in (1000, 2000, 4000, 8000, 64000):
        text = "512.6. Заголовок пункта.\n" + "\n".join(
            f"строка {i} продолжает пункт и ссылается на п. 540.{i % 9 + 1}" for i in range(n))
        s = _time(text, args.repeats)
        print(f"{f'one clause + {n:,} lines':<34} {s:9.3f} {s / n * 1000:13.4f}")
    lines = [f"{100 + i % 900}.{i // 900 + 1}. Пункт {i}: текст пункта со ссылкой на п. {100 + (i + 1) % 900}."
             for i in range(250_000)]
    text = "\n".join(lines)
    s = _time(text, 1)
    print(f"{f'{len(text.encode()) / 1e6:.1f} MB, {len(lines):,} lines':<34} {s:9.3f} {s / len(lines) * 1000:13.4f}")


if __name__ == "__main__":
    main()
