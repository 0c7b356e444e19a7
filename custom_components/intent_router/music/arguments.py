"""A music tool's arguments: checked against its schema, kept without blanks."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import voluptuous as vol

from ..deciding.plan import PlanError, Rejection

# A query or a speaker's name, as a model may send it.
NAME = vol.All(str, vol.Strip, vol.Length(min=1, max=200))


def checked(
    schema: Callable[[Any], Any], tool: str, args: Mapping[str, Any]
) -> dict[str, Any]:
    """Arguments through a tool's schema; bad ones reject the plan."""
    try:
        return dict(schema(dict(args)))
    except vol.Invalid as err:
        raise PlanError(Rejection.INVALID_ARGS, f"{tool}: {err}") from err


def given(args: Mapping[str, Any]) -> dict[str, Any]:
    """Arguments without the empty ones, as memory and the prompt show them."""
    return {key: value for key, value in args.items() if value is not None}
