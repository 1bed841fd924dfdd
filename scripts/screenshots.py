#!/usr/bin/env python3
"""Screenshots of `rootfaq serve` at phone size, for README (a script, not a test).

usage: python scripts/screenshots.py [--out docs] [--scale 2]

Starts the installed `rootfaq serve` on a free port, opens each page below in headless Chromium at 390 x 844
CSS pixels (`--scale` device pixels each) and saves what the phone's screen shows as docs/serve-NAME.png.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlencode

from serving import chromium, running_server

ROOT = Path(__file__).resolve().parent.parent
# (file name, path and query, dark mode)
SHOTS = [
    ("serve-answer", "/?" + urlencode({"q": "does field hospitals work against a revolt"}), False),
    ("serve-unsure", "/?" + urlencode({"q": "can cats build in ruins"}), False),
    ("serve-dark", "/?" + urlencode({"q": "does field hospitals work against a revolt"}), True),
    ("serve-section", "/section/BP.2.5", False),
    ("serve-post", "/?" + urlencode({"q": "cats and birds game last night\ncan the keep be removed\n"
                                          "does the vagabond count as a warrior for rule"}), False),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    parser.add_argument("--scale", type=float, default=2)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with running_server() as served, tempfile.TemporaryDirectory(prefix="rootfaq-shots-") as profile:
        for name, path, dark in SHOTS:
            driver = chromium(Path(profile) / name, dark=dark, scale=args.scale)
            try:
                driver.get(served.url.rstrip("/") + path)
                target = args.out / f"{name}.png"
                target.write_bytes(driver.get_screenshot_as_png())
                print(f"wrote {target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}")
            finally:
                driver.quit()
    return 0 if served.code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
