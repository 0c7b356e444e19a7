"""What a model server's reply can be: the errors, and the JSON object in it.

Kept apart from the `openai` client (llm_client.py) so that what the rest of
the integration catches, and how a reply's text is read, import no SDK.
Reading costs time linear in the reply's size, whatever it holds.
"""

from __future__ import annotations

import json
from typing import Any

# How many places a JSON object is looked for in a reply: the first `{`, the
# first one in a fenced block, then the next ones (prose with braces before
# the plan). Each look is one linear pass.
MAX_OBJECT_STARTS = 8
# A plan nests about five deep; far deeper JSON decodes (Python 3.14 allows
# tens of thousands of levels) but would break whatever walks it recursively.
MAX_JSON_DEPTH = 32


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


class LLMTooSlowError(LLMTimeoutError):
    """It timed out, and its measured speed says a plan cannot fit the time."""

    reason = "too_slow"


class LLMResponseError(LLMError):
    """The server answered, but not with something usable."""

    reason = "invalid_response"


def extract_json_object(text: str) -> dict[str, Any]:
    """Return the JSON object in `text`: bare, fenced or after some prose.

    A failed decode stops where the text stops being JSON, so each try is
    linear, and there are at most `MAX_OBJECT_STARTS` of them: a huge reply of
    unclosed braces costs a few passes, not one per brace.
    """
    decoder = json.JSONDecoder()
    for start in _object_starts(text):
        try:
            value, _ = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            continue
        except RecursionError as err:
            raise LLMResponseError("the model's reply is nested too deeply") from err
        if isinstance(value, dict):
            if not _within_depth(value, MAX_JSON_DEPTH):
                raise LLMResponseError("the model's reply is nested too deeply")
            return value
    raise LLMResponseError("no JSON object in the model's reply")


def _within_depth(value: object, limit: int) -> bool:
    """Whether decoded JSON nests at most `limit` deep (walked without recursion)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return False
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
    return True


def _object_starts(text: str) -> list[int]:
    """Where a JSON object may start, most likely first, at most a few."""
    starts = [text.find("{")]
    if (fence := text.find("```")) != -1:
        starts.append(text.find("{", fence))
    position = text.find("{", starts[0] + 1) if starts[0] != -1 else -1
    while position != -1 and len(starts) < MAX_OBJECT_STARTS:
        starts.append(position)
        position = text.find("{", position + 1)
    return [start for start in dict.fromkeys(starts) if start != -1]
