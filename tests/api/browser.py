"""Headless Chromium for the inspector's browser tests: Debian's chromium and chromedriver, never a download."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]


def missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not Path(path).exists():
            return f"{path} is missing (apt-get install -y chromium chromium-driver; .ci/run does)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


@contextmanager
def chromium(width: int = 1280, height: int = 800, *, network_log: bool = False) -> Iterator[object]:
    """A Selenium driver on a fresh profile; Selenium Manager is never consulted (SE_OFFLINE, explicit paths).
    `network_log` records the browser's network events (`response_headers` reads them)."""
    reason = missing()
    if reason:
        pytest.skip(reason)
    os.environ["SE_OFFLINE"] = "true"
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="credo-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS + [f"--user-data-dir={profile}", f"--window-size={width},{height}"]:
        options.add_argument(flag)
    if network_log:
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.implicitly_wait(0)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def response_headers(driver: object) -> dict[str, dict[str, str]]:
    """The headers the browser received for each document it loaded since the last call, by URL (header names in
    lower case), from Chromium's network log (`chromium(network_log=True)`)."""
    import json

    seen: dict[str, dict[str, str]] = {}
    for entry in driver.get_log("performance"):
        event = json.loads(entry["message"])["message"]
        if event.get("method") != "Network.responseReceived" or event["params"].get("type") != "Document":
            continue
        response = event["params"]["response"]
        seen[response["url"]] = {k.lower(): v for k, v in response["headers"].items()}
    return seen
