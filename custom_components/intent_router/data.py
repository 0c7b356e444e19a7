"""Typed config entry and the runtime data it carries."""

from __future__ import annotations

from dataclasses import dataclass, field

from homeassistant.config_entries import ConfigEntry

from .context_store import ContextStore
from .llm_client import LLMClient

type IntentRouterConfigEntry = ConfigEntry[IntentRouterData]


@dataclass(slots=True)
class IntentRouterData:
    """What one configured model server needs at run time."""

    client: LLMClient
    context: ContextStore
    models: list[str] = field(default_factory=list)
