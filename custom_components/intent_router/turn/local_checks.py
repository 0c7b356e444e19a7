"""What the agent checks of a match of Home Assistant's sentences before it acts.

Home Assistant acts as soon as it handles a sentence, so these run on what
it recognised, before it is handled (local_intents.py): a kind word taken
for the room's devices, a mute said as a switch, a device named like a room
where the words mean another kind. A match any of them finds is left to the
agent's own reading. A value said beside the match ("to full") is one the
match left out: the agent sends it with the match's targets.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from homeassistant.components import conversation
from homeassistant.components.homeassistant.exposed_entities import async_should_expose
from homeassistant.components.media_player.const import (
    INTENT_PLAYER_MUTE,
    INTENT_PLAYER_UNMUTE,
    INTENT_SET_VOLUME,
    INTENT_SET_VOLUME_RELATIVE,
)
from homeassistant.core import State
from homeassistant.helpers import (
    area_registry as ar,
    entity_registry as er,
    floor_registry as fr,
)

from ..core.said import Said, said_words
from ..deciding.targets.called import called_elsewhere
from ..language import (
    base_language,
    content_words,
    fold,
    narrow_kind_words,
    same_thing,
    spans,
)
from ..language.music import MUSIC_WORDS
from ..language.tables import Verb
from ..reading.meant import another_kind_meant as named_another_kind, kinds_meant_by
from ..reading.senses import place_phrases
from ..reading.values import Value, said_values

# Home Assistant's intents about a player's sound.
_MUTING = frozenset({INTENT_PLAYER_MUTE, INTENT_PLAYER_UNMUTE})
_VOLUME = frozenset({INTENT_SET_VOLUME, INTENT_SET_VOLUME_RELATIVE})

if TYPE_CHECKING:
    from hassil.recognize import RecognizeResult

    from homeassistant.core import HomeAssistant


def not_what_was_called(
    hass: HomeAssistant,
    result: RecognizeResult,
    targets: list[State],
    said: Said,
) -> bool:
    """Whether a sentence took a kind word for the room's devices, wrongly.

    "Turn on the lamp" in a kitchen whose lights are not called lamps, in a
    home whose lamps are elsewhere: Home Assistant turns on the kitchen's
    lights; the reading asks which lamp (the lamp rule, deciding/targets/called.py). A
    sentence that names a device, or whose targets are called what was
    said, stays Home Assistant's.
    """
    if not targets or "name" in result.entities:
        return False
    language = said.language
    heard = set(said.words)
    domains = {state.domain for state in targets}
    called = same_thing(
        frozenset(
            word
            for domain in domains
            for word in narrow_kind_words(domain, language) & heard
        ),
        language,
    )
    return any(
        async_should_expose(hass, conversation.DOMAIN, state.entity_id)
        for state in called_elsewhere(
            targets, hass.states.async_all(domains), called, said.spoken
        )
    )


def another_kind_meant(hass: HomeAssistant, targets: list[State], said: Said) -> bool:
    """Whether a match acts on a device named like a room of another kind meant.

    "Turn the heat up in the living room" is no speaker's volume where a
    speaker is called Living Room; "turn on the light in the bedroom" no
    speaker called Bedroom (named.py, `another_kind_meant`).
    """
    if not targets or not (meant := kinds_meant_by(said)):
        return False
    places = _place_names(hass) | place_phrases()
    return any(
        named_another_kind(
            state.domain,
            (str(state.name), *_aliases(hass, state.entity_id)),
            content_words(str(state.name), said.language),
            meant,
            places,
        )
        for state in targets
    )


def _place_names(hass: HomeAssistant) -> frozenset[str]:
    """The folded names the home's areas and floors go by."""
    areas = ar.async_get(hass).async_list_areas()
    floors = fr.async_get(hass).async_list_floors()
    return frozenset(
        fold(name)
        for name in (
            *(area.name for area in areas),
            *(alias for area in areas for alias in area.aliases),
            *(floor.name for floor in floors),
            *(alias for floor in floors for alias in floor.aliases),
        )
    )


def _aliases(hass: HomeAssistant, entity_id: str) -> tuple[str, ...]:
    """An entity's aliases set in HA's registry."""
    entry = er.async_get(hass).async_get(entity_id)
    return tuple(a for a in entry.aliases if isinstance(a, str) and a) if entry else ()


def not_sound(intent_name: str, said: Said) -> bool:
    """Whether a sound sentence's words are about something else.

    "Spegni la tv" is no mute, whatever HA's Italian sentence says; "lower
    the lights" no volume, whatever its English one does.
    """
    return (intent_name in _MUTING and _switches_not_sound(said)) or (
        intent_name in _VOLUME and _volume_of_another_kind(said)
    )


def _switches_not_sound(said: Said) -> bool:
    """Whether a mute or unmute sentence says only a player's on or off verb.

    Home Assistant's Italian sentences mute on a bare "spegni" ("spegni la
    tv") and unmute on "riaccendi": said with no word of the sound ("l'audio",
    "muto", "Stummschaltung"), the words switch the player.
    """
    table = MUSIC_WORDS.get(base_language(said.language))
    spoken = said.spoken
    if table is None:
        return False
    # Where nouns compound, a sound word may open one ("Stummschaltung").
    if any(
        word.startswith(sound) if spoken.joints else word == sound
        for word in said.terms
        for sound in table.sound
    ):
        return False
    return bool(spans(list(said.terms), spoken.verbs[Verb.ON] | spoken.verbs[Verb.OFF]))


def _volume_of_another_kind(said: Said) -> bool:
    """Whether a volume sentence's words are about another kind, not sound.

    Home Assistant's English "lower {volume}" takes "lower the lights" for
    the room's speaker: words that say no sound and no player, but another
    kind of device, are that kind's.
    """
    table = MUSIC_WORDS.get(base_language(said.language))
    kinds = set().union(*kinds_meant_by(said).values())
    return (
        table is not None
        and not table.sound.intersection(said.terms)
        and bool(kinds)
        and "media_player" not in kinds
    )


def value_beside(said: Said, matched: Iterable[str]) -> Value | None:
    """A value said with its unit that a match of HA's sentences left out.

    HA's gazetteer reads "hey, turn on the kitchen lights to full" as a
    turn-on and drops "to full". The words of the match's own slots
    (`matched`: a name with a number in it, "50 %" as a brightness) are
    the match's; a bare number beside it ("for 10 minutes") says no level.
    """
    spoken = said.spoken
    own = {word for text in matched for word in said_words(text, spoken)}
    values, _ = said_values([word for word in said.terms if word not in own], spoken)
    return next((value for value in values if value.unit is not None), None)
