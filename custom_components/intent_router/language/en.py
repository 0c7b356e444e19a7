"""English: the words of commands and follow-ups, as `fold` leaves them."""

from .tables import Shortcut, Unit, Verb, Words, counted, merged

# The units, alone and in 21 to 99 (the table adds their other spellings).
_UNITS = {
    1: "one",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
}
# The tens words, alone and in 21 to 99.
_TENS = {
    20: "twenty",
    30: "thirty",
    40: "forty",
    50: "fifty",
    60: "sixty",
    70: "seventy",
    80: "eighty",
    90: "ninety",
}

WORDS = Words.written(
    shortcuts={
        Shortcut.AGAIN: (
            "again|do it again|do that again|once more|one more time|same again"
        ),
        Shortcut.UNDO: (
            "change it back|put it back|revert that|take that back|undo|undo it|undo that"
        ),
        Shortcut.REDO: "redo|redo it|redo that|undo the undo|undo that undo|undo your undo",
        Shortcut.STOP: "stop|stop it|stop that",
        Shortcut.YES: (
            "absolutely|confirm|definitely|do it|go ahead|of course|ok|okay|please do|sure|"
            "yeah|yep|yes|yes do it|"
            "go for it|please|sure thing|why not|yes please"
        ),
        Shortcut.NO: (
            "absolutely not|better not|cancel|don't|dont|forget it|leave it|never mind|"
            "nevermind|no|no thanks|no way|nope|not now|"
            "it's fine as it is|it's fine like that|leave it as it is|leave it like that|no need"
        ),
    },
    filler="ok|okay|please|thank you|thanks|oh|ah",
    hedges="a bit|a little|a little bit|slightly|bit|actually|just|now|maybe|here|in here|this room|in this room|this area|in this area|it's|also",
    openers=(
        "how |what|which |when |where |who |is there |are there |is |are |does |was |"
        "were "
    ),
    asking="what|what's|which|how|how's|who|whose|where|where's|when|why",
    requests="can you |could you |would you |will you |can i |could i |please ",
    reference="it|one|ones|same|that|them|these|those",
    closing="",
    negations="cancel|don't|dont|nah|never|no|nope|not",
    everything="all|everything",
    anything="any|anything|something|device|devices|thing|things",
    stop="the|a|an|in|on|of|to|by|and|my|is|it|at|set|turn|please|all|off|up|down|do",
    # Possessives that only join ("return the vacuum to its base").
    asides="its|their|our|your",
    kinds={
        "alarm_control_panel": "alarm|arm|disarm|security",
        "binary_sensor": "open|closed|motion|detected|sensor",
        "climate": (
            "temperature|thermostat|heat|heating|cool|cooling|warm|warmer|cold|colder|"
            "hvac|degrees|ac|climate"
        ),
        "cover": (
            "blind|blinds|shade|shades|curtain|curtains|garage|door|gate|window|shutter|"
            "shutters|awning"
        ),
        "fan": "fan|fans|ventilation",
        "humidifier": "humidifier|humidity|dehumidifier",
        "light": (
            "light|lights|lamp|lamps|bright|brighter|dim|dimmer|dark|darker|cozy|"
            "brightness"
        ),
        "lock": "lock|locks|unlock|door|deadbolt",
        "media_player": (
            "music|play|pause|song|speaker|speakers|volume|tv|television|louder|quieter|"
            "playing|skip|next"
        ),
        "scene": "scene|mood",
        "script": "script|routine",
        "sensor": "temperature|humidity|battery|power|energy|sensor",
        "switch": "switch|plug|outlet|socket",
        "vacuum": "vacuum|robot|clean|mop|vacuuming|hoovering|mopping",
        "valve": "valve|water|sprinkler",
        "water_heater": "boiler|water|heater",
        "weather": "weather|forecast|rain|outside",
    },
    # Rooms, floors and things by a key every language shares: a home named
    # in another language is found through them (docs/languages/words.md).
    senses={
        "living_room": "living room|lounge|sitting room|family room",
        "kitchen": "kitchen",
        "bedroom": "bedroom|master bedroom",
        "kids_room": "kids room|kid's room|children's room|nursery",
        "guest_room": "guest room|spare room",
        "bathroom": "bathroom",
        "toilet": "toilet|restroom|wc|loo",
        "office": "office|study|home office",
        "hallway": "hallway|hall|corridor",
        "entrance": "entrance|entryway|entry|foyer",
        "dining_room": "dining room",
        "garage": "garage",
        "garden": "garden|backyard|yard",
        "terrace": "terrace|patio|deck",
        "balcony": "balcony",
        "basement": "basement|cellar",
        "attic": "attic|loft",
        "laundry": "laundry|laundry room|utility room",
        "ground_floor": "ground floor|downstairs",
        "upstairs": "upstairs|first floor|upper floor",
        "lamp": "lamp|lamps",
        "ceiling_light": "ceiling light|ceiling lights|ceiling lamp",
        "desk_lamp": "desk lamp|desk light",
        "floor_lamp": "floor lamp|standing lamp",
        "bedside_lamp": "bedside lamp|bed light|night light",
        "front_door": "front door",
        "back_door": "back door",
        "garage_door": "garage door",
        "kettle": "kettle",
        "coffee_machine": "coffee machine|coffee maker",
        "tv": "tv|television|telly",
        "heating": "heating|heater",
        "thermostat": "thermostat",
    },
    numbers=merged(
        {
            0: "zero",
            10: "ten",
            11: "eleven",
            12: "twelve",
            13: "thirteen",
            14: "fourteen",
            15: "fifteen",
            16: "sixteen",
            17: "seventeen",
            18: "eighteen",
            19: "nineteen",
            100: "hundred|a hundred|one hundred",
            0.5: "half|a half|halfway|half way",
            0.25: "quarter|a quarter",
        },
        _UNITS,
        _TENS,
        counted(
            _TENS,
            _UNITS,
            "{tens} {unit}",
        ),
    ),
    verbs={
        Verb.ON: "on|turn on|switch on|start|activate|enable|power on|run|launch",
        Verb.OFF: "off|turn off|switch off|turn of|switch of|stop|deactivate|disable|power off|shut off",
        Verb.OPEN: "open|raise|lift|roll up",
        Verb.CLOSE: "close|shut|lower|roll down",
        Verb.LOCK: "lock|secure",
        Verb.UNLOCK: "unlock",
        Verb.UP: "brighter|louder|warmer|hotter|turn up|up|increase|raise|more",
        Verb.DOWN: "dim|dimmer|darker|quieter|softer|cooler|colder|turn down|down|decrease|lower|less",
        Verb.SET: "set|make|change|adjust|put",
        Verb.PAUSE: "pause",
        Verb.RESUME: "resume|unpause",
        Verb.DOCK: "send … back|send … base|send … dock|return … base|return … dock|return to base|return to the base|return to its base|go back to base|go back to the base|go back to its base|back to base|back to the base|back to its base|return to the dock|return to its dock|go to the dock|back to the dock|dock",
        Verb.CLEAN: "vacuum|clean|mop|hoover|clean up",
        Verb.NEXT: "next|skip|next song|next track|skip this song|skip this track",
        Verb.PREVIOUS: "previous|previous song|previous track|last song|last track",
    },
    classes={
        "cover.door": "door|doors",
        "cover.garage": "garage|garage door",
        "cover.gate": "gate|gates",
        "cover.blind": "blind|blinds",
        "cover.shade": "shade|shades",
        "cover.curtain": "curtain|curtains",
        "cover.shutter": "shutter|shutters",
        "cover.awning": "awning",
        "cover.window": "window|windows",
        "binary_sensor.door": "door|doors",
        "binary_sensor.window": "window|windows",
        "binary_sensor.motion": "motion",
        "sensor.temperature": "temperature|degrees|warm|cold",
        "sensor.humidity": "humidity",
    },
    units={
        Unit.PERCENT: "percent|per cent|pct",
        Unit.DEGREES: "degrees|degree",
    },
    verb_forms="",
    plurals="s",
    # Complaints that mean a change (issue 29): a relative change on the
    # kind, in the place meant. Listed in docs/languages/words.md.
    complaints={
        "light.up": "too dark|not bright enough|can't see anything|cant see anything|can't see a thing|can't see|cant see",
        "light.down": "too bright|too glaring",
        "climate.up": "too cold|too chilly|freezing|chilly|not warm enough",
        "climate.down": "too warm|too hot|boiling|not cool enough",
        "media_player.down": "too loud|too noisy",
        "media_player.up": "too quiet|too soft|not loud enough|can't hear|cant hear",
        "fan.up": "stuffy|too stuffy|airless",
    },
    complaint_frame="it's|it is|its|it's getting|getting|i'm|i am|i|so|really|way",
    states={
        Verb.LOCK: "locked",
        Verb.UNLOCK: "unlocked",
        Verb.OPEN: "opened",
        Verb.CLOSE: "closed|shut",
        Verb.ON: "switched on|turned on",
        Verb.OFF: "switched off|turned off",
    },
)
