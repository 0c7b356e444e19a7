"""The conversation entity: a thin shell that hands each turn to the agent.

What a turn ran goes into Home Assistant's chat log as core's LLM agents
record theirs: how it was decided and the actions, as (external) tool
calls, each with its result, then the reply. This is the one place a turn
is written there, whichever path answered (HA's sentences, the reading, a
learned command, the model, a shortcut), so Assist's debug view and the
conversation history show what ran and why.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator
from typing import Any, Literal

from homeassistant.components import conversation
from homeassistant.components.conversation.chat_log import current_chat_log
from homeassistant.components.conversation.models import AbstractConversationAgent
from homeassistant.config_entries import ConfigSubentry
from homeassistant.const import MATCH_ALL
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers import llm, start
from homeassistant.helpers.device_registry import DeviceEntryType, DeviceInfo
from homeassistant.helpers.entity_platform import AddConfigEntryEntitiesCallback

from .const import DOMAIN, NAME
from .core.records import encode
from .core.settings import Settings
from .data import IntentRouterConfigEntry
from .services import ROUTE_REQUEST
from .turn.agent import IntentRouterAgent
from .turn.replies import AgentReply

# The agent serialises nothing per entity; HA may run turns concurrently.
PARALLEL_UPDATES = 0
# The external tool call that records how a turn was decided.
DECISION = f"{DOMAIN}.decision"


async def async_setup_entry(
    hass: HomeAssistant,
    entry: IntentRouterConfigEntry,
    async_add_entities: AddConfigEntryEntitiesCallback,
) -> None:
    """Add one conversation entity per agent (config subentry)."""
    for agent_id, agent in entry.runtime_data.agents.items():
        async_add_entities(
            [
                IntentRouterConversationEntity(
                    entry, entry.subentries[agent_id], agent.agent
                )
            ],
            config_subentry_id=agent_id,
        )


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

    def __init__(
        self,
        entry: IntentRouterConfigEntry,
        subentry: ConfigSubentry,
        agent: IntentRouterAgent,
    ) -> None:
        """Identify the entity and its service device by the agent's subentry."""
        self._entry = entry
        self._agent = agent
        # Each conversation's newest turn here, done when it has ended.
        self._turns: dict[str, asyncio.Future[None]] = {}
        self._attr_unique_id = subentry.subentry_id
        self._attr_device_info = DeviceInfo(
            identifiers={(DOMAIN, subentry.subentry_id)},
            name=subentry.title,
            manufacturer=NAME,
            model=Settings.from_options(subentry.data).model,
            entry_type=DeviceEntryType.SERVICE,
        )

    @property
    def supported_languages(self) -> Literal["*"]:
        """The model decides which languages it understands."""
        return MATCH_ALL

    async def async_added_to_hass(self) -> None:
        """Also register as the agent of the config entry, as core's agents do.

        With several agents on one server, the entry id names the last one
        set up; the entity id names each.
        """
        await super().async_added_to_hass()
        conversation.async_set_agent(self.hass, self._entry, self)
        self.async_on_remove(start.async_at_started(self.hass, self._prepare_at_start))

    @callback
    def _prepare_at_start(self, hass: HomeAssistant) -> None:
        """Have HA's sentences loaded before the first typed turn needs them.

        Voice pipelines prepare the agent when a wake word is heard; a turn
        typed in the Assist dialog or sent by an automation is not prepared,
        and would otherwise wait seconds for the tables to load.
        """
        self._entry.async_create_background_task(
            hass, self.async_prepare(), f"{DOMAIN} prepare HA's sentences"
        )

    async def async_prepare(self, language: str | None = None) -> None:
        """Load HA's own sentences for the language: every turn matches them first."""
        await conversation.async_prepare_agent(
            self.hass,
            conversation.HOME_ASSISTANT_AGENT,
            language or self.hass.config.language,
        )

    async def async_will_remove_from_hass(self) -> None:
        """Unregister the config entry's agent."""
        conversation.async_unset_agent(self.hass, self._entry)
        await super().async_will_remove_from_hass()

    async def async_process(
        self, user_input: conversation.ConversationInput
    ) -> conversation.ConversationResult:
        """One turn of a conversation at a time; a newer one takes over.

        Home Assistant (2026.11 on) refuses a message while a turn of its
        conversation holds the chat log ("busy"). A newer turn here of the
        same device supersedes ours in flight (agent.py), waits for it to
        end, and then opens the log; one of another device waits its turn.
        """
        conversation_id = user_input.conversation_id
        holder = current_chat_log.get()
        if conversation_id is None or (
            holder is not None and holder.conversation_id == conversation_id
        ):
            # A new conversation, or the caller holds its log already (a
            # pipeline, or an action of the turn in flight): nothing to wait for.
            return await super().async_process(user_input)
        older = self._turns.get(conversation_id)
        ended: asyncio.Future[None] = self.hass.loop.create_future()
        self._turns[conversation_id] = ended
        try:
            if older is not None:
                self._agent.supersede(user_input, conversation_id)
                await asyncio.wait([older])
            return await super().async_process(user_input)
        finally:
            ended.set_result(None)
            if self._turns.get(conversation_id) is ended:
                del self._turns[conversation_id]

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
        reply = await self._agent.async_handle(
            user_input,
            chat_log,
            area_id=request.area_id if request else None,
            dry_run=request.dry_run if request else False,
        )
        if request is not None:
            request.reply = reply
        # As deltas, as core's agents stream theirs: Assist's debug view
        # shows them (pipeline intent-progress events). Silence is no delta:
        # it is added as it is, or the log would say "(no response)".
        *streamed, said = chat_log_content(self.entity_id, reply)
        async for _ in chat_log.async_add_delta_content_stream(
            self.entity_id, _as_deltas([*streamed, said] if reply.speech else streamed)
        ):
            pass
        if not reply.speech:
            chat_log.async_add_assistant_content_without_tools(said)
        return conversation.ConversationResult(
            response=reply.response,
            conversation_id=chat_log.conversation_id,
            continue_conversation=reply.continue_conversation,
        )


def chat_log_content(
    agent_id: str, reply: AgentReply
) -> list[conversation.AssistantContent | conversation.ToolResultContent]:
    """A turn as the chat log holds it: the decision and what ran, then the reply.

    All are external tool calls (the agent ran them, the chat log does
    not). First `intent_router.decision`: what answered (HA's sentences,
    the reading, a learned command, the model), the options and the pick,
    the plan and why each target counted, as the turn's trace says them.
    Then each service call: the service, `entity_id` and its data, with
    whether it worked, why not, and what the service returned. A turn HA's
    own sentences answered has its intent call there already: HA records it.
    """
    result = reply.result
    # HA's own sentences wrote their intent call and its result themselves.
    ran = result.ran() if result and result.response is None else []
    called: list[tuple[llm.ToolInput, dict[str, Any], bool]] = []
    if reply.decision:
        decided = encode(reply.decision)
        called.append(
            (
                llm.ToolInput(tool_name=DECISION, tool_args=decided, external=True),
                {"source": decided["source"], "outcome": decided["outcome"]},
                True,
            )
        )
    for action, ended in ran:
        data: dict[str, Any] = {"success": ended.ok}
        if ended.error is not None:
            data["error"] = ended.error
        if ended.result is not None:
            data["result"] = encode(ended.result)
        call = llm.ToolInput(
            tool_name=action.tool,
            tool_args={"entity_id": list(action.targets), **encode(action.args)},
            external=True,
        )
        called.append((call, data, ended.ok))
    content: list[conversation.AssistantContent | conversation.ToolResultContent] = []
    if called:
        calls = [call for call, _, _ in called]
        content.append(conversation.AssistantContent(agent_id, tool_calls=calls))
    content.extend(
        conversation.ToolResultContent(
            agent_id=agent_id,
            tool_call_id=call.id,
            tool_name=call.tool_name,
            result=llm.ToolResult(data, error=not ok),
        )
        for call, data, ok in called
    )
    content.append(conversation.AssistantContent(agent_id, content=reply.speech))
    return content


async def _as_deltas(
    content: list[conversation.AssistantContent | conversation.ToolResultContent],
) -> AsyncGenerator[
    conversation.AssistantContentDeltaDict | conversation.ToolResultContentDeltaDict
]:
    """The chat log's content as the deltas of a stream, one message each."""
    for item in content:
        if isinstance(item, conversation.ToolResultContent):
            yield conversation.ToolResultContentDeltaDict(
                role="tool_result",
                tool_call_id=item.tool_call_id,
                tool_name=item.tool_name,
                result=item.result,
            )
        else:
            yield conversation.AssistantContentDeltaDict(role="assistant")
            if item.tool_calls:
                yield conversation.AssistantContentDeltaDict(tool_calls=item.tool_calls)
            if item.content:
                yield conversation.AssistantContentDeltaDict(content=item.content)
