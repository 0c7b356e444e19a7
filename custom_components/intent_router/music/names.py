"""Names of music and speakers, compared by the words that say something."""

from __future__ import annotations

from ..language import FALLBACK_LANGUAGE, content_words


def name_words(text: str) -> frozenset[str]:
    """The words of a name that say something ("the", "on" do not).

    English stop words whatever the turn's language: titles and artists are
    in any language, whatever the household speaks, and the union of every
    language's stop words would drop real words of others ("son", "van",
    "die"), which are what tells one title from another.
    """
    return content_words(text, FALLBACK_LANGUAGE)
