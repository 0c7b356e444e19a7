"""Config flow: connect to a model server; its agents are subentries.

The entry is the connection (URL, key, TLS check): added with a first
agent, fixed by reauth, moved by reconfigure. Each conversation agent is a
config subentry with its own options, added and changed in the agent flow
(agent_flow.py), as core's LLM integrations do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, override

import voluptuous as vol

from homeassistant.config_entries import (
    SOURCE_REAUTH,
    SOURCE_RECONFIGURE,
    ConfigEntry,
    ConfigFlow,
    ConfigFlowResult,
    ConfigSubentryFlow,
)
from homeassistant.const import CONF_API_KEY, CONF_URL, CONF_VERIFY_SSL
from homeassistant.core import callback
from homeassistant.helpers.selector import (
    BooleanSelector,
    TextSelector,
    TextSelectorConfig,
    TextSelectorType,
)

from .agent_flow import AgentFlow, http_host
from .const import DEFAULT_URL, DOMAIN, LOGGER, NAME, PROBE_TIMEOUT, SUBENTRY_AGENT
from .core.llm_reply import LLMAuthError, LLMConnectionError, LLMError
from .core.settings import default_options
from .migration import MINOR_VERSION, VERSION
from .model.llm_client import LLMClient

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

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


def _title(
    entry: ConfigEntry | None, connection: Mapping[str, Any], taken: Iterable[str]
) -> str:
    """What the server's entry (and its first agent) is called: "Intent Router".

    As core names its agents. The server's host is added only where another
    entry already has that name. A title the integration made follows the
    server when it moves; one the user chose stays, and so does an existing
    entry's. An agent's own name is its subentry's title, changed in the
    agent flow.
    """
    host = http_host(connection[CONF_URL])
    if entry is None:
        return NAME if NAME not in taken else f"{NAME} ({host})"
    old_host = http_host(entry.data[CONF_URL])
    if entry.title == old_host:  # the host alone, as entries were first named
        return host
    if entry.title == f"{NAME} ({old_host})":
        return f"{NAME} ({host})"
    return entry.title


class IntentRouterConfigFlow(ConfigFlow, domain=DOMAIN):
    """Add a model server, fix its key, or point the entry at another server."""

    VERSION = VERSION
    MINOR_VERSION = MINOR_VERSION

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
        """Change the server's URL, key or TLS check, keeping the agents."""
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
                    return self._async_create_with_agent(connection, models)
                title = _title(entry, connection, ())
                if entry.update_listeners:  # loaded: the listener reloads it
                    return self.async_update_and_abort(
                        entry, title=title, data=connection
                    )
                return self.async_update_reload_and_abort(
                    entry, title=title, data=connection
                )
        return self.async_show_form(
            step_id=step_id,
            data_schema=self.add_suggested_values_to_schema(
                schema, user_input or stored
            ),
            errors=errors,
            description_placeholders={CONF_URL: stored[CONF_URL]} if stored else None,
        )

    def _async_create_with_agent(
        self, connection: dict[str, Any], models: list[str]
    ) -> ConfigFlowResult:
        """The entry, with a first agent of the default options, as core does."""
        title = _title(None, connection, self._titles())
        return self.async_create_entry(
            title=title,
            data=connection,
            subentries=[
                {
                    "subentry_type": SUBENTRY_AGENT,
                    "data": default_options(models),
                    "title": title,
                    "unique_id": None,
                }
            ],
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
        if not http_host(connection[CONF_URL]):
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

    @classmethod
    @callback
    @override
    def async_get_supported_subentry_types(
        cls, config_entry: ConfigEntry
    ) -> dict[str, type[ConfigSubentryFlow]]:
        """Conversation agents, added and changed in the agent flow."""
        return {SUBENTRY_AGENT: AgentFlow}
