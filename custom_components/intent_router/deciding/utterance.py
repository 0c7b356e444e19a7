"""One utterance on its way through the agent, and what it may run into.

The agent's flow (agent.py) hands each step the `Utterance`: what was said,
by whom, and what its memory recalled, fixed before the first step reads
it; what a step finds (the mentions, the grounding) it returns. What the
last turn asked waits in a `Pending`; a device that talks more than a
person does meets the `RateLimiter`.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
import time
from typing import TYPE_CHECKING, Any

from homeassistant.components.conversation import AssistantContent

from ..const import MAX_TEXT_LENGTH
from ..core.llm_reply import (
    LLMAuthError,
    LLMConnectionError,
    LLMError,
    LLMTimeoutError,
    LLMTooSlowError,
)
from ..core.records import Plan
from ..core.said import Said
from ..core.speech import Phrase, Phrasebook, phrase
from ..language import spans, words
from .shortcuts import referred

if TYPE_CHECKING:
    from collections.abc import Collection

    from homeassistant.components.conversation import ChatLog, ConversationInput

    from ..core.records import Turn
    from ..language import Verb

SATELLITE_DOMAIN = "assist_satellite"
# Above this many keys, the rate limiter drops those idle for a window.
RATE_LIMIT_KEYS = 1000
RATE_WINDOW = 60.0
# How long a question ("Do you want me to ...?") stays answerable.
PENDING_SECONDS = 60.0


class ModelFailedError(Exception):
    """The model path gave nothing usable; `key` is the spoken explanation."""

    def __init__(self, key: str, reason: str) -> None:
        """Keep the translation key and the reason class for the trace."""
        super().__init__(reason)
        self.key = key
        self.reason = reason

    @staticmethod
    def of(err: LLMError) -> ModelFailedError:
        """What the user hears of a failed model request."""
        if isinstance(err, LLMAuthError):
            return ModelFailedError("model_auth_failed", err.reason)
        if isinstance(err, LLMTooSlowError):
            # Its measured speed says a plan cannot fit the timeout: say so,
            # retrying will not help (a repair issue offers a timeout).
            return ModelFailedError("model_server_too_slow", err.reason)
        if isinstance(err, LLMTimeoutError):
            # Up, but slow (a CPU model's first, uncached prompt): say so,
            # rather than that it could not be reached.
            return ModelFailedError("model_too_slow", err.reason)
        if isinstance(err, LLMConnectionError):
            return ModelFailedError("model_unavailable", err.reason)
        return ModelFailedError("model_invalid_reply", err.reason)


class SupersededError(Exception):
    """A newer turn of the same key cancelled this turn's model call."""


@dataclass(slots=True, frozen=True)
class Pending:
    """What the last turn asked, answerable by the very next turn only.

    Kept in memory, never stored: a yes after a restart, or a minute later,
    confirms nothing.
    """

    expires: float  # time.monotonic()
    # What was asked about: an answer ("the bedroom one") is read with it.
    request: str
    plan: Plan | None = None  # waiting for a yes
    offered: tuple[str, ...] = ()  # the choices of "which one?"

    @classmethod
    def asked(
        cls, utterance: Utterance, plan: Plan | None, offered: tuple[str, ...]
    ) -> Pending:
        """What a turn that asked a question waits for, for a minute."""
        pending = utterance.recalled.pending
        request = pending.request if pending else utterance.text
        return cls(time.monotonic() + PENDING_SECONDS, request, plan, offered)


@dataclass(slots=True, frozen=True)
class Recalled:
    """What the memory holds for an utterance (step 3)."""

    # This key's recent turns, oldest first.
    history: tuple[Turn, ...] = ()
    # The question its last turn asked, still answerable.
    pending: Pending | None = None
    # What an automation asked when it started this conversation.
    automation: str | None = None


# Trace details too long for the debug view's decision: the model's own
# request (the conversation trace keeps it).
_IN_FULL = frozenset({"model_request"})


@dataclass(slots=True, frozen=True)
class Utterance:
    """One utterance: what was said, by whom, and what memory recalled."""

    user_input: ConversationInput
    chat_log: ChatLog
    # The words, read once: every step takes them from here.
    said: Said
    key: str
    deadline: float
    phrases: Phrasebook
    recalled: Recalled = field(default_factory=Recalled)
    # Set by the `route` action: a room to act for, and plan-only runs.
    area_id: str | None = None
    dry_run: bool = False
    # What the trace says of how the turn was decided, but the model's
    # request in full (conversation.py shows it in the debug view).
    decided: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """What was said, as it was said (stripped)."""
        return self.said.text

    @property
    def language(self) -> str:
        """The language the turn is in."""
        return self.said.language

    @property
    def history(self) -> tuple[Turn, ...]:
        """The recent turns of its key, oldest first."""
        return self.recalled.history

    @property
    def pending(self) -> Pending | None:
        """The question the last turn asked, if it is still answerable."""
        return self.recalled.pending

    @property
    def automation(self) -> str | None:
        """What an automation asked when it started this conversation."""
        return self.recalled.automation

    @property
    def words(self) -> tuple[str, ...]:
        """The words this turn is about, with the question it answers.

        An automation's question and the question the last turn asked ("which
        one?" before "the bedroom one") come first.
        """
        request = self.pending.request if self.pending else None
        asked = words(" ".join(filter(None, (self.automation, request))))
        return (*asked, *self.said.words)

    def last_targets(self, verbs: Collection[Verb] = ()) -> list[str]:
        """What "it" and "them" mean here, for what the verbs said are for.

        Two at least where the words say both ("turn them both off").
        """
        both = spans(list(self.said.words), self.said.spoken.both)
        return referred(self.history, verbs, count=2 if both else 1)

    def say(self, key: str, **placeholders: Any) -> str:
        """A sentence of the integration's, in the turn's language."""
        return self.phrases.say(Phrase(key, placeholders))

    def trace(self, **details: Any) -> None:
        """Add details to Assist's debug trace of this turn."""
        self.chat_log.async_trace(details)
        self.decided.update(
            (key, value) for key, value in details.items() if key not in _IN_FULL
        )


def too_long(text: str) -> Phrase | None:
    """The refusal of a text longer than anyone says in one turn, if it is."""
    if len(text) > MAX_TEXT_LENGTH:
        return phrase("text_too_long", max_length=str(MAX_TEXT_LENGTH))
    return None


class RateLimiter:
    """At most `per_minute` turns a minute for each key (device, user, chat)."""

    def __init__(self, per_minute: int) -> None:
        """Start with no key seen."""
        self._per_minute = per_minute
        self._times: dict[str, deque[float]] = {}

    def allow(self, key: str) -> bool:
        """Count a turn of this key, unless it is one too many."""
        now = time.monotonic()
        if len(self._times) > RATE_LIMIT_KEYS:
            # Keys without a device (chats) come and go: forget the idle ones.
            self._times = {
                other: times
                for other, times in self._times.items()
                if times and now - times[-1] <= RATE_WINDOW
            }
        times = self._times.setdefault(key, deque())
        while times and now - times[0] > RATE_WINDOW:
            times.popleft()
        if len(times) >= self._per_minute:
            return False
        times.append(now)
        return True


class InFlight:
    """The newest turn of each key, and its model call.

    A newer turn of the same device cancels the older one's model call, and
    the older one's plan may no longer run, whichever path the newer takes.
    """

    def __init__(self) -> None:
        """Nothing in flight yet."""
        self._latest: dict[str, Utterance] = {}
        self._calls: dict[str, asyncio.Task[Any]] = {}

    def begin(self, utterance: Utterance) -> None:
        """Make `utterance` its key's newest, superseding the one in flight."""
        self.supersede(utterance.key)
        self._latest[utterance.key] = utterance

    def supersede(self, key: str) -> None:
        """A newer turn of `key` comes: the one in flight yields, plan and call."""
        if (call := self._calls.pop(key, None)) is not None:
            call.cancel()
        self._latest.pop(key, None)

    def in_conversation(self, conversation_id: str) -> list[Utterance]:
        """The turns in flight whose chat log is this conversation's."""
        return [
            utterance
            for utterance in self._latest.values()
            if utterance.chat_log.conversation_id == conversation_id
        ]

    def end(self, utterance: Utterance) -> None:
        """Forget a finished turn (unless a newer one took its place)."""
        if self._latest.get(utterance.key) is utterance:
            del self._latest[utterance.key]

    def is_latest(self, utterance: Utterance) -> bool:
        """Whether no newer turn of the key has begun."""
        return self._latest.get(utterance.key) is utterance

    def calling(self, utterance: Utterance, call: asyncio.Task[Any]) -> None:
        """Note the turn's model call, for a newer turn to cancel."""
        self._calls[utterance.key] = call

    def called(self, utterance: Utterance, call: asyncio.Task[Any]) -> None:
        """Forget a finished model call."""
        if self._calls.get(utterance.key) is call:
            del self._calls[utterance.key]


def automation_question(user_input: ConversationInput, chat_log: ChatLog) -> str | None:
    """What an automation asked when it started this conversation.

    Its extra system prompt, and the satellite's spoken start message when
    that says something else (HA puts it in the chat log).
    """
    asked = user_input.extra_system_prompt
    if not asked:
        return None
    spoken = [
        content.content
        for content in chat_log.content
        if isinstance(content, AssistantContent)
        and content.agent_id.startswith(f"{SATELLITE_DOMAIN}.")
        and content.content
    ]
    if spoken and spoken[-1] not in asked:
        return f"{spoken[-1]} {asked}"
    return asked
