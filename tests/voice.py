"""A voice satellite of a test platform, joined to the agent by an Assist pipeline.

HA core's tests have such helpers (tests/components/assist_satellite and
assist_pipeline conftest.py) but the test harness does not ship them, so these
are the minimal ones: a satellite that records what it announces and what the
pipeline sends it, a speech-to-text entity that hears what the test says the
user said, and a silent text-to-speech entity. All three are real entities of
HA's `assist_satellite`, `stt` and `tts` platforms; the pipeline, the chat
session and the conversation agent in between are HA's own.
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator
import io
from typing import Any
import wave

from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    MockModule,
    mock_config_flow,
    mock_integration,
    mock_platform,
    setup_test_component_platform,
)

from homeassistant.components import stt, tts
from homeassistant.components.assist_pipeline import (
    PipelineEvent,
    PipelineEventType,
    async_update_pipeline,
)
from homeassistant.components.assist_pipeline.models import PipelineStage
from homeassistant.components.assist_pipeline.pipeline import async_get_pipeline
from homeassistant.components.assist_satellite import (
    AssistSatelliteAnnouncement,
    AssistSatelliteConfiguration,
    AssistSatelliteEntity,
    AssistSatelliteEntityFeature,
)
from homeassistant.config_entries import ConfigEntry, ConfigFlow
from homeassistant.const import Platform
from homeassistant.core import HomeAssistant, callback
from homeassistant.helpers.device_registry import DeviceInfo
from homeassistant.setup import async_setup_component

# `setup_test_component_platform` puts platforms under this domain.
TEST_DOMAIN = "test"
LANGUAGE = "en"
VOICE_PLATFORMS = [Platform.STT, Platform.TTS, Platform.ASSIST_SATELLITE]
SAMPLE_RATE = 16000


def _silent_wav() -> bytes:
    """A hundredth of a second of silence (TTS tags MP3s, and b"" is no MP3)."""
    audio = io.BytesIO()
    with wave.open(audio, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(SAMPLE_RATE)
        wav.writeframes(bytes(2 * SAMPLE_RATE // 100))
    return audio.getvalue()


SILENCE = _silent_wav()


class ScriptedSpeechToText(stt.SpeechToTextEntity):
    """Hears whatever the test says the user said, once the audio ends."""

    _attr_name = "Scripted speech to text"

    def __init__(self) -> None:
        """Nothing said yet."""
        self.said = ""

    @property
    def supported_languages(self) -> list[str]:
        """The pipeline's language."""
        return [LANGUAGE]

    @property
    def supported_formats(self) -> list[stt.AudioFormats]:
        """What satellites send."""
        return [stt.AudioFormats.WAV]

    @property
    def supported_codecs(self) -> list[stt.AudioCodecs]:
        """What satellites send."""
        return [stt.AudioCodecs.PCM]

    @property
    def supported_bit_rates(self) -> list[stt.AudioBitRates]:
        """What satellites send."""
        return [stt.AudioBitRates.BITRATE_16]

    @property
    def supported_sample_rates(self) -> list[stt.AudioSampleRates]:
        """What satellites send."""
        return [stt.AudioSampleRates.SAMPLERATE_16000]

    @property
    def supported_channels(self) -> list[stt.AudioChannels]:
        """What satellites send."""
        return [stt.AudioChannels.CHANNEL_MONO]

    async def async_process_audio_stream(
        self, metadata: stt.SpeechMetadata, stream: AsyncIterable[bytes]
    ) -> stt.SpeechResult:
        """Listen to the end, then return the scripted words."""
        async for _chunk in stream:
            pass
        return stt.SpeechResult(self.said, stt.SpeechResultState.SUCCESS)


class SilentTextToSpeech(tts.TextToSpeechEntity):
    """Speaks everything as a moment of silence: the test reads the text."""

    _attr_name = "Silent text to speech"
    _attr_default_language = LANGUAGE

    def __init__(self) -> None:
        """Speak the pipeline's language."""
        self._attr_supported_languages = [LANGUAGE]

    async def async_get_tts_audio(
        self, message: str, language: str, options: dict[str, Any]
    ) -> tts.TtsAudioType:
        """No sound."""
        return "wav", SILENCE


class RecordingSatellite(AssistSatelliteEntity):
    """A satellite that can announce and start conversations, and records both."""

    _attr_name = "Hallway satellite"
    _attr_unique_id = "hallway_satellite"
    _attr_supported_features = (
        AssistSatelliteEntityFeature.ANNOUNCE
        | AssistSatelliteEntityFeature.START_CONVERSATION
    )
    _attr_device_info = DeviceInfo(
        identifiers={(TEST_DOMAIN, "hallway_satellite")}, name="Hallway satellite"
    )

    def __init__(self) -> None:
        """Nothing announced, no pipeline run yet."""
        self.announced: list[AssistSatelliteAnnouncement] = []
        self.events: list[PipelineEvent] = []
        self._configuration = AssistSatelliteConfiguration([], [], 0)

    @callback
    def async_get_configuration(self) -> AssistSatelliteConfiguration:
        """No wake words: the test starts every pipeline run."""
        return self._configuration

    async def async_set_configuration(
        self, config: AssistSatelliteConfiguration
    ) -> None:
        """Keep the configuration."""
        self._configuration = config

    async def async_announce(self, announcement: AssistSatelliteAnnouncement) -> None:
        """Record the announcement as played."""
        self.announced.append(announcement)

    async def async_start_conversation(
        self, start_announcement: AssistSatelliteAnnouncement
    ) -> None:
        """Record the start message as played; the test then speaks the answer."""
        self.announced.append(start_announcement)

    def on_pipeline_event(self, event: PipelineEvent) -> None:
        """Record the event; the reply plays at once."""
        self.events.append(event)
        if event.type is PipelineEventType.TTS_END:
            self.tts_response_finished()

    def event_data(self, event_type: PipelineEventType) -> dict[str, Any]:
        """The data of the last pipeline event of this type."""
        event = next(e for e in reversed(self.events) if e.type is event_type)
        return event.data or {}


class Voice:
    """The satellite and what it hears, on a pipeline to one conversation agent."""

    def __init__(
        self, satellite: RecordingSatellite, speech_to_text: ScriptedSpeechToText
    ) -> None:
        """Keep the two entities a turn needs."""
        self.satellite = satellite
        self._speech_to_text = speech_to_text

    async def async_say(self, words: str) -> str:
        """Speak to the satellite: speech to text, the agent, text to speech.

        Returns the text the reply was spoken from.
        """
        self._speech_to_text.said = words
        satellite = self.satellite
        first_event = len(satellite.events)
        await satellite.async_accept_pipeline_from_satellite(
            _silence(), start_stage=PipelineStage.STT, end_stage=PipelineStage.TTS
        )
        errors = [
            e.data
            for e in satellite.events[first_event:]
            if e.type is PipelineEventType.ERROR
        ]
        assert not errors, errors
        assert satellite.event_data(PipelineEventType.STT_END) == {
            "stt_output": {"text": words}
        }
        return str(satellite.event_data(PipelineEventType.TTS_START)["tts_input"])

    @property
    def continues(self) -> bool:
        """Whether the last reply kept the microphone open for an answer."""
        intent_end = self.satellite.event_data(PipelineEventType.INTENT_END)
        return bool(intent_end["intent_output"]["continue_conversation"])


async def _silence() -> AsyncIterator[bytes]:
    """The audio of one utterance; the speech-to-text entity ignores it."""
    yield bytes(2 * SAMPLE_RATE // 100)


async def async_setup_voice(hass: HomeAssistant, agent_id: str) -> Voice:
    """A satellite, speech to text and text to speech, on a pipeline to `agent_id`.

    The pipeline is the preferred one, which a satellite without a pipeline
    selector uses.
    """
    satellite = RecordingSatellite()
    speech_to_text = ScriptedSpeechToText()
    text_to_speech = SilentTextToSpeech()

    async def async_setup_entry(hass: HomeAssistant, entry: ConfigEntry) -> bool:
        await hass.config_entries.async_forward_entry_setups(entry, VOICE_PLATFORMS)
        return True

    mock_integration(hass, MockModule(TEST_DOMAIN, async_setup_entry=async_setup_entry))
    for platform, entity in zip(
        VOICE_PLATFORMS, (speech_to_text, text_to_speech, satellite), strict=True
    ):
        setup_test_component_platform(hass, platform, [entity], from_config_entry=True)
    mock_platform(hass, f"{TEST_DOMAIN}.config_flow")
    for domain in ("stt", "tts", "assist_pipeline", "assist_satellite"):
        assert await async_setup_component(hass, domain, {})
    entry = MockConfigEntry(domain=TEST_DOMAIN)
    entry.add_to_hass(hass)
    with mock_config_flow(TEST_DOMAIN, ConfigFlow):
        assert await hass.config_entries.async_setup(entry.entry_id)
        await hass.async_block_till_done()

    await async_update_pipeline(
        hass,
        async_get_pipeline(hass),
        conversation_engine=agent_id,
        conversation_language=LANGUAGE,
        language=LANGUAGE,
        stt_engine=speech_to_text.entity_id,
        stt_language=LANGUAGE,
        tts_engine=text_to_speech.entity_id,
        tts_language=LANGUAGE,
    )
    return Voice(satellite, speech_to_text)
