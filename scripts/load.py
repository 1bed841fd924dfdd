#!/usr/bin/env python3
"""Load `rootfaq serve`: many phones asking at once (a script, not a test).

usage: python scripts/load.py [--clients 50] [--questions 20] [--url http://127.0.0.1:8000/]

Starts the installed `rootfaq serve` on a free port (or, with --url, targets one already running on this
machine: only loopback addresses are accepted), then runs `--clients` threads at once, each asking
`--questions` questions in turn from a mixed list (short table questions, section numbers, a long forum
post asking several things, nonsense), alternately through the page (/?q=) and the API (/api/ask?q=).
Every request must be answered 200 with a whole page or a whole answer object; the script says which were
not and exits 1. Then it prints p50 and p95 latency and requests per second.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import nullcontext
from urllib.parse import urlencode, urlsplit

from serving import Served, running_server

FORUM_POST = (
    "Played a four player game last night with the Marquise, the Eyrie, the Vagabond and the Woodland "
    "Alliance and we got stuck on a couple of things. The Alliance player revolted in a fox clearing where "
    "I had three warriors and a sawmill, and I wanted to use Field Hospitals to bring the warriors back to "
    "the keep. 1) Does Field Hospitals work when the warriors are removed by a revolt rather than in battle? "
    "2) Later the Vagabond attacked the Eyrie's roost while holding a hammer and a torch. Can the Vagabond "
    "remove the roost if the Eyrie has no warriors left there, and does that count toward turmoil? "
    "3) Also, when the Eyrie falls into turmoil, do they lose points for every bird card in the decree or only "
    "for the viziers? Thanks, we ended up house-ruling all three and I would like to know the real answers."
)
QUESTIONS = [
    "can cats build in ruins", "hand limit", "does field hospitals work against a revolt",
    "can I ambush if I have no warriors there?", "who rules a clearing on a tie", "vagabond torch ruin",
    "4.3.2", "bp 2.5 iv", "section 8.2.6", "§7.2.2",
    FORUM_POST,
    "asdfgh qwzx", "purple monkey dishwasher", "???",
]
TIMEOUT_SECONDS = 120


def loopback_only(url: str) -> str:
    """The URL when its host is this machine; else an error (load goes to no other address)."""
    host = urlsplit(url).hostname or ""
    if host != "localhost":
        try:
            if not ipaddress.ip_address(host).is_loopback:
                raise ValueError
        except ValueError:
            raise SystemExit(f"load.py targets only this machine (127.0.0.1, localhost, ::1), not '{host}'") from None
    return url


def ask(base: str, number: int, question: str) -> tuple[float, str | None]:
    """(seconds, what went wrong or None) for one question, through the page or the API by turn."""
    path = ("/api/ask?" if number % 2 else "/?") + urlencode({"q": question})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(base.rstrip("/") + path, timeout=TIMEOUT_SECONDS) as response:
            body = response.read().decode("utf-8")
            status = response.status
    except (urllib.error.URLError, OSError) as error:
        return time.perf_counter() - started, f"{path[:40]}: {error}"
    took = time.perf_counter() - started
    if status != 200:
        return took, f"{path[:40]}: HTTP {status}"
    if number % 2:
        if "hits" not in json.loads(body):
            return took, f"{path[:40]}: no answer object"
    elif not body.rstrip().endswith("</html>"):
        return took, f"{path[:40]}: page cut short"
    return took, None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--questions", type=int, default=20, help="per client")
    parser.add_argument("--url", help="a running `rootfaq serve` on this machine (default: start one)")
    args = parser.parse_args()
    server = nullcontext(Served(url=loopback_only(args.url))) if args.url else running_server()
    latencies: list[float] = []
    failures: list[str] = []
    lock = threading.Lock()

    with server as served:
        def client(offset: int) -> None:
            for n in range(args.questions):
                took, problem = ask(served.url, offset + n, QUESTIONS[(offset + n) % len(QUESTIONS)])
                with lock:
                    latencies.append(took)
                    if problem:
                        failures.append(problem)

        threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        wall = time.perf_counter() - started

    total = len(latencies)
    cuts = statistics.quantiles(latencies, n=100)
    print(f"{args.clients} clients x {args.questions} questions: {total} requests in {wall:.1f} s, "
          f"{len(failures)} failed")
    print(f"latency p50 {1000 * cuts[49]:.0f} ms, p95 {1000 * cuts[94]:.0f} ms, max {1000 * max(latencies):.0f} ms; "
          f"{total / wall:.1f} requests per second")
    for problem in failures[:10]:
        print(f"  failed: {problem}")
    return 1 if failures or total != args.clients * args.questions else 0


if __name__ == "__main__":
    sys.exit(main())
