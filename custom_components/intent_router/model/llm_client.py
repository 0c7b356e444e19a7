"""The only importer of `openai`: one JSON completion per utterance.

Servers differ in what they accept for structured output, so the client tries
`response_format` with a JSON schema first, then JSON object mode, then plain
text (the first JSON object in the reply is taken), and remembers for its
server which mode worked, so only the first request pays for the probing.
Only a rejection that is about `response_format` steps down, and the better
mode is tried again later (see `REPROBE_AFTER`).

Whatever the server sends back (HTML, JSON that is not a chat completion,
replies nested or sized to hurt), the result is a reply or an `LLMError`, and
reading it costs time linear in its size.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from http import HTTPStatus
import math
import time
from typing import TYPE_CHECKING, Any, cast

import openai

from homeassistant.helpers.httpx_client import get_async_client

from ..const import LOGGER
from ..core.llm_reply import (
    LLMAuthError,
    LLMConnectionError,
    LLMError,
    LLMResponseError,
    LLMTimeoutError,
    LLMTooSlowError,
    extract_json_object,
)
from ..core.records import encodable
from ..deciding.plan import PLAN_TOKENS
from ..home.outage import Outage
from ..home.server_speed import (
    SPEED_PROBE_TOKENS,
    ServerSpeed,
    measure,
    speed_probe,
    token_count,
)

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletionMessageParam

    from homeassistant.core import HomeAssistant

# A plan is a few hundred bytes; anything far larger is not a plan.
MAX_REPLY_CHARS = 64_000
# A plan's own budget (plan.py): a reply that runs on is cut, not waited for.
MAX_COMPLETION_TOKENS = PLAN_TOKENS
MAX_PHRASE_TOKENS = 120
# Waits before the retries of a failed request (at most three attempts), and
# the least time worth starting another attempt with.
RETRY_BACKOFF = (0.2, 0.6)
MIN_ATTEMPT_TIME = 0.5
# Words of a 400/422 that is about the structured-output request.
RESPONSE_FORMAT_WORDS = ("response_format", "schema", "grammar")
# Seconds after a step-down before the best mode is tried again.
REPROBE_AFTER = 600.0


class ResponseMode(StrEnum):
    """How the server is asked for JSON, best first."""

    JSON_SCHEMA = "json_schema"
    JSON_OBJECT = "json_object"
    TEXT = "text"


@dataclass(slots=True)
class Completion:
    """A parsed JSON reply and what it cost."""

    data: dict[str, Any]
    mode: ResponseMode
    prompt_tokens: int | None
    completion_tokens: int | None
    # Prompt tokens the server read from its cache (OpenAI's `cached_tokens`,
    # which llama.cpp and vLLM report too): a broken prompt prefix shows here.
    cached_prompt_tokens: int | None = None

    @property
    def processed_prompt_tokens(self) -> int | None:
        """Prompt tokens the server had to evaluate for this request."""
        if self.prompt_tokens is None or self.cached_prompt_tokens is None:
            return None
        return self.prompt_tokens - self.cached_prompt_tokens


def _retry_after(err: openai.APIStatusError) -> float | None:
    """The server's Retry-After in seconds, if it is a usable number.

    NaN, infinity and negative values are ignored (the usual backoff applies);
    a finite value too long for the turn is refused by the retry loop.
    """
    value = err.response.headers.get("retry-after")
    try:
        seconds = float(value) if value is not None else math.nan
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


@dataclass(slots=True, frozen=True)
class _Reply:
    """The assistant's text of one chat completion, and what it cost."""

    content: str
    prompt_tokens: int | None
    completion_tokens: int | None
    cached_prompt_tokens: int | None
    mode: ResponseMode


def _encodable_messages(
    messages: list[ChatCompletionMessageParam],
) -> list[ChatCompletionMessageParam]:
    """The messages with text that UTF-8 can carry (see `encodable`)."""
    return [
        cast("ChatCompletionMessageParam", {**message, "content": encodable(content)})
        if isinstance(content := message.get("content"), str)
        else message
        for message in messages
    ]


def _read_reply(response: object, mode: ResponseMode) -> _Reply:
    """The text of a chat completion; anything else is an unusable reply.

    The SDK hands back the body as a string when it is not JSON, and builds
    a completion from any JSON without checking it, so nothing is assumed.
    """
    choices = getattr(response, "choices", None)
    if not isinstance(choices, list) or not choices:
        raise LLMResponseError("the reply was not a chat completion")
    message = getattr(choices[0], "message", None)
    if message is None:
        raise LLMResponseError("the reply had no message")
    content = getattr(message, "content", None) or ""
    if not isinstance(content, str):
        raise LLMResponseError("the reply's content was not text")
    if len(content) > MAX_REPLY_CHARS:
        raise LLMResponseError(f"reply too large ({len(content)} characters)")
    usage = getattr(response, "usage", None)
    details = getattr(usage, "prompt_tokens_details", None)
    return _Reply(
        content,
        token_count(getattr(usage, "prompt_tokens", None)),
        token_count(getattr(usage, "completion_tokens", None)),
        token_count(getattr(details, "cached_tokens", None)),
        mode,
    )


class LLMClient:
    """An OpenAI-compatible server, reached through HA's shared httpx client."""

    def __init__(
        self, hass: HomeAssistant, url: str, api_key: str | None, verify_ssl: bool
    ) -> None:
        """Create the SDK client; call `async_prime` before the first request."""
        self._client = openai.AsyncOpenAI(
            base_url=url,
            # The SDK insists on a key; local servers ignore this placeholder.
            api_key=api_key or "not-needed",
            # openai 3.x types this as its vendored httpx2 client; HA's shared
            # httpx client is what it drives at run time (as core's openai does).
            http_client=cast("Any", get_async_client(hass, verify_ssl=verify_ssl)),
            max_retries=0,
        )
        self.mode = ResponseMode.JSON_SCHEMA
        # When the mode last stepped down (time.monotonic), if it did.
        self._stepped_down_at: float | None = None
        self._outage = Outage(
            "The model server",
            "turns fall back to local sentences until it answers again",
        )
        # The last warm-up's measurement, and who hears of each new one.
        self.speed: ServerSpeed | None = None
        self.on_measured: Callable[[ServerSpeed], None] | None = None

    @property
    def sdk_version(self) -> str:
        """The openai SDK version, for diagnostics."""
        return openai.__version__

    async def async_prime(self, hass: HomeAssistant) -> None:
        """Do the SDK's first-use work outside the event loop.

        Its platform headers read the system, and it imports its resources
        (models, chat completions: hundreds of modules, seconds on a small
        machine) on first access, which would otherwise be in the loop.
        """
        await hass.async_add_import_executor_job(self._prime)

    def _prime(self) -> None:
        """Fill the platform-header cache and load the resources used here."""
        self._client.platform_headers()
        _ = self._client.models, self._client.chat.completions

    async def async_list_models(self, timeout: float) -> list[str]:
        """List the server's model ids; doubles as the connection probe."""
        try:
            page = await self._client.models.list(timeout=timeout)
            ids = [model.id for model in page.data]
        except openai.OpenAIError as err:
            raise _map_error(err) from err
        except (ValueError, TypeError, AttributeError) as err:
            # HTML from a web UI, or JSON that is not a model list: a URL
            # that points somewhere other than the API.
            raise LLMResponseError("the server did not list models") from err
        return sorted(model_id for model_id in ids if isinstance(model_id, str))

    async def async_complete_json(
        self,
        messages: list[ChatCompletionMessageParam],
        *,
        model: str,
        temperature: float,
        schema: dict[str, Any],
        budget: float,
    ) -> Completion:
        """Ask for one JSON object within `budget` seconds, retries included."""

        async def attempt(remaining: float) -> Completion:
            reply = await self._async_create(
                messages, model, temperature, MAX_COMPLETION_TOKENS, remaining, schema
            )
            return Completion(
                data=extract_json_object(reply.content),
                mode=reply.mode,
                prompt_tokens=reply.prompt_tokens,
                completion_tokens=reply.completion_tokens,
                cached_prompt_tokens=reply.cached_prompt_tokens,
            )

        return await self._async_request(attempt, budget)

    async def async_warm_up(
        self,
        messages: list[ChatCompletionMessageParam],
        *,
        model: str,
        timeout: float,
    ) -> None:
        """Have the server process these messages, then time its output.

        No retries and no structured output: a server that caches prompts
        keeps what it processed, which is the point; the first reply is one
        token, unread. The second request, on the now cached prompt and some
        fresh numbers (`speed_probe`), reads those and writes a few tokens
        to time. The figures go to `speed` and `on_measured`.
        """
        sent = _encodable_messages(messages)
        await self._async_raw(sent, model, 1, timeout)
        started = time.monotonic()
        probed = await self._async_raw(
            speed_probe(sent), model, SPEED_PROBE_TOKENS, timeout
        )
        speed = measure(probed, time.monotonic() - started)
        LOGGER.debug("Measured the model server: %s", speed)
        if speed is not None:
            self.speed = speed
            if self.on_measured is not None:
                self.on_measured(speed)

    async def async_cache(
        self,
        messages: list[ChatCompletionMessageParam],
        *,
        model: str,
        timeout: float,
    ) -> None:
        """Have the server read these messages into its prompt cache.

        One token, unread, no retries: what the server processed is the point.
        """
        await self._async_raw(_encodable_messages(messages), model, 1, timeout)

    async def _async_raw(
        self,
        messages: list[ChatCompletionMessageParam],
        model: str,
        max_tokens: int,
        timeout: float,
    ) -> object:
        """One plain chat completion, as the SDK returns it."""
        try:
            return await self._client.chat.completions.create(
                model=model, messages=messages, max_tokens=max_tokens, timeout=timeout
            )
        except openai.OpenAIError as err:
            raise _map_error(err) from err
        except (ValueError, RecursionError) as err:
            raise LLMResponseError("the reply was not JSON") from err

    async def async_complete_text(
        self,
        messages: list[ChatCompletionMessageParam],
        *,
        model: str,
        temperature: float,
        budget: float,
    ) -> str:
        """Ask for a short plain-text answer within `budget` seconds."""

        async def attempt(remaining: float) -> str:
            reply = await self._async_create(
                messages, model, temperature, MAX_PHRASE_TOKENS, remaining, None
            )
            return reply.content.strip()

        return await self._async_request(attempt, budget)

    async def _async_request[T](
        self, attempt: Callable[[float], Awaitable[T]], budget: float
    ) -> T:
        """Run a request with retries; log once when the server goes and comes back.

        Home Assistant's log-when-unavailable rule: one info line when the
        server stops answering (connection refused, timeout, overload after the
        retries) and one when it answers again, not one per turn.
        """
        try:
            result = await _async_retrying(attempt, budget)
        except LLMTimeoutError as err:
            if self.speed is not None and not self.speed.fits(budget):
                # Not an outage: the server is as slow as it was measured.
                raise LLMTooSlowError(str(err)) from err
            self._outage.failed(err.reason)
            raise
        except LLMConnectionError as err:
            self._outage.failed(err.reason)
            raise
        except LLMError:
            self._outage.answered()  # it answered, if not usefully
            raise
        self._outage.answered()
        return result

    def _schema_mode(self) -> ResponseMode:
        """The mode to ask for a schema with: the best one again once in a while.

        The re-probe is timed (`REPROBE_AFTER`, 10 minutes), not counted in
        requests: a server learns structured output by being upgraded or
        restarted, not by traffic, so a clock bounds how long a healthy server
        is asked without a schema however quiet the home is, and costs at most
        one rejected request (answered at once) per step every 10 minutes.
        """
        if (
            self._stepped_down_at is not None
            and time.monotonic() - self._stepped_down_at >= REPROBE_AFTER
        ):
            LOGGER.debug("Trying %s mode again", ResponseMode.JSON_SCHEMA)
            self.mode = ResponseMode.JSON_SCHEMA
            self._stepped_down_at = None
        return self.mode

    def _step_down(self, rejected: ResponseMode) -> None:
        """The server rejected a mode: use the next one (never step back up)."""
        modes = list(ResponseMode)
        lower = _next_mode(rejected)
        if modes.index(lower) > modes.index(self.mode):
            LOGGER.debug("Server rejected %s mode, trying %s", rejected, lower)
            self.mode = lower
        self._stepped_down_at = time.monotonic()

    async def _async_create(
        self,
        messages: list[ChatCompletionMessageParam],
        model: str,
        temperature: float,
        max_tokens: int,
        timeout: float,
        schema: dict[str, Any] | None,
    ) -> _Reply:
        """One chat completion; with a schema, step down response modes."""
        while True:
            mode = self._schema_mode() if schema is not None else ResponseMode.TEXT
            try:
                response = await self._client.chat.completions.create(
                    model=model,
                    messages=_encodable_messages(messages),
                    temperature=temperature,
                    max_tokens=max_tokens,
                    timeout=timeout,
                    **_response_format(mode, schema or {}),
                )
            except (openai.BadRequestError, openai.UnprocessableEntityError) as err:
                if mode is ResponseMode.TEXT or not _about_response_format(err):
                    raise LLMResponseError(
                        f"the model server rejected the request ({err.status_code})"
                    ) from err
                self._step_down(mode)
                continue
            except openai.OpenAIError as err:
                raise _map_error(err) from err
            except (ValueError, RecursionError) as err:  # not JSON, or absurdly deep
                raise LLMResponseError("the reply was not JSON") from err
            return _read_reply(response, mode)


async def _async_retrying[T](
    attempt: Callable[[float], Awaitable[T]], budget: float
) -> T:
    """Run `attempt` within `budget` seconds, retrying what may pass.

    Connection errors, 429 and 5xx are retried with backoff (or after the
    server's Retry-After, when that still fits); a timeout, a 4xx or a bad
    reply is not, since trying again would only repeat it.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + budget
    backoffs = iter(RETRY_BACKOFF)
    while True:
        remaining = deadline - loop.time()
        try:
            async with asyncio.timeout(remaining):
                return await attempt(remaining)
        except TimeoutError as err:
            raise LLMTimeoutError("the model server timed out") from err
        except LLMTimeoutError:
            raise
        except LLMConnectionError as err:
            if (backoff := next(backoffs, None)) is None:
                raise
            delay = backoff if err.retry_after is None else err.retry_after
            if loop.time() + delay + MIN_ATTEMPT_TIME > deadline:
                raise
            LOGGER.debug("Retrying the model request in %.2f s: %s", delay, err)
            await asyncio.sleep(delay)


def _next_mode(mode: ResponseMode) -> ResponseMode:
    """The next, less demanding way to ask for JSON."""
    modes = list(ResponseMode)
    return modes[modes.index(mode) + 1]


def _response_format(mode: ResponseMode, schema: dict[str, Any]) -> dict[str, Any]:
    """The `response_format` keyword for a mode (none for plain text)."""
    if mode is ResponseMode.JSON_SCHEMA:
        return {
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "plan", "schema": schema},
            }
        }
    if mode is ResponseMode.JSON_OBJECT:
        return {"response_format": {"type": "json_object"}}
    return {}


def _about_response_format(err: openai.APIStatusError) -> bool:
    """Whether a 400/422 is about how JSON was asked for, not the request itself."""
    said = f"{err.param or ''} {err.message}".casefold()
    return any(word in said for word in RESPONSE_FORMAT_WORDS)


def _map_error(err: openai.OpenAIError) -> LLMError:
    """Turn an SDK error into one of ours, keeping what retries need."""
    if isinstance(err, openai.APITimeoutError):
        return LLMTimeoutError("the model server timed out")
    if isinstance(err, openai.APIConnectionError):
        return LLMConnectionError("cannot connect to the model server")
    if isinstance(err, (openai.AuthenticationError, openai.PermissionDeniedError)):
        return LLMAuthError(f"the model server refused the API key ({err.status_code})")
    if isinstance(err, openai.APIStatusError):
        if (
            err.status_code == HTTPStatus.TOO_MANY_REQUESTS
            or err.status_code >= HTTPStatus.INTERNAL_SERVER_ERROR
        ):
            return LLMConnectionError(
                f"the model server is busy ({err.status_code})", _retry_after(err)
            )
        return LLMResponseError(f"the model server answered {err.status_code}")
    return LLMResponseError(f"unexpected reply: {type(err).__name__}")
