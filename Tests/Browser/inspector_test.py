#!/usr/bin/env python3
"""objdb-inspect serve in a real browser: Debian's headless Chromium driven by Selenium.

Builds a store with objdb-demo, adds the hostile strings of hostile-strings.ndjson (markup, quotes,
bidirectional controls), serves it, and checks what a person does: opens the URL, browses a type,
sorts, queries with a typo and sees the caret, follows a link and a backlink and comes back, watches
a row appear while another process writes, downloads an export; that no stored string runs as
script, that no request without the token is answered, and that the console stays free of errors.

    python3 Tests/Browser/inspector_test.py --build .build/debug [--screenshot PATH]
"""

import argparse
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import (NoAlertPresentException, NoSuchElementException,
                                        StaleElementReferenceException, TimeoutException)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as conditions
from selenium.webdriver.support.ui import WebDriverWait

HERE = os.path.dirname(os.path.abspath(__file__))
# The demo store `make demo` leaves and prints the serve command of (the Makefile's DEMO_STORE).
DEMO_STORE = os.path.join(".build", "demo.objdb")
passed = []
failed = []


def check(name, condition, detail=""):
    if condition:
        passed.append(name)
        print(f"✔ {name}")
    else:
        failed.append(name)
        print(f"✘ {name} {detail}")


class Inspector:
    """objdb-inspect STORE serve --port 0, stopped with Ctrl-C."""

    def __init__(self, build, store, cwd=None):
        self.process = subprocess.Popen(
            [os.path.abspath(os.path.join(build, "objdb-inspect")), store, "serve", "--port", "0", "--time-limit", "3000"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd)
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("objdb-inspect serve ended: " + "".join(lines))
            lines.append(line)
            found = re.search(r"(http://127\.0\.0\.1:(\d+))/\?token=([0-9a-f]+)", line)
            if found:
                self.url, self.base, self.port, self.token = found.group(0), found.group(1), int(found.group(2)), found.group(3)
                break

    def stop(self):
        self.process.send_signal(2)  # SIGINT, as Ctrl-C
        try:
            output, _ = self.process.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return False, ""
        return self.process.returncode == 0, output


def status_of(url, headers=None, method="GET"):
    request = urllib.request.Request(url, headers=headers or {}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8", "replace")


def raw_status(port, path, host):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.putrequest("GET", path, skip_host=True)
    connection.putheader("Host", host)
    connection.endheaders()
    response = connection.getresponse()
    body = response.read().decode("utf-8", "replace")
    connection.close()
    return response.status, body


def browser(download_directory, width=1280, height=800):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}", "--lang=en-US"]:
        options.add_argument(argument)
    options.add_experimental_option("prefs", {
        "download.default_directory": download_directory, "download.prompt_for_download": False})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": download_directory})
    return driver


def wait(driver, condition, seconds=10):
    # The live page re-renders rows as change sets arrive, so an element found a moment ago can
    # be replaced before it is read: such a read is retried, not a failure.
    return WebDriverWait(driver, seconds, poll_frequency=0.02,
                         ignored_exceptions=(NoSuchElementException, StaleElementReferenceException)).until(condition)


def attribute(driver, selector, name, seconds=5):
    """`name` of the element `selector` finds now, read again if the page replaces the element."""
    return wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, selector).get_attribute(name) or " ", seconds)


def rows(driver):
    return driver.find_elements(By.CSS_SELECTOR, "#objects tr[data-key]")


def column(driver, name):
    cells = driver.find_elements(By.CSS_SELECTOR, f'#objects tr[data-key] td[data-column="{name}"]')
    return [cell.text for cell in cells]


def pwned(driver):
    return driver.execute_script("return window.__pwned === undefined ? null : String(window.__pwned)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", default=".build/debug")
    parser.add_argument("--screenshot", help="where to save the README's screenshot (PNG)")
    arguments = parser.parse_args()
    started = time.monotonic()
    directory = tempfile.mkdtemp(prefix="objdb-browser-")
    downloads = os.path.join(directory, "downloads")
    os.mkdir(downloads)
    store = os.path.join(directory, "demo.objdb")
    subprocess.run([os.path.join(arguments.build, "objdb-demo"), store], check=True, stdout=subprocess.DEVNULL)
    # The picture shows the store's path: the one `make demo` prints, relative to a directory of its own.
    screenshot_root = os.path.join(directory, "screenshot")
    screenshot_store = os.path.join(screenshot_root, DEMO_STORE)
    os.makedirs(os.path.dirname(screenshot_store))
    shutil.copy(store, screenshot_store)
    subprocess.run([os.path.join(arguments.build, "objdb-inspect"), store, "import", os.path.join(HERE, "hostile-strings.ndjson")],
                   check=True, stdout=subprocess.DEVNULL)
    inspector = Inspector(arguments.build, store)
    driver = None
    try:
        # ---- no token, no answer ----
        for path in ["/", "/api/info", "/api/schema", "/api/objects?type=Tweet", "/api/export?type=Tweet",
                     "/api/events?type=Tweet", "/assets/inspector.js", "/types/Tweet"]:
            status, body = status_of(inspector.base + path)
            check(f"{path} without the token is refused", status == 401 and "Tweet" not in body and store not in body,
                  f"({status}: {body[:80]})")
        status, body = status_of(inspector.base + "/api/info?token=" + "0" * 64)
        check("a wrong token is refused", status == 401)
        status, body = raw_status(inspector.port, "/api/info?token=" + inspector.token, "rebound.example.com")
        check("a Host that is not the loopback is refused (DNS rebinding)", status == 403 and store not in body)
        status, _ = status_of(inspector.base + "/api/info", {"Authorization": "token " + inspector.token,
                                                              "Origin": "http://evil.example.com"})
        check("a request from another origin is refused", status == 403)
        status, _ = status_of(inspector.base + "/api/info", {"Authorization": "token " + inspector.token}, method="POST")
        check("nothing writes: POST is not allowed", status == 405)
        status, body = status_of(inspector.base + "/api/info", {"Authorization": "token " + inspector.token})
        check("the token answers", status == 200 and json.loads(body)["path"] == store)

        driver = browser(downloads)
        # ---- open the URL ----
        driver.get(inspector.url)
        wait(driver, conditions.presence_of_element_located((By.CSS_SELECTOR, "#type-list a[data-type=Tweet]")))
        check("the token leaves the address bar for a cookie", "token=" not in driver.current_url)
        wait(driver, lambda d: "Overview" in d.find_element(By.ID, "main").text)
        overview = driver.find_element(By.ID, "main").text
        check("the overview shows each type with its count", "Tweet" in overview and "201" in overview and "TwitterUser" in overview)
        headers = urllib.request.urlopen(urllib.request.Request(inspector.base + "/", headers={"Authorization": "token " + inspector.token})).headers
        check("the page forbids inline script (CSP)", "script-src 'self'" in (headers.get("Content-Security-Policy") or "")
              and "unsafe-inline" not in headers.get("Content-Security-Policy"))

        # ---- browse a type ----
        driver.find_element(By.CSS_SELECTOR, "#type-list a[data-type=Tweet]").click()
        wait(driver, lambda d: len(rows(d)) == 50)
        check("browsing Tweet shows a page of 50", len(rows(driver)) == 50)
        check("the count shows", "201 objects" in driver.find_element(By.ID, "count").text)
        first_page = [row.get_attribute("data-key") for row in rows(driver)]
        driver.find_element(By.ID, "next").click()
        wait(driver, lambda d: rows(d) and rows(d)[0].get_attribute("data-key") != first_page[0])
        second_page = [row.get_attribute("data-key") for row in rows(driver)]
        check("the next page follows the first", int(second_page[0]) > int(first_page[-1]) and "after=" in driver.current_url)
        driver.find_element(By.ID, "previous").click()
        wait(driver, lambda d: rows(d) and rows(d)[0].get_attribute("data-key") == first_page[0])
        check("the previous page is the first again", [row.get_attribute("data-key") for row in rows(driver)] == first_page)

        # ---- sort ----
        driver.find_element(By.CSS_SELECTOR, 'th[data-column="retweetCount"]').click()
        wait(driver, lambda d: "sort=retweetCount" in d.current_url and len(rows(d)) == 50)
        values = [int(value) for value in column(driver, "retweetCount")]
        check("a click on a header sorts ascending", values == sorted(values) and values[0] == 0, values[:5])
        driver.find_element(By.CSS_SELECTOR, 'th[data-column="retweetCount"]').click()
        wait(driver, lambda d: "sort=-retweetCount" in d.current_url and len(rows(d)) == 50)
        values = [int(value) for value in column(driver, "retweetCount")]
        check("a second click sorts descending", values == sorted(values, reverse=True), values[:5])

        # ---- query with a typo: the caret ----
        query = driver.find_element(By.ID, "query")
        query.clear()
        typo = "retweetCount >> 90"
        query.send_keys(typo + Keys.ENTER)
        caret = wait(driver, conditions.visibility_of_element_located((By.ID, "caret")))
        message = driver.find_element(By.ID, "error-message").text
        shown = driver.find_element(By.ID, "error-text").text
        check("a syntax error shows its message", len(message) > 0, message)
        check("the caret stands under the typed text", shown == typo and caret.text.rstrip() == " " * 14 + "^",
              repr(caret.text))
        query.clear()
        query.send_keys("retweetCount > 90 AND text CONTAINS 'Swift'" + Keys.ENTER)
        wait(driver, lambda d: "q=retweetCount" in d.current_url and rows(d))
        counts = [int(value) for value in column(driver, "retweetCount")]
        texts = column(driver, "text")
        check("the query filters", counts and all(count > 90 for count in counts) and all("Swift" in text for text in texts))
        check("the filter lives in the URL", "q=retweetCount+%3E+90" in driver.current_url or "q=retweetCount%20%3E%2090" in driver.current_url,
              driver.current_url)
        driver.refresh()
        wait(driver, lambda d: rows(d))
        check("reloading keeps the query", driver.find_element(By.ID, "query").get_attribute("value").startswith("retweetCount > 90")
              and len(rows(driver)) == len(counts))
        driver.find_element(By.ID, "explain").click()
        plan = wait(driver, conditions.visibility_of_element_located((By.ID, "plan-text"))).text
        check("explain() is one click away", plan.startswith("Tweet:") and "filter" in plan, plan)

        # ---- follow a link, then a backlink, and come back ----
        link = driver.find_element(By.CSS_SELECTOR, '#objects td[data-column="user"] a')
        user = link.text
        link.click()
        wait(driver, lambda d: d.find_element(By.TAG_NAME, "h1").text.startswith(user))
        check("a link opens the object it points to", "/objects/TwitterUser/" in driver.current_url)
        backlink = driver.find_element(By.CSS_SELECTOR, '#properties td[data-property="tweets"] a')
        count = int(backlink.text.split()[0])
        backlink.click()
        wait(driver, lambda d: len(rows(d)) > 0 and ".tweets" in d.find_element(By.TAG_NAME, "h1").text)
        owners = set(column(driver, "user"))
        check("a backlink opens the objects that link here", owners == {user} and len(rows(driver)) == min(count, 50),
              f"{owners} {len(rows(driver))}")
        driver.back()
        wait(driver, lambda d: d.find_elements(By.ID, "properties"))
        check("back returns to the object", "/objects/TwitterUser/" in driver.current_url and "/tweets" not in driver.current_url)
        driver.back()
        wait(driver, lambda d: "/types/Tweet" in d.current_url and rows(d))
        check("back again returns to the query", "q=retweetCount" in driver.current_url)
        driver.forward()
        wait(driver, lambda d: d.find_elements(By.ID, "properties"))
        check("forward works too", "/objects/TwitterUser/" in driver.current_url)

        # ---- live: another process writes ----
        driver.get(inspector.base + "/types/Tweet?sort=-id")
        wait(driver, lambda d: len(rows(d)) == 50 and d.find_element(By.ID, "live-state").text == "● live")
        time.sleep(0.3)
        new_tweet = os.path.join(directory, "new-tweet.ndjson")
        with open(new_tweet, "w") as file:
            file.write(json.dumps({"_type": "Tweet", "_key": 999999, "id": 999999, "text": "written by another process",
                                   "createdAt": "2026-01-01T00:00:00Z", "retweetCount": 7, "user": 1}) + "\n")
        subprocess.run([os.path.join(arguments.build, "objdb-inspect"), store, "import", new_tweet], check=True,
                       stdout=subprocess.DEVNULL)
        committed = time.monotonic()
        appeared = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, 'tr[data-key="999999"]'), 10)
        delay = time.monotonic() - committed
        check(f"a row another process commits appears ({delay * 1000:.0f} ms after the writer exits)", delay < 2.0)
        check("the new row is marked", "inserted" in attribute(driver, 'tr[data-key="999999"]', "class"))
        wait(driver, lambda d: "202 objects" in d.find_element(By.ID, "count").text)
        check("the count follows", True)
        with open(new_tweet, "w") as file:
            file.write(json.dumps({"_type": "Tweet", "_key": 999999, "retweetCount": 8}) + "\n")
        subprocess.run([os.path.join(arguments.build, "objdb-inspect"), store, "import", new_tweet], check=True,
                       stdout=subprocess.DEVNULL)
        cell_classes = wait(driver, lambda d: [c.get_attribute("class") or "" for c in d.find_elements(
            By.CSS_SELECTOR, 'tr[data-key="999999"] td[data-column="retweetCount"]') if c.text == "8"])
        check("a modified cell flashes", "flash" in cell_classes[0])

        # ---- export ----
        driver.get(inspector.base + "/types/Tweet?q=retweetCount+%3E+90")
        wait(driver, lambda d: rows(d))
        shown_count = int(driver.find_element(By.ID, "count").text.split()[0]) if driver.find_element(By.ID, "count").text else None
        driver.find_element(By.ID, "export-ndjson").click()
        target = os.path.join(downloads, "Tweet.ndjson")
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not os.path.exists(target):
            time.sleep(0.1)
        lines = open(target).read().splitlines() if os.path.exists(target) else []
        exported = [json.loads(line) for line in lines]
        check("the export downloads the query's objects", exported and all(row["retweetCount"] > 90 for row in exported)
              and len(exported) == shown_count, f"{len(exported)} vs {shown_count}")

        # ---- hostile strings show as text ----
        driver.get(inspector.base + "/types/TwitterUser")
        wait(driver, lambda d: len(rows(d)) == 10)
        text = driver.find_element(By.ID, "objects").text
        check("<script> in a stored string shows as text", "<script>window.__pwned='script'</script>" in text)
        check("markup in a stored string shows as text", "<img src=x onerror=" in text
              and not driver.find_elements(By.CSS_SELECTOR, "#objects img"))
        controls = [node.text for node in driver.find_elements(By.CSS_SELECTOR, "#objects .ctl")]
        check("bidi controls show as their codes", "U+202E" in controls and "U+2066" in controls, controls)
        driver.get(inspector.base + "/objects/Tweet/6660")
        wait(driver, lambda d: d.find_elements(By.ID, "properties"))
        page = driver.find_element(By.ID, "main").text
        check("an object's page shows hostile text as text", "</td></tr><script>" in page and "javascript:" in page)
        check("no link carries a javascript: URL", not driver.execute_script(
            "return [...document.querySelectorAll('a')].some(a => a.href.startsWith('javascript:'))"))
        try:
            driver.switch_to.alert
            alert = True
        except NoAlertPresentException:
            alert = False
        check("no stored string ran as script", pwned(driver) is None and not alert, pwned(driver))

        # ---- schema and check ----
        driver.get(inspector.base + "/schema")
        paths = wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "svg.diagram path.link"))
        check("the schema draws links, lists and backlinks", paths and driver.find_elements(By.CSS_SELECTOR, "svg.diagram path.list")
              and driver.find_elements(By.CSS_SELECTOR, "svg.diagram path.backlink"))
        driver.get(inspector.base + "/check")
        wait(driver, lambda d: d.find_elements(By.ID, "run-check")).pop().click()
        status = wait(driver, lambda d: "ok:" in d.find_element(By.ID, "check-status").text and d.find_element(By.ID, "check-status"))
        check("check runs and reports", "consistent" in status.text)

        # ---- the console ----
        errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        check("the console recorded no errors", not errors, errors)
    finally:
        if driver:
            driver.quit()
        stopped, output = inspector.stop()
        check("Ctrl-C stops the server cleanly", stopped, output)

    if arguments.screenshot:
        take_screenshot(arguments, screenshot_root, downloads)
    shutil.rmtree(directory, ignore_errors=True)
    print(f"browser test: {time.monotonic() - started:.1f} s")
    print(f"{len(passed)} passed, {len(failed)} failed")
    return 1 if failed else 0


def take_screenshot(arguments, root, downloads):
    """The README's picture: the demo store's tweets, queried and sorted, served as `make demo` says
    (objdb-inspect .build/demo.objdb serve), from `root`."""
    inspector = Inspector(arguments.build, DEMO_STORE, cwd=root)
    driver = browser(downloads, 1200, 760)
    try:
        driver.get(inspector.url)
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#type-list a[data-type=Tweet]"))
        driver.get(inspector.base + "/types/Tweet?q=retweetCount+%3E+50+AND+text+CONTAINS%5Bc%5D+%27swift%27&sort=-createdAt")
        wait(driver, lambda d: len(rows(d)) > 5 and d.find_element(By.ID, "live-state").text == "● live")
        time.sleep(0.5)
        os.makedirs(os.path.dirname(os.path.abspath(arguments.screenshot)), exist_ok=True)
        driver.save_screenshot(arguments.screenshot)
        check(f"screenshot saved to {arguments.screenshot}", os.path.getsize(arguments.screenshot) > 10_000)
    finally:
        driver.quit()
        inspector.stop()


if __name__ == "__main__":
    sys.exit(main())
