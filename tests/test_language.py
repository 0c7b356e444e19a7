"""Every shipped language has all its words, written as they are read."""

from __future__ import annotations

import pytest

from custom_components.intent_router.core.domains import DOMAINS
from custom_components.intent_router.core.records import EntityInfo
from custom_components.intent_router.core.speech import shipped_languages
from custom_components.intent_router.home.catalog import Catalog
from custom_components.intent_router.language import (
    GAP,
    LANGUAGES,
    UNSHIPPED,
    Shortcut,
    Unit,
    Verb,
    Words,
    base_language,
    content_words,
    fold,
    is_called,
    kind_words,
    number,
    singular,
    stop_words,
    words,
    words_for,
)
from custom_components.intent_router.reading.reading import find_mentions

# English's stop words, which a language without a words file reads names
# with too; "by" ("detected by the hall sensor") is the preposition of who
# does it.
ENGLISH_STOP_WORDS = frozenset(
    [
        "by",
        "the",
        "a",
        "an",
        "in",
        "on",
        "of",
        "to",
        "and",
        "my",
        "is",
        "it",
        "at",
        "set",
        "turn",
        "please",
        "all",
        "off",
        "up",
        "down",
        # "do the same in the kitchen" says nothing by "do".
        "do",
    ]
)
# The numbers a reader of commands needs: to twenty, the tens, a half, a quarter.
NUMBERS = {*range(21), *range(30, 101, 10), 0.5, 0.25}


def _single_words(spoken: Words) -> dict[str, frozenset[str]]:
    """The tables of one-word entries, by name."""
    return {
        "reference": spoken.reference,
        "everything": spoken.everything,
        "stop": spoken.stop,
        **{f"kinds.{domain}": found for domain, found in spoken.kinds.items()},
    }


def test_every_translation_has_its_words() -> None:
    """A language is one words file and one translation file: both or neither."""
    assert set(LANGUAGES) == shipped_languages()


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_table_is_filled(language: str) -> None:
    """No table of a shipped language is empty, numbers and stop words included."""
    spoken = LANGUAGES[language]
    assert all(spoken.shortcuts[shortcut] for shortcut in Shortcut)
    assert all(_single_words(spoken).values())
    assert set(spoken.kinds) >= set(LANGUAGES["en"].kinds)
    assert set(spoken.numbers.values()) >= NUMBERS
    assert set(spoken.verbs) == set(Verb)
    assert all(spoken.verbs.values())
    assert set(spoken.classes) == set(LANGUAGES["en"].classes)
    assert set(spoken.units) == set(Unit)
    assert all(spoken.units.values())
    assert spoken.requests
    assert spoken.plurals


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_phrase_lists_are_complete_and_matchable(language: str) -> None:
    """Every language has each shortcut, its politeness and its question openers.

    Utterances are folded before they are looked up, so a listed phrase
    that folding would change could never match; and a yes that is also
    a no would confirm what was refused.
    """
    spoken = LANGUAGES[language]
    phrases = spoken.shortcuts
    assert set(phrases) == set(Shortcut)
    assert spoken.filler
    assert spoken.openers
    for listed in (*(p for kind in phrases.values() for p in kind), *spoken.filler):
        assert fold(listed) == listed, listed
    for opener in (*spoken.openers, *spoken.requests):
        assert fold(opener) == opener.strip(), opener
    for table in (
        *spoken.verbs.values(),
        *spoken.classes.values(),
        *spoken.units.values(),
    ):
        # A separable verb's gap ("schalte … ab") is written, not said.
        assert all(fold(phrase) == phrase.replace(f" {GAP}", "") for phrase in table), (
            table
        )
    for sense in spoken.senses.values():
        assert all(fold(phrase) == phrase for phrase in sense), sense
    assert not phrases[Shortcut.YES] & phrases[Shortcut.NO]


def test_every_language_has_every_sense() -> None:
    """Rooms and things are bridged by keys every language shares."""
    keys = {language: set(spoken.senses) for language, spoken in LANGUAGES.items()}
    assert all(found == keys["en"] for found in keys.values()), keys


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_words_are_lower_case_per_language(language: str) -> None:
    """Words are matched against folded text, keyed by language code.

    Utterances are split into single words, so an entry with a space (or
    "ß", which case-folds to "ss") could never match; a number is looked up
    as its folded phrase ("dix sept").
    """
    assert language.islower()
    assert len(language) == 2
    for table, listed in _single_words(LANGUAGES[language]).items():
        assert all(word == word.casefold() for word in listed), table
        assert all(words(word) == [word] for word in listed), (table, listed)
    assert all(fold(said) == said for said in LANGUAGES[language].numbers)


@pytest.mark.parametrize(
    "domain", sorted({d for spoken in LANGUAGES.values() for d in spoken.kinds})
)
def test_words_in_every_language_of_the_shortcuts(domain: str) -> None:
    """A kind of device is named in each language people speak to the agent."""
    assert domain in DOMAINS
    assert {code for code, spoken in LANGUAGES.items() if spoken.kinds.get(domain)} == (
        set(LANGUAGES)
    )


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_no_stop_word_names_a_kind_of_device(language: str) -> None:
    """A stop word is ignored in names, so it must never be a device's word."""
    spoken = LANGUAGES[language]
    assert not spoken.stop & {w for found in spoken.kinds.values() for w in found}


def test_unshipped_languages_read_names_with_english_stop_words() -> None:
    """English, and every unshipped language, ignore the same small words in names."""
    assert LANGUAGES["en"].stop == ENGLISH_STOP_WORDS
    assert stop_words("pt-BR") == ENGLISH_STOP_WORDS


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("Laisse tomber, s\u2019il te plaît", "laisse tomber s'il te plaît"),
        ("Rimetti com\u02bcera", "rimetti com'era"),
        ("don\u2018t or don`t", "don't or don't"),
        ("Oui, vas-y !", "oui vas y"),
        ("  Turn ON   the kitchen_lamp. ", "turn on the kitchen_lamp"),
        ("21.5 °C", "21 5 c"),
    ],
)
def test_fold(text: str, folded: str) -> None:
    """Case, apostrophes and punctuation are read one way everywhere."""
    assert fold(text) == folded
    assert words(text) == folded.split()


@pytest.mark.parametrize(
    ("tag", "base"),
    [("de-CH", "de"), ("pt_BR", "pt"), ("EN", "en"), ("zh-Hant-TW", "zh"), ("", "")],
)
def test_base_language(tag: str, base: str) -> None:
    """A region, written with "-" or "_", does not change the language."""
    assert base_language(tag) == base


def test_words_of_a_language_tag() -> None:
    """A regional tag reads its language's words; an unshipped one, empty tables."""
    assert words_for("de_AT") is LANGUAGES["de"]
    assert words_for("xx") is UNSHIPPED
    assert "licht" in kind_words("light", "de-CH")
    assert kind_words("light", "xx") == frozenset()
    assert kind_words("automation", "en") == frozenset()


@pytest.mark.parametrize(
    ("name", "language", "wanted"),
    [
        ("Lampe der Oma", "de", {"lampe", "oma"}),
        ("Lampe der Oma", "en", {"lampe", "der", "oma"}),
        ("The Lamp in the Hall", "en-GB", {"lamp", "hall"}),
        # Elision is stripped: "l'entrée" is the word "entrée".
        ("Lumière de l'entrée", "fr", {"lumière", "entrée"}),
        ("Luce dell'ingresso", "it", {"luce", "ingresso"}),
        ("Licht in de keuken", "nl", {"licht", "keuken"}),
        ("Luz del salón", "es", {"luz", "salón"}),
    ],
)
def test_content_words(name: str, language: str, wanted: set[str]) -> None:
    """The words of a name that matter, by the stop words of the language."""
    assert content_words(name, language) == wanted


@pytest.mark.parametrize(
    ("said", "language", "value"),
    [
        ("fifty", "en", 50.0),
        ("A quarter", "en", 0.25),
        ("Dix-sept", "fr-CA", 17.0),
        ("quatre-vingts", "fr", 80.0),
        ("dreißig", "de", 30.0),
        ("één", "nl", 1.0),
        ("la metà", "it", 0.5),
        ("veinte", "es", 20.0),
        ("twenty-two", "en", 22.0),
        ("zweiundzwanzig", "de", 22.0),
        ("einhundert", "de", 100.0),
        ("soixante-quinze", "fr", 75.0),
        ("quatre-vingt-dix", "fr", 90.0),
        ("soixante et onze", "fr", 71.0),
        ("vingt et un", "fr", 21.0),
        ("veintidós", "es", 22.0),
        ("treinta y cinco", "es", 35.0),
        ("tweeëntwintig", "nl", 22.0),
        ("eenentwintig", "nl", 21.0),
        ("ventidue", "it", 22.0),
        ("ventotto", "it", 28.0),
        ("ventitré", "it", 23.0),
        ("21", "xx", 21.0),
        ("fifty", "xx", None),
        ("lamp", "en", None),
    ],
)
def test_number(said: str, language: str, value: float | None) -> None:
    """Spoken numbers read in their language; digits in any."""
    assert number(said, language) == value


def test_stop_words_of_the_turns_language_name_nothing() -> None:
    """A German "der" names no device with "der" in its name.

    Read with English stop words, "Schalte das Licht in der Küche aus" named
    "Lampe der Oma" by its part "der".
    """
    home = [
        EntityInfo("light.oma", "Lampe der Oma", (), "Wohnzimmer", "off", {}),
        EntityInfo("light.kueche", "Deckenlicht", (), "Küche", "off", {}),
    ]
    catalog = Catalog(
        exposed={info.entity_id: info for info in home},
        entities=home,
        listed=home,
        services={},
        areas=["Küche", "Wohnzimmer"],
        speaker_area=None,
        area_floors=dict.fromkeys(["Küche", "Wohnzimmer"]),
    )
    said = "Schalte das Licht in der Küche aus"
    mentions = find_mentions(said, "de", catalog)
    assert mentions.entities == frozenset()
    assert mentions.areas == {"Küche"}
    assert "light" in mentions.kinds
    assert find_mentions(said, "en", catalog).entities == {"light.oma"}


@pytest.mark.parametrize(
    ("language", "said", "name", "called"),
    [
        ("en", "lamps", "Study Lamp", True),
        ("en", "lamps", "Kitchen Lights", False),
        ("de", "lampen", "Schreibtischlampe", True),
        ("de", "leuchten", "Stehleuchte", True),
        ("de", "lampen", "Deckenlicht", False),
        ("fr", "rideaux", "Rideau du salon", True),
        ("fr", "lampes", "Lampe de chevet", True),
        ("es", "lámparas", "Lámpara de pie", True),
        ("it", "lampade", "Lampada da terra", True),
        ("it", "lampade", "Luce della cucina", False),
        ("nl", "lampen", "Bureaulamp", True),
    ],
)
def test_a_name_is_called_by_a_plural_of_its_language(
    language: str, said: str, name: str, called: bool
) -> None:
    """Each language's own plural: "Lampen" calls "Schreibtischlampe"."""
    spoken = words_for(language)
    assert is_called(name, {singular(said, spoken)}, spoken) is called


def test_a_plural_rule_is_its_languages_own() -> None:
    """German "-en" is German only; an unshipped language has no endings."""
    german, english = LANGUAGES["de"], LANGUAGES["en"]
    assert singular("lampen", german) == "lamp"
    assert singular("lampen", english) == "lampen"
    assert singular("lamps", english) == "lamp"
    assert singular("lampes", words_for("pt")) == "lampes"
    assert singular("bus", english) == "bus"  # never under three letters
