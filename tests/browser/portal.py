"""End-to-end tests of the web portal in headless Chromium (issue 11).

Run by tests/browser/run (which starts `roomtax serve --demo` and passes its
address and the demo password in the environment). Runs every flow module
`flow_*.py` in this folder, in name order, against the same server and
browser; each check is a failure when wrong, never a skip. Across all flows:
no request may leave 127.0.0.1 and no Content-Security-Policy violation may be
reported. Screenshots of every page go to $ROOMTAX_BROWSER_ARTIFACTS.
`ROOMTAX_BROWSER_ONLY=flow_x` runs one flow (while writing it).
"""

import glob
import importlib
import os
import sys

from playwright.sync_api import sync_playwright

from common import ARTIFACTS, CHROMIUM, csp_errors, fail, failures, outside, visited


def main():
    os.makedirs(ARTIFACTS, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    names = sorted(os.path.basename(f)[:-3] for f in glob.glob(os.path.join(here, "flow_*.py")))
    only = os.environ.get("ROOMTAX_BROWSER_ONLY")
    if only:
        names = [n for n in names if n == only]
    if not names:
        fail("no browser flow to run")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for name in names:
            print(f"flow {name}")
            before = len(failures)
            importlib.import_module(name).run(browser)
            print(f"flow {name}: {'ok' if len(failures) == before else 'FAILED'}")
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
