"""End-to-end tests of the web portal in headless Chromium (issue 11).

Run by tests/browser/run (which starts `roomtax serve --demo` and passes its
address and the demo password in the environment). Checks, each a failure
when wrong, never a skip:
  - the public calculator with JavaScript (htmx answers as one types, the page
    does not navigate) and without it (a plain form post), both equal to the
    API's quote for the same input;
  - an operator signs in through the form and sees what is due;
  - no request leaves 127.0.0.1 and no Content-Security-Policy violation is
    reported on any page;
  - axe-core on every page visited: serious or critical findings fail.
Screenshots of every page go to $ROOMTAX_BROWSER_ARTIFACTS.
"""

import json
import os
import sys
import urllib.request
from urllib.parse import urlparse

from playwright.sync_api import sync_playwright

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


def calculator_with_js(browser, expected):
    context = browser.new_context()
    guard(context)
    page = context.new_page()
    watch(page)
    page.goto(f"{BASE}/app/public/calculator")
    page.select_option("#municipality", "montello")
    page.fill("#period", "2026-Q1")
    page.fill("#gross_receipts", "12345.67")
    try:
        page.wait_for_function(
            "t => document.querySelector('#quote-result').innerText.includes(t)",
            arg=f"Total due: ${expected}",
            timeout=10000,
        )
    except Exception as e:  # noqa: BLE001
        fail(f"htmx calculator never showed the API's total {expected}: {e}")
    if not page.url.endswith("/app/public/calculator"):
        fail(f"the live calculator navigated to {page.url}")
    # A wrong amount: the API's message appears next to the field, live.
    page.fill("#gross_receipts", "12.345")
    try:
        page.wait_for_function(
            "() => document.querySelector('#error-gross_receipts').innerText.trim().length > 0",
            timeout=10000,
        )
    except Exception as e:  # noqa: BLE001
        fail(f"no error next to gross_receipts: {e}")
    shot(page, "calculator-live-error")
    page.fill("#gross_receipts", "12345.67")
    page.wait_for_function(
        "t => document.querySelector('#quote-result').innerText.includes(t)",
        arg=f"Total due: ${expected}",
        timeout=10000,
    )
    shot(page, "calculator-live")
    context.close()


def calculator_without_js(browser, expected):
    context = browser.new_context(java_script_enabled=False)
    guard(context)
    page = context.new_page()
    watch(page)
    page.goto(f"{BASE}/app/public/calculator")
    page.select_option("#municipality", "montello")
    page.fill("#period", "2026-Q1")
    page.fill("#gross_receipts", "12345.67")
    with page.expect_navigation():
        page.click("button[type=submit]:has-text('Calculate')")
    text = page.inner_text("#quote-result")
    if f"Total due: ${expected}" not in text:
        fail(f"plain form post: total {expected} not in {text[:300]!r}")
    shot(page, "calculator-no-js")
    context.close()


def operator_signs_in(browser, js):
    context = browser.new_context(java_script_enabled=js)
    guard(context)
    page = context.new_page()
    watch(page)
    page.goto(f"{BASE}/")
    shot(page, f"public-index{'' if js else '-no-js'}")
    page.goto(f"{BASE}/app/sign-in")
    shot(page, f"sign-in{'' if js else '-no-js'}")
    page.fill("#email", "operator@montello.demo")
    page.fill("#password", PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")
    if not page.url.endswith("/app/m/montello"):
        fail(f"after sign-in: {page.url}")
    if "What is due in" not in page.inner_text("main"):
        fail("the operator's home does not show what is due")
    shot(page, f"operator-home{'' if js else '-no-js'}")
    cookies = {c["name"]: c for c in context.cookies()}
    s = cookies.get("roomtax_session")
    if not s or not s["httpOnly"] or s["sameSite"] != "Strict":
        fail(f"session cookie attributes: {s}")
    with page.expect_navigation():
        page.click("header button:has-text('Sign out')")
    if not page.url.endswith("/app/public"):
        fail(f"after sign-out: {page.url}")
    context.close()


def public_pages(browser):
    context = browser.new_context()
    guard(context)
    page = context.new_page()
    watch(page)
    for name, path in [
        ("rules-montello", "/app/public/municipalities/montello?year=2026"),
        ("rules-hayward", "/app/public/municipalities/hayward?year=2026"),
        ("statistics-zone", "/app/public/zones/marquette-county/statistics?year=2025"),
    ]:
        page.goto(f"{BASE}{path}")
        shot(page, name)
    context.close()


def axe(browser):
    """axe-core on every page visited (CSP bypassed only to inject axe)."""
    context = browser.new_context(bypass_csp=True)
    guard(context)
    page = context.new_page()
    serious = 0
    for url in sorted(set(visited)):
        if "/app/m/" in url:
            continue  # needs a session; checked below
        page.goto(url)
        serious += report_axe(page, url)
    page.goto(f"{BASE}/app/sign-in")
    page.fill("#email", "operator@montello.demo")
    page.fill("#password", PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")
    serious += report_axe(page, page.url)
    context.close()
    if serious:
        fail(f"axe-core: {serious} serious or critical finding(s)")


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


def main():
    os.makedirs(ARTIFACTS, exist_ok=True)
    expected = api_total("2026-Q1", "12345.67")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        calculator_with_js(browser, expected)
        calculator_without_js(browser, expected)
        operator_signs_in(browser, js=True)
        operator_signs_in(browser, js=False)
        public_pages(browser)
        axe(browser)
        browser.close()
    if outside:
        fail(f"requests left 127.0.0.1: {sorted(set(outside))}")
    if csp_errors:
        fail(f"Content-Security-Policy violations: {csp_errors}")
    print(f"{len(set(visited))} pages visited, screenshots in {ARTIFACTS}")
    if failures:
        print(f"{len(failures)} browser check(s) failed")
        sys.exit(1)
    print("browser checks passed")


if __name__ == "__main__":
    main()
