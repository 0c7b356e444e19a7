"""Reading the model's plan, and validating any plan against the catalog.

A plan can only do what this module lets through: known, allowed services;
exposed entities; arguments HA's own service schema accepts; a few actions.
Whatever an utterance or an entity name says, that is the whole reach.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from enum import StrEnum
from typing import Any

import voluptuous as vol

from homeassistant.const import ATTR_ENTITY_ID
from homeassistant.core import HomeAssistant

from .catalog import Catalog
from .records import Action, Plan
from .safety import MAX_ACTIONS, is_denied

# Characters of a question or answer the model may write (about 40 tokens).
MAX_SAID = 160
# Targets go in `targets`, where exposure is checked; never through args.
TARGET_KEYS = frozenset({"entity_id", "area_id", "device_id", "floor_id", "label_id"})


class Rejection(StrEnum):
    """Why a plan was refused (for logs and the debug trace)."""

    MALFORMED = "malformed"
    TOO_MANY_ACTIONS = "too_many_actions"
    UNKNOWN_TOOL = "unknown_tool"
    DENIED_SERVICE = "denied_service"
    MISSING_TARGETS = "missing_targets"
    UNKNOWN_ENTITY = "unknown_entity"
    WRONG_DOMAIN = "wrong_domain"
    INVALID_ARGS = "invalid_args"


class PlanError(Exception):
    """A plan that must not run."""

    def __init__(self, rejection: Rejection, detail: str) -> None:
        """Keep a machine-readable class next to a human-readable detail."""
        super().__init__(f"{rejection}: {detail}")
        self.rejection = rejection
        self.detail = detail


_ACTION_SCHEMA = vol.Schema(
    {
        vol.Required("tool"): vol.All(str, vol.Strip, vol.Length(min=3)),
        vol.Optional("targets", default=list): vol.Any(
            None, vol.All(vol.Coerce(list), [str])
        ),
        vol.Optional("args", default=dict): vol.Any(None, dict),
    },
    extra=vol.REMOVE_EXTRA,
)
_PLAN_SCHEMA = vol.Schema(
    {
        vol.Optional("actions", default=list): vol.Any(None, [_ACTION_SCHEMA]),
        vol.Optional("speech", default=""): vol.Any(None, str),
        vol.Required("confidence"): vol.All(
            vol.Coerce(float), vol.Range(min=0.0, max=1.0)
        ),
        vol.Optional("clarify"): vol.Any(None, str),
    },
    extra=vol.REMOVE_EXTRA,
)


def parse_plan(data: dict[str, Any]) -> Plan:
    """Check the shape of a model reply and build a Plan from it."""
    try:
        raw = _PLAN_SCHEMA(data)
    except vol.Invalid as err:
        raise PlanError(Rejection.MALFORMED, str(err)) from err
    actions: list[Action] = []
    for item in raw["actions"] or ():
        action = Action(
            tool=item["tool"],
            targets=tuple(dict.fromkeys(item["targets"] or ())),
            args=item["args"] or {},
        )
        # Small models sometimes write the same action again and again.
        if action not in actions:
            actions.append(action)
    return Plan(
        actions=tuple(actions),
        speech=(raw["speech"] or "").strip(),
        confidence=raw["confidence"],
        clarify=(raw.get("clarify") or "").strip() or None,
    )


def validate_plan(
    hass: HomeAssistant, plan: Plan, catalog: Catalog, *, offered_args_only: bool
) -> Plan:
    """Return the plan ready to run, or raise PlanError (or ToolQuestion).

    `offered_args_only` holds a model to the fields it was shown; plans from
    memory (undo restores raw attributes) may use any field HA accepts.
    """
    if len(plan.actions) > MAX_ACTIONS:
        raise PlanError(
            Rejection.TOO_MANY_ACTIONS, f"{len(plan.actions)} > {MAX_ACTIONS}"
        )
    return replace(
        plan,
        actions=tuple(
            _validate_action(hass, action, catalog, offered_args_only=offered_args_only)
            for action in plan.actions
        ),
    )


def _validate_action(
    hass: HomeAssistant, action: Action, catalog: Catalog, *, offered_args_only: bool
) -> Action:
    """One action: allowed tool, exposed targets, schema-valid arguments."""
    if is_denied(action.tool):
        raise PlanError(Rejection.DENIED_SERVICE, action.tool)
    if tool := catalog.tools.get(action.tool):
        _check_targets(action, catalog, None)
        return tool.validate(action, catalog)
    if action.tool not in catalog.services:
        raise PlanError(Rejection.UNKNOWN_TOOL, action.tool)
    if not action.targets:
        raise PlanError(Rejection.MISSING_TARGETS, action.tool)
    _check_targets(action, catalog, action.tool.partition(".")[0])
    _check_args(hass, action, catalog, offered_args_only=offered_args_only)
    return action


def _check_targets(action: Action, catalog: Catalog, domain: str | None) -> None:
    """Exposed entities, of the service's own domain when it has one."""
    for target in action.targets:
        if target not in catalog.exposed:
            raise PlanError(Rejection.UNKNOWN_ENTITY, target)
        if domain is not None and not target.startswith(f"{domain}."):
            raise PlanError(Rejection.WRONG_DOMAIN, f"{action.tool} on {target}")


def _check_args(
    hass: HomeAssistant, action: Action, catalog: Catalog, *, offered_args_only: bool
) -> None:
    """No targets in args, only fields offered, and HA's service schema."""
    if smuggled := TARGET_KEYS & action.args.keys():
        raise PlanError(Rejection.INVALID_ARGS, f"targets in args: {sorted(smuggled)}")
    if offered_args_only and (
        unoffered := action.args.keys() - catalog.services[action.tool].accepts
    ):
        raise PlanError(Rejection.INVALID_ARGS, f"not offered: {sorted(unoffered)}")
    domain, _, service = action.tool.partition(".")
    registered = hass.services.async_services_for_domain(domain).get(service)
    if registered is not None and registered.schema is not None:
        # Checked here so a bad plan fails before anything runs; the args are
        # passed on as given, since HA validates (and converts) them again.
        try:
            registered.schema({**action.args, ATTR_ENTITY_ID: list(action.targets)})
        except vol.Invalid as err:
            raise PlanError(Rejection.INVALID_ARGS, f"{action.tool}: {err}") from err


def plan_json_schema(
    catalog: Catalog, named: Collection[str] = (), kinds: Collection[str] = ()
) -> dict[str, Any]:
    """The JSON schema a server can decode against: each tool with its targets.

    A service takes only entities of its own domain; where the words name
    some of a domain's entities and no kind of device of it, only those
    (`named`, `kinds`: what the words point at). Enums keep small models from
    inventing tools or ids and from crossing domains; they do not make the
    choice right, which is what validation and grounding are for. An empty
    list of actions is always valid.

    A plan takes one of three forms: it acts (actions and a confidence,
    nothing else), answers (no actions, `speech`) or asks (no actions,
    `clarify`). Small models write every field a schema allows, so a
    command costs only what it needs (a few dozen tokens instead of a
    hundred; a tool without fields gets no `args`), and a question is never
    answered and asked back at once. What is said is bounded (`MAX_SAID`):
    a spoken reply, not an essay at 25 tokens a second.
    """
    by_domain: dict[str, list[str]] = {}
    for info in catalog.entities:
        by_domain.setdefault(info.domain, []).append(info.entity_id)
    branches: list[dict[str, Any]] = []
    for domain in dict.fromkeys(tool.partition(".")[0] for tool in catalog.services):
        targets = by_domain.get(domain, [])
        if domain not in kinds and (chosen := [t for t in targets if t in named]):
            targets = chosen
        tools = [t for t in catalog.services if t.startswith(f"{domain}.")]
        with_args = [t for t in tools if catalog.services[t].accepts]
        without = [t for t in tools if t not in with_args]
        branches.extend(
            _action_schema(group, targets, takes_args)
            for group, takes_args in ((with_args, True), (without, False))
            if group
        )
    if catalog.tools:
        branches.append(
            _action_schema(list(catalog.tools), [i.entity_id for i in catalog.entities])
        )
    action = {"anyOf": branches} if branches else _action_schema([], [])
    confidence = {"type": "number", "minimum": 0, "maximum": 1}
    acting = {
        "type": "array",
        "minItems": 1,
        "maxItems": MAX_ACTIONS,
        "items": action,
    }
    said = {"type": "string", "maxLength": MAX_SAID}
    return {
        "anyOf": [
            _form(acting, confidence),
            _form({"type": "array", "maxItems": 0}, confidence, speech=said),
            _form({"type": "array", "maxItems": 0}, confidence, clarify=said),
        ]
    }


def _form(
    actions: dict[str, Any], confidence: dict[str, Any], **said: dict[str, Any]
) -> dict[str, Any]:
    """One form of the plan: actions and confidence, and at most one thing said."""
    return {
        "type": "object",
        "properties": {"actions": actions, "confidence": confidence, **said},
        "required": ["actions", "confidence", *said],
        "additionalProperties": False,
    }


def _action_schema(
    tools: list[str], targets: list[str], takes_args: bool = True
) -> dict[str, Any]:
    """One action whose tool and targets come from these lists."""
    tool: dict[str, Any] = {"type": "string"}
    if tools:
        tool["enum"] = tools
    target: dict[str, Any] = {"type": "string"}
    if targets:
        target["enum"] = targets
    properties: dict[str, Any] = {
        "tool": tool,
        "targets": {"type": "array", "items": target},
    }
    if takes_args:
        properties["args"] = {"type": "object"}
    return {
        "type": "object",
        "properties": properties,
        "required": ["tool", "targets"],
        "additionalProperties": False,
    }
