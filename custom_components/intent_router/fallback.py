"""Home Assistant's own local intents: the deterministic path.

Used first for exact matches (local-first), and again when the model fails.
What a local intent did is translated back into service calls, so the turn
is remembered like any other and "again", "undo" and "do the same in the
bedroom" work after it too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from homeassistant.components import conversation
from homeassistant.components.media_player.const import INTENT_MEDIA_SEARCH_AND_PLAY
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import intent

from .const import LOGGER
from .context_store import ExecutedAction, PriorState

if TYPE_CHECKING:
    from hassil.recognize import RecognizeResult

    from homeassistant.components.conversation import ChatLog, ConversationInput
    from homeassistant.core import HomeAssistant

# What HassTurnOn / HassTurnOff mean for domains that do not say turn_on/off.
_ON_SERVICES = {"cover": "open_cover", "lock": "lock", "valve": "open_valve"}
_OFF_SERVICES = {"cover": "close_cover", "lock": "unlock", "valve": "close_valve"}


async def async_handle_locally(
    hass: HomeAssistant, user_input: ConversationInput, chat_log: ChatLog
) -> intent.IntentResponse | None:
    """HA's strict local match: exact wording, exposed entities; else None.

    A match that fails (an error response, or an intent whose integration is
    not set up) is no answer either: the model, or the explanation, follows.
    """
    try:
        response = await conversation.async_handle_intents(
            hass, user_input, chat_log, intent_filter=_leave_to_the_agent
        )
    except HomeAssistantError as err:
        LOGGER.debug("Local intent failed: %s", err)
        return None
    if response is None or response.response_type is intent.IntentResponseType.ERROR:
        return None
    return response


def _leave_to_the_agent(result: RecognizeResult) -> bool:
    """Searching and playing music by name is music.play's job: it verifies."""
    return result.intent.name == INTENT_MEDIA_SEARCH_AND_PLAY


def executed_actions(
    response: intent.IntentResponse, prior: Mapping[str, PriorState]
) -> list[ExecutedAction]:
    """The service calls a local intent amounts to, for memory."""
    if response.intent is None:
        return []
    to_service = _SERVICES.get(response.intent.intent_type)
    if to_service is None:
        return []
    slots = {name: slot.get("value") for name, slot in response.intent.slots.items()}
    actions = []
    for target in response.success_results:
        entity_id = target.id
        if target.type is not intent.IntentResponseTargetType.ENTITY or not entity_id:
            continue
        domain = entity_id.partition(".")[0]
        service, data = to_service(domain, slots)
        actions.append(
            ExecutedAction(
                tool=f"{domain}.{service}",
                targets=[entity_id],
                args=data,
                prior={entity_id: prior[entity_id]} if entity_id in prior else {},
            )
        )
    return actions


type _ToService = Callable[[str, dict[str, Any]], tuple[str, dict[str, Any]]]


def _light_set(domain: str, slots: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    data: dict[str, Any] = {}
    if (brightness := slots.get("brightness")) is not None:
        data["brightness_pct"] = brightness
    if (color := slots.get("color")) is not None:
        data["color_name"] = color
    return "turn_on", data


_SERVICES: Mapping[str, _ToService] = {
    intent.INTENT_TURN_ON: lambda d, _: (_ON_SERVICES.get(d, "turn_on"), {}),
    intent.INTENT_TURN_OFF: lambda d, _: (_OFF_SERVICES.get(d, "turn_off"), {}),
    "HassLightSet": _light_set,
    "HassClimateSetTemperature": lambda _, s: (
        "set_temperature",
        {"temperature": s.get("temperature")},
    ),
    intent.INTENT_SET_POSITION: lambda _, s: (
        "set_cover_position",
        {"position": s.get("position")},
    ),
    "HassMediaPause": lambda _, __: ("media_pause", {}),
    "HassMediaUnpause": lambda _, __: ("media_play", {}),
    "HassMediaNext": lambda _, __: ("media_next_track", {}),
    "HassMediaPrevious": lambda _, __: ("media_previous_track", {}),
    "HassSetVolume": lambda _, s: (
        "volume_set",
        {"volume_level": float(s.get("volume_level", 0)) / 100},
    ),
}
