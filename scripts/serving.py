"""What scripts/load.py, scripts/screenshots.py and tests/test_serve.py share: the installed `rootfaq serve`
started on a free port and stopped with Ctrl-C as a person stops it, and a headless Chromium (Debian's
chromium and chromium-driver) that Selenium drives without ever reaching the network.

    with running_server() as served:          # served.url: "http://127.0.0.1:PORT/"
        driver = chromium(profile_dir)        # a phone-sized window (390 x 844)
    served.code, served.output                # after the block: the exit code and everything it printed
"""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOTFAQ = Path(sys.executable).with_name("rootfaq")
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
# No first-run screens, no update or sync traffic: the browser opens only the pages it is sent to.
CHROMIUM_FLAGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = (390, 844)  # CSS pixels of a common phone
START_SECONDS = 120  # the first start may build the index


@dataclass
class Served:
    url: str = ""
    code: int | None = None
    output: list[str] = field(default_factory=list)  # stdout lines, then stderr lines, once stopped
    process: subprocess.Popen | None = None


def free_port() -> int:
    """A port nothing listens on now (the kernel's pick for port 0)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def running_server(port: int | None = None, args: tuple[str, ...] = (), env: dict | None = None) -> Iterator[Served]:
    """`rootfaq serve --port PORT` until the block ends, then Ctrl-C (SIGINT); its exit code and output
    are on the Served object afterwards. Waits for its "serving" line, so the page answers at once."""
    served = Served()
    command = [str(ROOTFAQ), "serve", "--port", str(port or free_port()), *args]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, **(env or {})})
    served.process = process
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        for line in process.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        while not served.url:
            line = lines.get(timeout=START_SECONDS)
            if line is None:
                raise RuntimeError(f"rootfaq serve ended before serving: {process.wait()} {process.stderr.read()}")
            served.output.append(line)
            if line.startswith("serving "):
                served.url = line.split()[1]
        yield served
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
        try:
            served.code = process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            served.code = process.wait()
        reader.join(timeout=10)
        while not lines.empty():
            line = lines.get()
            if line is not None:
                served.output.append(line)
        served.output += process.stderr.read().splitlines()


def chromium(profile: Path, size: tuple[int, int] = PHONE, dark: bool = False, scale: float = 1,
             javascript: bool = True):
    """Headless Chromium through Selenium, the window `size` CSS pixels (`scale` device pixels each), in
    dark mode or with the pages' JavaScript off when asked. The driver and browser paths are given, so
    Selenium Manager never runs."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in [*CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--window-size={size[0]},{size[1]}"]:
        options.add_argument(flag)
    if not javascript:  # the pages' scripts only: Selenium's own commands still run
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": size[0], "height": size[1], "deviceScaleFactor": scale, "mobile": True})
    scheme = "dark" if dark else "light"
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme",
                                                                         "value": scheme}]})
    return driver
