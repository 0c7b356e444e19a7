"""README screenshots from a real Home Assistant in headless Chromium.

Run by `scripts/screenshots` while `scripts/develop` serves HA on
http://127.0.0.1:8123. It:

1. starts a small OpenAI-compatible demo server on 127.0.0.1 (the test
   suite's `ScriptedLLMServer`, answering every request with a plan for the
   demo home), so no model is needed;
2. onboards HA through its onboarding API (user `dev` / `dev-password`,
   or $HA_USER / $HA_PASSWORD for an instance onboarded before) and hands the
   tokens to the browser;
3. in Chromium (Debian's `chromium`, driven by Playwright): adds Intent
   Router through Settings > Devices & services, opens its options, makes
   it the agent of an Assist pipeline, exposes the demo lights, opens the
   Assist dialog and sends two sentences (one HA's own sentences match, one
   only the model understands);
4. saves PNGs in docs/screenshots/.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
import sys
import tempfile
import threading
import time
from typing import Any
import urllib.error
import urllib.parse
import urllib.request

from aiohttp import web
from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.llm_server import ScriptedLLMServer

HA_URL = os.environ.get("HA_URL", "http://127.0.0.1:8123")
USER = os.environ.get("HA_USER", "dev")
PASSWORD = os.environ.get("HA_PASSWORD", "dev-password")
CLIENT_ID = f"{HA_URL}/"
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
DEMO_LIGHTS = [
    "light.living_room_rgbww_lights",
    "light.kitchen_lights",
    "light.ceiling_lights",
    "light.bed_light",
]
LOCAL_SENTENCE = "turn off the kitchen lights"
MODEL_SENTENCE = "it's too dark in the living room"


DEMO_PORT = int(os.environ.get("DEMO_LLM_PORT", "18011"))


class DemoServer(ScriptedLLMServer):
    """Answers every plan request for the demo home, at once.

    It listens on a fixed port, so the entry it is added with keeps working
    when the script runs again.
    """

    async def start(self) -> None:
        """Listen on 127.0.0.1:DEMO_PORT, offering two local-model names."""
        self.models = ["qwen2.5:3b", "llama3.2:3b"]
        app = web.Application()
        app.router.add_get("/v1/models", self._handle_models)
        app.router.add_post("/v1/chat/completions", self._handle_chat)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", DEMO_PORT).start()
        self.url = f"http://127.0.0.1:{DEMO_PORT}/v1"

    async def _handle_chat(self, request: web.Request) -> web.Response:
        body = await request.json()
        said = str(body["messages"][-1]["content"]).rsplit("Request:", 1)[-1]
        if "dark" in said or "bright" in said:
            plan = {
                "do": ["turn_on light.living_room_rgbww_lights brightness_pct=80"],
                "c": 8,
            }
        else:
            plan = {"say": "I can help with the lights, covers and locks here.", "c": 8}
        self.add_plan(plan, usage=(612, 48))
        return await super()._handle_chat(_Replay(request, body))


class _Replay:
    """A request whose JSON body was read already (aiohttp reads it once)."""

    def __init__(self, request: web.Request, body: dict[str, Any]) -> None:
        self._request = request
        self._body = body
        self.headers = request.headers

    async def json(self) -> dict[str, Any]:
        return self._body


def start_demo_server() -> tuple[DemoServer, asyncio.AbstractEventLoop]:
    """Run the demo model server in a background thread's event loop."""
    loop = asyncio.new_event_loop()
    server = DemoServer()
    ready = threading.Event()

    def run() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(server.start())
        ready.set()
        loop.run_forever()

    threading.Thread(target=run, daemon=True).start()
    ready.wait(10)
    return server, loop


def _post(path: str, data: dict[str, Any], token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        f"{HA_URL}{path}", data=json.dumps(data).encode(), headers=headers
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def _tokens(code: str) -> dict[str, Any]:
    form = urllib.parse.urlencode(
        {"grant_type": "authorization_code", "code": code, "client_id": CLIENT_ID}
    ).encode()
    with urllib.request.urlopen(
        urllib.request.Request(f"{HA_URL}/auth/token", data=form), timeout=30
    ) as response:
        return json.load(response)


def wait_for_ha(seconds: float = 120) -> None:
    """Until HA answers (scripts/develop may still be starting)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            with urllib.request.urlopen(f"{HA_URL}/manifest.json", timeout=5):
                return
        except urllib.error.URLError, OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(2)


def onboard_and_login() -> dict[str, Any]:
    """Onboard a fresh instance (or log in to one); return auth tokens."""
    with urllib.request.urlopen(f"{HA_URL}/api/onboarding", timeout=30) as response:
        steps = {s["step"]: s["done"] for s in json.load(response)}
    if not steps.get("user"):
        code = _post(
            "/api/onboarding/users",
            {
                "client_id": CLIENT_ID,
                "name": "Developer",
                "username": USER,
                "password": PASSWORD,
                "language": "en",
            },
        )["auth_code"]
        tokens = _tokens(code)
        access = tokens["access_token"]
        for step, body in (
            ("core_config", {}),
            ("analytics", {}),
            ("integration", {"client_id": CLIENT_ID, "redirect_uri": CLIENT_ID}),
        ):
            if not steps.get(step):
                _post(f"/api/onboarding/{step}", body, access)
        return tokens
    flow = _post(
        "/auth/login_flow",
        {
            "client_id": CLIENT_ID,
            "handler": ["homeassistant", None],
            "redirect_uri": CLIENT_ID,
        },
    )
    result = _post(
        f"/auth/login_flow/{flow['flow_id']}",
        {"client_id": CLIENT_ID, "username": USER, "password": PASSWORD},
    )
    return _tokens(result["result"])


def shot(page: Page, name: str) -> Path:
    """Save a PNG of the page as it is now."""
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / name
    page.wait_for_timeout(800)
    page.screenshot(path=str(path))
    sys.stderr.write(f"saved {path.relative_to(ROOT)}\n")
    return path


def call_ws(page: Page, message: dict[str, Any]) -> Any:
    """A websocket command through the frontend's own connection."""
    return page.evaluate(
        "(msg) => document.querySelector('home-assistant').hass.callWS(msg)",
        message,
    )


def dismiss_http_notice(page: Page) -> None:
    """Keep the HTTP settings of configuration.yaml when HA asks about them."""
    notice = page.get_by_text("Confirm new HTTP server configuration")
    if notice.count():
        page.get_by_role("button", name="Confirm").click()
        page.wait_for_timeout(1000)


def remove_old_entries(page: Page) -> None:
    """Start from no Intent Router entry, so every run shows the same flow."""
    entries = call_ws(page, {"type": "config_entries/get", "domain": "intent_router"})
    for entry in entries:
        page.evaluate(
            "(id) => document.querySelector('home-assistant').hass.callApi("
            "'DELETE', `config/config_entries/entry/${id}`)",
            entry["entry_id"],
        )
    pipelines = call_ws(page, {"type": "assist_pipeline/pipeline/list"})
    for pipeline in pipelines["pipelines"]:
        if pipeline["name"] == "Intent Router":
            call_ws(
                page,
                {
                    "type": "assist_pipeline/pipeline/set_preferred",
                    "pipeline_id": pipelines["pipelines"][0]["id"],
                },
            )
            call_ws(
                page,
                {
                    "type": "assist_pipeline/pipeline/delete",
                    "pipeline_id": pipeline["id"],
                },
            )


def add_integration(page: Page, llm_url: str) -> None:
    """Settings > Devices & services > Add > Intent Router, filled in the UI."""
    page.goto(f"{HA_URL}/config/integrations/dashboard/add?domain=intent_router")
    confirm = page.get_by_role("button", name="OK")
    confirm.wait_for(timeout=30_000)
    confirm.click()
    page.get_by_text("Connect to a model server").wait_for(timeout=30_000)
    dialog = page.locator("dialog-data-entry-flow")
    url_field = dialog.get_by_role("textbox").first
    url_field.fill(llm_url)
    shot(page, "config-flow.png")
    dialog.get_by_role("button", name="Submit").click()
    page.get_by_role("button", name="Finish").or_(
        page.get_by_text("Created configuration")
    ).first.wait_for(timeout=30_000)
    shot(page, "config-flow-done.png")
    finish = page.get_by_role("button", name="Finish")
    if finish.count():
        finish.first.click()


def open_options(page: Page) -> None:
    """The integration's page, then its options (the cog)."""
    page.goto(f"{HA_URL}/config/integrations/integration/intent_router")
    page.get_by_text("Intent Router").first.wait_for(timeout=30_000)
    shot(page, "integration.png")
    configure = page.get_by_role("button", name="Configure")
    if not configure.count():
        configure = page.locator("ha-icon-button[label='Configure']")
    configure.first.click()
    page.get_by_text("Intent Router options").wait_for(timeout=30_000)
    shot(page, "options.png")
    page.mouse.move(640, 450)
    for _ in range(6):
        page.mouse.wheel(0, 400)
        page.wait_for_timeout(150)
    shot(page, "options-more.png")
    page.keyboard.press("Escape")


def set_up_pipeline(page: Page) -> None:
    """An Assist pipeline with Intent Router as its agent, preferred."""
    states = page.evaluate(
        "() => Object.keys(document.querySelector('home-assistant').hass.states)"
    )
    agent = next(
        s
        for s in states
        if s.startswith("conversation.") and s != "conversation.home_assistant"
    )
    call_ws(
        page,
        {
            "type": "homeassistant/expose_entity",
            "assistants": ["conversation"],
            "entity_ids": [s for s in DEMO_LIGHTS if s in states],
            "should_expose": True,
        },
    )
    pipeline = call_ws(
        page,
        {
            "type": "assist_pipeline/pipeline/create",
            "name": "Intent Router",
            "language": "en",
            "conversation_engine": agent,
            "conversation_language": "en",
            "stt_engine": None,
            "stt_language": None,
            "tts_engine": None,
            "tts_language": None,
            "tts_voice": None,
            "wake_word_entity": None,
            "wake_word_id": None,
        },
    )
    call_ws(
        page,
        {
            "type": "assist_pipeline/pipeline/set_preferred",
            "pipeline_id": pipeline["id"],
        },
    )


def assist(page: Page) -> None:
    """The Assist dialog with one local and one model-path sentence."""
    page.goto(f"{HA_URL}/lovelace/0")
    page.wait_for_timeout(3000)
    button = page.locator("ha-icon-button[label='Assist'], [aria-label='Assist']")
    if button.count():
        button.first.click()
    else:
        page.keyboard.press("a")
    field = page.locator("ha-voice-command-dialog").get_by_role("textbox")
    field.first.wait_for(timeout=30_000)
    for sentence in (LOCAL_SENTENCE, MODEL_SENTENCE):
        field.first.fill(sentence)
        field.first.press("Enter")
        page.wait_for_timeout(2500)
    shot(page, "assist.png")


def main() -> None:
    """Everything, in order; the demo server stops with the process."""
    wait_for_ha()
    server, loop = start_demo_server()
    tokens = onboard_and_login()
    hass_tokens = {
        "access_token": tokens["access_token"],
        "token_type": "Bearer",
        "expires_in": tokens["expires_in"],
        "refresh_token": tokens["refresh_token"],
        "hassUrl": HA_URL,
        "clientId": CLIENT_ID,
        "expires": int(time.time() * 1000) + tokens["expires_in"] * 1000,
    }
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        context = browser.new_context(
            viewport={"width": 1280, "height": 860}, color_scheme="light"
        )
        context.add_init_script(
            f"window.localStorage.setItem('hassTokens', {json.dumps(json.dumps(hass_tokens))});"
        )
        page = context.new_page()
        try:
            page.goto(f"{HA_URL}/config/integrations/dashboard")
            page.wait_for_timeout(3000)
            dismiss_http_notice(page)
            remove_old_entries(page)
            add_integration(page, server.url)
            open_options(page)
            set_up_pipeline(page)
            assist(page)
        except Exception:
            failed = Path(tempfile.gettempdir()) / "screenshots-failed.png"
            page.screenshot(path=str(failed))
            sys.stderr.write(f"failed; the page as it was: {failed}\n")
            raise
        finally:
            browser.close()
    loop.call_soon_threadsafe(loop.stop)


if __name__ == "__main__":
    main()
