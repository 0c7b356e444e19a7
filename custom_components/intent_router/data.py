"""Typed config entry and the runtime data it carries."""

from __future__ import annotations

from dataclasses import dataclass

from homeassistant.config_entries import ConfigEntry

from .deciding.learned import LearnedCommands
from .home.context_store import ContextStore
from .home.stats import TurnStats
from .model.llm_client import LLMClient
from .turn.agent import IntentRouterAgent

type IntentRouterConfigEntry = ConfigEntry[IntentRouterData]


@dataclass(slots=True, frozen=True)
class AgentData:
    """What one conversation agent (a config subentry) has at run time.

    Each agent has its own client: the warm-up measures the server with the
    agent's model, and the client keeps what it learnt about that model's
    replies.
    """

    client: LLMClient
    context: ContextStore
    learned: LearnedCommands
    agent: IntentRouterAgent
    stats: TurnStats


@dataclass(slots=True, frozen=True)
class IntentRouterData:
    """What one configured model server has at run time, built at set-up.

    `agents` holds each conversation agent by its subentry id.
    """

    models: list[str]
    agents: dict[str, AgentData]
