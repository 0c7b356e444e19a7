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
CONF_LEARN_COMMANDS: Final = "learn_commands"
CONF_USE_LLM: Final = "use_llm"
CONF_DEFAULT_MUSIC_PLAYER: Final = "default_music_player"
# Stored as a list of {"url": str, "token": str | None}; edited as text lines.
CONF_MCP_SERVERS: Final = "mcp_servers"

# Turns a minute one device may take (utterance.py, RateLimiter).
RATE_LIMIT_PER_MINUTE: Final = 20

# Fired once per handled turn (never with the user's text).
EVENT_HANDLED: Final = "intent_router_handled"
MAX_TEXT_LENGTH: Final = 1000
