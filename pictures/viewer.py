"""The self-contained HTML replay viewer (``trv replay --html``).

One file, no network, no external script or font: the board at every event
(drawn by :mod:`.svg` from the view, so the page holds no second copy of the
rules or of the drawing), a slider, step buttons and the arrow keys, the
event sentences with the current one highlighted (click one to jump), the
dashboards, and the record's verification: the hash chain is checked again
in the page by its own SHA-256 (SubtleCrypto is missing on ``file://``
pages in some browsers), beside the result of re-executing every action
when the file was written.

Each distinct SVG piece is stored once and a frame is the list of its
pieces, so a 1,000-event game stays small (docs/performance.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any, Callable

import msgspec

from trvendetta.replays.audit import walker_for
from trvendetta.replays.walker import Visitor, Walker
from trvendetta.store import describe_store_record, genesis

from . import last_of
from .svg import DEFS, scene

HERE = Path(__file__).resolve().parent


@dataclass
class Verification:
    """What the writer found: ``ok`` (re-executed and identical), ``text`` for people."""

    ok: bool
    text: str
    note: str = ""


@dataclass
class Frames(Visitor):
    """Collects, per record, the board's pieces, the sentence and the raw record."""

    pieces: list[str] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)
    frames: list[dict] = field(default_factory=list)
    rows: list[str] = field(default_factory=list)
    pending_action: str = ""
    #: the state as the page's reader may see it, given the events just folded (``trv replay --html`` of
    #: a signed game: as `trv show` shows it to the local identity); None: the state itself
    seen: Callable[[Any, list[Any]], Any] | None = None

    def _piece(self, text: str) -> int:
        n = self.index.get(text)
        if n is None:
            n = self.index[text] = len(self.pieces)
            self.pieces.append(text)
        return n

    def _frame(self, walker: Walker, record: Any, sentence: str, events: list[Any]) -> None:
        ruleset = walker.ruleset
        view = ruleset.view(walker.state if self.seen is None else self.seen(walker.state, events))
        last = last_of(ruleset, view, record.number, events, sentence)
        sc = scene(view, last, caption=False)
        self.frames.append({"p": [self._piece(p) for p in sc.pieces], "w": round(sc.width), "h": round(sc.height)})
        action = self.pending_action
        self.pending_action = ""
        row = f'<li data-n="{record.number}">'
        if action:
            row += f'<span class="act">{escape(action)}</span>'
        row += f'<span class="n">{record.number}.</span> <span class="s">{escape(sentence)}</span></li>'
        self.rows.append(row)

    def on_action(self, walker: Walker, record: Any, group: Any) -> None:
        who = group.player
        self.pending_action = (f"{who}: " if who else "") + walker.ruleset.describe_action(group.action)

    def on_event(self, walker: Walker, record: Any, event: Any) -> None:
        self._frame(walker, record, walker.ruleset.describe(event), [event])

    def on_draw(self, walker: Walker, record: Any, entry: Any, action: Any) -> None:
        if action is not None:
            self.pending_action = f"{entry.seat}: {walker.ruleset.describe_action(action)}"
        self._frame(walker, record, describe_store_record(entry), [])

    def on_retraction(self, walker: Walker, record: Any, retraction: Any, group: Any) -> None:
        what = walker.ruleset.describe_action(group.action) if group is not None else "an action"
        agreed = " (agreed)" if retraction.agreed else ""
        self._frame(walker, record, f"{retraction.player} takes back {what!r}: events {retraction.first}-"
                                    f"{retraction.last} retracted{agreed}", [])


def _text(data: bytes) -> str:
    return data.decode("utf-8")


def _record(r: Any) -> dict:
    out = {"n": r.number, "payload": _text(r.payload), "action": _text(r.action or b""), "hash": r.hash}
    sig = getattr(r, "sig", b"")
    if sig:
        out["sig"] = _text(sig)
    return out


def _json_for_script(obj: Any) -> str:
    """JSON safe inside a <script> element (no ``</script>``, no ``<!--``)."""
    return msgspec.json.encode(obj).decode().replace("<", "\\u003c").replace(">", "\\u003e")


def page(ruleset: Any, records: list[Any], *, title: str, facts: list[tuple[str, str]],
         verification: Verification, charter: str = "", domain: str = "", start: str | None = None,
         seen: Callable[[Any, list[Any]], Any] | None = None) -> str:
    """The HTML document of the game whose records are ``records`` (a game
    with seats bound to keys: its ``charter`` and ``domain``; ``start``:
    the hash its chain starts from, when not the charter's alone; ``seen``: as ``Frames.seen``)."""
    frames = Frames(seen=seen)
    start = genesis(charter) if start is None else start
    walker = walker_for(ruleset, charter, domain, [frames], start=start).walk(records)
    head = records[-1].hash if records else start
    retracted = walker.retracted | walker.retractions
    rows = [r.replace("<li ", '<li class="retracted" ', 1) if n + 1 in retracted else r
            for n, r in enumerate(frames.rows)]
    data = {
        "pieces": frames.pieces,
        "frames": frames.frames,
        "records": [_record(r) for r in records],
        "genesis": start,
        "head": head,
        "verified": {"ok": verification.ok, "text": verification.text, "note": verification.note},
    }
    css = (HERE / "viewer.css").read_text(encoding="utf-8")
    js = (HERE / "viewer.js").read_text(encoding="utf-8")
    fact_rows = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in facts)
    status = "ok" if verification.ok else "bad"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(title)}</title>
<style>{css}</style>
</head><body>
<header><h1>{escape(title)}</h1><dl class="facts">{fact_rows}</dl>
<div id="verify"><div id="reexec" class="{status}"><b>Re-execution when written:</b> {escape(verification.text)}\
{('<br>' + escape(verification.note)) if verification.note else ''}</div>
<div id="chain" class="pending"><b>Hash chain, checked in this page:</b> <span>checking...</span></div></div>
</header>
<main>
<section id="stage">
<div id="controls">
<button id="first" title="first event (Home)">|&#x25C0;</button>
<button id="prev" title="previous event (left arrow)">&#x25C0;</button>
<input id="slider" type="range" min="1" max="{len(frames.frames)}" value="{len(frames.frames)}" \
aria-label="event">
<button id="next" title="next event (right arrow)">&#x25B6;</button>
<button id="last" title="last event (End)">&#x25B6;|</button>
<span id="where"></span>
</div>
<div id="current"></div>
<svg id="board" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="the board">{DEFS}\
<rect id="paper" width="100%" height="100%" fill="#fff"/><g id="layer"></g></svg>
</section>
<aside><h2>Events</h2><ol id="events">{''.join(rows)}</ol></aside>
</main>
<script type="application/json" id="data">{_json_for_script(data)}</script>
<script>{js}</script>
</body></html>
"""
