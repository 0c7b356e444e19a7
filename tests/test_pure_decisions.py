"""The pure decisions of a turn, tested without Home Assistant."""

from __future__ import annotations

import pytest

from custom_components.intent_router.catalog import shortlist
from custom_components.intent_router.gate import Decision, decide
from custom_components.intent_router.llm_reply import (
    LLMResponseError,
    extract_json_object,
)
from custom_components.intent_router.plan import PlanError, Rejection, parse_plan
from custom_components.intent_router.records import Action, EntityInfo, Plan

ACT = (Action("light.turn_on", ("light.a",)),)


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
    """Duplicate targets go, missing fields default, text is stripped."""
    plan = parse_plan(
        {
            "actions": [{"tool": "light.turn_on", "targets": ["light.a", "light.a"]}],
            "speech": " On. ",
            "confidence": "0.8",
            "clarify": "  ",
            "extra": "ignored",
        }
    )
    assert plan == Plan((Action("light.turn_on", ("light.a",), {}),), "On.", 0.8)


@pytest.mark.parametrize(
    "data",
    [
        {"actions": [], "speech": "x"},
        {"actions": [], "speech": "x", "confidence": 2},
        {"actions": [{"targets": ["light.a"]}], "confidence": 0.9},
        {"actions": "light.turn_on", "confidence": 0.9},
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
    assert len(shortlist(entities, "hello", "en", None)) == 10


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
            entities, "turn on the desk lamp and the kitchen", "en", "Bedroom"
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
    chosen = [e.entity_id for e in shortlist(entities, text, language, None)]
    assert chosen == ["light.ceiling"]
