"""Options become one frozen Settings object, with every default in one place."""

from __future__ import annotations

from dataclasses import fields

from custom_components.intent_router import const
from custom_components.intent_router.core.settings import (
    McpServerConfig,
    Settings,
    default_options,
)


def test_each_option_key_is_a_setting() -> None:
    """Settings fields are named as the option keys, one for one."""
    keys = {value for name, value in vars(const).items() if name.startswith("CONF_")}
    assert {item.name for item in fields(Settings)} == keys


def test_options_round_trip() -> None:
    """Stored options read back as the same settings, typed as their defaults."""
    settings = Settings(
        model="m",
        timeout=2.5,
        context_turns=3,
        allowed_domains=frozenset({"light", "fan"}),
        mcp_servers=(McpServerConfig("http://127.0.0.1:9/mcp", "t"),),
    )
    options = settings.as_options()
    assert options["allowed_domains"] == ["fan", "light"]
    assert Settings.from_options(options) == settings


def test_missing_and_empty_options_take_the_defaults() -> None:
    """An entry from an older version, or a blank model field, still works."""
    assert Settings.from_options({}) == Settings()
    assert Settings.from_options({"model": "  ", "timeout": "7"}) == Settings(
        timeout=7.0
    )


def test_new_entries_use_a_model_the_server_has() -> None:
    """The default model when the server lists it, else the server's first."""
    assert default_options(["a", "b"])["model"] == "a"
    assert default_options([Settings().model, "a"])["model"] == Settings().model
