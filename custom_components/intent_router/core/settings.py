"""An agent's options as one frozen object, built once per set-up.

The config entry is the model server (URL, key, TLS check); each
conversation agent on it is a config subentry whose data are these options,
as core's LLM integrations keep theirs. Every option belongs to the agent,
none to the connection:

- model, temperature, instructions and use-LLM say how this agent asks;
  two agents on one server differ exactly there (another model, another
  language's instructions);
- the timeout and the threshold fit the agent's model: the warm-up measures
  the server with that model (server_speed.py), and the repair it raises
  offers a longer timeout to that agent;
- local-first, learning and memory (turns, TTL) shape what the agent
  remembers, and each agent keeps its own memory and learned commands;
- allowed domains, confirmation, the default music player and MCP servers
  are what the agent may do: one agent may control music, another the
  locks, each with its own tools.

The entry reloads whenever an agent changes, so the agent and its tools read
a `Settings` built at set-up instead of the options on every turn. This is
the one place an agent's defaults are: a new agent's options and the agent
form both start from `Settings()` (the connection's are const.py's).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from .domains import DOMAINS, ConfirmPolicy, confirmed_by_default

DEFAULT_MODEL = "qwen2.5:3b"
# What an agent may act on by default: every domain of domains.py but
# automations (the owner adds them) and sensors (nothing to call), and those
# acted on through Home Assistant's own services alone, which need no
# record there.
_NOT_BY_DEFAULT = frozenset({"automation", "binary_sensor", "sensor"})
_SERVICES_ONLY = frozenset({"input_button"})
DEFAULT_ALLOWED_DOMAINS = tuple(
    sorted((DOMAINS.keys() - _NOT_BY_DEFAULT) | _SERVICES_ONLY)
)
DEFAULT_CONFIRM_DOMAINS = confirmed_by_default()
MAX_CONTEXT_TTL = 30 * 24 * 60  # 30 days, in minutes


@dataclass(slots=True, frozen=True)
class McpServerConfig:
    """An MCP server to take tools from, and its bearer token if any."""

    url: str
    token: str | None = None


@dataclass(slots=True, frozen=True)
class Settings:
    """Every tunable of one agent (config subentry), with its default."""

    model: str = DEFAULT_MODEL
    timeout: float = 5.0  # seconds, for a whole turn
    confidence_threshold: float = 0.7
    temperature: float = 0.1
    allowed_domains: frozenset[str] = frozenset(DEFAULT_ALLOWED_DOMAINS)
    confirm_domains: frozenset[str] = frozenset(DEFAULT_CONFIRM_DOMAINS)
    # Ask for every action on those domains, not only what opens the home.
    confirm_every_action: bool = False
    extra_instructions: str = ""
    context_turns: int = 10
    context_ttl: float = 30.0  # minutes
    local_first: bool = True
    learn_commands: bool = True
    use_llm: bool = True
    default_music_player: str | None = None
    mcp_servers: tuple[McpServerConfig, ...] = field(default=())

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Settings:
        """Settings from stored options; a missing or empty one takes its default.

        Each field is named as its option key (the `CONF_*` constants).
        """
        default = cls()
        return cls(
            **{
                item.name: _read(getattr(default, item.name), options[item.name])
                for item in fields(cls)
                if options.get(item.name) is not None
            }
        )

    def as_options(self) -> dict[str, Any]:
        """The settings as stored options (lists sorted, JSON-friendly)."""
        return {item.name: _write(getattr(self, item.name)) for item in fields(self)}

    @property
    def confirm_policy(self) -> ConfirmPolicy:
        """What asks before acting (gate.py)."""
        return ConfirmPolicy(self.confirm_domains, self.confirm_every_action)

    @property
    def context_ttl_seconds(self) -> float:
        """How long a turn is remembered, in seconds."""
        return self.context_ttl * 60


def default_options(models: list[str]) -> dict[str, Any]:
    """Options for a new agent: the defaults, with a model the server has."""
    model = models[0] if models and DEFAULT_MODEL not in models else DEFAULT_MODEL
    return Settings(model=model).as_options()


def _read(default: Any, value: Any) -> Any:
    """A stored option as the type of its default."""
    if isinstance(default, frozenset):
        return frozenset(value)
    if isinstance(default, tuple):
        return tuple(
            McpServerConfig(str(server["url"]), server.get("token") or None)
            for server in value
        )
    if isinstance(default, str):
        return str(value).strip() or default
    if isinstance(default, (bool, int, float)):
        return type(default)(value)
    return value or None


def _write(value: Any) -> Any:
    """A setting as JSON-friendly option data."""
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return [asdict(server) for server in value]
    return value
