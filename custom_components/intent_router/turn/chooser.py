"""Step 7 with options: the model picks what the words meant, the home speaks.

The reading proposes (options.py), the model chooses (planner.py), and
what it chose is carried out here: an action through the one gate like any
plan (plan_runner.py), a question answered from the states (answers.py),
never in the model's words. A pick of none, a value left out, or a plan
the gate refuses becomes a question about the option that stands out
("Do you want me to turn off Desk Lamp?"), and only a yes runs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
import re
from typing import TYPE_CHECKING

from ..core.records import Outcome, Plan, encode
from ..core.speech import refuse
from ..deciding.options import SAY, Option, chosen_plan
from ..deciding.plan import parse_pick
from ..deciding.utterance import ModelFailedError
from ..language import words
from ..language.music import without_opener
from ..model.planner import parse_completion
from .listed import async_answered
from .replies import Source, TurnResult, confirm_question, option_label

# Letters two words share at their start to be one word in two forms.
_SHARED_START = 3

if TYPE_CHECKING:
    from homeassistant.core import HomeAssistant

    from ..core.settings import Settings
    from ..deciding.utterance import Utterance
    from ..home.catalog import Catalog
    from ..model.llm_client import Completion
    from ..model.planner import Planner
    from ..reading.reading import Reading
    from .plan_runner import PlanRunner


class Chooser:
    """Offers the model the reading's options and carries out its pick."""

    def __init__(
        self,
        hass: HomeAssistant,
        settings: Settings,
        runner: PlanRunner,
        planner: Planner,
    ) -> None:
        """Keep the collaborators."""
        self._hass = hass
        self._settings = settings
        self._runner = runner
        self._planner = planner

    async def async_choose(
        self,
        utterance: Utterance,
        catalog: Catalog,
        reading: Reading,
        options: Sequence[Option],
        *,
        sentences_left: bool,
    ) -> TurnResult:
        """Ask the model which option was meant, then do or answer it.

        With HA's sentences still to try after the model (`sentences_left`),
        a plan the gate refuses is a model failure they answer; else it is
        a question about the option that stands out.
        """
        labels = [
            option_label(self._hass, utterance.phrases, option, catalog)
            for option in options
        ]
        utterance.trace(options=labels)
        completion = await self._planner.async_choose(
            utterance,
            catalog,
            [*labels, utterance.say("option_none")],
            open_values=[n for n, o in enumerate(options, 1) if o.takes_value],
            open_words=[n for n, o in enumerate(options, 1) if o.takes_text],
        )
        try:
            result = await self._async_carry_out(
                utterance, catalog, reading, options, labels, completion
            )
        except ModelFailedError as refused:
            if sentences_left:
                raise
            utterance.trace(choice_refused=refused.reason)
            result = self._asked_about(utterance, reading, options, catalog)
        return replace(result, completion=completion)

    async def _async_carry_out(
        self,
        utterance: Utterance,
        catalog: Catalog,
        reading: Reading,
        options: Sequence[Option],
        labels: Sequence[str],
        completion: Completion,
    ) -> TurnResult:
        """The option picked, done or answered; else a question about one."""
        if "pick" in completion.data:
            pick = parse_pick(completion.data, len(options) + 1)
            utterance.trace(picked=pick.index, reply=completion.data)
            if pick.index is None:
                return self._asked_about(utterance, reading, options, catalog)
            chosen = options[pick.index]
            if chosen.question is not None:
                return await self._async_answered(utterance, chosen.question, catalog)
            filled = _kept(
                _filled(pick.text, labels[pick.index], utterance.language),
                chosen,
                utterance,
            )
            plan = chosen_plan(chosen, pick.value, filled, catalog)
        else:
            # A server that ignores the schema wrote a plan: held to the words
            # by the gate like any. An answer in the model's own words counts
            # only where one was offered; its question never does.
            plan = parse_completion(completion)
            answers = plan.speech and any(o.service == SAY for o in options)
            plan = plan if plan.actions or answers else None
        if plan is None:
            return self._asked_about(utterance, reading, options, catalog)
        utterance.trace(plan=encode(plan))
        return await self._runner.async_run(
            utterance, plan, catalog, Source.MODEL, reading=reading
        )

    async def _async_answered(
        self, utterance: Utterance, question: Reading, catalog: Catalog
    ) -> TurnResult:
        """A question the model said the words ask, answered by the home."""
        found = await async_answered(
            self._hass,
            utterance,
            question,
            catalog,
            self._settings.confirm_domains,
            Source.MODEL,
        )
        if found is None:
            raise refuse("not_sure")
        return found

    def _asked_about(
        self,
        utterance: Utterance,
        reading: Reading,
        options: Sequence[Option],
        catalog: Catalog,
    ) -> TurnResult:
        """No pick that can run: ask about the option that stands out, if one does."""
        plan = _standing_out(reading, options, catalog)
        if plan is None:
            raise refuse("not_sure")
        utterance.trace(asked_about=encode(plan))
        speech = confirm_question(self._hass, utterance.phrases, plan.actions)
        return TurnResult(
            speech, Outcome.CONFIRM, Source.MODEL, plan, pending_plan=plan
        )


def _standing_out(
    reading: Reading, options: Sequence[Option], catalog: Catalog
) -> Plan | None:
    """The action of the one option the words leave, when only one is an action.

    "Turn off the desk lamp" misheard: its one action is asked about, never
    run unasked. Several ("the desk lamp", its verb unread) are no guess.
    """
    actions = [option for option in options if option.question is None]
    if len(actions) != 1:
        return None
    return chosen_plan(actions[0], None, None, catalog)


def _writes_back(text: str | None, utterance: Utterance) -> bool:
    """Whether an answer in words only says the request again.

    A small model asked "what classes do I have today?" answers with the
    question: no answer, so it is never spoken.
    """
    said = set(utterance.said.words)
    return text is not None and set(words(text)) <= said


def _kept(text: str | None, option: Option, utterance: Utterance) -> str | None:
    """The words the model filled in, where they may stand.

    An answer that says more than the request; an item or a name made of
    the request's words.
    """
    if option.service == SAY:
        return None if _writes_back(text, utterance) else text
    return text if _of_the_words(text, utterance) else None


def _of_the_words(text: str | None, utterance: Utterance) -> bool:
    """Whether words filled in for an item or a name are of the request.

    One word said is enough ("Ricky Martin" for "ricky matin"); the
    option's own words with its X ("Remove X from Shopping list") are none.
    """
    filled = words(text or "")
    return "x" not in filled and not set(filled).isdisjoint(utterance.said.words)


def _filled(text: str | None, label: str, language: str) -> str | None:
    """The words the model filled in for an option's X, without the option's.

    A small model often writes the whole option back ("Added oat milk to
    Shopping List.", "Remove eggs from Shopping list") or the request's
    verb ("listen to Abbey Road"): what stands where X stood is what it
    meant. "X" itself, or the option as it stands, fills nothing in.
    """
    if text is None or "X" not in label.replace(".", " ").split():
        return text
    before, _, after = label.partition("X")
    pattern = re.escape(before.strip()) + r"\s*(.+?)\s*" + re.escape(after.strip(" ."))
    found = re.fullmatch(pattern, text.strip(" ."), flags=re.IGNORECASE)
    words = found.group(1) if found else _trimmed(text, before + after)
    words = without_opener(words, language).strip(" .")
    return None if not words or words in {"X", label.strip(" .")} else words


def _trimmed(text: str, label: str) -> str:
    """A text without the words it shares with a label at its ends.

    A word counts where either is the other's start ("Remove", "Removed").
    """
    own = [w.casefold() for w in label.replace(".", " ").split() if w != "X"]
    said = text.strip(" .").split()

    def shared(word: str) -> bool:
        folded = word.casefold()
        return any(
            min(len(folded), len(w)) >= _SHARED_START
            and (folded.startswith(w) or w.startswith(folded))
            for w in own
        )

    while said and shared(said[0]):
        said.pop(0)
    while said and shared(said[-1]):
        said.pop()
    return " ".join(said)
