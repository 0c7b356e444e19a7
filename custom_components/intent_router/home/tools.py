"""Tools that are not Home Assistant services: music and MCP.

A plan names them like services (`music.play`, `mcp.<server>.<tool>`); the
catalog lists them, validation asks the tool, and the executor runs it. A
tool reports what it did in a `ToolRun`, including the entities it acted on
and their prior states, so memory, "stop that" and "undo" work for it too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from ..core.speech import Phrase
from ..language.tables import Verb

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from homeassistant.core import Context, HomeAssistant

    from ..core.records import Action, EntityInfo, PriorState
    from ..core.said import Said


@dataclass(slots=True)
class ToolRun:
    """How a tool call went."""

    # A short error class ("timeout", "not_found", ...); None when it worked.
    error: str | None = None
    # What the tool says happened, spoken instead of the plan's speech.
    speech: Phrase | None = None
    # The service call it made, when that says what happened ("Paused X").
    effect: Action | None = None
    # Data the user asked for, phrased for them by a second, short model call.
    result: Any = None
    # The entities it acted on and their states before, for memory and undo.
    affected: tuple[str, ...] = ()
    prior: dict[str, PriorState] = field(default_factory=dict)


class ToolQuestion(Exception):  # noqa: N818 - a question, not an error
    """The tool cannot go on without the user's choice; ask them."""

    def __init__(self, question: Phrase) -> None:
        """Keep the question to speak."""
        super().__init__(question.key)
        self.question = question


class HomeView(Protocol):
    """What a tool sees of the home for one turn (the catalog is one)."""

    @property
    def exposed(self) -> Mapping[str, EntityInfo]:
        """Every exposed entity."""

    @property
    def speaker_area(self) -> str | None:
        """The area of the device spoken to, if known."""

    @property
    def recent_targets(self) -> Sequence[str]:
        """What the speaker's last turns acted on (newest last)."""


class Tool(Protocol):
    """One callable tool as the model sees it."""

    @property
    def name(self) -> str:
        """The plan's `tool` value, e.g. `music.play`."""

    @property
    def kind(self) -> str | None:
        """The domain whose devices the words must point at for it to run.

        Music needs music or a speaker said ("play", "pause", "the
        speaker"); None for tools that stand on their own (MCP), whose
        server decides what they touch.
        """

    @property
    def subject(self) -> frozenset[str] | None:
        """For a tool that may change things, the words that say what it acts on.

        None for a tool that only reads (an MCP tool marked read-only) or
        whose `kind` says what it acts on; a tool whose subject the words do
        not say runs only after a yes, so an instruction hidden in an entity
        name or a reply cannot call it.
        """

    def describe(self) -> str:
        """One prompt line: `name(field, ...): what it does`."""

    def validate(self, action: Action, home: HomeView) -> Action:
        """Return the action ready to run, with defaults such as the player resolved.

        Raise PlanError when it is not acceptable, ToolQuestion when the user
        has to choose.
        """

    async def async_run(
        self, hass: HomeAssistant, action: Action, context: Context, timeout: float
    ) -> ToolRun:
        """Carry the action out within `timeout` seconds."""


@runtime_checkable
class ReadsWords(Protocol):
    """A tool that reads its own requests from the words (music: "play <name>")."""

    def read_words(
        self, said: Said, home: HomeView, verbs: frozenset[Verb]
    ) -> Action | None:
        """The action the words ask of this tool, when they say it whole.

        `verbs` are the reading's, when the words name nothing else ("pause
        the music"): where they act is the tool's to choose.
        """


class ToolSource(Protocol):
    """Something that offers tools for a turn (music players, MCP servers)."""

    def tools(self, exposed: Mapping[str, EntityInfo]) -> Iterable[Tool]:
        """The tools available given what is exposed right now."""
