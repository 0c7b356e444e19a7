"""German: the words of commands and follow-ups, as `fold` leaves them."""

from .tables import Shortcut, Unit, Verb, Words, counted, merged

# The units, alone and in 21 to 99 (the table adds their other spellings).
_UNITS = {
    1: "ein",
    2: "zwei",
    3: "drei",
    4: "vier",
    5: "fünf",
    6: "sechs",
    7: "sieben",
    8: "acht",
    9: "neun",
}
# The tens words, alone and in 21 to 99.
_TENS = {
    20: "zwanzig",
    30: "dreissig",
    40: "vierzig",
    50: "fünfzig",
    60: "sechzig",
    70: "siebzig",
    80: "achtzig",
    90: "neunzig",
}

WORDS = Words.written(
    shortcuts={
        Shortcut.AGAIN: (
            "das gleiche noch mal|das gleiche nochmal|dasselbe noch mal|dasselbe nochmal|"
            "mach das noch mal|mach das nochmal|mach es noch mal|mach es nochmal|"
            "mach's noch mal|mach's nochmal|noch einmal|noch mal|nochmal|nochmals|wieder"
        ),
        Shortcut.UNDO: (
            "das rückgängig machen|mach das rückgängig|mach es rückgängig|"
            "mach es wie vorher|mach's rückgängig|nimm das zurück|rückgängig|"
            "rückgängig machen|stell das wieder her|stell das zurück|stell es wieder her|"
            "stell es zurück|wieder wie vorher"
        ),
        Shortcut.REDO: (
            "doch nicht rückgängig|doch nicht rückgängig machen|"
            "nimm das rückgängig machen zurück|rückgängig machen zurücknehmen"
        ),
        Shortcut.STOP: "anhalten|aufhören|es reicht|genug|halt|hör auf|stop|stopp|stopp das|stoppen",
        Shortcut.YES: (
            "alles klar|auf jeden fall|bestätige|bestätigen|genau|gern|gerne|in ordnung|ja|"
            "jawohl|jep|jo|klar|los|mach das|mach es|mach ruhig|mach's|na klar|natürlich|"
            "ok|okay|passt|richtig|selbstverständlich|sicher|tu das|unbedingt|"
            "gerne doch|ja bitte|klar doch|mach mal|warum nicht"
        ),
        Shortcut.NO: (
            "abbrechen|abbruch|auf gar keinen fall|auf keinen fall|besser nicht|bloss nicht|"
            "doch nicht|keinesfalls|lass das|lass es|lass gut sein|lass mal|lieber nicht|ne|"
            "nee|nein|nicht|nichts|nö|schon gut|vergiss das|vergiss es|"
            "ist gut so|lass es so|lass mal so|lass so|nicht nötig|passt schon|passt so|schon okay"
        ),
    },
    filler="bitte|danke|danke schön|dankeschön|ok|okay|ach|och|naja|na ja",
    hedges="etwas|ein bisschen|bisschen|ein wenig|mal|doch|eigentlich|jetzt|hier|hier drin|drin|drinnen|hier drinnen|in diesem raum|diesen raum|in diesem zimmer|dieses zimmer|in diesem bereich|auch",
    openers=(
        "ist |sind |war |waren |wie hoch |wie |was |welche|wann |wo |wer |warum |läuft |"
        "laufen |brennt |steht |hat |haben |gibt es "
    ),
    asking=(
        "was|welche|welcher|welches|welchen|welchem|wie|wieviel|wieviele|wo|wer|wen|"
        "wem|wann|warum|wieso|weshalb"
    ),
    requests=(
        "kannst du |könntest du |würdest du |kann ich |bitte |können sie |könnten sie |"
        "würden sie |machst du |magst du |schaltest du |drehst du |stellst du "
    ),
    reference="dasselbe|gleiche|ihn",
    closing="das|den|die|es|sie",
    negations="kein|keine|keinem|keinen|keiner|keinesfalls|ne|nee|nein|nicht|nie|niemals|nö",
    everything="alle|alles|überall",
    anything="irgendein|irgendeine|irgendeiner|irgendeines|irgendwelche|irgendwas|irgendetwas|gerät|geräte|ding|dinge|gegenstand|gegenstände",
    stop=(
        "der|die|das|den|dem|des|ein|eine|einen|einem|einer|im|in|am|an|auf|aus|zu|zum|"
        "zur|vom|von|durch|und|mit|für|mein|meine|meinen|meinem|meiner|dein|deine|ist|bitte|"
        "mach|mache|macht|schalte|schalt|stell|stelle|zieh|ziehe|dreh|drehe|fahr|fahre|alle|alles"
    ),
    kinds={
        "alarm_control_panel": (
            "alarm|alarmanlage|scharf|unscharf|scharfschalten|entschärfen|sicherheit"
        ),
        "binary_sensor": (
            "offen|geöffnet|geschlossen|bewegung|erkannt|sensor|melder|bewegungsmelder"
        ),
        "climate": (
            "temperatur|thermostat|heizung|heizen|heizkörper|kühlen|kühlung|klima|"
            "klimaanlage|warm|wärmer|kalt|kälter|grad"
        ),
        "cover": (
            "rollo|rollos|rollladen|rollläden|rolladen|jalousie|jalousien|vorhang|"
            "vorhänge|garage|garagentor|tor|tür|fenster|markise|markisen|raffstore|raffstores"
        ),
        "fan": "ventilator|ventilatoren|lüfter|lüftung",
        "humidifier": (
            "luftbefeuchter|befeuchter|luftfeuchtigkeit|feuchtigkeit|luftentfeuchter|"
            "entfeuchter"
        ),
        "light": (
            "licht|lichter|lampe|lampen|leuchte|leuchten|beleuchtung|deckenlicht|"
            "deckenlampe|stehlampe|hell|heller|dunkel|dunkler|gemütlich|dimmen|helligkeit"
        ),
        "lock": (
            "schloss|schlösser|türschloss|abschliessen|aufschliessen|zuschliessen|"
            "verriegeln|entriegeln|tür|haustür"
        ),
        "media_player": (
            "musik|spiel|spiele|abspielen|pause|pausieren|lied|song|titel|lautsprecher|"
            "lautstärke|fernseher|tv|radio|lauter|leiser|läuft|weiter|nächster|nächstes|"
            "überspringen"
        ),
        "scene": "szene|stimmung",
        "script": "skript|script|routine|ablauf",
        "sensor": (
            "temperatur|luftfeuchtigkeit|feuchtigkeit|batterie|akku|leistung|strom|"
            "energie|verbrauch|sensor"
        ),
        "switch": "schalter|steckdose|stecker|zwischenstecker",
        "vacuum": "staubsauger|saugroboter|roboter|saugen|staubsaugen|wischen|putzen",
        "valve": "ventil|wasser|sprinkler|rasensprenger|bewässerung",
        "water_heater": (
            "boiler|warmwasser|heisswasser|warmwasserspeicher|durchlauferhitzer|wasser"
        ),
        "weather": "wetter|wettervorhersage|vorhersage|regen|regnet|draussen",
    },
    # Rooms, floors and things by a key every language shares: a home named
    # in another language is found through them (docs/languages/words.md).
    senses={
        "living_room": "wohnzimmer|stube|wohnstube",
        "kitchen": "küche",
        "bedroom": "schlafzimmer|elternschlafzimmer",
        "kids_room": "kinderzimmer",
        "guest_room": "gästezimmer",
        "bathroom": "badezimmer|bad",
        "toilet": "toilette|klo|gästeklo|gäste wc|wc",
        "office": "büro|arbeitszimmer",
        "hallway": "flur|diele|gang",
        "entrance": "eingang|eingangsbereich",
        "dining_room": "esszimmer",
        "garage": "garage",
        "garden": "garten",
        "terrace": "terrasse",
        "balcony": "balkon",
        "basement": "keller",
        "attic": "dachboden|speicher",
        "laundry": "waschküche|hauswirtschaftsraum",
        "ground_floor": "erdgeschoss|eg|unten",
        "upstairs": "obergeschoss|og|oben|erster stock",
        "lamp": "lampe|lampen|leuchte|leuchten",
        "ceiling_light": "deckenleuchte|deckenlampe|deckenlicht",
        "desk_lamp": "schreibtischlampe|schreibtischleuchte",
        "floor_lamp": "stehlampe|stehleuchte",
        "bedside_lamp": "nachttischlampe|bettlampe|nachtlicht",
        "front_door": "haustür|eingangstür|vordertür",
        "back_door": "hintertür",
        "garage_door": "garagentor|garagentür",
        "kettle": "wasserkocher",
        "coffee_machine": "kaffeemaschine|kaffeevollautomat",
        "tv": "fernseher|glotze",
        "heating": "heizung",
        "thermostat": "thermostat",
    },
    numbers=merged(
        {
            0: "null",
            1: "eins|eine",
            2: "zwo",
            10: "zehn",
            11: "elf",
            12: "zwölf",
            13: "dreizehn",
            14: "vierzehn",
            15: "fünfzehn",
            16: "sechzehn",
            17: "siebzehn",
            18: "achtzehn",
            19: "neunzehn",
            100: "hundert|einhundert",
            0.5: "halb|halbe|hälfte|die hälfte",
            0.25: "viertel",
        },
        _UNITS,
        _TENS,
        counted(
            _TENS,
            _UNITS,
            "{unit}und{tens}",
        ),
    ),
    verbs={
        Verb.ON: "an|ein|einschalten|anschalten|anmachen|starte|starten|aktiviere|aktivieren",
        Verb.OFF: "schalt … ab|schalte … ab|dreh … ab|drehe … ab|stell … ab|stelle … ab|mach … ab|aus|ausschalten|abschalten|ausmachen|stoppe|stoppen|deaktiviere|deaktivieren",
        Verb.OPEN: "öffne|öffnen|auf|aufmachen|hoch|rauf|hochfahren",
        Verb.CLOSE: "schliesse|schliessen|zu|zumachen|runter|herunter|runterfahren",
        Verb.LOCK: "abschliessen|schliess … ab|schliesse … ab|sperr … ab|sperre … ab|verriegeln|verriegle|zusperren",
        Verb.UNLOCK: "schliess … auf|schliesse … auf|sperr … auf|sperre … auf|aufschliessen|entriegeln|entriegle|aufsperren",
        Verb.UP: "heller|lauter|wärmer|höher|erhöhe|erhöhen|mehr",
        Verb.DOWN: "dunkler|leiser|kühler|kälter|niedriger|senke|senken|weniger|dimme|dimmen",
        Verb.SET: "stelle|stell|setze|setz|gestellt|eingestellt",
        Verb.PAUSE: "pausiere|pausieren|pausier|pause",
        Verb.RESUME: "fortsetzen|setz … fort|setze … fort|weiterspielen|spiel … weiter|spiele … weiter",
        Verb.DOCK: "zurück zur basis|zur basis|zurück zur ladestation|zur ladestation|in die ladestation|zurück in die ladestation|andocken",
        Verb.CLEAN: "sauge|saug|saugen|sauge … staub|saug … staub|staub saugen|staubsauge|staubsaug|staubsaugen|reinige|reinigen|putze|putz|putzen|wische|wisch|wischen",
        Verb.NEXT: "nächster|nächste|nächstes|überspringen|überspring|überspringe",
        Verb.PREVIOUS: "vorheriger|vorherige|vorheriges|voriger|vorige|voriges",
    },
    classes={
        "cover.shade": "sonnenschutz|schirm|schirme",
        "cover.door": "tür|türen",
        "cover.garage": "garage|garagentor|garagentore",
        "cover.gate": "tor|tore|gartentor|gartentore|einfahrtstor|einfahrtstore",
        "cover.blind": "rollo|rollos|jalousie|jalousien|raffstore|raffstores",
        "cover.shutter": "rollladen|rollläden|rolladen",
        "cover.curtain": "vorhang|vorhänge",
        "cover.awning": "markise|markisen|beschattung|beschattungen",
        "cover.window": "fenster",
        "binary_sensor.door": "tür|türen",
        "binary_sensor.window": "fenster",
        "binary_sensor.motion": "bewegung|bewegungsmelder",
        "sensor.temperature": "temperatur|grad|warm|kalt",
        "sensor.humidity": "luftfeuchtigkeit|feuchtigkeit",
    },
    units={
        Unit.PERCENT: "prozent",
        Unit.DEGREES: "grad",
    },
    # "Schalten" is one letter from "Schalter": no switch is meant.
    verb_forms="geschaltet|schalte|schalten|schaltest|schaltet|stellen|machen",
    joints="e|en|er|es|n|s",
    plurals="en|er|e|n|s",
    decimal_mark=",",
    capitalised_nouns=True,
    # Complaints that mean a change (issue 29): a relative change on the
    # kind, in the place meant. Listed in docs/languages/words.md.
    complaints={
        "light.up": "zu dunkel|nicht hell genug|ich sehe nichts|man sieht nichts",
        "light.down": "zu hell|zu grell",
        "climate.up": "zu kalt|zu kühl|eiskalt",
        "climate.down": "zu warm|zu heiß|zu heiss",
        "media_player.down": "zu laut",
        "media_player.up": "zu leise|nicht laut genug",
        "fan.up": "stickig|zu stickig|muffig",
    },
    complaint_frame="es ist|ist es|das ist|hier|mir ist|ist mir|es wird|wird es|so|echt|viel",
    states={
        Verb.LOCK: "abgeschlossen|abgesperrt|zugesperrt|verriegelt",
        Verb.UNLOCK: "aufgeschlossen|aufgesperrt|entriegelt",
        Verb.OPEN: "offen|geöffnet",
        Verb.CLOSE: "geschlossen",
        Verb.ON: "eingeschaltet|angeschaltet",
        Verb.OFF: "ausgeschaltet",
    },
)
