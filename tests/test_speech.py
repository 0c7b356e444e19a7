"""The integration's own sentences, rendered in the turn's language."""

from __future__ import annotations

import pytest

from custom_components.intent_router.core.speech import (
    Names,
    async_phrasebook,
    phrase,
    shipped_languages,
)
from homeassistant.core import HomeAssistant


@pytest.mark.parametrize(
    ("names", "any_of", "spoken"),
    [
        ((), True, ""),
        (("A",), True, "A"),
        (("A", "B"), True, "A or B"),
        (("A", "B", "C"), True, "A, B or C"),
        (("A", "B", "C"), False, "A, B and C"),
        (("A", "A", "B"), False, "A and B"),
    ],
)
async def test_names_are_spoken_naturally(
    hass: HomeAssistant, names: tuple[str, ...], any_of: bool, spoken: str
) -> None:
    """Candidates and targets read as a person would say them, each once."""
    phrases = await async_phrasebook(hass, "en", shipped_languages())
    assert phrases.names(Names(names, any_of=any_of)) == spoken


async def test_unknown_languages_fall_back_to_english(hass: HomeAssistant) -> None:
    """A language without a translation hears English, not translation keys."""
    phrases = await async_phrasebook(hass, "xx-YY", shipped_languages())
    assert phrases.language == "en"
    assert phrases.say(phrase("nothing_to_undo")) == "There's nothing I can undo."


async def test_a_phrase_ends_as_a_sentence(hass: HomeAssistant) -> None:
    """Placeholders are filled and a full stop ends the sentence."""
    phrases = await async_phrasebook(hass, "en", shipped_languages())
    spoken = phrases.say(phrase("undo_done", targets=Names(("Kitchen Lights", "Fan"))))
    assert "Kitchen Lights and Fan" in spoken
    assert spoken.endswith(".")


@pytest.mark.parametrize(
    ("language", "chosen", "all_of", "any_of"),
    [
        ("de-CH", "de", "A, B und C", "A, B oder C"),
        ("fr-CA", "fr", "A, B et C", "A, B ou C"),
        ("es-MX", "es", "A, B y C", "A, B o C"),
        ("nl-BE", "nl", "A, B en C", "A, B of C"),
        ("it", "it", "A, B e C", "A, B o C"),
    ],
)
async def test_each_language_lists_names_its_own_way(
    hass: HomeAssistant, language: str, chosen: str, all_of: str, any_of: str
) -> None:
    """A regional variant uses its language; lists join with its "and"/"or"."""
    phrases = await async_phrasebook(hass, language, shipped_languages())
    assert phrases.language == chosen
    assert phrases.names(Names(("A", "B", "C"))) == all_of
    assert phrases.names(Names(("A", "B", "C"), any_of=True)) == any_of
