"""The only importer of `openai`: one JSON completion per utterance.

Servers differ in what they accept for structured output, so the client tries
`response_format` with a JSON schema first, then JSON object mode, then plain
text (the first JSON object in the reply is taken), and remembers for its
server which mode worked, so only the first request pays for the probing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from http import HTTPStatus
import json
from typing import TYPE_CHECKING, Any, cast

import openai

from homeassistant.helpers.httpx_client import get_async_client

from .const import LOGGER

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletionMessageParam

    from homeassistant.core import HomeAssistant

# A plan is a few hundred bytes; anything far larger is not a plan.
MAX_REPLY_CHARS = 64_000
MAX_COMPLETION_TOKENS = 600


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

    async def async_prime(self, hass: HomeAssistant) -> None:
        """Fill the SDK's platform-header cache outside the event loop."""
        await hass.async_add_executor_job(self._client.platform_headers)

    async def async_list_models(self, timeout: float) -> list[str]:
        """List the server's model ids; doubles as the connection probe."""
        try:
            page = await self._client.models.list(timeout=timeout)
        except openai.OpenAIError as err:
            raise _map_error(err) from err
        return sorted(model.id for model in page.data)

    async def async_complete_json(
        self,
        messages: list[ChatCompletionMessageParam],
        *,
        model: str,
        temperature: float,
        schema: dict[str, Any],
        timeout: float,
    ) -> Completion:
        """Ask for one JSON object, stepping down response modes as needed."""
        while True:
            mode = self.mode
            try:
                response = await self._client.chat.completions.create(
                    model=model,
                    messages=messages,
                    temperature=temperature,
                    max_tokens=MAX_COMPLETION_TOKENS,
                    timeout=timeout,
                    **_response_format(mode, schema),
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
            break
        if not response.choices:
            raise LLMResponseError("the reply had no choices")
        content = response.choices[0].message.content or ""
        if len(content) > MAX_REPLY_CHARS:
            raise LLMResponseError(f"reply too large ({len(content)} characters)")
        usage = response.usage
        return Completion(
            data=extract_json_object(content),
            mode=mode,
            prompt_tokens=usage.prompt_tokens if usage else None,
            completion_tokens=usage.completion_tokens if usage else None,
        )


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
