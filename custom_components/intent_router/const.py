"""Constants of Intent Router, and the connection's defaults.

An agent's defaults are its options' (settings.py).
"""

from __future__ import annotations

import logging
from typing import Final

DOMAIN: Final = "intent_router"
# A new agent's name (its subentry's title), as core names its LLM agents.
NAME: Final = "Intent Router"
LOGGER = logging.getLogger(__package__)

# Connection (config entry data). CONF_URL, CONF_API_KEY and CONF_VERIFY_SSL
# come from homeassistant.const.
DEFAULT_URL: Final = "http://localhost:11434/v1"
PROBE_TIMEOUT: Final = 10.0

# Each conversation agent is a config subentry of this type, as in core's
# LLM integrations (anthropic, ollama, openai_conversation).
SUBENTRY_AGENT: Final = "conversation"

# An agent's tunables (its subentry's data; settings.py says why each is the
# agent's).
CONF_MODEL: Final = "model"
CONF_TIMEOUT: Final = "timeout"
CONF_CONFIDENCE_THRESHOLD: Final = "confidence_threshold"
CONF_TEMPERATURE: Final = "temperature"
CONF_ALLOWED_DOMAINS: Final = "allowed_domains"
CONF_CONFIRM_DOMAINS: Final = "confirm_domains"
CONF_CONFIRM_EVERY_ACTION: Final = "confirm_every_action"
CONF_EXTRA_INSTRUCTIONS: Final = "extra_instructions"
CONF_CONTEXT_TURNS: Final = "context_turns"
CONF_CONTEXT_TTL: Final = "context_ttl"
CONF_LOCAL_FIRST: Final = "local_first"
CONF_LEARN_COMMANDS: Final = "learn_commands"
CONF_USE_LLM: Final = "use_llm"
CONF_DEFAULT_MUSIC_PLAYER: Final = "default_music_player"
# Stored as a list of {"url": str, "token": str | None}; edited as text lines.
CONF_MCP_SERVERS: Final = "mcp_servers"

# A typical model plan, to judge the server's measured speed by
# (server_speed.py): the medians of the dialogue bench's run
# `dialogues-compact-c-20261124T075931Z` (bench/summaries/dialogues.md):
# prompt tokens the server processed per turn (the rest was cached) and
# tokens the model wrote.
TYPICAL_PLAN_PROMPT_TOKENS: Final = 98
TYPICAL_PLAN_OUTPUT_TOKENS: Final = 12
# The timeout offered is what a typical plan needs, times this.
TIMEOUT_MARGIN: Final = 1.5

# Home Assistant's intents about the satellites' timers (helpers.intent):
# no device, so only its sentences run them.
TIMER_INTENTS: Final = frozenset(
    {
        "HassStartTimer",
        "HassCancelTimer",
        "HassCancelAllTimers",
        "HassIncreaseTimer",
        "HassDecreaseTimer",
        "HassPauseTimer",
        "HassUnpauseTimer",
        "HassTimerStatus",
    }
)
# The kinds of media music is searched and played as (music/media.py),
# whoever asks: the model, the reading or Home Assistant's sentences.
MUSIC_KINDS: Final = frozenset(
    {"track", "album", "artist", "playlist", "genre", "podcast"}
)

# Turns a minute one device may take (utterance.py, RateLimiter).
RATE_LIMIT_PER_MINUTE: Final = 20

# Fired once per handled turn (never with the user's text).
EVENT_HANDLED: Final = "intent_router_handled"
MAX_TEXT_LENGTH: Final = 1000
