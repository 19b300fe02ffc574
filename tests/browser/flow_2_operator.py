"""The operator's pages (issue 11, item 3), signed in as operator@montello.demo.

  - with JavaScript: from the home page's obligations, the first past-due
    unfiled quarter's form; the tax appears live as the gross receipts are
    typed (htmx, the page does not navigate) and equals the API's quote;
    filed late, the result shows the late filing fee;
  - without JavaScript: the next unfiled quarter through the same form as a
    zero return (0.00, the "File the return" button, a plain post and 303);
  - a zero return in one click from the home page (the button), the
    statement of account (and in print), the notices;
  - axe-core on each page added (form, filed return, statement).
"""

import json
import re
import urllib.request

from common import BASE, axe_pages, fail, guard, shot, sign_in, watch

EMAIL = "operator@montello.demo"
# The motel's 2025 tax on file in the demo (src/demo/zone.rs): Montello's
# late-payment forfeiture is a share of it, and the filing uses it.
PREVIOUS_YEAR_TAX = "4380.75"


def api_quote(period, gross, on):
    body = json.dumps(
        {
            "period": period,
            "gross_receipts": gross,
            "filed_on": on,
            "paid_on": on,
            "previous_year_tax": PREVIOUS_YEAR_TAX,
        }
    ).encode()
    req = urllib.request.Request(
        f"{BASE}/v1/municipalities/montello/quotes",
        data=body,
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(req) as res:
        return json.load(res)


def unfiled_forms(page):
    """The file-form links of the home page's past-due unfiled returns, in order."""
    page.goto(f"{BASE}/app/m/montello")
    hrefs = page.eval_on_selector_all(
        "main a[href$='/file']", "els => els.map(e => e.getAttribute('href'))"
    )
    return [h for h in hrefs if "-Q" in h]


def run(browser):
    visited_pages = []
    late_with_js(browser, visited_pages)
    zero_without_js(browser, visited_pages)
    one_click_zero(browser, visited_pages)
    if visited_pages:
        axe_pages(browser, EMAIL, visited_pages)


def late_with_js(browser, visited_pages):
    context = browser.new_context()
    guard(context)
    page = context.new_page()
    watch(page)
    sign_in(page, EMAIL)
    forms = unfiled_forms(page)
    shot(page, "operator-home")
    if not forms:
        fail("the operator's home lists no unfiled past-due quarter to file")
        context.close()
        return
    path = forms[0]
    period = re.search(r"/returns/([^/]+)/file", path).group(1)
    page.goto(f"{BASE}{path}")
    visited_pages.append(path)
    today = page.evaluate(
        "() => new Date().toLocaleDateString('en-CA', {timeZone: 'America/Chicago'})"
    )
    quote = api_quote(period, "8765.43", today)
    expected = f"Amount due: ${quote['total_due']}"
    page.type("#gross_receipts", "8765.43", delay=30)
    try:
        page.wait_for_function(
            "t => document.querySelector('#preview').innerText.includes(t)",
            arg=expected,
            timeout=10000,
        )
    except Exception as e:  # noqa: BLE001
        fail(f"the live preview never showed the API's {expected}: {e}")
    if not page.url.endswith(path):
        fail(f"the live preview navigated to {page.url}")
    if quote["late_filing_fee"] == "0.00":
        fail(f"{period} is not late by the API's quote: {quote}")
    shot(page, "operator-file-live")
    page.fill("#signer_name", "Pat Lakeside")
    page.fill("#signer_title", "Owner")
    page.check("#attested")
    with page.expect_navigation():
        page.click("button[value=file]")
    if "/filed/" not in page.url:
        fail(f"filing did not land on the return: {page.url}")
    text = page.inner_text("main")
    if f"late filing fee of ${quote['late_filing_fee']}" not in text:
        fail(f"the filed return does not show the fee {quote['late_filing_fee']}: {text[:400]}")
    visited_pages.append(page.url.replace(BASE, ""))
    shot(page, "operator-filed-late")
    context.close()


def zero_without_js(browser, visited_pages):
    context = browser.new_context(java_script_enabled=False)
    guard(context)
    page = context.new_page()
    watch(page)
    sign_in(page, EMAIL)
    forms = unfiled_forms(page)
    if not forms:
        fail("no unfiled quarter left for the zero return without JavaScript")
        context.close()
        return
    path = forms[0]
    period = re.search(r"/returns/([^/]+)/file", path).group(1)
    today = page.evaluate(
        "() => new Date().toLocaleDateString('en-CA', {timeZone: 'America/Chicago'})"
    )
    due = f"Amount due: ${api_quote(period, '0.00', today)['total_due']}"
    page.goto(f"{BASE}{path}")
    page.fill("#gross_receipts", "0.00")
    with page.expect_navigation():
        page.click("button[value=preview]")
    if due not in page.inner_text("#preview"):
        fail(f"the Preview button without JavaScript did not show the API's {due}: {page.inner_text('#preview')[:300]}")
    shot(page, "operator-zero-preview-nojs")
    page.fill("#signer_name", "Pat Lakeside")
    page.fill("#signer_title", "Owner")
    page.check("#attested")
    with page.expect_navigation():
        page.click("button[value=file]")
    if "/filed/" not in page.url:
        fail(f"the zero return without JavaScript did not land on the return: {page.url}")
    elif due not in page.inner_text("main"):
        fail(f"the zero return's page does not show the API's {due}")
    shot(page, "operator-zero-filed-nojs")
    context.close()


def one_click_zero(browser, visited_pages):
    context = browser.new_context()
    guard(context)
    page = context.new_page()
    watch(page)
    sign_in(page, EMAIL)
    page.goto(f"{BASE}/app/m/montello")
    buttons = page.locator("main form.inline button")
    if buttons.count() == 0:
        fail("no one-click zero-return button on the operator's home")
    else:
        with page.expect_navigation():
            buttons.first.click()
        if "/filed/" not in page.url:
            fail(f"the one-click zero return did not land on the return: {page.url}")
        shot(page, "operator-zero-one-click")
    page.goto(f"{BASE}/app/m/montello")
    link = page.locator("main a", has_text="Statement of account").first
    with page.expect_navigation():
        link.click()
    if "Balance:" not in page.inner_text("main"):
        fail("the statement of account shows no balance")
    visited_pages.append(page.url.replace(BASE, ""))
    shot(page, "operator-statement")
    page.emulate_media(media="print")
    shot(page, "operator-statement-print")
    page.emulate_media(media="screen")
    with page.expect_navigation():
        page.locator("main a", has_text="Notices").first.click()
    if "Notices" not in page.inner_text("main h1"):
        fail(f"the notices page did not open: {page.url}")
    visited_pages.append(page.url.replace(BASE, ""))
    shot(page, "operator-notices")
    context.close()
