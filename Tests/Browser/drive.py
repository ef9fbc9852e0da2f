#!/usr/bin/env python3
"""Drives a real headless Chromium through the DevTools protocol over a pipe (no extra packages).

    drive.py STEPS_JSON

STEPS_JSON is a list of steps, run in order:
    ["goto", URL]          load URL, wait for its load event
    ["eval", EXPRESSION]   print {"eval": RESULT} as a line of JSON
    ["click", SELECTOR]    click the element, wait for the page it leads to
    ["wait", EXPRESSION]   wait until EXPRESSION is true (the page may load itself again meanwhile)
Prints {"error": ...} and exits 2 when the browser cannot start; 1 on any other failure.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

BROWSERS = ["chromium-headless-shell", "chromium", "chromium-browser", "google-chrome"]


def find_browser():
    for name in BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    for path in ["/usr/lib/chromium/chromium-headless-shell", "/usr/lib/chromium/chromium"]:
        if os.access(path, os.X_OK):
            return path
    return None


class Browser:
    def __init__(self, path):
        self.profile = tempfile.mkdtemp(prefix="relay-browser-")
        to_browser_read, self.to_browser = os.pipe()
        self.from_browser, from_browser_write = os.pipe()
        args = [path, "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-extensions", "--user-data-dir=" + self.profile, "about:blank"]

        def wire():
            # The browser reads fd 3 and writes fd 4; copies first, as either may be 3 or 4 now.
            reading, writing = os.dup(to_browser_read), os.dup(from_browser_write)
            os.dup2(reading, 3, inheritable=True)
            os.dup2(writing, 4, inheritable=True)

        # A session of its own: what the browser signals on its way out never reaches the tests.
        self.process = subprocess.Popen(args, close_fds=False, preexec_fn=wire, start_new_session=True,
                                        stdout=subprocess.DEVNULL, stderr=(None if os.environ.get("RELAY_BROWSER_LOG") else subprocess.DEVNULL))
        os.close(to_browser_read)
        os.close(from_browser_write)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        self.session = None

    def send(self, method, params=None, session=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self.read()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def read(self, deadline=30):
        stop = time.time() + deadline
        while b"\0" not in self.buffer:
            if time.time() > stop:
                raise RuntimeError("the browser said nothing for 30 s")
            chunk = os.read(self.from_browser, 65536)
            if not chunk:
                raise RuntimeError("the browser closed its pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def wait_for(self, method):
        while True:
            for index, event in enumerate(self.events):
                if event.get("method") == method:
                    del self.events[: index + 1]
                    return event
            self.events.append(self.read())

    def open(self):
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True}, session=False)["sessionId"]
        self.send("Page.enable")
        self.send("Runtime.enable")

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails'].get('text')}")
        return result.get("result", {}).get("value")

    def close(self):
        try:
            self.send("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def main():
    steps = json.loads(sys.argv[1])
    path = find_browser()
    if not path:
        print(json.dumps({"error": "no Chromium found (" + ", ".join(BROWSERS) + ")"}))
        return 2
    browser = Browser(path)
    try:
        try:
            browser.open()
        except Exception as error:
            print(json.dumps({"error": f"{path} did not start: {error}"}))
            return 2
        for step in steps:
            if step[0] == "goto":
                browser.events.clear()
                browser.send("Page.navigate", {"url": step[1]})
                browser.wait_for("Page.loadEventFired")
            elif step[0] == "eval":
                print(json.dumps({"eval": browser.evaluate(step[1])}), flush=True)
            elif step[0] == "wait":
                # Until EXPRESSION is true, the page loading itself again meanwhile: 30 s at most.
                stop = time.time() + 30
                while True:
                    try:
                        if browser.evaluate(step[1]):
                            break
                    except RuntimeError:
                        pass
                    if time.time() > stop:
                        raise RuntimeError(f"never true: {step[1]}")
                    time.sleep(0.1)
            elif step[0] == "click":
                browser.events.clear()
                clicked = browser.evaluate(f"(() => {{ const e = document.querySelector({json.dumps(step[1])}); if (!e) return false; e.click(); return true; }})()")
                if not clicked:
                    raise RuntimeError(f"nothing matches {step[1]}")
                browser.wait_for("Page.loadEventFired")
            else:
                raise RuntimeError(f"unknown step {step[0]}")
        return 0
    except Exception as error:
        print(json.dumps({"failure": str(error)}), flush=True)
        return 1
    finally:
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
