"""What no option, plan or utterance can lift (docs/design.md, Safety).

Services of these domains, and services whose name says they reload,
restart or shut something down, are never offered, validated or run,
whatever the allowed domains say; a plan holds at most `MAX_ACTIONS`.
"""

from __future__ import annotations

from typing import Final

from ..const import DOMAIN

DENIED_DOMAINS: Final = frozenset(
    {
        "backup",
        "hassio",
        "homeassistant",
        "logger",
        "pyscript",
        "python_script",
        "recorder",
        "rest_command",
        "shell_command",
        "system_log",
        "update",
        DOMAIN,
    }
)
DENIED_SERVICE_WORDS: Final = frozenset({"reload", "restart", "shutdown", "reboot"})
MAX_ACTIONS: Final = 5


def is_denied(tool: str) -> bool:
    """Whether a `<domain>.<service>` may never run."""
    domain, _, service = tool.partition(".")
    return domain in DENIED_DOMAINS or any(
        word in service for word in DENIED_SERVICE_WORDS
    )
