"""Two accuracy.py runs side by side: per language, per intent, and who failed where.

    .venv/bin/python bench/compare.py bench/results/accuracy-none-<time>.json \
        bench/results/accuracy-ha_default-<time>.json [--failures 30]

Reads each run's `.json` (summary) and, for the list of failures, the
`.jsonl` beside it (one line per case). Prints Markdown: accuracy per
language and per intent with at least `--min-cases` cases (first run, second
run, difference), then the first `--failures` cases the first run got wrong
and the second got right (text, language, expected, what happened), then
each run's failures by path and class (from the scorer's reason), with
counts per language and examples.
"""

from __future__ import annotations

import argparse
from collections import Counter
import json
from pathlib import Path
import sys
from typing import Any

if __package__ in {None, ""}:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.answers import leading_answer, numbers
from bench.harness import table


def _load(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A run's summary file and its rows."""
    run = json.loads(path.read_text("utf-8"))
    rows_path = path.with_suffix(".jsonl")
    rows = (
        [json.loads(line) for line in rows_path.read_text("utf-8").splitlines()]
        if rows_path.exists()
        else []
    )
    return run, rows


def _cell(rate: dict[str, Any] | None) -> str:
    if not rate or not rate["n"]:
        return "-"
    return f"{rate['correct']}/{rate['n']} ({rate['accuracy']:.1%})"


def _delta(a: dict[str, Any] | None, b: dict[str, Any] | None) -> str:
    if not a or not b or not a["n"] or not b["n"]:
        return "-"
    return f"{(a['accuracy'] - b['accuracy']) * 100:+.1f}"


def _label(run: dict[str, Any]) -> str:
    meta = run["meta"]
    return str(meta.get("agent") or meta.get("model") or "run")


def side_by_side(a: dict[str, Any], b: dict[str, Any], min_cases: int) -> list[str]:
    """Per language, then per intent (with enough cases in either run)."""
    first, second = a["summary"], b["summary"]
    names = (_label(a), _label(b))
    header = ["", names[0], names[1], "difference (points)"]
    langs_a, langs_b = first["by_language"], second["by_language"]
    languages = sorted(set(langs_a) | set(langs_b))
    lines = table(
        ["language", *header[1:]],
        [
            (
                language,
                _cell(langs_a.get(language)),
                _cell(langs_b.get(language)),
                _delta(langs_a.get(language), langs_b.get(language)),
            )
            for language in languages
        ]
        + [
            (
                "all",
                _cell(_all(first)),
                _cell(_all(second)),
                _delta(_all(first), _all(second)),
            )
        ],
        "lrrr",
    )
    intents = sorted(
        name
        for name in set(first["by_intent"]) | set(second["by_intent"])
        if max(
            first["by_intent"].get(name, {"n": 0})["n"],
            second["by_intent"].get(name, {"n": 0})["n"],
        )
        >= min_cases
    )
    lines += [
        "",
        *table(
            ["intent", *header[1:]],
            [
                (
                    name,
                    _cell(first["by_intent"].get(name)),
                    _cell(second["by_intent"].get(name)),
                    _delta(first["by_intent"].get(name), second["by_intent"].get(name)),
                )
                for name in intents
            ],
            "lrrr",
        ),
    ]
    lines += ["", f"Per language and intent ({names[0]} / {names[1]}):", ""]
    lines += table(
        ["intent", *languages],
        [
            (
                name,
                *(
                    f"{_short(langs_a.get(lang, {}).get('by_intent', {}).get(name))} / "
                    f"{_short(langs_b.get(lang, {}).get('by_intent', {}).get(name))}"
                    for lang in languages
                ),
            )
            for name in intents
        ],
        "l" + "r" * len(languages),
    )
    return lines


def _all(summary: dict[str, Any]) -> dict[str, Any]:
    return {
        "n": summary["scored"],
        "correct": summary["correct"],
        "accuracy": summary["accuracy"] or 0.0,
    }


def _short(rate: dict[str, Any] | None) -> str:
    if not rate or not rate["n"]:
        return "-"
    return f"{rate['accuracy']:.0%}"


def _happened(row: dict[str, Any]) -> str:
    """What a turn did: its path, its calls, its words."""
    turn = row.get("turn") or {}
    calls = ", ".join(
        f"{c['service']} {c['entity_id']}" for c in turn.get("calls") or []
    )
    speech = str(turn.get("speech", "")).replace("\n", " ")[:90]
    parts = [f"{row.get('source')}", row.get("why") or "", calls, f'"{speech}"']
    return "; ".join(p for p in parts if p).replace("|", "/")


def failures(
    a_rows: list[dict[str, Any]], b_rows: list[dict[str, Any]], limit: int
) -> list[str]:
    """The first cases the first run got wrong and the second right."""
    right = {r["id"] for r in b_rows if r["correct"]}
    wrong = [r for r in a_rows if r["correct"] is False and r["id"] in right]
    wrong.sort(key=lambda r: (r["language"], r["id"]))
    lines = [f"{len(wrong)} cases; the first {min(limit, len(wrong))}:", ""]
    lines += table(
        ["language", "text", "intent", "expected", "what happened"],
        [
            (
                r["language"],
                r["text"].replace("|", "/"),
                r["intent_key"],
                ", ".join(r["expected"]) or (r.get("expected_reply") or "")[:60],
                _happened(r),
            )
            for r in wrong[:limit]
        ],
        "lllll",
    )
    return lines


REASONS = (
    ("missing", "did not act on the expected targets"),
    ("also acted on", "acted beyond the expected targets"),
    ("acted on", "acted where nothing should act (question, refusal)"),
    ("answer disagrees", "wrong answer"),
    ("error reply", "error reply"),
    ("needs HA's own intent", "not HA's own intent (timer, date, broadcast...)"),
    ("acted or error", "acted or error on 'never mind'"),
)


def reason(row: dict[str, Any]) -> str:
    """A failure's class, from the scorer's words."""
    why = str(row.get("why") or "")
    if row.get("kind") == "crash":
        return "crash"
    if why == "answer disagrees":
        return _answer_class(row)
    for prefix, name in REASONS:
        if why.startswith(prefix):
            if prefix == "missing" and "also acted on" in why:
                return "acted on other targets instead"
            if prefix == "missing" and _acted(row):
                return "acted on part of the expected targets"
            return name
    return why or "other"


def _acted(row: dict[str, Any]) -> bool:
    """Whether the turn's calls reached any device."""
    return any(c.get("entity_id") for c in (row.get("turn") or {}).get("calls") or [])


def _answer_class(row: dict[str, Any]) -> str:
    """How a reply disagrees: no yes/no or number at all, or the wrong one."""
    language = str(row["language"])
    expected = str(row.get("expected_reply") or "")
    said = str((row.get("turn") or {}).get("speech") or "")
    wanted = leading_answer(expected, language)
    if wanted is not None:
        given = leading_answer(said, language)
        if given is None:
            return "answer without yes/no"
        if given != wanted:
            return "wrong yes/no"
    if numbers(expected, language) and not numbers(said, language):
        return "answer without the number"
    return "wrong number or none"


def classes(rows: list[dict[str, Any]], examples: int = 3) -> list[str]:
    """Failures by path and class, with counts and a few sentences each."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        if row["correct"] is False:
            key = (str(row.get("source")), reason(row))
            groups.setdefault(key, []).append(row)
    ordered = sorted(groups.items(), key=lambda item: -len(item[1]))
    return table(
        ["path", "class", "cases", "by language", "examples"],
        [
            (
                source,
                name,
                len(items),
                ", ".join(
                    f"{lang} {n}"
                    for lang, n in sorted(
                        Counter(r["language"] for r in items).items(),
                        key=lambda t: -t[1],
                    )
                ),
                "; ".join(
                    f"{r['language']}: {r['text']!r}".replace("|", "/")
                    for r in _spread(items, examples)
                ),
            )
            for (source, name), items in ordered
        ],
        "llrll",
    )


def _spread(items: list[dict[str, Any]], n: int) -> list[dict[str, Any]]:
    """`n` examples, from as many languages as there are."""
    seen: dict[str, dict[str, Any]] = {}
    for row in items:
        seen.setdefault(row["language"], row)
    picked = list(seen.values())[:n]
    return picked + [r for r in items if r not in picked][: n - len(picked)]


def main(argv: list[str] | None = None) -> None:
    """Print the comparison."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("first", type=Path, help="a run's .json (e.g. Intent Router)")
    parser.add_argument("second", type=Path, help="a run's .json (e.g. ha_default)")
    parser.add_argument("--min-cases", type=int, default=10)
    parser.add_argument("--failures", type=int, default=30)
    args = parser.parse_args(argv)
    a, a_rows = _load(args.first)
    b, b_rows = _load(args.second)
    lines = [
        f"### {_label(a)} (`{args.first.stem}`) vs {_label(b)} (`{args.second.stem}`)",
        "",
        *side_by_side(a, b, args.min_cases),
        "",
        f"#### {_label(a)} wrong where {_label(b)} was right",
        "",
        *failures(a_rows, b_rows, args.failures),
        "",
        f"#### Failures of {_label(a)} by path and class",
        "",
        *classes(a_rows),
        "",
        f"#### Failures of {_label(b)} by path and class",
        "",
        *classes(b_rows),
    ]
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
