"""Actions for automations: `route` a text like a spoken turn, `clear_context`.

Both are registered once, in `async_setup`, and name their agent by its
conversation entity (as `conversation.process` names its agent), so they
exist (and fail with a translated message) whether or not the agent's entry
is loaded. Input is checked before anything runs: bad input changes nothing.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import voluptuous as vol

from homeassistant.components import conversation
from homeassistant.const import ATTR_AREA_ID, ATTR_DEVICE_ID
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

from .const import DOMAIN
from .core.records import encode
from .deciding.utterance import too_long

if TYPE_CHECKING:
    from .data import AgentData, IntentRouterConfigEntry
    from .turn.replies import AgentReply

SERVICE_ROUTE = "route"
SERVICE_CLEAR_CONTEXT = "clear_context"
ATTR_AGENT_ID = "agent_id"
ATTR_TEXT = "text"
ATTR_CONVERSATION_ID = "conversation_id"
ATTR_DRY_RUN = "dry_run"

ROUTE_SCHEMA = vol.Schema(
    {
        vol.Required(ATTR_AGENT_ID): cv.entity_id,
        vol.Required(ATTR_TEXT): cv.string,
        vol.Optional(ATTR_DEVICE_ID): cv.string,
        vol.Optional(ATTR_AREA_ID): cv.string,
        vol.Optional(ATTR_CONVERSATION_ID): cv.string,
        vol.Optional(ATTR_DRY_RUN, default=False): cv.boolean,
    }
)
CLEAR_CONTEXT_SCHEMA = vol.Schema(
    {
        vol.Required(ATTR_AGENT_ID): cv.entity_id,
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


def _agent(call: ServiceCall) -> AgentData:
    """The agent the call names by its entity, loaded (translated errors otherwise).

    An entity of another integration, or one whose agent is disabled or
    gone, is no Intent Router agent to use.
    """
    agent_id: str = call.data[ATTR_AGENT_ID]
    registered = er.async_get(call.hass).async_get(agent_id)
    if (
        registered is None
        or registered.platform != DOMAIN
        or registered.config_entry_id is None
        or registered.disabled
    ):
        raise _invalid("unknown_agent", agent_id=agent_id)
    entry: IntentRouterConfigEntry = service.async_get_config_entry(
        call.hass, DOMAIN, registered.config_entry_id
    )
    agent = entry.runtime_data.agents.get(registered.config_subentry_id or "")
    if agent is None:
        raise _invalid("unknown_agent", agent_id=agent_id)
    return agent


def _check_device(hass: HomeAssistant, device_id: str | None) -> None:
    """Refuse a device id the device registry does not know."""
    if device_id is not None and dr.async_get(hass).async_get(device_id) is None:
        raise _invalid("unknown_device", device_id=device_id)


@dataclass(slots=True)
class RouteRequest:
    """What the `route` action asks of the agent beyond the text, and its reply.

    Carried to the conversation entity through `conversation.async_converse`
    in a context variable, since a conversation input has no room for it.
    """

    area_id: str | None
    dry_run: bool
    reply: AgentReply | None = None


ROUTE_REQUEST: ContextVar[RouteRequest | None] = ContextVar(
    f"{DOMAIN}_route_request", default=None
)


async def _async_route(call: ServiceCall) -> ServiceResponse:
    """Handle a text exactly as a spoken turn, and return what happened."""
    hass = call.hass
    _agent(call)  # loaded, and Intent Router's
    text = call.data[ATTR_TEXT].strip()
    if not text:
        raise _invalid("empty_text")
    if (refusal := too_long(text)) is not None:
        # Refused as a spoken turn would be, as an error in the caller's input.
        raise _invalid(refusal.key, **refusal.texts())
    device_id: str | None = call.data.get(ATTR_DEVICE_ID)
    _check_device(hass, device_id)
    area_id: str | None = call.data.get(ATTR_AREA_ID)
    if area_id is not None and ar.async_get(hass).async_get_area(area_id) is None:
        raise _invalid("unknown_area", area_id=area_id)

    request = RouteRequest(area_id, call.data[ATTR_DRY_RUN])
    token = ROUTE_REQUEST.set(request)
    try:
        # The chat session, chat log and debug trace of a spoken turn.
        result = await conversation.async_converse(
            hass,
            text,
            call.data.get(ATTR_CONVERSATION_ID),
            call.context,
            agent_id=call.data[ATTR_AGENT_ID],
            device_id=device_id,
        )
    finally:
        ROUTE_REQUEST.reset(token)
    return _response(request.reply, result)


def _response(
    reply: AgentReply | None, result: conversation.ConversationResult
) -> dict[str, Any]:
    """The route action's response data: what was planned, done and said."""
    turn = reply.result if reply else None
    plan = turn.plan if turn else None
    return {
        "speech": reply.speech if reply else _speech(result),
        "outcome": str(turn.outcome) if turn else None,
        "source": str(turn.source) if turn else None,
        "confidence": plan.confidence if plan else None,
        "plan": encode(plan) if plan else None,
        "results": encode(turn.results()) if turn else [],
        "continue_conversation": result.continue_conversation,
        "conversation_id": result.conversation_id,
    }


def _speech(result: conversation.ConversationResult) -> str:
    """The plain speech of a conversation result."""
    return str(result.response.speech.get("plain", {}).get("speech", ""))


async def _async_clear_context(call: ServiceCall) -> None:
    """Forget one device's turns with this agent, or everyone's, and save now.

    Learned commands belong to rooms, not devices: any clear forgets all of
    the agent's. Other agents keep theirs.
    """
    agent = _agent(call)
    device_id: str | None = call.data.get(ATTR_DEVICE_ID)
    _check_device(call.hass, device_id)
    context = agent.context
    context.clear(device_id)
    await context.async_flush()
    learned = agent.learned
    learned.clear()
    await learned.async_flush()
