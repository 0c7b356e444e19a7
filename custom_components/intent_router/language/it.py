"""Italian: the words of commands and follow-ups, as `fold` leaves them."""

from .tables import Shortcut, Unit, Verb, Words, counted, merged

# The units, alone and in 21 to 99 (the table adds their other spellings).
_UNITS = {
    1: "uno",
    2: "due",
    3: "tre",
    4: "quattro",
    5: "cinque",
    6: "sei",
    7: "sette",
    8: "otto",
    9: "nove",
}
# The tens words, alone and in 21 to 99.
_TENS = {
    20: "venti",
    30: "trenta",
    40: "quaranta",
    50: "cinquanta",
    60: "sessanta",
    70: "settanta",
    80: "ottanta",
    90: "novanta",
}

WORDS = Words.written(
    shortcuts={
        Shortcut.AGAIN: (
            "ancora|ancora una volta|di nuovo|fallo ancora|fallo di nuovo|la stessa cosa|"
            "rifai|rifallo|un'altra volta"
        ),
        Shortcut.UNDO: (
            "annulla|annulla quello|annullalo|come prima|rimetti com'era|"
            "rimetti come prima|rimettilo com'era|ripristina|torna come prima|"
            "torna indietro"
        ),
        Shortcut.REDO: "annulla l'annullamento|rifai quello che hai annullato|ripeti l'annullamento",
        Shortcut.STOP: "basta|basta così|ferma|ferma tutto|fermalo|fermati|smettila|stop",
        Shortcut.YES: (
            "certamente|certo|certo che sì|conferma|confermo|d'accordo|esatto|fai pure|"
            "fallo|ok|okay|ovviamente|perfetto|procedi|senz'altro|si|sì|sicuro|va bene|vai|"
            "volentieri|"
            "perché no|sì grazie|vai pure"
        ),
        Shortcut.NO: (
            "annulla|assolutamente no|certo che no|dimentica|lascia|lascia perdere|"
            "lascia stare|mai|meglio di no|neanche per sogno|niente|no|non adesso|"
            "non farlo|non importa|non ora|per niente|scordatelo|"
            "lascia così|lascia com'è|no grazie|non serve|va bene così|va bene cosi"
        ),
    },
    filler="grazie|ok|okay|per favore|per piacere|dai|beh|mah",
    hedges="un po'|un po|un pochino|leggermente|in realtà|adesso|ora|qui|qua|qui dentro|qua dentro|questa stanza|in questa stanza|anche",
    openers=(
        "è |sono |c'è |ci sono |com'è |come |cosa |che |qual|quant|quando |dove |chi |"
        "perché |a che |a quant|in che "
    ),
    asking="cosa|che|quale|quali|qual|quanto|quanta|quanti|quante|come|com'è|dove|chi|quando|perché",
    requests="puoi |potresti |mi puoi |mi potresti |ci puoi |può |potrebbe |vuoi |per favore ",
    leads="c'|ce|ci|m'|me|mi|t'|te|ti",
    reference="quello|stesso",
    closing="la|le|li|lo",
    negations="mai|neanche|nemmeno|niente|no|non|nulla",
    everything="tutte|tutti|tutto",
    anything="qualche|qualcosa|dispositivo|dispositivi|apparecchio|apparecchi",
    stop=(
        "il|lo|la|i|gli|le|del|della|dello|dei|degli|delle|di|da|in|nel|nella|a|"
        "al|alla|con|su|sul|sulla|e|mio|mia|miei|mie|tuo|tua|è|accendi|spegni|metti|per|"
        "favore|tutto|tutti|tutte|mi|me|ci|ce|ti|te"
    ),
    kinds={
        "alarm_control_panel": ("allarme|antifurto|disinserisci|disinserire|sicurezza"),
        "binary_sensor": (
            "aperto|aperta|chiuso|chiusa|movimento|rilevato|sensore|rilevatore"
        ),
        "climate": (
            "temperatura|termostato|riscaldamento|riscaldare|termosifone|termosifoni|"
            "raffreddare|condizionatore|climatizzatore|clima|calorifero|caloriferi|stufa|"
            "stufetta|caldo|freddo|gradi"
        ),
        "cover": (
            "tapparella|tapparelle|serranda|serrande|persiana|persiane|tenda|tende|garage|"
            "basculante|porta|cancello|finestra|finestre"
        ),
        "fan": "ventilatore|ventilatori|ventilazione",
        "humidifier": "umidificatore|deumidificatore|umidità",
        "light": (
            "luce|luci|lampada|lampade|lampadario|faretti|illuminazione|"
            "chiaro|buio|scuro|accogliente|luminosità"
        ),
        "lock": (
            "serratura|serrature|chiavistello|chiave|blocca|bloccare|sblocca|sbloccare|"
            "porta"
        ),
        "media_player": (
            "musica|riproduci|suona|pausa|canzone|brano|altoparlante|altoparlanti|cassa|"
            "casse|volume|tv|televisione|televisore|radio|successivo|successiva|salta"
        ),
        "scene": "scena|scenario|atmosfera",
        "script": "script|routine",
        "sensor": ("temperatura|umidità|batteria|potenza|energia|consumo|sensore"),
        "switch": "interruttore|presa|prese|spina",
        "vacuum": "aspirapolvere|robot|aspirare|pulire|lavapavimenti",
        "valve": "valvola|rubinetto|acqua|irrigazione|irrigatore",
        "water_heater": "scaldabagno|scaldacqua|boiler|caldaia|acqua",
        "weather": "meteo|tempo|previsioni|pioggia|piove|fuori",
    },
    # Rooms, floors and things by a key every language shares: a home named
    # in another language is found through them (docs/languages/words.md).
    senses={
        "living_room": "soggiorno|salotto|sala",
        "kitchen": "cucina",
        "bedroom": "camera|camera da letto|stanza da letto",
        "kids_room": "cameretta|camera dei bambini",
        "guest_room": "camera degli ospiti",
        "bathroom": "bagno",
        "toilet": "gabinetto|wc",
        "office": "ufficio|studio",
        "hallway": "corridoio|disimpegno",
        "entrance": "ingresso|entrata",
        "dining_room": "sala da pranzo",
        "garage": "garage|box",
        "garden": "giardino",
        "terrace": "terrazza|terrazzo",
        "balcony": "balcone",
        "basement": "cantina|seminterrato",
        "attic": "soffitta|mansarda",
        "laundry": "lavanderia",
        "ground_floor": "piano terra|pianterreno|di sotto",
        "upstairs": "primo piano|piano di sopra|di sopra",
        "lamp": "lampada|lampade",
        "ceiling_light": "plafoniera|lampadario|luce del soffitto",
        "desk_lamp": "lampada da scrivania",
        "floor_lamp": "lampada da terra|piantana",
        "bedside_lamp": "abat jour|lampada da comodino|luce notturna",
        "front_door": "porta d'ingresso|porta di casa|portone",
        "back_door": "porta sul retro|porta posteriore",
        "garage_door": "porta del garage|basculante|serranda del garage",
        "kettle": "bollitore",
        "coffee_machine": "macchina del caffè|macchinetta del caffè",
        "tv": "tv|televisione|tele",
        "heating": "riscaldamento",
        "thermostat": "termostato",
    },
    numbers=merged(
        {
            0: "zero",
            1: "una|un",
            10: "dieci",
            11: "undici",
            12: "dodici",
            13: "tredici",
            14: "quattordici",
            15: "quindici",
            16: "sedici",
            17: "diciassette",
            18: "diciotto",
            19: "diciannove",
            100: "cento",
            0.5: "mezzo|mezza|metà|la metà",
            0.25: "quarto|un quarto",
        },
        _UNITS,
        _TENS,
        counted(
            _TENS,
            {**_UNITS, 3: "tre|tré"},
            "{tens}{unit}",
            "{tens} {unit}",
        ),
    ),
    verbs={
        Verb.ON: "accendi|accendere|attiva|attivare|avvia|avviare|riaccendi|riaccendere|riattiva|esegui|lancia|metti",
        Verb.OFF: "spegni|spegnere|disattiva|disattivare|ferma|fermare|rispegni|rispegnere",
        Verb.OPEN: (
            "apri|aprire|alza|alzare|solleva|riapri|riaprire|alzi|rialza|tira su"
        ),
        Verb.CLOSE: (
            "chiudi|chiudere|abbassa|abbassare|richiudi|richiudere|abbassi|riabbassa|"
            "tira giù|tira giu"
        ),
        Verb.LOCK: "chiudi a chiave|blocca|bloccare|richiudi a chiave",
        Verb.UNLOCK: "sblocca|sbloccare",
        Verb.UP: "più forte|più luminoso|più luce|più caldo|alza|aumenta|aumentare",
        Verb.DOWN: "più basso|più scuro|meno luce|più fresco|più freddo|abbassa|diminuisci|diminuire|attenua",
        Verb.SET: "imposta|impostare|metti|porta|impostato|impostata",
        Verb.PAUSE: "metti in pausa|pausa",
        Verb.RESUME: "riprendi|riprendere|fai ripartire",
        Verb.DOCK: "torna alla base|ritorna alla base|torna alla sua base|vai alla base|rientra alla base|alla base|torna alla stazione di ricarica",
        Verb.CLEAN: "aspira|aspirare|pulisci|pulire|pulite",
        Verb.NEXT: "successivo|successiva|prossimo|prossima|salta|saltare",
        Verb.PREVIOUS: "precedente",
    },
    classes={
        "cover.shade": "tenda a rullo|tende a rullo|veneziana|veneziane",
        "cover.awning": "tenda da sole|tende da sole",
        "cover.door": "porta|porte",
        "cover.garage": "garage|basculante|porta del garage",
        "cover.gate": "cancello",
        "cover.blind": "persiana|persiane|oscurante|oscuranti",
        "cover.shutter": "serranda|serrande|tapparella|tapparelle",
        "cover.curtain": "tenda|tende",
        "cover.window": "finestra|finestre",
        "binary_sensor.door": "porta|porte",
        "binary_sensor.window": "finestra|finestre",
        "binary_sensor.motion": "movimento",
        "sensor.temperature": "temperatura|gradi|caldo|freddo",
        "sensor.humidity": "umidità",
    },
    units={
        Unit.PERCENT: "per cento|percento",
        Unit.DEGREES: "gradi|grado",
    },
    verb_forms="",
    clitics="la|le|li|lo|mi|ci|me la|me le|me li|me lo|ce la|ce lo",
    elisions="all'|c'|coll'|d'|dall'|dell'|l'|m'|nell'|quell'|quest'|sull'|t'|un'",
    plurals="a|e|i|o",
    decimal_mark=",",
    # Complaints that mean a change (issue 29): a relative change on the
    # kind, in the place meant. Listed in docs/languages/words.md.
    complaints={
        "light.up": "troppo buio|troppo scuro|non si vede",
        "light.down": "troppo luminoso|troppa luce|troppo chiaro",
        "climate.up": "troppo freddo|fa freddo|ho freddo",
        "climate.down": "troppo caldo|fa caldo|ho caldo",
        "media_player.down": "troppo alto|troppo forte",
        "media_player.up": "troppo basso|troppo piano|non si sente",
        "fan.up": "aria viziata|soffocante|non si respira|afoso",
    },
    complaint_frame="è|e|qui|sono|molto|davvero|c'è|fa|ho",
    states={
        Verb.LOCK: "chiusa a chiave|chiuso a chiave|bloccata|bloccato",
        Verb.UNLOCK: "sbloccata|sbloccato",
        Verb.OPEN: "aperta|aperto|aperte|aperti",
        Verb.CLOSE: "chiusa|chiuso|chiuse|chiusi",
        Verb.ON: "accesa|acceso|accese|accesi",
        Verb.OFF: "spenta|spento|spente|spenti",
    },
)
