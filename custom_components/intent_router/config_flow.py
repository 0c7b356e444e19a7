"""Config flow: connect to a model server, and the options flow for tunables."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, override
from urllib.parse import urlsplit

import voluptuous as vol

from homeassistant.config_entries import (
    SOURCE_REAUTH,
    SOURCE_RECONFIGURE,
    ConfigEntry,
    ConfigEntryState,
    ConfigFlow,
    ConfigFlowResult,
    OptionsFlowWithReload,
)
from homeassistant.const import CONF_API_KEY, CONF_URL, CONF_VERIFY_SSL
from homeassistant.core import HomeAssistant, callback
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
    TextSelectorType,
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
    DEFAULT_URL,
    DOMAIN,
    LOGGER,
    NAME,
    PROBE_TIMEOUT,
)
from .llm_client import LLMClient
from .llm_reply import LLMAuthError, LLMConnectionError, LLMError
from .safety import DENIED_DOMAINS
from .settings import MAX_CONTEXT_TTL, McpServerConfig, Settings, default_options

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from .data import IntentRouterConfigEntry

API_KEY_SELECTOR = TextSelector(TextSelectorConfig(type=TextSelectorType.PASSWORD))

CONNECTION_SCHEMA = vol.Schema(
    {
        vol.Required(CONF_URL, default=DEFAULT_URL): TextSelector(
            TextSelectorConfig(type=TextSelectorType.URL)
        ),
        vol.Optional(CONF_API_KEY): API_KEY_SELECTOR,
        vol.Required(CONF_VERIFY_SSL, default=True): BooleanSelector(),
    }
)
REAUTH_SCHEMA = vol.Schema({vol.Optional(CONF_API_KEY): API_KEY_SELECTOR})

# The options form starts from these; `Settings` is their one home.
DEFAULTS = Settings()

# The options form's sections, in order, and the options each holds. The
# options are stored flat, as before: the sections are the form's only.
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

# Written after an MCP server's URL in the options form, removes its token.
REMOVE_TOKEN = "-"  # noqa: S105 - a marker, not a secret


def _connection(user_input: Mapping[str, Any]) -> dict[str, Any]:
    """Normalise a connection form, so that one server has one spelling.

    An empty key field means no key: the stored key is never shown, so it
    cannot be kept by leaving it there.
    """
    return {
        CONF_URL: user_input[CONF_URL].strip().rstrip("/"),
        CONF_API_KEY: (user_input.get(CONF_API_KEY) or "").strip() or None,
        CONF_VERIFY_SSL: user_input[CONF_VERIFY_SSL],
    }


def _host(url: str) -> str:
    """The host of an http(s) URL; empty for anything the SDK cannot use."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    if parts.scheme not in ("http", "https"):
        return ""
    return parts.hostname or ""


def _title(
    entry: ConfigEntry | None, connection: Mapping[str, Any], taken: Iterable[str]
) -> str:
    """What the agent is called: "Intent Router", as core names its agents.

    The server's host is added only where another entry already has that
    name. A title the integration made follows the server when it moves;
    one the user chose stays, and so does an existing entry's.
    """
    host = _host(connection[CONF_URL])
    if entry is None:
        return NAME if NAME not in taken else f"{NAME} ({host})"
    old_host = _host(entry.data[CONF_URL])
    if entry.title == old_host:  # the host alone, as entries were first named
        return host
    if entry.title == f"{NAME} ({old_host})":
        return f"{NAME} ({host})"
    return entry.title


class IntentRouterConfigFlow(ConfigFlow, domain=DOMAIN):
    """Add a model server, fix its key, or point the entry at another server."""

    VERSION = 1
    MINOR_VERSION = 1

    @override
    async def async_step_user(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Ask for the server, probe it and create the entry."""
        return await self._async_step_connection("user", CONNECTION_SCHEMA, user_input)

    async def async_step_reauth(
        self, entry_data: Mapping[str, Any]
    ) -> ConfigFlowResult:
        """Start reauthentication after the server refused the key."""
        return await self.async_step_reauth_confirm()

    async def async_step_reauth_confirm(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Ask for a new API key only; the server stays the same."""
        return await self._async_step_connection(
            "reauth_confirm", REAUTH_SCHEMA, user_input
        )

    async def async_step_reconfigure(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Change the server's URL, key or TLS check, keeping the options."""
        return await self._async_step_connection(
            "reconfigure", CONNECTION_SCHEMA, user_input
        )

    async def _async_step_connection(
        self, step_id: str, schema: vol.Schema, user_input: dict[str, Any] | None
    ) -> ConfigFlowResult:
        """The one connection form: probe what was entered, then store it.

        Fields the form leaves out (the URL, when reauth asks only for a key)
        come from the entry being changed; its key is never among them, so
        the stored key is never sent back to the browser.
        """
        entry = self._entry_being_changed()
        stored = (
            {
                CONF_URL: entry.data[CONF_URL],
                CONF_VERIFY_SSL: entry.data[CONF_VERIFY_SSL],
            }
            if entry is not None
            else {}
        )
        errors: dict[str, str] = {}
        if user_input is not None:
            connection = _connection({**stored, **user_input})
            self._async_abort_entries_match({CONF_URL: connection[CONF_URL]})
            models, errors = await self._async_probe(connection)
            if not errors:
                if entry is None:
                    return self.async_create_entry(
                        title=_title(None, connection, self._titles()),
                        data=connection,
                        options=default_options(models),
                    )
                return self.async_update_reload_and_abort(
                    entry, title=_title(entry, connection, ()), data=connection
                )
        return self.async_show_form(
            step_id=step_id,
            data_schema=self.add_suggested_values_to_schema(
                schema, user_input or stored
            ),
            errors=errors,
            description_placeholders={CONF_URL: stored[CONF_URL]} if stored else None,
        )

    def _titles(self) -> set[str]:
        """The titles of the entries there are."""
        return {entry.title for entry in self._async_current_entries()}

    def _entry_being_changed(self) -> ConfigEntry | None:
        """The entry a reauth or reconfigure flow changes; None for a new one."""
        if self.source == SOURCE_REAUTH:
            return self._get_reauth_entry()
        if self.source == SOURCE_RECONFIGURE:
            return self._get_reconfigure_entry()
        return None

    async def _async_probe(
        self, connection: Mapping[str, Any]
    ) -> tuple[list[str], dict[str, str]]:
        """Probe the server the way set-up will: its model ids, or form errors."""
        if not _host(connection[CONF_URL]):
            return [], {CONF_URL: "invalid_url"}
        client = LLMClient(
            self.hass,
            connection[CONF_URL],
            connection[CONF_API_KEY],
            connection[CONF_VERIFY_SSL],
        )
        try:
            await client.async_prime(self.hass)
            models = await client.async_list_models(PROBE_TIMEOUT)
        except LLMAuthError:
            return [], {"base": "invalid_auth"}
        except LLMConnectionError:
            return [], {"base": "cannot_connect"}
        except LLMError as err:
            LOGGER.debug("Not an OpenAI-compatible server: %s", err)
            return [], {"base": "incompatible_server"}
        # Every failure the SDK or a wrong server produces maps above; this is
        # the flow's last line against a bug, so that the form still answers.
        except Exception:  # pragma: no cover
            LOGGER.exception("Unexpected error while probing the model server")
            return [], {"base": "unknown"}
        return models, {}

    @staticmethod
    @callback
    @override
    def async_get_options_flow(
        config_entry: IntentRouterConfigEntry,
    ) -> IntentRouterOptionsFlow:
        """Tunables live in the options flow."""
        return IntentRouterOptionsFlow()


class IntentRouterOptionsFlow(OptionsFlowWithReload):
    """Model, limits and what the agent may do; saving reloads the entry."""

    async def async_step_init(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Show and validate the tunables, starting from the current settings."""
        entry: IntentRouterConfigEntry = self.config_entry
        current = Settings.from_options(entry.options)
        errors: dict[str, str] = {}
        denied: frozenset[str] = frozenset()
        if user_input is not None:
            user_input = _flat(user_input)
            denied = DENIED_DOMAINS.intersection(user_input[CONF_ALLOWED_DOMAINS])
            if denied:
                errors[CONF_ALLOWED_DOMAINS] = "denied_domain"
            servers = _mcp_servers(
                user_input.get(CONF_MCP_SERVERS, ""), current.mcp_servers
            )
            if servers is None:
                errors[CONF_MCP_SERVERS] = "invalid_mcp_servers"
            elif not errors:
                settings = _settings(user_input, servers)
                return self.async_create_entry(data=settings.as_options())
        suggested = {
            **current.as_options(),
            CONF_MCP_SERVERS: _mcp_servers_text(current.mcp_servers),
            **(user_input or {}),
        }
        return self.async_show_form(
            step_id="init",
            data_schema=self.add_suggested_values_to_schema(
                _options_schema(self.hass, entry), _sectioned(suggested)
            ),
            errors=errors,
            description_placeholders={"denied": ", ".join(sorted(denied))},
        )


def _flat(form: Mapping[str, Any]) -> dict[str, Any]:
    """The options form's sections as the flat options they hold."""
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
        if not _host(url) or any(server.url == url for server in servers):
            return None
        token = typed.strip() or stored_tokens.get(url)
        servers.append(McpServerConfig(url, None if token == REMOVE_TOKEN else token))
    return tuple(servers)


def _mcp_servers_text(servers: tuple[McpServerConfig, ...]) -> str:
    """The stored MCP servers as the lines the form edits, without tokens."""
    return "\n".join(server.url for server in servers)


def _domain_choices(hass: HomeAssistant, entry: IntentRouterConfigEntry) -> list[str]:
    """Domains worth offering: the defaults, those with actions, those chosen."""
    domains = {
        *DEFAULTS.allowed_domains,
        *DEFAULTS.confirm_domains,
        *hass.services.async_services(),
        *entry.options.get(CONF_ALLOWED_DOMAINS, ()),
        *entry.options.get(CONF_CONFIRM_DOMAINS, ()),
    }
    return sorted(domains - DENIED_DOMAINS)


def _options_schema(hass: HomeAssistant, entry: IntentRouterConfigEntry) -> vol.Schema:
    """The options form; the model list comes from the server's last probe."""
    models = (
        set(entry.runtime_data.models)
        if entry.state is ConfigEntryState.LOADED
        else set()
    )
    if model := entry.options.get(CONF_MODEL):
        models.add(model)
    domains = _domain_choices(hass, entry)
    fields: dict[vol.Marker, Any] = {
        vol.Required(CONF_MODEL): SelectSelector(
            SelectSelectorConfig(
                options=sorted(models),
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
        vol.Required(
            CONF_ALLOWED_DOMAINS, default=sorted(DEFAULTS.allowed_domains)
        ): _domains_selector(domains),
        vol.Required(
            CONF_CONFIRM_DOMAINS, default=sorted(DEFAULTS.confirm_domains)
        ): _domains_selector(domains),
        vol.Required(
            CONF_CONFIRM_EVERY_ACTION, default=DEFAULTS.confirm_every_action
        ): BooleanSelector(),
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
    return vol.Schema(
        {
            vol.Required(name): section(
                vol.Schema({k: v for k, v in fields.items() if str(k) in keys}),
                {"collapsed": False},
            )
            for name, keys in SECTIONS.items()
        }
    )


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
