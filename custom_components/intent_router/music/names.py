"""Names as people say them, compared by their words."""

from __future__ import annotations

from ..catalog import STOP_WORDS, WORD_RE, words


def norm(text: str) -> str:
    """Lower-case words only, for comparing names as spoken."""
    return " ".join(WORD_RE.findall(text.casefold()))


def content_words(text: str) -> frozenset[str]:
    """The words of a name that say something ("the", "on" do not)."""
    return frozenset(words(text) - STOP_WORDS)
