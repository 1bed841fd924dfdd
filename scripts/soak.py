#!/usr/bin/env python3
"""Soak the index on disk: parallel askers against repeated rebuilds, some killed mid-way (a script, not a test).

usage: python scripts/soak.py [--seconds 300] [--askers 3] [--kill-share 0.5]

In a fresh index folder (ROOTFAQ_INDEX_DIR), `--askers` processes ask a fixed list of questions over and
over (`rootfaq ask --json`), while one loop runs `rootfaq index --rebuild` and kills about `--kill-share`
of those rebuilds with SIGKILL at a random moment. Every answer is compared with the answer the same
question got before the soak began. At the end it prints how many asks ran, how many failed (no JSON, or
a non-zero exit other than 1 "not confident"), how many answers changed, and what was left in the folder
besides the live index (a leftover of a killed build must be gone once a later build has finished).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

QUESTIONS = ["can I ambush if I have no warriors there?", "hand limit", "4.3.2", "field hospitals revolt",
             "does the vagabond need a torch to explore a ruin", "bp 2.5 iv", "who rules a clearing on a tie"]
ROOTFAQ = Path(sys.executable).with_name("rootfaq")


def ask(env: dict, question: str) -> tuple[int, list[str] | None]:
    proc = subprocess.run([str(ROOTFAQ), "ask", "--json", question], env=env, capture_output=True, text=True,
                          timeout=120)
    try:
        return proc.returncode, [h["id"] for h in json.loads(proc.stdout)["hits"]]
    except (ValueError, KeyError):
        return proc.returncode, None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--askers", type=int, default=3)
    parser.add_argument("--kill-share", type=float, default=0.5)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="rootfaq-soak-"))
    env = {**os.environ, "ROOTFAQ_INDEX_DIR": str(folder / "index")}
    expected = {q: ask(env, q)[1] for q in QUESTIONS}
    deadline = time.monotonic() + args.seconds
    counts = {"asks": 0, "failures": 0, "changed": 0, "rebuilds": 0, "killed": 0}
    lock = threading.Lock()

    def asker(seed: int) -> None:
        rng = random.Random(seed)
        while time.monotonic() < deadline:
            question = rng.choice(QUESTIONS)
            code, ids = ask(env, question)
            with lock:
                counts["asks"] += 1
                counts["failures"] += ids is None or code not in (0, 1)
                counts["changed"] += ids is not None and ids != expected[question]

    threads = [threading.Thread(target=asker, args=(n,)) for n in range(args.askers)]
    for thread in threads:
        thread.start()
    rng = random.Random(99)
    while time.monotonic() < deadline:
        build = subprocess.Popen([str(ROOTFAQ), "index", "--rebuild"], env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)
        if rng.random() < args.kill_share:
            time.sleep(rng.uniform(0.05, 1.2))
            build.send_signal(signal.SIGKILL)
            counts["killed"] += 1
        build.wait()
        counts["rebuilds"] += 1
    for thread in threads:
        thread.join()
    subprocess.run([str(ROOTFAQ), "index", "--rebuild"], env=env, capture_output=True, check=False)
    left = sorted(n for n in os.listdir(folder / "index") if n != "CURRENT"
                  and n != (folder / "index" / "CURRENT").read_text().strip())
    print(f"{args.seconds:.0f} s, {args.askers} askers: {counts['asks']} asks, {counts['failures']} failures, "
          f"{counts['changed']} changed answers; {counts['rebuilds']} rebuilds ({counts['killed']} killed); "
          f"leftovers after a last rebuild: {left or 'none'}")
    return 1 if counts["failures"] or counts["changed"] or left else 0


if __name__ == "__main__":
    sys.exit(main())
