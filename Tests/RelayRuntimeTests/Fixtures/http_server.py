"""A local HTTP server for the get-contents-of-url tests. Prints its port, then serves:
/json, /text, /html, /png (a tiny PNG), /gallery (a page of feeds and images), /status/CODE, /slow (waits 3 s), /together/N (answers once N requests are in at once), /redirect/CODE?to=URL, /loop (redirects to itself), and any method on
/echo (answers JSON with the method, the headers and the body it received), /flaky/KEY/N (503 for the
first N requests naming KEY, then 200) and /busy/KEY/SECONDS (429 with Retry-After the first time). For big bodies:
/file/PATH streams the file at PATH (with /unannounced/PATH, without a Content-Length), /store/PATH
writes the request's body to PATH as it arrives, and /forever sends bytes until the client goes.
It exits when its standard input closes, that is when the test process ends."""
import base64
import http.server
import json
import os
import sys
import threading
import time
import urllib.parse

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAEklEQVR4nGP8z8DAwMDAxAAFAA0BAQFXJJ5aAAAAAElFTkSuQmCC")


# Requests to /together/N that have arrived, by N.
ARRIVED = {}
TOGETHER = threading.Condition()

# Requests counted by key, for /flaky and /busy.
COUNTS = {}
COUNTS_LOCK = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def redirect(self):
        # /redirect/CODE?to=URL answers CODE with Location: URL (percent-decoded).
        code, _, target = self.path[len("/redirect/"):].partition("?to=")
        self.send_response(int(code))
        self.send_header("Location", urllib.parse.unquote(target))
        self.send_header("Content-Length", "0")
        self.end_headers()

    def answer(self, status, content_type, body):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def stream_file(self, path, announce):
        with open(path, "rb") as source:
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            if announce:
                self.send_header("Content-Length", str(os.fstat(source.fileno()).st_size))
            self.end_headers()
            try:
                while chunk := source.read(1 << 20):
                    self.wfile.write(chunk)
            except OSError:
                pass  # the client went away (a test that stops a download)

    def handle_big(self):
        if self.path.startswith("/file/"):
            self.stream_file(self.path[len("/file"):], True)
        elif self.path.startswith("/unannounced/"):
            self.close_connection = True
            self.stream_file(self.path[len("/unannounced"):], False)
        elif self.path.startswith("/store/"):
            left = int(self.headers.get("Content-Length") or 0)
            with open(self.path[len("/store"):], "wb") as target:
                while left > 0:
                    chunk = self.rfile.read(min(left, 1 << 20))
                    if not chunk:
                        break
                    target.write(chunk)
                    left -= len(chunk)
            self.answer(200, "text/plain", b"stored")
        else:
            self.close_connection = True
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.end_headers()
            block = bytes(range(256)) * 4096
            try:
                while True:
                    self.wfile.write(block)
            except OSError:
                pass

    def handle_any(self):
        if self.path.startswith(("/file/", "/unannounced/", "/store/", "/forever")):
            return self.handle_big()
        length = int(self.headers.get("Content-Length") or 0)
        received = self.rfile.read(length).decode("utf-8") if length else ""
        if self.path.split("?")[0] == "/echo":
            echo = {"method": self.command, "path": self.path, "body": received, "host": self.headers.get("Host"),
                    "content-type": self.headers.get("Content-Type"), "x-token": self.headers.get("X-Token"),
                    "authorization": self.headers.get("Authorization")}
            self.answer(200, "application/json", json.dumps(echo).encode())
        elif self.path.startswith("/redirect/"):
            self.redirect()
        elif self.path == "/loop":
            self.send_response(302)
            self.send_header("Location", "/loop")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif self.path == "/rss":
            self.answer(200, "application/rss+xml", (
                '<?xml version="1.0"?><rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>Trails</title>'
                '<item><title>Ridge Loop</title><link>https://example.com/ridge</link><pubDate>Tue, 24 Nov 2026 09:30:00 GMT</pubDate>'
                '<description><![CDATA[<p>4.2 km</p>]]></description></item>'
                '<item><title>Lake &amp; Back</title><link>https://example.com/lake</link><dc:date>2026-11-20</dc:date></item>'
                '<item><title>Third</title></item></channel></rss>').encode())
        elif self.path == "/atom":
            self.answer(200, "application/atom+xml", (
                '<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
                '<feed xmlns="http://www.w3.org/2005/Atom"><title>Notes</title>'
                '<entry><title>First &b;</title><link rel="self" href="https://example.com/self"/><link href="https://example.com/first"/>'
                '<updated>2026-11-24T09:30:00Z</updated><summary>One</summary></entry></feed>').encode())
        elif self.path == "/json":
            self.answer(200, "application/json; charset=utf-8", b'{"name": "Ridge Loop", "distance": 4.2, "tags": ["easy"]}')
        elif self.path == "/badjson":
            self.answer(200, "application/json", b'{\n  "name": "Ada",\n  "age": 3x\n}')
        elif self.path == "/surrogates":
            self.answer(200, "application/json", b'["\\uD888\\u1234", "\\uD800\\uD800\\n"]')
        elif self.path == "/text":
            self.answer(200, "text/plain; charset=utf-8", "caf\u00e9\n".encode())
        elif self.path == "/html":
            self.answer(200, "text/html", b"<h1>Hi</h1>")
        elif self.path.startswith("/named/"):
            self.answer(200, "text/html", b"<p>named by its URL</p>")
        elif self.path.startswith("/gallery"):
            # A page with feeds and images, relative to its <base>; with ?foreign, an image on
            # another host name (localhost), which a grant of 127.0.0.1 does not cover.
            port = self.server.server_address[1]
            foreign = f'<img src="http://localhost:{port}/png">' if "foreign" in self.path else ""
            inline = "data:image/png;base64," + base64.b64encode(PNG).decode()
            self.answer(200, "text/html", (
                '<html><head><link rel="alternate" type="application/rss+xml" href="/rss" title="Trails">'
                f'<link rel="alternate" type="application/atom+xml" href="http://127.0.0.1:{port}/atom">'
                '<link rel="stylesheet" href="/style.css"><base href="/pics/"></head><body><p>Photos'
                f'<img src="../png"><img src=" ../png "><img src="{inline}"><img src="javascript:alert(1)"><img>'
                f'{foreign}</p></body></html>').encode())
        elif self.path == "/logo.svg":
            self.answer(200, "image/svg+xml", b'<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>')
        elif self.path == "/big.png":
            self.answer(200, "image/png", PNG + bytes(20 << 20))
        elif self.path == "/png":
            self.answer(200, "image/png", PNG)
        elif self.path == "/gone-page":
            body = b"<html><head><title>Gone</title><style>p{}</style></head><body><h1>Gone</h1>\n<p>The   trail\x07 moved.</p>" + b"<p>x</p>" * 500 + b"</body></html>"
            self.send_response(410)
            self.send_header("Content-Type", "text/html")
            self.send_header("X-Trail", "ridge")
            self.send_header("X-Trail", "loop")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif self.path.startswith("/flaky/"):
            # /flaky/KEY/N: 503 for the first N requests naming KEY, then 200 with the request's number.
            _, _, key, failures = self.path.split("/")
            with COUNTS_LOCK:
                COUNTS[key] = COUNTS.get(key, 0) + 1
                count = COUNTS[key]
            if count <= int(failures):
                self.answer(503, "text/plain", b"down for a moment")
            else:
                self.answer(200, "application/json", json.dumps({"attempt": count}).encode())
        elif self.path.startswith("/busy/"):
            # /busy/KEY/SECONDS: the first request naming KEY gets 429 with Retry-After: SECONDS, then 200.
            _, _, key, seconds = self.path.split("/")
            with COUNTS_LOCK:
                COUNTS[key] = COUNTS.get(key, 0) + 1
                count = COUNTS[key]
            if count == 1:
                self.send_response(429)
                self.send_header("Retry-After", seconds)
                self.send_header("Content-Length", "0")
                self.end_headers()
            else:
                self.answer(200, "application/json", json.dumps({"attempt": count}).encode())
        elif self.path.startswith("/status/"):
            self.answer(int(self.path.split("/")[-1]), "text/plain", b"no such trail here")
        elif self.path == "/slow":
            time.sleep(3)
            self.answer(200, "text/plain", b"late")
        elif self.path.startswith("/together/"):
            # Answers "together" once N requests to /together/N are here at once (within 30 s),
            # else "alone": whether requests run side by side, whatever the machine's speed.
            wanted = int(self.path.split("/")[-1])
            with TOGETHER:
                ARRIVED[wanted] = ARRIVED.get(wanted, 0) + 1
                TOGETHER.notify_all()
                met = TOGETHER.wait_for(lambda: ARRIVED[wanted] >= wanted, timeout=30)
            self.answer(200, "text/plain", b"together" if met else b"alone")
        else:
            self.answer(404, "text/plain", b"unknown path")

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = handle_any

    def do_HEAD(self):
        # The headers a GET would get, and no body; a redirect as for a GET.
        if self.path.startswith("/redirect/"):
            return self.redirect()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "1000")
        self.send_header("X-Method", self.command)
        self.end_headers()


def exit_with_parent():
    """The test process holds our standard input open; when it ends, so do we."""
    sys.stdin.read()
    os._exit(0)


threading.Thread(target=exit_with_parent, daemon=True).start()
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
