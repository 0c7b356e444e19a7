"""Reading a spoken answer in its own language: yes or no, none, numbers.

The intents tests give the reply Home Assistant's own templates make
("Ja, Küchenlicht ist an", "No, 19,6 °C", "Keins"). A reply agrees with it
when it has the same leading yes/no, says "none" (or zero) where the
expected reply does and only there, and says every number the expected reply says, as
digits (a decimal point or comma) or as words of the case's language
("zweiundzwanzig", "soixante-quinze", "veintidós", "tweeëntwintig",
"ventidue"). Another language's "yes" does not count.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
import re
import unicodedata

from homeassistant.util import dt as dt_util

YES = {
    "en": ("yes",),
    "de": ("ja",),
    "fr": ("oui",),
    "es": ("si",),
    "nl": ("ja",),
    "it": ("si",),
}
NO = {
    "en": ("no",),
    "de": ("nein",),
    "fr": ("non",),
    "es": ("no",),
    "nl": ("nee",),
    "it": ("no",),
}
# Words that answer a count or a "which" with nothing: the number 0.
NONE = {
    "en": ("none", "not any", "nothing", "nobody", "zero"),
    "de": ("kein", "keine", "keins", "keiner", "keinen", "niemand", "null"),
    "fr": ("aucun", "aucune", "personne", "rien", "zero"),
    "es": ("ningun", "ninguno", "ninguna", "nadie", "nada", "cero"),
    "nl": ("geen", "niemand", "niets", "nul"),
    "it": ("nessuno", "nessuna", "niente", "zero"),
}
# Units 1-19 and tens, accents folded; compounds are read in `_word_value`.
UNITS = {
    "en": "one two three four five six seven eight nine ten eleven twelve "
    "thirteen fourteen fifteen sixteen seventeen eighteen nineteen",
    "de": "eins zwei drei vier funf sechs sieben acht neun zehn elf zwolf "
    "dreizehn vierzehn funfzehn sechzehn siebzehn achtzehn neunzehn",
    "fr": "un deux trois quatre cinq six sept huit neuf dix onze douze "
    "treize quatorze quinze seize dix-sept dix-huit dix-neuf",
    "es": "uno dos tres cuatro cinco seis siete ocho nueve diez once doce "
    "trece catorce quince dieciseis diecisiete dieciocho diecinueve",
    "nl": "een twee drie vier vijf zes zeven acht negen tien elf twaalf "
    "dertien veertien vijftien zestien zeventien achttien negentien",
    "it": "uno due tre quattro cinque sei sette otto nove dieci undici "
    "dodici tredici quattordici quindici sedici diciassette diciotto "
    "diciannove",
}
TENS = {
    "en": "twenty thirty forty fifty sixty seventy eighty ninety",
    "de": "zwanzig dreissig vierzig funfzig sechzig siebzig achtzig neunzig",
    "fr": "vingt trente quarante cinquante soixante soixante-dix "
    "quatre-vingt quatre-vingt-dix",
    "es": "veinte treinta cuarenta cincuenta sesenta setenta ochenta noventa",
    "nl": "twintig dertig veertig vijftig zestig zeventig tachtig negentig",
    "it": "venti trenta quaranta cinquanta sessanta settanta ottanta novanta",
}
# The word joining units and tens ("zweiundzwanzig", "trente et un").
JOINERS = ("und", "en", "et", "y", "and")
DIGITS_RE = re.compile(r"-?\d+(?:[.,]\d+)?")
WORD_RE = re.compile(r"[a-z]+(?:-[a-z]+)*")


def fold(text: str) -> str:
    """Casefolded, accents removed, German ß as ss: the form words are compared in."""
    decomposed = unicodedata.normalize("NFKD", text.casefold().replace("ß", "ss"))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _tables(language: str) -> tuple[dict[str, int], dict[str, int]]:
    units = {w: i + 1 for i, w in enumerate(UNITS[language].split())}
    tens = {w: (i + 2) * 10 for i, w in enumerate(TENS[language].split())}
    return units, tens


def _word_value(word: str, language: str) -> int | None:
    """A number word of 1-99 in `language`, or None."""
    units, tens = _tables(language)
    if word in units:
        return units[word]
    if word in tens:
        return tens[word]
    if language == "es" and word.startswith("veinti") and word[6:] in units:
        return 20 + units[word[6:]]  # veintidós
    # Longest tens first: "quatre-vingt-dix" before "quatre-vingt".
    for tens_word, value in sorted(tens.items(), key=lambda t: -len(t[0])):
        if language in {"de", "nl"} and word.endswith(tens_word):
            # Unit, joiner, tens: "zweiundzwanzig", "tweeëntwintig".
            head = word.removesuffix(tens_word)
            for joiner in ("und", "en"):
                unit = head.removesuffix(joiner)
                unit = "eins" if unit == "ein" else unit
                if head.endswith(joiner) and units.get(unit, 10) < 10:
                    return value + units[unit]
        elif language in {"en", "fr", "it"} and word.startswith(tens_word):
            # Tens, then unit: "twenty-two", "soixante-quinze", "vingt-et-un".
            tail = word.removeprefix(tens_word).lstrip("-").removeprefix("et-")
            if tail in units and (units[tail] < 10 or language == "fr"):
                return value + units[tail]
        if language == "it" and word in {
            tens_word[:-1] + "uno",
            tens_word[:-1] + "otto",
        }:
            return value + units[word[len(tens_word) - 1 :]]  # ventuno, trentotto
    return None


def numbers(speech: str, language: str) -> set[float]:
    """Every number a reply says, as digits or as words of `language`."""
    said = fold(speech)
    found = {float(n.replace(",", ".")) for n in DIGITS_RE.findall(said)}
    words = WORD_RE.findall(said)
    for index, word in enumerate(words):
        value = _word_value(word, language)
        if value is None:
            continue
        # "trente et un", "treinta y dos": tens, a joiner, then a unit.
        if (
            value % 10 == 0
            and index + 2 < len(words)
            and words[index + 1] in JOINERS
            and (unit := _word_value(words[index + 2], language)) is not None
            and unit < 10
        ):
            value += unit
        found.add(float(value))
    if any(word in NONE[language] for word in words):
        found.add(0.0)
    return found


def _words(text: str) -> Iterator[str]:
    yield from WORD_RE.findall(fold(text))


def leading_answer(text: str, language: str) -> str | None:
    """Yes or no, when the text starts with that word of `language`."""
    first = next(_words(text), None)
    if first in YES[language]:
        return "yes"
    if first in NO[language]:
        return "no"
    return None


def _says_none(text: str, language: str) -> bool:
    """Whether the text opens with its language's "none" ("Keins", "Not any")."""
    said = list(_words(text))[:2]
    return bool(said) and (
        said[0] in NONE[language] or " ".join(said) in NONE[language]
    )


def answer_agrees(expected: str | None, speech: str, language: str = "en") -> bool:
    """Same leading yes/no, "none" and every number of the expected reply."""
    if not expected:
        return True
    wanted = leading_answer(expected, language)
    if wanted is not None:
        words = set(_words(speech))
        said = leading_answer(speech, language)
        own = YES[language] if wanted == "yes" else NO[language]
        if said not in {None, wanted} or not words & set(own):
            return False
        expected = expected.split(",", 1)[1] if "," in expected else ""
    said_numbers = numbers(speech, language)
    none = _says_none(expected, language)
    if none and 0.0 not in said_numbers:
        return False
    none = none or 0.0 in numbers(expected, language)
    # "None" said where the expected reply names some ("Keins" for "Handy").
    if _says_none(speech, language) and not none:
        return False
    return all(
        float(n.replace(",", ".")) in said_numbers
        for n in DIGITS_RE.findall(fold(expected))
    )


# Digits as written in a reply, with either decimal mark.
_DIGITS = re.compile(r"\d+(?:[.,]\d+)?")
# Paths whose words are Home Assistant's own (its clock, its templates).
_HOME_ASSISTANTS = frozenset({"local", "ha"})


def unfounded_facts(
    speech: str,
    states: list[dict[str, tuple[str, dict[str, object]]]],
    details: list[dict[str, object]],
    source: str | None,
    ran: Sequence[object] = (),
) -> list[str]:
    """Numbers and weekdays a reply says that neither the home nor a tool showed.

    Checked on every path but Home Assistant's own sentences (its clock and
    templates are its facts): a number in the reply must be in a state or an
    attribute (before or after the turn, a 0-1 share and a light's
    brightness also as a percentage),
    in a tool's data or what a list or calendar returned (in the trace), or
    in the data of a call the turn made ("Set the lamp to 75 percent." says
    what ran), or the home's clock now (the date and the time, which Home
    Assistant's own date and time intents say). A weekday must be today's or
    that of a date in the trace. Written here, apart from the agent's own
    check, so that the bench does not score the agent by its own
    rule.
    """
    if source in _HOME_ASSISTANTS:
        return []
    shown: set[float] = _clock()
    for home in states:
        for state, attributes in home.values():
            shown |= _shown(state) | _shown(attributes)
    shown |= _shown([d.get(key) for d in details for key in ("outcomes", "listed")])
    shown |= _shown(list(ran))
    unshown = [
        found
        for found in _DIGITS.findall(speech)
        if float(found.replace(",", ".")) not in shown
    ]
    return unshown + _unshown_weekdays(speech, details)


# The days of the week in the six languages, Monday first (a reply may name
# only today's, or one a tool's data dates).
_WEEKDAY_NAMES = (
    ("monday", "montag", "lundi", "lunes", "maandag", "lunedi"),
    ("tuesday", "dienstag", "mardi", "martes", "dinsdag", "martedi"),
    ("wednesday", "mittwoch", "mercredi", "miercoles", "woensdag", "mercoledi"),
    ("thursday", "donnerstag", "jeudi", "jueves", "donderdag", "giovedi"),
    ("friday", "freitag", "vendredi", "viernes", "vrijdag", "venerdi"),
    ("saturday", "samstag", "samedi", "sabado", "zaterdag", "sabato"),
    ("sunday", "sonntag", "dimanche", "domingo", "zondag", "domenica"),
)
# A date as a tool or a list writes it.
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def _unshown_weekdays(speech: str, details: list[dict[str, object]]) -> list[str]:
    """Weekdays a reply names that are neither today nor a date in the trace."""
    said = set(fold(speech).replace(".", " ").replace(",", " ").split())
    dated = {
        dt_util.parse_date(found)
        for found in _ISO_DATE.findall(
            str([d.get(key) for d in details for key in ("outcomes", "listed")])
        )
    }
    shown = {dt_util.now().weekday()} | {d.weekday() for d in dated if d}
    return [
        names[0]
        for day, names in enumerate(_WEEKDAY_NAMES)
        if day not in shown and said & set(names)
    ]


def _clock() -> set[float]:
    """The numbers of the home's date and time now, the hour both ways."""
    now = dt_util.now()
    hours = {now.hour, now.hour % 12 or 12}
    return {float(n) for n in (now.year, now.month, now.day, now.minute, *hours)}


def _shown(value: object) -> set[float]:
    """Every number a value holds, as written and rounded, recursively."""
    if isinstance(value, bool) or value is None:
        return set()
    if isinstance(value, (int, float)):
        number = float(value)
        found = {number, float(round(number)), round(number, 1)}
        if 0 <= number <= 1:
            found.add(float(round(number * 100)))
        return found
    if isinstance(value, str):
        return {
            n
            for digits in _DIGITS.findall(value)
            for n in _shown(float(digits.replace(",", ".")))
        }
    if isinstance(value, dict):
        found = _shown(list(value.values()))
        # A light's brightness (0-255) is said as a percentage.
        if isinstance(brightness := value.get("brightness"), (int, float)):
            found.add(float(round(brightness * 100 / 255)))
        return found
    if isinstance(value, (list, tuple, set)):
        return {n for item in value for n in _shown(item)}
    return set()


def reached_model(details: list[dict[str, object]]) -> bool:
    """Whether a turn asked the model (its trace holds the request)."""
    return any("model_request" in detail for detail in details)


def model_tokens(turn: dict[str, object], kind: str) -> int | None:
    """The tokens of a turn's model call: `completion` written, `processed` read."""
    details = turn.get("details")
    for detail in details if isinstance(details, list) else ():
        value = detail.get(f"{kind}_tokens") if isinstance(detail, dict) else None
        if isinstance(value, int):
            return value
    return None
