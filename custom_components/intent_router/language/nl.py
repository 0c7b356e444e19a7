"""Dutch: the words of commands and follow-ups, as `fold` leaves them."""

from .tables import Shortcut, Unit, Verb, Words, counted, merged

# The units, alone and in 21 to 99 (the table adds their other spellings).
_UNITS = {
    1: "een",
    2: "twee",
    3: "drie",
    4: "vier",
    5: "vijf",
    6: "zes",
    7: "zeven",
    8: "acht",
    9: "negen",
}
# The tens words, alone and in 21 to 99.
_TENS = {
    20: "twintig",
    30: "dertig",
    40: "veertig",
    50: "vijftig",
    60: "zestig",
    70: "zeventig",
    80: "tachtig",
    90: "negentig",
}

WORDS = Words.written(
    shortcuts={
        Shortcut.AGAIN: (
            "doe dat nog een keer|doe dat nog eens|doe het nog een keer|doe het nog eens|"
            "hetzelfde|hetzelfde nog eens|nog een keer|nog eens|"
            "nogmaals|opnieuw|weer"
        ),
        Shortcut.UNDO: (
            "draai dat terug|draai het terug|maak dat ongedaan|maak het ongedaan|"
            "ongedaan maken|terugdraaien|zet hem terug|zet 'm terug|zet het terug|"
            "zet het terug zoals het was|zet ze terug|zoals het was"
        ),
        Shortcut.REDO: "maak het ongedaan maken ongedaan|opnieuw uitvoeren|voer het opnieuw uit",
        Shortcut.STOP: "hou op|houd op|stop|stop dat|stop ermee|stoppen",
        Shortcut.YES: (
            "akkoord|bevestig|dat is goed|doe dat|doe het|doe maar|ga je gang|goed|graag|"
            "is goed|ja|ja hoor|jawel|jazeker|jep|klopt|natuurlijk|ok|okay|oké|prima|"
            "tuurlijk|uiteraard|zeker|"
            "ja graag|ja joh|waarom niet"
        ),
        Shortcut.NO: (
            "absoluut niet|annuleer|annuleren|doe maar niet|echt niet|geen sprake van|"
            "hoeft niet|laat het|laat maar|laat maar zitten|liever niet|nee|nee hoor|neen|"
            "niet doen|niet nodig|niets|niks|nooit|toch niet|vergeet het|vergeet het maar|"
            "zeker niet|"
            "het is goed zo|is goed zo|laat het zo|laat maar zo|laat zo|nee dank je"
        ),
    },
    filler="alsjeblieft|alstublieft|aub|bedankt|dank je|dank je wel|dankjewel|ok|okay|oké|ach|nou|och",
    hedges="een beetje|beetje|iets|eigenlijk|even|effe|eens|joh|maar|ook|nu|hier|hierbinnen|hier binnen|deze kamer|in deze kamer|deze ruimte|in deze ruimte",
    openers=(
        "is er |zijn er |is |zijn |staat |staan |was |waren |hoe hoog |hoe |wat |welk|"
        "wanneer |waar |wie |"
        "waarom |hoeveel |heeft |hebben |brandt |speelt |draait |loopt |werkt |zit |ligt "
    ),
    asking="wat|welk|welke|hoe|hoeveel|waar|wie|wanneer|waarom",
    requests=(
        "kun je |kan je |wil je |zou je |kunt u |wilt u |zou u |alsjeblieft |doe je |zet je |"
        "mag het |mag de |mag dat |mag die |mag er "
    ),
    reference="hem|hetzelfde|'m|ze",
    closing="dat|deze|die|het",
    negations="geen|nee|neen|niet|niets|niks|nooit",
    everything="alle|allemaal|alles|overal",
    anything="enig|enige|apparaat|apparaten|ding|dingen",
    asides="door",
    stop=(
        "de|het|een|in|op|van|aan|uit|met|bij|naar|voor|en|mijn|je|ons|onze|is|zet|doe|"
        "alsjeblieft|alle|alles"
    ),
    kinds={
        "alarm_control_panel": "alarm|alarmsysteem|alarminstallatie|beveiliging",
        "binary_sensor": (
            "geopend|gesloten|beweging|gedetecteerd|sensor|melder|bewegingsmelder"
        ),
        "climate": (
            "temperatuur|thermostaat|verwarming|verwarmen|radiator|koelen|koeling|airco|"
            "kachel|warm|warmer|koud|kouder|graden"
        ),
        "cover": (
            "rolluik|rolluiken|jaloezie|jaloezieën|gordijn|gordijnen|garage|garagedeur|"
            "deur|poort|raam|ramen|zonnescherm|rolgordijn|rolgordijnen"
        ),
        "fan": "ventilator|ventilatoren|ventilatie",
        "humidifier": (
            "luchtbevochtiger|bevochtiger|luchtvochtigheid|vochtigheid|ontvochtiger"
        ),
        "light": (
            "licht|lichten|lichtje|lichtjes|lamp|lampen|lampje|lampjes|verlichting|plafondlamp|fel|feller|helder|"
            "helderder|donker|donkerder|dimmen|gezellig|helderheid"
        ),
        "lock": (
            "slot|sloten|vergrendelen|vergrendel|ontgrendelen|ontgrendel|deur|voordeur"
        ),
        "media_player": (
            "muziek|speel|afspelen|pauze|pauzeer|nummer|liedje|speaker|speakers|"
            "luidspreker|volume|tv|televisie|radio|harder|zachter|volgende|overslaan"
        ),
        "scene": "scène|scene|sfeer",
        "script": "script|routine",
        "sensor": (
            "temperatuur|luchtvochtigheid|vochtigheid|batterij|accu|vermogen|stroom|"
            "energie|verbruik|sensor"
        ),
        "switch": "schakelaar|stekker|stopcontact",
        "vacuum": (
            "stofzuiger|robotstofzuiger|robot|stofzuigen|zuigen|schoonmaken|dweilen"
        ),
        "valve": "klep|kraan|water|sproeier|besproeiing",
        "water_heater": "boiler|geiser|warmwater|water",
        "weather": "weer|weersverwachting|verwachting|regen|regent|buiten",
    },
    # Rooms, floors and things by a key every language shares: a home named
    # in another language is found through them (docs/languages/words.md).
    senses={
        "living_room": "woonkamer|zitkamer|huiskamer",
        "kitchen": "keuken",
        "bedroom": "slaapkamer",
        "kids_room": "kinderkamer",
        "guest_room": "logeerkamer",
        "bathroom": "badkamer",
        "toilet": "toilet|wc",
        "office": "kantoor|werkkamer",
        "hallway": "gang|hal",
        "entrance": "entree|hal",
        "dining_room": "eetkamer",
        "garage": "garage",
        "garden": "tuin",
        "terrace": "terras",
        "balcony": "balkon",
        "basement": "kelder",
        "attic": "zolder",
        "laundry": "bijkeuken|washok",
        "ground_floor": "begane grond|beneden",
        "upstairs": "boven|eerste verdieping|bovenverdieping",
        "lamp": "lamp|lampen",
        "ceiling_light": "plafondlamp|plafondlampen|plafonnière",
        "desk_lamp": "bureaulamp",
        "floor_lamp": "staande lamp|vloerlamp",
        "bedside_lamp": "nachtlampje|bedlampje|nachtlamp",
        "front_door": "voordeur",
        "back_door": "achterdeur",
        "garage_door": "garagedeur",
        "kettle": "waterkoker",
        "coffee_machine": "koffiezetapparaat|koffiemachine",
        "tv": "tv|televisie",
        "heating": "verwarming",
        "thermostat": "thermostaat",
    },
    numbers=merged(
        {
            0: "nul",
            1: "één",
            10: "tien",
            11: "elf",
            12: "twaalf",
            13: "dertien",
            14: "veertien",
            15: "vijftien",
            16: "zestien",
            17: "zeventien",
            18: "achttien",
            19: "negentien",
            100: "honderd",
            0.5: "half|halve|helft|de helft",
            0.25: "kwart",
        },
        _UNITS,
        _TENS,
        counted(
            _TENS,
            _UNITS,
            "{unit}en{tens}",
            "{unit}ën{tens}",
        ),
    ),
    verbs={
        Verb.ON: "aan|aanzetten|aandoen|inschakelen|start|activeer",
        Verb.OFF: "uit|uitzetten|uitdoen|uitschakelen|stop|deactiveer",
        Verb.OPEN: "open|openen|omhoog|naar boven",
        Verb.CLOSE: "dicht|sluit|sluiten|omlaag|neer|naar beneden",
        Verb.LOCK: "vergrendel|vergrendelen|op slot|afsluiten",
        Verb.UNLOCK: "ontgrendel|ontgrendelen|van het slot",
        Verb.UP: "feller|helderder|harder|warmer|hoger|verhoog|verhogen",
        Verb.DOWN: "dimmer|donkerder|zachter|kouder|koeler|lager|verlaag|verlagen|dim|dimmen",
        Verb.SET: "zet|stel|maak|ingesteld|gezet",
        Verb.PAUSE: "pauzeer|pauzeren|pauze",
        Verb.RESUME: "hervat|hervatten|ga verder met",
        Verb.DOCK: "terug naar de basis|terug naar het basisstation|naar het basisstation|naar de basis|terug naar het laadstation|naar het laadstation",
        Verb.CLEAN: "stofzuig|stofzuigen|zuig … stof|stof zuigen|maak … schoon|schoonmaken|dweil|dweilen",
        Verb.NEXT: "volgende|volgend|overslaan|sla … over",
        Verb.PREVIOUS: "vorige|vorig",
    },
    classes={
        "cover.shade": "zonwering|rolgordijn|rolgordijnen|screen|screens",
        "cover.door": "deur|deuren",
        "cover.garage": "garage|garagedeur",
        "cover.gate": "poort|hek",
        "cover.blind": "jaloezie|jaloezieën|luxaflex",
        "cover.shutter": "rolluik|rolluiken",
        "cover.curtain": "gordijn|gordijnen",
        "cover.awning": "zonnescherm|markies",
        "cover.window": "raam|ramen",
        "binary_sensor.door": "deur|deuren",
        "binary_sensor.window": "raam|ramen",
        "binary_sensor.motion": "beweging",
        "sensor.temperature": "temperatuur|graden|warm|koud",
        "sensor.humidity": "luchtvochtigheid|vochtigheid",
    },
    units={
        Unit.PERCENT: "procent",
        Unit.DEGREES: "graden|graad",
    },
    # "Open" and "dicht" are what a cover is told, not words of a sensor.
    verb_forms="dicht|open|schakel|schakelen",
    joints="e|en|s",
    plurals="en|s",
    decimal_mark=",",
    diminutives="etje|je|kje|pje|tje",
    # Complaints that mean a change (issue 29): a relative change on the
    # kind, in the place meant. Listed in docs/languages/words.md.
    complaints={
        "light.up": "te donker|niet licht genoeg|ik zie niks|ik zie niets|je ziet niks",
        "light.down": "te fel|te helder",
        "climate.up": "te koud|te fris|ijskoud",
        "climate.down": "te warm|te heet",
        "media_player.down": "te hard|te luid",
        "media_player.up": "te zacht|niet hard genoeg",
        "fan.up": "benauwd|te benauwd|bedompt|muf",
    },
    complaint_frame="het is|is het|hier|ik heb het|ik vind het|erg|veel|echt",
    states={
        Verb.LOCK: "vergrendeld",
        Verb.UNLOCK: "ontgrendeld",
        Verb.OPEN: "geopend",
        Verb.CLOSE: "gesloten",
        Verb.ON: "ingeschakeld|aangezet",
        Verb.OFF: "uitgeschakeld|uitgezet",
    },
)
