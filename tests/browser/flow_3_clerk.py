"""The clerk-treasurer's pages (issue 11, item 4), in a browser without
JavaScript (every step is a plain link or form post):

  - clerk@montello.demo signs in and opens the dashboard from the home page;
  - opens the payor registry and the demo campground, which owes its unpaid
    2025 returns; reads the balance on its statement page;
  - records a payment of exactly that balance through the payor page's form,
    sees the receipt with the allocation, and the statement then shows 0.00;
  - sees the late 2026-Q1 return the operator filed in flow_2_operator (the
    flows run in name order against one server) among the period's late
    returns, with the motel's balance on its statement;
  - screenshots of each page; axe-core on every clerk page.
"""

from common import BASE, axe_pages, fail, guard, shot, sign_in, watch

CAMPGROUND = "5b0c8c1e-0000-4000-8000-000000000002"
CLERK = f"/app/m/montello/clerk"
PAYOR = f"{CLERK}/payors/{CAMPGROUND}"


MOTEL = "5b0c8c1e-0000-4000-8000-000000000001"


def run(browser):
    sees_the_operators_late_return(browser)
    pays_the_campground(browser)
    axe_pages(
        browser,
        "clerk@montello.demo",
        [
            CLERK,
            f"{CLERK}/payors",
            PAYOR,
            f"{PAYOR}/statement",
            f"{PAYOR}/notices",
            f"{CLERK}/returns?period=2025-Q4",
            f"{CLERK}/returns?period=2025-Q4&status=missing",
            f"{CLERK}/delinquencies",
            f"{CLERK}/extensions",
            f"{CLERK}/users",
            f"{CLERK}/remittances?year=2026",
            f"{CLERK}/access-log",
        ],
    )


def sees_the_operators_late_return(browser):
    context = browser.new_context(java_script_enabled=False)
    guard(context)
    page = context.new_page()
    watch(page)
    sign_in(page, "clerk@montello.demo")
    page.goto(f"{BASE}{CLERK}/returns?period=2026-Q1&status=filed_late")
    if MOTEL not in page.content() or "Lakeside Motel LLC" not in page.inner_text("main"):
        fail("the clerk's late returns of 2026-Q1 do not list the motel the operator filed late")
    shot(page, "clerk-sees-the-operators-late-return")
    page.goto(f"{BASE}{CLERK}/payors/{MOTEL}/statement")
    if "2026-Q1" not in page.inner_text("main"):
        fail("the motel's statement does not show the 2026-Q1 return the operator filed")
    shot(page, "clerk-motel-statement")
    context.close()


def text(page, selector):
    found = page.query_selector(selector)
    return found.inner_text().strip() if found else None


def pays_the_campground(browser):
    context = browser.new_context(java_script_enabled=False)
    guard(context)
    page = context.new_page()
    watch(page)
    landed = sign_in(page, "clerk@montello.demo")
    if not landed.endswith("/app/m/montello"):
        fail(f"the clerk landed on {landed}, not Montello's home")
    with page.expect_navigation():
        page.click("text=The clerk-treasurer's dashboard")
    if "/clerk" not in page.url or not page.query_selector("#count-missing"):
        fail(f"no dashboard at {page.url}")
    shot(page, "clerk-dashboard")
    with page.expect_navigation():
        page.click("nav.clerk >> text=Payors")
    shot(page, "clerk-payors")
    with page.expect_navigation():
        page.click("text=Buffalo Lake Campground Inc.")
    if not page.url.endswith(PAYOR):
        fail(f"the campground's page is {page.url}")
    shot(page, "clerk-payor")
    with page.expect_navigation():
        page.click("text=The full statement of account")
    balance = text(page, "#balance-total")
    shot(page, "clerk-statement-before")
    if not balance or balance == "0.00" or balance.startswith("-"):
        fail(f"the campground should owe its 2025 returns; its balance reads {balance!r}")
        context.close()
        return
    page.goto(f"{BASE}{PAYOR}")
    page.fill("#amount", balance)
    page.fill("#reference", "check 4471")
    page.select_option("#method", "check")
    with page.expect_navigation():
        page.click("#payment-form button[type=submit]")
    if "/payments/" not in page.url:
        fail(f"recording the payment did not lead to its receipt: {page.url}: {text(page, 'main')}")
    elif text(page, "#payment-amount") != balance:
        fail(f"the receipt shows {text(page, '#payment-amount')!r}, not {balance}")
    if not page.query_selector("#allocation tbody tr"):
        fail("the receipt shows no allocation")
    shot(page, "clerk-payment-receipt")
    with page.expect_navigation():
        page.click("main >> text=The statement of account")
    after = text(page, "#balance-total")
    if after != "0.00":
        fail(f"after paying {balance} the statement shows {after!r}, not 0.00")
    shot(page, "clerk-statement-after")
    # The printed statement: the print stylesheet drops the menus and forms.
    page.emulate_media(media="print")
    if page.is_visible("nav.clerk"):
        fail("the clerk's menu shows on the printed statement")
    shot(page, "clerk-statement-print")
    page.emulate_media(media="screen")
    page.goto(f"{BASE}{PAYOR}/notices")
    if not page.query_selector("#notices a[download]"):
        fail("the campground's notices page offers no PDF")
    shot(page, "clerk-notices")
    page.goto(f"{BASE}{CLERK}/delinquencies")
    shot(page, "clerk-delinquencies")
    page.goto(f"{BASE}{CLERK}/returns?period=2025-Q4&status=missing")
    shot(page, "clerk-returns-missing")
    # The users and grants page (clerk-treasurer only), reached from the clerk's menu.
    with page.expect_navigation():
        page.click("nav.clerk >> text=Users and grants")
    if not page.query_selector("form[action$='/clerk/users'] #email"):
        fail(f"no grant form on {page.url}")
    shot(page, "clerk-users")
    context.close()
