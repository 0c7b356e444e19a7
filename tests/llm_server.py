"""A real OpenAI-compatible HTTP server whose replies each test scripts.

The integration talks to it through the `openai` SDK over HTTP, so timeouts,
status codes, response parsing and the response-format fallbacks all run for
real. It records every chat request, so tests can assert on the prompt sent.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass
import json
import time
from typing import Any

from aiohttp import web

from custom_components.intent_router.home.server_speed import SPEED_PROBE_TOKENS
from custom_components.intent_router.model.prompt import USER_OPENING

DEFAULT_MODELS = ["test-model", "other-model"]

# A reply delay no test outlives: the server, in effect, never answers. Tests
# of a timeout use it, so what they assert cannot depend on machine speed (if
# the timeout broke, pytest's own timeout would end the test as a failure).
NEVER = 3600.0


class Headers(dict[str, str]):
    """Request headers; lookups ignore case, as HTTP does."""

    def __init__(self, headers: dict[str, str]) -> None:
        """Store the names in lower case."""
        super().__init__((name.lower(), value) for name, value in headers.items())

    def __getitem__(self, name: str) -> str:
        """Look a header up by any spelling of its name."""
        return super().__getitem__(name.lower())

    def __contains__(self, name: object) -> bool:
        """Tell whether a header was sent, by any spelling of its name."""
        return isinstance(name, str) and super().__contains__(name.lower())

    def get(self, name: str, default: Any = None) -> Any:
        """Look a header up by any spelling of its name."""
        return super().get(name.lower(), default)


@dataclass(slots=True, frozen=True)
class _Reply:
    """One scripted answer to a chat completion."""

    content: str | None
    status: int
    delay: float
    headers: dict[str, str] | None
    body: bytes | None
    usage: tuple[int, int] | None
    content_type: str
    cached: int | None = None


# A server that reads 2000 prompt tokens and writes 100 tokens a second.
FAST_TIMINGS = {"prompt_per_second": 2000.0, "predicted_per_second": 100.0}
# One that writes 2 tokens a second (500 ms a token, a small board or a
# busy 2-core box).
SLOW_TIMINGS = {"prompt_per_second": 30.0, "predicted_per_second": 2.0}


def _error(status: int, message: str, **extra: Any) -> web.Response:
    """An error in the shape the OpenAI API uses, which the SDK parses."""
    return web.json_response(
        {"error": {"message": message, "type": "invalid_request_error", **extra}},
        status=status,
    )


class ScriptedLLMServer:
    """An OpenAI-compatible server on 127.0.0.1 that answers from a script."""

    def __init__(self) -> None:
        """Serve the default models and no scripted replies yet."""
        self.url = ""
        self.models: list[str] = list(DEFAULT_MODELS)
        self.models_status = 200
        # Raw bytes for GET /models, for replies the SDK cannot make sense of.
        self.models_body: bytes | None = None
        self.requests: list[dict[str, Any]] = []
        # Requests for a single token: prompt-cache warm-ups, answered at
        # once and kept apart, so they take no scripted reply.
        self.warm_ups: list[dict[str, Any]] = []
        # Single-token requests with a conversation's turns so far: sent
        # after a turn, ahead of the next (planner.py).
        self.follow_ups: list[dict[str, Any]] = []
        # The warm-up's second request, which times the server's output.
        self.speed_probes: list[dict[str, Any]] = []
        # llama.cpp's `timings` for warm-ups and speed probes (None: none,
        # timed by the wall clock); by default a server fast enough for any
        # timeout, so that no test depends on the machine's load.
        self.timings: dict[str, float] | None = dict(FAST_TIMINGS)
        # Seconds a speed probe waits before answering (a slow server).
        self.probe_delay = 0.0
        self.headers: list[dict[str, str]] = []
        self.rejected_formats: set[str] = set()
        self._replies: deque[_Reply] = deque()
        self._received = asyncio.Condition()
        self._runner: web.AppRunner | None = None

    def add_plan(
        self,
        plan: dict[str, Any],
        *,
        delay: float = 0.0,
        usage: tuple[int, int] | None = (100, 20),
        cached: int | None = None,
    ) -> None:
        """Queue a plan, sent as the JSON content of the next reply."""
        self.add_reply(json.dumps(plan), delay=delay, usage=usage, cached=cached)

    def add_reply(
        self,
        content: str | None = None,
        *,
        status: int = 200,
        delay: float = 0.0,
        headers: dict[str, str] | None = None,
        body: bytes | None = None,
        usage: tuple[int, int] | None = (100, 20),
        content_type: str = "application/json",
        cached: int | None = None,
    ) -> None:
        """Queue the answer to the next chat completion.

        `content` becomes the assistant message; a `status` other than 200
        answers an OpenAI-style error instead; `body` is sent as-is (with
        `content_type`), for malformed, truncated, huge or non-JSON replies;
        `delay` waits before answering; `cached` is the prompt tokens the
        usage reports as read from the cache.
        """
        self._replies.append(
            _Reply(content, status, delay, headers, body, usage, content_type, cached)
        )

    async def wait_for_requests(self, count: int) -> None:
        """Wait until `count` chat requests have arrived (a request in flight)."""
        async with self._received:
            await self._received.wait_for(lambda: len(self.requests) >= count)

    async def start(self) -> None:
        """Listen on a free port of 127.0.0.1 (the only host tests may reach)."""
        app = web.Application()
        app.router.add_get("/v1/models", self._handle_models)
        app.router.add_post("/v1/chat/completions", self._handle_chat)
        # Cancel a delayed reply when the client gives up, so that a timed-out
        # request does not hold up the server's shutdown.
        self._runner = web.AppRunner(app, handler_cancellation=True)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}/v1"

    async def stop(self) -> None:
        """Close the port; connections still open are dropped."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _handle_models(self, request: web.Request) -> web.Response:
        """List the scripted models, or fail as scripted."""
        if self.models_status != 200:
            return _error(self.models_status, f"scripted status {self.models_status}")
        if self.models_body is not None:
            return web.Response(body=self.models_body, content_type="application/json")
        return web.json_response(
            {
                "object": "list",
                "data": [
                    {"id": model, "object": "model", "created": 0, "owned_by": "test"}
                    for model in self.models
                ],
            }
        )

    def _single_tokens(
        self, body: dict[str, Any], *, probe: bool
    ) -> list[dict[str, Any]]:
        """Where a request for one or a few tokens is kept."""
        if probe:
            return self.speed_probes
        if body["messages"][-1]["content"] == USER_OPENING:
            return self.warm_ups
        return self.follow_ups

    async def _handle_chat(self, request: web.Request) -> web.Response:
        """Record the request, then answer with the next scripted reply."""
        body = await request.json()
        if body.get("max_tokens") in (1, SPEED_PROBE_TOKENS):
            probe = body["max_tokens"] == SPEED_PROBE_TOKENS
            self._single_tokens(body, probe=probe).append(body)
            if probe and self.probe_delay:
                await asyncio.sleep(self.probe_delay)
            completion = _completion(body, "{", len(self.warm_ups))
            completion["usage"] = {
                "prompt_tokens": 1200,
                "completion_tokens": body["max_tokens"],
                "total_tokens": 1200 + body["max_tokens"],
            }
            if self.timings is not None:
                completion["timings"] = self.timings
            return web.json_response(completion)
        self.requests.append(body)
        self.headers.append(Headers(dict(request.headers)))
        async with self._received:
            self._received.notify_all()
        response_format = body.get("response_format") or {}
        if response_format.get("type") in self.rejected_formats:
            return _error(
                400,
                f"response_format {response_format['type']} is not supported",
                param="response_format",
            )
        if not self._replies:
            return web.json_response(
                {"error": {"message": "no scripted reply"}}, status=500
            )
        reply = self._replies.popleft()
        if reply.delay:
            await asyncio.sleep(reply.delay)
        if reply.body is not None:
            return web.Response(
                body=reply.body,
                status=reply.status,
                headers=reply.headers,
                content_type=reply.content_type,
            )
        if reply.status != 200:
            response = _error(reply.status, f"scripted status {reply.status}")
            response.headers.update(reply.headers or {})
            return response
        completion = _completion(body, reply.content, len(self.requests))
        if reply.usage is not None:
            prompt_tokens, completion_tokens = reply.usage
            completion["usage"] = {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            }
            if reply.cached is not None:
                completion["usage"]["prompt_tokens_details"] = {
                    "cached_tokens": reply.cached
                }
        return web.json_response(completion, headers=reply.headers)


def _completion(body: dict[str, Any], content: str | None, n: int) -> dict[str, Any]:
    """A chat completion with this assistant message."""
    return {
        "id": f"chatcmpl-{n}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", ""),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
    }
