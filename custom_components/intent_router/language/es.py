"""Spanish: the words of commands and follow-ups, as `fold` leaves them."""

from .tables import Shortcut, Unit, Verb, Words, counted, merged

# The units, alone and in 21 to 99 (the table adds their other spellings).
_UNITS = {
    1: "uno",
    2: "dos",
    3: "tres",
    4: "cuatro",
    5: "cinco",
    6: "seis",
    7: "siete",
    8: "ocho",
    9: "nueve",
}
# The tens words, alone and in 21 to 99.
_TENS = {
    20: "veinte",
    30: "treinta",
    40: "cuarenta",
    50: "cincuenta",
    60: "sesenta",
    70: "setenta",
    80: "ochenta",
    90: "noventa",
}

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
        Shortcut.REDO: "deshaz lo deshecho|deshacer lo deshecho|rehacer|rehaz|rehazlo|rehaz eso",
        Shortcut.STOP: "basta|detenlo|detente|para|para eso|para ya|páralo|stop|ya|ya basta",
        Shortcut.YES: (
            "adelante|claro|claro que si|claro que sí|confirmar|confirmo|correcto|dale|"
            "de acuerdo|desde luego|eso es|está bien|exacto|hazlo|ok|okay|perfecto|"
            "por supuesto|si|sí|vale|venga|"
            "cómo no|como no|dale|sí claro|venga va"
        ),
        Shortcut.NO: (
            "cancela|cancelar|claro que no|da igual|de ninguna manera|de ningún modo|dejalo|"
            "déjalo|en absoluto|mejor no|nada|ni de broma|ni hablar|no|no importa|"
            "no lo hagas|nunca|olvidalo|olvídalo|para nada|por supuesto que no|"
            "así está bien|déjalo así|dejalo así|déjalo estar|está bien así|no gracias|no hace falta"
        ),
    },
    filler="gracias|ok|okay|por favor|porfa|vale|bueno|pues|anda",
    hedges="un poco|un poquito|ligeramente|en realidad|ahora|aquí|aqui|aquí dentro|aqui dentro|acá|esta habitación|en esta habitación|también",
    openers=(
        "está |están |hay |qué |cuál|cuánt|cómo |dónde |cuándo |quién|por qué |es |son |"
        "sigue |siguen |hace |tiene |a qué |a cuánt|en qué "
    ),
    asking="qué|cuál|cuáles|cuánto|cuánta|cuántos|cuántas|cómo|dónde|quién|quiénes|cuándo",
    requests="me haces el favor de |hazme el favor de |quieres |puedes |podrías |me puedes |me podrías |puede |podría |por favor ",
    reference="eso|esto|mismo",
    closing="la|las|lo|los",
    negations="jamás|nada|ni|no|nunca|tampoco",
    everything="todas|todo|todos",
    anything="algún|alguno|alguna|algunos|algunas|algo|dispositivo|dispositivos|aparato|aparatos|cosa|cosas",
    stop=(
        "el|la|los|las|lo|del|de|un|una|unos|unas|en|al|a|con|para|y|mi|mis|tu|tus|su|sus|"
        "es|pon|enciende|apaga|por|favor|todo|todos|todas|me|nos|le|les|se|te"
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
    # Rooms, floors and things by a key every language shares: a home named
    # in another language is found through them (docs/languages/words.md).
    senses={
        "living_room": "salón|salon|sala|sala de estar",
        "kitchen": "cocina",
        "bedroom": "dormitorio|habitación|cuarto|recámara",
        "kids_room": "cuarto de los niños|habitación de los niños|cuarto de niños",
        "guest_room": "habitación de invitados|cuarto de invitados",
        "bathroom": "baño|cuarto de baño",
        "toilet": "aseo|servicio|váter",
        "office": "despacho|oficina|estudio",
        "hallway": "pasillo|recibidor",
        "entrance": "entrada",
        "dining_room": "comedor",
        "garage": "garaje|cochera",
        "garden": "jardín|patio",
        "terrace": "terraza",
        "balcony": "balcón",
        "basement": "sótano",
        "attic": "desván|ático",
        "laundry": "lavadero|cuarto de lavado",
        "ground_floor": "planta baja|abajo",
        "upstairs": "planta alta|primera planta|arriba|primer piso",
        "lamp": "lámpara|lámparas",
        "ceiling_light": "lámpara de techo|luz de techo|plafón",
        "desk_lamp": "lámpara de escritorio|flexo",
        "floor_lamp": "lámpara de pie",
        "bedside_lamp": "lámpara de mesita|luz de noche",
        "front_door": "puerta principal|puerta de entrada|puerta de la calle",
        "back_door": "puerta trasera|puerta de atrás",
        "garage_door": "puerta del garaje|puerta de garaje|portón del garaje",
        "kettle": "hervidor|hervidor de agua",
        "coffee_machine": "cafetera",
        "tv": "tele|televisión|tv",
        "heating": "calefacción",
        "thermostat": "termostato",
    },
    numbers=merged(
        {
            0: "cero",
            1: "una|un",
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
            100: "cien|ciento",
            0.5: "medio|media|mitad|la mitad",
            0.25: "cuarto|un cuarto",
        },
        _UNITS,
        _TENS,
        counted(
            {20: "veinti"},
            {**_UNITS, 1: "uno|ún|un", 2: "dos|dós", 3: "tres|trés", 6: "seis|séis"},
            "{tens}{unit}",
        ),
        counted(
            _TENS,
            _UNITS,
            "{tens} y {unit}",
        ),
    ),
    verbs={
        Verb.ON: "enciende|encender|prende|prender|activa|activar|pon en marcha|enciendes|prendes|reenciende|pon|enchufa|ejecuta|lanza",
        Verb.OFF: "apaga|apagar|desactiva|desactivar|detén|detener|apagas",
        Verb.OPEN: "abre|abrir|sube|subir|levanta|abres|subes",
        Verb.CLOSE: "cierra|cerrar|baja|bajar|cierras|bajas",
        Verb.LOCK: "cierra con llave|echa la llave|bloquea|bloquear|cierras con llave",
        Verb.UNLOCK: "abre con llave|desbloquea|desbloquear|abres con llave",
        Verb.UP: "más fuerte|más claro|más brillante|más caliente|sube|aumenta|aumentar",
        Verb.DOWN: "más bajo|más oscuro|más tenue|más frío|baja|disminuye|disminuir|atenúa|atenuar",
        Verb.SET: (
            "pon|poner|ajusta|ajustar|cambia|configura|pones|puesto|puesta|ajustado|"
            "ajustada|programado|programada"
        ),
        Verb.PAUSE: "pausa|pausar|pon en pausa|pausá",
        Verb.RESUME: "reanuda|reanudar|reanudá|continúa|continuar",
        Verb.DOCK: "vuelve a la base|vuelve a su base|regresa a la base|regresa a su base|volver a la base|a la base|a su base",
        Verb.CLEAN: "aspira|aspirá|aspirar|limpia|limpiá|limpiar|friega|fregá|fregar",
        Verb.NEXT: "siguiente|salta|sáltate|saltar",
        Verb.PREVIOUS: "anterior",
    },
    classes={
        "cover.shade": "estor enrollable|estores enrollables|estor|estores",
        "cover.shutter": "contraventana|contraventanas|veneciana|venecianas",
        "cover.door": "puerta|puertas",
        "cover.garage": "garaje|cochera|puerta del garaje",
        "cover.gate": "portón|verja",
        "cover.blind": "persiana|persianas",
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
    clitics="la|las|lo|los|me|nos|le|les|me la|me las|me lo|me los|nos la|nos lo|se la|se lo",
    leads="me|nos|te",
    plurals="s",
    decimal_mark=",",
    euphony={"y": ("e", "h?[ií](?![aeouáéó])"), "o": ("u", "h?[oó]")},
    # Complaints that mean a change (issue 29): a relative change on the
    # kind, in the place meant. Listed in docs/languages/words.md.
    complaints={
        "light.up": "muy oscuro|demasiado oscuro|está oscuro|no se ve",
        "light.down": "demasiado brillante|muy brillante|demasiada luz|demasiado claro",
        "climate.up": "demasiado frío|hace frío|tengo frío|mucho frío|muy frío",
        "climate.down": "demasiado calor|hace calor|tengo calor|mucho calor|demasiado caliente",
        "media_player.down": "demasiado alto|muy alto|demasiado fuerte|muy fuerte",
        "media_player.up": "demasiado bajo|muy bajo|no se oye|no oigo",
        "fan.up": "sofocante|cargado|no hay aire|falta aire",
    },
    complaint_frame="está|esta|es|aquí|aqui|estoy|tengo|hay|me|hace",
    states={
        Verb.LOCK: "cerrada con llave|cerrado con llave|bloqueada|bloqueado",
        Verb.UNLOCK: "desbloqueada|desbloqueado",
        Verb.OPEN: "abierta|abierto|abiertas|abiertos",
        Verb.CLOSE: "cerrada|cerrado|cerradas|cerrados",
        Verb.ON: "encendida|encendido|encendidas|encendidos|prendida|prendido",
        Verb.OFF: "apagada|apagado|apagadas|apagados",
    },
)
