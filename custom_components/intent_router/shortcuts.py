"""Deterministic follow-ups: "again", "undo that", "stop", "yes", "no".

These need no model: a small, explicit phrase list per language decides,
and the previous turn's executed actions (with their targets' prior states)
say what to replay or reverse. Anything not on the list goes to the model.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
import re

from .context_store import ExecutedAction, PriorState
from .domains import domain_info, domain_of
from .plan import Action
from .speech import base_language


class Shortcut(StrEnum):
    """A follow-up understood without a model."""

    AGAIN = "again"
    UNDO = "undo"
    STOP = "stop"
    YES = "yes"
    NO = "no"


PHRASES: Mapping[str, Mapping[Shortcut, frozenset[str]]] = {
    "en": {
        Shortcut.AGAIN: frozenset(
            {
                "again",
                "do that again",
                "do it again",
                "same again",
                "repeat that",
                "once more",
                "one more time",
            }
        ),
        Shortcut.UNDO: frozenset(
            {
                "undo",
                "undo that",
                "undo it",
                "revert that",
                "put it back",
                "change it back",
                "take that back",
            }
        ),
        Shortcut.STOP: frozenset({"stop", "stop that", "stop it"}),
        Shortcut.YES: frozenset(
            {
                "yes",
                "yeah",
                "yep",
                "sure",
                "ok",
                "okay",
                "do it",
                "go ahead",
                "confirm",
                "please do",
                "yes do it",
            }
        ),
        Shortcut.NO: frozenset(
            {
                "no",
                "nope",
                "never mind",
                "nevermind",
                "cancel",
                "dont",
                "don't",
                "no thanks",
                "forget it",
                "leave it",
            }
        ),
    },
    "de": {
        Shortcut.AGAIN: frozenset(
            {
                "nochmal",
                "noch mal",
                "noch einmal",
                "nochmals",
                "mach das nochmal",
                "mach das noch mal",
                "mach es nochmal",
                "mach es noch mal",
                "mach's nochmal",
                "mach's noch mal",
                "das gleiche nochmal",
                "das gleiche noch mal",
                "dasselbe nochmal",
                "dasselbe noch mal",
                "wiederholen",
                "wiederhole das",
            }
        ),
        Shortcut.UNDO: frozenset(
            {
                "rückgängig",
                "rückgängig machen",
                "mach das rückgängig",
                "mach es rückgängig",
                "mach's rückgängig",
                "das rückgängig machen",
                "nimm das zurück",
                "stell das zurück",
                "stell es zurück",
                "stell es wieder her",
                "stell das wieder her",
                "wieder wie vorher",
                "mach es wie vorher",
            }
        ),
        Shortcut.STOP: frozenset(
            {"stopp", "stop", "stoppen", "stopp das", "halt", "anhalten", "hör auf"}
        ),
        Shortcut.YES: frozenset(
            {
                "ja",
                "jawohl",
                "jep",
                "jo",
                "klar",
                "na klar",
                "sicher",
                "okay",
                "ok",
                "genau",
                "gerne",
                "gern",
                "in ordnung",
                "passt",
                "richtig",
                "mach das",
                "mach es",
                "mach's",
                "mach ruhig",
                "tu das",
                "los",
                "bestätigen",
                "bestätige",
                "auf jeden fall",
            }
        ),
        Shortcut.NO: frozenset(
            {
                "nein",
                "nee",
                "nö",
                "lieber nicht",
                "doch nicht",
                "nicht",
                "nichts",
                "lass es",
                "lass das",
                "lass mal",
                "lass gut sein",
                "schon gut",
                "abbrechen",
                "abbruch",
                "vergiss es",
                "vergiss das",
                "egal",
                "auf keinen fall",
            }
        ),
    },
    "fr": {
        Shortcut.AGAIN: frozenset(
            {
                "encore",
                "encore une fois",
                "une fois de plus",
                "recommence",
                "refais",
                "refais le",
                "refais ça",
                "fais le encore",
                "pareil",
                "la même chose",
                "répète",
            }
        ),
        Shortcut.UNDO: frozenset(
            {
                "annule",
                "annule ça",
                "annule le",
                "annuler",
                "défais ça",
                "reviens en arrière",
                "retour en arrière",
                "comme avant",
                "remets comme avant",
                "remets le comme avant",
                "remets comme c'était",
            }
        ),
        Shortcut.STOP: frozenset(
            {"stop", "arrête", "arrête ça", "arrête tout", "stoppe", "arrêter"}
        ),
        Shortcut.YES: frozenset(
            {
                "oui",
                "ouais",
                "ok",
                "okay",
                "d'accord",
                "bien sûr",
                "exactement",
                "absolument",
                "parfait",
                "volontiers",
                "c'est ça",
                "vas y",
                "allez y",
                "fais le",
                "fais ça",
                "confirme",
                "je confirme",
            }
        ),
        Shortcut.NO: frozenset(
            {
                "non",
                "nan",
                "laisse tomber",
                "laisse",
                "oublie",
                "oublie ça",
                "annule",
                "annule ça",
                "pas la peine",
                "surtout pas",
                "pas maintenant",
                "rien",
                "ne fais rien",
                "ne le fais pas",
            }
        ),
    },
    "es": {
        Shortcut.AGAIN: frozenset(
            {
                "otra vez",
                "de nuevo",
                "una vez más",
                "hazlo otra vez",
                "hazlo de nuevo",
                "repite",
                "repítelo",
                "repite eso",
                "lo mismo",
                "lo mismo otra vez",
            }
        ),
        Shortcut.UNDO: frozenset(
            {
                "deshaz",
                "deshazlo",
                "deshaz eso",
                "deshacer",
                "vuelve atrás",
                "revierte eso",
                "como estaba",
                "déjalo como estaba",
                "déjalo como antes",
                "vuelve a dejarlo como estaba",
            }
        ),
        Shortcut.STOP: frozenset(
            {"para", "para eso", "páralo", "detente", "detenlo", "stop", "basta"}
        ),
        Shortcut.YES: frozenset(
            {
                "sí",
                "si",
                "vale",
                "claro",
                "por supuesto",
                "de acuerdo",
                "ok",
                "okay",
                "hazlo",
                "adelante",
                "dale",
                "venga",
                "perfecto",
                "exacto",
                "eso es",
                "confirmo",
                "confirmar",
            }
        ),
        Shortcut.NO: frozenset(
            {
                "no",
                "cancela",
                "cancelar",
                "olvídalo",
                "olvidalo",
                "déjalo",
                "dejalo",
                "no importa",
                "da igual",
                "mejor no",
                "nada",
                "no lo hagas",
                "ni hablar",
            }
        ),
    },
    "nl": {
        Shortcut.AGAIN: frozenset(
            {
                "nog een keer",
                "nog eens",
                "nogmaals",
                "opnieuw",
                "doe dat nog eens",
                "doe het nog eens",
                "doe dat nog een keer",
                "doe het nog een keer",
                "herhaal",
                "herhaal dat",
                "hetzelfde",
                "hetzelfde nog eens",
            }
        ),
        Shortcut.UNDO: frozenset(
            {
                "ongedaan maken",
                "maak dat ongedaan",
                "maak het ongedaan",
                "draai dat terug",
                "draai het terug",
                "terugdraaien",
                "zet het terug",
                "zet het terug zoals het was",
                "zoals het was",
            }
        ),
        Shortcut.STOP: frozenset(
            {"stop", "stoppen", "stop ermee", "stop dat", "hou op", "houd op"}
        ),
        Shortcut.YES: frozenset(
            {
                "ja",
                "jawel",
                "jazeker",
                "ja hoor",
                "jep",
                "oké",
                "ok",
                "okay",
                "prima",
                "goed",
                "is goed",
                "zeker",
                "natuurlijk",
                "graag",
                "klopt",
                "akkoord",
                "doe maar",
                "doe het",
                "doe dat",
                "ga je gang",
                "bevestig",
            }
        ),
        Shortcut.NO: frozenset(
            {
                "nee",
                "neen",
                "nee hoor",
                "laat maar",
                "laat maar zitten",
                "laat het",
                "annuleer",
                "annuleren",
                "vergeet het",
                "vergeet het maar",
                "niet doen",
                "doe maar niet",
                "liever niet",
                "toch niet",
                "niks",
                "niets",
            }
        ),
    },
    "it": {
        Shortcut.AGAIN: frozenset(
            {
                "ancora",
                "ancora una volta",
                "di nuovo",
                "un'altra volta",
                "rifallo",
                "rifai",
                "fallo di nuovo",
                "fallo ancora",
                "ripeti",
                "ripetilo",
                "la stessa cosa",
            }
        ),
        Shortcut.UNDO: frozenset(
            {
                "annulla",
                "annullalo",
                "annulla quello",
                "torna indietro",
                "torna come prima",
                "come prima",
                "rimetti com'era",
                "rimettilo com'era",
                "rimetti come prima",
                "ripristina",
            }
        ),
        Shortcut.STOP: frozenset(
            {"stop", "basta", "ferma", "fermati", "fermalo", "ferma tutto", "smettila"}
        ),
        Shortcut.YES: frozenset(
            {
                "sì",
                "si",
                "certo",
                "certamente",
                "va bene",
                "ok",
                "okay",
                "d'accordo",
                "esatto",
                "perfetto",
                "volentieri",
                "fallo",
                "procedi",
                "vai",
                "confermo",
                "conferma",
            }
        ),
        Shortcut.NO: frozenset(
            {
                "no",
                "lascia stare",
                "lascia perdere",
                "lascia",
                "annulla",
                "non farlo",
                "niente",
                "meglio di no",
                "non importa",
                "dimentica",
                "scordatelo",
            }
        ),
    },
}
# Politeness in a shortcut ("undo that, please", "ja bitte"), per language.
FILLER: Mapping[str, frozenset[str]] = {
    "en": frozenset({"please", "thanks", "thank you", "ok", "okay"}),
    "de": frozenset({"bitte", "danke", "danke schön", "dankeschön", "okay", "ok"}),
    "fr": frozenset(
        {"s'il te plaît", "s'il vous plaît", "stp", "svp", "merci", "ok", "okay"}
    ),
    "es": frozenset({"por favor", "porfa", "gracias", "ok", "okay", "vale"}),
    "nl": frozenset(
        {
            "alsjeblieft",
            "alstublieft",
            "aub",
            "dank je",
            "dank je wel",
            "dankjewel",
            "bedankt",
            "oké",
            "ok",
        }
    ),
    "it": frozenset({"per favore", "per piacere", "grazie", "ok", "okay"}),
}
# How questions about the home start, per language, as `normalise` leaves
# them. Requests phrased as questions ("can you ...", "kannst du ...",
# "est-ce que tu ...") are not on the list.
QUESTION_OPENERS: Mapping[str, tuple[str, ...]] = {
    "en": (
        "how ",
        "what",
        "which ",
        "when ",
        "where ",
        "who ",
        "is ",
        "are ",
        "does ",
        "was ",
        "were ",
    ),
    "de": (
        "ist ",
        "sind ",
        "war ",
        "waren ",
        "wie ",
        "was ",
        "welche",
        "wann ",
        "wo ",
        "wer ",
        "warum ",
        "läuft ",
        "laufen ",
        "brennt ",
        "steht ",
        "hat ",
        "haben ",
        "gibt es ",
    ),
    "fr": (
        "est ce que le ",
        "est ce que la ",
        "est ce que les ",
        "est ce que l'",
        "est ce qu'il",
        "est ce qu'on ",
        "qu'est ce qu",
        "quel",
        "combien ",
        "comment ",
        "où ",
        "qui ",
        "quand ",
        "pourquoi ",
        "y a t il ",
    ),
    "es": (
        "está ",
        "están ",
        "hay ",
        "qué ",
        "cuál",
        "cuánt",
        "cómo ",
        "dónde ",
        "cuándo ",
        "quién",
        "por qué ",
        "es ",
        "son ",
        "sigue ",
        "siguen ",
        "hace ",
        "tiene ",
    ),
    "nl": (
        "is ",
        "zijn ",
        "staat ",
        "staan ",
        "was ",
        "waren ",
        "hoe ",
        "wat ",
        "welk",
        "wanneer ",
        "waar ",
        "wie ",
        "waarom ",
        "hoeveel ",
        "heeft ",
        "hebben ",
        "brandt ",
        "speelt ",
    ),
    "it": (
        "è ",
        "sono ",
        "c'è ",
        "ci sono ",
        "com'è ",
        "come ",
        "cosa ",
        "che ",
        "qual",
        "quant",
        "quando ",
        "dove ",
        "chi ",
        "perché ",
    ),
}
# Anything but letters, digits and apostrophes separates words; typographic
# apostrophes (U+2019, as speech-to-text may write "s'il") are plain ones.
_SEPARATORS = re.compile(r"[^\w']+")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u02bc": "'"})


def normalise(text: str) -> str:
    """Case-folded words separated by single spaces, punctuation gone."""
    return _SEPARATORS.sub(" ", text.casefold().translate(_APOSTROPHES)).strip()


def _filler_pattern(filler: Iterable[str]) -> re.Pattern[str]:
    """Matches the politeness words of a language wherever they are said."""
    options = "|".join(
        re.escape(words) for words in sorted(filler, key=len, reverse=True)
    )
    return re.compile(rf"(?<!\S)(?:{options})(?!\S)")


_FILLER_PATTERNS = {
    language: _filler_pattern(words) for language, words in FILLER.items()
}


def match_shortcut(
    text: str, language: str, allowed: Iterable[Shortcut]
) -> Shortcut | None:
    """The shortcut a whole utterance is, if any (unknown languages: none).

    Politeness is ignored ("mach das bitte rückgängig"), unless it is all
    there is ("okay"). "No, never mind" and "ja, mach das" are two phrases
    of one shortcut, so they are that shortcut.
    """
    base = base_language(language)
    phrases = PHRASES.get(base)
    if phrases is None:
        return None
    said = normalise(text)
    said = " ".join(_FILLER_PATTERNS[base].sub(" ", said).split()) or said
    words = said.split()
    for shortcut in allowed:
        known = phrases[shortcut]
        if said in known or any(
            " ".join(words[:cut]) in known and " ".join(words[cut:]) in known
            for cut in range(1, len(words))
        ):
            return shortcut
    return None


def is_state_question(text: str, language: str) -> bool:
    """Whether an utterance asks about the home rather than for a change."""
    openers = QUESTION_OPENERS.get(base_language(language), ())
    return normalise(text).startswith(openers)


def undo_actions(executed: Iterable[ExecutedAction]) -> list[Action]:
    """Actions that restore the recorded prior states (the oldest one wins)."""
    restore: dict[str, PriorState] = {}
    for action in executed:
        for entity_id, prior in action.prior.items():
            restore.setdefault(entity_id, prior)
    actions: list[Action] = []
    for entity_id, prior in restore.items():
        domain = domain_of(entity_id)
        restorer = domain_info(domain).restore
        calls = restorer(prior) if restorer else []
        actions.extend(
            Action(f"{domain}.{service}", (entity_id,), args) for service, args in calls
        )
    return actions


def stop_actions(executed: Iterable[ExecutedAction]) -> list[Action]:
    """Stop or pause what the previous turn started."""
    targets = dict.fromkeys(t for action in executed for t in action.targets)
    return [
        Action(f"{domain}.{stop}", (entity_id,))
        for entity_id in targets
        if (stop := domain_info(domain := domain_of(entity_id)).stop)
    ]
