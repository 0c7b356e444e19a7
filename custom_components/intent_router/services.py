"""Actions for automations: `route` a text like a spoken turn, `clear_context`.

Both are registered once, in `async_setup`, and name their config entry, so
they exist (and fail with a translated message) whether or not an entry is
loaded. Input is checked before anything runs: bad input changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import voluptuous as vol

from homeassistant.components import conversation
from homeassistant.components.conversation import trace
from homeassistant.const import ATTR_AREA_ID, ATTR_CONFIG_ENTRY_ID, ATTR_DEVICE_ID
from homeassistant.core import (
    HomeAssistant,
    ServiceCall,
    ServiceResponse,
    SupportsResponse,
    callback,
)
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import (
    area_registry as ar,
    config_validation as cv,
    device_registry as dr,
    entity_registry as er,
    service,
)
from homeassistant.helpers.chat_session import async_get_chat_session

from .const import DOMAIN, MAX_TEXT_LENGTH

if TYPE_CHECKING:
    from .data import IntentRouterConfigEntry
    from .replies import AgentReply, TurnResult

SERVICE_ROUTE = "route"
SERVICE_CLEAR_CONTEXT = "clear_context"
ATTR_TEXT = "text"
ATTR_CONVERSATION_ID = "conversation_id"
ATTR_DRY_RUN = "dry_run"

ROUTE_SCHEMA = vol.Schema(
    {
        vol.Required(ATTR_CONFIG_ENTRY_ID): cv.string,
        vol.Required(ATTR_TEXT): cv.string,
        vol.Optional(ATTR_DEVICE_ID): cv.string,
        vol.Optional(ATTR_AREA_ID): cv.string,
        vol.Optional(ATTR_CONVERSATION_ID): cv.string,
        vol.Optional(ATTR_DRY_RUN, default=False): cv.boolean,
    }
)
CLEAR_CONTEXT_SCHEMA = vol.Schema(
    {
        vol.Required(ATTR_CONFIG_ENTRY_ID): cv.string,
        vol.Optional(ATTR_DEVICE_ID): cv.string,
    }
)


@callback
def async_setup_services(hass: HomeAssistant) -> None:
    """Register the integration's actions (once, not per entry)."""
    hass.services.async_register(
        DOMAIN,
        SERVICE_ROUTE,
        _async_route,
        schema=ROUTE_SCHEMA,
        supports_response=SupportsResponse.OPTIONAL,
    )
    hass.services.async_register(
        DOMAIN,
        SERVICE_CLEAR_CONTEXT,
        _async_clear_context,
        schema=CLEAR_CONTEXT_SCHEMA,
    )


def _invalid(key: str, **placeholders: str) -> ServiceValidationError:
    """A translated error for input the user can correct."""
    return ServiceValidationError(
        translation_domain=DOMAIN,
        translation_key=key,
        translation_placeholders=placeholders or None,
    )


def _entry(call: ServiceCall) -> IntentRouterConfigEntry:
    """The loaded entry the call names (translated errors otherwise)."""
    entry: IntentRouterConfigEntry = service.async_get_config_entry(
        call.hass, DOMAIN, call.data[ATTR_CONFIG_ENTRY_ID]
    )
    return entry


def _check_device(hass: HomeAssistant, device_id: str | None) -> None:
    """Refuse a device id the device registry does not know."""
    if device_id is not None and dr.async_get(hass).async_get(device_id) is None:
        raise _invalid("unknown_device", device_id=device_id)


async def _async_route(call: ServiceCall) -> ServiceResponse:
    """Handle a text exactly as a spoken turn, and return what happened."""
    hass = call.hass
    entry = _entry(call)
    text = call.data[ATTR_TEXT].strip()
    if not text:
        raise _invalid("empty_text")
    if len(text) > MAX_TEXT_LENGTH:
        raise _invalid("text_too_long", max_length=str(MAX_TEXT_LENGTH))
    device_id: str | None = call.data.get(ATTR_DEVICE_ID)
    _check_device(hass, device_id)
    area_id: str | None = call.data.get(ATTR_AREA_ID)
    if area_id is not None and ar.async_get(hass).async_get_area(area_id) is None:
        raise _invalid("unknown_area", area_id=area_id)

    agent_id = (
        er.async_get(hass).async_get_entity_id(
            conversation.DOMAIN, DOMAIN, entry.entry_id
        )
        or entry.entry_id
    )
    user_input = conversation.ConversationInput(
        text=text,
        context=call.context,
        conversation_id=call.data.get(ATTR_CONVERSATION_ID),
        device_id=device_id,
        satellite_id=None,
        language=hass.config.language,
        agent_id=agent_id,
    )
    # The chat session, chat log and debug trace a spoken turn gets (see
    # conversation's `async_converse` and `ConversationEntity.async_process`).
    with (
        trace.async_conversation_trace() as turn_trace,
        async_get_chat_session(hass, user_input.conversation_id) as session,
        conversation.async_get_chat_log(hass, session, user_input) as chat_log,
    ):
        turn_trace.add_event(
            trace.ConversationTraceEvent(
                trace.ConversationTraceEventType.ASYNC_PROCESS, user_input.as_dict()
            )
        )
        reply = await entry.runtime_data.agent.async_handle(
            user_input,
            chat_log,
            area_id=area_id,
            dry_run=call.data[ATTR_DRY_RUN],
        )
        chat_log.async_add_assistant_content_without_tools(
            conversation.AssistantContent(agent_id=agent_id, content=reply.speech)
        )
        response = _response(reply, chat_log.conversation_id)
        turn_trace.set_result(**response)
    return response


def _response(reply: AgentReply, conversation_id: str) -> dict[str, Any]:
    """The route action's response data: what was planned, done and said."""
    result = reply.result
    plan = result.plan if result else None
    return {
        "speech": reply.speech,
        "outcome": str(result.outcome) if result else None,
        "source": str(result.source) if result else None,
        "confidence": plan.confidence if plan else None,
        "plan": plan.as_dict() if plan else None,
        "results": _results(result) if result else [],
        "continue_conversation": reply.continue_conversation,
        "conversation_id": conversation_id,
    }


def _results(result: TurnResult) -> list[dict[str, Any]]:
    """Each action: tool, targets, whether it worked, and any data it returned."""
    if result.outcomes:
        return [
            {
                "tool": outcome.action.tool,
                "targets": list(outcome.action.targets),
                "ok": outcome.ok,
                "error": outcome.error,
                "result": outcome.result,
            }
            for outcome in result.outcomes
        ]
    # Local intents report what ran as executed actions, not as outcomes.
    return [
        {
            "tool": action.tool,
            "targets": list(action.targets),
            "ok": True,
            "error": None,
            "result": None,
        }
        for action in result.executed
    ]


async def _async_clear_context(call: ServiceCall) -> None:
    """Forget one device's turns, or everyone's, and write that out now.

    Learned commands belong to rooms, not devices: any clear forgets them all.
    """
    entry = _entry(call)
    device_id: str | None = call.data.get(ATTR_DEVICE_ID)
    _check_device(call.hass, device_id)
    context = entry.runtime_data.context
    context.clear(device_id)
    await context.async_flush()
    learned = entry.runtime_data.learned
    learned.clear()
    await learned.async_flush()
