"""Shared pieces of the browser tests (tests/browser/run starts the server).

Every flow module `flow_*.py` in this folder exposes `run(browser)` and uses
these helpers: `fail` records a failure (the run exits 1 at the end, never a
skip), `guard` aborts any request leaving 127.0.0.1, `watch` records CSP
violations, `shot` saves a full-page screenshot (and remembers the page for
axe-core), `sign_in` signs a person in through the form, `axe_pages` runs
axe-core (serious or critical findings fail) on pages that need a session.
"""

import json
import os
import urllib.request
from urllib.parse import urlparse

BASE = os.environ["ROOMTAX_BASE_URL"]
PASSWORD = os.environ["ROOMTAX_DEMO_PASSWORD"]
AXE = os.environ["ROOMTAX_AXE_JS"]
ARTIFACTS = os.environ["ROOMTAX_BROWSER_ARTIFACTS"]
CHROMIUM = os.environ.get("ROOMTAX_CHROMIUM", "/usr/bin/chromium")

failures = []
outside = []
csp_errors = []
visited = []


def fail(message):
    print(f"FAIL: {message}")
    failures.append(message)


def api_total(period, gross):
    body = json.dumps({"period": period, "gross_receipts": gross}).encode()
    req = urllib.request.Request(
        f"{BASE}/v1/municipalities/montello/quotes",
        data=body,
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req) as res:
        return json.load(res)["total_due"]


def guard(context):
    """Abort and record any request that would leave 127.0.0.1."""

    def route(route):
        host = urlparse(route.request.url).hostname
        if host not in ("127.0.0.1",):
            outside.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    context.route("**/*", route)


def watch(page):
    def on_console(msg):
        if "Content Security Policy" in msg.text or "Refused to" in msg.text:
            csp_errors.append(f"{page.url}: {msg.text}")

    page.on("console", on_console)


def shot(page, name):
    visited.append(page.url)
    page.screenshot(path=os.path.join(ARTIFACTS, f"{name}.png"), full_page=True)


def report_axe(page, url):
    page.add_script_tag(path=AXE)
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    count = 0
    if "violations" not in result or "passes" not in result:
        fail(f"axe-core did not run on {url}: {str(result)[:200]}")
    print(f"axe: {len(result['violations'])} violation(s), {len(result['passes'])} rule(s) passed on {url}")
    for v in result["violations"]:
        nodes = len(v["nodes"])
        print(f"axe {v['impact']:>8} {v['id']} ({nodes} node(s)) on {url}: {v['help']}")
        if v["impact"] in ("serious", "critical"):
            count += 1
    return count



def sign_in(page, email):
    """Sign `email` in through the form on `page`; returns the URL landed on."""
    page.goto(f"{BASE}/app/sign-in")
    page.fill("#email", email)
    page.fill("#password", PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")
    return page.url


def axe_pages(browser, email, paths):
    """axe-core on each of `paths` signed in as `email` (CSP bypassed only to inject axe)."""
    context = browser.new_context(bypass_csp=True)
    guard(context)
    page = context.new_page()
    sign_in(page, email)
    serious = 0
    for path in paths:
        page.goto(f"{BASE}{path}")
        serious += report_axe(page, page.url)
    context.close()
    if serious:
        fail(f"axe-core: {serious} serious or critical finding(s) signed in as {email}")
