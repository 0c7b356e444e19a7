"""The options as one frozen object, built once per set-up.

The entry reloads whenever its options change, so the agent and its tools
read a `Settings` built at set-up instead of the options on every turn. This
is the one place defaults are applied: a new entry's options and the options
form both start from `Settings()`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from .const import (
    CONF_ALLOWED_DOMAINS,
    CONF_CONFIDENCE_THRESHOLD,
    CONF_CONFIRM_DOMAINS,
    CONF_CONTEXT_TTL,
    CONF_CONTEXT_TURNS,
    CONF_DEFAULT_MUSIC_PLAYER,
    CONF_EXTRA_INSTRUCTIONS,
    CONF_LOCAL_FIRST,
    CONF_MCP_SERVERS,
    CONF_MODEL,
    CONF_TEMPERATURE,
    CONF_TIMEOUT,
    CONF_USE_LLM,
)
from .domains import confirmed_by_default

DEFAULT_MODEL = "qwen2.5:3b"
DEFAULT_ALLOWED_DOMAINS = (
    "alarm_control_panel",
    "calendar",
    "climate",
    "cover",
    "fan",
    "humidifier",
    "input_boolean",
    "input_button",
    "input_number",
    "input_select",
    "lawn_mower",
    "light",
    "lock",
    "media_player",
    "number",
    "scene",
    "script",
    "select",
    "siren",
    "switch",
    "todo",
    "vacuum",
    "valve",
    "water_heater",
    "weather",
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
    """Every tunable of one config entry, with its default."""

    model: str = DEFAULT_MODEL
    timeout: float = 5.0  # seconds, for a whole turn
    confidence_threshold: float = 0.7
    temperature: float = 0.1
    allowed_domains: frozenset[str] = frozenset(DEFAULT_ALLOWED_DOMAINS)
    confirm_domains: frozenset[str] = frozenset(DEFAULT_CONFIRM_DOMAINS)
    extra_instructions: str = ""
    context_turns: int = 10
    context_ttl: float = 30.0  # minutes
    local_first: bool = True
    use_llm: bool = True
    default_music_player: str | None = None
    mcp_servers: tuple[McpServerConfig, ...] = field(default=())

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Settings:
        """Settings from stored options; a missing option takes its default."""
        default = cls()
        return cls(
            model=str(options.get(CONF_MODEL) or default.model),
            timeout=float(options.get(CONF_TIMEOUT, default.timeout)),
            confidence_threshold=float(
                options.get(CONF_CONFIDENCE_THRESHOLD, default.confidence_threshold)
            ),
            temperature=float(options.get(CONF_TEMPERATURE, default.temperature)),
            allowed_domains=frozenset(
                options.get(CONF_ALLOWED_DOMAINS, default.allowed_domains)
            ),
            confirm_domains=frozenset(
                options.get(CONF_CONFIRM_DOMAINS, default.confirm_domains)
            ),
            extra_instructions=str(options.get(CONF_EXTRA_INSTRUCTIONS) or "").strip(),
            context_turns=int(options.get(CONF_CONTEXT_TURNS, default.context_turns)),
            context_ttl=float(options.get(CONF_CONTEXT_TTL, default.context_ttl)),
            local_first=bool(options.get(CONF_LOCAL_FIRST, default.local_first)),
            use_llm=bool(options.get(CONF_USE_LLM, default.use_llm)),
            default_music_player=options.get(CONF_DEFAULT_MUSIC_PLAYER) or None,
            mcp_servers=tuple(
                McpServerConfig(str(server["url"]), server.get("token") or None)
                for server in options.get(CONF_MCP_SERVERS) or ()
            ),
        )

    def as_options(self) -> dict[str, Any]:
        """The settings as stored options (lists sorted, JSON-friendly)."""
        return {
            CONF_MODEL: self.model,
            CONF_TIMEOUT: self.timeout,
            CONF_CONFIDENCE_THRESHOLD: self.confidence_threshold,
            CONF_TEMPERATURE: self.temperature,
            CONF_ALLOWED_DOMAINS: sorted(self.allowed_domains),
            CONF_CONFIRM_DOMAINS: sorted(self.confirm_domains),
            CONF_EXTRA_INSTRUCTIONS: self.extra_instructions,
            CONF_CONTEXT_TURNS: self.context_turns,
            CONF_CONTEXT_TTL: self.context_ttl,
            CONF_LOCAL_FIRST: self.local_first,
            CONF_USE_LLM: self.use_llm,
            CONF_DEFAULT_MUSIC_PLAYER: self.default_music_player,
            CONF_MCP_SERVERS: [asdict(server) for server in self.mcp_servers],
        }

    @property
    def context_ttl_seconds(self) -> float:
        """How long a turn is remembered, in seconds."""
        return self.context_ttl * 60


def default_options(models: list[str]) -> dict[str, Any]:
    """Options for a new entry: the defaults, with a model the server has."""
    model = models[0] if models and DEFAULT_MODEL not in models else DEFAULT_MODEL
    return {**Settings().as_options(), CONF_MODEL: model}
