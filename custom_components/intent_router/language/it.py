"""Italian: the words of commands and follow-ups, as `fold` leaves them."""

from .tables import Shortcut, Unit, Verb, Words

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
        Shortcut.STOP: "basta|basta così|ferma|ferma tutto|fermalo|fermati|smettila|stop",
        Shortcut.YES: (
            "certamente|certo|certo che sì|conferma|confermo|d'accordo|esatto|fai pure|"
            "fallo|ok|okay|ovviamente|perfetto|procedi|senz'altro|si|sì|sicuro|va bene|vai|"
            "volentieri"
        ),
        Shortcut.NO: (
            "annulla|assolutamente no|certo che no|dimentica|lascia|lascia perdere|"
            "lascia stare|mai|meglio di no|neanche per sogno|niente|no|non adesso|"
            "non farlo|non importa|non ora|per niente|scordatelo"
        ),
    },
    filler="grazie|ok|okay|per favore|per piacere",
    hedges="un po'|un po|un pochino|leggermente|in realtà|adesso|ora|qui",
    openers=(
        "è |sono |c'è |ci sono |com'è |come |cosa |che |qual|quant|quando |dove |chi |"
        "perché |a che |in che "
    ),
    requests="puoi |potresti |mi puoi |per favore ",
    reference="quello|stesso",
    closing="la|le|li|lo",
    negations="mai|neanche|nemmeno|niente|no|non|nulla",
    everything="tutte|tutti|tutto",
    stop=(
        "il|lo|la|i|gli|le|del|della|dello|dei|degli|delle|di|da|in|nel|nella|a|"
        "al|alla|con|su|sul|sulla|e|mio|mia|miei|mie|tuo|tua|è|accendi|spegni|metti|per|"
        "favore|tutto|tutti|tutte"
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
    numbers={
        0: "zero",
        1: "uno|una|un",
        2: "due",
        3: "tre",
        4: "quattro",
        5: "cinque",
        6: "sei",
        7: "sette",
        8: "otto",
        9: "nove",
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
        20: "venti",
        30: "trenta",
        40: "quaranta",
        50: "cinquanta",
        60: "sessanta",
        70: "settanta",
        80: "ottanta",
        90: "novanta",
        100: "cento",
        0.5: "mezzo|mezza|metà|la metà",
        0.25: "quarto|un quarto",
    },
    verbs={
        Verb.ON: "accendi|accendere|attiva|attivare|avvia|avviare|esegui|lancia",
        Verb.OFF: "spegni|spegnere|disattiva|disattivare|ferma|fermare",
        Verb.OPEN: "apri|aprire|alza|alzare|solleva",
        Verb.CLOSE: "chiudi|chiudere|abbassa|abbassare",
        Verb.LOCK: "chiudi a chiave|blocca|bloccare",
        Verb.UNLOCK: "sblocca|sbloccare",
        Verb.UP: "più forte|più luminoso|più luce|più caldo|alza|aumenta|aumentare",
        Verb.DOWN: "più basso|più scuro|meno luce|più fresco|più freddo|abbassa|diminuisci|diminuire|attenua",
        Verb.SET: "imposta|impostare|metti|porta",
    },
    classes={
        "cover.shade": "tenda a rullo|tende a rullo",
        "cover.awning": "tenda da sole|tende da sole",
        "cover.door": "porta|porte",
        "cover.garage": "garage|basculante|porta del garage",
        "cover.gate": "cancello",
        "cover.blind": "tapparella|tapparelle|persiana|persiane",
        "cover.shutter": "serranda|serrande",
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
    clitics="la|le|li|lo",
    elisions="all'|coll'|dall'|dell'|l'|nell'|quell'|sull'",
    plurals="a|e|i|o",
    decimal_mark=",",
)
