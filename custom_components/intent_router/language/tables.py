"""The one form of a language's words in memory: every table as `fold` leaves it.

Each language's words are a data file (`<code>.yaml`, read by files.py);
the package (`__init__.py`) reads with the `Words` built from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
import re
import unicodedata

# Apostrophes as keyboards, phones and speech engines write them.
_APOSTROPHES = str.maketrans(dict.fromkeys("\u2019\u02bc\u2018`", "'"))
_SEPARATORS = re.compile(r"[^\w']+")
# Where a separable verb's object goes: "schalte … ab".
GAP = "\u2026"
# A compound's head and kind are each at least this long ("tor" is a kind,
# "Küchentor" a compound; "ei" of "Eitor" is no head); so is a word without
# its plural ending.
MIN_PART = 3


def fold(text: str) -> str:
    """Case-folded words separated by single spaces.

    Apostrophes are kept ("s'il", "com'era") whichever one was typed;
    other punctuation, hyphens included, separates words.
    """
    return _SEPARATORS.sub(" ", text.casefold().translate(_APOSTROPHES)).strip()


def plain(word: str) -> str:
    """A word without its accents ("apága" is "apaga")."""
    return "".join(
        c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c)
    )


class Shortcut(StrEnum):
    """A follow-up understood without a model."""

    AGAIN = "again"
    UNDO = "undo"
    # The undo of an undo ("redo", "undo the undo"): plain "undo" never is.
    REDO = "redo"
    STOP = "stop"
    YES = "yes"
    NO = "no"


class Verb(StrEnum):
    """What a command asks to be done, whatever it is done to."""

    ON = "on"
    OFF = "off"
    OPEN = "open"
    CLOSE = "close"
    LOCK = "lock"
    UNLOCK = "unlock"
    # More or less of a device's quantity: brighter, louder, warmer.
    UP = "up"
    DOWN = "down"
    # To a value said ("dim the lights to 30 percent").
    SET = "set"
    # What a player does with what it plays: hold it, or go on with it.
    PAUSE = "pause"
    RESUME = "resume"
    # Back to its base: a vacuum's, a mower's ("send the vacuum back to base").
    DOCK = "dock"
    # A vacuum's own work said as the command ("vacuum the kitchen").
    CLEAN = "clean"
    # A player's next or previous track ("next song", "vorheriges Lied").
    NEXT = "next"
    PREVIOUS = "previous"


_OPPOSITE_PAIRS = (
    (Verb.ON, Verb.OFF),
    (Verb.OPEN, Verb.CLOSE),
    (Verb.LOCK, Verb.UNLOCK),
    (Verb.UP, Verb.DOWN),
    (Verb.PAUSE, Verb.RESUME),
    (Verb.NEXT, Verb.PREVIOUS),
)
# Verbs that ask for opposite ends ("lock" and "unlock").
OPPOSITE_VERBS: Mapping[Verb, Verb] = {
    **dict(_OPPOSITE_PAIRS),
    **{second: first for first, second in _OPPOSITE_PAIRS},
}
# Verbs that say what a device is to do, each one service of its domain's:
# the state it ends in ("off", "locked", back at its base), or the track.
STATE_VERBS = frozenset(
    {
        Verb.ON,
        Verb.OFF,
        Verb.OPEN,
        Verb.CLOSE,
        Verb.LOCK,
        Verb.UNLOCK,
        Verb.PAUSE,
        Verb.RESUME,
        Verb.DOCK,
        Verb.CLEAN,
        Verb.NEXT,
        Verb.PREVIOUS,
    }
)
# The days a forecast is asked for, by name (`Words.days`): today, tomorrow,
# and the weekdays in the order Python numbers them (Monday is 0).
DAYS = (
    "today",
    "tomorrow",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
)
# The weekdays' names in `DAYS`, Monday first, as `date.weekday` counts.
WEEKDAYS = DAYS[2:]
# What a question of the clock asks (`Words.clock`): the time, the date, and
# the words it is asked with ("tell me", "right now") that ask nothing more.
CLOCK = ("time", "date", "asks")
# Verbs only some devices do, which say the device with no noun: "sauge
# hier" is the vacuum's, "back to base" a vacuum's or a mower's, "next
# song" a player's.
DEVICE_VERBS = frozenset({Verb.CLEAN, Verb.DOCK, Verb.NEXT, Verb.PREVIOUS})
# Of these, words that are as often a noun or an adjective ("the vacuum",
# "the lamp next to the bed", "the last light"): the verb only of a
# command with no other.
YIELDING_VERBS = frozenset({Verb.CLEAN, Verb.NEXT, Verb.PREVIOUS})


# The senses that are places, rooms and floors, not things: a device named
# like one (a speaker called "Kitchen") is that device only where no other
# kind is said or implied (named.py).
PLACES = frozenset(
    {
        "attic",
        "balcony",
        "basement",
        "bathroom",
        "bedroom",
        "dining_room",
        "entrance",
        "garage",
        "garden",
        "ground_floor",
        "guest_room",
        "hallway",
        "kids_room",
        "kitchen",
        "laundry",
        "living_room",
        "office",
        "terrace",
        "toilet",
        "upstairs",
    }
)


# The senses that are parts of a thing's name, where it is or what it is
# for, which a compound or a phrase joins to a kind ("Nachttisch|lampe",
# "ventilateur de plafond"): said with a kind, they find the home's name
# of the same part in another language ("Bedside Lamp", "Ceiling Fan").
PARTS = frozenset({"bedside", "ceiling", "desk"})


# Things of the senses table that are one kind of device, with the sense
# of the word their names share with others of the kind: a floor lamp is a
# light and a lamp ("Living Room Lamp"); a ceiling light only a light.
FIXTURES: Mapping[str, tuple[str, str | None]] = {
    "ceiling_light": ("light", None),
    "desk_lamp": ("light", "lamp"),
    "floor_lamp": ("light", "lamp"),
    "bedside_lamp": ("light", "lamp"),
}


class Unit(StrEnum):
    """The units a value said is read in."""

    PERCENT = "percent"
    DEGREES = "degrees"


@dataclass(slots=True, frozen=True)
class MusicWords:
    """How one language says "play <query> [by kind] [on <speaker>]".

    Read only by the music tool (music/request.py); a language without
    them leaves "play <name>" to Home Assistant's sentences and the model.
    The tables of phrases found at an end are longest first.
    """

    # What opens a request to play (imperatives; "put on", "zet ... op").
    play: tuple[str, ...]
    # A wish said before the verb ("I want to hear", "ich möchte … hören").
    wishes: tuple[str, ...]
    # What may end one instead, in languages that put the verb last.
    play_last: tuple[str, ...]
    # A separable verb's particle at the end, after an opener ("zet … op").
    particles: tuple[str, ...]
    # Kinds of media (the music tool's `kind`) by the words that say them.
    kinds: Mapping[str, frozenset[str]]
    # Articles and fillers before a kind or a name ("the", "some", "by").
    leading: tuple[str, ...]
    # Prepositions before a speaker, a room or a service ("on", "in the").
    places: tuple[str, ...]
    # What says only "music" and names nothing to search for.
    generic: frozenset[str]
    # What people listen to besides music, searched by its own word ("the
    # radio", "an audiobook"): it says music, and is something to play.
    media: frozenset[str]
    # Openers other commands share ("zet", "metti"): after one, a verb of
    # the command table ("zet de waterkoker uit") or one of `commands`
    # ("metti in pausa", "pon un temporizador") says that command instead.
    shared: frozenset[str]
    commands: frozenset[str]
    # "Too": music shared with one more speaker ("also in the office").
    also: tuple[str, ...]
    # What names the music playing there ("it", "the music"), with its
    # verb where the language writes them as one word ("ponla").
    playing: tuple[str, ...]
    # What says a player's sound, not the player ("audio", "muto", "son"):
    # muting is about it; without it, "spegni la tv" switches the TV off.
    sound: frozenset[str]


@dataclass(slots=True, frozen=True)
class Words:
    """Every word table of one language, each entry as `fold` leaves it."""

    # Whole utterances that are a follow-up ("undo that", "mach das rückgängig").
    shortcuts: Mapping[Shortcut, frozenset[str]]
    # Politeness around a follow-up ("please", "bitte").
    filler: frozenset[str]
    # Words that soften a command without changing what is done ("a bit",
    # "actually", "ein bisschen").
    hedges: frozenset[str]
    # Words that say the speaker's own room ("in here", "hier drin"): the
    # place meant, where no other is said.
    here: frozenset[str]
    # How questions about the home start ("is " keeps its space: "island
    # lights on" asks nothing). Requests phrased as questions ("can you
    # ...", "kannst du ...") are not on the list.
    openers: tuple[str, ...]
    # Words that ask what, which, how or how much ("welche", "cuánto"): a
    # question with none of them is answered yes or no.
    asking: frozenset[str]
    # How requests phrased as questions start ("can you", "kannst du"): a
    # "?" after them asks for an action, not about the home.
    requests: tuple[str, ...]
    # Pronouns that open a request phrased as a question when a verb of the
    # table follows them ("¿me abres la puerta?", "mi accendi la luce?",
    # "tu allumes ?"); before any other word they ask ("mi dici ...?").
    leads: frozenset[str]
    # Words that refer to what the conversation last acted on ("it", "them").
    reference: frozenset[str]
    # Words that refer back to two things ("them both", "beide", "les
    # deux"): the last turn's, and a recent turn's before it.
    both: frozenset[str]
    # Words that refer back only where no noun follows them, else articles or
    # determiners: "mach das aus" / "mach das Licht aus", "zet het uit" /
    # "zet het licht uit", "éteins-la" / "éteins la lampe". A clitic split
    # off its verb ("apágala": "apaga la") is read the same way.
    closing: frozenset[str]
    # Pronouns attached to the end of an imperative ("apágala", "spegnili",
    # "ábremela": "me la"), split off when what is left is a verb of the
    # table.
    clitics: tuple[str, ...]
    # Words that make an answer a no wherever they are ("not", "nicht",
    # "pas"): "sicher nicht" is no yes, whatever its first word.
    negations: frozenset[str]
    # Words that make a command hang on something nobody checked ("if",
    # "wenn", "si"): "set it to 22 if it is above 23" asks first.
    conditions: frozenset[str]
    # What joins the answers a question offers ("on or off?").
    alternatives: frozenset[str]
    # Words that widen a kind of device to every kind ("everything").
    everything: frozenset[str]
    # Words that say some device, not which kind ("any", "devices",
    # "irgendwas"): in a question, a state said in its class's word says
    # the kind ("are any devices plugged in?").
    anything: frozenset[str]
    # Words that say no place, the whole home ("anywhere", "in the house",
    # "irgendwo"): in a question, what is asked of any device of the kind
    # in the home, never only the speaker's room.
    anywhere: frozenset[str]
    # Words that ask for a number of devices ("how many", "wie viele",
    # "combien de"): a question of a kind said in the plural is a count.
    counting: frozenset[str]
    # A question in the past asks of the state now. Its auxiliaries and the
    # persons said ("did I", "hast du", "ai-je", "heb ik") and the verb for
    # leaving something as it is ("leave", "lasciato", "laten staan") shape
    # it and name nothing; the state the rest says is what is asked.
    perfect: frozenset[str]
    left: frozenset[str]
    # Words of names and places that say nothing about which one is meant
    # ("the", "der", "turn"): never a word that names a device or room.
    stop: frozenset[str]
    # Words that only join a sentence ("door" in "gedetecteerd door"): never
    # left unexplained, yet kept in names, where they may be a name's own
    # word in another language (an English "Kitchen Door" in a Dutch home).
    asides: frozenset[str]
    # Words that point at a kind of device without naming one, per domain.
    kinds: Mapping[str, frozenset[str]]
    # Each kind's own name, singular and plural: the first two words of its
    # list ("light, lights, lamp, ..."). They call any device of the kind; a
    # narrower word ("lamp") calls only the devices whose names say it.
    kind_names: Mapping[str, frozenset[str]]
    # Rooms, floors and things, each under a key all languages share
    # ("living_room": "wohnzimmer|stube"): a home whose names are in
    # another language is found through the key.
    senses: Mapping[str, frozenset[str]]
    # Spoken numbers, by the phrase said ("fifty", "dix sept", "half").
    numbers: Mapping[str, float]
    # Levels said in words, by the phrase said, as the percentage they mean
    # ("full", "halfway", "à fond", "al máximo").
    levels: Mapping[str, float]
    # Phrases that say what to do ("turn off", "ausschalten", "éteins").
    verbs: Mapping[Verb, frozenset[str]]
    # Participles that say a state a verb leaves ("abgeschlossen", "abierta",
    # "verrouillée"): read in a question only ("ist die Tür abgeschlossen?"),
    # never in a command or in the question an automation asked ("la puerta
    # lleva 10 minutos abierta, ¿la cierro?").
    states: Mapping[Verb, frozenset[str]]
    # Words that narrow a kind to device classes, per "<domain>.<class>"
    # ("door" is a door or garage cover, not a blind).
    classes: Mapping[str, frozenset[str]]
    # Words of the units values are said in ("percent", "Grad").
    units: Mapping[Unit, frozenset[str]]
    # Elided articles and prepositions stripped off a word before it is
    # matched ("l'entrée" is "entrée", "dell'ingresso" is "ingresso").
    elisions: tuple[str, ...]
    # Endings that make a kind word small ("lampje", "raampje"), stripped
    # where what is left is a kind word of the language.
    diminutives: tuple[str, ...]
    # Where a language writes compound nouns (de, nl): the joints a
    # compound's head may end in ("küchen" of Küche + lampe). Empty: none.
    joints: tuple[str, ...]
    # Verb forms that look like kind or name words ("schalten", "chauffe"):
    # never read as a kind, never taken for a misheard word.
    verb_forms: frozenset[str]
    # Phrases that ask wherever they are said (French inversion, "est-elle").
    asks: frozenset[str]
    # How the language writes, for the replies and for matching names:
    # endings of a plural ("lamps", "Lampen"), stripped to compare a word
    # said with a name's; the mark of a decimal ("21,5"); whether its nouns
    # keep their capital ("Heizbetrieb"); words that drop their last vowel
    # before a vowel ("de" as "d'Adele"); conjunctions said otherwise before
    # a sound ("y" as "e" before "Iluminación"), with that sound.
    plurals: tuple[str, ...]
    decimal_mark: str
    capitalised_nouns: bool
    elided: frozenset[str]
    euphony: Mapping[str, tuple[str, re.Pattern[str]]]
    # Complaints that mean a change, per domain and direction ("too dark":
    # lights up, "stickig": fans up): read as that kind and that verb.
    complaints: Mapping[tuple[str, Verb], frozenset[str]]
    # What a complaint is said with and adds nothing to ("it's", "es ist",
    # "c'est", "het is"): read only beside a complaint, never as "it".
    complaint_frame: frozenset[str]
    # What makes a complaint of a word ("too", "zu", "trop"): said right
    # after its frame in a place said, the word alone complains too ("it's
    # dark in here", "es ist kalt hier"; `bare_complaints`, read off these).
    complaint_degree: frozenset[str]
    # The words of a level a device is set to ("volume", "Helligkeit",
    # "température"): said with no verb, it asks to move the level.
    quantities: frozenset[str]
    # What people wear or carry for the weather ("umbrella", "Jacke"):
    # saying one asks the weather.
    wear: frozenset[str]
    # Spans of time ("week", "Woche", "semaine"): "next week", "la
    # semaine prochaine" skip no track.
    periods: frozenset[str]
    # The days a forecast is asked for ("tomorrow", "am Freitag"), by
    # `DAYS` name: the first phrase of each is how a reply says it.
    days: Mapping[str, tuple[str, ...]]
    # The time and the date asked in everyday words ("tell me the hour",
    # "what's the day today"), by `CLOCK` name (clock.py).
    clock: Mapping[str, frozenset[str]]
    # Read off the tables above as the file is read, for splitting words:
    # the one-word verbs by their unaccented spelling (an imperative takes
    # an accent with a pronoun attached, "apágala", which speech-to-text
    # may leave out); every kind and unit word, what a diminutive is of
    # ("lampje", "graadje"); the kind words that may end a compound
    # (`MIN_PART` letters or more), longest first.
    verb_stems: Mapping[str, str]
    bare_complaints: Mapping[tuple[str, Verb], frozenset[str]]
    nouns: frozenset[str]
    kind_endings: tuple[str, ...]
    # How a request to play music by name is said; None: left to Home
    # Assistant's sentences and the model.
    music: MusicWords | None = None
