"""Constants and defaults for Intent Router."""

from __future__ import annotations

import logging
from typing import Final

DOMAIN: Final = "intent_router"
LOGGER = logging.getLogger(__package__)

# Connection (config entry data). CONF_URL, CONF_API_KEY and CONF_VERIFY_SSL
# come from homeassistant.const.
DEFAULT_URL: Final = "http://localhost:11434/v1"
PROBE_TIMEOUT: Final = 10.0

# Tunables (config entry options).
CONF_MODEL: Final = "model"
CONF_TIMEOUT: Final = "timeout"
CONF_CONFIDENCE_THRESHOLD: Final = "confidence_threshold"
CONF_TEMPERATURE: Final = "temperature"
CONF_ALLOWED_DOMAINS: Final = "allowed_domains"
CONF_CONFIRM_DOMAINS: Final = "confirm_domains"
CONF_EXTRA_INSTRUCTIONS: Final = "extra_instructions"
CONF_CONTEXT_TURNS: Final = "context_turns"
CONF_CONTEXT_TTL: Final = "context_ttl"
CONF_LOCAL_FIRST: Final = "local_first"
CONF_USE_LLM: Final = "use_llm"
CONF_DEFAULT_MUSIC_PLAYER: Final = "default_music_player"
# Stored as a list of {"url": str, "token": str | None}; edited as text lines.
CONF_MCP_SERVERS: Final = "mcp_servers"

DEFAULT_MODEL: Final = "qwen2.5:3b"
DEFAULT_TIMEOUT: Final = 5.0
DEFAULT_CONFIDENCE_THRESHOLD: Final = 0.7
DEFAULT_TEMPERATURE: Final = 0.1
DEFAULT_ALLOWED_DOMAINS: Final = [
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
]
DEFAULT_LOCAL_FIRST: Final = True
DEFAULT_USE_LLM: Final = True
DEFAULT_CONTEXT_TURNS: Final = 10
DEFAULT_CONTEXT_TTL: Final = 30  # minutes
DEFAULT_CONFIRM_DOMAINS: Final = ["alarm_control_panel", "lock"]

# Covers of these device classes always need a confirmation, like locks.
CONFIRM_COVER_DEVICE_CLASSES: Final = frozenset({"garage", "gate", "door"})

# Safety limits that options cannot lift (DESIGN.md, Safety).
DENIED_DOMAINS: Final = frozenset(
    {
        "backup",
        "hassio",
        "homeassistant",
        "logger",
        "pyscript",
        "python_script",
        "recorder",
        "rest_command",
        "shell_command",
        "system_log",
        "update",
        DOMAIN,
    }
)
DENIED_SERVICE_WORDS: Final = frozenset({"reload", "restart", "shutdown", "reboot"})
MAX_ACTIONS: Final = 5
RATE_LIMIT_PER_MINUTE: Final = 20

# Fired once per handled turn (never with the user's text).
EVENT_HANDLED: Final = "intent_router_handled"
MAX_TEXT_LENGTH: Final = 1000
