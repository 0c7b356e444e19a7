"""Translated sentences the agent and its tools speak.

They live in `translations/en.json` under `exceptions`, the one category a
custom integration can translate at run time: a HomeAssistantError renders
its message from there (in Home Assistant's language).
"""

from __future__ import annotations

from homeassistant.exceptions import HomeAssistantError

from .const import DOMAIN


def translated_error(key: str, **placeholders: str) -> HomeAssistantError:
    """An error whose translated message is spoken to the user."""
    return HomeAssistantError(
        translation_domain=DOMAIN,
        translation_key=key,
        translation_placeholders=placeholders or None,
    )


def say(key: str, **placeholders: str) -> str:
    """A translated sentence, ending as a sentence does."""
    message = str(translated_error(key, **placeholders))
    # HA strips the final full stop of exception messages; speech keeps it.
    return message if message.endswith(("?", "!", ".")) else f"{message}."
