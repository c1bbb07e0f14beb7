"""Headless Chromium for the tests that need a real browser.

Debian's ``chromium`` and ``chromium-driver`` packages, driven by Selenium.
Nothing here downloads a browser or a driver: the binaries are named
explicitly, so Selenium Manager never runs. ``.ci/run`` installs both with
apt; elsewhere the tests that use :func:`chromium` are skipped with the
reason (which binary or module is missing).

Use it as a fixture::

    from tests.browser_helpers import chromium  # noqa: F401  (the fixture)

    def test_page(chromium):
        chromium.get("http://127.0.0.1:8000/")
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from tests.system_tools import tool_missing

CHROMIUM_NAMES = ("chromium", "chromium-browser")
DRIVER_NAMES = ("chromedriver",)


def find_binary(names: tuple[str, ...], env: str) -> str | None:
    """The first of ``names`` on PATH, or the path in ``$env`` when set."""
    if os.environ.get(env):
        return os.environ[env]
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


def missing_reason() -> str | None:
    """Why a browser test cannot run here, or None when it can."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install '.[test]')"
    if find_binary(CHROMIUM_NAMES, "TABULEIRO_CHROMIUM") is None:
        return "Chromium is absent (Debian: apt-get install chromium chromium-driver)"
    if find_binary(DRIVER_NAMES, "TABULEIRO_CHROMEDRIVER") is None:
        return "chromedriver is absent (Debian: apt-get install chromium-driver)"
    return None


def start_chromium(*, width: int = 1280, height: int = 900) -> Any:
    """A headless Chromium WebDriver from the system binaries (the caller quits it)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = find_binary(CHROMIUM_NAMES, "TABULEIRO_CHROMIUM") or ""
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", f"--window-size={width},{height}"):
        options.add_argument(arg)
    # the console log, for tests that check the page raised no error
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=find_binary(DRIVER_NAMES, "TABULEIRO_CHROMEDRIVER"))
    return webdriver.Chrome(options=options, service=service)


@pytest.fixture
def chromium() -> Iterator[Any]:
    """A headless Chromium WebDriver, skipped with the reason where absent."""
    reason = missing_reason()
    if reason is not None:
        tool_missing(reason)
    driver = start_chromium()
    try:
        yield driver
    finally:
        driver.quit()
