"""Deterministic follow-ups: "again", "undo that", "stop", "yes", "no".

These need no model: a small, explicit phrase list per language decides,
and the previous turn's executed actions (with their targets' prior states)
say what to replay or reverse. Anything not on the list goes to the model.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
import re

from .context_store import ExecutedAction, PriorState
from .plan import Action


class Shortcut(StrEnum):
    """A follow-up understood without a model."""

    AGAIN = "again"
    UNDO = "undo"
    STOP = "stop"
    YES = "yes"
    NO = "no"


PHRASES: Mapping[str, Mapping[Shortcut, frozenset[str]]] = {
    "en": {
        Shortcut.AGAIN: frozenset(
            {
                "again",
                "do that again",
                "do it again",
                "same again",
                "repeat that",
                "once more",
                "one more time",
            }
        ),
        Shortcut.UNDO: frozenset(
            {
                "undo",
                "undo that",
                "undo it",
                "revert that",
                "put it back",
                "change it back",
                "take that back",
            }
        ),
        Shortcut.STOP: frozenset({"stop", "stop that", "stop it"}),
        Shortcut.YES: frozenset(
            {
                "yes",
                "yeah",
                "yep",
                "sure",
                "ok",
                "okay",
                "do it",
                "go ahead",
                "confirm",
                "please do",
                "yes do it",
            }
        ),
        Shortcut.NO: frozenset(
            {
                "no",
                "nope",
                "never mind",
                "nevermind",
                "cancel",
                "dont",
                "don't",
                "no thanks",
                "forget it",
            }
        ),
    },
}
# How questions about the home start, per language. "Can you ...", "do the
# same ..." and the like are requests, so they are not on the list.
QUESTION_OPENERS: Mapping[str, tuple[str, ...]] = {
    "en": (
        "how ",
        "what",
        "which ",
        "when ",
        "where ",
        "who ",
        "is ",
        "are ",
        "does ",
        "was ",
        "were ",
    ),
}
_FILLER = re.compile(r"^(?:please |ok |okay )|(?: please| thanks| thank you)$")
_PUNCTUATION = re.compile(r"[^\w\s']")

ON_OFF_DOMAINS = frozenset(
    {"light", "switch", "fan", "input_boolean", "siren", "humidifier"}
)


def match_shortcut(
    text: str, language: str, allowed: Iterable[Shortcut]
) -> Shortcut | None:
    """The shortcut a whole utterance is, if any (unknown languages: none)."""
    phrases = PHRASES.get(language.partition("-")[0].casefold())
    if phrases is None:
        return None
    said = _PUNCTUATION.sub("", text.casefold()).strip()
    said = _FILLER.sub("", " ".join(said.split())).strip()
    return next((shortcut for shortcut in allowed if said in phrases[shortcut]), None)


def is_state_question(text: str, language: str) -> bool:
    """Whether an utterance asks about the home rather than for a change."""
    openers = QUESTION_OPENERS.get(language.partition("-")[0].casefold(), ())
    return text.casefold().lstrip().startswith(openers)


def undo_actions(executed: Iterable[ExecutedAction]) -> list[Action]:
    """Actions that restore the recorded prior states, newest action last-in."""
    restore: dict[str, PriorState] = {}
    for action in executed:
        for entity_id, prior in action.prior.items():
            restore.setdefault(entity_id, prior)  # the oldest prior state wins
    actions: list[Action] = []
    for entity_id, prior in restore.items():
        actions.extend(_restore(entity_id, prior))
    return actions


def _restore(entity_id: str, prior: PriorState) -> list[Action]:
    """The service calls that bring one entity back to a prior state."""
    domain = entity_id.partition(".")[0]
    restore = RESTORERS.get(domain)
    if restore is None and domain in ON_OFF_DOMAINS:
        restore = _restore_on_off
    return restore(domain, (entity_id,), prior) if restore else []


type Restorer = Callable[[str, tuple[str, ...], PriorState], list[Action]]


def _restore_on_off(
    domain: str, target: tuple[str, ...], prior: PriorState
) -> list[Action]:
    if prior.state not in ("on", "off"):
        return []
    return [Action(f"{domain}.turn_{prior.state}", target)]


def _restore_light(
    domain: str, target: tuple[str, ...], prior: PriorState
) -> list[Action]:
    if prior.state != "on":
        return _restore_on_off(domain, target, prior)
    return [Action("light.turn_on", target, dict(prior.attributes))]


def _restore_fan(
    domain: str, target: tuple[str, ...], prior: PriorState
) -> list[Action]:
    if prior.state == "on" and "percentage" in prior.attributes:
        return [Action("fan.set_percentage", target, dict(prior.attributes))]
    return _restore_on_off(domain, target, prior)


def _restore_cover(
    domain: str, target: tuple[str, ...], prior: PriorState
) -> list[Action]:
    if "current_position" in prior.attributes:
        position = prior.attributes["current_position"]
        return [Action("cover.set_cover_position", target, {"position": position})]
    service = {"open": "open_cover", "closed": "close_cover"}.get(prior.state)
    return [Action(f"cover.{service}", target)] if service else []


def _restore_climate(
    domain: str, target: tuple[str, ...], prior: PriorState
) -> list[Action]:
    actions = [Action("climate.set_hvac_mode", target, {"hvac_mode": prior.state})]
    if "temperature" in prior.attributes:
        temperature = prior.attributes["temperature"]
        actions.append(
            Action("climate.set_temperature", target, {"temperature": temperature})
        )
    return actions


def _restore_media(
    domain: str, target: tuple[str, ...], prior: PriorState
) -> list[Action]:
    actions = []
    if "volume_level" in prior.attributes:
        volume = prior.attributes["volume_level"]
        actions.append(
            Action("media_player.volume_set", target, {"volume_level": volume})
        )
    service = {"playing": "media_play", "paused": "media_pause", "off": "turn_off"}.get(
        prior.state
    )
    if service:
        actions.append(Action(f"media_player.{service}", target))
    return actions


def _restore_lock(
    domain: str, target: tuple[str, ...], prior: PriorState
) -> list[Action]:
    service = {"locked": "lock", "unlocked": "unlock"}.get(prior.state)
    return [Action(f"lock.{service}", target)] if service else []


def _restore_value(
    domain: str, target: tuple[str, ...], prior: PriorState
) -> list[Action]:
    try:
        value = float(prior.state)
    except ValueError:  # unknown or unavailable before: nothing to go back to
        return []
    return [Action(f"{domain}.set_value", target, {"value": value})]


def _restore_option(
    domain: str, target: tuple[str, ...], prior: PriorState
) -> list[Action]:
    return [Action(f"{domain}.select_option", target, {"option": prior.state})]


RESTORERS: Mapping[str, Restorer] = {
    "light": _restore_light,
    "fan": _restore_fan,
    "cover": _restore_cover,
    "climate": _restore_climate,
    "media_player": _restore_media,
    "lock": _restore_lock,
    "input_number": _restore_value,
    "number": _restore_value,
    "input_select": _restore_option,
    "select": _restore_option,
}


STOP_SERVICES: Mapping[str, str] = {
    "media_player": "media_pause",
    "cover": "stop_cover",
    "vacuum": "stop",
    "climate": "turn_off",
    "script": "turn_off",
    **dict.fromkeys(ON_OFF_DOMAINS, "turn_off"),
}


def stop_actions(executed: Iterable[ExecutedAction]) -> list[Action]:
    """Stop or pause what the previous turn started."""
    targets = dict.fromkeys(t for action in executed for t in action.targets)
    return [
        Action(f"{domain}.{STOP_SERVICES[domain]}", (entity_id,))
        for entity_id in targets
        if (domain := entity_id.partition(".")[0]) in STOP_SERVICES
    ]
