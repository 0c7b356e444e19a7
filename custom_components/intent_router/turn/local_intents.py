"""Home Assistant's own local intents: the deterministic path.

Used first for exact matches (local-first), and again when the model fails.
What a local intent did is translated back into service calls, so the turn
is remembered like any other and "again", "undo" and "do the same in the
bedroom" work after it too.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from homeassistant.components import conversation
from homeassistant.components.conversation.agent_manager import get_agent_manager
from homeassistant.components.conversation.gazetteer import GazetteerFallback
from homeassistant.components.media_player.const import INTENT_MEDIA_SEARCH_AND_PLAY
from homeassistant.core import State
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import area_registry as ar, device_registry as dr, intent

from ..const import LOGGER, TIMER_INTENTS
from ..core.domains import VOLUME_PERCENT, domain_info
from ..core.records import Action, EntityInfo, ExecutedAction
from ..core.said import Said
from ..deciding.local_plans import service_call
from ..home.executor import prior_of
from ..language import Verb, distinctive_words
from ..language.music import says_another_command
from ..reading.heard import all_heard
from ..reading.values import Value
from .ha_music import music_control, music_play, slot_text
from .local_checks import (
    another_kind_meant,
    not_sound,
    not_what_was_called,
    value_beside,
)

if TYPE_CHECKING:
    from hassil.recognize import RecognizeResult

    from homeassistant.components.conversation import ChatLog, ConversationInput
    from homeassistant.core import HomeAssistant


@dataclass(slots=True, frozen=True)
class Held:
    """A local match that must not act yet: what it would do, for the gate.

    Home Assistant acts as soon as it handles a sentence, so a sentence that
    would open the home (unlock a door, open a garage), or whose words say a
    value the match left out ("turn on the fan at full speed"), is
    recognised, not handled. Its `actions` are one service call per service
    and values, with every target HA matched for it.
    """

    actions: tuple[Action, ...]


@dataclass(slots=True, frozen=True)
class Declined:
    """A local match the agent leaves to its own reading, and why (traced).

    `another_kind_meant`: it acts on a device named like a room while the
    words say or imply another kind ("turn the heat up in the living
    room" on a speaker called Living Room).
    """

    reason: str


# Whether a service call on an entity asks first ("lock.unlock" on a lock).
type AsksFirst = Callable[[str, State], bool]
# A way of handling a sentence as Home Assistant's own agent does.
# (`Said`: the words read once, for the agent's own checks of HA's match.)
type LocalHandler = Callable[
    [HomeAssistant, ConversationInput, Said, ChatLog, AsksFirst],
    Awaitable[intent.IntentResponse | Held | Declined | None],
]


async def async_handle_locally(
    hass: HomeAssistant,
    user_input: ConversationInput,
    said: Said,
    chat_log: ChatLog,
    asks: AsksFirst,
) -> intent.IntentResponse | Held | Declined | None:
    """HA's strict local match: exact wording, exposed entities; else None.

    A match whose service calls `asks` first, or that switches on where a
    value was said beside it, is returned as `Held` (with the value)
    instead of being handled; anything else (a question, a timer, a command for the
    state a device shows already) runs as HA runs it, whatever else is in
    the room. A match that fails (an error response, or an intent whose
    integration is not set up) is no answer either: the model, or the
    explanation, follows. A match on a device named like a room, where the
    words mean another kind, is `Declined`.
    """
    matches = _Matches(hass, user_input, said, asks)
    try:
        response = await conversation.async_handle_intents(
            hass, user_input, chat_log, intent_filter=matches.leave_to_the_agent
        )
    except HomeAssistantError as err:
        LOGGER.debug("Local intent failed: %s", err)
        return None
    if matches.held:
        return matches.held[0]
    if response is None:
        # "play <anything>" matches widely: music only where nothing else did.
        music, declined = matches.music, matches.declined
        return music[0] if music else next(iter(declined), None)
    return _answer(response, matches.handled)


@dataclass(slots=True)
class _Matches:
    """What HA's matches for one sentence came to, as HA offers each to the agent.

    Held for the gate (it asks first, or a value was said beside it), a
    music search for music.play, handled as HA handles it, or declined.
    """

    hass: HomeAssistant
    user_input: ConversationInput
    said: Said
    asks: AsksFirst
    held: list[Held] = field(default_factory=list)
    music: list[Held] = field(default_factory=list)
    handled: list[str] = field(default_factory=list)
    declined: list[Declined] = field(default_factory=list)

    def leave_to_the_agent(self, result: RecognizeResult) -> bool:
        """Whether a match is the agent's to hold or read (HA's `intent_filter`)."""
        hass, said = self.hass, self.said
        # Searching and playing music by name is music.play's job: it verifies.
        if result.intent.name == INTENT_MEDIA_SEARCH_AND_PLAY:
            # "Pon el flexo al 22 %" matches "pon {query}": no search, the
            # reading's command.
            if not says_another_command(
                said.text, said.words, said.language, said.spoken
            ):
                self.music.append(Held((music_play(hass, result, self.user_input),)))
            return True
        if not_sound(result.intent.name, said):
            return True
        slots = {name: entity.value for name, entity in result.entities.items()}
        targets = _matched_states(hass, result.intent.name, slots, self.user_input)
        if another_kind_meant(hass, targets, said):
            self.declined.append(Declined("another_kind_meant"))
        if self.declined or not_what_was_called(hass, result, targets, said):
            return True
        calls = _proposed_calls(result.intent.name, slots, targets)
        valued = _with_value_beside(calls, said, _matched_words(result))
        if valued or any(self.asks(service, state) for service, _, state in calls):
            self.held.append(Held(_grouped(valued or calls)))
            return True
        if control := music_control(result, targets):
            self.held.append(Held(control))
            return True
        self.handled.append(result.intent.name)
        return False


async def async_handle_by_gazetteer(
    hass: HomeAssistant,
    user_input: ConversationInput,
    said: Said,
    chat_log: ChatLog,
    asks: AsksFirst,
) -> intent.IntentResponse | Held | Declined | None:
    """HA's own agent's second reading, where its templates match nothing.

    Home Assistant's agent reads a sentence its templates miss with its
    gazetteer (other wordings, misheard names; English only). That is part
    of the floor too: where it reads the sentence whole, it runs as HA runs
    it, unless it would open the home (held for the gate, as above) or its
    targets cannot be told before it acts, or it found a device by a name
    whose own words were not said ("Kono Smart Thermostat" is no Netatmo
    Smart Thermostat: a home without it has nothing to turn on). Core keeps
    the gazetteer to its own agent: without it (another version), there is
    nothing to add.
    """
    agent = get_agent_manager(hass).default_agent
    gazetteer = getattr(agent, "_gazetteer", None)
    language = user_input.language
    if not isinstance(gazetteer, GazetteerFallback) or not gazetteer.supports(language):
        return None
    area = _speaker_area(hass, user_input)
    _, reading = await gazetteer.async_interpret(
        user_input.text, chat_log.conversation_id, area
    )
    frames = reading.frames
    if (
        not reading.accepted
        or not frames
        or any(f.response_key is None for f in frames)
    ):
        return None
    calls = _gazetteer_calls(
        hass, [(f.intent, f.slots) for f in frames], said, user_input
    )
    if not isinstance(calls, list):
        return calls
    matched = (
        text for frame in frames for v in frame.slots.values() if (text := slot_text(v))
    )
    valued = _with_value_beside(calls, said, matched)
    if valued or any(asks(tool, state) for tool, _, state in calls):
        return Held(_grouped(valued or calls))
    result = await conversation.async_converse(
        hass,
        user_input.text,
        None,
        user_input.context,
        language,
        agent_id=conversation.HOME_ASSISTANT_AGENT,
        device_id=user_input.device_id,
        satellite_id=user_input.satellite_id,
    )
    return _answer(result.response, [frame.intent for frame in frames])


def _gazetteer_calls(
    hass: HomeAssistant,
    frames: Sequence[tuple[str, Mapping[str, Any]]],
    said: Said,
    user_input: ConversationInput,
) -> list[_Call] | Declined | None:
    """The service calls the gazetteer's reading would make, checked.

    None where its targets cannot be told before it acts, or where it found
    a device by a name whose own words were not said; `Declined` where it
    acts on a device named like a room while another kind is meant.
    """
    # (Its sentences are English: a name said in the possessive is the name.)
    plain = [word.removesuffix("'s") for word in said.terms]
    calls: list[_Call] = []
    for intent_name, slots in frames:
        targets = _matched_states(hass, intent_name, slots, user_input)
        if "name" in slots and not all(
            all_heard(distinctive_words(state.name, said.language), plain)
            for state in targets
        ):
            return None
        if another_kind_meant(hass, targets, said) or not_sound(intent_name, said):
            return Declined("another_kind_meant")
        proposed = _proposed_calls(intent_name, slots, targets)
        if intent_name in _SERVICES and not proposed:
            return None  # what it would act on is not known before it acts
        calls += proposed
    return calls


def _answer(
    response: intent.IntentResponse, intents: Collection[str]
) -> intent.IntentResponse | None:
    """HA's response, or None where its error leaves the turn to the agent.

    A timer is no device: HA's word on one it cannot find is the answer (a
    guess would pause a player).
    """
    if response.response_type is not intent.IntentResponseType.ERROR:
        return response
    return response if TIMER_INTENTS.intersection(intents) else None


def _speaker_area(
    hass: HomeAssistant, user_input: ConversationInput
) -> ar.AreaEntry | None:
    """The area of the device that spoke, if it has one."""
    device = (
        dr.async_get(hass).async_get(user_input.device_id)
        if user_input.device_id
        else None
    )
    return (
        ar.async_get(hass).async_get_area(device.area_id)
        if device and device.area_id
        else None
    )


def _matched_states(
    hass: HomeAssistant,
    intent_name: str,
    slots: Mapping[str, Any],
    user_input: ConversationInput,
) -> list[State]:
    """The entities a recognised sentence would act on, matched as HA does."""
    constraints = intent.MatchTargetsConstraints(
        name=slot_text(slots.get("name")),
        area_name=slot_text(slots.get("area")),
        floor_name=slot_text(slots.get("floor")),
        domains=_many(slots.get("domain")) or _handled_domains(hass, intent_name),
        device_classes=_many(slots.get("device_class")),
        assistant=conversation.DOMAIN,
    )
    if not constraints.has_constraints:
        return []
    area = _speaker_area(hass, user_input)
    match = intent.async_match_targets(
        hass,
        constraints,
        intent.MatchTargetsPreferences(area_id=area.id if area else None),
    )
    return match.states if match.is_match else []


def _handled_domains(hass: HomeAssistant, intent_name: str) -> list[str] | None:
    """The only domains an intent's handler acts on ("pause": media players).

    Without them, "pause in the hallway" would be held for the hallway's
    lock too, as `lock.media_pause`.
    """
    handler = next(
        (h for h in intent.async_get(hass) if h.intent_type == intent_name),
        None,
    )
    required = getattr(handler, "required_domains", None)
    return sorted(required) if required else None


def _many(value: Any) -> list[str] | None:
    if value is None:
        return None
    return [str(v) for v in value] if isinstance(value, (list, tuple)) else [str(value)]


type _Call = tuple[str, dict[str, Any], State]


def _proposed_calls(
    intent_name: str, slots: Mapping[str, Any], targets: list[State]
) -> list[_Call]:
    """The service call a recognised intent would make on each target.

    None for an intent that changes nothing a service does here (questions,
    timers): such a match never waits for a yes.
    """
    to_service = _SERVICES.get(intent_name)
    if to_service is None:
        return []
    calls = []
    for state in targets:
        service, data = to_service(state.domain, slots)
        calls.append((f"{state.domain}.{service}", data, state))
    return calls


def _matched_words(result: RecognizeResult) -> list[str]:
    """The words a recognised sentence's slots took, as said and as matched."""
    return [
        text
        for entity in result.entities.values()
        for text in (entity.text, slot_text(entity.value))
        if text
    ]


def _with_value_beside(
    calls: list[_Call], said: Said, matched: Iterable[str]
) -> list[_Call] | None:
    """HA's calls that switch on, set to a value said beside its match.

    "Turn on the kitchen lights to full" is the lights at full brightness;
    the same words set a fan's speed, a cover's position, a player's volume,
    as the domain takes a level (local_plans.service_call). A call that
    cannot take it (a switch) stays as HA makes it. None: no value was left
    out, or nothing takes it.
    """
    value = value_beside(said, matched)
    if value is None:
        return None
    valued = [_valued(call, value) for call in calls]
    return valued if valued != calls else None


def _valued(call: _Call, value: Value) -> _Call:
    """One call that switches on, as the call that sets the value instead."""
    tool, data, state = call
    domain, _, service = tool.partition(".")
    info = EntityInfo(
        state.entity_id, state.name, (), None, state.state, {}, state.attributes
    )
    setting = service_call(info, {Verb.ON}, (value,))
    if service != domain_info(domain).turn_on or setting is None:
        return call
    set_service, set_data = setting
    # A colour said with it stays ("turn the lights red at full brightness").
    kept = data if set_service == service else {}
    return (f"{domain}.{set_service}", {**kept, **set_data}, state)


def _grouped(calls: list[_Call]) -> tuple[Action, ...]:
    """One action per service and values, so a room's devices fit one plan."""
    actions: list[Action] = []
    for tool, data, state in calls:
        for i, action in enumerate(actions):
            if action.tool == tool and action.args == data:
                actions[i] = Action(tool, (*action.targets, state.entity_id), data)
                break
        else:
            actions.append(Action(tool, (state.entity_id,), data))
    return tuple(actions)


def executed_actions(
    response: intent.IntentResponse, before: Mapping[str, State]
) -> list[ExecutedAction]:
    """The service calls a local intent amounts to, for memory and undo.

    `before` are the states from before the intent ran.
    """
    prior = {
        entity_id: prior_of(state)
        for target in response.success_results
        if (entity_id := target.id) and (state := before.get(entity_id))
    }
    if response.intent is None:
        return []
    to_service = _SERVICES.get(response.intent.intent_type)
    if to_service is None:
        return []
    slots = {name: slot.get("value") for name, slot in response.intent.slots.items()}
    actions = []
    for target in response.success_results:
        entity_id = target.id
        if target.type is not intent.IntentResponseTargetType.ENTITY or not entity_id:
            continue
        domain = entity_id.partition(".")[0]
        service, data = to_service(domain, slots)
        actions.append(
            ExecutedAction(
                tool=f"{domain}.{service}",
                targets=[entity_id],
                args=data,
                prior={entity_id: prior[entity_id]} if entity_id in prior else {},
            )
        )
    return actions


type _ToService = Callable[[str, Mapping[str, Any]], tuple[str, dict[str, Any]]]


def _light_set(domain: str, slots: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    data: dict[str, Any] = {}
    if (brightness := slots.get("brightness")) is not None:
        data["brightness_pct"] = brightness
    if (color := slots.get("color")) is not None:
        data["color_name"] = color
    return "turn_on", data


# Intents about a player's sound, not the player.

_SERVICES: Mapping[str, _ToService] = {
    intent.INTENT_TURN_ON: lambda d, _: (domain_info(d).turn_on or "turn_on", {}),
    intent.INTENT_TURN_OFF: lambda d, _: (domain_info(d).turn_off or "turn_off", {}),
    "HassLightSet": _light_set,
    "HassClimateSetTemperature": lambda _, s: (
        "set_temperature",
        {"temperature": s.get("temperature")},
    ),
    # A cover's or a valve's own service: set_cover_position, set_valve_position.
    intent.INTENT_SET_POSITION: lambda d, s: (
        f"set_{d}_position",
        {"position": s.get("position")},
    ),
    "HassVacuumStart": lambda _, __: ("start", {}),
    "HassVacuumReturnToBase": lambda _, __: ("return_to_base", {}),
    "HassMediaPause": lambda _, __: ("media_pause", {}),
    "HassMediaUnpause": lambda _, __: ("media_play", {}),
    "HassMediaNext": lambda _, __: ("media_next_track", {}),
    "HassMediaPrevious": lambda _, __: ("media_previous_track", {}),
    "HassSetVolume": lambda _, s: (
        "volume_set",
        {"volume_level": float(s.get("volume_level", 0)) / VOLUME_PERCENT},
    ),
}
