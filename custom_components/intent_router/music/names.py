"""Names as people say them: compared by their words, offered as a choice."""

from __future__ import annotations

from collections.abc import Sequence

from ..catalog import STOP_WORDS, WORD_RE, words


def norm(text: str) -> str:
    """Lower-case words only, for comparing names as spoken."""
    return " ".join(WORD_RE.findall(text.casefold()))


def content_words(text: str) -> frozenset[str]:
    """The words of a name that say something ("the", "on" do not)."""
    return frozenset(words(text) - STOP_WORDS)


def choices(names: Sequence[str]) -> str:
    """Names as a spoken choice: "A, B or C"."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} or {names[-1]}"
