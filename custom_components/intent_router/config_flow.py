"""Config flow: connect to a model server, and the options flow for tunables."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, override
from urllib.parse import urlsplit

import voluptuous as vol

from homeassistant.config_entries import (
    ConfigEntry,
    ConfigEntryState,
    ConfigFlow,
    ConfigFlowResult,
    OptionsFlowWithReload,
)
from homeassistant.const import CONF_API_KEY, CONF_URL, CONF_VERIFY_SSL
from homeassistant.core import HomeAssistant, callback
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
    DEFAULT_ALLOWED_DOMAINS,
    DEFAULT_CONFIDENCE_THRESHOLD,
    DEFAULT_CONFIRM_DOMAINS,
    DEFAULT_CONTEXT_TTL,
    DEFAULT_CONTEXT_TURNS,
    DEFAULT_LOCAL_FIRST,
    DEFAULT_MODEL,
    DEFAULT_TEMPERATURE,
    DEFAULT_TIMEOUT,
    DEFAULT_URL,
    DEFAULT_USE_LLM,
    DENIED_DOMAINS,
    DOMAIN,
    LOGGER,
    MAX_CONTEXT_TTL,
    PROBE_TIMEOUT,
)
from .llm_client import LLMAuthError, LLMClient, LLMConnectionError, LLMError

if TYPE_CHECKING:
    from collections.abc import Mapping

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


def default_options(models: list[str]) -> dict[str, Any]:
    """Options for a new entry: the defaults, with a model the server has.

    The one list of defaults; tests and benchmarks build their entries from it.
    """
    model = models[0] if models and DEFAULT_MODEL not in models else DEFAULT_MODEL
    return {
        CONF_MODEL: model,
        CONF_TIMEOUT: DEFAULT_TIMEOUT,
        CONF_CONFIDENCE_THRESHOLD: DEFAULT_CONFIDENCE_THRESHOLD,
        CONF_TEMPERATURE: DEFAULT_TEMPERATURE,
        CONF_ALLOWED_DOMAINS: list(DEFAULT_ALLOWED_DOMAINS),
        CONF_CONFIRM_DOMAINS: list(DEFAULT_CONFIRM_DOMAINS),
        CONF_EXTRA_INSTRUCTIONS: "",
        CONF_CONTEXT_TURNS: DEFAULT_CONTEXT_TURNS,
        CONF_CONTEXT_TTL: float(DEFAULT_CONTEXT_TTL),
        CONF_LOCAL_FIRST: DEFAULT_LOCAL_FIRST,
        CONF_USE_LLM: DEFAULT_USE_LLM,
        CONF_DEFAULT_MUSIC_PLAYER: None,
        CONF_MCP_SERVERS: [],
    }


def _connection(user_input: Mapping[str, Any]) -> dict[str, Any]:
    """Normalise a connection form, so that one server has one spelling."""
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


class IntentRouterConfigFlow(ConfigFlow, domain=DOMAIN):
    """Add a model server, fix its key, or point the entry at another server."""

    VERSION = 1
    MINOR_VERSION = 1

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

    @override
    async def async_step_user(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Ask for the server, probe it and create the entry."""
        errors: dict[str, str] = {}
        if user_input is not None:
            connection = _connection(user_input)
            self._async_abort_entries_match({CONF_URL: connection[CONF_URL]})
            models, errors = await self._async_probe(connection)
            if not errors:
                return self.async_create_entry(
                    title=_host(connection[CONF_URL]),
                    data=connection,
                    options=default_options(models),
                )
        return self.async_show_form(
            step_id="user",
            data_schema=self.add_suggested_values_to_schema(
                CONNECTION_SCHEMA, user_input
            ),
            errors=errors,
        )

    async def async_step_reauth(
        self, entry_data: Mapping[str, Any]
    ) -> ConfigFlowResult:
        """Start reauthentication after the server refused the key."""
        return await self.async_step_reauth_confirm()

    async def async_step_reauth_confirm(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Ask for a new API key and probe the server with it."""
        entry = self._get_reauth_entry()
        errors: dict[str, str] = {}
        if user_input is not None:
            # An empty field means the server now takes no key.
            connection = _connection(
                {**entry.data, CONF_API_KEY: user_input.get(CONF_API_KEY)}
            )
            _, errors = await self._async_probe(connection)
            if not errors:
                return self.async_update_reload_and_abort(
                    entry, data_updates={CONF_API_KEY: connection[CONF_API_KEY]}
                )
        return self.async_show_form(
            step_id="reauth_confirm",
            data_schema=REAUTH_SCHEMA,
            errors=errors,
            description_placeholders={CONF_URL: entry.data[CONF_URL]},
        )

    async def async_step_reconfigure(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Change the server's URL, key or TLS check, keeping the options."""
        entry = self._get_reconfigure_entry()
        errors: dict[str, str] = {}
        if user_input is not None:
            connection = _connection(user_input)
            self._async_abort_entries_match({CONF_URL: connection[CONF_URL]})
            _, errors = await self._async_probe(connection)
            if not errors:
                return self.async_update_reload_and_abort(
                    entry,
                    title=self._reconfigured_title(entry, connection),
                    data=connection,
                )
        return self.async_show_form(
            step_id="reconfigure",
            # The stored key is never sent back to the browser.
            data_schema=self.add_suggested_values_to_schema(
                CONNECTION_SCHEMA,
                user_input
                or {
                    CONF_URL: entry.data[CONF_URL],
                    CONF_VERIFY_SSL: entry.data[CONF_VERIFY_SSL],
                },
            ),
            errors=errors,
        )

    @staticmethod
    def _reconfigured_title(entry: ConfigEntry, connection: Mapping[str, Any]) -> str:
        """Follow the new host, unless the user has renamed the entry."""
        if entry.title != _host(entry.data[CONF_URL]):
            return entry.title
        return _host(connection[CONF_URL])

    @staticmethod
    @callback
    @override
    def async_get_options_flow(config_entry: ConfigEntry) -> IntentRouterOptionsFlow:
        """Tunables live in the options flow."""
        return IntentRouterOptionsFlow()


class IntentRouterOptionsFlow(OptionsFlowWithReload):
    """Model, limits and what the agent may do; saving reloads the entry."""

    async def async_step_init(
        self, user_input: dict[str, Any] | None = None
    ) -> ConfigFlowResult:
        """Show and validate the tunables."""
        errors: dict[str, str] = {}
        denied: frozenset[str] = frozenset()
        if user_input is not None:
            denied = DENIED_DOMAINS.intersection(user_input[CONF_ALLOWED_DOMAINS])
            if denied:
                errors[CONF_ALLOWED_DOMAINS] = "denied_domain"
            servers = _mcp_servers(user_input.get(CONF_MCP_SERVERS, ""))
            if servers is None:
                errors[CONF_MCP_SERVERS] = "invalid_mcp_servers"
            if not errors:
                return self.async_create_entry(data=_options(user_input))
        entry: IntentRouterConfigEntry = self.config_entry
        suggested = {
            CONF_MODEL: DEFAULT_MODEL,
            **entry.options,
            CONF_MCP_SERVERS: _mcp_servers_text(
                entry.options.get(CONF_MCP_SERVERS, [])
            ),
            **(user_input or {}),
        }
        return self.async_show_form(
            step_id="init",
            data_schema=self.add_suggested_values_to_schema(
                _options_schema(self.hass, entry), suggested
            ),
            errors=errors,
            description_placeholders={"denied": ", ".join(sorted(denied))},
        )


def _options(user_input: Mapping[str, Any]) -> dict[str, Any]:
    """Options as stored: every key present, counts as ints, others as floats."""
    return {
        CONF_MODEL: user_input[CONF_MODEL].strip(),
        CONF_TIMEOUT: float(user_input[CONF_TIMEOUT]),
        CONF_CONFIDENCE_THRESHOLD: float(user_input[CONF_CONFIDENCE_THRESHOLD]),
        CONF_TEMPERATURE: float(user_input[CONF_TEMPERATURE]),
        CONF_ALLOWED_DOMAINS: sorted(set(user_input[CONF_ALLOWED_DOMAINS])),
        CONF_CONFIRM_DOMAINS: sorted(set(user_input[CONF_CONFIRM_DOMAINS])),
        CONF_EXTRA_INSTRUCTIONS: user_input.get(CONF_EXTRA_INSTRUCTIONS, "").strip(),
        CONF_CONTEXT_TURNS: int(user_input[CONF_CONTEXT_TURNS]),
        CONF_CONTEXT_TTL: float(user_input[CONF_CONTEXT_TTL]),
        CONF_LOCAL_FIRST: bool(user_input[CONF_LOCAL_FIRST]),
        CONF_USE_LLM: bool(user_input[CONF_USE_LLM]),
        CONF_DEFAULT_MUSIC_PLAYER: user_input.get(CONF_DEFAULT_MUSIC_PLAYER) or None,
        CONF_MCP_SERVERS: _mcp_servers(user_input.get(CONF_MCP_SERVERS, "")) or [],
    }


def _mcp_servers(text: str) -> list[dict[str, str | None]] | None:
    """Parse "URL [bearer token]" lines; None when a line is not like that."""
    servers: list[dict[str, str | None]] = []
    for line in text.splitlines():
        if not line.strip():
            continue
        url, _, token = line.strip().partition(" ")
        if not _host(url) or any(server["url"] == url for server in servers):
            return None
        servers.append({"url": url, "token": token.strip() or None})
    return servers


def _mcp_servers_text(servers: list[dict[str, str | None]]) -> str:
    """The stored MCP servers as the lines the form edits."""
    return "\n".join(
        f"{server['url']} {server['token']}"
        if server.get("token")
        else str(server["url"])
        for server in servers
    )


def _domain_choices(hass: HomeAssistant, entry: IntentRouterConfigEntry) -> list[str]:
    """Domains worth offering: the defaults, those with actions, those chosen."""
    domains = {
        *DEFAULT_ALLOWED_DOMAINS,
        *DEFAULT_CONFIRM_DOMAINS,
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
    return vol.Schema(
        {
            vol.Required(CONF_MODEL): SelectSelector(
                SelectSelectorConfig(
                    options=sorted(models),
                    custom_value=True,
                    mode=SelectSelectorMode.DROPDOWN,
                )
            ),
            vol.Required(CONF_TIMEOUT, default=DEFAULT_TIMEOUT): NumberSelector(
                NumberSelectorConfig(
                    min=1,
                    max=60,
                    step=0.5,
                    unit_of_measurement="s",
                    mode=NumberSelectorMode.BOX,
                )
            ),
            vol.Required(
                CONF_CONFIDENCE_THRESHOLD, default=DEFAULT_CONFIDENCE_THRESHOLD
            ): NumberSelector(
                NumberSelectorConfig(
                    min=0, max=1, step=0.05, mode=NumberSelectorMode.SLIDER
                )
            ),
            vol.Required(CONF_TEMPERATURE, default=DEFAULT_TEMPERATURE): NumberSelector(
                NumberSelectorConfig(
                    min=0, max=2, step=0.05, mode=NumberSelectorMode.SLIDER
                )
            ),
            vol.Required(
                CONF_ALLOWED_DOMAINS, default=list(DEFAULT_ALLOWED_DOMAINS)
            ): _domains_selector(domains),
            vol.Required(
                CONF_CONFIRM_DOMAINS, default=list(DEFAULT_CONFIRM_DOMAINS)
            ): _domains_selector(domains),
            vol.Optional(CONF_EXTRA_INSTRUCTIONS): TextSelector(
                TextSelectorConfig(multiline=True)
            ),
            vol.Required(
                CONF_CONTEXT_TURNS, default=DEFAULT_CONTEXT_TURNS
            ): NumberSelector(
                NumberSelectorConfig(min=1, max=50, step=1, mode=NumberSelectorMode.BOX)
            ),
            vol.Required(
                CONF_LOCAL_FIRST, default=DEFAULT_LOCAL_FIRST
            ): BooleanSelector(),
            vol.Required(CONF_USE_LLM, default=DEFAULT_USE_LLM): BooleanSelector(),
            vol.Optional(CONF_DEFAULT_MUSIC_PLAYER): EntitySelector(
                EntitySelectorConfig(domain="media_player")
            ),
            vol.Optional(CONF_MCP_SERVERS): TextSelector(
                TextSelectorConfig(multiline=True)
            ),
            vol.Required(CONF_CONTEXT_TTL, default=DEFAULT_CONTEXT_TTL): NumberSelector(
                NumberSelectorConfig(
                    min=1,
                    max=MAX_CONTEXT_TTL,
                    step=1,
                    unit_of_measurement="min",
                    mode=NumberSelectorMode.BOX,
                )
            ),
        }
    )


def _domains_selector(domains: list[str]) -> SelectSelector:
    """A multi-select of domains that also takes domains typed by hand."""
    return SelectSelector(
        SelectSelectorConfig(
            options=domains,
            multiple=True,
            custom_value=True,
            mode=SelectSelectorMode.DROPDOWN,
        )
    )
