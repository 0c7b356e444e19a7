"""HA's music sentences as the music tool's calls.

Home Assistant's "play <query>" and its transport sentences match widely
and act only on what it believes plays; the agent hands them to its music
tool (music/), which searches, plays, and checks what the player did.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from homeassistant.components import conversation
from homeassistant.helpers import intent

from ..const import MUSIC_KINDS
from ..core.records import Action

if TYPE_CHECKING:
    from hassil.recognize import RecognizeResult

    from homeassistant.components.conversation import ConversationInput
    from homeassistant.core import HomeAssistant, State


# The music tool (music/play.py).
MUSIC_PLAY = "music.play"


def music_play(
    hass: HomeAssistant, result: RecognizeResult, user_input: ConversationInput
) -> Action:
    """HA's "play <query> [in <area> | on <speaker>]" as a `music.play` call.

    Its query, kind and speaker stand; the music tool searches (a player's
    own search, Spotify, its library), plays and checks that it plays. The
    one media player HA's matcher finds for the speaker or area said is the
    target; several, or none, leave the words to the tool, which asks.
    """
    slots = {name: entity.value for name, entity in result.entities.items()}
    args: dict[str, Any] = {"query": str(slots.get("search_query") or "").strip()}
    if (kind := slot_text(slots.get("media_class"))) in MUSIC_KINDS:
        args["kind"] = kind
    name, area, floor = (slot_text(slots.get(key)) for key in ("name", "area", "floor"))
    if not (name or area or floor):
        return Action(MUSIC_PLAY, (), args)
    constraints = intent.MatchTargetsConstraints(
        name=name,
        area_name=area,
        floor_name=floor,
        domains=["media_player"],
        assistant=conversation.DOMAIN,
    )
    match = intent.async_match_targets(hass, constraints)
    if match.is_match and len(match.states) == 1:
        return Action(MUSIC_PLAY, (match.states[0].entity_id,), args)
    if said := name or area:
        args["player"] = said
    return Action(MUSIC_PLAY, (), args)


# HA's transport intents that act only on a playing player, as the music
# tool's commands.
MUSIC_CONTROL = "music.control"
_TRANSPORT_COMMANDS: Mapping[str, str] = {
    "HassMediaPause": "pause",
    "HassMediaNext": "next",
    "HassMediaPrevious": "previous",
}


def music_control(result: RecognizeResult, targets: list[State]) -> tuple[Action, ...]:
    """HA's "pause / next / previous on <player>" where HA would refuse it.

    HA acts only on a player it reports as playing, so "skip this song on
    the TV" fails while the TV says it is idle (a state that lags, a stream
    HA cannot see). The player named stands; the music tool sends the
    command and reports what the player did.
    """
    command = _TRANSPORT_COMMANDS.get(result.intent.name)
    players = [state for state in targets if state.domain == "media_player"]
    if command is None or all(state.state == "playing" for state in players):
        return ()
    return tuple(
        Action(MUSIC_CONTROL, (state.entity_id,), {"command": command})
        for state in players
    )


def slot_text(value: Any) -> str | None:
    """A slot's value as text; None for a list or nothing."""
    return str(value) if isinstance(value, (str, int, float)) else None
