"""The words the agent understands without a model, per language.

Follow-ups ("again", "undo", "stop", "yes", "no"), the politeness around
them, how questions about the home start, and the words that refer back to
what was last acted on or widen a request to everything. Words that name
kinds of device live with their domains (domains.py). To add a language,
add it to each table here and there, and translate translations/en.json.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum


class Shortcut(StrEnum):
    """A follow-up understood without a model."""

    AGAIN = "again"
    UNDO = "undo"
    STOP = "stop"
    YES = "yes"
    NO = "no"


def _phrases(text: str) -> frozenset[str]:
    """Phrases written as one "|"-separated string, to keep the tables short."""
    return frozenset(text.split("|"))


def _openers(text: str) -> tuple[str, ...]:
    """Openers written as one "|"-separated string ("is " keeps its space)."""
    return tuple(text.split("|"))


# Whole utterances that are a follow-up, as `shortcuts.normalise` leaves them.
PHRASES: Mapping[str, Mapping[Shortcut, frozenset[str]]] = {
    "en": {
        Shortcut.AGAIN: _phrases(
            "again|do it again|do that again|once more|one more time|"
            "repeat that|same again"
        ),
        Shortcut.UNDO: _phrases(
            "change it back|put it back|revert that|take that back|undo|"
            "undo it|undo that"
        ),
        Shortcut.STOP: _phrases("stop|stop it|stop that"),
        Shortcut.YES: _phrases(
            "confirm|do it|go ahead|ok|okay|please do|sure|yeah|yep|yes|yes do it"
        ),
        Shortcut.NO: _phrases(
            "cancel|don't|dont|forget it|leave it|never mind|nevermind|no|"
            "no thanks|nope"
        ),
    },
    "de": {
        Shortcut.AGAIN: _phrases(
            "das gleiche noch mal|das gleiche nochmal|dasselbe noch mal|"
            "dasselbe nochmal|mach das noch mal|mach das nochmal|"
            "mach es noch mal|mach es nochmal|mach's noch mal|mach's nochmal|"
            "noch einmal|noch mal|nochmal|nochmals|wiederhole das|wiederholen"
        ),
        Shortcut.UNDO: _phrases(
            "das rückgängig machen|mach das rückgängig|mach es rückgängig|"
            "mach es wie vorher|mach's rückgängig|nimm das zurück|rückgängig|"
            "rückgängig machen|stell das wieder her|stell das zurück|"
            "stell es wieder her|stell es zurück|wieder wie vorher"
        ),
        Shortcut.STOP: _phrases("anhalten|halt|hör auf|stop|stopp|stopp das|stoppen"),
        Shortcut.YES: _phrases(
            "auf jeden fall|bestätige|bestätigen|genau|gern|gerne|in ordnung|"
            "ja|jawohl|jep|jo|klar|los|mach das|mach es|mach ruhig|mach's|"
            "na klar|ok|okay|passt|richtig|sicher|tu das"
        ),
        Shortcut.NO: _phrases(
            "abbrechen|abbruch|auf keinen fall|doch nicht|egal|lass das|"
            "lass es|lass gut sein|lass mal|lieber nicht|nee|nein|nicht|nichts|"
            "nö|schon gut|vergiss das|vergiss es"
        ),
    },
    "fr": {
        Shortcut.AGAIN: _phrases(
            "encore|encore une fois|fais le encore|la même chose|pareil|"
            "recommence|refais|refais le|refais ça|répète|une fois de plus"
        ),
        Shortcut.UNDO: _phrases(
            "annule|annule le|annule ça|annuler|comme avant|défais ça|"
            "remets comme avant|remets comme c'était|remets le comme avant|"
            "retour en arrière|reviens en arrière"
        ),
        Shortcut.STOP: _phrases("arrête|arrête tout|arrête ça|arrêter|stop|stoppe"),
        Shortcut.YES: _phrases(
            "absolument|allez y|bien sûr|c'est ça|confirme|d'accord|exactement|"
            "fais le|fais ça|je confirme|ok|okay|ouais|oui|parfait|vas y|"
            "volontiers"
        ),
        Shortcut.NO: _phrases(
            "annule|annule ça|laisse|laisse tomber|nan|ne fais rien|"
            "ne le fais pas|non|oublie|oublie ça|pas la peine|pas maintenant|"
            "rien|surtout pas"
        ),
    },
    "es": {
        Shortcut.AGAIN: _phrases(
            "de nuevo|hazlo de nuevo|hazlo otra vez|lo mismo|lo mismo otra vez|"
            "otra vez|repite|repite eso|repítelo|una vez más"
        ),
        Shortcut.UNDO: _phrases(
            "como estaba|deshacer|deshaz|deshaz eso|deshazlo|déjalo como antes|"
            "déjalo como estaba|revierte eso|vuelve a dejarlo como estaba|"
            "vuelve atrás"
        ),
        Shortcut.STOP: _phrases("basta|detenlo|detente|para|para eso|páralo|stop"),
        Shortcut.YES: _phrases(
            "adelante|claro|confirmar|confirmo|dale|de acuerdo|eso es|exacto|"
            "hazlo|ok|okay|perfecto|por supuesto|si|sí|vale|venga"
        ),
        Shortcut.NO: _phrases(
            "cancela|cancelar|da igual|dejalo|déjalo|mejor no|nada|ni hablar|"
            "no|no importa|no lo hagas|olvidalo|olvídalo"
        ),
    },
    "nl": {
        Shortcut.AGAIN: _phrases(
            "doe dat nog een keer|doe dat nog eens|doe het nog een keer|"
            "doe het nog eens|herhaal|herhaal dat|hetzelfde|hetzelfde nog eens|"
            "nog een keer|nog eens|nogmaals|opnieuw"
        ),
        Shortcut.UNDO: _phrases(
            "draai dat terug|draai het terug|maak dat ongedaan|"
            "maak het ongedaan|ongedaan maken|terugdraaien|zet het terug|"
            "zet het terug zoals het was|zoals het was"
        ),
        Shortcut.STOP: _phrases("hou op|houd op|stop|stop dat|stop ermee|stoppen"),
        Shortcut.YES: _phrases(
            "akkoord|bevestig|doe dat|doe het|doe maar|ga je gang|goed|graag|"
            "is goed|ja|ja hoor|jawel|jazeker|jep|klopt|natuurlijk|ok|okay|oké|"
            "prima|zeker"
        ),
        Shortcut.NO: _phrases(
            "annuleer|annuleren|doe maar niet|laat het|laat maar|"
            "laat maar zitten|liever niet|nee|nee hoor|neen|niet doen|niets|"
            "niks|toch niet|vergeet het|vergeet het maar"
        ),
    },
    "it": {
        Shortcut.AGAIN: _phrases(
            "ancora|ancora una volta|di nuovo|fallo ancora|fallo di nuovo|"
            "la stessa cosa|rifai|rifallo|ripeti|ripetilo|un'altra volta"
        ),
        Shortcut.UNDO: _phrases(
            "annulla|annulla quello|annullalo|come prima|rimetti com'era|"
            "rimetti come prima|rimettilo com'era|ripristina|torna come prima|"
            "torna indietro"
        ),
        Shortcut.STOP: _phrases(
            "basta|ferma|ferma tutto|fermalo|fermati|smettila|stop"
        ),
        Shortcut.YES: _phrases(
            "certamente|certo|conferma|confermo|d'accordo|esatto|fallo|ok|okay|"
            "perfetto|procedi|si|sì|va bene|vai|volentieri"
        ),
        Shortcut.NO: _phrases(
            "annulla|dimentica|lascia|lascia perdere|lascia stare|meglio di no|"
            "niente|no|non farlo|non importa|scordatelo"
        ),
    },
}
# Politeness in a shortcut ("undo that, please", "ja bitte"), per language.
FILLER: Mapping[str, frozenset[str]] = {
    "en": _phrases("ok|okay|please|thank you|thanks"),
    "de": _phrases("bitte|danke|danke schön|dankeschön|ok|okay"),
    "fr": _phrases("merci|ok|okay|s'il te plaît|s'il vous plaît|stp|svp"),
    "es": _phrases("gracias|ok|okay|por favor|porfa|vale"),
    "nl": _phrases(
        "alsjeblieft|alstublieft|aub|bedankt|dank je|dank je wel|dankjewel|ok|oké"
    ),
    "it": _phrases("grazie|ok|okay|per favore|per piacere"),
}
# How questions about the home start, per language, as `normalise` leaves
# them. Requests phrased as questions ("can you ...", "kannst du ...",
# "est-ce que tu ...") are not on the list.
QUESTION_OPENERS: Mapping[str, tuple[str, ...]] = {
    "en": _openers("how |what|which |when |where |who |is |are |does |was |were "),
    "de": _openers(
        "ist |sind |war |waren |wie |was |welche|wann |wo |wer |warum |"
        "läuft |laufen |brennt |steht |hat |haben |gibt es "
    ),
    "fr": _openers(
        "est ce que le |est ce que la |est ce que les |est ce que l'|"
        "est ce qu'il|est ce qu'on |qu'est ce qu|quel|combien |comment |"
        "où |qui |quand |pourquoi |y a t il "
    ),
    "es": _openers(
        "está |están |hay |qué |cuál|cuánt|cómo |dónde |cuándo |quién|"
        "por qué |es |son |sigue |siguen |hace |tiene "
    ),
    "nl": _openers(
        "is |zijn |staat |staan |was |waren |hoe |wat |welk|wanneer |waar |"
        "wie |waarom |hoeveel |heeft |hebben |brandt |speelt "
    ),
    "it": _openers(
        "è |sono |c'è |ci sono |com'è |come |cosa |che |qual|quant|quando |"
        "dove |chi |perché "
    ),
}
# Words that refer to what the conversation last acted on, per language.
REFERENCE_WORDS: Mapping[str, frozenset[str]] = {
    "en": _phrases("it|one|ones|same|that|them|these|those"),
    "de": _phrases("das|dasselbe|es|gleiche|ihn|sie"),
    "fr": _phrases("l'|la|le|les|même|ça"),
    "es": _phrases("eso|la|las|lo|los|mismo"),
    "nl": _phrases("dat|die|het|hetzelfde|ze"),
    "it": _phrases("la|le|li|lo|quello|stesso"),
}
# Words that widen a kind of device to every kind ("everything in the office").
EVERYTHING_WORDS: Mapping[str, frozenset[str]] = {
    "en": _phrases("all|everything"),
    "de": _phrases("alle|alles"),
    "fr": _phrases("tous|tout|toutes"),
    "es": _phrases("todas|todo|todos"),
    "nl": _phrases("alle|alles"),
    "it": _phrases("tutte|tutti|tutto"),
}
