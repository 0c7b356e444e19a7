"""Names of music and speakers, compared by the words that say something."""

from __future__ import annotations

from ..language import FALLBACK_LANGUAGE, content_words

# The endings of a possessive ("Queen's Barcelona", "the Beatles' Yesterday").
_POSSESSIVE = ("'s", "'")


def name_words(text: str, language: str = FALLBACK_LANGUAGE) -> frozenset[str]:
    """The words of a name that say something ("the", "on" do not).

    The stop words of the turn's language, never the union of every
    language's: titles and artists are in any language, and another
    language's stop words ("son", "van", "die") are what tells one title
    from another. Both sides of a comparison are read in the same language.
    A possessive is its owner's name: "Queen's Barcelona" is by Queen.
    """
    return frozenset(_owner(word) for word in content_words(text, language))


def _owner(word: str) -> str:
    """A word without its possessive ending ("queen's": "queen")."""
    for ending in _POSSESSIVE:
        if word.endswith(ending) and len(word) > len(ending):
            return word.removesuffix(ending)
    return word
