"""What the test modules share: model replies, turns through Assist, what was sent.

Fixtures live in conftest.py; these are plain functions, one home each.
"""

from __future__ import annotations

from collections.abc import Sequence
import re
from typing import Any

from custom_components.intent_router.core.records import EntityInfo
from custom_components.intent_router.deciding.plan import action_text
from custom_components.intent_router.home.catalog import Catalog
from homeassistant.components import conversation
from homeassistant.components.conversation import trace
from homeassistant.components.homeassistant.exposed_entities import async_expose_entity
from homeassistant.core import Context, HomeAssistant
from homeassistant.setup import async_setup_component
from homeassistant.util import slugify

from .llm_server import ScriptedLLMServer


def plan(
    *actions: str,
    speech: str = "",
    confidence: float = 0.95,
    clarify: str | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A model reply in the plan format (confident unless told otherwise).

    The confidence is given on the 0-1 scale of the options and written on
    the model's 0-10 scale.
    """
    reply: dict[str, Any] = {"c": confidence * 10, **extra}
    if actions:
        reply["do"] = list(actions)
    if speech:
        reply["say"] = speech
    if clarify is not None:
        reply["ask"] = clarify
    return reply


def act(tool: str, *targets: str, **args: Any) -> str:
    """One plan action as the model writes it: `turn_on light.a brightness_pct=40`."""
    return action_text(tool, targets, args)


async def converse(
    hass: HomeAssistant,
    agent_id: str,
    text: str,
    device_id: str | None = None,
    language: str = "en",
) -> conversation.ConversationResult:
    """One turn through Assist, as a satellite would send it."""
    return await conversation.async_converse(
        hass,
        text,
        None,
        Context(),
        language=language,
        agent_id=agent_id,
        device_id=device_id,
    )


def speech(result: conversation.ConversationResult) -> str:
    """The spoken reply of a turn."""
    return str(result.response.speech["plain"]["speech"])


def home_states(hass: HomeAssistant) -> dict[str, str]:
    """The states of the home's devices (the agent's own entity excluded)."""
    return {
        s.entity_id: s.state
        for s in hass.states.async_all()
        if s.domain != conversation.DOMAIN
    }


def agent_details() -> list[dict[str, Any]]:
    """The agent's entries in Assist's debug trace of the most recent turn."""
    last = trace.async_get_traces()[-1].as_dict()
    return [e["data"] for e in last["events"] if e["event_type"] == "agent_detail"]


def system_prompt(server: ScriptedLLMServer, index: int = -1) -> str:
    """The system message of a request sent to the model."""
    return str(server.requests[index]["messages"][0]["content"])


def user_prompt(server: ScriptedLLMServer, index: int = -1) -> str:
    """The user message of a request sent to the model."""
    return str(server.requests[index]["messages"][-1]["content"])


def offered(server: ScriptedLLMServer, index: int = -1) -> list[str]:
    """The options a request offered the model, numbered, as it read them."""
    return user_prompt(server, index).split("Options:\n", 1)[1].splitlines()


def schema_targets(request: dict[str, Any]) -> dict[str, set[str]]:
    """Each tool of a plan request's JSON schema, with the targets it allows.

    Read from the action pattern's branches, `(?:<tools>)(?: (?:<ids>)){m,n}...`.
    """
    schema = request["response_format"]["json_schema"]["schema"]
    acting = schema["anyOf"][0]  # the other shapes answer or ask: no actions
    pattern = acting["properties"]["do"]["items"]["pattern"]
    allowed: dict[str, set[str]] = {}
    for tools, targets in re.findall(
        r"\(\?:([^()]*)\)\(\?: \(\?:([^()]*)\)\)\{\d+,\d+\}", pattern
    ):
        ids = set(targets.replace("\\", "").split("|"))
        domain = next(iter(ids)).partition(".")[0]
        for tool in tools.replace("\\", "").split("|"):
            name = tool if "." in tool else f"{domain}.{tool}"
            allowed.setdefault(name, set()).update(ids)
    return allowed


def schema_allows(request: dict[str, Any], action: str) -> bool:
    """Whether a plan request's schema lets the model write this action."""
    schema = request["response_format"]["json_schema"]["schema"]
    pattern = schema["anyOf"][0]["properties"]["do"]["items"]["pattern"]
    return re.fullmatch(pattern, action) is not None


async def switched_on(hass: HomeAssistant, *entity_ids: str) -> None:
    """Devices switched on directly, as a wall switch would (not a turn).

    A test of what switching off does starts with its device on, so that
    the state it ends in shows the call arrived.
    """
    await hass.services.async_call(
        "homeassistant", "turn_on", {"entity_id": list(entity_ids)}, blocking=True
    )


async def lit_at(hass: HomeAssistant, light: str, brightness: int) -> None:
    """A light switched on directly at a brightness (0-255), not by a turn.

    A test of a step ("brighter", "dim") starts from a level the step changes.
    """
    await hass.services.async_call(
        "light",
        "turn_on",
        {"entity_id": light, "brightness": brightness},
        blocking=True,
    )


async def async_setup_template_entity(
    hass: HomeAssistant, platform: str, config: dict[str, Any]
) -> str:
    """An exposed entity of HA's `template` integration, as YAML makes it; its id.

    The `template` integration is set up once per test: one entity a test.
    """
    assert await async_setup_component(
        hass, "template", {"template": [{platform: [config]}]}
    )
    await hass.async_block_till_done()
    entity_id = f"{platform}.{slugify(config['name'])}"
    assert hass.states.get(entity_id) is not None
    async_expose_entity(hass, conversation.DOMAIN, entity_id, True)
    return entity_id


def small_catalog(
    home: Sequence[EntityInfo], areas: Sequence[str], speaker_area: str | None
) -> Catalog:
    """A catalog of a home written as records, for tests without HA."""
    return Catalog(
        exposed={info.entity_id: info for info in home},
        entities=list(home),
        listed=list(home),
        services={},
        areas=list(areas),
        speaker_area=speaker_area,
        area_floors=dict.fromkeys(areas),
    )
