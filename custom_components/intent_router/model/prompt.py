"""Renders the messages of one plan request.

Servers that cache the processed prompt (llama.cpp, vLLM, OpenAI) reuse it
only up to the first changed byte, so the layout goes from what never changes
(rules, the plan's format, extra instructions) through what changes rarely
(services, areas, entities) to what changes with every request (states, the
speaker's area, the user's words). Nothing time-dependent sits near the top.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..core.domains import FULL_BRIGHTNESS
from ..core.records import Outcome
from ..deciding.plan import action_text

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletionMessageParam

    from ..core.records import EntityInfo, Turn
    from ..home.catalog import Catalog
    from ..reading.reading import Reading

# How every user message starts: a warm-up sends it after the system part.
USER_OPENING = "Speaker area: "
# Recent turns are sent newest first until this many characters (~tokens * 4).
HISTORY_CHAR_BUDGET = 1600

RULES = """\
You are the voice assistant of a Home Assistant home. Turn the user's request \
into one JSON plan and reply with that JSON object only, on one line, with no \
spaces outside strings:
{"do":["<service> <entity id>... <field>=<value>..."]}
Each string in "do" is one service: its name without the domain, every \
entity id it acts on, then only fields listed for it (none when it needs \
none). Tools whose names have a dot are written whole.
To answer instead: {"say":"<answer>"}; to ask: {"ask":"<question>"}.
When you are not sure the plan does what the user wants, add "c":<0 to 9> \
(0 is a guess); leave "c" out when you are sure.

Rules:
- Use only the tools and entity ids listed below.
- Do only what the user asked for, nothing more.
- "say" never says something is being done: what is asked to be done \
goes in "do"; when you cannot tell how, ask in "ask".
- When the user names no device, prefer the ones in the speaker's area.
- Questions about the home ("is the garage door open?") are answered in \
"say" from the states given.
- If several devices fit and nothing decides between them, ask one short \
question in "ask" naming the choices.
- Requests that are not about this home get a short answer in "say".
- "say" and "ask" are one short sentence in the user's language."""

# How the model chooses among the reading's options (options.py): a prompt
# of its own, short, so that a small model reads little and sees the task.
CHOICE_RULES = """\
You are the voice assistant of a home. The user said something, and below \
it are numbered options for what it may mean. Reply with JSON only: \
{"pick":<number>}, the option that does what the user asked. An option \
with N also needs "value": the number the user means. An option with X \
also needs "text": only the words of the request that X stands for. For a \
question, pick the option about what it asks. Never pick an option that does \
the opposite of what was asked. Pick the last option only when no other fits."""


def build_messages(
    catalog: Catalog,
    text: str,
    history: Sequence[Turn],
    extra_instructions: str | None,
    language: str,
    automation: str | None,
    states_of: Collection[str] = (),
    reading: Reading | None = None,
) -> list[ChatCompletionMessageParam]:
    """The system prompt (the stable part) and the user turn.

    The system prompt is the same for every turn, satellite and area, so a
    server's prompt cache holds it. In the user turn, what stays the same
    within a conversation (area, language, the turns so far) comes before
    what changes every turn (states, the request). `automation` is what an
    automation asked when it started this conversation: the request answers
    it. `states_of` are the entities whose states matter (all shortlisted
    when empty): every state line is prompt the server must read each turn.
    """
    user = _conversation(catalog, history, language, automation)
    user.append(render_states(catalog, states_of))
    if reading is not None and (understood := render_reading(reading)):
        user.append(understood)
    user.append(f"Request: {text}")
    return [
        {"role": "system", "content": _system(catalog, extra_instructions)},
        {"role": "user", "content": "\n\n".join(user)},
    ]


def build_choice_messages(
    catalog: Catalog,
    text: str,
    history: Sequence[Turn],
    extra_instructions: str | None,
    language: str,
    automation: str | None,
    options: Sequence[str],
) -> list[ChatCompletionMessageParam]:
    """The request with the reading's options (options.py) to choose from.

    A system prompt of its own (`CHOICE_RULES`, the same for every turn),
    the conversation so far, then the words and the options numbered from 1
    (the last is "none of these"). No states: the model chooses what was
    meant, and the home answers.
    """
    user = _conversation(catalog, history, language, automation)
    numbered = [f"{number} {label}" for number, label in enumerate(options, 1)]
    user.append(f"Request: {text}")
    user.append("Options:\n" + "\n".join(numbered))
    return [
        {"role": "system", "content": choice_system(extra_instructions)},
        {"role": "user", "content": "\n\n".join(user)},
    ]


def choice_system(extra_instructions: str | None) -> str:
    """The system prompt of every choice: its rules and the owner's words."""
    if extra_instructions and extra_instructions.strip():
        return (
            f"{CHOICE_RULES}\n\nInstructions from the home's owner:\n"
            f"{extra_instructions.strip()}"
        )
    return CHOICE_RULES


def conversation_so_far(
    catalog: Catalog,
    history: Sequence[Turn],
    extra_instructions: str | None,
    language: str,
    automation: str | None,
) -> list[ChatCompletionMessageParam]:
    """The messages up to the next turn's own part: what a warm-up sends.

    Exactly the start of what `build_choice_messages` sends for the next
    turn of this conversation, so a server that caches prompts reads only
    the new turn's words and options then.
    """
    return [
        {"role": "system", "content": choice_system(extra_instructions)},
        {
            "role": "user",
            "content": "\n\n".join(
                _conversation(catalog, history, language, automation)
            ),
        },
    ]


def _system(catalog: Catalog, extra_instructions: str | None) -> str:
    """The stable part: rules, the owner's instructions, tools, entities."""
    system = [RULES]
    if extra_instructions and extra_instructions.strip():
        system.append(
            f"Instructions from the home's owner:\n{extra_instructions.strip()}"
        )
    system.append(render_tools(catalog))
    system.append(render_entities(catalog))
    return "\n\n".join(system)


def _conversation(
    catalog: Catalog,
    history: Sequence[Turn],
    language: str,
    automation: str | None,
) -> list[str]:
    """The user turn's opening: what stays the same within a conversation."""
    user = [f"{USER_OPENING}{catalog.speaker_area or 'unknown'}\nLanguage: {language}"]
    if automation:
        user.append(f"An automation asked the user: {automation.strip()}")
    if history:
        user.append(render_history(history))
    return user


PHRASE_RULES = """\
You are the voice assistant of a Home Assistant home. Answer the user's \
request in one or two short spoken sentences, in the user's language, using \
only the data given. No lists, no markdown."""

# Tool results beyond this many characters are cut before phrasing.
MAX_RESULT_CHARS = 4000


def build_phrase_messages(text: str, results: str) -> list[ChatCompletionMessageParam]:
    """Messages for the second, short call that turns tool results into words."""
    return [
        {"role": "system", "content": PHRASE_RULES},
        {
            "role": "user",
            "content": f"Request: {text}\n\nData: {results[:MAX_RESULT_CHARS]}",
        },
    ]


def render_reading(reading: Reading) -> str:
    """What the integration read in the request, and what it left open."""
    mentions = reading.mentions
    parts = [
        f"{label} {', '.join(sorted(str(v) for v in values))}"
        for label, values in (
            ("verb", reading.verbs),
            ("devices", mentions.entities),
            ("areas", mentions.areas | mentions.floors),
            ("kinds", mentions.kinds),
        )
        if values
    ]
    parts.extend(
        f"value {value.number:g}{f' {value.unit}' if value.unit else ''}"
        for value in reading.values
    )
    if mentions.refers_back:
        parts.append("refers to the last devices")
    if not parts:  # nothing read: the request says it all, and only it
        return ""
    if reading.unexplained:
        parts.append(f"not understood: {' '.join(reading.unexplained)}")
    return f"Understood: {'; '.join(parts)}"


def render_tools(catalog: Catalog) -> str:
    """One line per domain, `domain: service(field, ...), ...`, then other tools."""
    by_domain: dict[str, list[str]] = {}
    for tool, info in catalog.services.items():
        domain, _, service = tool.partition(".")
        fields = f"({', '.join(info.fields)})" if info.fields else ""
        by_domain.setdefault(domain, []).append(f"{service}{fields}")
    lines = [f"{domain}: {', '.join(tools)}" for domain, tools in by_domain.items()]
    lines.extend(tool.describe() for tool in catalog.tools.values())
    return "Tools:\n" + ("\n".join(lines) if lines else "(none)")


def render_entities(catalog: Catalog) -> str:
    """Areas, then one line per entity: `id | name | aliases | area`."""
    lines = [
        " | ".join(
            (info.entity_id, info.name, ", ".join(info.aliases), info.area or "")
        )
        for info in catalog.listed
    ]
    areas = ", ".join(catalog.areas) or "(none)"
    body = "\n".join(lines) if lines else "(none)"
    return f"Areas (floor): {areas}\n\nEntities (id | name | aliases | area):\n{body}"


def render_states(catalog: Catalog, only: Collection[str] = ()) -> str:
    """One line per entity (`only` these, if any): `id: state, attribute value`."""
    lines = [
        f"{info.entity_id}: {_state_text(info)}"
        for info in catalog.entities
        if not only or info.entity_id in only
    ]
    return "States:\n" + ("\n".join(lines) if lines else "(none)")


def render_history(history: Sequence[Turn]) -> str:
    """Recent turns, oldest first, cut to a budget that keeps the newest.

    What was done is given as tool and targets, so "it", "the same" and
    "again" resolve against data, not against the wording of a reply.
    """
    lines: list[str] = []
    used = 0
    for turn in reversed(history):
        entry = _turn_text(turn)
        if used + len(entry) > HISTORY_CHAR_BUDGET and lines:
            break
        lines.append(entry)
        used += len(entry)
    lines.reverse()
    return "Recent turns (oldest first):\n" + "\n".join(lines)


def _turn_text(turn: Turn) -> str:
    """One turn: what was said, what was done, what was answered."""
    parts = [f"- User: {turn.text}"]
    parts.extend(
        f"  Did: {action_text(a.tool, a.targets, a.args)}" for a in turn.actions
    )
    # A failed turn's canned explanation is not something the model said:
    # shown as a reply, small models repeat it ("Please try again"). What
    # was done is in "Did" already: its reply would be prompt to read again.
    if turn.speech and turn.outcome != Outcome.ERROR and not turn.actions:
        parts.append(f"  Assistant: {turn.speech}")
    return "\n".join(parts)


def _state_text(info: EntityInfo) -> str:
    """State and the attributes that matter, compactly."""
    parts = [info.state]
    parts.extend(_attribute_text(key, value) for key, value in info.attributes.items())
    return ", ".join(parts)


def _attribute_text(key: str, value: Any) -> str:
    """`key value`, with brightness as a percentage like the service takes it."""
    if key == "brightness" and isinstance(value, (int, float)):
        return f"brightness_pct {round(value / FULL_BRIGHTNESS * 100)}"
    if isinstance(value, (list, tuple)):
        return f"{key} {'/'.join(str(item) for item in value)}"
    if isinstance(value, Mapping):
        return f"{key} {dict(value)}"
    return f"{key} {value}"


def estimate_tokens(messages: list[ChatCompletionMessageParam]) -> int:
    """A chars/4 estimate, for reporting prompt size without a tokenizer."""
    return sum(len(str(message.get("content") or "")) for message in messages) // 4
