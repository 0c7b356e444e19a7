"""The domain table agrees with itself and with Home Assistant's services."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from custom_components.intent_router.core.domains import DOMAINS, DomainInfo
from custom_components.intent_router.core.records import PriorState
from custom_components.intent_router.core.settings import DEFAULT_CONFIRM_DOMAINS
from homeassistant import components
from homeassistant.util.yaml import load_yaml_dict

# States in which a domain's attributes matter (a light's brightness when on).
ACTIVE_STATES = ("on", "open", "heat", "playing", "locked", "eco")


def _services_of(domain: str) -> set[str]:
    """The services a core component declares in its services.yaml."""
    path = Path(components.__file__).parent / domain / "services.yaml"
    return set(load_yaml_dict(str(path))) if path.exists() else set()


def _named_services(info: DomainInfo) -> set[str]:
    """Every service the record makes the agent call."""
    named = {s for s in (info.turn_on, info.turn_off, info.stop) if s}
    if info.restore is not None:
        for state in (*ACTIVE_STATES, "off", "closed", "paused", "unlocked", "3"):
            prior = PriorState(state, dict.fromkeys(info.undo_attributes, 1))
            named.update(service for service, _ in info.restore(prior))
    return named


@pytest.mark.parametrize("domain", sorted(DOMAINS))
def test_services_exist(domain: str) -> None:
    """Every service a record names is one Home Assistant has for the domain."""
    declared = _services_of(domain)
    assert _named_services(DOMAINS[domain]) <= declared


@pytest.mark.parametrize(
    "domain", sorted(d for d, info in DOMAINS.items() if info.undo_attributes)
)
def test_each_undo_attribute_is_restored(domain: str) -> None:
    """What undo records, it brings back: each attribute reaches a service call."""
    info = DOMAINS[domain]
    assert info.restore is not None
    for attribute in info.undo_attributes:
        value = 42.5
        restored: list[Any] = []
        for state in ACTIVE_STATES:
            for _, data in info.restore(PriorState(state, {attribute: value})):
                restored.extend(data.values())
        assert value in restored, f"{domain}.{attribute} is recorded, never restored"


@pytest.mark.parametrize(
    "domain", sorted(d for d, info in DOMAINS.items() if info.leaves)
)
def test_undo_calls_back_the_service_that_left_the_state(domain: str) -> None:
    """Undo of a device recorded in a state a service leaves calls that service."""
    info = DOMAINS[domain]
    assert info.restore is not None
    assert info.leaves.keys() <= _services_of(domain)
    for service, state in info.leaves.items():
        assert (service, {}) in info.restore(PriorState(state)), (service, state)


def test_default_confirmation_comes_from_the_table() -> None:
    """Locks and alarms ask first unless the owner changes the option."""
    assert DEFAULT_CONFIRM_DOMAINS == ("alarm_control_panel", "lock")


@pytest.mark.parametrize("domain", ["script", "scene", "automation"])
def test_scripts_and_scenes_act_only_when_named(domain: str) -> None:
    """No kind of device or room ever stands for a script or a scene."""
    assert DOMAINS[domain].must_be_named
