"""Every translation says everything English says, with the same blanks.

The sentences the integration speaks are looked up by key at run time, so a
missing key or a misspelt placeholder would only show when someone hears the
English fallback (or the raw key). These checks read the files and the
source, so they catch it before anyone speaks.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
import json
from pathlib import Path
from string import Formatter
from typing import Any

import pytest

from custom_components import intent_router
from custom_components.intent_router.core.speech import PLURAL_SUFFIX, shipped_languages
from custom_components.intent_router.core.spoken import UNIT_WORDS
from custom_components.intent_router.language import Shortcut

PACKAGE = Path(intent_router.__file__).parent
TRANSLATIONS = PACKAGE / "translations"
# The languages the README promises; the files may add more.
PROMISED = {"en", "de", "fr", "es", "nl", "it"}

# Calls whose argument at this position is a key of `exceptions`.
KEY_ARGUMENTS = {
    "phrase": 0,
    "Phrase": 0,
    "refuse": 0,
    "say": 0,
    "ModelFailedError": 0,
    "_invalid": 0,
    "failed": 1,
}
# Keys the code builds at run time, by the f-string that builds them.
BUILT_KEYS: Mapping[str, set[str]] = {
    "nothing_to_{shortcut}": {
        f"nothing_to_{s}"
        for s in (Shortcut.AGAIN, Shortcut.UNDO, Shortcut.REDO, Shortcut.STOP)
    },
    "{shortcut}_done": {
        f"{s}_done" for s in (Shortcut.UNDO, Shortcut.REDO, Shortcut.STOP)
    },
    "{prefix}_set": {"did_set", "ask_set"},
    "{prefix}_{way}": {"did_brighter", "did_dimmer", "ask_brighter", "ask_dimmer"},
    "value_{chosen}": {
        f"value_{word}" for words in UNIT_WORDS.values() for word in words
    },
}


def _load(language: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (TRANSLATIONS / f"{language}.json").read_text(encoding="utf-8")
    )
    return data


def _strings(tree: Mapping[str, Any], path: str = "") -> dict[str, str]:
    """Every string of a translation file, by its dotted path."""
    found: dict[str, str] = {}
    for key, value in tree.items():
        here = f"{path}.{key}" if path else key
        if isinstance(value, Mapping):
            found.update(_strings(value, here))
        else:
            assert isinstance(value, str), here
            found[here] = value
    return found


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in Formatter().parse(text) if name is not None}


OTHER_LANGUAGES = sorted(shipped_languages() - {"en"})


def test_the_promised_languages_are_shipped() -> None:
    """The README lists these languages; each has its file."""
    assert shipped_languages() >= PROMISED


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_same_keys_as_english(language: str) -> None:
    """No sentence missing (English would fill in), none left over."""
    english = _strings(_load("en"))
    translated = _strings(_load(language))
    assert sorted(set(english) - set(translated)) == [], "missing"
    assert sorted(set(translated) - set(english)) == [], "not in en.json"


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_same_placeholders_as_english(language: str) -> None:
    """Each sentence has English's blanks, spelt the same, and text around them."""
    english = _strings(_load("en"))
    for path, text in _strings(_load(language)).items():
        assert _placeholders(text) == _placeholders(english.get(path, "")), path
        assert text.strip(), path


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
def test_spoken_sentences_stay_short(language: str) -> None:
    """A satellite reads these aloud: no translation rambles on past English."""
    english = _load("en")["exceptions"]
    for key, text in _load(language)["exceptions"].items():
        limit = 1.4 * len(english[key]["message"]) + 10
        assert len(text["message"]) <= limit, (key, text["message"])


def _keys_in(node: ast.expr, where: str) -> Iterator[str]:
    """The keys an expression in a key's place can hold."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.IfExp):
        yield from _keys_in(node.body, where)
        yield from _keys_in(node.orelse, where)
    elif isinstance(node, ast.JoinedStr):
        template = "".join(
            f"{{{ast.unparse(part.value)}}}"
            if isinstance(part, ast.FormattedValue)
            else str(getattr(part, "value", ""))
            for part in node.values
        )
        assert template in BUILT_KEYS, f"{where}: list the keys f'{template}' builds"
        yield from BUILT_KEYS[template]
    # Names and attributes hold a key made elsewhere, where it is checked.


def _key_places(tree: ast.AST) -> Iterator[ast.expr]:
    """Expressions that stand for a translation key of `exceptions`."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            position = KEY_ARGUMENTS.get(name)
            if position is not None and len(node.args) > position:
                yield node.args[position]
            # A selector's translation key names its options, not a sentence.
            if name != "SelectSelectorConfig":
                yield from (
                    k.value for k in node.keywords if k.arg == "translation_key"
                )
        elif isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "key"
            for target in node.targets
        ):
            yield node.value
        elif (
            isinstance(node, ast.Subscript)
            and getattr(node.value, "attr", None) == "messages"
        ):
            yield node.slice


def _keys_used_by_the_code() -> set[str]:
    used: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = str(path.relative_to(PACKAGE))
        for place in _key_places(tree):
            used.update(_keys_in(place, where))
    return used


# Sentences about a service call are looked up by name (replies.py tries
# f"{prefix}_{domain}_{service}", then f"{prefix}_{service}"): every sentence
# with these prefixes is used when a call of its service runs or is asked.
LOOKED_UP_PREFIXES = ("did_", "ask_")


def test_every_spoken_key_is_in_english_and_every_english_sentence_is_used() -> None:
    """The code and en.json's `exceptions` name the same sentences."""
    defined = set(_load("en")["exceptions"])
    used = _keys_used_by_the_code() | {
        key for key in defined if key.startswith(LOOKED_UP_PREFIXES)
    }
    # A sentence's form for several names is said where the sentence is.
    used |= {f"{key}{PLURAL_SUFFIX}" for key in used} & defined
    replies = (PACKAGE / "turn" / "replies.py").read_text(encoding="utf-8")
    assert 'f"{prefix}_{domain}_{service}"' in replies
    assert sorted(used - defined) == [], "spoken but not in en.json"
    assert sorted(defined - used) == [], "in en.json but never spoken"
