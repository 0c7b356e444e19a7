"""The pure decisions of a turn, tested without Home Assistant."""

from __future__ import annotations

import pytest

from custom_components.intent_router.core.device_states import at_step_end
from custom_components.intent_router.core.llm_reply import (
    LLMResponseError,
    extract_json_object,
)
from custom_components.intent_router.core.records import Action, EntityInfo, Plan
from custom_components.intent_router.deciding.gate import Decision, decide
from custom_components.intent_router.deciding.plan import (
    PlanError,
    Rejection,
    action_text,
    parse_action,
    parse_plan,
)
from custom_components.intent_router.home.catalog import shortlist
from custom_components.intent_router.language import words

ACT = (Action("light.turn_on", ("light.a",)),)


@pytest.mark.parametrize(
    ("domain", "direction", "attributes", "expected"),
    [
        ("light", 1, {"brightness": 255}, True),
        # Off, a light is dimmed no further; brighter, it is switched on.
        ("light", -1, {"state": "off"}, True),
        ("light", 1, {"state": "off"}, False),
        ("light", -1, {"state": "off", "assumed_state": True}, False),
        ("light", 1, {"brightness": 254}, False),
        # Dimmed at its lowest, a light turns off: no end that way.
        ("light", -1, {"brightness": 1}, False),
        ("light", 1, {}, False),
        ("light", 1, {"brightness": 255, "assumed_state": True}, False),
        ("media_player", 1, {"volume_level": 1.0}, True),
        ("media_player", -1, {"volume_level": 0.0}, True),
        ("media_player", -1, {"volume_level": 0.3}, False),
        # A level the attribute cannot hold (HA's own test homes say 50) is
        # no level: "louder" is sent, never "already at 5000 percent".
        ("media_player", 1, {"volume_level": 50}, False),
        ("light", 1, {"brightness": 300}, False),
        ("fan", 1, {"percentage": 100}, True),
        ("climate", 1, {"temperature": 35, "max_temp": 35}, True),
        ("climate", -1, {"temperature": 7, "min_temp": 7}, True),
        ("climate", -1, {"temperature": 8, "min_temp": 7}, False),
        ("climate", 1, {"temperature": 35}, False),
        ("cover", 1, {"current_position": 100}, False),
    ],
)
def test_a_step_ends_where_its_device_can_go_no_further(
    domain: str, direction: int, attributes: dict[str, object], expected: bool
) -> None:
    """Only "brighter" at full, "louder" at full volume, ... send nothing."""
    state = str(attributes.pop("state", "on"))
    assert at_step_end(domain, direction, state, attributes) is expected


@pytest.mark.parametrize(
    ("plan", "confirm", "expected"),
    [
        (Plan(ACT, "ok", 0.9), False, Decision.EXECUTE),
        (Plan(ACT, "ok", 0.7), False, Decision.EXECUTE),
        (Plan(ACT, "ok", 0.69), False, Decision.UNSURE),
        (Plan(ACT, "ok", 0.5, clarify="Which one?"), False, Decision.CLARIFY),
        (Plan((), "", 0.9, clarify="Which one?"), False, Decision.CLARIFY),
        (Plan(ACT, "ok", 0.99), True, Decision.CONFIRM),
        (Plan(ACT, "ok", 0.5), True, Decision.UNSURE),
        (Plan((), "It is on.", 0.9), True, Decision.EXECUTE),
    ],
)
def test_confidence_gate(plan: Plan, confirm: bool, expected: Decision) -> None:
    """Act at or above the threshold; ask, confirm or admit doubt otherwise."""
    assert decide(plan, 0.7, confirm) is expected


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1}',
        'Here you go: {"a": 1} hope that helps {"b": 2}',
        '```json\n{"a": 1}\n```',
        '{broken {"a": 1}',
    ],
)
def test_first_json_object_is_extracted(text: str) -> None:
    """Prose, fences and junk before the object are skipped."""
    assert extract_json_object(text) == {"a": 1}


@pytest.mark.parametrize("text", ["", "no json here", "[1, 2]", '{"a": '])
def test_no_json_object_is_an_error(text: str) -> None:
    """A reply without an object is a response error, not a crash."""
    with pytest.raises(LLMResponseError):
        extract_json_object(text)


def test_parse_plan_normalises() -> None:
    """Duplicate targets and actions go, missing fields default, text is stripped."""
    plan = parse_plan(
        {
            "do": ["turn_on light.a light.a", "light.turn_on light.a"],
            "say": " On. ",
            "c": "8",
            "ask": "  ",
            "extra": "ignored",
        }
    )
    assert plan == Plan((Action("light.turn_on", ("light.a",), {}),), "On.", 0.8)


def test_a_plan_without_confidence_is_sure() -> None:
    """The model writes "c" only when unsure: a plan without it is certain."""
    assert parse_plan({"do": ["turn_on light.a"]}).confidence == 1.0
    assert parse_plan({"ask": "Which one?", "c": 3}).confidence == 0.3


@pytest.mark.parametrize(
    ("line", "actions"),
    [
        # A service without its domain takes its targets' domains, one each.
        (
            "turn_off light.a switch.b light.c",
            [
                Action("light.turn_off", ("light.a", "light.c"), {}),
                Action("switch.turn_off", ("switch.b",), {}),
            ],
        ),
        # Values are JSON where they parse, else text, spaces and all.
        (
            "turn_on light.a brightness_pct=40 color_name=warm white rgb_color=[1,2,3]",
            [
                Action(
                    "light.turn_on",
                    ("light.a",),
                    {
                        "brightness_pct": 40,
                        "color_name": "warm white",
                        "rgb_color": [1, 2, 3],
                    },
                )
            ],
        ),
        # A name with a dot is taken whole; lists may quote with '.
        (
            "mcp.weather.lookup city=Paris fields=['wind','rain'] metric=true",
            [
                Action(
                    "mcp.weather.lookup",
                    (),
                    {"city": "Paris", "fields": ["wind", "rain"], "metric": True},
                )
            ],
        ),
        # A tool without targets is left for validation to refuse.
        ("turn_off", [Action("turn_off", (), {})]),
    ],
)
def test_parse_action(line: str, actions: list[Action]) -> None:
    """One line of words is read as the actions it says."""
    assert parse_action(line) == actions


@pytest.mark.parametrize(
    "action",
    [
        Action("light.turn_on", ("light.a", "light.b"), {"brightness_pct": 40}),
        Action("music.play", ("media_player.k",), {"query": "Kind of Blue"}),
        Action("light.turn_off", ("switch.a",), {}),
        Action("scene.turn_on", ("scene.movie",), {"transition": 2.5}),
    ],
)
def test_action_text_reads_back(action: Action) -> None:
    """What the prompt's history shows is what the parser reads back."""
    text = action_text(action.tool, action.targets, action.args)
    assert parse_action(text) == [action]


@pytest.mark.parametrize(
    "data",
    [
        {"say": 3},
        {"say": "x", "c": 11},
        {"say": "x", "c": "sure"},
        {"do": [3], "c": 9},
        {"do": "turn_on light.a", "c": 9},
        {"do": ["  "], "c": 9},
    ],
)
def test_malformed_plans(data: dict[str, object]) -> None:
    """Shape errors are rejected as malformed."""
    with pytest.raises(PlanError) as err:
        parse_plan(data)
    assert err.value.rejection is Rejection.MALFORMED


def _entity(entity_id: str, name: str, area: str | None) -> EntityInfo:
    return EntityInfo(entity_id, name, (), area, "off", {})


def test_small_homes_are_sent_whole() -> None:
    """Below the shortlist size every exposed entity is sent."""
    entities = [_entity(f"switch.s{i}", f"Switch {i}", None) for i in range(10)]
    assert len(shortlist(entities, words("hello"), "en", None)) == 10


def test_large_homes_are_shortlisted_by_relevance() -> None:
    """Named, area and speaker-area entities make the list; others don't."""
    entities = [_entity(f"switch.s{i}", f"Socket {i}", "Attic") for i in range(200)]
    entities += [
        _entity("light.desk", "Desk Lamp", "Office"),
        _entity("light.kitchen", "Ceiling", "Kitchen"),
        _entity("fan.bedroom", "Bedroom Fan", "Bedroom"),
    ]
    chosen = {
        e.entity_id
        for e in shortlist(
            entities, words("turn on the desk lamp and the kitchen"), "en", "Bedroom"
        )
    }
    assert {"light.desk", "light.kitchen", "fan.bedroom"} <= chosen
    assert len(chosen) <= 40
    assert not any(e.startswith("switch.") for e in chosen)


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "make it cozy in here"),
        ("de", "mach es hier gemütlich"),
        ("fr", "il fait trop sombre ici"),
        ("es", "está muy oscuro aquí"),
        ("nl", "maak het hier gezellig"),
        ("it", "qui è troppo buio"),
    ],
)
def test_words_for_a_kind_of_device_shortlist_it(language: str, text: str) -> None:
    """Words that imply light bring the lights, in each language, by no name."""
    entities = [_entity(f"sensor.s{i}", f"Probe {i}", "Attic") for i in range(200)]
    entities.append(_entity("light.ceiling", "Ceiling", "Living Room"))
    chosen = [e.entity_id for e in shortlist(entities, words(text), language, None)]
    assert chosen == ["light.ceiling"]
