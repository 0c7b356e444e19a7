"""Names of music and speakers, compared by the words that say something."""

from __future__ import annotations

from ..language import FALLBACK_LANGUAGE, content_words


def name_words(text: str, language: str = FALLBACK_LANGUAGE) -> frozenset[str]:
    """The words of a name that say something ("the", "on" do not).

    The stop words of the turn's language, never the union of every
    language's: titles and artists are in any language, and another
    language's stop words ("son", "van", "die") are what tells one title
    from another. Both sides of a comparison are read in the same language.
    """
    return content_words(text, language)
