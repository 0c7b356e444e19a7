"""The quality scale self-audit names every rule core's integrations answer.

hassfest skips custom integrations, so this compares the file with the rule
set of the installed Home Assistant: every core integration's
quality_scale.yaml answers the same rules, and so must this one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import homeassistant.components
from homeassistant.util.yaml import load_yaml

OURS = Path(__file__).parents[1] / "custom_components/intent_router/quality_scale.yaml"
# Core's LLM agents, whose files follow the current rule set.
CORE = ("anthropic", "llama_cpp")


def _rules(path: Path) -> dict[str, Any]:
    loaded = load_yaml(path)
    assert isinstance(loaded, dict)
    rules = loaded["rules"]
    assert isinstance(rules, dict)
    return rules


def test_every_rule_of_the_installed_version_is_answered() -> None:
    """Done, or exempt with a reason; no rule missing, none made up."""
    components = Path(homeassistant.components.__file__).parent
    core = {
        frozenset(_rules(components / name / "quality_scale.yaml")) for name in CORE
    }
    assert len(core) == 1, "core's files disagree on the rule set"
    ours = _rules(OURS)
    assert set(ours) == set(next(iter(core)))
    for rule, answer in ours.items():
        if isinstance(answer, dict):
            assert answer["status"] == "exempt", rule
            assert answer["comment"].strip(), rule
        else:
            assert answer == "done", rule
