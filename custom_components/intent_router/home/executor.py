"""Runs validated actions and says honestly what happened.

Every service call is blocking and carries the user's Context, so logbook
and permissions see who asked. Actions on different entities run at once,
each within its own time budget; actions that share an entity run in the
order the plan gives (turn on, then set brightness).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from homeassistant.const import ATTR_ENTITY_ID
from homeassistant.core import Context, HomeAssistant, State, SupportsResponse
from homeassistant.exceptions import (
    HomeAssistantError,
    ServiceNotFound,
    ServiceValidationError,
)

from ..const import LOGGER
from ..core.domains import domain_info
from ..core.records import Action, ExecutedAction, PriorState
from ..core.speech import HomeRefusal, Phrase
from .tools import Tool


@dataclass(slots=True, frozen=True)
class ActionOutcome:
    """One action and how it ended (`error` is None when it worked)."""

    action: Action
    error: str | None = None
    prior: dict[str, PriorState] = field(default_factory=dict)
    # What a tool said it did, and data the user asked for (to be phrased).
    speech: Phrase | None = None
    result: Any = None
    # The service call a tool made, for the reply.
    effect: Action | None = None
    # Why Home Assistant refused the call, where it said (an item not found).
    refusal: HomeRefusal | None = None

    @property
    def ok(self) -> bool:
        """Whether the action was carried out."""
        return self.error is None

    def as_executed(self) -> ExecutedAction:
        """The record the context store keeps of this action."""
        return ExecutedAction(
            tool=self.action.tool,
            targets=list(self.action.targets),
            args=dict(self.action.args),
            prior=self.prior,
        )


async def async_execute(
    hass: HomeAssistant,
    actions: Sequence[Action],
    context: Context,
    deadline: float,
    tools: Mapping[str, Tool],
) -> list[ActionOutcome]:
    """Run the actions, concurrently where they touch different entities.

    All of them share one `deadline` (event-loop time): an action on an
    entity that never answers cannot make the next one wait a budget of its own.
    """
    runs = (_async_run(hass, action, context, deadline, tools) for action in actions)
    if _independent(actions):
        return list(await asyncio.gather(*runs))
    return [await run for run in runs]


def _independent(actions: Sequence[Action]) -> bool:
    """No entity is the target of two actions."""
    seen: set[str] = set()
    for action in actions:
        if seen & set(action.targets):
            return False
        seen.update(action.targets)
    return True


async def _async_run(
    hass: HomeAssistant,
    action: Action,
    context: Context,
    deadline: float,
    tools: Mapping[str, Tool],
) -> ActionOutcome:
    """One call within what is left of the budget; failures become outcomes."""
    remaining = deadline - hass.loop.time()
    if tool := tools.get(action.tool):
        run = await tool.async_run(hass, action, context, max(remaining, 0.0))
        return ActionOutcome(
            Action(action.tool, run.affected or action.targets, action.args),
            run.error,
            run.prior,
            run.speech,
            run.result,
            run.effect,
        )
    domain, _, service = action.tool.partition(".")
    prior = capture_prior(hass, action.targets)
    wants_response = hass.services.supports_response(domain, service) is not (
        SupportsResponse.NONE
    )
    if remaining <= 0:
        LOGGER.debug("%s on %s not started: out of time", action.tool, action.targets)
        return ActionOutcome(action, "timeout", prior)
    try:
        async with asyncio.timeout_at(deadline):
            response = await hass.services.async_call(
                domain,
                service,
                {**action.args, ATTR_ENTITY_ID: list(action.targets)},
                blocking=True,
                context=context,
                return_response=wants_response,
            )
    except TimeoutError:
        LOGGER.debug("%s on %s timed out", action.tool, action.targets)
        return ActionOutcome(action, "timeout", prior)
    except HomeAssistantError as err:
        LOGGER.debug("%s on %s failed: %s", action.tool, action.targets, err)
        return ActionOutcome(action, type(err).__name__, prior, refusal=_refusal(err))
    return ActionOutcome(action, prior=prior, result=response)


def capture_prior(
    hass: HomeAssistant, entity_ids: Iterable[str]
) -> dict[str, PriorState]:
    """Record entities' states before acting on them, for undo."""
    return {
        entity_id: prior_of(state)
        for entity_id in entity_ids
        if (state := hass.states.get(entity_id)) is not None
    }


def prior_of(state: State) -> PriorState:
    """What undo needs of an entity's state: the state and a few attributes."""
    keep = domain_info(state.domain).undo_attributes
    attributes = state.attributes
    return PriorState(
        state.state, {k: v for k in keep if (v := attributes.get(k)) is not None}
    )


def _refusal(err: HomeAssistantError) -> HomeRefusal | None:
    """Home Assistant's translated reason for refusing what was asked.

    Only a `ServiceValidationError`, Home Assistant's error for a request
    that cannot be done as asked (an item not on the list); a device that
    failed otherwise, or whose own actions name a service that is not
    there (`ServiceNotFound`), "didn't respond".
    """
    if not (
        isinstance(err, ServiceValidationError)
        and not isinstance(err, ServiceNotFound)
        and err.translation_domain
        and err.translation_key
    ):
        return None
    return HomeRefusal(
        f"component.{err.translation_domain}.exceptions.{err.translation_key}.message",
        {k: str(v) for k, v in (err.translation_placeholders or {}).items()},
        str(err),
    )
