"""The agent flow: add a conversation agent to a model server, or change one.

Each agent is a config subentry (subentries.py) whose data are its options
(settings.py), edited in one form of sections. Adding and changing share
the form; saving reloads the entry (its update listener), so the agent runs
with what was saved.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import voluptuous as vol

from homeassistant.config_entries import (
    SOURCE_USER,
    ConfigEntryState,
    ConfigSubentryFlow,
    SubentryFlowResult,
)
from homeassistant.const import CONF_NAME
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import section
from homeassistant.helpers.selector import (
    BooleanSelector,
    EntitySelector,
    EntitySelectorConfig,
    NumberSelector,
    NumberSelectorConfig,
    NumberSelectorMode,
    SelectSelector,
    SelectSelectorConfig,
    SelectSelectorMode,
    TextSelector,
    TextSelectorConfig,
)

from .const import (
    CONF_ALLOWED_DOMAINS,
    CONF_CONFIDENCE_THRESHOLD,
    CONF_CONFIRM_DOMAINS,
    CONF_CONFIRM_EVERY_ACTION,
    CONF_CONTEXT_TTL,
    CONF_CONTEXT_TURNS,
    CONF_DEFAULT_MUSIC_PLAYER,
    CONF_EXTRA_INSTRUCTIONS,
    CONF_LEARN_COMMANDS,
    CONF_LOCAL_FIRST,
    CONF_MCP_SERVERS,
    CONF_MODEL,
    CONF_TEMPERATURE,
    CONF_TIMEOUT,
    CONF_USE_LLM,
    NAME,
)
from .core.safety import DENIED_DOMAINS
from .core.settings import MAX_CONTEXT_TTL, McpServerConfig, Settings, default_options

if TYPE_CHECKING:
    from collections.abc import Mapping

    from .data import IntentRouterConfigEntry

# The form starts from these; `Settings` is their one home.
DEFAULTS = Settings()

# The form's sections, in order, and the options each holds. The options
# are stored flat: the sections are the form's only.
SECTIONS: dict[str, tuple[str, ...]] = {
    "model": (CONF_MODEL, CONF_TEMPERATURE, CONF_EXTRA_INSTRUCTIONS, CONF_USE_LLM),
    "speed": (CONF_TIMEOUT, CONF_LOCAL_FIRST, CONF_LEARN_COMMANDS),
    "memory": (CONF_CONTEXT_TURNS, CONF_CONTEXT_TTL),
    "safety": (
        CONF_CONFIDENCE_THRESHOLD,
        CONF_CONFIRM_DOMAINS,
        CONF_CONFIRM_EVERY_ACTION,
    ),
    "control": (CONF_ALLOWED_DOMAINS, CONF_DEFAULT_MUSIC_PLAYER, CONF_MCP_SERVERS),
}

# Written after an MCP server's URL in the form, removes its token.
REMOVE_TOKEN = "-"  # noqa: S105 - a marker, not a secret


def http_host(url: str) -> str:
    """The host of an http(s) URL; empty for anything the SDK cannot use."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    if parts.scheme not in ("http", "https"):
        return ""
    return parts.hostname or ""


class AgentFlow(ConfigSubentryFlow):
    """A conversation agent: its name, model, limits and what it may do."""

    async def async_step_user(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """A new agent starts from the defaults, with a model the server has."""
        return await self.async_step_init()

    async def async_step_reconfigure(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """An agent is changed starting from its own options."""
        return await self.async_step_init()

    async def async_step_init(
        self, user_input: dict[str, Any] | None = None
    ) -> SubentryFlowResult:
        """Show and validate the agent form; save what it says."""
        entry: IntentRouterConfigEntry = self._get_entry()
        models = (
            entry.runtime_data.models if entry.state is ConfigEntryState.LOADED else []
        )
        subentry = (
            None if self.source == SOURCE_USER else self._get_reconfigure_subentry()
        )
        current = Settings.from_options(
            default_options(models) if subentry is None else subentry.data
        )
        errors: dict[str, str] = {}
        denied: frozenset[str] = frozenset()
        form = _flat(user_input or {})
        if user_input is not None:
            denied = DENIED_DOMAINS.intersection(form[CONF_ALLOWED_DOMAINS])
            if denied:
                errors[CONF_ALLOWED_DOMAINS] = "denied_domain"
            servers = _mcp_servers(form.get(CONF_MCP_SERVERS, ""), current.mcp_servers)
            if servers is None:
                errors[CONF_MCP_SERVERS] = "invalid_mcp_servers"
            elif not errors:
                name = str(user_input[CONF_NAME]).strip() or NAME
                data = _settings(form, servers).as_options()
                if subentry is None:
                    return self.async_create_entry(title=name, data=data)
                return self.async_update_and_abort(
                    entry, subentry, title=name, data=data
                )
        suggested = {
            **current.as_options(),
            CONF_MCP_SERVERS: _mcp_servers_text(current.mcp_servers),
            **form,
        }
        name = subentry.title if subentry else NAME
        return self.async_show_form(
            step_id="init",
            data_schema=self.add_suggested_values_to_schema(
                _agent_schema(self.hass, current, models),
                {CONF_NAME: name, **(user_input or {}), **_sectioned(suggested)},
            ),
            errors=errors,
            description_placeholders={"denied": ", ".join(sorted(denied))},
        )


def _flat(form: Mapping[str, Any]) -> dict[str, Any]:
    """The form's sections as the flat options they hold."""
    return {
        key: value for name in SECTIONS for key, value in (form.get(name) or {}).items()
    }


def _sectioned(options: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Flat options as the form's sections hold them."""
    return {
        name: {key: options[key] for key in keys if key in options}
        for name, keys in SECTIONS.items()
    }


def _settings(
    user_input: Mapping[str, Any], servers: tuple[McpServerConfig, ...]
) -> Settings:
    """The form read as `Settings`, which types the options and fills gaps."""
    form = {**user_input, CONF_MODEL: user_input[CONF_MODEL].strip()}
    return replace(
        Settings.from_options({**form, CONF_MCP_SERVERS: ()}), mcp_servers=servers
    )


def _mcp_servers(
    text: str, stored: tuple[McpServerConfig, ...]
) -> tuple[McpServerConfig, ...] | None:
    """Parse "URL [bearer token]" lines; None when a line is not like that.

    The form never shows stored tokens, so a line with only the URL of a
    stored server keeps that server's token, a line with a token replaces
    it, and a line ending in `REMOVE_TOKEN` ("-") removes it. A token never
    follows a server to another URL.
    """
    stored_tokens = {server.url: server.token for server in stored}
    servers: list[McpServerConfig] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        url, _, typed = line.strip().partition(" ")
        if not http_host(url) or any(server.url == url for server in servers):
            return None
        token = typed.strip() or stored_tokens.get(url)
        servers.append(McpServerConfig(url, None if token == REMOVE_TOKEN else token))
    return tuple(servers)


def _mcp_servers_text(servers: tuple[McpServerConfig, ...]) -> str:
    """The stored MCP servers as the lines the form edits, without tokens."""
    return "\n".join(server.url for server in servers)


def _domain_choices(hass: HomeAssistant, current: Settings) -> list[str]:
    """Domains worth offering: the defaults, those with actions, those chosen."""
    domains = {
        *DEFAULTS.allowed_domains,
        *DEFAULTS.confirm_domains,
        *hass.services.async_services(),
        *current.allowed_domains,
        *current.confirm_domains,
    }
    return sorted(domains - DENIED_DOMAINS)


def _agent_schema(
    hass: HomeAssistant, current: Settings, models: list[str]
) -> vol.Schema:
    """The agent form; the model list comes from the server's last probe."""
    domains = _domain_choices(hass, current)
    fields: dict[vol.Marker, Any] = {
        **_model_fields(current, models),
        **_domain_fields(domains),
        **_turn_fields(),
    }
    return vol.Schema(
        {
            vol.Required(CONF_NAME): TextSelector(),
            **{
                vol.Required(name): section(
                    vol.Schema({k: v for k, v in fields.items() if str(k) in keys}),
                    {"collapsed": False},
                )
                for name, keys in SECTIONS.items()
            },
        }
    )


def _model_fields(current: Settings, models: list[str]) -> dict[vol.Marker, Any]:
    """The form's model fields: which model, how long to wait, how sure, how varied."""
    return {
        vol.Required(CONF_MODEL): SelectSelector(
            SelectSelectorConfig(
                options=sorted({*models, current.model}),
                custom_value=True,
                mode=SelectSelectorMode.DROPDOWN,
            )
        ),
        vol.Required(CONF_TIMEOUT, default=DEFAULTS.timeout): NumberSelector(
            NumberSelectorConfig(
                min=1,
                max=60,
                step=0.5,
                unit_of_measurement="s",
                mode=NumberSelectorMode.BOX,
            )
        ),
        vol.Required(
            CONF_CONFIDENCE_THRESHOLD, default=DEFAULTS.confidence_threshold
        ): NumberSelector(
            NumberSelectorConfig(
                min=0, max=1, step=0.05, mode=NumberSelectorMode.SLIDER
            )
        ),
        vol.Required(CONF_TEMPERATURE, default=DEFAULTS.temperature): NumberSelector(
            NumberSelectorConfig(
                min=0, max=2, step=0.05, mode=NumberSelectorMode.SLIDER
            )
        ),
    }


def _domain_fields(domains: list[str]) -> dict[vol.Marker, Any]:
    """The form's domain fields: what may be acted on, and what asks first."""
    return {
        vol.Required(
            CONF_ALLOWED_DOMAINS, default=sorted(DEFAULTS.allowed_domains)
        ): _domains_selector(domains),
        vol.Required(
            CONF_CONFIRM_DOMAINS, default=sorted(DEFAULTS.confirm_domains)
        ): _domains_selector(domains),
        vol.Required(
            CONF_CONFIRM_EVERY_ACTION, default=DEFAULTS.confirm_every_action
        ): BooleanSelector(),
    }


def _turn_fields() -> dict[vol.Marker, Any]:
    """The form's fields for how a turn goes: words, memory, paths, music, tools."""
    return {
        vol.Optional(CONF_EXTRA_INSTRUCTIONS): TextSelector(
            TextSelectorConfig(multiline=True)
        ),
        vol.Required(
            CONF_CONTEXT_TURNS, default=DEFAULTS.context_turns
        ): NumberSelector(
            NumberSelectorConfig(min=1, max=50, step=1, mode=NumberSelectorMode.BOX)
        ),
        vol.Required(CONF_LOCAL_FIRST, default=DEFAULTS.local_first): BooleanSelector(),
        vol.Required(
            CONF_LEARN_COMMANDS, default=DEFAULTS.learn_commands
        ): BooleanSelector(),
        vol.Required(CONF_USE_LLM, default=DEFAULTS.use_llm): BooleanSelector(),
        vol.Optional(CONF_DEFAULT_MUSIC_PLAYER): EntitySelector(
            EntitySelectorConfig(domain="media_player")
        ),
        vol.Optional(CONF_MCP_SERVERS): TextSelector(
            TextSelectorConfig(multiline=True)
        ),
        vol.Required(CONF_CONTEXT_TTL, default=DEFAULTS.context_ttl): NumberSelector(
            NumberSelectorConfig(
                min=1,
                max=MAX_CONTEXT_TTL,
                step=1,
                unit_of_measurement="min",
                mode=NumberSelectorMode.BOX,
            )
        ),
    }


def _domains_selector(domains: list[str]) -> SelectSelector:
    """A multi-select of domains that also takes domains typed by hand.

    Each shown by its translated name (`selector.domain` in translations/);
    a domain without one shows its id.
    """
    return SelectSelector(
        SelectSelectorConfig(
            options=domains,
            multiple=True,
            custom_value=True,
            mode=SelectSelectorMode.DROPDOWN,
            translation_key="domain",
            sort=True,
        )
    )
