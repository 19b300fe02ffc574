"""The public pages and signing in (issue 11, item 7 and item 2).

  - the public calculator with JavaScript (htmx answers as one types, the page
    does not navigate) and without it (a plain form post), both equal to the
    API's quote for the same input;
  - an operator signs in through the form and sees what is due, the session
    cookie is HttpOnly and SameSite=Strict, sign-out ends it;
  - the rules, calendar and statistics pages; axe-core on each.
"""

from common import (
    BASE,
    PASSWORD,
    api_total,
    axe_pages,
    fail,
    guard,
    report_axe,
    shot,
    visited,
    watch,
)


def run(browser):
    expected = api_total("2026-Q1", "12345.67")
    calculator_with_js(browser, expected)
    calculator_without_js(browser, expected)
    operator_signs_in(browser, js=True)
    operator_signs_in(browser, js=False)
    public_pages(browser)
    axe_public(browser)


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


def axe_public(browser):
    """axe-core on every public page visited (CSP bypassed only to inject axe)."""
    context = browser.new_context(bypass_csp=True)
    guard(context)
    page = context.new_page()
    serious = 0
    for url in sorted(set(visited)):
        if "/app/m/" in url:
            continue  # needs a session; checked below
        page.goto(url)
        serious += report_axe(page, url)
    context.close()
    if serious:
        fail(f"axe-core: {serious} serious or critical finding(s)")
    axe_pages(browser, "operator@montello.demo", ["/app/m/montello"])
