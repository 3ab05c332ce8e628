"""Arguments the commands share: game ids, files read or written, seats and keys.

Parsing only (one line of error naming the option); every command module
imports these from here, so no command module imports another.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from trvendetta.core.errors import TrvError
from trvendetta.core.names import name_problem

if TYPE_CHECKING:
    from collections.abc import Iterable

    from trvendetta.core.fairplay import Charter

    from .common import Session


def suggest(word: str, options: Iterable[str]) -> str:
    """`` (did you mean 'medium'?)`` when one or two of ``options`` are close to ``word``, else ""."""
    from trvendetta.core.names import did_you_mean

    return did_you_mean(word.casefold(), options)


def unknown(what: str, word: str, options: Iterable[str]) -> str:
    """One usage error's words: ``unknown crew 'car' (did you mean 'cars'?); crews: cars, finalfive``."""
    options = list(options)
    return f"unknown {what} {word!r}{suggest(word, options)}; {what}s: {', '.join(options)}"


def crews_line() -> str:
    """Every registered ruleset's crews (``Ruleset.crews``; a ruleset with none is left out):
    ``vendetta: cars, finalfive, bigrig; carnival: cars, finalfive``."""
    from trvendetta import rulesets

    return "; ".join(f"{rs.name}: {', '.join(rs.crews())}" for rs in rulesets.every() if rs.crews())


class CrewsHelp(click.Option):
    """An option taking crews: its help ends with the crews each ruleset offers, read from the
    rulesets when the help is printed (a plug-in ruleset's crews too), never when parsing."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        record = super().get_help_record(ctx)
        if record is None:
            return None
        line = crews_line()
        return record[0], f"{record[1]} Crews: {line}." if line else record[1]


def complete_ruleset(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """The shell's completion of ``--ruleset``: every ruleset that can be found."""
    from trvendetta import rulesets

    return [name for name in rulesets.names() if name.startswith(incomplete)]


def ruleset_arg(name: str, option: str = "--ruleset"):
    """The ruleset ``--ruleset`` names, or a usage error listing the known ones."""
    from trvendetta import rulesets

    try:
        return rulesets.get(name)
    except TrvError as exc:
        known = rulesets.names()
        if name in known:
            raise  # known but broken: not the user's typing
        if name in rulesets.installed():
            raise click.BadParameter(str(exc), param_hint=option) from None  # an installed plug-in that does not load
        raise click.BadParameter(unknown("ruleset", name, known), param_hint=option) from None


def complete_game(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[str]:
    """The shell's completion of a game id: the ids in the SQLite store the command line (or
    $TRV_STORE / $TRV_DB, else the default file) names, most recently used first.  Read only,
    and quiet: a store that is missing, locked or on PostgreSQL completes nothing."""
    import sqlite3

    from trvendetta.store import default_db_path, location
    from trvendetta.store.index import TABLE

    root = ctx.find_root().params
    where = root.get("store") or root.get("db") or os.environ.get("TRV_STORE") or os.environ.get("TRV_DB")
    try:
        target = location.parse(where or str(default_db_path()))
        if target.kind != "sqlite" or not os.path.isfile(target.target):
            return []
        db = sqlite3.connect(Path(target.target).resolve().as_uri() + "?mode=ro", uri=True, timeout=0.5)
        try:
            rows = db.execute(f"SELECT id FROM {TABLE} WHERE substr(id, 1, ?) = ? ORDER BY last_used DESC",
                              (len(incomplete), incomplete)).fetchall()
        finally:
            db.close()
    except (sqlite3.Error, TrvError, OSError):
        return []
    return [r[0] for r in rows]


def game_arg(session: "Session", game: str | None) -> str:
    """GAME if given (it becomes the session's game), else the session's current game."""
    if game:
        session.game_option = game
    return session.game_id()


def check_name(name: str | None, option: str = "--name") -> None:
    """Game ids as `trv new --name` takes them: the one rule of ``core.names``."""
    from trvendetta.core.names import name_problem

    if name is not None and (problem := name_problem(name)) is not None:
        raise click.BadParameter(problem, param_hint=option)


def write_text(output: str, text: str) -> None:
    """Write a file whole or not at all (a .part file renamed)."""
    tmp = Path(output).with_name(Path(output).name + ".part")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(output)


def read_untrusted(path: str) -> bytes:
    """A record, packet or claim file (``-``: standard input), size-limited before
    it is read (the one limit, ``replays.record.MAX_FILE_BYTES``, read when used, never copied)."""
    from trvendetta.replays import record as record_format

    limit = record_format.MAX_FILE_BYTES
    if path == "-":  # a pipe or a mail body pasted in: read at most one byte past the limit
        import sys

        data = sys.stdin.buffer.read(limit + 1)
        if len(data) > limit:
            raise TrvError(f"standard input: more than {limit} bytes; a record may be at most {limit}")
        return data
    try:
        size = os.path.getsize(path)
        if size > limit:
            raise TrvError(f"{path}: {size} bytes; a record may be at most {limit}")
        with open(path, "rb") as fh:
            return fh.read(limit + 1)
    except OSError as exc:
        raise TrvError(f"cannot read {path}: {exc.strerror or exc}") from None


def parse_player(text: str) -> tuple[str, str, str]:
    parts = text.split(":")
    if len(parts) == 2:
        parts.append("")  # no crew given: the ruleset's default crew (``Ruleset.default_crew``)
    elif len(parts) != 3 or not parts[2]:
        parts = []
    if len(parts) != 3 or not all(parts[:2]):
        raise click.BadParameter(f"{text!r} is not NAME:COLOR:CREW (for example ann:red:cars)", param_hint="--player")
    _check_names(text, {"NAME": parts[0], "COLOR": parts[1]}, "--player")
    return parts[0], parts[1], parts[2]


def crew_given(text: str, option: str) -> str:
    """The crew a ``--player`` (``NAME:COLOR:CREW``) or ``--bot`` (``KIND:COLOR:CREW[:NAME]``)
    value names, "" when it names none (``ann:red``, ``greedy:red:``, ``greedy:red::max``)."""
    parts = text.split(":")
    return parts[2] if len(parts) > 2 else ""


def seats_position(rules, triples: list, texts: list[str], options: list[str], seed: int = 0, **choices) -> Any:
    """The ruleset's position for the command line's seats (``triples`` of name, colour, crew,
    written ``texts`` with ``options`` --player or --bot).  What no game could take is that
    option's usage error (exit 2) naming the legal values: a count of seats out of range, a
    colour two seats share, a colour or crew the ruleset does not have.  A rule refusing a
    seat it knows (the Big Rig in the arena) breaks a rule (exit 1)."""
    import re

    from trvendetta.core.errors import PositionError

    low, high, n = rules.min_players, rules.max_players, len(triples)
    if not low <= n <= high:
        raise click.BadParameter(f"{n} seat{'' if n == 1 else 's'}; {rules.name} is for {low} to {high} players",
                                 param_hint="--player/--bot")
    crews = tuple(rules.crews())
    for text, option in zip(texts, options):
        crew = crew_given(text, option)
        if crew and not crews:  # (a ruleset with crews refuses one it has not below, naming its own)
            form = "KIND:COLOR: or KIND:COLOR::NAME" if option == "--bot" else "NAME:COLOR"
            raise click.BadParameter(f"{text!r}: the {rules.name} ruleset has no crews, so a seat takes none "
                                     f"(crew {crew!r}); give the seat as {form}", param_hint=option)
    owner: dict[str, str] = {}
    for (name, color, _), text, option in zip(triples, texts, options):
        if color in owner:
            free = [c for c in rules.colors() if c not in owner]
            raise click.BadParameter(f"{text!r}: {color} is {owner[color]}'s colour already; each seat has its own"
                                     + (f" (free: {', '.join(free)})" if free else ""), param_hint=option)
        owner[color] = name
    try:
        return rules.default_position(triples, seed, **choices)
    except PositionError as exc:
        found = re.fullmatch(r"players\[(\d+)\]\.(name|color|crew)", exc.field)
        if found is None or not exc.legal:
            raise
        i, part = int(found.group(1)), found.group(2)
        value = triples[i][("name", "color", "crew").index(part)]
        what = {"color": "colour"}.get(part, part)
        raise click.BadParameter(f"{texts[i]!r}: {unknown(what, value, exc.legal)}", param_hint=options[i]) from None


def _check_names(text: str, parts: dict[str, str], option: str) -> None:
    """Every name in a --player/--bot value follows the one rule (``core.names``)."""
    for label, value in parts.items():
        problem = name_problem(value)
        if problem is not None:
            hint = "; give the seat a NAME (KIND:COLOR:CREW:NAME)" if option == "--bot" and label == "NAME" \
                and text.count(":") == 2 else ""
            raise click.BadParameter(f"{text!r}: {label} {problem}{hint}", param_hint=option)


def parse_keys(keys: tuple[str, ...], names: list[str], bots: dict[str, str], *, nonce: str = "",
               allow_shared: bool = False) -> str:
    """``--key SEAT=VALUE`` options -> the charter's canonical JSON ("" for none), with ``nonce``
    (docs/fair-play.md, "Unique games").  One key for two seats is refused unless ``allow_shared``
    (hot-seat testing: `trv verify` then says so, and tournaments refuse the game)."""
    if not keys:
        return ""
    from trvendetta.store import Charter, encode_charter

    from .identity import resolve_key

    bound: dict[str, str] = {}
    for text in keys:
        seat, eq, value = text.partition("=")
        if not eq or not seat or not value:
            raise click.BadParameter(f"{text!r} is not SEAT=FINGERPRINT|FILE (for example ann=ann.pub)",
                                     param_hint="--key")
        if seat not in names:
            raise click.BadParameter(f"{text!r}: no seat called {seat!r}; the seats are {', '.join(names)}",
                                     param_hint="--key")
        if seat in bots:
            raise click.BadParameter(f"{text!r}: {seat} is a bot seat; only a player's seat is bound to a key",
                                     param_hint="--key")
        if seat in bound:
            raise click.BadParameter(f"{text!r}: {seat}'s key is given twice", param_hint="--key")
        bound[seat] = resolve_key(seat, value)
    charter = Charter(bound, nonce=nonce)
    if not allow_shared:
        refuse_shared(charter)
    return encode_charter(charter)


def refuse_shared(charter: Charter | str | None) -> None:
    """One clear refusal of a charter that binds one key to two players (docs/fair-play.md)."""
    from trvendetta.replays.charters import shared_key_line

    line = shared_key_line(charter)
    if line:
        raise click.BadParameter(f"{line}: one person would sign as two players; give each seat its own "
                                 "key (--allow-shared-key, for hot-seat testing only: `trv verify` then says "
                                 "so and tournaments refuse the game)", param_hint="--key")


def timed(charter: str, time: str | None) -> str:
    """``charter`` with the time control ``--time`` gives (checked: one clear error naming the
    forms); a time control needs a signed game (a charter)."""
    if not time:
        return charter
    from trvendetta.app.clock import parse_time_control
    from trvendetta.core.fairplay import charter_of
    from trvendetta.store import encode_charter

    control = parse_time_control(time)  # one clear error naming the forms
    if not charter:
        raise click.UsageError("--time needs a signed game: bind the seats to keys with --key SEAT=KEY "
                               "(a claim on time is signed by the waiting player)")
    import msgspec

    return encode_charter(msgspec.structs.replace(charter_of(charter), time=str(control)))


def time_option(fn):
    """``--time``: a game's time control (docs/fair-play.md, "Time limits")."""
    return click.option("--time", "time", metavar="LIMIT",
                        help="A time limit: 3d (each answer within 3 days) or 7d+1d (a reserve of 7 days, plus "
                             "1 day an answer); units m, h, d. Past it, the waiting player may claim the game "
                             "(trv claim).")(fn)
