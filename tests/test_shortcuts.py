"""Follow-up phrases and the actions that undo or stop what was done."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.intent_router.context_store import ExecutedAction, PriorState
from custom_components.intent_router.plan import Action
from custom_components.intent_router.shortcuts import (
    Shortcut,
    match_shortcut,
    stop_actions,
    undo_actions,
)

ALL = list(Shortcut)


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("Undo that.", "en", Shortcut.UNDO),
        ("please do that again", "en-GB", Shortcut.AGAIN),
        ("Stop!", "en", Shortcut.STOP),
        ("Yes please", "en", Shortcut.YES),
        ("never mind", "en", Shortcut.NO),
        ("turn it off again", "en", None),
        ("undo the kitchen", "en", None),
        ("rückgängig", "de", None),
    ],
)
def test_match_shortcut(text: str, language: str, expected: Shortcut | None) -> None:
    """Only whole, listed phrases match; other languages go to the model."""
    assert match_shortcut(text, language, ALL) is expected


def test_match_shortcut_only_offers_what_is_allowed() -> None:
    """A yes without a pending question is not a shortcut."""
    assert match_shortcut("yes", "en", [Shortcut.AGAIN, Shortcut.UNDO]) is None


def _undo(entity_id: str, state: str, **attributes: Any) -> list[Action]:
    return undo_actions(
        [
            ExecutedAction(
                "x.y", [entity_id], {}, {entity_id: PriorState(state, attributes)}
            )
        ]
    )


@pytest.mark.parametrize(
    ("entity_id", "state", "attributes", "expected"),
    [
        ("light.a", "on", {"brightness": 20}, [("light.turn_on", {"brightness": 20})]),
        ("light.a", "off", {}, [("light.turn_off", {})]),
        ("switch.a", "on", {}, [("switch.turn_on", {})]),
        ("switch.a", "unavailable", {}, []),
        (
            "fan.a",
            "on",
            {"percentage": 33},
            [("fan.set_percentage", {"percentage": 33})],
        ),
        ("fan.a", "off", {}, [("fan.turn_off", {})]),
        (
            "cover.a",
            "open",
            {"current_position": 40},
            [("cover.set_cover_position", {"position": 40})],
        ),
        ("cover.a", "closed", {}, [("cover.close_cover", {})]),
        ("cover.a", "opening", {}, []),
        (
            "climate.a",
            "heat",
            {"temperature": 21},
            [
                ("climate.set_hvac_mode", {"hvac_mode": "heat"}),
                ("climate.set_temperature", {"temperature": 21}),
            ],
        ),
        (
            "media_player.a",
            "playing",
            {"volume_level": 0.3},
            [
                ("media_player.volume_set", {"volume_level": 0.3}),
                ("media_player.media_play", {}),
            ],
        ),
        ("media_player.a", "idle", {}, []),
        ("lock.a", "locked", {}, [("lock.lock", {})]),
        ("lock.a", "jammed", {}, []),
        ("input_number.a", "4.5", {}, [("input_number.set_value", {"value": 4.5})]),
        ("number.a", "unknown", {}, []),
        ("select.a", "Eco", {}, [("select.select_option", {"option": "Eco"})]),
        ("sensor.a", "12", {}, []),
    ],
)
def test_undo_restores_each_kind_of_state(
    entity_id: str,
    state: str,
    attributes: dict[str, Any],
    expected: list[tuple[str, dict[str, Any]]],
) -> None:
    """Each domain is put back with the services that set what was recorded."""
    assert [(a.tool, a.args) for a in _undo(entity_id, state, **attributes)] == expected
    assert all(a.targets == (entity_id,) for a in _undo(entity_id, state, **attributes))


def test_undo_uses_the_oldest_prior_state() -> None:
    """Two actions on one light: undo goes back to before the first."""
    executed = [
        ExecutedAction(
            "light.turn_on", ["light.a"], {}, {"light.a": PriorState("off")}
        ),
        ExecutedAction("light.turn_on", ["light.a"], {}, {"light.a": PriorState("on")}),
    ]
    assert undo_actions(executed) == [Action("light.turn_off", ("light.a",))]


def test_stop_pauses_stops_or_turns_off() -> None:
    """Stop fits the device; things that cannot stop are left alone."""
    executed = [
        ExecutedAction("media_player.play_media", ["media_player.a"], {}),
        ExecutedAction("cover.open_cover", ["cover.a", "lock.a"], {}),
        ExecutedAction("light.turn_on", ["light.a"], {}),
    ]
    assert [(a.tool, a.targets) for a in stop_actions(executed)] == [
        ("media_player.media_pause", ("media_player.a",)),
        ("cover.stop_cover", ("cover.a",)),
        ("light.turn_off", ("light.a",)),
    ]
