"""The conversation entity: a thin shell that hands each turn to the agent."""

from __future__ import annotations

from typing import Literal

from homeassistant.components import conversation
from homeassistant.components.conversation.models import AbstractConversationAgent
from homeassistant.const import MATCH_ALL
from homeassistant.core import HomeAssistant
from homeassistant.helpers.device_registry import DeviceEntryType, DeviceInfo
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .const import DOMAIN
from .data import IntentRouterConfigEntry
from .services import ROUTE_REQUEST

# The agent serialises nothing per entity; HA may run turns concurrently.
PARALLEL_UPDATES = 0


async def async_setup_entry(
    hass: HomeAssistant,
    entry: IntentRouterConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add the one agent of this model server."""
    async_add_entities([IntentRouterConversationEntity(entry)])


class IntentRouterConversationEntity(
    conversation.ConversationEntity, AbstractConversationAgent
):
    """Intent Router as an Assist conversation agent.

    It always controls the home (that is its purpose), so it declares the
    CONTROL feature without an LLM API being selected, unlike core's agents.
    """

    _attr_has_entity_name = True
    _attr_name = None
    _attr_supported_features = conversation.ConversationEntityFeature.CONTROL

    def __init__(self, entry: IntentRouterConfigEntry) -> None:
        """Identify the entity and its service device by the config entry."""
        self._entry = entry
        self._attr_unique_id = entry.entry_id
        self._attr_device_info = DeviceInfo(
            identifiers={(DOMAIN, entry.entry_id)},
            name=entry.title,
            manufacturer="Intent Router",
            model="OpenAI-compatible model server",
            entry_type=DeviceEntryType.SERVICE,
        )

    @property
    def supported_languages(self) -> Literal["*"]:
        """The model decides which languages it understands."""
        return MATCH_ALL

    async def async_added_to_hass(self) -> None:
        """Also register as the agent of the config entry, as core's agents do."""
        await super().async_added_to_hass()
        conversation.async_set_agent(self.hass, self._entry, self)

    async def async_will_remove_from_hass(self) -> None:
        """Unregister the config entry's agent."""
        conversation.async_unset_agent(self.hass, self._entry)
        await super().async_will_remove_from_hass()

    async def _async_handle_message(
        self,
        user_input: conversation.ConversationInput,
        chat_log: conversation.ChatLog,
    ) -> conversation.ConversationResult:
        """Route the turn and record the reply in the chat log.

        A turn from the `route` action brings a room to act for and whether
        to plan only; its reply goes back to the action too.
        """
        request = ROUTE_REQUEST.get()
        # Only the turn the action started: a conversation its actions start
        # runs without the request.
        ROUTE_REQUEST.set(None)
        reply = await self._entry.runtime_data.agent.async_handle(
            user_input,
            chat_log,
            area_id=request.area_id if request else None,
            dry_run=request.dry_run if request else False,
        )
        if request is not None:
            request.reply = reply
        chat_log.async_add_assistant_content_without_tools(
            conversation.AssistantContent(agent_id=self.entity_id, content=reply.speech)
        )
        return conversation.ConversationResult(
            response=reply.response,
            conversation_id=chat_log.conversation_id,
            continue_conversation=reply.continue_conversation,
        )
