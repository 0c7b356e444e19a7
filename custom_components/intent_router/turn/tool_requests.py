"""A tool's own request in the words, and HA's play match with the place said.

"Play Blue Train on Spotify" is the music tool's to read whole; HA's
"pon {query}" whose query is a device here ("pon la tele") searches
nothing; a Spotify speaker HA's sentences do not know stays the player.
Pure: the words, the reading and the catalog in, a plan or a verdict out.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ..core.domains import domain_of
from ..core.records import Action, Plan
from ..core.said import Said
from ..deciding.local_plans import READ_CONFIDENCE
from ..home.tools import ReadsWords
from ..language import base_language, fold
from ..language.music import MUSIC_WORDS
from ..reading.reading import read
from .ha_music import MUSIC_PLAY

if TYPE_CHECKING:
    from ..deciding.utterance import Utterance
    from ..home.catalog import Catalog
    from ..language.tables import Verb
    from ..reading.reading import Reading


def tool_request(
    utterance: Utterance, reading: Reading | None, catalog: Catalog
) -> Plan | None:
    """A tool's request said whole ("play Blue Train on Spotify"), as a plan.

    Only where the words name no other kind of device than the tool's: "put
    on the lights" is no music, and a title that names one ("Light My Fire")
    is the model's to read. Without a `reading`, HA's sentences already
    said it is the tool's.
    """
    if utterance.pending or (reading is not None and reading.question):
        return None
    mentions = reading.mentions if reading is not None else None
    verbs: frozenset[Verb] = frozenset()
    # A verb with no device, place or unknown word said ("pause the music").
    if reading is not None and not (
        reading.unexplained
        or reading.mentions.entities
        or reading.mentions.areas
        or reading.mentions.floors
    ):
        verbs = reading.verbs
    for tool in catalog.tools.values():
        if (
            isinstance(tool, ReadsWords)
            and (
                mentions is None
                or (
                    mentions.kinds <= {tool.kind}
                    and all(domain_of(e) == tool.kind for e in mentions.entities)
                )
            )
            and (action := tool.read_words(utterance.said, catalog, verbs))
            and not names_a_device(action, utterance.language, catalog)
        ):
            return Plan((action,), "", READ_CONFIDENCE)
    return None


def names_a_device(action: Action, language: str, catalog: Catalog) -> bool:
    """Whether a search's query is, word for word, a device of the home.

    "La tele", "the kettle": the words name it, or its kind with a word that
    is not only "music" ("pon música" still plays).
    """
    if action.tool != MUSIC_PLAY:
        return False
    query = read(Said.of(str(action.args.get("query") or ""), language), catalog)
    table = MUSIC_WORDS.get(base_language(language))
    music = table.generic if table else frozenset()
    return not query.unexplained and bool(
        query.mentions.entities or query.kind_words - music
    )


def with_place_said(utterance: Utterance, held: Plan, catalog: Catalog) -> Plan:
    """HA's match to play, with the speaker the words name where HA found none.

    HA's sentences know exposed names and areas, not a Spotify Connect
    speaker or "on Spotify": those stay in its query ("Kind of Blue on
    Spotify", played in the speaker's room). Where HA's query holds the
    place the tool's own reading found, or the reading is another tool's
    request, that reading stands instead.
    """
    read = tool_request(utterance, None, catalog)
    if read is None:
        return held
    (said,) = read.actions
    if all(a.tool in catalog.tools and a.tool != said.tool for a in held.actions):
        # Another tool's request: "play it in the office too" is a join.
        return replace(held, actions=read.actions)
    place = fold(str(said.args.get("player") or ""))
    return replace(
        held,
        actions=tuple(
            said
            if action.tool == said.tool
            and place
            and place in fold(str(action.args.get("query") or ""))
            else action
            for action in held.actions
        ),
    )
