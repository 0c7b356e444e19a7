"""Spanish: the words of commands and follow-ups, as `fold` leaves them."""

from .tables import Shortcut, Unit, Verb, Words

WORDS = Words.written(
    shortcuts={
        Shortcut.AGAIN: (
            "de nuevo|hazlo de nuevo|hazlo otra vez|lo mismo|lo mismo otra vez|otra|"
            "otra vez|una vez más|vuelve a hacerlo"
        ),
        Shortcut.UNDO: (
            "como estaba|deshacer|deshaz|deshaz eso|deshazlo|déjalo como antes|"
            "déjalo como estaba|revierte eso|vuelve a dejarlo como estaba|vuelve atrás"
        ),
        Shortcut.STOP: "basta|detenlo|detente|para|para eso|para ya|páralo|stop|ya|ya basta",
        Shortcut.YES: (
            "adelante|claro|claro que si|claro que sí|confirmar|confirmo|correcto|dale|"
            "de acuerdo|desde luego|eso es|está bien|exacto|hazlo|ok|okay|perfecto|"
            "por supuesto|si|sí|vale|venga"
        ),
        Shortcut.NO: (
            "cancela|cancelar|claro que no|da igual|de ninguna manera|de ningún modo|dejalo|"
            "déjalo|en absoluto|mejor no|nada|ni de broma|ni hablar|no|no importa|"
            "no lo hagas|nunca|olvidalo|olvídalo|para nada|por supuesto que no"
        ),
    },
    filler="gracias|ok|okay|por favor|porfa|vale",
    hedges="un poco|un poquito|ligeramente|en realidad|ahora|aquí|aqui",
    openers=(
        "está |están |hay |qué |cuál|cuánt|cómo |dónde |cuándo |quién|por qué |es |son |"
        "sigue |siguen |hace |tiene |a qué |a cuánt|en qué "
    ),
    requests="puedes |podrías |me puedes |me podrías |puede |podría |por favor ",
    reference="eso|esto|mismo",
    closing="la|las|lo|los",
    negations="jamás|nada|ni|no|nunca|tampoco",
    everything="todas|todo|todos",
    stop=(
        "el|la|los|las|lo|del|de|un|una|unos|unas|en|al|a|con|para|y|mi|mis|tu|tus|su|sus|"
        "es|pon|enciende|apaga|por|favor|todo|todos|todas"
    ),
    kinds={
        "alarm_control_panel": "alarma|armar|arma|desarmar|desarma|seguridad",
        "binary_sensor": (
            "abierto|abierta|cerrado|cerrada|movimiento|detectado|sensor|detector"
        ),
        "climate": (
            "temperatura|termostato|calefacción|calentar|radiador|enfriar|climatización|"
            "acondicionado|calor|caliente|frío|grados"
        ),
        "cover": (
            "persiana|persianas|estor|estores|cortina|cortinas|garaje|cochera|puerta|"
            "portón|ventana|ventanas|toldo"
        ),
        "fan": "ventilador|ventiladores|ventilación",
        "humidifier": "humidificador|deshumidificador|humedad",
        "light": (
            "luz|luces|lámpara|lámparas|bombilla|bombillas|bombillo|bombillos|foco|focos|"
            "iluminación|claro|oscuro|atenuar|brillo|"
            "acogedor"
        ),
        "lock": (
            "cerradura|cerraduras|cerrojo|bloquear|bloquea|desbloquear|desbloquea|llave|"
            "puerta"
        ),
        "media_player": (
            "música|reproduce|reproducir|pausa|canción|tema|altavoz|altavoces|volumen|"
            "tele|televisión|tv|radio|siguiente|salta|bocina|bocinas|parlante|parlantes"
        ),
        "scene": "escena|ambiente",
        "script": "script|rutina",
        "sensor": "temperatura|humedad|batería|potencia|energía|consumo|sensor",
        "switch": "interruptor|enchufe|toma",
        "vacuum": "aspiradora|aspirador|robot|aspirar|limpiar|fregar|friegasuelos",
        "valve": "válvula|grifo|agua|riego|aspersor",
        "water_heater": "calentador|termo|caldera|agua",
        "weather": "tiempo|previsión|pronóstico|lluvia|llueve|fuera|afuera",
    },
    numbers={
        0: "cero",
        1: "uno|una|un",
        2: "dos",
        3: "tres",
        4: "cuatro",
        5: "cinco",
        6: "seis",
        7: "siete",
        8: "ocho",
        9: "nueve",
        10: "diez",
        11: "once",
        12: "doce",
        13: "trece",
        14: "catorce",
        15: "quince",
        16: "dieciséis",
        17: "diecisiete",
        18: "dieciocho",
        19: "diecinueve",
        20: "veinte",
        30: "treinta",
        40: "cuarenta",
        50: "cincuenta",
        60: "sesenta",
        70: "setenta",
        80: "ochenta",
        90: "noventa",
        100: "cien|ciento",
        0.5: "medio|media|mitad|la mitad",
        0.25: "cuarto|un cuarto",
    },
    verbs={
        Verb.ON: "enciende|encender|prende|prender|activa|activar|pon en marcha|ejecuta|lanza",
        Verb.OFF: "apaga|apagar|desactiva|desactivar|detén|detener",
        Verb.OPEN: "abre|abrir|sube|subir|levanta",
        Verb.CLOSE: "cierra|cerrar|baja|bajar",
        Verb.LOCK: "cierra con llave|echa la llave|bloquea|bloquear",
        Verb.UNLOCK: "abre con llave|desbloquea|desbloquear",
        Verb.UP: "más fuerte|más claro|más brillante|más caliente|sube|aumenta|aumentar",
        Verb.DOWN: "más bajo|más oscuro|más tenue|más frío|baja|disminuye|disminuir|atenúa|atenuar",
        Verb.SET: "pon|poner|ajusta|ajustar|cambia|configura",
    },
    classes={
        "cover.shade": "estor enrollable|estores enrollables",
        "cover.shutter": "contraventana|contraventanas",
        "cover.door": "puerta|puertas",
        "cover.garage": "garaje|cochera|puerta del garaje",
        "cover.gate": "portón|verja",
        "cover.blind": "persiana|persianas|estor|estores",
        "cover.curtain": "cortina|cortinas",
        "cover.awning": "toldo",
        "cover.window": "ventana|ventanas",
        "binary_sensor.door": "puerta|puertas",
        "binary_sensor.window": "ventana|ventanas",
        "binary_sensor.motion": "movimiento",
        "sensor.temperature": "temperatura|grados|calor|frío",
        "sensor.humidity": "humedad",
    },
    units={
        Unit.PERCENT: "por ciento|porciento",
        Unit.DEGREES: "grados|grado",
    },
    verb_forms="",
    clitics="la|las|lo|los",
    plurals="s",
    decimal_mark=",",
    euphony={"y": ("e", "h?[ií](?![aeouáéó])"), "o": ("u", "h?[oó]")},
)
