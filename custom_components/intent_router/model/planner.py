"""The model's part of a turn (steps 7 and 11), and keeping its cache warm.

A small model on a CPU spends most of a turn on the prompt unless the server
has it cached. Servers cache the processed prompt up to the first changed
byte, so the prompt's stable part (rules, tools, entities) is the same for
every turn, satellite and area (prompt.py), and this module sends it once at
set-up, and again when it changes, as a request for a single token: the
first spoken turn then pays only for its own words. After each turn it sends
the conversation so far the same way, so a model turn after turns answered
without the model does not read them all anew.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Collection, Iterable, Sequence
from datetime import datetime
import hashlib
import json
from typing import TYPE_CHECKING, Any

from homeassistant.components.conversation import DOMAIN as CONVERSATION_DOMAIN
from homeassistant.components.homeassistant.exposed_entities import (
    async_listen_entity_updates,
)
from homeassistant.const import EVENT_STATE_CHANGED
from homeassistant.core import (
    CALLBACK_TYPE,
    CoreState,
    Event,
    EventStateChangedData,
    callback,
)
from homeassistant.helpers import (
    area_registry as ar,
    entity_registry as er,
    floor_registry as fr,
)
from homeassistant.helpers.debounce import Debouncer
from homeassistant.helpers.event import async_call_later
from homeassistant.helpers.start import async_at_started

from ..const import DOMAIN, LOGGER
from ..core.llm_reply import LLMAuthError, LLMError
from ..deciding.plan import PlanError, choice_json_schema, parse_plan, plan_json_schema
from ..deciding.targets.placed import pointed_at
from ..deciding.utterance import ModelFailedError, SupersededError
from ..home.catalog import Catalog, async_build_catalog
from ..reading.reading import Reading
from ..reading.senses import sense_bridges
from .llm_client import Completion, LLMClient
from .prompt import (
    USER_OPENING,
    build_choice_messages,
    build_messages,
    build_phrase_messages,
    choice_system,
    conversation_so_far,
    estimate_tokens,
)

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletionMessageParam

    from homeassistant.core import HomeAssistant

    from ..core.records import Plan, Turn
    from ..core.settings import Settings
    from ..deciding.utterance import InFlight, Utterance
    from ..home.tools import ToolSource

# A warm-up processes the whole prompt: on a small CPU that is tens of
# seconds, and nobody waits for it.
WARM_UP_TIMEOUT = 180.0
# Registry edits come in bursts (a device added, renamed, moved).
WARM_UP_DELAY = 10.0
# A person's pause after a reply: the conversation is sent ahead only then.
# A turn said sooner reads it itself, not queued behind it (one server slot).
FOLLOW_DELAY = 2.0


class Planner:
    """Asks the model for plans and phrasings; warms its prompt cache."""

    def __init__(
        self,
        hass: HomeAssistant,
        client: LLMClient,
        settings: Settings,
        tool_sources: Iterable[ToolSource],
        in_flight: InFlight,
        on_auth_failed: Callable[[], None],
    ) -> None:
        """Keep the collaborators; nothing is warmed until `async_start`."""
        self._hass = hass
        self._client = client
        self._settings = settings
        self._tool_sources = tuple(tool_sources)
        self._in_flight = in_flight
        self._on_auth_failed = on_auth_failed
        # A digest of the stable part last sent, warmed or by a turn.
        self._warmed: str | None = None
        self._warming: asyncio.Task[None] | None = None
        # The conversation to send ahead once the pause is long enough, and
        # the last one sent (one at a time).
        self._follow_later: CALLBACK_TYPE | None = None
        self._following: asyncio.Task[None] | None = None
        self._debouncer = Debouncer(
            hass,
            LOGGER,
            cooldown=WARM_UP_DELAY,
            immediate=False,
            function=self._warm_up_if_changed,
        )

    @callback
    def async_start(self) -> CALLBACK_TYPE:
        """Warm the cache now and whenever the stable part may have changed.

        Returns the function that stops watching. Renames, areas, floors,
        exposure and entities coming or going change the stable part; state
        changes do not (states go after it).
        """
        if not self._settings.use_llm:
            return lambda: None
        schedule = self._debouncer.async_schedule_call

        @callback
        def started(_: HomeAssistant) -> None:
            # At boot, entities keep coming for a while: warm once they have.
            self._warm_up_if_changed()

        @callback
        def changed(_: Event[Any]) -> None:
            schedule()

        @callback
        def added_or_removed(event: Event[EventStateChangedData]) -> None:
            if event.data["old_state"] is None or event.data["new_state"] is None:
                schedule()

        stops = [async_at_started(self._hass, started)]
        stops.extend(
            self._hass.bus.async_listen(event_type, changed)
            for event_type in (
                er.EVENT_ENTITY_REGISTRY_UPDATED,
                ar.EVENT_AREA_REGISTRY_UPDATED,
                fr.EVENT_FLOOR_REGISTRY_UPDATED,
            )
        )
        stops.append(self._hass.bus.async_listen(EVENT_STATE_CHANGED, added_or_removed))
        stops.append(
            async_listen_entity_updates(self._hass, CONVERSATION_DOMAIN, schedule)
        )

        @callback
        def stop() -> None:
            for unsubscribe in stops:
                unsubscribe()
            self._debouncer.async_shutdown()
            self._hold_follow()
            for task in (self._warming, self._following):
                if task is not None:
                    task.cancel()

        return stop

    @callback
    def _warm_up_if_changed(self) -> None:
        """Start a warm-up in the background (one at a time), once HA runs."""
        if self._hass.state is not CoreState.running:
            return
        if self._warming is not None and not self._warming.done():
            self._warming.cancel()
        self._warming = self._hass.async_create_background_task(
            self._async_warm_up(), f"{DOMAIN} prompt cache warm-up"
        )

    async def _async_warm_up(self) -> None:
        """Send the stable part for one token, unless the server has it.

        The reading's table of the home's names said in other languages
        (senses.py) is built too, off the event loop: in a home of a
        thousand entities the next turn would hold the loop ~0.4 s for it.
        """
        language = self._hass.config.language
        catalog = await async_build_catalog(
            self._hass,
            (),
            language,
            None,
            self._settings.allowed_domains,
            (),
            self._tool_sources,
        )
        await self._hass.async_add_executor_job(
            sense_bridges, catalog.all_names(), language
        )
        system: ChatCompletionMessageParam = {
            "role": "system",
            "content": choice_system(self._settings.extra_instructions),
        }
        digest = _digest(system)
        if digest == self._warmed:
            return
        try:
            # With how every user message starts, so the chat template's turn
            # marker after the system part is cached too.
            await self._client.async_warm_up(
                [system, {"role": "user", "content": USER_OPENING}],
                model=self._settings.model,
                timeout=WARM_UP_TIMEOUT,
            )
        except LLMError as err:
            LOGGER.debug("Could not warm the model server's prompt cache: %s", err)
            return
        self._warmed = digest
        LOGGER.debug("Warmed the model server's prompt cache")

    @callback
    def async_follow(
        self, utterance: Utterance, recall: Callable[[], Sequence[Turn]]
    ) -> None:
        """After a turn, have the server read the conversation so far.

        A turn answered without the model never sent its words, so a model
        turn after it would read every earlier turn anew: on a small CPU,
        seconds (four turns are ~150 tokens at ~60 a second). Read while
        the user is silent (after `FOLLOW_DELAY`), the next turn pays only
        for its own part. Only on a server the warm-up measured reading
        slowly: a fast one gains nothing, a cloud one bills it.
        """
        speed = self._client.speed
        if not (self._settings.use_llm and speed and speed.reads_slowly()):
            return
        self._hold_follow()
        if self._following is not None and not self._following.done():
            self._following.cancel()

        @callback
        def send(_: datetime) -> None:
            # The turns are read back now, off the turn's own path.
            self._follow_later = None
            if not (history := recall()):
                return
            self._following = self._hass.async_create_background_task(
                self._async_follow(utterance, history),
                f"{DOMAIN} conversation warm-up",
            )

        self._follow_later = async_call_later(self._hass, FOLLOW_DELAY, send)

    @callback
    def _hold_follow(self) -> None:
        """What waits to be sent ahead is not sent: a turn came first."""
        if self._follow_later is not None:
            self._follow_later()
            self._follow_later = None

    async def _async_follow(
        self, utterance: Utterance, history: Sequence[Turn]
    ) -> None:
        """Send the conversation so far for one token; a failure costs nothing."""
        catalog = await async_build_catalog(
            self._hass,
            (),
            utterance.language,
            utterance.user_input.device_id,
            self._settings.allowed_domains,
            (),
            self._tool_sources,
            utterance.area_id,
        )
        messages = conversation_so_far(
            catalog,
            history,
            self._settings.extra_instructions,
            utterance.language,
            utterance.automation,
        )
        try:
            await self._client.async_cache(
                messages, model=self._settings.model, timeout=WARM_UP_TIMEOUT
            )
        except LLMError as err:
            LOGGER.debug("Could not send the conversation ahead: %s", err)

    async def async_plan(
        self, utterance: Utterance, catalog: Catalog, reading: Reading
    ) -> Completion:
        """Step 7: one model call within the budget; a newer turn cancels it.

        The model gets what the reading understood and what it left open.
        """
        settings = self._settings
        mentions = reading.mentions
        messages = build_messages(
            catalog,
            utterance.text,
            utterance.history,
            settings.extra_instructions,
            utterance.language,
            utterance.automation,
            pointed_at(mentions, catalog, utterance.last_targets(reading.verbs)),
            reading,
        )
        utterance.trace(
            entities_sent=len(catalog.entities),
            services_sent=len(catalog.services),
        )
        schema = plan_json_schema(catalog, mentions.entities, mentions.kinds)
        return await self._async_call(utterance, messages, schema)

    async def async_choose(
        self,
        utterance: Utterance,
        catalog: Catalog,
        options: Sequence[str],
        *,
        open_values: Collection[int],
        open_words: Collection[int],
    ) -> Completion:
        """Step 7 with the reading's options: the model picks one (options.py).

        `options` are numbered from 1, the last "none of these"; those of
        `open_values` and `open_words` (their numbers) leave a number or
        words for the model to fill in.
        """
        messages = build_choice_messages(
            catalog,
            utterance.text,
            utterance.history,
            self._settings.extra_instructions,
            utterance.language,
            utterance.automation,
            options,
        )
        schema = choice_json_schema(
            len(options), open_values=open_values, open_words=open_words
        )
        return await self._async_call(utterance, messages, schema)

    async def _async_call(
        self,
        utterance: Utterance,
        messages: list[ChatCompletionMessageParam],
        schema: dict[str, Any],
    ) -> Completion:
        """One request within the turn's budget; a newer turn cancels it."""
        self._hold_follow()
        settings = self._settings
        # This utterance puts the stable part into the server's cache itself.
        self._warmed = _digest(messages[0])
        # The request as sent, as core's LLM agents trace theirs.
        utterance.trace(
            history_turns=len(utterance.history),
            prompt_tokens_estimate=estimate_tokens(messages),
            model_request={"model": settings.model, "messages": messages},
        )
        call = self._hass.async_create_task(
            self._client.async_complete_json(
                messages,
                model=settings.model,
                temperature=settings.temperature,
                schema=schema,
                budget=self.remaining(utterance),
            ),
            f"{DOMAIN} model call",
            eager_start=False,
        )
        self._in_flight.calling(utterance, call)
        try:
            completion = await call
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if call.cancelled() and current is not None and not current.cancelling():
                raise SupersededError from None
            raise
        except LLMError as err:
            utterance.trace(model_error=err.reason)
            if isinstance(err, LLMAuthError):
                self._on_auth_failed()
            raise ModelFailedError.of(err) from err
        except Exception as err:
            # The model server is untrusted input: whatever its reply makes
            # the SDK raise, the turn falls back and the user hears why.
            LOGGER.exception("Unexpected error while asking the model")
            raise ModelFailedError("model_invalid_reply", "unexpected") from err
        finally:
            self._in_flight.called(utterance, call)
        utterance.trace(
            response_mode=completion.mode,
            prompt_tokens=completion.prompt_tokens,
            completion_tokens=completion.completion_tokens,
            processed_prompt_tokens=completion.processed_prompt_tokens,
        )
        return completion

    async def async_phrase(
        self, utterance: Utterance, results: list[dict[str, Any]]
    ) -> str | None:
        """Step 11: data a tool returned, in words; None when the call fails."""
        utterance.trace(phrasing=[r["tool"] for r in results])
        try:
            return (
                await self._client.async_complete_text(
                    build_phrase_messages(
                        utterance.text, json.dumps(results, default=str)
                    ),
                    model=self._settings.model,
                    temperature=self._settings.temperature,
                    budget=self.remaining(utterance),
                )
                or None
            )
        except LLMError as err:
            utterance.trace(phrasing_error=err.reason)
            return None

    def remaining(self, utterance: Utterance) -> float:
        """Seconds left of the turn's budget."""
        return max(utterance.deadline - self._hass.loop.time(), 0.0)


def _digest(message: Any) -> str:
    """A short fingerprint of a message, to tell whether the prefix changed."""
    return hashlib.sha256(str(message.get("content")).encode()).hexdigest()


def parse_completion(completion: Completion) -> Plan:
    """The model's JSON as a Plan; a malformed one is a model failure."""
    try:
        plan = parse_plan(completion.data)
    except PlanError as err:
        raise ModelFailedError("model_invalid_reply", str(err.rejection)) from err
    return plan
