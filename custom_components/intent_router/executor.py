"""Runs validated actions and says honestly what happened.

Every service call is blocking and carries the user's Context, so logbook
and permissions see who asked. Actions on different entities run at once,
each within its own time budget; actions that share an entity run in the
order the plan gives (turn on, then set brightness).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from homeassistant.const import ATTR_ENTITY_ID
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import HomeAssistantError

from .const import LOGGER
from .context_store import ExecutedAction, PriorState
from .plan import Action

# Attributes recorded before an action so that undo can restore them.
UNDO_ATTRIBUTES: Mapping[str, tuple[str, ...]] = {
    "light": ("brightness", "color_temp_kelvin"),
    "fan": ("percentage",),
    "cover": ("current_position",),
    "climate": ("temperature",),
    "media_player": ("volume_level",),
    "water_heater": ("temperature",),
    "humidifier": ("humidity",),
}


@dataclass(slots=True, frozen=True)
class ActionOutcome:
    """One action and how it ended (`error` is None when it worked)."""

    action: Action
    error: str | None = None
    prior: dict[str, PriorState] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Whether the action was carried out."""
        return self.error is None

    def as_executed(self) -> ExecutedAction:
        """The record the context store keeps of this action."""
        return ExecutedAction(
            tool=self.action.tool,
            targets=list(self.action.targets),
            data=dict(self.action.args),
            prior=self.prior,
        )


async def async_execute(
    hass: HomeAssistant,
    actions: Sequence[Action],
    context: Context,
    timeout: float,
) -> list[ActionOutcome]:
    """Run the actions, concurrently where they touch different entities."""
    if _independent(actions):
        return list(
            await asyncio.gather(
                *(_async_run(hass, action, context, timeout) for action in actions)
            )
        )
    return [await _async_run(hass, action, context, timeout) for action in actions]


def _independent(actions: Sequence[Action]) -> bool:
    """No entity is the target of two actions."""
    seen: set[str] = set()
    for action in actions:
        if seen & set(action.targets):
            return False
        seen.update(action.targets)
    return True


async def _async_run(
    hass: HomeAssistant, action: Action, context: Context, timeout: float
) -> ActionOutcome:
    """One service call within its time budget; failures become outcomes."""
    domain, _, service = action.tool.partition(".")
    data = {**action.args, ATTR_ENTITY_ID: list(action.targets)}
    prior = {
        entity_id: _prior_state(state.domain, state.state, state.attributes)
        for entity_id in action.targets
        if (state := hass.states.get(entity_id)) is not None
    }
    try:
        async with asyncio.timeout(timeout):
            await hass.services.async_call(
                domain, service, data, blocking=True, context=context
            )
    except TimeoutError:
        LOGGER.warning("%s on %s timed out", action.tool, action.targets)
        return ActionOutcome(action, "timeout", prior)
    except HomeAssistantError as err:
        LOGGER.warning("%s on %s failed: %s", action.tool, action.targets, err)
        return ActionOutcome(action, type(err).__name__, prior)
    return ActionOutcome(action, prior=prior)


def _prior_state(domain: str, state: str, attributes: Mapping[str, Any]) -> PriorState:
    """What to record of an entity before acting on it, for undo."""
    keep = UNDO_ATTRIBUTES.get(domain, ())
    return PriorState(
        state, {k: v for k in keep if (v := attributes.get(k)) is not None}
    )


def entity_name(hass: HomeAssistant, entity_id: str) -> str:
    """The friendly name of an entity, for spoken replies."""
    state = hass.states.get(entity_id)
    return state.name if state else entity_id


def target_names(hass: HomeAssistant, outcomes: Sequence[ActionOutcome]) -> str:
    """Name the targets of some outcomes as a spoken list ("A, B and C")."""
    names = list(
        dict.fromkeys(
            entity_name(hass, target)
            for outcome in outcomes
            for target in outcome.action.targets
        )
    )
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"
