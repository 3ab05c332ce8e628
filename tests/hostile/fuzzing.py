"""Strategies and helpers of the fuzz suite (``test_fuzz.py``): hostile
position files, records, packets, claims and command lines."""

from __future__ import annotations

import json
import os
import re
from collections import Counter

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from trvendetta.store import GENESIS, chain

#: examples per fuzz target in the default run, and under ``-m slow``
BUDGET = int(os.environ.get("TRV_FUZZ_EXAMPLES", "150"))
LONG_BUDGET = int(os.environ.get("TRV_FUZZ_LONG_EXAMPLES", "1500"))
#: inputs tried per target in this process (the figures the issue note reports)
TRIED: Counter = Counter()


def fuzz_settings(examples: int) -> settings:
    """Deterministic (``derandomize``: the same inputs on every run and in
    CI), no example database written, no deadline (the machine is shared)."""
    return settings(max_examples=examples, derandomize=True, database=None, deadline=None,
                    suppress_health_check=list(HealthCheck), print_blob=False)


# ----------------------------------------------------------------- values
HUGE = ["9" * 30, "9223372036854775807", "9223372036854775808", "-9223372036854775809", "9" * 4299,
        "1" + "0" * 5000, "-1", "0", "1e999", "-0.0", "1.5"]
WEIRD_TEXT = ["", " ", "a b", "é", "٣", "ａ", "c٣", "a" * 41, "a" * 5000, "\x00", "\n", "\\", '"', "'", "-", "--",
              "-x", ".", "..", "%", "{}", "[]", "null", "true", "c5", "z99", "a0", "F,FR,F", "BL", "NaN", "inf"]


def json_texts(max_leaves: int = 8) -> st.SearchStrategy[str]:
    """JSON text: ordinary values, huge and odd numbers, deep nesting (past
    any recursion limit), odd strings; sometimes not JSON at all."""
    leaf = st.one_of(
        st.integers(min_value=-(2**70), max_value=2**70).map(str),
        st.sampled_from(HUGE),
        st.floats(allow_nan=False, allow_infinity=False).map(repr),
        st.booleans().map(lambda b: "true" if b else "false"),
        st.just("null"),
        st.text(max_size=12).map(lambda t: json.dumps(t)),
        st.sampled_from(WEIRD_TEXT).map(json.dumps),
    )
    nested = st.recursive(
        leaf,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4).map(lambda xs: "[" + ",".join(xs) + "]"),
            st.dictionaries(st.sampled_from(["type", "id", "name", "at", "player", "x", "seed", "version",
                                             "players", "vehicles", "kind", "first", "last"]),
                            inner, max_size=4).map(
                lambda d: "{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in d.items()) + "}"),
        ),
        max_leaves=max_leaves,
    )
    deep = st.sampled_from([1000, 5000, 100_000]).flatmap(
        lambda n: st.sampled_from(["[" * n + "]" * n, '{"a":' * n + "1" + "}" * n, "[" * n]))
    broken = st.text(max_size=20)
    return st.one_of(nested, nested, nested, deep, broken)


def replace_somewhere(text: str, data: st.DataObject, value: str) -> str:
    """``text`` (JSON) with one of its values (a leaf or a whole subtree) replaced by raw ``value``."""
    try:
        obj = json.loads(text)
    except ValueError:
        return text
    paths: list[tuple] = []

    def walk(node, path):
        paths.append(path)
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, path + (k,))
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, path + (i,))

    walk(obj, ())
    path = data.draw(st.sampled_from(paths[1:] or paths), label="path")
    hole = "\u0000HOLE\u0000"
    if not path:
        return value
    node = obj
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = hole
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).replace(json.dumps(hole), value)


def mutate_bytes(data: st.DataObject, raw: bytes) -> bytes:
    """A few byte-level edits: flips, deletions, insertions, a cut, a duplicated line."""
    out = bytearray(raw)
    for _ in range(data.draw(st.integers(1, 4), label="edits")):
        if not out:
            break
        at = data.draw(st.integers(0, len(out) - 1), label="at")
        kind = data.draw(st.sampled_from(["flip", "delete", "insert", "cut", "dup"]), label="edit")
        if kind == "flip":
            out[at] ^= 1 << data.draw(st.integers(0, 7))
        elif kind == "delete":
            del out[at: at + data.draw(st.integers(1, 40))]
        elif kind == "insert":
            out[at:at] = data.draw(st.binary(min_size=1, max_size=8))
        elif kind == "cut":
            del out[at:]
        else:
            lines = bytes(out).split(b"\n")
            i = at % len(lines)
            lines.insert(i, lines[i])
            out = bytearray(b"\n".join(lines))
    return bytes(out)


# ------------------------------------------------------------ records
_EVENT = re.compile(r"^(\d+) ([0-9a-f]{64}) (.*)$")


def rechain(text: str) -> str:
    """The record or packet with every hash, ``GameId`` and ``Head`` recomputed,
    so an edited payload gets past the hash chain to the decoders and the rules."""
    lines = text.split("\n")
    since = re.search(r'^\[SinceHash "([0-9a-f]{64})"\]$', text, re.M)
    previous = since.group(1) if since else GENESIS
    first = None
    action = b""
    for i, line in enumerate(lines):
        if line.startswith("> "):
            action = line[2:].encode()
            continue
        m = _EVENT.match(line)
        if m:
            h = chain(previous, m.group(3).encode(), action)
            lines[i] = f"{m.group(1)} {h} {m.group(3)}"
            previous, action = h, b""
            first = first or h
    out = "\n".join(lines)
    out = re.sub(r'^\[Head "[0-9a-f]*"\]$', f'[Head "{previous}"]', out, flags=re.M)
    if first and not since:
        out = re.sub(r'^\[GameId "[0-9a-f]*"\]$', f'[GameId "{first}"]', out, flags=re.M)
    return out


def mutate_record(data: st.DataObject, text: str) -> bytes:
    """A hostile variant of a record or packet: an event's or action's JSON
    edited (then rechained), a header value replaced, or bytes damaged."""
    how = data.draw(st.sampled_from(["payload", "payload", "action", "header", "bytes", "lines"]), label="how")
    lines = text.split("\n")
    if how in ("payload", "action"):
        spots = [i for i, line in enumerate(lines)
                 if (how == "payload" and _EVENT.match(line)) or (how == "action" and line.startswith("> "))]
        if spots:
            i = data.draw(st.sampled_from(spots), label="line")
            value = data.draw(json_texts(), label="value")
            if how == "payload":
                m = _EVENT.match(lines[i])
                lines[i] = f"{m.group(1)} {m.group(2)} {replace_somewhere(m.group(3), data, value)}"
            else:
                lines[i] = "> " + replace_somewhere(lines[i][2:], data, value)
        return rechain("\n".join(lines)).encode()
    if how == "header":
        spots = [i for i, line in enumerate(lines) if line.startswith("[")]
        i = data.draw(st.sampled_from(spots), label="tag")
        key = lines[i][1:].split(" ", 1)[0]
        value = data.draw(st.one_of(st.sampled_from(HUGE + WEIRD_TEXT), st.text(max_size=30)), label="tag value")
        lines[i] = f"[{key} {json.dumps(value)}]"
        return "\n".join(lines).encode()
    if how == "lines":
        spots = [i for i, line in enumerate(lines) if _EVENT.match(line) or line.startswith("> ")]
        i = data.draw(st.sampled_from(spots), label="line")
        if data.draw(st.booleans(), label="drop"):
            del lines[i]
        else:
            lines.insert(i, lines[i])
        return rechain("\n".join(lines)).encode()
    return mutate_bytes(data, text.encode())


# --------------------------------------------------------- positions
def to_toml(data: dict) -> str:
    """A small TOML writer (the standard library only reads TOML): top-level
    keys, arrays and inline tables; raw strings (``RawToml``) pass through."""
    def value(v) -> str:
        if isinstance(v, RawToml):
            return v.text
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return repr(v)
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{key(k)} = {value(x)}" for k, x in v.items()) + "}"
        return json.dumps(str(v))

    def key(k: str) -> str:
        return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k)

    return "".join(f"{key(k)} = {value(v)}\n" for k, v in data.items())


class RawToml:
    def __init__(self, text: str):
        self.text = text


def toml_values() -> st.SearchStrategy:
    leaf = st.one_of(
        st.integers(min_value=-(2**64), max_value=2**64),
        st.sampled_from([RawToml(h) for h in ("9" * 5000, "9223372036854775808", "inf", "nan", "1979-05-27")]),
        st.booleans(), st.sampled_from(WEIRD_TEXT), st.text(max_size=10),
    )
    return st.recursive(leaf, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                      st.dictionaries(st.text(max_size=6), inner, max_size=3)),
                        max_leaves=6)


VENDETTA = {"players": [{"name": "ann", "color": "red"}, {"name": "bob", "color": "blue"}], "seed": 4}
CLASSIC = {"ruleset": "classic", "players": [{"name": "ann", "color": "red"}, {"name": "bob", "color": "blue"}],
           "seed": 4}
FIELDS = ["seed", "round", "turn", "active_player", "first_player", "road", "first_piece", "road_die", "fill",
          "vehicles", "terrain", "tokens", "wrecks", "choppers", "script", "rear_board", "boards", "cars",
          "players", "ruleset", "x"]
PLAYER_FIELDS = ["name", "color", "crew", "dice", "command_used", "turns"]


def position_texts() -> st.SearchStrategy[str]:
    """A position file: a valid one with fields replaced by hostile values, or its text damaged."""

    @st.composite
    def build(draw):
        base = json.loads(json.dumps(draw(st.sampled_from([VENDETTA, CLASSIC]))))
        for _ in range(draw(st.integers(1, 3))):
            where = draw(st.sampled_from(["top", "player", "script"]))
            if where == "top":
                base[draw(st.sampled_from(FIELDS))] = draw(toml_values())
            elif where == "player" and isinstance(base.get("players"), list) and len(base["players"]) == 2 \
                    and all(isinstance(p, dict) for p in base["players"]):
                base["players"][draw(st.integers(0, 1))][draw(st.sampled_from(PLAYER_FIELDS))] = draw(toml_values())
            elif where == "script":
                die = draw(st.sampled_from(["movement", "slam", "road", "stunt", "yellow", "red", "damage"]))
                n = draw(st.sampled_from([1, 3, 1001, 20000]))
                base["script"] = {die: [draw(st.sampled_from([6, 1, "TOP", "x", 99]))] * n}
        text = to_toml(base)
        if draw(st.integers(0, 4)) == 0:
            text = draw(st.sampled_from(["x = " + "[" * 5000 + "]" * 5000 + "\n", "a.b.c = 1\n[a]\n",
                                         "\ufeff" + text, text.replace("=", "", 1), text[: len(text) // 2]]))
        return text

    return build()
