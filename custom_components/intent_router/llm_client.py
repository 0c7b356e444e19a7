"""The only importer of `openai`: one JSON completion per utterance.

Servers differ in what they accept for structured output, so the client tries
`response_format` with a JSON schema first, then JSON object mode, then plain
text (the first JSON object in the reply is taken), and remembers for its
server which mode worked, so only the first request pays for the probing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from http import HTTPStatus
import json
from typing import TYPE_CHECKING, Any, cast

import openai

from homeassistant.helpers.httpx_client import get_async_client

from .const import LOGGER

if TYPE_CHECKING:
    from openai.types import CompletionUsage
    from openai.types.chat import ChatCompletionMessageParam

    from homeassistant.core import HomeAssistant

# A plan is a few hundred bytes; anything far larger is not a plan.
MAX_REPLY_CHARS = 64_000
MAX_COMPLETION_TOKENS = 600
MAX_PHRASE_TOKENS = 120
# Waits before the retries of a failed request (at most three attempts), and
# the least time worth starting another attempt with.
RETRY_BACKOFF = (0.2, 0.6)
MIN_ATTEMPT_TIME = 0.5


class ResponseMode(StrEnum):
    """How the server is asked for JSON, best first."""

    JSON_SCHEMA = "json_schema"
    JSON_OBJECT = "json_object"
    TEXT = "text"


class LLMError(Exception):
    """A model request failed; `reason` is a short class for traces."""

    reason = "error"


class LLMAuthError(LLMError):
    """The server refused the credentials."""

    reason = "auth"


class LLMConnectionError(LLMError):
    """The server could not be reached, timed out or is overloaded."""

    reason = "connection"

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        """Keep the server's Retry-After hint, when it gave one."""
        super().__init__(message)
        self.retry_after = retry_after


class LLMTimeoutError(LLMConnectionError):
    """The server did not answer in time."""

    reason = "timeout"


class LLMResponseError(LLMError):
    """The server answered, but not with something usable."""

    reason = "invalid_response"


@dataclass(slots=True)
class Completion:
    """A parsed JSON reply and what it cost."""

    data: dict[str, Any]
    mode: ResponseMode
    prompt_tokens: int | None
    completion_tokens: int | None


def extract_json_object(text: str) -> dict[str, Any]:
    """Return the first JSON object in `text` (bare, fenced or after prose)."""
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            value, _ = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            start = text.find("{", start + 1)
            continue
        if isinstance(value, dict):
            return value
        start = text.find("{", start + 1)  # pragma: no cover - dicts decode first
    raise LLMResponseError("no JSON object in the model's reply")


def _retry_after(err: openai.APIStatusError) -> float | None:
    """Read a Retry-After header given in seconds."""
    value = err.response.headers.get("retry-after")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


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

    @property
    def sdk_version(self) -> str:
        """The openai SDK version, for diagnostics."""
        return openai.__version__

    async def async_prime(self, hass: HomeAssistant) -> None:
        """Fill the SDK's platform-header cache outside the event loop."""
        await hass.async_add_executor_job(self._client.platform_headers)

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
            content, usage, mode = await self._async_create(
                messages, model, temperature, MAX_COMPLETION_TOKENS, remaining, schema
            )
            return Completion(
                data=extract_json_object(content),
                mode=mode,
                prompt_tokens=usage.prompt_tokens if usage else None,
                completion_tokens=usage.completion_tokens if usage else None,
            )

        return await _async_retrying(attempt, budget)

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
            content, _, _ = await self._async_create(
                messages, model, temperature, MAX_PHRASE_TOKENS, remaining, None
            )
            return content.strip()

        return await _async_retrying(attempt, budget)

    async def _async_create(
        self,
        messages: list[ChatCompletionMessageParam],
        model: str,
        temperature: float,
        max_tokens: int,
        timeout: float,
        schema: dict[str, Any] | None,
    ) -> tuple[str, CompletionUsage | None, ResponseMode]:
        """One chat completion; with a schema, step down response modes."""
        while True:
            mode = self.mode if schema is not None else ResponseMode.TEXT
            try:
                response = await self._client.chat.completions.create(
                    model=model,
                    messages=messages,
                    temperature=temperature,
                    max_tokens=max_tokens,
                    timeout=timeout,
                    **_response_format(mode, schema or {}),
                )
            except (openai.BadRequestError, openai.UnprocessableEntityError) as err:
                if mode is ResponseMode.TEXT:
                    raise LLMResponseError(
                        f"server rejected the request: {err.status_code}"
                    ) from err
                self.mode = _next_mode(mode)
                LOGGER.debug("Server rejected %s mode, trying %s", mode, self.mode)
                continue
            except openai.OpenAIError as err:
                raise _map_error(err) from err
            except (ValueError, RecursionError) as err:  # not JSON, or absurdly deep
                raise LLMResponseError("the reply was not JSON") from err
            break
        if not response.choices:
            raise LLMResponseError("the reply had no choices")
        content = response.choices[0].message.content or ""
        if len(content) > MAX_REPLY_CHARS:
            raise LLMResponseError(f"reply too large ({len(content)} characters)")
        return content, response.usage, mode


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
