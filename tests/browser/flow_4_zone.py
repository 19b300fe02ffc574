"""The zone's pages (issue 11, items 5, 6 and 8).

  - the tourism entity writes an expenditure report for 2025 (the demo has
    reported 2026 only) item by item: a lodging-facility item is refused with
    the API's message next to its field, corrected, added; the report is
    submitted and a receipt attached through the file field;
  - a commission member opens it, comments and accepts it;
  - the remittances, report back, SL-304 and chart pages render; each chart
    image loads (an SVG from /app/, under the CSP) and has its table;
  - screenshots of each page; axe-core on each.

Runs once per server (the runner starts a fresh demo each time): a second
run would find 2025 reported.
"""

from common import BASE, axe_pages, fail, guard, shot, sign_in, watch

ZONE = "/app/z/marquette-county"
TOURISM = "tourism@marquette-county.demo"
COMMISSION = "commission@marquette-county.demo"
PDF = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"


def run(browser):
    report = tourism_entity_reports(browser)
    if report:
        commission_accepts(browser, report)
    charts_and_figures(browser)
    paths = [ZONE, f"{ZONE}/expenditures", f"{ZONE}/expenditures/new"]
    if report:
        paths.append(report)
    axe_pages(browser, TOURISM, paths)
    axe_pages(
        browser,
        COMMISSION,
        [
            ZONE,
            f"{ZONE}/expenditures",
            f"{ZONE}/remittances?year=2026",
            f"{ZONE}/charts?year=2026",
            f"{ZONE}/report-back/montello?year=2026",
            f"{ZONE}/sl-304/montello?year=2026",
        ]
        + ([report] if report else []),
    )


def fill_item(page, payee, amount, lodging):
    page.fill("#new_date", "2025-05-12")
    page.fill("#new_payee", payee)
    page.fill("#new_amount", amount)
    page.select_option("#new_category", "marketing_projects")
    page.fill("#new_description", "Spring visitor campaign")
    page.check(f"#new_lodging-{lodging}")


def tourism_entity_reports(browser):
    context = browser.new_context()
    guard(context)
    page = context.new_page()
    watch(page)
    sign_in(page, TOURISM)
    page.goto(f"{BASE}{ZONE}")
    shot(page, "zone-home-tourism")
    with page.expect_navigation():
        page.click("text=Write an expenditure report")
    page.fill("#period_start", "2025-01-01")
    page.fill("#period_end", "2025-12-31")
    page.fill("#received_declared", "0.00")
    fill_item(page, "Lakeview Hotel Builders", "25000.00", "yes")
    with page.expect_navigation():
        page.click("button[name=action][value=add]")
    error = page.inner_text("#error-new_lodging")
    if "lodging facility" not in error:
        fail(f"the refused lodging item shows no error next to its field: {error!r}")
    if page.locator("input[name=i0_payee]").count() != 0:
        fail("the refused item was added to the draft")
    shot(page, "expenditure-draft-refused")
    # Corrected: the statement and the item.
    fill_item(page, "Marquette Print Shop", "1250.00", "no")
    with page.expect_navigation():
        page.click("button[name=action][value=add]")
    if page.locator("input[name=i0_payee]").get_attribute("value") != "Marquette Print Shop":
        fail("the corrected item is not on the draft")
    if page.inner_text("#error-new_lodging").strip():
        fail("an error is still shown after the correction")
    shot(page, "expenditure-draft-corrected")
    with page.expect_navigation():
        page.click("button[name=action][value=submit]")
    url = page.url
    if "/expenditures/" not in url or url.endswith("/new"):
        fail(f"submitting the report did not lead to it: {url}")
        context.close()
        return None
    if "submitted" not in page.inner_text("main"):
        fail("the submitted report does not say it is submitted")
    page.set_input_files(
        "#document", files=[{"name": "receipt.pdf", "mimeType": "application/pdf", "buffer": PDF}]
    )
    page.select_option("#kind", "receipt")
    with page.expect_navigation():
        page.click("form[enctype='multipart/form-data'] button")
    if "application/pdf" not in page.inner_text("main"):
        fail("the attached receipt is not listed on the report")
    shot(page, "expenditure-report-submitted")
    context.close()
    return url.replace(BASE, "")


def commission_accepts(browser, report):
    context = browser.new_context()
    guard(context)
    page = context.new_page()
    watch(page)
    sign_in(page, COMMISSION)
    page.goto(f"{BASE}{ZONE}")
    shot(page, "zone-home-commission")
    page.goto(f"{BASE}{report}")
    page.select_option("#act", "comment")
    page.fill("#text", "Thank you: the print run is well documented.")
    with page.expect_navigation():
        page.click("form[action$='/review'] button")
    page.select_option("#act", "accept")
    with page.expect_navigation():
        page.click("form[action$='/review'] button")
    main = page.inner_text("main")
    if "accepted by the commission" not in main:
        fail("the commission member's acceptance is not shown")
    if "well documented" not in main:
        fail("the commission member's comment is not in the review trail")
    shot(page, "expenditure-report-accepted")
    page.goto(f"{BASE}/app/m/montello")
    if "Lakeside" in page.content():
        fail("a commission member sees an operator on /app/m/montello")
    context.close()


def charts_and_figures(browser):
    context = browser.new_context()
    guard(context)
    page = context.new_page()
    watch(page)
    sign_in(page, COMMISSION)
    for path, name in [
        (f"{ZONE}/remittances?year=2026", "zone-remittances"),
        (f"{ZONE}/report-back/montello?year=2026", "zone-report-back"),
        (f"{ZONE}/sl-304/montello?year=2026", "zone-sl-304"),
        (f"{ZONE}/expenditures", "zone-expenditure-reports"),
    ]:
        res = page.goto(f"{BASE}{path}")
        if res.status != 200:
            fail(f"{path} answered {res.status}")
        shot(page, name)
    page.goto(f"{BASE}{ZONE}/charts?year=2026")
    page.wait_for_load_state("networkidle")
    images = page.locator("figure.chart img")
    if images.count() != 2:
        fail(f"expected 2 charts, found {images.count()}")
    for i in range(images.count()):
        width = images.nth(i).evaluate("img => img.complete ? img.naturalWidth : 0")
        if not width:
            fail(f"chart {i} did not render")
    if page.locator("figure.chart table").count() != images.count():
        fail("a chart has no table of its numbers")
    shot(page, "zone-charts")
    context.close()
