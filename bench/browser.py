"""A tiny Chrome DevTools Protocol client over ``--remote-debugging-pipe``.

Drives Debian's Chromium for the replay viewer's browser test and its bench
figure.  Why not selenium or a websocket client: the pipe needs no network
port, no chromedriver of the matching version and no dependency at all; CDP
messages are JSON separated by NUL bytes on file descriptors 3 (to the
browser) and 4 (from it), which is what Puppeteer's pipe mode speaks.

Also a PNG reader (stdlib zlib) for checking screenshots.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import shutil
import struct
import subprocess
import tempfile
import threading
import zlib
from collections import deque
from typing import Any

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--remote-debugging-pipe"]


def chromium() -> str | None:
    """The Chromium executable, or None."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


class CDPError(RuntimeError):
    pass


class Browser:
    """One headless Chromium with a fresh profile; ``page(url)`` opens a tab."""

    def __init__(self, executable: str | None = None, timeout: float = 60.0):
        exe = executable or chromium()
        if exe is None:
            raise CDPError("no chromium executable")
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="trv-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def fds() -> None:  # in the child: our pipe ends become fds 3 and 4
            a = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen([exe, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, pass_fds=(3, 4), preexec_fn=fds)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._next = 0
        self._lock = threading.Condition()
        self._replies: dict[int, dict] = {}
        self.events: deque[dict] = deque()
        self._closed = False
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # ---------------------------------------------------------------- wire
    def _read(self) -> None:
        buf = b""
        while True:
            try:
                chunk = os.read(self._from_browser, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                with self._lock:
                    self._closed = True
                    self._lock.notify_all()
                return
            buf += chunk
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                msg = json.loads(raw)
                with self._lock:
                    if "id" in msg:
                        self._replies[msg["id"]] = msg
                    else:
                        self.events.append(msg)
                    self._lock.notify_all()

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        with self._lock:
            self._next += 1
            n = self._next
        msg: dict[str, Any] = {"id": n, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._to_browser, json.dumps(msg).encode() + b"\0")
        with self._lock:
            if not self._lock.wait_for(lambda: n in self._replies or self._closed, self.timeout):
                raise CDPError(f"{method}: no reply in {self.timeout} s")
            if n not in self._replies:
                raise CDPError(f"{method}: the browser closed")
            reply = self._replies.pop(n)
        if "error" in reply:
            raise CDPError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def wait_event(self, method: str, session: str | None = None) -> dict:
        def found() -> dict | None:
            for e in self.events:
                if e.get("method") == method and (session is None or e.get("sessionId") == session):
                    self.events.remove(e)
                    return e
            return None

        with self._lock:
            got: list[dict | None] = [None]

            def ready() -> bool:
                got[0] = found()
                return got[0] is not None or self._closed

            if not self._lock.wait_for(ready, self.timeout) or got[0] is None:
                raise CDPError(f"no {method} event in {self.timeout} s")
            return got[0]

    # ---------------------------------------------------------------- pages
    def page(self, width: int = 1400, height: int = 1000) -> "Page":
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session)
        for domain in ("Page", "Runtime", "Log"):
            page.call(f"{domain}.enable")
        page.call("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        return page

    def close(self) -> None:
        try:
            if self.proc.poll() is None:
                try:
                    self.send("Browser.close")
                except CDPError:
                    pass
                try:
                    self.proc.wait(10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
        finally:
            for fd in (self._to_browser, self._from_browser):
                try:
                    os.close(fd)
                except OSError:
                    pass
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Page:
    def __init__(self, browser: Browser, session: str):
        self.browser, self.session = browser, session

    def call(self, method: str, params: dict | None = None) -> dict:
        return self.browser.send(method, params, self.session)

    def open(self, url: str) -> None:
        self.call("Page.navigate", {"url": url})
        self.browser.wait_event("Page.loadEventFired", self.session)

    def js(self, expression: str) -> Any:
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            raise CDPError(f"{expression}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def key(self, key: str, code: int) -> None:
        for kind in ("rawKeyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": key,
                                                 "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code})

    def click(self, x: float, y: float) -> None:
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def screenshot(self, clip: dict | None = None) -> bytes:
        params: dict[str, Any] = {"format": "png", "captureBeyondViewport": True}
        if clip:
            params["clip"] = {**clip, "scale": 1}
        return base64.b64decode(self.call("Page.captureScreenshot", params)["data"])

    def errors(self) -> list[str]:
        """Uncaught exceptions and console errors so far."""
        out = []
        for e in list(self.browser.events):
            if e.get("sessionId") != self.session:
                continue
            m, p = e.get("method"), e.get("params", {})
            if m == "Runtime.exceptionThrown":
                out.append(json.dumps(p.get("exceptionDetails", {}))[:500])
            elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append(json.dumps(p.get("args", []))[:500])
            elif m == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append(p["entry"].get("text", "")[:500])
        return out


def read_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and rows of RGB bytes of an 8-bit RGB or RGBA PNG (no interlace)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, (depth, ctype, interlace)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    prev = bytearray(stride)
    i = 0
    for _ in range(height):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + ((a + b) >> 1)) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        rows.append(bytes(line) if bpp == 3 else bytes(v for k, v in enumerate(line) if k % 4 != 3))
    return width, height, rows


def blobs(image: tuple[int, int, list[bytes]], rgb: tuple[int, int, int], min_area: int,
          tolerance: int = 8) -> list[int]:
    """Areas of the 4-connected regions of colour ``rgb`` (within ``tolerance``
    per channel) of at least ``min_area`` pixels in a ``read_png`` image."""
    width, height, rows = image
    r0, g0, b0 = rgb
    mask = bytearray(width * height)
    for y, row in enumerate(rows):
        base = y * width
        for x in range(width):
            k = 3 * x
            if abs(row[k] - r0) <= tolerance and abs(row[k + 1] - g0) <= tolerance and abs(row[k + 2] - b0) <= tolerance:
                mask[base + x] = 1
    areas = []
    for start in range(width * height):
        if not mask[start]:
            continue
        mask[start] = 0
        stack, area = [start], 0
        while stack:
            p = stack.pop()
            area += 1
            x = p % width
            for q in (p - width, p + width, p - 1 if x else -1, p + 1 if x < width - 1 else -1):
                if 0 <= q < width * height and mask[q]:
                    mask[q] = 0
                    stack.append(q)
        if area >= min_area:
            areas.append(area)
    return areas
