"""Words Home Assistant's own sentences know, read from home_assistant_intents.

Its `cover_classes` list names each cover class in every language it has
sentences for ("Rollos": blind, "garage door": garage); a words file adds
its own words to them and names those it leaves out (files.py). Read with
the words files, when the package is imported, never in the event loop.
"""

from __future__ import annotations

from typing import Any

from hassil.parse_expression import parse_sentence
from hassil.sample import sample_expression
from home_assistant_intents import get_intents

from .tables import fold


def cover_classes(language: str) -> dict[str, frozenset[str]]:
    """Home Assistant's words of each cover class ("cover.blind"), folded.

    Its templates are expanded ("Rollo[s]": "rollo", "rollos"); a value may
    name several classes ("store": blind and shade). None for a language
    Home Assistant has no sentences in.
    """
    sentences: dict[str, Any] = get_intents(language) or {}
    values = sentences.get("lists", {}).get("cover_classes", {}).get("values", ())
    found: dict[str, set[str]] = {}
    for value in values:
        plain = isinstance(value, str)
        template, named = (value, value) if plain else (value["in"], value["out"])
        said = {
            fold(text)
            for text in sample_expression(parse_sentence(template).expression)
        }
        for device_class in named if isinstance(named, list) else [named]:
            found.setdefault(f"cover.{device_class}", set()).update(said)
    return {name: frozenset(phrases) for name, phrases in found.items()}
