"""French: the words of commands and follow-ups, as `fold` leaves them."""

from .tables import Shortcut, Unit, Verb, Words, counted, merged

# The units, alone and in 21 to 99 (the table adds their other spellings).
_UNITS = {
    1: "un",
    2: "deux",
    3: "trois",
    4: "quatre",
    5: "cinq",
    6: "six",
    7: "sept",
    8: "huit",
    9: "neuf",
}
# Seventy and ninety count on from sixty and eighty: soixante-quinze.
_TEENS = {
    10: "dix",
    11: "onze",
    12: "douze",
    13: "treize",
    14: "quatorze",
    15: "quinze",
    16: "seize",
    17: "dix sept",
    18: "dix huit",
    19: "dix neuf",
}
# The tens words, alone and in 21 to 99.
_TENS = {
    20: "vingt",
    30: "trente",
    40: "quarante",
    50: "cinquante",
    60: "soixante",
    70: "septante",
    80: "huitante|octante",
    90: "nonante",
}

WORDS = Words.written(
    shortcuts={
        Shortcut.AGAIN: (
            "encore|encore une fois|fais le encore|la même chose|pareil|recommence|"
            "recommencez|refais|refais le|refais ça|refaites|refaites le|une fois de plus"
        ),
        Shortcut.UNDO: (
            "annule|annule le|annule ça|annuler|annulez|annulez ça|comme avant|défais ça|remets comme avant|"
            "remets comme c'était|remets le comme avant|retour en arrière|"
            "reviens en arrière"
        ),
        Shortcut.REDO: "annule l'annulation|rétablis|rétablis ça|rétablir|refais ce que tu as annulé",
        Shortcut.STOP: "arrête|arrête tout|arrête ça|arrêter|arrêtez|arrêtez tout|arrêtez ça|stop|stoppe",
        Shortcut.YES: (
            "absolument|allez y|bien sûr|c'est ça|ça marche|confirme|confirmez|d'accord|"
            "entendu|évidemment|exactement|fais le|fais ça|faites le|je confirme|ok|okay|"
            "ouais|oui|parfait|tout à fait|vas y|volontiers|"
            "allez|carrément|oui vas y|pourquoi pas"
        ),
        Shortcut.NO: (
            "absolument pas|annule|annule ça|annulez|bien sûr que non|certainement pas|"
            "fais pas ça|jamais|laisse|laisse tomber|nan|ne fais pas ça|ne fais rien|"
            "ne le fais pas|non|oublie|oublie ça|pas la peine|pas maintenant|pas question|"
            "rien|sûrement pas|surtout pas|"
            "ça va comme ça|c'est bon comme ça|laisse comme ça|non merci|pas besoin"
        ),
    },
    filler="merci|ok|okay|s'il te plait|s'il te plaît|s'il vous plait|s'il vous plaît|stp|svp|ben|bah|oh",
    hedges="un peu|un petit peu|légèrement|en fait|juste|maintenant|ici|ici même|cette pièce|dans cette pièce|aussi",
    openers=(
        "est ce qu|qu'est ce qu|quel|combien |comment |où |qui |quand |pourquoi |"
        "y a t il "
    ),
    asking="quel|quelle|quels|quelles|combien|comment|où|qui|quoi|quand|pourquoi",
    requests=(
        "tu veux bien |vous voulez bien |tu voudrais bien |"
        "peux tu |pourrais tu |tu peux |tu pourrais |veux tu |pouvez vous |"
        "pourriez vous |vous pouvez |est ce que tu peux |est ce que tu pourrais |"
        "est ce que vous pouvez |est ce que vous pourriez |s'il te plaît |s'il te plait |"
        "s'il vous plaît |s'il vous plait "
    ),
    reference="ça|cela|même",
    closing="la|le|les",
    negations="jamais|nan|ne|non|pas|rien",
    everything="tous|tout|toutes",
    anything="quelque chose|appareil|appareils|chose|choses",
    stop=(
        "le|la|les|de|du|des|un|une|au|aux|à|en|dans|sur|pour|par|et|mon|ma|mes|ton|ta|"
        "tes|est|allume|éteins|mets|règle|s'il|te|vous|plaît|plait|tout|tous|toutes"
    ),
    kinds={
        "alarm_control_panel": "alarme|armer|arme|désarmer|désarme|sécurité",
        "binary_sensor": (
            "ouvert|ouverte|fermé|fermée|mouvement|détecté|détection|capteur|détecteur"
        ),
        "climate": (
            "température|thermostat|chauffage|chauffer|radiateur|refroidir|climatisation|"
            "clim|climatiseur|chaud|froid|degrés"
        ),
        "cover": (
            "store|stores|volet|volets|persienne|persiennes|rideau|rideaux|garage|porte|"
            "portail|fenêtre|fenêtres|auvent"
        ),
        "fan": "ventilateur|ventilateurs|ventilation",
        "humidifier": ("humidificateur|déshumidificateur|humidité"),
        "light": (
            "lumière|lumières|lampe|lampes|ampoule|éclairage|plafonnier|lustre|lampadaire|"
            "applique|appliques|veilleuse|clair|sombre|tamiser|tamisée|luminosité"
        ),
        "lock": (
            "serrure|serrures|verrou|verrouiller|verrouille|déverrouiller|déverrouille|"
            "porte"
        ),
        "media_player": (
            "musique|joue|jouer|pause|chanson|morceau|titre|piste|enceinte|enceintes|volume|"
            "télé|télévision|tv|radio|fort|son|suivant|suivante|passe"
        ),
        "scene": "scène|ambiance",
        "script": "script|routine",
        "sensor": (
            "température|humidité|batterie|puissance|énergie|consommation|capteur"
        ),
        "switch": "interrupteur|prise|prises",
        "vacuum": ("aspirateur|robot|aspirer|nettoyer|nettoyage|serpillière"),
        "valve": "vanne|robinet|eau|arrosage|arroseur",
        # "Chauffe" is the verb: a chauffe-eau is its "eau".
        "water_heater": "ballon|cumulus|eau",
        "weather": "météo|temps|prévisions|pluie|pleut|dehors",
    },
    # Rooms, floors and things by a key every language shares: a home named
    # in another language is found through them (docs/languages/words.md).
    senses={
        "living_room": "salon|séjour|salle de séjour",
        "kitchen": "cuisine",
        "bedroom": "chambre|chambre à coucher|chambre parentale",
        "kids_room": "chambre des enfants|chambre d'enfant|chambre des petits",
        "guest_room": "chambre d'amis",
        "bathroom": "salle de bain|salle de bains",
        "toilet": "toilettes|wc",
        "office": "bureau",
        "hallway": "couloir|hall",
        "entrance": "entrée",
        "dining_room": "salle à manger",
        "garage": "garage",
        "garden": "jardin",
        "terrace": "terrasse",
        "balcony": "balcon",
        "basement": "cave|sous sol",
        "attic": "grenier|combles",
        "laundry": "buanderie",
        "ground_floor": "rez de chaussée|en bas",
        "upstairs": "étage|premier étage|en haut",
        "lamp": "lampe|lampes",
        "ceiling_light": "plafonnier|lustre|lumière du plafond",
        "desk_lamp": "lampe de bureau",
        "floor_lamp": "lampadaire",
        "bedside_lamp": "lampe de chevet|veilleuse",
        "front_door": "porte d'entrée",
        "back_door": "porte de derrière|porte arrière",
        "garage_door": "porte du garage|porte de garage",
        "kettle": "bouilloire",
        "coffee_machine": "machine à café|cafetière",
        "tv": "télé|télévision|tv",
        "heating": "chauffage",
        "thermostat": "thermostat",
    },
    numbers=merged(
        {
            0: "zéro",
            1: "une",
            70: "soixante dix",
            80: "quatre vingt|quatre vingts",
            90: "quatre vingt dix",
            100: "cent",
            0.5: "demi|demie|moitié|la moitié",
            0.25: "quart|un quart",
        },
        _UNITS,
        _TEENS,
        _TENS,
        counted(
            _TENS,
            _UNITS,
            "{tens} {unit}",
            "{tens} et {unit}",
        ),
        counted(
            {60: "soixante", 80: "quatre vingt|quatre vingts"},
            {**_UNITS, **_TEENS},
            "{tens} {unit}",
            "{tens} et {unit}",
        ),
    ),
    verbs={
        Verb.ON: "allume|allumer|allumez|active|activer|démarre|démarrer|mets en marche|allumes|rallume|rallumer|rallumez|rallumes|réactive|mets … marche|met … marche|lance|lancer|exécute|mets",
        Verb.OFF: "éteins|éteindre|éteignez|coupe|couper|désactive|désactiver|arrête|arrêter|éteint|coupes|rééteins",
        Verb.OPEN: "ouvre|ouvrir|ouvrez|monte|monter|lève|lever|ouvres|rouvre|rouvrir|rouvrez|rouvres|remonte|remontes",
        Verb.CLOSE: "ferme|fermer|fermez|descends|descendre|baisse|baisser|fermes|referme|refermer|refermez|refermes|redescends|rebaisse|baisses",
        Verb.LOCK: "verrouille|verrouiller|verrouillez|verrouilles|reverrouille|reverrouiller",
        Verb.UNLOCK: "déverrouille|déverrouiller|déverrouillez|déverrouilles",
        Verb.UP: "plus fort|plus clair|plus chaud|augmente|augmenter|monte",
        Verb.DOWN: "moins fort|plus sombre|moins chaud|plus frais|baisse|baisser|diminue|diminuer|tamise|tamiser",
        Verb.SET: "mets|mettre|règle|régler|passe|réglé|réglée",
        Verb.PAUSE: "mets en pause|met en pause|mettre en pause|pause",
        Verb.RESUME: "reprends|reprendre|reprenez|remets … route",
        Verb.DOCK: "retourne à la base|retourne à sa base|retour à la base|rentre à la base|va à la base|retourne à la station|retourne à sa station|retour à la station",
        Verb.CLEAN: "aspire|aspirez|aspirer|nettoie|nettoyez|nettoyer",
        Verb.NEXT: "suivant|suivante|saute|sauter",
        Verb.PREVIOUS: "précédent|précédente",
    },
    classes={
        "cover.shade": "toile|toiles|store|stores",
        "cover.door": "porte|portes",
        "cover.garage": "garage|porte de garage",
        "cover.gate": "portail",
        "cover.blind": "store|stores",
        "cover.shutter": "volet|volets|persienne|persiennes",
        "cover.curtain": "rideau|rideaux",
        "cover.awning": "auvent|banne",
        "cover.window": "fenêtre|fenêtres",
        "binary_sensor.door": "porte|portes",
        "binary_sensor.window": "fenêtre|fenêtres",
        "binary_sensor.motion": "mouvement",
        "sensor.temperature": (
            "température|degrés|chaud|froid|il fait combien|combien il fait|combien fait il"
        ),
        "sensor.humidity": "humidité",
    },
    units={
        Unit.PERCENT: "pour cent|pourcent",
        Unit.DEGREES: "degrés|degré",
    },
    verb_forms="chauffe|chauffes|chauffez",
    elisions="d'|j'|l'|m'|n'|qu'|t'",
    leads="m'|me|nous|t'|te|tu|vous",
    asks=(
        "a t elle|a t il|t elle|t il|t elles|t ils|est elle|est il|sont elles|sont ils|"
        "combien"
    ),
    plurals="s|x",
    decimal_mark=",",
    elided="de|que",
    # Complaints that mean a change (issue 29): a relative change on the
    # kind, in the place meant. Listed in docs/languages/words.md.
    complaints={
        "light.up": "trop sombre|pas assez clair|pas assez lumineux|je ne vois rien|je vois rien|on y voit rien|on voit rien",
        "light.down": "trop clair|trop lumineux|trop éblouissant",
        "climate.up": "trop froid|il fait froid|on gèle|trop frais",
        "climate.down": "trop chaud|il fait chaud",
        "media_player.down": "trop fort|trop bruyant",
        "media_player.up": "pas assez fort|trop faible|on entend rien",
        "fan.up": "étouffant|on étouffe|pas assez aéré|renfermé",
    },
    complaint_frame="c'est|il fait|fait il|ici|vraiment|beaucoup|j'ai|on a",
    states={
        Verb.LOCK: "verrouillé|verrouillée|verrouillés|verrouillées|fermée à clé|fermé à clé",
        Verb.UNLOCK: "déverrouillé|déverrouillée|déverrouillés|déverrouillées",
        Verb.OPEN: "ouvert|ouverte|ouverts|ouvertes",
        Verb.CLOSE: "fermé|fermée|fermés|fermées",
        Verb.ON: "allumé|allumée|allumés|allumées",
        Verb.OFF: "éteint|éteinte|éteints|éteintes",
    },
)
