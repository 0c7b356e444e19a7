"""Home Assistant's demo home as `scripts/develop` starts it.

Every demo platform, exposed as Home Assistant exposes new entities by
default, furnished by the development instance's own `demo_home`
integration (config/custom_components/demo_home): its devices in rooms,
Kitchen Lights off. Its speakers are named like rooms ("Kitchen", "Living
Room", "Bedroom") and are in none.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from pytest_homeassistant_custom_component.common import MockConfigEntry

from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component

_DEMO_HOME = Path(__file__).parent.parent / "config" / "custom_components" / "demo_home"


def _furnisher() -> ModuleType:
    """The development instance's own furnishing code, loaded from config/."""
    spec = importlib.util.spec_from_file_location(
        "demo_home", _DEMO_HOME / "__init__.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def async_setup_develop_home(hass: HomeAssistant) -> None:
    """The demo home of `scripts/develop`, furnished as it furnishes it."""
    assert await async_setup_component(hass, "homeassistant", {})
    demo_entry = MockConfigEntry(domain="demo")
    demo_entry.add_to_hass(hass)
    assert await hass.config_entries.async_setup(demo_entry.entry_id)
    await hass.async_block_till_done()
    await _furnisher().async_furnish(hass)
    await hass.async_block_till_done()
