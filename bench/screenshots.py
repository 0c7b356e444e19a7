"""README screenshots from a real Home Assistant in headless Chromium.

Run by `scripts/screenshots` while `scripts/develop` serves HA on
http://127.0.0.1:8123. It:

1. onboards HA through its onboarding API (user `dev` / `dev-password`,
   or $HA_USER / $HA_PASSWORD for an instance onboarded before) and hands the
   tokens to the browser;
2. in Chromium (Debian's `chromium` and `chromium-driver`, driven by
   Selenium): adds Intent Router through Settings > Devices & services
   against the model server ($LLM_URL, by default the local llama.cpp server
   on 127.0.0.1:8011; with `--demo`, the test suite's scripted server), opens
   its agent's settings, chooses it as the conversation agent of the assistant under
   Settings > Voice assistants, exposes the demo lights and opens the Assist
   dialog with sentences the integration answers without a model;
3. with `--repair`, sets a timeout the model server cannot meet, so that the
   warm-up raises its repair, and shows the repair and its fix;
4. shows the Expose page and the assistant's debug page;
5. saves PNGs in docs/screenshots/.

Everything in the browser is found through the shadow DOM with small
scripts (`_DEEP`), since HA's frontend is made of web components.
"""

from __future__ import annotations

import argparse
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

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.llm_server import ScriptedLLMServer

HA_URL = os.environ.get("HA_URL", "http://127.0.0.1:8123")
USER = os.environ.get("HA_USER", "dev")
PASSWORD = os.environ.get("HA_PASSWORD", "dev-password")
LLM_URL = os.environ.get("LLM_URL", "http://127.0.0.1:8011/v1")
CLIENT_ID = f"{HA_URL}/"
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
DEMO_PORT = int(os.environ.get("DEMO_LLM_PORT", "18011"))
# Demo lights to expose, and the demo lock left unexposed (Assist's default).
DEMO_LIGHTS = [
    "light.living_room_rgbww_lights",
    "light.kitchen_lights",
    "light.ceiling_lights",
    "light.bed_light",
]
# Sentences the integration answers without the model: HA's own sentence,
# a complaint, an undo, a device that is not exposed.
SENTENCES = [
    "it's too dark in the kitchen",
    "undo that",
    "unlock the front door",
]
# The README's step only the model can work out: with the real model only
# (`--demo`'s scripted server cannot help with it).
MODEL_SENTENCE = "I'm heading to bed"

# Deep queries through shadow roots: the first element matching a CSS
# selector, and the first whose own text is the text given.
_DEEP = """
const walk = (root, visit) => {
  for (const el of root.querySelectorAll('*')) {
    if (visit(el)) return el;
    if (el.shadowRoot) { const found = walk(el.shadowRoot, visit); if (found) return found; }
  }
  return null;
};
const bySelector = (sel) => walk(document, (el) => el.matches(sel));
const byText = (text, sel) => walk(document, (el) =>
  (!sel || el.matches(sel)) && (el.getAttribute('label') === text || el.label === text ||
  [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() === text)));
"""


class DemoServer(ScriptedLLMServer):
    """A scripted model server for `--demo`: every plan says it cannot help."""

    async def start(self) -> None:
        """Listen on 127.0.0.1:DEMO_PORT, offering one model name."""
        from aiohttp import web  # noqa: PLC0415 - only for --demo

        self.models = ["qwen2.5-coder-1.5b"]
        app = web.Application()
        app.router.add_get("/v1/models", self._handle_models)
        app.router.add_post("/v1/chat/completions", self._answer)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", DEMO_PORT).start()
        self.url = f"http://127.0.0.1:{DEMO_PORT}/v1"

    async def _answer(self, request: Any) -> Any:
        self.add_plan({"say": "I can't help with that."}, usage=(612, 12))
        return await self._handle_chat(request)


def start_demo_server() -> str:
    """Run the demo model server in a background thread; its URL."""
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
    return server.url


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


def wait_for_ha(seconds: float = 180) -> None:
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


class Browser:
    """Headless Chromium on HA's frontend, logged in."""

    def __init__(self, tokens: dict[str, Any]) -> None:
        """Start Chromium through Debian's chromedriver and hand it the tokens."""
        options = Options()
        options.binary_location = CHROMIUM
        for arg in (
            "--headless=new",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--window-size=1280,900",
            "--force-device-scale-factor=1",
            "--lang=en-US",
        ):
            options.add_argument(arg)
        self.driver: WebDriver = webdriver.Chrome(
            service=Service(CHROMEDRIVER), options=options
        )
        self.driver.set_script_timeout(60)
        hass_tokens = {
            "access_token": tokens["access_token"],
            "token_type": "Bearer",
            "expires_in": tokens["expires_in"],
            "refresh_token": tokens["refresh_token"],
            "hassUrl": HA_URL,
            "clientId": CLIENT_ID,
            "expires": int(time.time() * 1000) + tokens["expires_in"] * 1000,
        }
        self.driver.get(f"{HA_URL}/manifest.json")
        self.driver.execute_script(
            "localStorage.setItem('hassTokens', arguments[0]);",
            json.dumps(hass_tokens),
        )

    def go(self, path: str) -> None:
        """Open a page and wait until the frontend has its connection."""
        self.driver.get(f"{HA_URL}{path}")
        self.until(
            "const ha = document.querySelector('home-assistant');"
            "return !!(ha && ha.hass && ha.hass.connected);"
        )
        time.sleep(2)

    def until(self, script: str, *args: Any, seconds: float = 60) -> Any:
        """Run a script until it returns something true; that value."""
        deadline = time.monotonic() + seconds
        while True:
            value = self.driver.execute_script(script, *args)
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError(script)
            time.sleep(0.5)

    def find(self, text: str, selector: str = "", seconds: float = 60) -> WebElement:
        """The first visible element whose own text (or label) is `text`."""
        return self.until(
            f"{_DEEP} return byText(arguments[0], arguments[1]);",
            text,
            selector,
            seconds=seconds,
        )

    def query(self, selector: str, seconds: float = 60) -> WebElement:
        """The first element matching a CSS selector, through shadow roots."""
        return self.until(
            f"{_DEEP} return bySelector(arguments[0]);", selector, seconds=seconds
        )

    def click(self, element: WebElement) -> None:
        """Click as a user would: the button inside a web component's host."""
        self.driver.execute_script(
            "const el = arguments[0];"
            "const inner = el.shadowRoot &&"
            " el.shadowRoot.querySelector('button, ha-button, [role=button]');"
            "(inner || el).click();",
            element,
        )
        time.sleep(1)

    def type_into(self, element: WebElement, text: str, *, enter: bool = False) -> None:
        """Type into an input: set its value as typing does, and tell the form."""
        self.driver.execute_script(
            "const el = arguments[0]; el.focus(); el.value = arguments[1];"
            "el.dispatchEvent(new Event('input', {bubbles: true, composed: true}));"
            "el.dispatchEvent(new Event('change', {bubbles: true, composed: true}));",
            element,
            text,
        )
        if enter:
            element.send_keys(Keys.ENTER)

    def ws(self, message: dict[str, Any]) -> Any:
        """A websocket command through the frontend's own connection."""
        return self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "document.querySelector('home-assistant').hass.callWS(arguments[0])"
            ".then(done, (err) => done({error: String(err && err.message || err)}));",
            message,
        )

    def shot(self, name: str) -> Path:
        """Save a PNG of the page as it is now."""
        OUT.mkdir(parents=True, exist_ok=True)
        path = OUT / name
        time.sleep(1.5)
        self.driver.save_screenshot(str(path))
        sys.stderr.write(f"saved {path.relative_to(ROOT)}\n")
        return path


def remove_old_entries(browser: Browser) -> None:
    """Start from no Intent Router entry, so every run shows the same flow."""
    for entry in browser.ws({"type": "config_entries/get", "domain": "intent_router"}):
        browser.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "document.querySelector('home-assistant').hass.callApi("
            "'DELETE', `config/config_entries/entry/${arguments[0]}`).then(done, done);",
            entry["entry_id"],
        )


def add_integration(browser: Browser, llm_url: str) -> str:
    """Settings > Devices & services > Add > Intent Router, filled in the UI."""
    browser.go("/config/integrations/dashboard/add?domain=intent_router")
    browser.click(browser.find("OK"))  # "Do you want to set up Intent Router?"
    browser.find("Connect to a model server")
    url_field = browser.query(
        "dialog-data-entry-flow input[type='url'], input[type='url']"
    )
    browser.type_into(url_field, llm_url)
    browser.shot("config-flow.png")
    browser.click(browser.find("Submit"))
    finish = browser.find("Skip and finish", seconds=90)
    browser.shot("config-flow-done.png")
    browser.click(finish)
    entries = browser.ws({"type": "config_entries/get", "domain": "intent_router"})
    return str(entries[0]["entry_id"])


def open_options(browser: Browser) -> None:
    """The integration's page, then its agent's settings, section by section."""
    browser.go("/config/integrations/integration/intent_router")
    browser.shot("integration.png")
    # The agent is a subentry of the server's entry: its reconfigure button,
    # labelled with the integration's own words for it.
    browser.click(browser.find(_subentry_label("reconfigure"), "ha-icon-button"))
    browser.find("Which model plans, and how.")
    browser.shot("options.png")
    # The dialog scrolls: show its lower sections too.
    browser.driver.execute_script(
        f"{_DEEP} const body = bySelector('dialog-data-entry-flow');"
        "const scroller = walk(body.shadowRoot || document, (el) =>"
        " el.scrollHeight > el.clientHeight + 50 &&"
        " getComputedStyle(el).overflowY !== 'visible');"
        "if (scroller) scroller.scrollTop = scroller.scrollHeight;"
    )
    browser.shot("options-more.png")
    browser.driver.find_element("tag name", "body").send_keys(Keys.ESCAPE)
    time.sleep(1)


def _subentry_label(flow: str) -> str:
    """What the frontend calls an agent's flow: its English translation."""
    translations = json.loads(
        (ROOT / "custom_components/intent_router/translations/en.json").read_text()
    )
    return str(translations["config_subentries"]["conversation"]["initiate_flow"][flow])


def choose_agent(browser: Browser) -> str:
    """Settings > Voice assistants > the assistant > Conversation agent.

    Returns the assistant's (pipeline's) id. The Expose page, where the
    README's first step exposes a light, is shot on the way.
    """
    states = browser.driver.execute_script(
        "return Object.keys(document.querySelector('home-assistant').hass.states);"
    )
    agent = next(
        s
        for s in states
        if s.startswith("conversation.") and s != "conversation.home_assistant"
    )
    browser.ws(
        {
            "type": "homeassistant/expose_entity",
            "assistants": ["conversation"],
            "entity_ids": [s for s in DEMO_LIGHTS if s in states],
            "should_expose": True,
        }
    )
    pipelines = browser.ws({"type": "assist_pipeline/pipeline/list"})
    preferred = next(
        p for p in pipelines["pipelines"] if p["id"] == pipelines["preferred_pipeline"]
    )
    # What choosing Intent Router in the assistant's dialog saves; the dialog
    # then shows it chosen.
    update = {
        key: preferred[key]
        for key in preferred
        if key not in ("id", "conversation_engine")
    }
    browser.ws(
        {
            "type": "assist_pipeline/pipeline/update",
            "pipeline_id": preferred["id"],
            **update,
            "conversation_engine": agent,
        }
    )
    browser.go("/config/voice-assistants/assistants")
    # The assistant's row, not the sidebar's title of the same name.
    browser.click(
        browser.until(
            f"{_DEEP} const found = [];"
            "walk(document, (el) => { if ([...el.childNodes].some((n) =>"
            " n.nodeType === 3 && n.textContent.trim() === arguments[0]))"
            " found.push(el); return false; });"
            "return found[found.length - 1];",
            preferred["name"],
        )
    )
    browser.find("Intent Router")
    browser.shot("assistant.png")
    browser.driver.find_element("tag name", "body").send_keys(Keys.ESCAPE)
    browser.go("/config/voice-assistants/expose")
    browser.find("Kitchen Lights")
    browser.shot("expose.png")
    return str(preferred["id"])


def debug(browser: Browser, pipeline_id: str, sentences: list[str]) -> None:
    """The assistant's debug page: what answered each turn, and what ran."""
    browser.go(f"/config/voice-assistants/debug/{pipeline_id}")
    # The first of the Assist dialog's turns, which acted ("too dark"): the
    # runs are listed newest first.
    browser.driver.execute_script(
        f"{_DEEP} const runs = bySelector('select');"
        "runs.selectedIndex = arguments[0];"
        "runs.dispatchEvent(new Event('change', {bubbles: true, composed: true}));",
        len(sentences) - 1,
    )
    time.sleep(3)
    # Its decision opened: where the answer came from, and the plan.
    # Its calls ("Call intent_router.decision", or "Call 2 tools" with the
    # action's): the decision is the first.
    header = browser.until(
        f"{_DEEP} return walk(document, (el) => el.slot === 'header'"
        " && el.textContent.trim().startsWith('Call '));"
    )
    browser.driver.execute_script("arguments[0].click();", header)
    time.sleep(1)
    browser.shot("debug.png")


def assist(browser: Browser, sentences: list[str]) -> None:
    """The Assist dialog, with the README's sentences, in order."""
    browser.go("/lovelace/0")
    browser.driver.find_element("tag name", "body").send_keys("a")
    dialog_input = browser.until(
        f"{_DEEP} const chat = bySelector('ha-assist-chat');"
        "return chat && walk(chat.shadowRoot || chat,"
        " (el) => el.matches('input, textarea'));"
    )
    for sentence in sentences:
        browser.type_into(dialog_input, sentence, enter=True)
        time.sleep(4)
    time.sleep(4)
    # The last reply below the fold: scroll the conversation to its end.
    browser.driver.execute_script(
        f"{_DEEP} const chat = bySelector('ha-assist-chat');"
        "const box = walk(chat.shadowRoot || chat,"
        " (el) => el.scrollHeight > el.clientHeight + 10);"
        "if (box) box.scrollTop = box.scrollHeight;"
    )
    time.sleep(1)
    browser.shot("assist.png")


def repair(browser: Browser, entry_id: str) -> None:
    """A timeout the agent's server cannot meet: the warm-up's repair, its fix."""
    (agent,) = browser.ws(
        {"type": "config_entries/subentries/list", "entry_id": entry_id}
    )
    browser.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const hass = document.querySelector('home-assistant').hass;"
        "(async () => {"
        " const form = await hass.callApi('POST',"
        "   'config/config_entries/subentries/flow',"
        "   {handler: [arguments[0], 'conversation'], subentry_id: arguments[1]});"
        " const values = {};"
        " for (const section of form.data_schema) {"
        "   if (!section.schema) {"
        "     values[section.name] = section.description.suggested_value;"
        "     continue;"
        "   }"
        "   values[section.name] = {};"
        "   for (const field of section.schema) {"
        "     const v = field.description && field.description.suggested_value;"
        "     if (v !== undefined && v !== null) values[section.name][field.name] = v;"
        "   }"
        " }"
        " values.speed.timeout = 1;"
        " return hass.callApi('POST',"
        "   `config/config_entries/subentries/flow/${form.flow_id}`, values);"
        "})().then(done, (err) => done(String(err)));",
        entry_id,
        agent["subentry_id"],
    )
    time.sleep(30)  # the reload's warm-up measures the server
    browser.go("/config/repairs")
    browser.shot("repairs.png")
    browser.click(
        browser.find("The model server is too slow for Intent Router's timeout")
    )
    browser.find("Set a timeout that fits the model server")
    browser.shot("repair.png")
    browser.click(browser.find("Submit"))
    time.sleep(2)


def main() -> None:
    """Everything, in order."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--demo", action="store_true", help="a scripted model server")
    parser.add_argument("--repair", action="store_true", help="show the timeout repair")
    args = parser.parse_args()
    wait_for_ha()
    llm_url = start_demo_server() if args.demo else LLM_URL
    browser = Browser(onboard_and_login())
    try:
        browser.go("/config/integrations/dashboard")
        remove_old_entries(browser)
        entry_id = add_integration(browser, llm_url)
        open_options(browser)
        pipeline_id = choose_agent(browser)
        sentences = SENTENCES if args.demo else [*SENTENCES, MODEL_SENTENCE]
        assist(browser, sentences)
        debug(browser, pipeline_id, sentences)
        if args.repair:
            repair(browser, entry_id)
    except Exception:
        failed = Path(tempfile.gettempdir()) / "screenshots-failed.png"
        browser.driver.save_screenshot(str(failed))
        sys.stderr.write(f"failed; the page as it was: {failed}\n")
        raise
    finally:
        browser.driver.quit()


if __name__ == "__main__":
    main()
