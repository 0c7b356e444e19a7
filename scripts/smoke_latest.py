# ruff: noqa: INP001 - a script, run by scripts/smoke-latest
"""Smoke test: this checkout's Intent Router in a real, newest Home Assistant.

Run by `scripts/smoke-latest`, with the Python of the scratch venv it made:

    python scripts/smoke_latest.py --dir DIR --port 8125

It starts a scripted OpenAI-compatible server on 127.0.0.1, then Home
Assistant on 127.0.0.1:PORT with a scratch configuration (two template
lights) and this checkout on PYTHONPATH, as scripts/develop does. It creates
the owner through the onboarding API, adds Intent Router through the config
flow over the REST API (Home Assistant installs the manifest's requirements
under its own constraints, as for a user), and says a few turns over
`POST /api/conversation/process`: Home Assistant's own sentence, a model
turn, and two turns of one device in one conversation, the first slow at the
model and the second superseding it. It fails on a turn that goes wrong and
on any warning or error in Home Assistant's log that names intent_router.
"""

from __future__ import annotations

import argparse
import asyncio
from collections import deque
from dataclasses import dataclass
import importlib.metadata
import json
import os
from pathlib import Path
import signal
import sys
import time
from typing import Any

from aiohttp import ClientSession, ClientTimeout, web

CHECKOUT = Path(__file__).resolve().parent.parent
DOMAIN = "intent_router"
# Set-up installs the frontend and other requirements on a first run.
START_TIMEOUT = 900.0
# A model turn that a newer one supersedes waits this long at the model.
SLOW_REPLY = 4.0
# The notice Home Assistant logs for every custom integration.
CUSTOM_NOTICE = "We found a custom integration intent_router which has not been tested"
CONFIGURATION = """\
homeassistant:
  name: Intent Router smoke test
  country: GB
  language: en
  time_zone: UTC
http:
  server_host: 127.0.0.1
  server_port: {port}
logger:
  default: warning
  logs:
    custom_components.intent_router: debug
input_boolean:
  kitchen:
  bedroom:
template:
  - light:
      - name: Kitchen Lights
        unique_id: smoke_kitchen_lights
        state: "{{{{ is_state('input_boolean.kitchen', 'on') }}}}"
        turn_on:
          action: input_boolean.turn_on
          target: {{entity_id: input_boolean.kitchen}}
        turn_off:
          action: input_boolean.turn_off
          target: {{entity_id: input_boolean.kitchen}}
      - name: Bedroom Lamp
        unique_id: smoke_bedroom_lamp
        state: "{{{{ is_state('input_boolean.bedroom', 'on') }}}}"
        turn_on:
          action: input_boolean.turn_on
          target: {{entity_id: input_boolean.bedroom}}
        turn_off:
          action: input_boolean.turn_off
          target: {{entity_id: input_boolean.bedroom}}
"""


def say(text: str) -> None:
    """One line of the report."""
    sys.stdout.write(f"{text}\n")
    sys.stdout.flush()


class ModelServer:
    """An OpenAI-compatible server that answers plans from a script.

    Requests for one token or a few (the prompt-cache warm-up and its speed
    probe) are answered at once; each other request takes the next plan.
    """

    def __init__(self) -> None:
        """No plans yet."""
        self.plans: deque[tuple[dict[str, Any], float]] = deque()
        # Set when a request for a plan comes in.
        self.asked = asyncio.Event()
        self.url = ""
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        """Listen on a free port of 127.0.0.1."""
        app = web.Application()
        app.router.add_get("/v1/models", self._models)
        app.router.add_post("/v1/chat/completions", self._chat)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.url = f"http://127.0.0.1:{port}/v1"

    async def stop(self) -> None:
        """Stop listening."""
        if self._runner is not None:
            await self._runner.cleanup()

    async def _models(self, _: web.Request) -> web.Response:
        return web.json_response(
            {"object": "list", "data": [{"id": "smoke-model", "object": "model"}]}
        )

    async def _chat(self, request: web.Request) -> web.Response:
        body = await request.json()
        if body.get("max_tokens", 0) <= 16:  # noqa: PLR2004 - the warm-up's sizes
            return web.json_response(_completion("{"))
        self.asked.set()
        if not self.plans:
            return web.json_response({"error": {"message": "unscripted"}}, status=500)
        plan, delay = self.plans.popleft()
        await asyncio.sleep(delay)
        return web.json_response(_completion(json.dumps(plan)))


def _completion(content: str) -> dict[str, Any]:
    """A chat completion with this assistant message."""
    return {
        "id": "chatcmpl-smoke",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": "smoke-model",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
    }


@dataclass(slots=True)
class Assistant:
    """Home Assistant's HTTP API as the owner uses it."""

    http: ClientSession
    base: str
    token: str = ""

    async def call(self, method: str, path: str, body: Any = None) -> Any:
        """One REST call; an HTTP error fails the smoke test."""
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        async with self.http.request(
            method, f"{self.base}{path}", json=body, headers=headers
        ) as response:
            if response.status >= 400:  # noqa: PLR2004 - HTTP's error range
                text = await response.text()
                raise SmokeError(f"{method} {path}: {response.status} {text}")
            return await response.json()

    async def wait_until_up(self) -> None:
        """Wait for the HTTP API (the first start installs requirements)."""
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            try:
                await self.call("GET", "/api/onboarding")
            except OSError, SmokeError:
                await asyncio.sleep(2)
            else:
                return
        raise SmokeError("Home Assistant did not start")

    async def onboard(self) -> None:
        """Create the owner and sign in as them."""
        created = await self.call(
            "POST",
            "/api/onboarding/users",
            {
                "client_id": f"{self.base}/",
                "name": "Smoke",
                "username": "smoke",
                "password": "smoke-test-password",
                "language": "en",
            },
        )
        form = {
            "grant_type": "authorization_code",
            "code": created["auth_code"],
            "client_id": f"{self.base}/",
        }
        async with self.http.post(f"{self.base}/auth/token", data=form) as response:
            self.token = (await response.json())["access_token"]

    async def registry(self) -> list[dict[str, Any]]:
        """The entity registry, over the websocket API."""
        async with self.http.ws_connect(f"{self.base}/api/websocket") as socket:
            await socket.receive_json()  # auth_required
            await socket.send_json({"type": "auth", "access_token": self.token})
            await socket.receive_json()  # auth_ok
            await socket.send_json({"id": 1, "type": "config/entity_registry/list"})
            return list((await socket.receive_json())["result"])


class SmokeError(Exception):
    """Something the smoke test expected did not happen."""


async def add_intent_router(ha: Assistant, model_url: str) -> str:
    """The config flow over the REST API; returns the agent's entity id."""
    flow = await ha.call("POST", "/api/config/config_entries/flow", {"handler": DOMAIN})
    done = await ha.call(
        "POST",
        f"/api/config/config_entries/flow/{flow['flow_id']}",
        {"url": model_url, "api_key": "smoke", "verify_ssl": True},
    )
    if done.get("type") != "create_entry":
        raise SmokeError(f"the config flow did not create an entry: {done}")
    agents = [
        entry["entity_id"]
        for entry in await ha.registry()
        if entry["platform"] == DOMAIN
        and entry["entity_id"].startswith("conversation.")
    ]
    if not agents:
        raise SmokeError("Intent Router added no conversation agent")
    return str(agents[0])


async def converse(
    ha: Assistant,
    agent: str,
    text: str,
    conversation_id: str | None = None,
    device_id: str | None = None,
) -> tuple[str, str]:
    """One turn; its speech and conversation id, reported."""
    started = time.monotonic()
    ids = {"conversation_id": conversation_id, "device_id": device_id}
    result = await ha.call(
        "POST",
        "/api/conversation/process",
        {
            "text": text,
            "language": "en",
            "agent_id": agent,
            **{name: value for name, value in ids.items() if value is not None},
        },
    )
    speech = result["response"]["speech"]["plain"]["speech"]
    seconds = time.monotonic() - started
    say(f"  turn {text!r} -> {speech!r} ({seconds:.1f} s)")
    return str(speech), str(result["conversation_id"])


async def turns(ha: Assistant, agent: str, model: ModelServer) -> None:
    """HA's sentence, a model turn, and a newer turn superseding a slow one."""
    await converse(ha, agent, "turn on the kitchen lights")
    state = await ha.call("GET", "/api/states/light.kitchen_lights")
    if state["state"] != "on":
        raise SmokeError(f"the kitchen lights are {state['state']}")

    model.plans.append(({"c": 9, "say": "Good evening."}, 0.0))
    speech, conversation_id = await converse(ha, agent, "good evening")
    if speech != "Good evening.":
        raise SmokeError("the model turn was not answered by the model")

    device = "smoke-satellite"
    model.plans.append(({"c": 9, "say": "Once upon a time."}, SLOW_REPLY))
    model.asked.clear()
    slow = asyncio.create_task(
        converse(ha, agent, "tell me a story", conversation_id, device)
    )
    await model.asked.wait()
    newer, _ = await converse(ha, agent, "never mind", conversation_id, device)
    superseded, _ = await slow
    if "newer request" not in superseded or "busy" in newer.casefold():
        raise SmokeError("the newer turn did not supersede the slow one")


def problems(log: Path) -> list[str]:
    """Warnings and errors in Home Assistant's log that name intent_router."""
    return [
        line
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines()
        if (" WARNING " in line or " ERROR " in line or " CRITICAL " in line)
        and DOMAIN in line
        and CUSTOM_NOTICE not in line
    ]


async def run(directory: Path, port: int) -> bool:
    """Start everything, run the turns, stop, and read the log."""
    config = directory / "config"
    config.mkdir(parents=True, exist_ok=True)
    (config / "configuration.yaml").write_text(CONFIGURATION.format(port=port))
    log = config / "home-assistant.log"
    log.unlink(missing_ok=True)
    model = ModelServer()
    await model.start()
    hass = await asyncio.create_subprocess_exec(
        Path(sys.executable).with_name("hass"),
        "--config",
        str(config),
        env={**os.environ, "PYTHONPATH": str(CHECKOUT)},
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    failure: str | None = None
    try:
        async with ClientSession(timeout=ClientTimeout(total=START_TIMEOUT)) as http:
            ha = Assistant(http, f"http://127.0.0.1:{port}")
            await ha.wait_until_up()
            await ha.onboard()
            agent = await add_intent_router(ha, model.url)
            version = (await ha.call("GET", "/api/config"))["version"]
            say(f"Home Assistant {version}, agent {agent}; {libraries()}")
            await turns(ha, agent, model)
    except SmokeError as err:
        failure = str(err)
    finally:
        hass.send_signal(signal.SIGTERM)
        await hass.wait()
        await model.stop()
    found = problems(log)
    say(f"{log}: {len(found)} lines at warning or above name {DOMAIN}")
    for line in found:
        say(f"  {line}")
    if failure is not None:
        say(f"FAILED: {failure}")
    return failure is None and not found


def libraries() -> str:
    """The versions Home Assistant installed for the integration."""
    names = ("openai", "mcp", "httpx2", "pydantic")
    found = []
    for name in names:
        try:
            found.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            found.append(f"{name} (not installed)")
    return ", ".join(found)


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, required=True, help="scratch directory")
    parser.add_argument("--port", type=int, default=8125, help="Home Assistant's port")
    args = parser.parse_args()
    sys.exit(0 if asyncio.run(run(args.dir, args.port)) else 1)


if __name__ == "__main__":
    main()
