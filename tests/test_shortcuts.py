"""Follow-up phrases and the actions that undo or stop what was done."""

from __future__ import annotations

from typing import Any

import pytest

from custom_components.intent_router.core.records import (
    Action,
    ExecutedAction,
    PriorState,
    Turn,
)
from custom_components.intent_router.core.said import Said
from custom_components.intent_router.deciding.shortcuts import (
    match_shortcut,
    referred,
    stop_actions,
    undo_actions,
)
from custom_components.intent_router.language import (
    Shortcut,
    Verb,
    is_question,
    words_for,
)

ALL = list(Shortcut)
# What the agent offers after a question, and after an action without one.
AFTER_A_QUESTION = [Shortcut.YES, Shortcut.NO, Shortcut.AGAIN, Shortcut.UNDO]
AFTER_AN_ACTION = [Shortcut.AGAIN, Shortcut.UNDO, Shortcut.STOP]


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("Undo that.", "en", Shortcut.UNDO),
        ("please do that again", "en-GB", Shortcut.AGAIN),
        ("Stop!", "en", Shortcut.STOP),
        ("Yes please", "en", Shortcut.YES),
        ("never mind", "en", Shortcut.NO),
        ("No, never mind.", "en", Shortcut.NO),
        ("Yes, do it!", "en", Shortcut.YES),
        ("No, leave it", "en", Shortcut.NO),
        ("turn it off again", "en", None),
        ("undo the kitchen", "en", None),
        ("yes, undo that", "en", None),
        ("Nochmal!", "de", Shortcut.AGAIN),
        ("Okay.", "de", Shortcut.YES),
        ("Bitte.", "de", None),
        ("Mach das bitte rückgängig", "de", Shortcut.UNDO),
        ("Mach das rückgängig, bitte.", "de", Shortcut.UNDO),
        ("Stopp.", "de-CH", Shortcut.STOP),
        ("Ja, mach das.", "de", Shortcut.YES),
        ("Ja bitte", "de", Shortcut.YES),
        ("Nein, vergiss es", "de", Shortcut.NO),
        ("nein danke", "de", Shortcut.NO),
        ("Schalte das Licht nochmal ein", "de", None),
        ("Encore une fois !", "fr", Shortcut.AGAIN),
        ("Annule ça", "fr", Shortcut.UNDO),
        ("Arrête", "fr-CA", Shortcut.STOP),
        ("Oui, vas-y", "fr", Shortcut.YES),
        ("Non, laisse tomber.", "fr", Shortcut.NO),
        ("Non merci", "fr", Shortcut.NO),
        ("Laisse tomber, s\u2019il te plaît", "fr", Shortcut.NO),
        ("Otra vez", "es", Shortcut.AGAIN),
        ("Deshazlo, por favor", "es", Shortcut.UNDO),
        ("¡Para!", "es", Shortcut.STOP),
        ("Sí, hazlo", "es", Shortcut.YES),
        ("No, déjalo", "es", Shortcut.NO),
        ("Nog een keer", "nl", Shortcut.AGAIN),
        ("Maak dat ongedaan", "nl", Shortcut.UNDO),
        ("Stop ermee", "nl-BE", Shortcut.STOP),
        ("Ja, doe maar", "nl", Shortcut.YES),
        ("Nee, laat maar", "nl", Shortcut.NO),
        ("Di nuovo", "it", Shortcut.AGAIN),
        ("Rimetti com'era", "it", Shortcut.UNDO),
        ("Basta!", "it", Shortcut.STOP),
        ("Sì, procedi", "it", Shortcut.YES),
        ("No, lascia stare", "it", Shortcut.NO),
        ("ja", "xx", None),
    ],
)
def test_match_shortcut(text: str, language: str, expected: Shortcut | None) -> None:
    """Whole listed phrases match, alone, politely or doubled ("no, never mind")."""
    assert match_shortcut(Said.of(text, language), ALL) is expected


@pytest.mark.parametrize(
    ("text", "language"), [("annule", "fr"), ("annulla", "it"), ("cancel", "en")]
)
def test_cancel_answers_a_question_or_undoes_an_action(
    text: str, language: str
) -> None:
    """After a question "annule" is a no; after an action it is an undo."""
    assert match_shortcut(Said.of(text, language), AFTER_A_QUESTION) is Shortcut.NO
    expected = None if language == "en" else Shortcut.UNDO
    assert match_shortcut(Said.of(text, language), AFTER_AN_ACTION) is expected


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("Is the front door locked?", "en", True),
        ("Can you lock the front door?", "en", False),
        ("Ist die Haustür abgeschlossen?", "de", True),
        ("Läuft die Waschmaschine noch?", "de", True),
        ("Kannst du die Haustür abschließen?", "de", False),
        ("Est-ce que la porte d'entrée est verrouillée ?", "fr", True),
        ("Est-ce que tu peux verrouiller la porte ?", "fr", False),
        ("Quelle température fait-il dans le salon ?", "fr", True),
        ("¿Está encendida la luz de la cocina?", "es", True),
        ("¿Puedes apagar la luz?", "es", False),
        ("Staat de verwarming aan?", "nl", True),
        ("Kun je de verwarming aanzetten?", "nl", False),
        ("C'è qualcuno in cucina?", "it", True),
        ("Puoi accendere la luce?", "it", False),
    ],
)
def test_questions_about_the_home(text: str, language: str, expected: bool) -> None:
    """Questions are told from requests phrased as questions, in each language."""
    assert is_question(text, words_for(language)) is expected


def test_match_shortcut_only_offers_what_is_allowed() -> None:
    """A yes without a pending question is not a shortcut."""
    assert match_shortcut(Said.of("yes", "en"), [Shortcut.AGAIN, Shortcut.UNDO]) is None


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


def _acted(at: float, tool: str, *targets: str) -> Turn:
    return Turn(
        time=at,
        text="",
        speech="",
        outcome="done",
        source="reading",
        actions=[ExecutedAction(tool, list(targets), {})],
    )


def test_it_is_what_the_verb_is_for_among_the_last_turns() -> None:
    """A lamp on, then the blinds open: "turn it off" is the lamp.

    "Off" closes a cover only as a stand-in; with no such turn near, the
    last one stands, and without a verb it always does.
    """
    history = [
        _acted(1, "light.turn_on", "light.bedside_lamp"),
        _acted(2, "cover.open_cover", "cover.bedroom_shades"),
    ]

    assert referred(history, {Verb.OFF}) == ["light.bedside_lamp"]
    assert referred(history, {Verb.CLOSE}) == ["cover.bedroom_shades"]
    assert referred(history) == ["cover.bedroom_shades"]
    assert referred(history[1:], {Verb.OFF}) == ["cover.bedroom_shades"]
