"""`rootfaq serve`: the real server, started once for the module as a person starts it (`rootfaq serve --port
N`, stopped with Ctrl-C), driven by plain HTTP requests and by headless Chromium through Selenium.

The browser tests need Debian's chromium and chromium-driver (.ci/run installs them); without them they skip
with the reason, except under CI, where a missing tool fails (test_cheatsheet_print.need_tools).
"""

from __future__ import annotations

import base64
import http.client
import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from html import escape
from pathlib import Path
from urllib.parse import quote, urlencode

import anyio
import pytest
from test_cheatsheet_print import need_tools, pdf_pages, squash

from rootfaq.api import Companion
from rootfaq.errors import EXIT_USAGE
from rootfaq.export.html import render_html
from rootfaq.export.selection import select_entries
from rootfaq.export.sheet import SheetFilters
from rootfaq.web import app as web
from rootfaq.web.server import LOOPBACK, host_for

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from serving import ROOTFAQ, chromium, free_port, running_server  # noqa: E402

FIELD_HOSPITALS = "does field hospitals work against a revolt"  # confident: faq-108, citing 6.2.3
UNSURE = "can cats build in ruins"  # not sure: "Did you mean" with three candidates
# One question a line without "?": two questions as laid out, one when its lines are folded together (it is shorter
# than the 20 words from which a folded message is cut where its lines may have begun).
LINED_POST = "cats and birds game last night\ncan the keep be removed\ndoes the vagabond count for rule"
SECOND_LINE_ASKED = "Question 2: does the vagabond count for rule"
HOSTILE = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "<svg/onload=alert(1)>",
    "javascript:alert(1)",
    "{{7*7}}${7*7}",
    "'; DROP TABLE records; --",
    "a\x00b",
    "\u202eevil\u202c",
    "\r\nSet-Cookie: stolen=1",
    "../../etc/passwd",
    "x" * 100_000,
]
RAW_MARKUP = ("<script>alert", "<img", "<svg", "\x00", "\r\nSet-Cookie")


@pytest.fixture(scope="module")
def server(index):
    """One `rootfaq serve` for the module, on the session's index (test_ctrl_c_... starts its own to stop)."""
    with running_server() as served:
        yield served


@pytest.fixture(scope="module")
def browser(server, tmp_path_factory):
    need_tools("chromium", "chromedriver")
    driver = chromium(tmp_path_factory.mktemp("chromium"))
    yield driver
    driver.quit()


def get(server, path: str) -> tuple[int, dict[str, str], str]:
    """(status, headers, body) of a GET, errors included."""
    try:
        with urllib.request.urlopen(server.url.rstrip("/") + path, timeout=60) as response:
            return response.status, dict(response.headers.items()), response.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers.items()), error.read().decode("utf-8")


def api(server, **params) -> tuple[int, dict]:
    status, _, body = get(server, "/api/ask?" + urlencode(params, doseq=True))
    return status, json.loads(body)


def ask_in_browser(driver, url: str, question: str, by_button: bool = False) -> None:
    """Type the question into the box and press Enter (app.js asks), or press Ask (as without JavaScript)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(url)
    box = driver.find_element(By.ID, "q")
    box.clear()
    if by_button:
        box.send_keys(question)
        driver.find_element(By.CSS_SELECTOR, "form.ask button[type=submit]").click()
    else:
        box.send_keys(question, Keys.ENTER)
    WebDriverWait(driver, 30).until(lambda d: "?q=" in d.current_url and d.find_elements(By.ID, "main"))


# --- the page in a browser -------------------------------------------------------------------------------


def test_a_question_in_the_box_shows_the_ruling_with_its_badge(server, browser):
    from selenium.webdriver.common.by import By

    ask_in_browser(browser, server.url, FIELD_HOSPITALS)
    best = browser.find_element(By.CSS_SELECTOR, ".best .record")
    assert best.find_element(By.CSS_SELECTOR, ".idline .id").text == "faq-108"
    assert "question reconstructed" in best.find_element(By.CSS_SELECTOR, ".idline").text
    badge = best.find_element(By.CSS_SELECTOR, ".prov .badge")
    assert badge.text == "Rulebook" and "official" in badge.get_attribute("class")
    assert "FAQ 2026-10-28" in best.find_element(By.CSS_SELECTOR, ".prov").text
    assert browser.find_element(By.ID, "q").get_attribute("value") == FIELD_HOSPITALS
    assert browser.find_elements(By.CSS_SELECTOR, ".related h4"), "related rules under the answer"


def test_a_post_typed_line_by_line_keeps_its_lines_and_enter_asks(server, browser):
    """Shift+Enter starts a line in the box, Enter asks; the post is read with its lines and shown back so."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(server.url)
    box = browser.find_element(By.ID, "q")
    box.click()
    typing = ActionChains(browser)
    for number, line in enumerate(LINED_POST.split("\n")):
        if number:
            typing.key_down(Keys.SHIFT).send_keys(Keys.ENTER).key_up(Keys.SHIFT)
        typing.send_keys(line)
    typing.perform()
    assert box.get_attribute("value") == LINED_POST and "?q=" not in browser.current_url, "Shift+Enter asks nothing"
    box.send_keys(Keys.ENTER)
    WebDriverWait(browser, 30).until(lambda d: "?q=" in d.current_url and d.find_elements(By.ID, "main"))
    assert "%0D%0A" in browser.current_url, "the form sent the line breaks"
    asked = [heading.text for heading in browser.find_elements(By.CSS_SELECTOR, "h2.question")]
    assert any(text.startswith(SECOND_LINE_ASKED) for text in asked), asked
    assert browser.find_element(By.ID, "q").get_attribute("value") == LINED_POST, "shown back with its lines"


def follow(browser, link, address_part: str) -> None:
    """Click a link and wait until its page has loaded (a click only starts the navigation)."""
    from selenium.webdriver.support.ui import WebDriverWait

    link.click()
    WebDriverWait(browser, 30).until(lambda d: address_part in d.current_url
                                     and d.execute_script("return document.readyState") == "complete")


def test_a_section_link_leads_to_its_section_and_a_backlink_back(server, browser):
    from selenium.webdriver.common.by import By

    ask_in_browser(browser, server.url, FIELD_HOSPITALS)
    follow(browser, browser.find_element(By.CSS_SELECTOR, '.related h4 a[href="/section/6.2.3"]'), "/section/6.2.3")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Section 6.2.3"
    citing = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, ".citing a.hit")]
    assert any(href.endswith("/record/faq-109") for href in citing), "the rulings citing 6.2.3"
    backlink = browser.find_element(By.CSS_SELECTOR, '.backlinks a[href="/section/OF.5.2"]')
    follow(browser, backlink, "/section/OF.5.2")
    assert browser.find_element(By.TAG_NAME, "h1").text == "Section OF.5.2"
    # OF.5.2's own text cites 6.2.3: the number there is a link back.
    assert browser.find_elements(By.CSS_SELECTOR, '.holder .text a[href="/section/6.2.3"]')


def test_when_unsure_each_candidate_is_a_link_that_opens_it(server, browser, index):
    from selenium.webdriver.common.by import By

    ask_in_browser(browser, server.url, UNSURE)
    unsure = browser.find_element(By.CSS_SELECTOR, ".unsure")
    assert "Did you mean" in unsure.text
    candidates = unsure.find_elements(By.CSS_SELECTOR, "ol.hits a.hit")
    assert len(candidates) == 3
    second = candidates[1]
    record_id = second.find_element(By.CSS_SELECTOR, ".id").text
    follow(browser, second, f"/record/{record_id}")
    assert browser.find_element(By.CSS_SELECTOR, "h2.heading").text == index.library.records[record_id].title


def test_the_cheat_sheet_prints_from_the_browser_with_its_rulings(server, browser, index, tmp_path):
    from selenium.webdriver.common.by import By

    need_tools("pdftotext", "pdfinfo")
    browser.get(server.url.rstrip("/") + "/cheatsheet")
    browser.find_element(By.CSS_SELECTOR, 'input[name="faction"][value="marquise"]').click()
    browser.find_element(By.CSS_SELECTOR, 'input[name="official"]').click()
    follow(browser, browser.find_element(By.CSS_SELECTOR, "form.sheet button"), "/cheatsheet/sheet?")
    # The inline stylesheet is allowed by its hash: the two columns are there.
    assert browser.execute_script("return getComputedStyle(document.querySelector('.columns')).columnCount") == "2"
    printed = browser.execute_cdp_cmd("Page.printToPDF", {"preferCSSPageSize": True, "printBackground": True})
    pdf = tmp_path / "sheet.pdf"
    pdf.write_bytes(base64.b64decode(printed["data"]))
    text = squash("".join(pdf_pages(pdf)))
    sheet = select_entries(index, SheetFilters(["marquise"], official=True))
    missing = [e.id for e in sheet.entries() if squash(e.answer) not in text]
    assert sheet.entry_count > 10 and not missing, missing


def test_the_cheat_sheet_page_is_the_cheatsheet_commands_html(server, index):
    status, headers, body = get(server, "/cheatsheet/sheet?faction=cats&faction=birds&official=1&paper=letter")
    assert status == 200
    assert body == render_html(select_entries(index, SheetFilters(["cats", "birds"], official=True)), "letter")
    cli = subprocess.run([str(ROOTFAQ), "cheatsheet", "-f", "cats", "-f", "birds", "--official", "--paper", "letter",
                          "--format", "html", "-o", "-"], capture_output=True, text=True, timeout=120)
    assert cli.returncode == 0 and cli.stdout == body
    policy = headers["content-security-policy"]
    assert "style-src 'sha256-" in policy and "unsafe-inline" not in policy and "script-src" not in policy


def test_without_javascript_the_form_asks_by_plain_get(server, tmp_path):
    from selenium.webdriver.common.by import By

    need_tools("chromium", "chromedriver")
    status, _, home = get(server, "/")
    assert status == 200 and '<form class="ask" action="/" method="get"' in home and 'name="q"' in home
    driver = chromium(tmp_path / "nojs", javascript=False)
    try:
        ask_in_browser(driver, server.url, FIELD_HOSPITALS, by_button=True)
        assert driver.execute_script("return document.documentElement.className") == "", "app.js did not run"
        assert driver.current_url.startswith(server.url.rstrip("/") + "/?q=does+field+hospitals")
        assert driver.find_element(By.CSS_SELECTOR, ".best .prov .badge").text == "Rulebook"
    finally:
        driver.quit()


def test_nothing_answers_a_bare_faction_nickname_and_the_page_links_that_factions_rulings(server):
    status, _, page = get(server, "/?" + urlencode({"q": "vaga"}))
    assert status == 200 and "Nothing in the sources answers “vaga” clearly" in page
    assert '<a href="/list?faction=vagabond">Vagabond</a>' in page
    status, _, _ = get(server, "/list?faction=vagabond")
    assert status == 200


def test_a_question_the_posts_list_asks_again_says_so_on_the_page(server):
    post = ("Moles dug a tunnel into the Vagabond's clearing. Also, the tunnel: do tunnels count as pieces for "
            "ruling?\n1) Can the Vagabond pawn ever be removed from the map?\n2) Do tunnels count for rule?")
    status, _, page = get(server, "/?" + urlencode({"q": post}))
    assert status == 200 and page.count("(asked again in your list)") == 1
    assert "Question 3: Do tunnels count for rule?</h2>" in page


def test_a_posts_lines_sent_by_the_form_are_read_and_shown_back_as_lines(server):
    """A textarea sends each line break as CRLF: read as a line break, never shown as an escaped \\r."""
    status, _, page = get(server, "/?" + urlencode({"q": LINED_POST.replace("\n", "\r\n")}))
    assert status == 200 and SECOND_LINE_ASKED in page
    assert ">\n" + escape(LINED_POST) + "</textarea>" in page and "\\r" not in page
    status, _, folded = get(server, "/?" + urlencode({"q": LINED_POST.replace("\n", " ")}))
    assert status == 200 and "Question 2:" not in folded, "folded onto one line, the post asks one question"


def test_hostile_input_in_the_browser_runs_nothing(server, browser):
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.by import By

    hostile = HOSTILE[0] + HOSTILE[1] + HOSTILE[2]
    ask_in_browser(browser, server.url, hostile)  # typed into the box
    for page in (server.url.rstrip("/") + "/?" + urlencode({"q": hostile}),
                 server.url.rstrip("/") + "/record/" + quote(HOSTILE[1], safe="")):
        browser.get(page)
        time.sleep(0.3)  # an injected onerror or onload would have fired by now
        with pytest.raises(NoAlertPresentException):
            browser.switch_to.alert.text  # noqa: B018
        assert not browser.find_elements(By.CSS_SELECTOR, "img, svg, main script, form script")
        scripts = [s.get_attribute("src") for s in browser.find_elements(By.TAG_NAME, "script")]
        assert scripts == [server.url.rstrip("/") + "/static/app.js"]
        assert browser.execute_script("return document.documentElement.className") == "js", "app.js ran"
    browser.get(server.url.rstrip("/") + "/?" + urlencode({"q": hostile}))
    assert browser.find_element(By.ID, "q").get_attribute("value") == hostile, "shown back as typed"


# --- plain HTTP ------------------------------------------------------------------------------------------


def test_the_default_is_this_machine_only(server):
    port = int(server.url.rsplit(":", 1)[1].strip("/"))
    assert server.url == f"http://127.0.0.1:{port}/" and host_for(lan=False) == LOOPBACK
    # The kernel's table of listening sockets: bound to 127.0.0.1 (0100007F), not to every interface.
    listening = [line.split() for line in Path("/proc/net/tcp").read_text().splitlines()[1:]]
    local = {fields[1] for fields in listening if fields[3] == "0A"}
    assert f"0100007F:{port:04X}" in local and f"00000000:{port:04X}" not in local
    from typer.main import get_command

    from rootfaq.cli.app import app

    options = {p.name: p for p in get_command(app).commands["serve"].params}
    assert options["lan"].default is False


def test_lan_names_the_network_address_and_draws_it_as_a_qr_code(monkeypatch):
    """What --lan prints, without listening on the network here: the phones' URL, and a QR code of it."""
    from rootfaq.web import server as web_server

    monkeypatch.setattr(web_server, "lan_address", lambda: "192.168.1.20")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        assert web_server.addresses(sock, lan=False) == [f"http://127.0.0.1:{port}/"]
        assert web_server.addresses(sock, lan=True) == [f"http://127.0.0.1:{port}/", f"http://192.168.1.20:{port}/"]
    code = web_server.qr_code("http://192.168.1.20:8000/").splitlines()
    assert len(code) > 10 and len({len(line) for line in code}) == 1 and set("".join(code)) <= set("█▀▄ ")
    assert host_for(lan=True) == "0.0.0.0"


def test_every_response_carries_the_content_security_policy(server):
    for path in ("/", "/?q=hand+limit", "/api/ask?q=hand+limit", "/static/app.css", "/static/app.js",
                 "/section/4.3.2", "/record/faq-108", "/list", "/grades", "/cheatsheet", "/nowhere",
                 "/api/ask?q=x&limit=0"):
        status, headers, _ = get(server, path)
        policy = headers.get("content-security-policy", "")
        assert "default-src 'none'" in policy and "script-src 'self'" in policy, (path, status, policy)
        assert "unsafe-inline" not in policy and headers["x-content-type-options"] == "nosniff", path


def test_hostile_inputs_come_back_escaped_and_nothing_is_written(server, index_dir):
    before = sorted((p, p.stat().st_size, p.stat().st_mtime_ns) for p in index_dir.rglob("*"))
    for value in HOSTILE:
        quoted = quote(value, safe="")
        for path in (f"/?q={quoted}", f"/?q=hand+limit&faction={quoted}", f"/section/{quoted}", f"/record/{quoted}",
                     f"/list?faction={quoted}", f"/list?topic={quoted}", f"/static/{quoted}",
                     f"/cheatsheet/sheet?faction={quoted}", f"/?q=hand+limit&official={quoted}",
                     f"/?q=hand&limit={quoted}"):
            status, headers, body = get(server, path)
            assert status in (200, 400, 404, 413), (path[:80], status)
            assert headers["content-type"].startswith("text/html"), path[:80]
            found = [raw for raw in RAW_MARKUP if raw in body]
            assert not found, (path[:80], found)
            if value == "{{7*7}}${7*7}" and status == 200 and path.startswith("/?q="):
                assert '>\n{{7*7}}${7*7}</textarea>' in body, "shown as typed, never evaluated"
        for params in ({"q": value}, {"q": "hand limit", "faction": value}, {"q": "x", "limit": value}):
            status, answer = api(server, **params)
            assert status in (200, 400, 413), (params, status)
            assert ("error" in answer and "hint" in answer) if status != 200 else "hits" in answer
    assert sorted((p, p.stat().st_size, p.stat().st_mtime_ns) for p in index_dir.rglob("*")) == before


def test_a_nul_is_shown_as_an_escape_and_bad_utf8_is_no_error(server):
    status, _, body = get(server, "/?q=" + quote("hand\x00limit"))
    assert status == 200 and '>\nhand\\x00limit</textarea>' in body
    status, _, body = get(server, "/?q=%FF%FEhand+limit")
    assert status == 200 and "\ufffd" in body
    assert get(server, "/record/%FF%C3")[0] == 404
    # Bytes that are not even percent-encoded: refused by the HTTP parser or answered, never a 500.
    host, port = server.url.split("//")[1].strip("/").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as raw:
        raw.sendall(b"GET /?q=\xff\xfe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        status_line = raw.recv(200).split(b"\r\n", 1)[0]
    assert status_line.split()[1] in (b"200", b"400"), status_line
    assert get(server, "/?q=hand+limit")[0] == 200, "still serving"


def test_a_question_past_the_limit_is_refused_with_413(server):
    too_long = "We played last night.\n" + "x" * web.MAX_QUESTION_CHARS
    status, _, body = get(server, "/?" + urlencode({"q": too_long.replace("\n", "\r\n")}))
    assert status == 413 and "reads up to 20,000" in body
    assert f">\n{too_long}</textarea>" in body, "the box keeps the post, to be cut to its question"
    status, answer = api(server, q="y" * 100_000)
    assert status == 413 and answer["error"].startswith("the question is 100,000 characters")
    long_post = "We played last night and argued. " * 200 + "Can the cats build in a ruin?"
    status, answer = api(server, q=long_post)  # longer than a post search reads: cut, with a notice
    assert status == 200 and any("long post" in notice or "read its" in notice for notice in answer["notices"])


def test_a_request_with_a_body_is_refused(server):
    host, port = server.url.split("//")[1].strip("/").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.request("POST", "/api/ask?q=hand+limit", body=b"x" * 1000)
    response = connection.getresponse()
    assert response.status == 413 and json.loads(response.read())["error"] == "requests to rootfaq carry no body"
    connection.close()


@pytest.mark.parametrize("question, options", [
    (FIELD_HOSPITALS, {}),
    (UNSURE, {}),
    ("bp 2.5 iv", {}),
    ("ambush", {"faction": ["birds"], "official": "1", "limit": "3"}),
])
def test_api_ask_is_the_ask_json_contract(server, question, options):
    status, answer = api(server, q=question, **options)
    assert status == 200
    args = [f"--faction={f}" for f in options.get("faction", [])]
    args += ["--official"] * ("official" in options) + [f"--limit={options.get('limit')}"] * ("limit" in options)
    cli = subprocess.run([str(ROOTFAQ), "ask", "--json", *args, question], capture_output=True, text=True, timeout=120)
    assert json.loads(cli.stdout) == answer


@pytest.mark.parametrize("params, message", [
    ({"q": "x", "faction": "doggos"}, "unknown faction 'doggos'"),
    ({"q": "x", "limit": "0"}, "limit takes a whole number from 1 to 50, not '0'"),
    ({"q": "x", "limit": "9" * 5000}, "limit takes a whole number from 1 to 50"),
    ({"q": "x", "official": "maybe"}, "official takes 1 or 0, not 'maybe'"),
    ({"q": "x", "source": "rulebook"}, "unknown source"),
    ({"q": "   "}, "no question given"),
])
def test_bad_parameters_are_a_400_with_a_message_and_a_hint(server, params, message):
    status, answer = api(server, **params)
    assert status == 400 and answer["error"].startswith(message) and answer["hint"], answer


def test_a_taken_port_is_one_line_and_exit_2(index):
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        proc = subprocess.run([str(ROOTFAQ), "serve", "--port", str(port)], capture_output=True, text=True,
                              timeout=60)
    assert proc.returncode == EXIT_USAGE
    assert proc.stderr == (f"rootfaq: port {port} is taken: another program is listening on it\n"
                           f"hint: choose another: rootfaq serve --port {port + 1}\n")


@pytest.mark.slow  # a server of its own, started and stopped
def test_ctrl_c_stops_cleanly_with_exit_0(index):
    with running_server(port=free_port()) as server:
        assert urllib.request.urlopen(server.url, timeout=30).status == 200
    assert server.code == 0, server.output
    assert server.output[-1] == "stopped" and not any("Traceback" in line for line in server.output), server.output


# --- the concurrency bound, directly -----------------------------------------------------------------------


def test_the_gate_answers_one_at_a_time_and_refuses_past_its_queue():
    import threading

    gate = web.SearchGate(waiting=2)
    release = threading.Event()
    running: list[int] = []
    outcome: dict[int, str] = {}

    def work(n: int):
        running.append(n)
        assert len(running) == 1, "never two searches at once"
        release.wait(10)
        running.remove(n)
        return n

    async def one(n: int) -> None:
        try:
            outcome[n] = f"answered {await gate.run(lambda: work(n))}"
        except web.Busy:
            outcome[n] = "busy"

    async def main() -> None:
        async with anyio.create_task_group() as tasks:
            for n in range(5):
                tasks.start_soon(one, n)
                await anyio.sleep(0.05)
            assert gate.pending == 3  # one running, two waiting
            release.set()

    anyio.run(main)
    assert outcome == {0: "answered 0", 1: "answered 1", 2: "answered 2", 3: "busy", 4: "busy"}
    assert gate.pending == 0


def test_past_the_bound_the_page_answers_503_with_retry_after(index):
    """The app's answer when its gate is full (here: a gate that lets none wait, one search held)."""
    gate = web.SearchGate(waiting=0)
    app = web.create_app(Companion(index), gate=gate)
    gate.pending = 1  # one search running, no room to wait

    async def call(path: str, query: bytes) -> tuple[int, dict, bytes]:
        sent: list[dict] = []

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            sent.append(message)

        scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(), "query_string": query,
                 "headers": [(b"host", b"127.0.0.1")], "scheme": "http", "server": ("127.0.0.1", 80),
                 "client": ("127.0.0.1", 1), "root_path": "", "http_version": "1.1", "asgi": {"version": "3.0"}}
        await app(scope, receive, send)
        headers = {k.decode(): v.decode() for k, v in sent[0]["headers"]}
        return sent[0]["status"], headers, b"".join(m.get("body", b"") for m in sent[1:])

    status, headers, body = anyio.run(call, "/api/ask", b"q=hand+limit")
    assert status == 503 and headers["retry-after"] == str(web.RETRY_AFTER_SECONDS)
    assert json.loads(body) == {"error": "more than 0 questions are waiting", "hint": "ask again in 2 seconds"}
    status, headers, body = anyio.run(call, "/", b"q=hand+limit")
    assert status == 503 and "retry-after" in headers and b"Busy" in body


def test_the_package_data_ships_every_static_file():
    tomllib = pytest.importorskip("tomllib")
    from fnmatch import fnmatch

    patterns = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["setuptools"]["package-data"]
    static = ROOT / "rootfaq" / "web" / "static"
    files = [f"static/{p.name}" for p in static.iterdir()]
    assert files and all(any(fnmatch(f, pattern) for pattern in patterns["rootfaq.web"]) for f in files), files
    assert sorted(web.load_static()) == sorted(p.name for p in static.iterdir())
