"""The documents describe the product as it is: no numbered stage of past work.

A figure names the run, commit and command that made it; how it got there
is in git and CHANGELOG.md. Run tags (`accuracy-s40-final-…`) are names,
not prose, so only a stage written as words counts.
"""

from __future__ import annotations

from pathlib import Path
import re

ROOT = Path(__file__).parent.parent
DOCUMENTS = [
    ROOT / "README.md",
    ROOT / "CHANGELOG.md",
    ROOT / "bench" / "README.md",
    *sorted((ROOT / "docs").rglob("*.md")),
    *sorted((ROOT / "bench" / "summaries").glob("*.md")),
]
# "session 12", "sessions 38 and 39", "Session 40's", "issue 26", "issues 26-30".
_STAGE = re.compile(r"\b(?:sessions?|issues?)[ #-]?#?\d+", re.IGNORECASE)


def test_the_pattern_finds_a_numbered_stage() -> None:
    """The check below would see a stage written in any of its forms."""
    for said in (
        "session 12",
        "sessions 38 and 39",
        "Session 40's start",
        "issue #26",
        "accuracy-session32-final",
    ):
        assert _STAGE.search(said), said
    assert not _STAGE.search("`accuracy-media-final-20261125T043332Z`")


def test_no_document_names_a_numbered_stage_of_work() -> None:
    """README.md, CHANGELOG.md, docs/ and bench/'s README and summaries."""
    found = [
        f"{path.relative_to(ROOT)}:{number}: {match.group(0)}"
        for path in DOCUMENTS
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        for match in _STAGE.finditer(line)
    ]
    assert not found, "\n".join(found)
