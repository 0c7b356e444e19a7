"""Reading the model's plan, and validating any plan against the catalog.

A plan can only do what this module lets through: known, allowed services;
exposed entities; arguments HA's own service schema accepts; a few actions.
Whatever an utterance or an entity name says, that is the whole reach.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
import json
import re
from typing import Any

import voluptuous as vol

from homeassistant.const import ATTR_ENTITY_ID
from homeassistant.core import HomeAssistant

from ..const import TYPICAL_PLAN_OUTPUT_TOKENS
from ..core.records import Action, Plan
from ..core.safety import MAX_ACTIONS, is_denied
from ..home.catalog import Catalog

# Characters of a question or answer the model may write (about 40 tokens).
MAX_SAID = 160
# Characters of the words a choice takes from the request (an item, a name).
MAX_TEXT = 80
# Entity ids one action may name in the model's pattern, and fields (with
# characters per value) a tool's action may carry: a small model that
# repeats an id or a field does so until the pattern ends it.
MAX_TARGETS = 12
MAX_TOOL_FIELDS = 5
MAX_VALUE = 100
# Tokens a plan reply may take: eight typical plans (12 tokens), room for
# an answer of `MAX_SAID` characters (about 48 tokens with its JSON) twice
# over, and above the dialogue benchmark's p95 (35). A reply that needs more
# is a model repeating itself (one entity id for 600 tokens and 55 s): cut
# at this budget its JSON does not parse, and the user hears so.
PLAN_TOKENS = 8 * TYPICAL_PLAN_OUTPUT_TOKENS
# Targets go in `targets`, where exposure is checked; never through args.
TARGET_KEYS = frozenset({"entity_id", "area_id", "device_id", "floor_id", "label_id"})


class Rejection(StrEnum):
    """Why a plan was refused (for logs and the debug trace)."""

    MALFORMED = "malformed"
    TOO_MANY_ACTIONS = "too_many_actions"
    UNKNOWN_TOOL = "unknown_tool"
    DENIED_SERVICE = "denied_service"
    MISSING_TARGETS = "missing_targets"
    UNKNOWN_ENTITY = "unknown_entity"
    WRONG_DOMAIN = "wrong_domain"
    INVALID_ARGS = "invalid_args"


class PlanError(Exception):
    """A plan that must not run."""

    def __init__(self, rejection: Rejection, detail: str) -> None:
        """Keep a machine-readable class next to a human-readable detail."""
        super().__init__(f"{rejection}: {detail}")
        self.rejection = rejection
        self.detail = detail


# How sure the model says it is, from 0 (a guess) to 10 (certain), written
# only when it is not sure: at most two tokens, where "0.95" is four, and
# none for the plans a small model is sure of (35 of 36 in the dialogue
# benchmark wrote 10). On a 0-9 scale the 1.5B model wrote 1 ("certain" on
# the scale it knows) for most plans.
CONFIDENCE_SCALE = 10
# Where an action's fields begin: ` <field>=`.
_FIELD_START = re.compile(r"\s+(?=[A-Za-z_][A-Za-z0-9_]*=)")

# What a plan does: one of these is in every plan.
_PLAN_FORMS = frozenset({"do", "say", "ask"})
_PLAN_SCHEMA = vol.Schema(
    {
        vol.Optional("do", default=list): vol.Any(None, [str]),
        vol.Optional("say", default=""): vol.Any(None, str),
        vol.Optional("c", default=CONFIDENCE_SCALE): vol.All(
            vol.Coerce(float), vol.Range(min=0.0, max=CONFIDENCE_SCALE)
        ),
        vol.Optional("ask"): vol.Any(None, str),
    },
    extra=vol.REMOVE_EXTRA,
)


def parse_plan(data: dict[str, Any]) -> Plan:
    """Check the shape of a model reply and build a Plan from it.

    The model writes each action as one line of words (`action_text`), the
    shortest form a small model still writes reliably: every token it
    writes costs 40-280 ms on a small CPU.
    """
    if not _PLAN_FORMS & data.keys():
        # JSON, but not a plan (an older `{"actions": ...}` form): read as
        # an empty plan, the user would hear nothing.
        raise PlanError(Rejection.MALFORMED, f"not a plan: {sorted(data)[:5]}")
    try:
        raw = _PLAN_SCHEMA(data)
    except vol.Invalid as err:
        raise PlanError(Rejection.MALFORMED, str(err)) from err
    actions: list[Action] = []
    for line in raw["do"] or ():
        for action in parse_action(line):
            # Small models sometimes write the same action again and again.
            if action not in actions:
                actions.append(action)
    return Plan(
        actions=tuple(actions),
        speech=(raw["say"] or "").strip(),
        confidence=round(raw["c"] / CONFIDENCE_SCALE, 3),
        clarify=(raw.get("ask") or "").strip() or None,
    )


def parse_action(line: str) -> list[Action]:
    """`<service> <entity id>... <field>=<value>...` as actions, one per domain.

    A service without its domain (`turn_off`) takes it from its targets, so
    "turn_off light.a switch.b" is two actions; a name with a dot
    (`light.turn_off`, `music.play`) is taken whole. Values are JSON where
    they parse (`30`, `true`, `[255,0,0]`), else text (`warm white`).
    """
    head, *fields = _FIELD_START.split(line.strip())
    words = head.split()
    if not words:
        raise PlanError(Rejection.MALFORMED, f"no tool in {line!r}")
    args: dict[str, Any] = {}
    for pair in fields:
        name, _, value = pair.partition("=")
        args[name] = _value(value.strip())
    tool, targets = words[0], tuple(dict.fromkeys(words[1:]))
    if "." in tool or not targets:
        return [Action(tool, targets, args)]
    by_domain: dict[str, list[str]] = {}
    for target in targets:
        by_domain.setdefault(target.partition(".")[0], []).append(target)
    return [
        Action(f"{domain}.{tool}", tuple(group), dict(args))
        for domain, group in by_domain.items()
    ]


def action_text(tool: str, targets: Sequence[str], args: Mapping[str, Any]) -> str:
    """An action as the model writes it (the inverse of `parse_action`)."""
    domain, _, service = tool.partition(".")
    own = bool(targets) and all(t.startswith(f"{domain}.") for t in targets)
    words = [service if own else tool, *targets]
    words.extend(
        f"{name}={value if isinstance(value, str) else json.dumps(value)}"
        for name, value in args.items()
    )
    return " ".join(words)


def _value(text: str) -> Any:
    """A field's value: JSON where it parses, else the text itself.

    A list or object may quote its strings with `'`: a double quote inside
    the plan's own JSON string is a token more, and the schema keeps it out.
    """
    candidates = [text]
    if text.startswith(("[", "{")):
        candidates.append(text.replace("'", '"'))
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except ValueError:
            continue
    return text


def validate_plan(
    hass: HomeAssistant, plan: Plan, catalog: Catalog, *, offered_args_only: bool
) -> Plan:
    """Return the plan ready to run, or raise PlanError (or ToolQuestion).

    `offered_args_only` holds a model to the fields it was shown; plans from
    memory (undo restores raw attributes) may use any field HA accepts.
    """
    if len(plan.actions) > MAX_ACTIONS:
        raise PlanError(
            Rejection.TOO_MANY_ACTIONS, f"{len(plan.actions)} > {MAX_ACTIONS}"
        )
    return replace(
        plan,
        actions=tuple(
            _validate_action(hass, action, catalog, offered_args_only=offered_args_only)
            for action in plan.actions
        ),
    )


def _validate_action(
    hass: HomeAssistant, action: Action, catalog: Catalog, *, offered_args_only: bool
) -> Action:
    """One action: allowed tool, exposed targets, schema-valid arguments."""
    if is_denied(action.tool):
        raise PlanError(Rejection.DENIED_SERVICE, action.tool)
    if tool := catalog.tools.get(action.tool):
        _check_targets(action, catalog, None)
        return tool.validate(action, catalog)
    if action.tool not in catalog.services:
        raise PlanError(Rejection.UNKNOWN_TOOL, action.tool)
    if not action.targets:
        raise PlanError(Rejection.MISSING_TARGETS, action.tool)
    _check_targets(action, catalog, action.tool.partition(".")[0])
    _check_args(hass, action, catalog, offered_args_only=offered_args_only)
    return action


def _check_targets(action: Action, catalog: Catalog, domain: str | None) -> None:
    """Exposed entities, of the service's own domain when it has one."""
    for target in action.targets:
        if target not in catalog.exposed:
            raise PlanError(Rejection.UNKNOWN_ENTITY, target)
        if domain is not None and not target.startswith(f"{domain}."):
            raise PlanError(Rejection.WRONG_DOMAIN, f"{action.tool} on {target}")


def _check_args(
    hass: HomeAssistant, action: Action, catalog: Catalog, *, offered_args_only: bool
) -> None:
    """No targets in args, only fields offered, and HA's service schema."""
    if smuggled := TARGET_KEYS & action.args.keys():
        raise PlanError(Rejection.INVALID_ARGS, f"targets in args: {sorted(smuggled)}")
    if offered_args_only and (
        unoffered := action.args.keys() - catalog.services[action.tool].accepts
    ):
        raise PlanError(Rejection.INVALID_ARGS, f"not offered: {sorted(unoffered)}")
    domain, _, service = action.tool.partition(".")
    registered = hass.services.async_services_for_domain(domain).get(service)
    if registered is not None and registered.schema is not None:
        # Checked here so a bad plan fails before anything runs; the args are
        # passed on as given, since HA validates (and converts) them again.
        try:
            registered.schema({**action.args, ATTR_ENTITY_ID: list(action.targets)})
        except vol.Invalid as err:
            raise PlanError(Rejection.INVALID_ARGS, f"{action.tool}: {err}") from err


def plan_json_schema(
    catalog: Catalog, named: Collection[str] = (), kinds: Collection[str] = ()
) -> dict[str, Any]:
    """The JSON schema a server can decode against: each tool with its targets.

    An action is one string (`action_text`), held by a pattern to the
    catalog: a service only with entities of its own domain and the fields
    it offers; where the words name some of a domain's entities and no kind
    of device of it, only those (`named`, `kinds`: what the words point
    at). The pattern keeps small models from inventing tools or ids and
    from crossing domains; it does not make the choice right, which is what
    validation and grounding are for.

    A plan takes one of three forms: it acts (`do`), answers (`say`) or
    asks (`ask`), each with a confidence `c` where the model is unsure. Small models write
    every field a schema allows, so a command costs only what it needs, and
    a question is never answered and asked back at once. What is said is
    bounded (`MAX_SAID`): a spoken reply, not an essay at 25 tokens a second.
    """
    by_domain: dict[str, list[str]] = {}
    for info in catalog.entities:
        by_domain.setdefault(info.domain, []).append(info.entity_id)
    branches = [
        *_service_branches(catalog, by_domain, named, kinds),
        *_tool_branches(catalog, by_domain),
    ]
    action: dict[str, Any] = {"type": "string"}
    if branches:
        action["pattern"] = f"^(?:{'|'.join(branches)})$"
    confidence = {"type": "integer", "minimum": 0, "maximum": CONFIDENCE_SCALE}
    said = {"type": "string", "maxLength": MAX_SAID}
    acting = {"type": "array", "minItems": 1, "maxItems": MAX_ACTIONS, "items": action}
    return {
        "anyOf": [
            _form(confidence, do=acting),
            _form(confidence, say=said),
            _form(confidence, ask=said),
        ]
    }


def _service_branches(
    catalog: Catalog,
    by_domain: Mapping[str, list[str]],
    named: Collection[str],
    kinds: Collection[str],
) -> list[str]:
    """The services' patterns, a domain's by the fields they offer, with its targets."""
    branches: list[str] = []
    for domain in dict.fromkeys(tool.partition(".")[0] for tool in catalog.services):
        targets = by_domain.get(domain, [])
        if domain not in kinds and (chosen := [t for t in targets if t in named]):
            targets = chosen
        if not targets:
            continue
        # Services that offer the same fields share a branch.
        by_fields: dict[tuple[str, ...], list[str]] = {}
        for tool, service in catalog.services.items():
            if tool.startswith(f"{domain}."):
                fields = tuple(sorted(service.accepts))
                by_fields.setdefault(fields, []).append(tool.partition(".")[2])
        branches.extend(
            _branch(services, targets, (1, min(len(targets), MAX_TARGETS)), fields)
            for fields, services in by_fields.items()
        )
    return branches


def _tool_branches(catalog: Catalog, by_domain: Mapping[str, list[str]]) -> list[str]:
    """The tools' patterns, each with the devices of its kind."""
    # A tool acts on one device of its kind at most (music: the player);
    # one without a kind (MCP) on none.
    by_kind: dict[str | None, list[str]] = {}
    for name, offered in catalog.tools.items():
        by_kind.setdefault(offered.kind, []).append(name)
    return [
        _branch(names, by_domain.get(kind, []) if kind else [], (0, 1), None)
        for kind, names in by_kind.items()
    ]


@dataclass(slots=True, frozen=True)
class Pick:
    """The model's choice among the reading's options (options.py).

    `index` is the option's position, None for "none of these"; `value`
    is the number it filled in, where the option leaves one open.
    """

    index: int | None
    value: float | None = None
    text: str | None = None


def choice_json_schema(
    count: int, *, open_values: Collection[int], open_words: Collection[int]
) -> dict[str, Any]:
    """The schema of a choice among `count` numbered options (the last: none).

    The reply is a few tokens (`{"pick":3}`): a small model writes every
    field a schema allows, so an option that leaves a number open
    (`open_values`, by number) is the only one that takes `value`, one that
    leaves words open (`open_words`) the only one that takes `text`.
    """
    plain = [n for n in range(1, count + 1) if n not in {*open_values, *open_words}]
    forms = [_choice({"pick": {"type": "integer", "enum": plain}})]
    forms += [
        _choice({"pick": {"const": n}, "value": {"type": "number"}})
        for n in open_values
    ]
    text = {"type": "string", "minLength": 1, "maxLength": MAX_TEXT}
    forms += [_choice({"pick": {"const": n}, "text": text}) for n in open_words]
    return forms[0] if len(forms) == 1 else {"anyOf": forms}


def _choice(properties: dict[str, Any]) -> dict[str, Any]:
    """One form of a choice: these fields, each required, nothing else."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def parse_pick(data: dict[str, Any], count: int) -> Pick:
    """The model's choice among `count` options (the last: none of these).

    Anything but an option's number is none.
    """
    pick = data.get("pick")
    value = data.get("value")
    if isinstance(pick, bool) or not isinstance(pick, (int, float, str)):
        return Pick(None)
    try:
        number = int(pick)
    except ValueError:
        return Pick(None)
    chosen = number - 1 if 1 <= number < count else None
    text = data.get("text")
    words = text.strip()[:MAX_TEXT] or None if isinstance(text, str) else None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return Pick(chosen, None, words)
    return Pick(chosen, float(value), words)


def _form(confidence: dict[str, Any], **fields: dict[str, Any]) -> dict[str, Any]:
    """One form of the plan: what it does or says, and a confidence."""
    return {
        "type": "object",
        "properties": {**fields, "c": confidence},
        "required": list(fields),
        "additionalProperties": False,
    }


def _branch(
    tools: Iterable[str],
    targets: Collection[str],
    count: tuple[int, int],
    fields: Sequence[str] | None,
) -> str:
    """The pattern of one group's actions: a tool, targets, then fields.

    `count` bounds the targets; `fields` lists the fields the tools offer
    (none: no fields at all), each at most once, or None for any names,
    at most `MAX_TOOL_FIELDS`.
    """
    pattern = f"(?:{'|'.join(map(_literal, tools))})"
    if targets:
        low, high = count
        pattern += f"(?: (?:{'|'.join(map(_literal, targets))})){{{low},{high}}}"
    if fields is None:
        pattern += _FIELDS.format(
            name="[A-Za-z_][A-Za-z0-9_]*", most=MAX_TOOL_FIELDS, value=MAX_VALUE
        )
    elif fields:
        pattern += _FIELDS.format(
            name=f"(?:{'|'.join(map(_literal, fields))})",
            most=len(fields),
            value=MAX_VALUE,
        )
    return pattern


# At most `most` ` <field>=<value>`; a value holds no `=`, quote or backslash.
_FIELDS = '(?: {name}=[^="\\\\]{{1,{value}}}){{0,{most}}}'


def _literal(text: str) -> str:
    """Text matched as itself in a pattern (JSON-schema regex, ECMA flavour)."""
    return "".join(c if c.isalnum() or c == "_" else f"\\{c}" for c in text)
