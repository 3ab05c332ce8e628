"""Packets that survive mail: an armoured block of short lines (docs/notation.md).

``armor(text)`` wraps a record or packet as::

    -----BEGIN TRVENDETTA PACKET-----
    eJzNWm1v2zYQ/ivGvqaQ... (base64 of the zlib-compressed file, 76 characters a line)
    -----END TRVENDETTA PACKET-----

with the moves in sentences above the block (``words``, for the people who
read the mail; nothing reads them back).  Mail clients leave such lines alone (no line is longer than 76 characters, no
line starts with a space or "From "), and :func:`unwrap` finds the block in
a whole mail body: text around it, ``> `` quoting (any depth), blank or
``\\r\\n`` line ends.  Decompression is bounded by the record size limit.
"""

from __future__ import annotations

import base64
import binascii
import re
import textwrap
import zlib
from collections.abc import Sequence

from trvendetta.core.errors import TrvError

BEGIN = "-----BEGIN TRVENDETTA PACKET-----"
END = "-----END TRVENDETTA PACKET-----"
WIDTH = 76
_QUOTE = re.compile(rb"^(?:[ \t]*>[ \t]?)*")


def armor(text: str, words: Sequence[str] = ()) -> str:
    """The armoured block of ``text``, after ``words`` (the moves in sentences, for the
    reader of the mail: :func:`unwrap` reads only the block, so they carry no weight)."""
    data = base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode()
    lines = [data[i:i + WIDTH] for i in range(0, len(data), WIDTH)]
    said = [line for w in words for line in _wrapped(w)]
    return "\n".join([*said, *([""] if said else []), BEGIN, *lines, END]) + "\n"


def _wrapped(sentence: str) -> list[str]:
    """A numbered sentence in lines of at most WIDTH characters, none starting with a space
    (which mail programs may fold away): the lines after the first start with "| "."""
    lines = textwrap.wrap(sentence, WIDTH - 2, break_long_words=True, break_on_hyphens=False) or [""]
    return [lines[0].lstrip(), *(f"| {line}" for line in lines[1:])]


def unwrap(data: bytes, limit: int, source: str = "file") -> bytes:
    """The record or packet inside an armoured block of ``data``; ``data`` itself when it holds none."""
    if BEGIN.encode() not in data:
        return data
    body: list[bytes] = []
    inside = ended = False
    for raw in data.replace(b"\r\n", b"\n").split(b"\n"):
        line = _QUOTE.sub(b"", raw, count=1).strip()  # (the pattern matches at 0 always, maybe empty)
        if not inside:
            inside = line == BEGIN.encode()
            continue
        if line == END.encode():
            ended = True
            break
        body.append(line)
    if not ended:
        raise TrvError(f"{source}: the packet block has no '{END}' line (cut off in the mail?)")
    try:
        packed = base64.b64decode(b"".join(body), validate=True)
    except binascii.Error:
        raise TrvError(f"{source}: the packet block is not base64 (edited in the mail?)") from None
    inflate = zlib.decompressobj()
    try:
        text = inflate.decompress(packed, limit + 1)
    except zlib.error as exc:
        raise TrvError(f"{source}: the packet block does not decompress ({exc}): it was damaged") from None
    if len(text) > limit or inflate.unconsumed_tail:
        raise TrvError(f"{source}: the packet block unpacks to more than {limit} bytes; a record may be at most "
                       f"{limit}")
    if not inflate.eof:
        raise TrvError(f"{source}: the packet block is cut short")
    return text
