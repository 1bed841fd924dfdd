"""Running the web page: a socket bound here, uvicorn serving the app on it, a quiet stop on Ctrl-C.

    sock = bind(host_for(lan=False), 8000)     # UsageError when the port is taken
    serve(companion, sock, lan=False, say=print)

Binding before uvicorn starts turns a taken port into one line and exit 2 rather than a logged traceback,
and leaves no moment when the address is printed but nothing listens. With `--lan` the page listens on
every interface and `serve` prints this machine's address on the local network with a QR code for it.
"""

from __future__ import annotations

import errno
import io
import os
import socket
from collections.abc import Callable

from ..api import Companion
from ..errors import UsageError

LOOPBACK = "127.0.0.1"  # the default: only this machine can open the page
EVERY_INTERFACE = "0.0.0.0"  # --lan: phones on the same network can
DEFAULT_PORT = 8000
BACKLOG = 128
# The request line and headers uvicorn takes (h11's bound, 16 KB by default): room for a question of
# app.MAX_QUESTION_CHARS in the URL, percent-encoded, so the app answers it (or refuses it with 413).
MAX_REQUEST_HEAD = 256 * 1024
MAX_CONNECTIONS = 256  # open connections and requests in flight; past that uvicorn answers 503
GRACEFUL_STOP_SECONDS = 3
WARM_UP_QUESTION = "hand limit"  # loads the sentence model before the first phone asks


def host_for(lan: bool) -> str:
    return EVERY_INTERFACE if lan else LOOPBACK


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on host:port (port 0: any free one); UsageError saying what to do when the
    port is taken or not ours to use."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(BACKLOG)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise UsageError(f"port {port} is taken: another program is listening on it",
                             f"choose another: rootfaq serve --port {port + 1 if port < 65535 else 8001}") from None
        if exc.errno == errno.EACCES:
            raise UsageError(f"port {port} needs more rights than yours",
                             f"choose one from 1024 up: rootfaq serve --port {DEFAULT_PORT}") from None
        reason = os.strerror(exc.errno) if exc.errno else str(exc)
        raise UsageError(f"cannot listen on {host}:{port}: {reason.lower()}",
                         f"rootfaq serve --port {DEFAULT_PORT}") from None
    return sock


def lan_address() -> str | None:
    """This machine's IPv4 address on the local network, or None when it has none.

    The host name's own addresses first; else the address a route to the outside would leave from (a UDP
    socket's connect only looks the route up: nothing is sent)."""
    try:
        found = [info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)]
    except OSError:
        found = []
    outward = [address for address in found if not address.startswith("127.")]
    if outward:
        return outward[0]
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: a route lookup, no packet
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith(("127.", "0.")) else address


def qr_code(url: str) -> str:
    """The URL as a QR code in text (two modules per character), for a phone's camera."""
    import segno

    out = io.StringIO()
    segno.make(url, error="m", micro=False).terminal(out=out, compact=True, border=2)
    return out.getvalue()


def addresses(sock: socket.socket, lan: bool) -> list[str]:
    """The URLs to print: the loopback one, and with --lan the one phones open."""
    port = sock.getsockname()[1]
    urls = [f"http://{LOOPBACK}:{port}/"]
    if lan:
        address = lan_address()
        if address:
            urls.append(f"http://{address}:{port}/")
    return urls


def serve(companion: Companion, sock: socket.socket, lan: bool, say: Callable[[str], None]) -> None:
    """Serve the page on `sock` until Ctrl-C (or SIGTERM); say where, and with --lan show the QR code."""
    import uvicorn

    from .app import create_app

    companion.answer(WARM_UP_QUESTION)
    urls = addresses(sock, lan)
    if lan and len(urls) == 1:
        say(f"serving on every interface at port {urls[0].rsplit(':', 1)[1].rstrip('/')}; this machine's "
            "address on the network was not found (see `ip addr`)")
    elif lan:
        say(f"serving {urls[-1]} to phones on this network (and {urls[0]} here); Ctrl-C stops it")
        say(qr_code(urls[-1]).rstrip("\n"))
    else:
        say(f"serving {urls[0]} (only this machine; --lan for the phones around the table); Ctrl-C stops it")
    config = uvicorn.Config(
        create_app(companion), http="h11", ws="none", lifespan="off", log_config=None, access_log=False,
        server_header=False, h11_max_incomplete_event_size=MAX_REQUEST_HEAD, limit_concurrency=MAX_CONNECTIONS,
        timeout_graceful_shutdown=GRACEFUL_STOP_SECONDS,
    )
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:
        pass  # uvicorn stopped cleanly, then raised the Ctrl-C it caught again
    finally:
        sock.close()
