"""The web app behind `rootfaq serve`: Starlette routes over one Companion, the same library the command
line calls.

    create_app(companion) -> Starlette

Every route is GET (HEAD too):

    /                   the question box; /?q=... the answer (a plain GET form: no JavaScript needed)
    /api/ask?q=         the `rootfaq ask --json` object, from Companion.ask; faction, source, official, limit
    /section/{ref}      a section: its records, the rulings citing it, the sections referring to it
    /record/{id}        one record in full
    /list               factions and topics; ?faction=cats&topic=battle their rulings and sections
    /grades             what each grade badge means
    /cheatsheet         pick the factions; /cheatsheet/sheet?faction=... the page `cheatsheet --format html` writes
    /static/{name}      the stylesheet, the script and the icon, read from static/ once at start

Safe by construction: nothing is written per request; pages.py escapes every value; a static name is
looked up in what was read at start, never joined to a path; a question over MAX_QUESTION_CHARS is refused
(413) and a request with a body too; every response carries a Content-Security-Policy that allows no
inline script (the cheat sheet's inline stylesheet is allowed by its hash). The index is not made for
concurrent use, so every request that reads it goes through one SearchGate.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import TypeVar

import anyio
import anyio.to_thread
from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders, QueryParams
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from ..api import Companion
from ..api import Request as AskRequest
from ..errors import NotFound, RootfaqError, UsageError
from ..export.command import select_sheet
from ..export.html import render_html
from ..export.sheet import SheetFilters, paper_size
from ..search.posts import MAX_POST_CHARS
from ..views.grades import grade_legend
from ..views.listing import list_view
from ..views.record import record_view
from ..views.section import section_view
from ..views.show import resolve_id
from .pages import AskForm, Site

# Search reads a post whole up to MAX_POST_CHARS (past that, its question sentences, and says so); a question
# four times longer is no post, and the page refuses it so the player can cut it to the question in the box
# (the command line reads a paste up to posts.MAX_READ_CHARS instead: nobody is there to cut it).
MAX_QUESTION_CHARS = 4 * MAX_POST_CHARS
WAITING_MAX = 64  # requests queued behind the one being answered; past that, 503
RETRY_AFTER_SECONDS = 2
LIMIT_DIGITS = 3  # a limit is 1 to 50; a longer string of digits is refused before int() reads it

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
SECURITY_HEADERS = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
}
STATIC_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                ".svg": "image/svg+xml"}
TRUE, FALSE = {"1", "true", "on", "yes"}, {"", "0", "false", "off", "no"}

T = TypeVar("T")


class Busy(Exception):
    """More requests are waiting for the index than the gate lets queue."""


class QuestionTooLong(UsageError):
    """A question longer than any post search reads (413)."""


class SearchGate:
    """One search at a time, in a worker thread (the index is not made for concurrent use), with at most
    `waiting` requests queued behind it; past that, `run` raises Busy at once."""

    def __init__(self, waiting: int = WAITING_MAX) -> None:
        self.waiting = waiting
        self.pending = 0  # running or queued: touched only on the event loop's thread
        self._lock: anyio.Lock | None = None  # made inside the running loop

    async def run(self, work: Callable[[], T]) -> T:
        if self.pending > self.waiting:
            raise Busy
        self.pending += 1
        try:
            if self._lock is None:
                self._lock = anyio.Lock()
            async with self._lock:
                return await anyio.to_thread.run_sync(work)
        finally:
            self.pending -= 1


@dataclass
class Asked:
    """A question and its filters, read from the query string and checked once (Companion.request)."""

    question: str
    request: AskRequest

    @property
    def form(self) -> AskForm:
        return AskForm(self.question, self.request.factions[0] if self.request.factions else "", self.request.official)


def form_text(value: str) -> str:
    """A textarea's value as typed: a form sends each line break as CRLF (HTML's form encoding)."""
    return value.replace("\r\n", "\n")


def question_of(params: QueryParams) -> str:
    question = form_text(params.get("q", ""))
    if len(question) > MAX_QUESTION_CHARS:
        raise QuestionTooLong(f"the question is {len(question):,} characters; rootfaq reads up to "
                              f"{MAX_QUESTION_CHARS:,}", "ask the question itself, without the whole thread")
    return question


def flag(params: QueryParams, name: str) -> bool:
    value = params.get(name, "").strip().lower()
    if value in TRUE | FALSE:
        return value in TRUE
    raise UsageError(f"{name} takes 1 or 0, not '{value[:40]}'", f"for example: {name}=1")


def named(params: QueryParams, name: str) -> list[str]:
    """A repeatable parameter's values; an empty one (a form's "any faction") names nothing."""
    return [value for value in params.getlist(name) if value.strip()]


def read_asked(companion: Companion, params: QueryParams) -> Asked:
    """The question and filters, as the command line's options read them: faction and source repeatable,
    official 1 or 0, limit 1 to 50 (Request's default when absent). UsageError (400) for a bad value."""
    given = {}
    if "limit" in params:
        limit = params["limit"].strip()
        digits = limit.isascii() and limit.isdigit() and len(limit) <= LIMIT_DIGITS
        given["limit"] = int(limit) if digits else limit[:40]  # Request says what a limit takes
    request = companion.request(named(params, "faction"), named(params, "source"), flag(params, "official"), **given)
    return Asked(question_of(params), request)


def style_hash(page: str) -> str:
    """The CSP source that allows a page's one inline stylesheet: 'sha256-...' of its text."""
    start = page.index("<style>") + len("<style>")
    css = page[start:page.index("</style>", start)]
    return "'sha256-" + base64.b64encode(hashlib.sha256(css.encode("utf-8")).digest()).decode("ascii") + "'"


def load_static() -> dict[str, tuple[bytes, str]]:
    """The files of static/ by name, with their media type: read once, so no request ever opens a path."""
    folder = resources.files(__package__) / "static"
    found = {}
    for item in folder.iterdir():
        kind = STATIC_TYPES.get("." + item.name.rsplit(".", 1)[-1])
        if kind and item.is_file():
            found[item.name] = (item.read_bytes(), kind)
    return found


class Guard:
    """ASGI middleware: refuses a request that carries a body (none of the routes takes one) and sets the
    security headers on every response (a route may set its own Content-Security-Policy)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        if headers.get(b"content-length", b"0") not in (b"0", b"") or b"transfer-encoding" in headers:
            refused = JSONResponse({"error": "requests to rootfaq carry no body",
                                    "hint": "ask with GET: /api/ask?q=hand+limit"}, status_code=413)
            await refused(scope, receive, send)
            return

        async def secured(message) -> None:
            if message["type"] == "http.response.start":
                out = MutableHeaders(scope=message)
                out.setdefault("content-security-policy", CSP)
                for name, value in SECURITY_HEADERS.items():
                    out.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, secured)


def create_app(companion: Companion, gate: SearchGate | None = None) -> Guard:
    """The ASGI app: routes over `companion`, every read of its index through one SearchGate (`gate`, or
    one that lets WAITING_MAX wait), inside the Guard (so even an internal error's page carries the
    security headers)."""
    index = companion.index
    gate = gate or SearchGate()
    factions = [(key, info.name) for key, info in index.library.query_model.factions.items()]
    site = Site(index.library.query_model.section_numbers(), factions)
    static = load_static()

    def html(page: str, status: int = 200) -> HTMLResponse:
        return HTMLResponse(page, status_code=status)

    async def home(request: Request) -> Response:
        asked = read_asked(companion, request.query_params)
        if not asked.question.strip():
            return html(site.home(asked.form))

        def answer():
            return companion.screen(companion.answer(asked.question, asked.request), asked.request)

        return html(site.answer(await gate.run(answer), asked.form))

    async def api_ask(request: Request) -> Response:
        asked = read_asked(companion, request.query_params)
        if not asked.question.strip():
            raise UsageError("no question given", "/api/ask?q=hand+limit")
        wanted = asked.request
        return JSONResponse(await gate.run(lambda: companion.ask(asked.question, wanted.factions, wanted.sources,
                                                                wanted.official, wanted.limit)))

    async def section(request: Request) -> Response:
        ref = request.path_params["ref"]
        view = await gate.run(lambda: index.repairing(lambda: section_view(index, ref)))
        return html(site.section(view), 200 if view.found else 404)

    async def record(request: Request) -> Response:
        record_id = request.path_params["record_id"]
        view = await gate.run(lambda: index.repairing(lambda: record_view(index, resolve_id(index, record_id))))
        return html(site.record_page(view))

    async def listing(request: Request) -> Response:
        params = request.query_params
        topic = params.get("topic", "").strip() or None
        asked = companion.request(named(params, "faction"), official=flag(params, "official"))
        view = await gate.run(lambda: list_view(index.library, factions=list(asked.factions), topic=topic,
                                                official=asked.official))
        form = AskForm(faction=asked.factions[0] if len(asked.factions) == 1 else "", official=asked.official)
        return html(site.listing(view, form), 200 if view.found else 404)

    async def grades(request: Request) -> Response:
        return html(site.grades(grade_legend()))

    async def cheatsheet_form(request: Request) -> Response:
        return html(site.cheatsheet_form((await gate.run(lambda: list_view(index.library))).factions))

    async def cheatsheet(request: Request) -> Response:
        params = request.query_params
        paper = params.get("paper", "a4")
        paper_size(paper)  # a bad paper is a usage error before any work
        filters = SheetFilters(named(params, "faction"), flag(params, "official"), rules=flag(params, "rules"),
                               bots=flag(params, "bots"))
        page = await gate.run(lambda: render_html(select_sheet(index, filters), paper))
        return HTMLResponse(page, headers={"content-security-policy":
                                           f"default-src 'none'; style-src {style_hash(page)}; base-uri 'none'; "
                                           "form-action 'none'; frame-ancestors 'none'"})

    async def static_file(request: Request) -> Response:
        found = static.get(request.path_params["name"])
        if found is None:
            raise HTTPException(404)
        body, kind = found
        return Response(body, media_type=kind, headers={"cache-control": "public, max-age=3600"})

    def is_api(request: Request) -> bool:
        return request.url.path.startswith("/api/")

    def failed(request: Request, status: int, heading: str, message: str, hint: str = "",
               headers: dict | None = None) -> Response:
        if is_api(request):
            return JSONResponse({"error": message, "hint": hint}, status_code=status, headers=headers)
        # The box keeps what was sent, too long or not, so the player can cut it to the question and ask again.
        form = AskForm(form_text(request.query_params.get("q", "")))
        return HTMLResponse(site.error(heading, message, hint, form), status_code=status, headers=headers)

    async def rootfaq_error(request: Request, exc: RootfaqError) -> Response:
        if isinstance(exc, QuestionTooLong):
            return failed(request, 413, "Too long", exc.message, exc.hint)
        if isinstance(exc, NotFound):
            return failed(request, 404, "Not found", exc.message, exc.hint)
        if isinstance(exc, UsageError):
            return failed(request, 400, "Cannot read that", exc.message, exc.hint)
        return failed(request, 500, "The corpus or index failed", exc.message, exc.hint)

    async def busy(request: Request, exc: Busy) -> Response:
        return failed(request, 503, "Busy", f"more than {gate.waiting} questions are waiting",
                      f"ask again in {RETRY_AFTER_SECONDS} seconds",
                      headers={"retry-after": str(RETRY_AFTER_SECONDS)})

    async def http_error(request: Request, exc: HTTPException) -> Response:
        if exc.status_code == 404:
            return failed(request, 404, "Not found", f"no page at {request.url.path[:200]}",
                          "start from the question box at /")
        return failed(request, exc.status_code, "Cannot do that", exc.detail)

    async def internal_error(request: Request, exc: Exception) -> Response:
        return failed(request, 500, "Internal error", f"internal error: {type(exc).__name__}",
                      "the server's terminal shows the traceback")

    routes = [
        Route("/", home),
        Route("/api/ask", api_ask),
        Route("/section/{ref:path}", section),
        Route("/record/{record_id:path}", record),
        Route("/list", listing),
        Route("/grades", grades),
        Route("/cheatsheet", cheatsheet_form),
        Route("/cheatsheet/sheet", cheatsheet),
        Route("/static/{name:path}", static_file),
    ]
    handlers = {RootfaqError: rootfaq_error, Busy: busy, HTTPException: http_error, Exception: internal_error}
    return Guard(Starlette(routes=routes, exception_handlers=handlers))
