"""`music.control`: transport, volume, Connect transfer and joining speakers.

It acts on the player the user most likely means: the one named, else the
one playing here, used last, or the default. "Also in the office" joins the
office's player to the one playing, where that one can group.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

import voluptuous as vol

from homeassistant.components.media_player.const import (
    ATTR_GROUP_MEMBERS,
    ATTR_INPUT_SOURCE,
    ATTR_MEDIA_REPEAT,
    ATTR_MEDIA_SHUFFLE,
    ATTR_MEDIA_VOLUME_LEVEL,
    DOMAIN as MEDIA_PLAYER_DOMAIN,
    SERVICE_JOIN,
    SERVICE_SELECT_SOURCE,
    MediaPlayerEntityFeature,
    RepeatMode,
)
from homeassistant.const import (
    SERVICE_MEDIA_NEXT_TRACK,
    SERVICE_MEDIA_PAUSE,
    SERVICE_MEDIA_PLAY,
    SERVICE_MEDIA_PREVIOUS_TRACK,
    SERVICE_MEDIA_STOP,
    SERVICE_REPEAT_SET,
    SERVICE_SHUFFLE_SET,
    SERVICE_VOLUME_DOWN,
    SERVICE_VOLUME_SET,
    SERVICE_VOLUME_UP,
)
from homeassistant.core import Context, HomeAssistant
from homeassistant.exceptions import HomeAssistantError

from ..const import LOGGER
from ..core.domains import VOLUME_PERCENT
from ..core.records import Action, PriorState
from ..core.said import Said
from ..core.speech import phrase
from ..deciding.plan import PlanError, Rejection
from ..home.executor import capture_prior
from ..home.tools import HomeView, ToolRun
from ..language.tables import Verb
from ..turn.replies import entity_name
from .arguments import NAME, checked, given
from .media import async_call, features
from .request import join_request
from .speakers import Speaker, SpeakerTool, by_name, requested

COMMAND_SERVICES: Mapping[str, str] = {
    "pause": SERVICE_MEDIA_PAUSE,
    "resume": SERVICE_MEDIA_PLAY,
    "stop": SERVICE_MEDIA_STOP,
    "next": SERVICE_MEDIA_NEXT_TRACK,
    "previous": SERVICE_MEDIA_PREVIOUS_TRACK,
    "volume_up": SERVICE_VOLUME_UP,
    "volume_down": SERVICE_VOLUME_DOWN,
    "volume_set": SERVICE_VOLUME_SET,
    "shuffle": SERVICE_SHUFFLE_SET,
    "repeat": SERVICE_REPEAT_SET,
    "transfer": SERVICE_SELECT_SOURCE,
    "join": SERVICE_JOIN,
}
# The reading's verbs that are a command of this tool.
VERB_COMMANDS: Mapping[Verb, str] = {Verb.PAUSE: "pause", Verb.RESUME: "resume"}
SHUFFLE_MODES: Mapping[str, bool] = {"on": True, "off": False}
REPEAT_MODES: Mapping[str, RepeatMode] = {
    "on": RepeatMode.ALL,
    "all": RepeatMode.ALL,
    "one": RepeatMode.ONE,
    "off": RepeatMode.OFF,
}


def _mode(value: Any) -> str:
    """Shuffle and repeat modes as words; a model may send true/false."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value).strip().lower()


def _complete(args: dict[str, Any]) -> dict[str, Any]:
    """What a control command needs besides its name."""
    command = args["command"]
    if command == "volume_set" and args.get("level") is None:
        raise vol.Invalid("volume_set needs a level")
    if command == "shuffle" and (args.get("mode") or "on") not in SHUFFLE_MODES:
        raise vol.Invalid("shuffle is on or off")
    if command in ("transfer", "join") and not args.get("target"):
        raise vol.Invalid(f"{command} needs a target speaker")
    return args


_CONTROL_SCHEMA = vol.All(
    {
        vol.Required("command"): vol.All(str, vol.Lower, vol.In(COMMAND_SERVICES)),
        vol.Optional("level"): vol.Any(
            None, vol.All(vol.Coerce(float), vol.Range(min=0, max=100))
        ),
        vol.Optional("mode"): vol.Any(None, vol.All(_mode, vol.In(REPEAT_MODES))),
        vol.Optional("target"): vol.Any(None, NAME),
        vol.Optional("player"): vol.Any(None, NAME),
    },
    _complete,
)


class MusicControl(SpeakerTool):
    """`music.control`: transport, volume, Connect transfer, joining speakers."""

    name = "music.control"

    def describe(self) -> str:
        """The prompt line."""
        return (
            f"{self.name}(command, level, mode, target, player): command is "
            "pause, resume, stop, next, previous, volume_up, volume_down, "
            "volume_set (level 0-100), shuffle (mode on/off), repeat (mode "
            "off/all/one), transfer (target: the Spotify Connect speaker to "
            "move playback to) or join (target: the speaker or room to play "
            "the same music too); player is left out for the one playing "
            "here or used last"
        )

    def read_words(
        self, said: Said, home: HomeView, verbs: frozenset[Verb]
    ) -> Action | None:
        """Joins, "play it in the office too", read from the words (request.py).

        "Also in the office" alone only where music plays here: after a
        light, it may mean the light. "Pause" or "resume" with no player
        said is this tool's: it knows which one this device used.
        """
        request = join_request(said, self._choice.place_test(home))
        if request is not None and (
            request.says_music or self._choice.plays_here(home)
        ):
            return Action(self.name, (), {"command": "join", "target": request.place})
        commands = {VERB_COMMANDS[verb] for verb in verbs & VERB_COMMANDS.keys()}
        if len(commands) == 1:
            return Action(self.name, (), {"command": commands.pop()})
        return None

    def validate(self, action: Action, home: HomeView) -> Action:
        """Check the command and choose the player; ask when it is unclear."""
        args = checked(_CONTROL_SCHEMA, self.name, action.args)
        speakers = self._choice.speakers(home)
        named = requested(self.name, action, args.get("player"))
        if args["command"] == "join":
            speaker, joining = self._joined(args["target"], named, speakers, home)
            args["target"] = joining.player
        elif args["command"] == "transfer":
            connect = [s for s in speakers if s.source]
            if not connect:
                raise PlanError(
                    Rejection.INVALID_ARGS, f"{self.name}: no Connect speakers"
                )
            if named:
                owner = by_name(named, speakers).player
                connect = [s for s in connect if s.player == owner]
            speaker = by_name(args["target"], connect)
            args["target"] = speaker.source
        elif named:
            speaker = by_name(named, speakers)
        else:
            speaker = self._choice.for_control(speakers, home)
        args["player"] = speaker.player
        return Action(self.name, (speaker.player,), given(args))

    def _joined(
        self, target: str, named: str | None, speakers: list[Speaker], home: HomeView
    ) -> tuple[Speaker, Speaker]:
        """The player that plays, and the one to play with it.

        Refused where it cannot group (Home Assistant's `join` needs GROUPING).
        """
        players = [s for s in speakers if not s.source]
        joining = by_name(target, players)
        speaker = (
            by_name(named, players)
            if named
            else self._choice.sharing(players, home, joining)
        )
        self._choice.check_can_group(speaker, joining)
        return speaker, joining

    async def async_run(
        self, hass: HomeAssistant, action: Action, context: Context, timeout: float
    ) -> ToolRun:
        """One media_player service call on the chosen player."""
        player = action.targets[0]
        service, data = _service_call(action.args, features(hass, player))
        prior = (
            _joined_prior(hass, action.args["target"])
            if service == SERVICE_JOIN
            else capture_prior(hass, [player])
        )
        try:
            async with asyncio.timeout(timeout):
                await async_call(hass, player, service, data, context)
        except (TimeoutError, HomeAssistantError) as err:
            LOGGER.debug("%s on %s failed: %r", self.name, player, err)
            return ToolRun(
                error="timeout"
                if isinstance(err, TimeoutError)
                else type(err).__name__,
                speech=phrase("music_control_failed", player=entity_name(hass, player)),
                affected=(player,),
                prior=prior,
            )
        joined = action.args.get("target") if service == SERVICE_JOIN else None
        return ToolRun(
            speech=phrase("music_joined", player=entity_name(hass, joined))
            if joined
            else None,
            affected=(player,),
            prior=prior,
            effect=Action(f"{MEDIA_PLAYER_DOMAIN}.{service}", (player,), data),
        )


def _joined_prior(hass: HomeAssistant, joined: str) -> dict[str, PriorState]:
    """What undo needs to part a join: the joined player's state and group.

    Nothing where that player cannot leave a group (no GROUPING): "undo"
    then says it has nothing to undo rather than claim it is as it was.
    """
    state = hass.states.get(joined)
    if state is None or MediaPlayerEntityFeature.GROUPING not in features(hass, joined):
        return {}
    members = list(state.attributes.get(ATTR_GROUP_MEMBERS) or ())
    return {joined: PriorState(state.state, {ATTR_GROUP_MEMBERS: members})}


def _service_call(
    args: Mapping[str, Any], supported: MediaPlayerEntityFeature
) -> tuple[str, dict[str, Any]]:
    """The media_player service and data of a (validated) control command."""
    command = args["command"]
    mode = args.get("mode")
    if command == "volume_set":
        return SERVICE_VOLUME_SET, {
            ATTR_MEDIA_VOLUME_LEVEL: args["level"] / VOLUME_PERCENT
        }
    if command == "shuffle":
        return SERVICE_SHUFFLE_SET, {ATTR_MEDIA_SHUFFLE: SHUFFLE_MODES[mode or "on"]}
    if command == "repeat":
        return SERVICE_REPEAT_SET, {ATTR_MEDIA_REPEAT: REPEAT_MODES[mode or "all"]}
    if command in ("transfer", "join"):
        target = args["target"]
        return COMMAND_SERVICES[command], (
            {ATTR_INPUT_SOURCE: target}
            if command == "transfer"
            else {ATTR_GROUP_MEMBERS: [target]}
        )
    if command == "stop" and MediaPlayerEntityFeature.STOP not in supported:
        # Spotify and many speakers can only pause; to the user that is stopping.
        return SERVICE_MEDIA_PAUSE, {}
    return COMMAND_SERVICES[command], {}
