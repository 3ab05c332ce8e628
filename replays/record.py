"""Game record and turn packet files: write them, and read them strictly.

A file (UTF-8 text, ``\\n`` line ends; see docs/notation.md)::

    % trvendetta record 1              (or: % trvendetta packet 1)
    [Game "duel"]                      header: one [Key "json string"] per line
    ...
                                       a blank line
    1. ann: assign 3 to red-small; ...   the move text (replays.notation)
                                       a blank line
    % events
    1 <hash> {"type":"game-started",...}
    > {"type":"assign",...}            the action that produced the next event
    15 <hash> {"type":"die-assigned",...}
    % end

Files are untrusted input: a size limit, a line length limit, header values
decoded by msgspec into a frozen struct (unknown keys, wrong types and values
out of bounds are refused with the key's name), payloads decoded later by
the ruleset's strict decoders.  Nothing is ever evaluated.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

import msgspec

from trvendetta.store import BOTS_CHAINED, GENESIS, STORE_SCHEMA, StoredEvent, chain, decode_charter, genesis
from trvendetta.store.records import decode_bots, encode_bots
from trvendetta.core.errors import TrvError

FORMAT_VERSION = 1
RECORD_MAGIC = f"% trvendetta record {FORMAT_VERSION}"
PACKET_MAGIC = f"% trvendetta packet {FORMAT_VERSION}"
EVENTS_MARK = "% events"
END_MARK = "% end"
#: limits on untrusted files
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_LINE_BYTES = 1024 * 1024
MAX_EVENTS = 1_000_000

Hash = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9_.\-]+$")]
Text = Annotated[str, msgspec.Meta(max_length=2000)]
Count = Annotated[int, msgspec.Meta(ge=0, le=MAX_EVENTS)]


class Header(msgspec.Struct, frozen=True, forbid_unknown_fields=True, rename="pascal"):
    """The header tags; the key names are the file's (``Game``, ``RulesVersion``...)."""

    game: Name
    ruleset: Annotated[str, msgspec.Meta(min_length=1, max_length=50, pattern=r"^[a-z0-9_\-]+$")]
    rules_version: Annotated[str, msgspec.Meta(min_length=1, max_length=50)]
    game_id: Hash  # the hash of event 1: the same game in every database
    events: Count  # number of the last event in the file
    head: Hash  # its hash
    players: Text = ""
    seed: Text = ""
    #: the seats bots play, canonical JSON ``{"seat":"bot kind"}`` (an import keeps them)
    bots: Text = ""
    #: when the exporting store created the game: written only on request (``trv export --created``),
    #: so the same game exports byte for byte alike from every store
    created: Text = ""
    parent: Annotated[str, msgspec.Meta(max_length=200)] = ""
    parent_at: Count = 0
    result: Text = ""
    since: Count = 0  # packets: the events after this one
    since_hash: Hash = "0" * 64
    #: the seats bound to public keys (``trvendetta.store.Charter`` JSON); the chain starts from it
    charter: Annotated[str, msgspec.Meta(max_length=20000)] = ""
    #: what the signatures name as the game when it is not GameId (a fork of a signed game)
    domain: Annotated[str, msgspec.Meta(max_length=20000, pattern="^([0-9]{1,9}:[0-9a-f]{64}( |$))*$")] = ""


class GameFile(msgspec.Struct, frozen=True):
    """A parsed record or packet."""

    kind: str  # "record" | "packet"
    header: Header
    moves: str
    records: tuple[Any, ...]  # StoredEvent (event and kind left to the walker)
    #: the hash event 1 follows (from the Charter and Bots; a packet: SinceHash)
    genesis: str = GENESIS
    #: the store schema its chain follows: 1 for a game whose Bots were stored outside the chain
    store_schema: int = STORE_SCHEMA

    @property
    def bots_unchained(self) -> bool:
        """Bot seats the hash chain does not cover (a game stored before they were chained)."""
        return bool(self.header.bots) and self.store_schema < BOTS_CHAINED


class FileError(TrvError):
    """A record or packet file that cannot be read (its structure, not its events)."""


# --------------------------------------------------------------------- write
def _tag(key: str, value: Any) -> str:
    return f"[{key} {msgspec.json.encode(str(value)).decode()}]"


def write(kind: str, header: Header, moves: str, records: list[StoredEvent]) -> str:
    """The file text of a record (``kind="record"``) or a turn packet (``"packet"``)."""
    lines = [RECORD_MAGIC if kind == "record" else PACKET_MAGIC]
    data = msgspec.to_builtins(header)
    defaults = msgspec.to_builtins(Header(game="x", ruleset="x", rules_version="x", game_id="0" * 64,
                                          events=0, head="0" * 64))
    for key in ("Game", "GameId", "Ruleset", "RulesVersion", "Players", "Seed", "Bots", "Created", "Parent", "ParentAt",
                "Charter", "Domain", "Since", "SinceHash", "Events", "Head", "Result"):
        value = data[key]
        required = key in ("Game", "GameId", "Ruleset", "RulesVersion", "Events", "Head")
        if kind == "packet" and key in ("Since", "SinceHash"):
            required = True
        if required or value != defaults[key]:
            lines.append(_tag(key, value))
    lines.append("")
    if moves:
        lines.append(moves)
        lines.append("")
    lines.append(EVENTS_MARK)
    for r in records:
        if r.action:
            lines.append("> " + r.action.decode())
        if r.sig:
            lines.append("+ " + r.sig.decode())
        lines.append(f"{r.number} {r.hash} {r.payload.decode()}")
    lines.append(END_MARK)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- read
_TAG = re.compile(r'^\[([A-Za-z]{1,30}) ("(?:[^"\\]|\\.)*")\]$')
_NUMBER = re.compile(rb"^[1-9][0-9]{0,8}$")
_HASH = re.compile(rb"^[0-9a-f]{64}$")


def read(data: bytes, source: str = "file") -> GameFile:
    """Parse a record or packet strictly; FileError / ``Tampered`` name what is wrong."""
    from .walker import Tampered

    if len(data) > MAX_FILE_BYTES:
        raise FileError(f"{source}: {len(data)} bytes; a record may be at most {MAX_FILE_BYTES}")
    if b"\r\n" in data and data.count(b"\r\n") == data.count(b"\n"):
        data = data.replace(b"\r\n", b"\n")  # a mailer's CRLF line ends, all of them (canonical JSON has no CR)
    try:
        mark = data.index(b"\n" + EVENTS_MARK.encode() + b"\n")
    except ValueError:
        raise FileError(f"{source}: no '{EVENTS_MARK}' line: not a trvendetta record") from None
    try:
        head_text = data[:mark].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileError(f"{source}: the header or moves are not UTF-8 ({exc})") from None
    head_lines = head_text.split("\n")
    first = head_lines[0]
    if first == RECORD_MAGIC:
        kind = "record"
    elif first == PACKET_MAGIC:
        kind = "packet"
    else:
        raise FileError(f"{source}: the first line is {first[:60]!r}, not {RECORD_MAGIC!r} or {PACKET_MAGIC!r}")
    tags: dict[str, str] = {}
    i = 1
    while i < len(head_lines) and head_lines[i]:
        m = _TAG.match(head_lines[i])
        if not m:
            raise FileError(f"{source}: header line {i + 1}: {head_lines[i][:80]!r} is not [Key \"value\"]")
        if m.group(1) in tags:
            raise FileError(f"{source}: header line {i + 1}: {m.group(1)} given twice")
        try:
            tags[m.group(1)] = msgspec.json.decode(m.group(2), type=str)
        except msgspec.DecodeError as exc:
            raise FileError(f"{source}: header line {i + 1}: {exc}") from None
        i += 1
    try:
        header = msgspec.convert(tags, Header, strict=False)
    except msgspec.ValidationError as exc:
        raise FileError(f"{source}: header: {exc}") from None
    try:
        decode_charter(header.charter)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise FileError(f"{source}: header: the Charter is not a list of seats and keys: {exc}") from None
    try:
        bots = decode_bots(header.bots)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise FileError(f"{source}: header: Bots is not a JSON object of seats and bots: {exc}") from None
    if header.bots and header.bots != encode_bots(bots):
        raise FileError(f"{source}: header: Bots is not canonical (seats sorted, no spaces): {header.bots!r}")
    moves = "\n".join(head_lines[i + 1 :]).strip("\n")
    start, schema = _start(data[mark + len(EVENTS_MARK) + 2 :], header, kind, Tampered)
    records = _events(data[mark + len(EVENTS_MARK) + 2 :], header, kind, Tampered, start)
    return GameFile(kind, header, moves, tuple(records), start, schema)


def _start(section: bytes, header: Header, kind: str, Tampered: Any) -> tuple[str, int]:
    """The hash event 1 follows and the store schema of the chain.

    A game's chain starts from its Charter and, since store schema 2, its
    Bots (``store.genesis``).  A record whose event 1 follows from the
    Charter alone although it names Bots is a game stored before bot seats
    were chained (schema 1): it is read as such, and ``trv verify`` says its
    bots are outside the chain.  A record whose event 1 follows from neither
    was changed: its Bots or Charter tag, or event 1."""
    if kind == "packet":
        return header.since_hash, STORE_SCHEMA
    plain = genesis(header.charter)
    if not header.bots:
        return plain, STORE_SCHEMA
    chained = genesis(header.charter, header.bots)
    first = _first_link(section)
    if first is None:
        return chained, STORE_SCHEMA  # no event 1 to tell by: the reader below names what is wrong
    action, sig, payload, digest = first
    if chain(chained, payload, action, sig) == digest:
        return chained, STORE_SCHEMA
    if chain(plain, payload, action, sig) == digest:
        return plain, 1
    raise Tampered(1, "its hash follows from neither the header's Charter and Bots nor the Charter alone: "
                      "the Bots or Charter tag, or event 1, was changed")


def _first_link(section: bytes) -> tuple[bytes, bytes, bytes, str] | None:
    """Event 1's action, signature, payload and hash, as the file gives them (None when unreadable)."""
    action = sig = b""
    at = 0
    for _ in range(3):  # an action line, a signature line, then event 1
        end = section.find(b"\n", at)
        raw = section[at:] if end < 0 else section[at:end]
        at = end + 1
        if raw.startswith(b"> "):
            action = raw[2:]
        elif raw.startswith(b"+ "):
            sig = raw[2:]
        else:
            parts = raw.split(b" ", 2)
            if len(parts) == 3 and parts[0] == b"1" and _HASH.match(parts[1]):
                return action, sig, parts[2], parts[1].decode()
            return None
    return None


def _events(section: bytes, header: Header, kind: str, Tampered: Any, start: str) -> list[StoredEvent]:
    lines = section.split(b"\n")
    if lines[-1] != b"":
        raise Tampered(header.since + 1, f"the file must end with '{END_MARK}' and a newline")
    lines.pop()
    out: list[StoredEvent] = []
    expect = header.since + 1 if kind == "packet" else 1
    previous = start
    action = b""
    sig = b""
    ended = False
    for raw in lines:
        if ended:
            raise Tampered(expect, f"text after '{END_MARK}'")
        if len(raw) > MAX_LINE_BYTES:
            raise Tampered(expect, f"a line of {len(raw)} bytes; at most {MAX_LINE_BYTES}")
        if raw == END_MARK.encode():
            if action or sig:
                raise Tampered(expect, "an action or signature line with no event after it")
            ended = True
            continue
        if raw.startswith(b"+ "):
            if sig:
                raise Tampered(expect, "two signature lines in a row")
            sig = raw[2:]
            if not sig or sig.startswith(b"{"):
                raise Tampered(expect, "the signature line is not SEAT:SIGNATURE")
            continue
        if raw.startswith(b"> "):
            if action or sig:
                raise Tampered(expect, "two action lines in a row, or an action after a signature")
            action = raw[2:]
            if not action.startswith(b"{"):
                raise Tampered(expect, "the action line is not a JSON object")
            continue
        parts = raw.split(b" ", 2)
        if len(parts) != 3 or not parts[2].startswith(b"{"):
            raise Tampered(expect, f"the line {raw[:60].decode('utf-8', 'replace')!r} is not 'NUMBER HASH EVENT'")
        number, digest, payload = parts
        if not _NUMBER.match(number):
            raise Tampered(expect, f"{number[:20].decode('utf-8', 'replace')!r} is not an event number")
        if int(number) != expect:
            raise Tampered(expect, f"numbered {int(number)}, expected {expect}")
        if not _HASH.match(digest):
            raise Tampered(expect, "the hash is not 64 lowercase hex digits")
        try:
            payload.decode("utf-8")
            action.decode("utf-8")
            sig.decode("utf-8")
        except UnicodeDecodeError:
            raise Tampered(expect, "the event, its action or its signature is not UTF-8") from None
        out.append(StoredEvent(expect, "", header.ruleset, 1, payload, digest.decode(), previous, None, None,
                               action, None, sig))
        previous = digest.decode()
        action = b""
        sig = b""
        expect += 1
        if len(out) > MAX_EVENTS:
            raise Tampered(expect, f"more than {MAX_EVENTS} events")
    if not ended:
        raise Tampered(expect, f"the file must end with '{END_MARK}'")
    if kind == "record" and not out:
        raise Tampered(1, "the record has no events; a game record holds at least its set-up (event 1)")
    last = out[-1].number if out else header.since
    if last != header.events:
        raise Tampered(last, f"the header says the last event is {header.events}, the file ends at {last}")
    if (out[-1].hash if out else header.since_hash) != header.head:
        raise Tampered(last, "the header's Head is not the hash of the last event")
    return out
