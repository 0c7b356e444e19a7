"""Each language's words are one data file, checked as it is read.

The six shipped files (language/<code>.yaml) are read when the package is
imported; Home Assistant's own cover-class words come from its
home_assistant_intents with the file's own. A file that breaks the schema
stops the import naming the file, the key and what is wrong. A language
is added by its file alone: one written here is read, set up and spoken to
through Assist, with no Python written for it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.intent_router.const import CONF_LOCAL_FIRST
from custom_components.intent_router.language import (
    LANGUAGES,
    WORDS_FOLDERS,
    number,
    words_for,
)
from custom_components.intent_router.language.files import (
    WordsFileError,
    read_languages,
    read_words,
)
from custom_components.intent_router.language.ha_lists import cover_classes
from custom_components.intent_router.language.music import MUSIC_WORDS
from homeassistant.core import HomeAssistant
from homeassistant.util.yaml import load_yaml_dict

from .helpers import converse, speech
from .home import async_setup_agent, satellite_in
from .llm_server import ScriptedLLMServer

KITCHEN_LIGHTS = "light.kitchen_lights"


def _file(folder: Path, code: str, text: str) -> Path:
    """A words file written into a folder."""
    path = folder / f"{code}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_package_reads_every_file_of_its_folder() -> None:
    """The six languages are the six files; no language module is left."""
    folder = WORDS_FOLDERS[0]
    assert set(LANGUAGES) == {path.stem for path in folder.glob("*.yaml")}
    assert set(LANGUAGES) == {"en", "de", "fr", "es", "nl", "it"}
    assert set(MUSIC_WORDS) == set(LANGUAGES)


@pytest.mark.parametrize(
    ("language", "said", "value"),
    [
        ("en", "seventy three", 73),
        ("de", "zweiundzwanzig", 22),
        ("fr", "soixante dix sept", 77),
        ("fr", "quatre vingts et un", 81),
        ("es", "veintidós", 22),
        ("es", "treinta y cinco", 35),
        ("nl", "tweeëntwintig", 22),
        ("it", "ventotto", 28),
        ("it", "ventitré", 23),
    ],
)
def test_numbers_are_joined_from_the_tens_and_units_of_the_file(
    language: str, said: str, value: int
) -> None:
    """21 to 99 are built from the file's tens, units and ways of joining them."""
    assert number(said, language) == value


@pytest.mark.parametrize(
    ("language", "device_class", "home", "own"),
    [
        ("en", "cover.garage", "garage door", "garage"),
        ("en", "cover.awning", "awnings", "awning"),
        ("de", "cover.blind", "rollos", "raffstore"),
        ("de", "cover.curtain", "gardine", "vorhang"),
        ("fr", "cover.shutter", "volets", "persiennes"),
        ("es", "cover.gate", "verjas", "verja"),
        ("nl", "cover.shade", "screens", "zonwering"),
        ("it", "cover.garage", "saracinesca", "basculante"),
    ],
)
def test_cover_classes_are_home_assistants_words_and_the_files(
    language: str, device_class: str, home: str, own: str
) -> None:
    """A class has Home Assistant's words ("garage door") and the file's ("garage")."""
    spoken = words_for(language)
    assert home in cover_classes(language)[device_class]
    assert {home, own} <= spoken.classes[device_class]


def test_a_word_of_home_assistant_left_out_is_not_read() -> None:
    """Italian "porta" is any door, and Dutch "scherm" a screen, as before."""
    italian, dutch = words_for("it"), words_for("nl")
    assert "porta" in cover_classes("it")["cover.garage"]
    assert "porta" not in italian.classes["cover.garage"]
    assert "porta" in italian.classes["cover.door"]
    assert "serranda" in italian.classes["cover.shutter"]
    assert "serranda" not in italian.classes["cover.garage"]
    assert "scherm" in cover_classes("nl")["cover.awning"]
    assert "scherm" not in dutch.classes["cover.awning"]


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_files_hold_only_what_home_assistant_lacks(language: str) -> None:
    """No cover-class word is copied from Home Assistant, none left out is stale."""
    home = cover_classes(language)
    written = load_yaml_dict(WORDS_FOLDERS[0] / f"{language}.yaml")
    for device_class, own in written["classes"].items():
        assert not set(own) & home.get(device_class, frozenset()), device_class
    left_out = written.get("not_from_home_assistant", {}).get("classes", {})
    for device_class, words in left_out.items():
        assert set(words) <= home[device_class], device_class


def test_a_language_home_assistant_has_no_sentences_in_has_no_cover_classes() -> None:
    """Its classes are the file's own."""
    assert cover_classes("eo") == {}


# A file that breaks the schema, where in it, and what the error says.
BROKEN = [
    ("verbs:\n  on: [turn on]\n", "verbs > True", "True is no word: YAML reads on"),
    ('verbs:\n  "on": turn on\n', "verbs > on", "expected a list"),
    (
        'verbs:\n  "on": [Turn On]\n',
        "verbs > on > 0",
        "'Turn On' is not written as said: write 'turn on'",
    ),
    ('verbs: {"on": [an]}\nfiler: [bitte]\n', "filer", ""),
    ('verbs: {"on": [an], "shine": [leuchte]}\n', "verbs > shine", "'shine' is none"),
    (
        'verbs: {"on": [an]}\nkinds:\n  light: [licht, decken licht]\n',
        "kinds > light > 1",
        "'decken licht' is more than one word",
    ),
    (
        'verbs: {"on": [an]}\nnumbers:\n  joins:\n    - forms: ["{tens} und"]\n',
        "numbers > joins > 0 > forms > 0",
        "'{tens} und' joins no {tens} and {unit} as said",
    ),
    (
        'verbs: {"on": [an]}\ncomplaints:\n  light.brighter: [zu dunkel]\n',
        "complaints > light.brighter",
        "'light.brighter' is no <domain>.<on|off|",
    ),
    (
        'verbs: {"on": [an]}\neuphony:\n  y: {as: e, before: "[i"}\n',
        "euphony > y > before",
        "'[i' is no regular expression",
    ),
    ("kinds: {}\n", "verbs", "required key not provided"),
]


@pytest.mark.parametrize(("text", "where", "what"), BROKEN)
def test_a_broken_file_names_the_file_the_key_and_what_is_wrong(
    tmp_path: Path, text: str, where: str, what: str
) -> None:
    """A file that breaks the schema stops the reading with a clear error."""
    with pytest.raises(WordsFileError) as raised:
        read_words(_file(tmp_path, "xx", text))
    assert str(raised.value).startswith(f"xx.yaml, {where}: {what}"), raised.value


def test_a_number_said_for_two_values_is_refused(tmp_path: Path) -> None:
    """A spelling is one number: "eins" cannot be 1 and 2."""
    text = 'verbs: {"on": [an]}\nnumbers:\n  said: {1: eins}\n  units: {2: eins}\n'
    with pytest.raises(WordsFileError, match=r"^xx\.yaml, numbers: 'eins' is 1 and 2"):
        read_words(_file(tmp_path, "xx", text))


def test_a_file_yaml_cannot_read_is_refused(tmp_path: Path) -> None:
    """Broken YAML names the file, and where YAML stopped."""
    with pytest.raises(WordsFileError, match=r"(?s)^xx\.yaml: .*xx\.yaml\", line 1"):
        read_words(_file(tmp_path, "xx", 'verbs: {"on": [an]\n'))


def test_a_file_is_named_by_its_language_code(tmp_path: Path) -> None:
    """A region's file ("de-CH") would never be looked up: it is refused."""
    with pytest.raises(WordsFileError, match=r"de-CH\.yaml: name it by its"):
        read_languages(
            [tmp_path, _file(tmp_path, "de-CH", 'verbs: {"on": [an]}\n').parent]
        )


# Esperanto, which Home Assistant has no sentences in and the integration no
# translation for: a verb for on and off, and the article names never say.
ESPERANTO = """\
verbs:
  "on": [ŝaltu, ekŝaltu]
  "off": [malŝaltu]
stop: [la]
kinds:
  light: [lumo, lumoj, lampo]
"""


async def test_a_language_from_its_data_file_alone(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    llm_server: ScriptedLLMServer,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """A words file in a folder is a language: its commands are read end to end.

    The folder is read as the package reads its own; the language found is
    the one the agent reads with. No translation: the replies are English.
    """
    _file(tmp_path, "eo", ESPERANTO)
    (tmp_path / "README.md").write_text("not a language", encoding="utf-8")
    found = read_languages([tmp_path])
    assert set(found) == {"eo"}
    monkeypatch.setitem(LANGUAGES, "eo", found["eo"])
    agent_id = await async_setup_agent(
        hass, mock_config_entry, **{CONF_LOCAL_FIRST: True}
    )
    kitchen = satellite_in(hass, "Kitchen")
    await llm_server.stop()

    result = await converse(hass, agent_id, "Malŝaltu la Kitchen Lights", kitchen, "eo")
    assert hass.states.get(KITCHEN_LIGHTS).state == "off"
    assert speech(result) == "Turned off Kitchen Lights."

    result = await converse(hass, agent_id, "Ŝaltu Kitchen Lights", kitchen, "eo")
    assert hass.states.get(KITCHEN_LIGHTS).state == "on"
    assert speech(result) == "Turned on Kitchen Lights."
    assert llm_server.requests == []
