"""One utterance on its way through the agent, and what it may run into.

The agent's flow (agent.py) passes an `Utterance` from step to step; what
the last turn asked waits in a `Pending`; a device that talks more than a
person does meets the `RateLimiter`.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
import time
from typing import TYPE_CHECKING, Any

from homeassistant.components.conversation import AssistantContent

from .gate import Grounded, last_acted
from .grounding import Mentions, find_mentions
from .llm_client import LLMAuthError, LLMConnectionError, LLMError, LLMTimeoutError
from .plan import Plan
from .speech import Phrase, Phrasebook

if TYPE_CHECKING:
    from homeassistant.components.conversation import ChatLog, ConversationInput

    from .catalog import Catalog
    from .context_store import Turn

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
        cls, turn: Utterance, plan: Plan | None, offered: tuple[str, ...]
    ) -> Pending:
        """What a turn that asked a question waits for, for a minute."""
        request = turn.pending.request if turn.pending else turn.text
        return cls(time.monotonic() + PENDING_SECONDS, request, plan, offered)


@dataclass(slots=True)
class Utterance:
    """One utterance on its way through the flow."""

    user_input: ConversationInput
    chat_log: ChatLog
    text: str
    key: str
    deadline: float
    phrases: Phrasebook
    # Set by the `route` action: a room to act for, and plan-only runs.
    area_id: str | None = None
    dry_run: bool = False
    # Step 3: this key's recent turns, and the question its last turn asked.
    history: list[Turn] = field(default_factory=list)
    pending: Pending | None = None
    # What an automation asked when it started this conversation (step 3).
    automation: str | None = None
    # What the words point at, once the catalog is known (steps 7 and 10).
    mentions: Mentions | None = None
    # Why each target is grounded, once the gate has checked (step 9).
    grounded: Grounded | None = None

    @property
    def words(self) -> str:
        """The words this turn is about, with the question it answers.

        An automation's question and the question the last turn asked ("which
        one?" before "the bedroom one") come first.
        """
        request = self.pending.request if self.pending else None
        return " ".join(filter(None, (self.automation, request, self.text)))

    @property
    def last_targets(self) -> list[str]:
        """What the conversation last acted on ("it", "them")."""
        acted = last_acted(self.history)
        return [t for a in acted.actions for t in a.targets] if acted else []

    def mentions_in(self, catalog: Catalog) -> Mentions:
        """What the turn's words point at in this catalog, read once."""
        if self.mentions is None:
            self.mentions = find_mentions(self.words, self.user_input.language, catalog)
        return self.mentions

    def say(self, key: str, **placeholders: Any) -> str:
        """A sentence of the integration's, in the turn's language."""
        return self.phrases.say(Phrase(key, placeholders))

    def trace(self, **details: Any) -> None:
        """Add details to Assist's debug trace of this turn."""
        self.chat_log.async_trace(details)


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
        self._turns: dict[str, Utterance] = {}
        self._calls: dict[str, asyncio.Task[Any]] = {}

    def begin(self, turn: Utterance) -> None:
        """Make `turn` its key's newest, superseding the one in flight."""
        if (call := self._calls.pop(turn.key, None)) is not None:
            call.cancel()
        self._turns[turn.key] = turn

    def end(self, turn: Utterance) -> None:
        """Forget a finished turn (unless a newer one took its place)."""
        if self._turns.get(turn.key) is turn:
            del self._turns[turn.key]

    def is_latest(self, turn: Utterance) -> bool:
        """Whether no newer turn of the key has begun."""
        return self._turns.get(turn.key) is turn

    def calling(self, turn: Utterance, call: asyncio.Task[Any]) -> None:
        """Note the turn's model call, for a newer turn to cancel."""
        self._calls[turn.key] = call

    def called(self, turn: Utterance, call: asyncio.Task[Any]) -> None:
        """Forget a finished model call."""
        if self._calls.get(turn.key) is call:
            del self._calls[turn.key]


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
