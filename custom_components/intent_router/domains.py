"""Everything the agent knows per Home Assistant domain, in one table.

What "turn on" means for a cover, what "stop" does to a media player, which
attributes undo records and how it restores them, which words name a kind of
device, which attributes a model should see, and what asks before acting:
every module asks `DOMAINS` instead of keeping a table of its own, and
`tests/test_domains.py` checks that the records agree with themselves and
with Home Assistant's services.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .records import PriorState
from .speech import base_language

# A service of the entity's own domain and its data, e.g. ("turn_on", {}).
type ServiceCall = tuple[str, dict[str, Any]]
type Restorer = Callable[[PriorState], list[ServiceCall]]


@dataclass(slots=True, frozen=True)
class DomainInfo:
    """What one domain's entities do and how people speak of them."""

    # The services HA's HassTurnOn / HassTurnOff mean for this domain.
    turn_on: str | None = None
    turn_off: str | None = None
    # What "stop" does to what a turn started.
    stop: str | None = None
    # Attributes recorded before an action, and how undo brings them back.
    undo_attributes: tuple[str, ...] = ()
    restore: Restorer | None = None
    # Attributes worth a model's attention (everything else is noise).
    acting_attributes: tuple[str, ...] = ()
    # Words that point at this kind of device without naming one, per language.
    words: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # Whether actions on it ask first by default (an option can add domains),
    # and device classes that always ask (garage doors, gates).
    confirm: bool = False
    confirm_device_classes: frozenset[str] = frozenset()
    # Whether it acts only when named: a script or scene is never what a kind
    # of device or a room means.
    must_be_named: bool = False


def _restore_on_off(prior: PriorState) -> list[ServiceCall]:
    if prior.state not in ("on", "off"):
        return []
    return [(f"turn_{prior.state}", {})]


def _restore_light(prior: PriorState) -> list[ServiceCall]:
    if prior.state != "on":
        return _restore_on_off(prior)
    return [("turn_on", dict(prior.attributes))]


def _restore_fan(prior: PriorState) -> list[ServiceCall]:
    if prior.state == "on" and "percentage" in prior.attributes:
        return [("set_percentage", {"percentage": prior.attributes["percentage"]})]
    return _restore_on_off(prior)


def _restore_humidifier(prior: PriorState) -> list[ServiceCall]:
    calls = _restore_on_off(prior)
    if prior.state == "on" and "humidity" in prior.attributes:
        calls.append(("set_humidity", {"humidity": prior.attributes["humidity"]}))
    return calls


def _restore_cover(prior: PriorState) -> list[ServiceCall]:
    if "current_position" in prior.attributes:
        position = prior.attributes["current_position"]
        return [("set_cover_position", {"position": position})]
    service = {"open": "open_cover", "closed": "close_cover"}.get(prior.state)
    return [(service, {})] if service else []


def _restore_climate(prior: PriorState) -> list[ServiceCall]:
    calls: list[ServiceCall] = [("set_hvac_mode", {"hvac_mode": prior.state})]
    if "temperature" in prior.attributes:
        temperature = prior.attributes["temperature"]
        calls.append(("set_temperature", {"temperature": temperature}))
    return calls


def _restore_water_heater(prior: PriorState) -> list[ServiceCall]:
    if "temperature" not in prior.attributes:
        return []
    return [("set_temperature", {"temperature": prior.attributes["temperature"]})]


def _restore_media(prior: PriorState) -> list[ServiceCall]:
    calls: list[ServiceCall] = []
    if "volume_level" in prior.attributes:
        volume = prior.attributes["volume_level"]
        calls.append(("volume_set", {"volume_level": volume}))
    service = {"playing": "media_play", "paused": "media_pause", "off": "turn_off"}.get(
        prior.state
    )
    if service:
        calls.append((service, {}))
    return calls


def _restore_lock(prior: PriorState) -> list[ServiceCall]:
    service = {"locked": "lock", "unlocked": "unlock"}.get(prior.state)
    return [(service, {})] if service else []


def _restore_value(prior: PriorState) -> list[ServiceCall]:
    try:
        value = float(prior.state)
    except ValueError:  # unknown or unavailable before: nothing to go back to
        return []
    return [("set_value", {"value": value})]


def _restore_option(prior: PriorState) -> list[ServiceCall]:
    return [("select_option", {"option": prior.state})]


def _words(**by_language: str) -> Mapping[str, frozenset[str]]:
    """Words per language code, each language's written as one string."""
    return {code: frozenset(words.split()) for code, words in by_language.items()}


_ON_OFF = DomainInfo(
    turn_on="turn_on", turn_off="turn_off", stop="turn_off", restore=_restore_on_off
)
_NUMBER = DomainInfo(
    restore=_restore_value,
    acting_attributes=("min", "max", "step", "unit_of_measurement"),
)
_SELECT = DomainInfo(restore=_restore_option, acting_attributes=("options",))

DOMAINS: Mapping[str, DomainInfo] = {
    "automation": DomainInfo(must_be_named=True),
    "alarm_control_panel": DomainInfo(
        words=_words(
            en="alarm arm disarm security",
            de="alarm alarmanlage scharf unscharf scharfschalten entschärfen sicherheit",
            fr="alarme l'alarme armer arme désarmer désarme sécurité",
            es="alarma armar arma desarmar desarma seguridad",
            nl="alarm alarmsysteem alarminstallatie beveiliging",
            it="allarme l'allarme antifurto disinserisci disinserire sicurezza",
        ),
        confirm=True,
    ),
    "binary_sensor": DomainInfo(
        acting_attributes=("device_class",),
        words=_words(
            en="open closed motion detected sensor",
            de="offen geöffnet geschlossen bewegung erkannt sensor melder bewegungsmelder",
            fr="ouvert ouverte fermé fermée mouvement détecté détection capteur détecteur",
            es="abierto abierta cerrado cerrada movimiento detectado sensor detector",
            nl="open dicht gesloten beweging gedetecteerd sensor melder bewegingsmelder",
            it="aperto aperta chiuso chiusa movimento rilevato sensore rilevatore",
        ),
    ),
    "climate": DomainInfo(
        turn_on="turn_on",
        turn_off="turn_off",
        stop="turn_off",
        undo_attributes=("temperature",),
        restore=_restore_climate,
        acting_attributes=(
            "current_temperature",
            "temperature",
            "target_temp_low",
            "target_temp_high",
            "hvac_modes",
            "preset_mode",
            "min_temp",
            "max_temp",
        ),
        words=_words(
            en="temperature thermostat heat heating cool cooling warm warmer cold colder hvac degrees ac",
            de="temperatur thermostat heizung heizen heizkörper kühlen kühlung klima klimaanlage warm wärmer kalt kälter grad",
            fr="température thermostat chauffage chauffer radiateur refroidir climatisation clim climatiseur chaud froid degrés",
            es="temperatura termostato calefacción calentar radiador enfriar climatización acondicionado calor caliente frío grados",
            nl="temperatuur thermostaat verwarming verwarmen radiator koelen koeling airco warm warmer koud kouder graden",
            it="temperatura termostato riscaldamento riscaldare termosifone termosifoni raffreddare condizionatore climatizzatore clima caldo freddo gradi",
        ),
    ),
    "cover": DomainInfo(
        turn_on="open_cover",
        turn_off="close_cover",
        stop="stop_cover",
        undo_attributes=("current_position",),
        restore=_restore_cover,
        acting_attributes=("current_position", "device_class"),
        words=_words(
            en="blind blinds shade shades curtain curtains garage door gate window shutter shutters awning",
            de="rollo rollos rollladen rollläden rolladen jalousie jalousien vorhang vorhänge garage garagentor tor tür fenster markise",
            fr="store stores volet volets rideau rideaux garage porte portail fenêtre fenêtres auvent",
            es="persiana persianas estor estores cortina cortinas garaje puerta portón ventana ventanas toldo",
            nl="rolluik rolluiken jaloezie jaloezieën gordijn gordijnen garage garagedeur deur poort raam ramen zonnescherm",
            it="tapparella tapparelle serranda serrande persiana persiane tenda tende garage basculante porta cancello finestra finestre",
        ),
        confirm_device_classes=frozenset({"garage", "gate", "door"}),
    ),
    "fan": DomainInfo(
        turn_on="turn_on",
        turn_off="turn_off",
        stop="turn_off",
        undo_attributes=("percentage",),
        restore=_restore_fan,
        acting_attributes=("percentage", "preset_mode", "preset_modes", "oscillating"),
        words=_words(
            en="fan fans ventilation",
            de="ventilator ventilatoren lüfter lüftung",
            fr="ventilateur ventilateurs ventilation",
            es="ventilador ventiladores ventilación",
            nl="ventilator ventilatoren ventilatie",
            it="ventilatore ventilatori ventilazione",
        ),
    ),
    "humidifier": DomainInfo(
        turn_on="turn_on",
        turn_off="turn_off",
        stop="turn_off",
        undo_attributes=("humidity",),
        restore=_restore_humidifier,
        acting_attributes=("humidity", "mode", "available_modes"),
        words=_words(
            en="humidifier humidity dehumidifier",
            de="luftbefeuchter befeuchter luftfeuchtigkeit feuchtigkeit luftentfeuchter entfeuchter",
            fr="humidificateur l'humidificateur déshumidificateur humidité l'humidité",
            es="humidificador deshumidificador humedad",
            nl="luchtbevochtiger bevochtiger luchtvochtigheid vochtigheid ontvochtiger",
            it="umidificatore l'umidificatore deumidificatore umidità l'umidità",
        ),
    ),
    "input_boolean": _ON_OFF,
    "input_number": _NUMBER,
    "input_select": _SELECT,
    "light": DomainInfo(
        turn_on="turn_on",
        turn_off="turn_off",
        stop="turn_off",
        undo_attributes=("brightness", "color_temp_kelvin"),
        restore=_restore_light,
        acting_attributes=("brightness", "color_temp_kelvin", "effect_list"),
        words=_words(
            en="light lights lamp lamps bright brighter dim dimmer dark darker cozy brightness",
            de="licht lichter lampe lampen leuchte leuchten beleuchtung deckenlicht deckenlampe stehlampe hell heller dunkel dunkler gemütlich dimmen helligkeit",
            fr="lumière lumières lampe lampes ampoule l'ampoule éclairage l'éclairage plafonnier lustre clair sombre tamiser tamisée luminosité",
            es="luz luces lámpara lámparas bombilla iluminación claro oscuro atenuar brillo acogedor",
            nl="licht lichten lamp lampen verlichting plafondlamp fel feller helder helderder donker donkerder dimmen gezellig helderheid",
            it="luce luci lampada lampade lampadario faretti illuminazione l'illuminazione chiaro buio scuro accogliente luminosità",
        ),
    ),
    "lock": DomainInfo(
        turn_on="lock",
        turn_off="unlock",
        restore=_restore_lock,
        words=_words(
            en="lock locks unlock door deadbolt",
            de="schloss schlösser türschloss abschliessen aufschliessen zuschliessen verriegeln entriegeln tür haustür",
            fr="serrure serrures verrou verrouiller verrouille déverrouiller déverrouille porte",
            es="cerradura cerraduras cerrojo bloquear bloquea desbloquear desbloquea llave puerta",
            nl="slot sloten vergrendelen vergrendel ontgrendelen ontgrendel deur voordeur",
            it="serratura serrature chiavistello chiave blocca bloccare sblocca sbloccare porta",
        ),
        confirm=True,
    ),
    "media_player": DomainInfo(
        turn_on="turn_on",
        turn_off="turn_off",
        stop="media_pause",
        undo_attributes=("volume_level",),
        restore=_restore_media,
        acting_attributes=(
            "volume_level",
            "is_volume_muted",
            "source",
            "source_list",
            "media_title",
            "media_artist",
            "shuffle",
            "repeat",
        ),
        words=_words(
            en="music play pause song speaker speakers volume tv television louder quieter playing skip next",
            de="musik spiel spiele abspielen pause pausieren lied song titel lautsprecher lautstärke fernseher tv radio lauter leiser läuft weiter nächster nächstes überspringen",
            fr="musique joue jouer pause chanson morceau titre enceinte enceintes volume télé télévision tv radio fort suivant suivante passe",
            es="música reproduce reproducir pausa canción tema altavoz altavoces volumen tele televisión tv radio siguiente salta",
            nl="muziek speel afspelen pauze pauzeer nummer liedje speaker speakers luidspreker volume tv televisie radio harder zachter volgende overslaan",
            it="musica riproduci suona pausa canzone brano altoparlante altoparlanti cassa casse volume tv televisione televisore radio successivo successiva salta",
        ),
    ),
    "number": _NUMBER,
    "scene": DomainInfo(
        words=_words(
            en="scene mood",
            de="szene stimmung",
            fr="scène ambiance",
            es="escena ambiente",
            nl="scène scene sfeer",
            it="scena scenario atmosfera",
        ),
        must_be_named=True,
    ),
    "script": DomainInfo(
        turn_on="turn_on",
        turn_off="turn_off",
        stop="turn_off",
        words=_words(
            en="script routine",
            de="skript script routine ablauf",
            fr="script routine",
            es="script rutina",
            nl="script routine",
            it="script routine",
        ),
        must_be_named=True,
    ),
    "select": _SELECT,
    "sensor": DomainInfo(
        acting_attributes=("unit_of_measurement", "device_class"),
        words=_words(
            en="temperature humidity battery power energy sensor",
            de="temperatur luftfeuchtigkeit feuchtigkeit batterie akku leistung strom energie verbrauch sensor",
            fr="température humidité l'humidité batterie puissance énergie l'énergie consommation capteur",
            es="temperatura humedad batería potencia energía consumo sensor",
            nl="temperatuur luchtvochtigheid vochtigheid batterij accu vermogen stroom energie verbruik sensor",
            it="temperatura umidità l'umidità batteria potenza energia l'energia consumo sensore",
        ),
    ),
    "siren": _ON_OFF,
    "switch": DomainInfo(
        turn_on="turn_on",
        turn_off="turn_off",
        stop="turn_off",
        restore=_restore_on_off,
        words=_words(
            en="switch plug outlet socket",
            de="schalter steckdose stecker zwischenstecker",
            fr="interrupteur l'interrupteur prise prises",
            es="interruptor enchufe toma",
            nl="schakelaar stekker stopcontact",
            it="interruttore l'interruttore presa prese spina",
        ),
    ),
    "vacuum": DomainInfo(
        stop="stop",
        acting_attributes=("battery_level", "fan_speed"),
        words=_words(
            en="vacuum robot clean mop",
            de="staubsauger saugroboter roboter saugen staubsaugen wischen putzen",
            fr="aspirateur l'aspirateur robot aspirer nettoyer nettoyage serpillière",
            es="aspiradora aspirador robot aspirar limpiar fregar friegasuelos",
            nl="stofzuiger robotstofzuiger robot stofzuigen zuigen schoonmaken dweilen",
            it="aspirapolvere l'aspirapolvere robot aspirare pulire lavapavimenti",
        ),
    ),
    "valve": DomainInfo(
        turn_on="open_valve",
        turn_off="close_valve",
        words=_words(
            en="valve water sprinkler",
            de="ventil wasser sprinkler rasensprenger bewässerung",
            fr="vanne robinet eau l'eau arrosage l'arrosage arroseur",
            es="válvula grifo agua riego aspersor",
            nl="klep kraan water sproeier besproeiing",
            it="valvola rubinetto acqua l'acqua irrigazione l'irrigazione irrigatore",
        ),
    ),
    "water_heater": DomainInfo(
        undo_attributes=("temperature",),
        restore=_restore_water_heater,
        acting_attributes=("temperature", "operation_mode", "operation_list"),
        words=_words(
            en="boiler water heater",
            de="boiler warmwasser heisswasser warmwasserspeicher durchlauferhitzer wasser",
            fr="chauffe ballon cumulus eau l'eau",
            es="calentador termo caldera agua",
            nl="boiler geiser warmwater water",
            it="scaldabagno scaldacqua boiler caldaia acqua l'acqua",
        ),
    ),
    "weather": DomainInfo(
        acting_attributes=("temperature", "humidity", "temperature_unit"),
        words=_words(
            en="weather forecast rain outside",
            de="wetter wettervorhersage vorhersage regen regnet draussen",
            fr="météo prévisions pluie pleut dehors",
            es="tiempo previsión pronóstico lluvia llueve fuera afuera",
            nl="weer weersverwachting verwachting regen regent buiten",
            it="meteo tempo previsioni pioggia piove fuori",
        ),
    ),
}
UNKNOWN = DomainInfo()


def domain_info(domain: str) -> DomainInfo:
    """The record of a domain; an empty one for domains nothing is known of."""
    return DOMAINS.get(domain, UNKNOWN)


def domain_of(entity_id: str) -> str:
    """The domain part of an entity id."""
    return entity_id.partition(".")[0]


def kind_words(domain: str, language: str) -> frozenset[str]:
    """Words naming a domain's kind of device in a language (base language)."""
    return domain_info(domain).words.get(base_language(language), frozenset())


def asks_first(
    domain: str, device_class: object, confirm_domains: Iterable[str]
) -> bool:
    """Whether actions on such an entity need a yes first (locks, garage doors)."""
    return domain in confirm_domains or (
        device_class in domain_info(domain).confirm_device_classes
    )


def confirmed_by_default() -> tuple[str, ...]:
    """Domains whose actions ask first unless the owner changes the option."""
    return tuple(sorted(domain for domain, info in DOMAINS.items() if info.confirm))
