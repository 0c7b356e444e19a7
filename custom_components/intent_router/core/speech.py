"""The sentences the integration itself speaks, in the language of the turn.

Tools and the agent describe what to say as a `Phrase` (a translation key and
its placeholders); a `Phrasebook` for the turn's language renders it. The
sentences live in `translations/<language>.json` under `exceptions`, the one
category Home Assistant translates for custom integrations at run time (with
English filling any gap); a `HomeAssistantError` raised with the same key
shows the same sentence in the UI.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers.translation import async_get_translations

from ..const import DOMAIN
from ..language import base_language, elide, euphonic
from .domains import DOMAINS
from .spoken import SpokenValues

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant

FALLBACK_LANGUAGE = "en"
# The ending of a sentence's form for several names ("undo_done_many").
PLURAL_SUFFIX = "_many"
# Home Assistant's own words a reply may use: states and modes, and the
# names of services (a confirmation asks about an action by its name).
# "exceptions": why a service refused a call (`HomeRefusal`).
HOME_WORD_CATEGORIES = ("entity_component", "services", "title", "exceptions")


@dataclass(slots=True, frozen=True)
class Names:
    """Several names said as a list: "A, B and C" (`any_of`: "A, B or C")."""

    items: tuple[str, ...]
    any_of: bool = False


type Placeholder = str | Names


@dataclass(slots=True, frozen=True)
class Phrase:
    """Something to say: a translation key and its placeholders."""

    key: str
    placeholders: Mapping[str, Placeholder] = field(default_factory=dict)

    def texts(self) -> dict[str, str]:
        """The placeholders as plain text ("A, B, C" for names)."""
        return {
            name: value if isinstance(value, str) else ", ".join(value.items)
            for name, value in self.placeholders.items()
        }


@dataclass(slots=True, frozen=True)
class HomeRefusal:
    """Why Home Assistant refused a call, in its own translated words.

    "Unable to find to-do list item: bread": the device answered, so no
    "didn't respond". `message` is as raised, in Home Assistant's own
    language, for a turn whose language has no translation of it.
    """

    key: str
    placeholders: Mapping[str, str]
    message: str


def phrase(key: str, **placeholders: Placeholder) -> Phrase:
    """A phrase, written as `phrase("undo_done", targets=names)`."""
    return Phrase(key, placeholders)


class SpokenError(HomeAssistantError):
    """A turn ends with this phrase as its (error) reply.

    Its message is the English sentence, for logs and service callers; the
    agent speaks `phrase` in the turn's language.
    """

    def __init__(self, spoken: Phrase) -> None:
        """Keep the phrase; HA renders the message from the same key."""
        super().__init__(
            translation_domain=DOMAIN,
            translation_key=spoken.key,
            translation_placeholders=spoken.texts() or None,
        )
        self.phrase = spoken


def refuse(key: str, **placeholders: Placeholder) -> SpokenError:
    """The error that ends a turn with a spoken explanation."""
    return SpokenError(Phrase(key, placeholders))


@dataclass(slots=True, frozen=True)
class Phrasebook:
    """The integration's sentences in one language (English where missing)."""

    language: str
    messages: Mapping[str, str]
    # Home Assistant's translations of states, modes and service names.
    home_words: Mapping[str, str] = field(default_factory=dict)

    @property
    def values(self) -> SpokenValues:
        """How values are said in this language (spoken.py)."""
        return SpokenValues(self.language, self.messages, self.home_words)

    def say(self, spoken: Phrase) -> str:
        """Render a phrase as a sentence, ending as a sentence does.

        A sentence about several names uses its `<key>_many` form where the
        language needs one ("Kitchen and Hall are back the way they were").
        """
        many = f"{spoken.key}{PLURAL_SUFFIX}"
        several = any(
            isinstance(value, Names) and len(set(value.items)) > 1
            for value in spoken.placeholders.values()
        )
        template = self.messages.get(
            many if several and many in self.messages else spoken.key, spoken.key
        )
        values = {
            name: value if isinstance(value, str) else self.names(value)
            for name, value in spoken.placeholders.items()
        }
        try:
            text = template.format(**values)
        except KeyError, IndexError, ValueError:
            # A translation with a broken placeholder: say the English one.
            text = spoken.key
        text = elide(text, self.language).strip()
        return text if not text or text.endswith(("?", "!", ".")) else f"{text}."

    def say_refusal(self, refusal: HomeRefusal) -> str:
        """Home Assistant's reason in this language, else as it was raised."""
        template = self.home_words.get(refusal.key)
        try:
            text = template.format(**refusal.placeholders) if template else ""
        except KeyError, IndexError, ValueError:
            text = ""
        text = (text or refusal.message).strip()
        return text if not text or text.endswith(("?", "!", ".")) else f"{text}."

    def names(self, names: Names) -> str:
        """Names as a spoken list, with this language's "and" or "or"."""
        items = list(dict.fromkeys(names.items))
        if len(items) <= 1:
            return "".join(items)
        joiner = euphonic(
            self.messages["list_or" if names.any_of else "list_and"],
            items[-1],
            self.language,
        )
        return joiner.format(head=", ".join(items[:-1]), last=items[-1])


async def async_phrasebook(
    hass: HomeAssistant, language: str, shipped: frozenset[str]
) -> Phrasebook:
    """The phrasebook of a turn's language ("de-CH" uses "de" when needed).

    `shipped` are the languages the integration has translation files for;
    others get English.
    """
    chosen = _best_language(language, shipped)
    translations = await async_get_translations(hass, chosen, "exceptions", {DOMAIN})
    prefix = f"component.{DOMAIN}.exceptions."
    suffix = ".message"
    # The domains the agent acts on, and every one set up now (for answers).
    domains = set(DOMAINS) | hass.config.top_level_components
    home_words: dict[str, str] = {}
    for category in HOME_WORD_CATEGORIES:
        home_words.update(await async_get_translations(hass, chosen, category, domains))
    return Phrasebook(
        chosen,
        {
            key[len(prefix) : -len(suffix)]: message
            for key, message in translations.items()
            if key.startswith(prefix) and key.endswith(suffix)
        },
        home_words,
    )


class Phrasebooks:
    """The phrasebook of each language asked for, loaded once."""

    def __init__(self, hass: HomeAssistant, shipped: frozenset[str]) -> None:
        """Serve the shipped languages (others get English)."""
        self._hass = hass
        self._shipped = shipped
        self._loaded: dict[str, Phrasebook] = {}

    async def async_get(self, language: str) -> Phrasebook:
        """The phrasebook of a turn's language."""
        if (phrasebook := self._loaded.get(language)) is None:
            phrasebook = await async_phrasebook(self._hass, language, self._shipped)
            self._loaded[language] = phrasebook
        return phrasebook


def _best_language(language: str, shipped: frozenset[str]) -> str:
    """The shipped translation closest to a language tag."""
    if language in shipped:
        return language
    base = base_language(language)
    return base if base in shipped else FALLBACK_LANGUAGE


def shipped_languages() -> frozenset[str]:
    """The languages of the translation files shipped (reads the disk)."""
    folder = Path(__file__).parent.parent / "translations"
    return frozenset(path.stem for path in folder.glob("*.json"))
