"""`trv --server URL ...`: the CLI as a club server's client (docs/server.md).

The client keeps a copy of each of the player's games from the server in a store of its own
(``$TRV_HOME/servers/SERVER.sqlite``), brought up to date before every command by importing
what the server has since (``GET /api/games/G/record?since=N``: checked like any packet, so a
server that altered a roll or an action is refused here too).  `show`, `legal`, `log` and
`export` are then the local commands on that copy; `turn`, `act` and `decide` play on it,
signed with the player's own key as in any host game, and what they recorded is posted to
the server as a packet (``POST /api/games/G/packet``), which imports it, rolls the dice the
action waits for and answers; the answer is imported back and printed.  `new`, `join` and
`games` ask the server.  The player's key never leaves this machine.
"""

from __future__ import annotations

import contextlib
import json
import os
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit

import click

from trvendetta.core.errors import TrvError
from trvendetta.rulesets import DEFAULT as DEFAULT_RULESET

from .identity import home

#: the commands `trv --server` runs: on the local copy, after a sync (and, for the playing ones,
#: posting what they recorded); `new`, `join`, `games` and `decline` are the server's
SYNCED = ("show", "legal", "log", "export", "turn", "act", "decide", "resign", "claim")
PLAYING = ("turn", "act", "decide", "resign")
REMOTE = ("new", "join", "games", "decline", "login", "logout", "id", "serve")
TIMEOUT = 60


def server_file(url: str) -> Path:
    parts = urlsplit(url)
    name = f"{parts.scheme}_{parts.hostname}_{parts.port or ''}".replace(":", "_").replace("/", "_")
    return home() / "servers" / f"{name}.json"


def base_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise click.BadParameter(f"{url!r}: give the server's address, like http://127.0.0.1:8470/",
                                 param_hint="URL")
    return f"{parts.scheme}://{parts.netloc}"


def saved_login(url: str) -> dict | None:
    path = server_file(url)
    if not path.exists():
        return None
    return json.loads(path.read_text())


def _save_login(url: str, data: dict) -> Path:
    path = server_file(url)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_name(path.name + ".part")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(json.dumps(data, indent=1, sort_keys=True) + "\n")
    tmp.replace(path)
    return path



class ServerRefused(TrvError):
    """The server answered with an error: its status and its JSON (``recorded``: the event a
    refused request's records were stored up to, when they were)."""

    def __init__(self, message: str, status: int, doc: dict):
        super().__init__(message)
        self.status, self.doc = status, doc


class Unreachable(TrvError):
    """No answer from the server (it may or may not have what was sent)."""


class Client:
    """JSON over HTTP to one server, with the session token when there is one."""

    def __init__(self, base: str, token: str | None):
        self.base, self.token = base.rstrip("/"), token

    def request(self, method: str, path: str, body: Any = None, *, text: bool = False) -> Any:
        data = None
        headers = {"Accept": "application/json"}
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            headers["Content-Type"] = "text/plain" if isinstance(body, bytes) else "application/json"
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        req = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=TIMEOUT) as resp:
                raw = resp.read()
        except urllib.error.HTTPError as exc:
            raw = exc.read()
            doc: dict = {}
            try:
                doc = json.loads(raw)
                message = doc["error"]
            except (ValueError, KeyError, TypeError):
                doc = doc if isinstance(doc, dict) else {}
                message = raw[:200].decode("utf-8", "replace") or exc.reason
            raise ServerRefused(f"the server refused: {message}", exc.code, doc) from None
        except (urllib.error.URLError, OSError) as exc:
            raise Unreachable(f"cannot reach the server at {self.base}: {getattr(exc, 'reason', exc)}") from None
        return raw.decode() if text else json.loads(raw)

    def get(self, path: str, *, text: bool = False) -> Any:
        return self.request("GET", path, text=text)

    def post(self, path: str, body: Any) -> Any:
        return self.request("POST", path, body)


def _server(ctx: click.Context) -> str:
    """The URL of `trv --server URL COMMAND` (the group's context holds the option)."""
    assert ctx.parent is not None  # (a command of the --server group)
    return ctx.parent.params["server"]


def client_for(url: str) -> tuple[Client, dict]:
    base = base_url(url)
    saved = saved_login(base)
    if saved is None:
        raise TrvError(f"you are not logged in to {base}: run trv login {base}")
    return Client(base, saved["token"]), saved


def mirror_path(url: str) -> str:
    path = server_file(url).with_suffix(".sqlite")
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    return str(path)


def _use_copy(session: Any, url: str) -> None:
    """The session's store becomes this server's local copy (created on first use)."""
    session.db, session.db_given = mirror_path(url), True
    session.store(session.db)


def sync(session: Any, client: Client, game: str, server_version: int, server_head: str | None = None) -> int:
    """Bring the session's copy of ``game`` up to the server's; its version now (``sync_store``)."""
    from .common import service

    return sync_store(service(session), client, game, server_version, server_head)


def sync_store(svc: Any, client: Client, game: str, server_version: int, server_head: str | None = None) -> int:
    """Bring ``game`` in the store of the service ``svc`` up to the server's version; its version now.
    The copy is compared with the server's record by head hash (``app.mirror``): a record of the copy
    the server lacks or a history that splits from the copy's is refused, named, with the copy's
    signed records kept as evidence."""
    from trvendetta import replays
    from trvendetta.app.mirror import compare

    store = svc.store
    have = store.version(game) if store.exists(game) else None
    if have is not None and server_head is not None:
        found = compare(store, game, server_version, server_head)
        if found is not None:
            _differs(client, store, game, server_version, server_head)
        if have >= server_version:
            return have
    elif have is not None and have >= server_version:
        return have
    path = f"/api/games/{game}/record" + (f"?since={have}" if have is not None else "")
    data = client.get(path, text=True).encode()
    gf = replays.read_file(data, f"{client.base}'s {game}")
    from .host import check_seeds, started_as

    # the seed inputs this player signed
    check_seeds(gf.header.charter, gf.header.game, gf.header.game_id, started_as(gf))
    try:
        svc.import_file(data, f"{client.base}'s {game}", parsed=gf)
    except replays.AlreadyApplied:
        pass
    except replays.PacketRefused as exc:
        if exc.reason != "forked" or have is None:
            raise
        _differs(client, store, game, server_version, server_head or "")
    from .host import host_keys

    svc.answer_host(game, host_keys())  # a player's store: the offer's game has started (one game per offer)
    return store.version(game)


def _differs(client: Client, store: Any, game: str, server_version: int, server_head: str) -> None:
    """The copy and the server's record differ: read the server's whole record, name where, keep the
    copy's records from there on as evidence, and stop (exit 1)."""
    from trvendetta import replays
    from trvendetta.app.mirror import compare

    from .identity import home

    record = replays.read_file(client.get(f"/api/games/{game}/record", text=True).encode(), f"{client.base}'s {game}")
    found = compare(store, game, record.header.events, record.header.head, record)
    if found is None:
        return
    folder = home() / "evidence"
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = folder / f"{game}-server-{found.at}.trv"
    path.write_text(found.evidence)
    raise TrvError(f"{found.line(game)}.  Your copy's records from event {found.at} on are kept as evidence in {path} "
                   f"(what you signed); nothing is shown from either record.  To follow the server's record from "
                   f"now on, move your copy of its games aside ({mirror_path(client.base)}): the next command "
                   "copies them again")


def pick_game(games: dict, given: str | None) -> str | None:
    """The game a command acts on: --game, else the one game waiting on you, else your latest
    (the server lists the games most recently played first)."""
    if given:
        return given
    playing = [g for g in games["games"]]
    waiting = [g for g in games["waiting_on_you"] if any(p["game"] == g for p in playing)]
    if waiting:
        return waiting[0]
    return playing[0]["game"] if playing else None


def _game_given(ctx: click.Context) -> str | None:
    """``--game X`` given after the command's name (``trv --server URL show --game X``): the group
    runs before the command parses it, so it is read from the command's arguments here."""
    args = list(ctx.meta.get("trv.args", ()))
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--game" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--game="):
            return arg.split("=", 1)[1]
    return None


def unsent_file(url: str, game: str) -> Path:
    """Where a move the server did not take is kept apart (never in the copy of the game)."""
    return server_file(url).with_suffix(".unsent") / f"{game}.trv"


def _send_unsent(client: Client, game: str) -> int | None:
    """A move kept from an earlier command that could not reach the server: sent now, before
    anything else; a refusal takes it back, saying so (the copy shows the server's game)."""
    path = unsent_file(client.base, game)
    if not path.exists():
        return None
    try:
        answer = client.request("POST", f"/api/games/{game}/packet", path.read_bytes())
    except Unreachable as exc:
        raise TrvError(f"{exc}; your move in {game} that did not reach it is kept apart ({path}) and sent by "
                       "your next command to this server") from None
    except ServerRefused as exc:
        if "recorded" not in exc.doc:
            kept = path.with_suffix(".refused")
            path.replace(kept)
            click.echo(f"your move in {game} that did not reach the server before is taken back: {exc} "
                       f"(kept in {kept}); your copy shows the server's game", err=True)
            return None
        answer = {"version": exc.doc["recorded"]}
    path.unlink()
    click.echo(f"sent your move in {game} that did not reach the server before (the game is at event "
               f"{answer['version']})", err=True)
    return int(answer["version"])


def before_command(ctx: click.Context, url: str) -> None:
    """Run by the group before a command with --server: sync its game; a playing command plays
    on a scratch copy, and what it recorded is posted (``_Remote.send``)."""
    session = ctx.obj
    name = ctx.invoked_subcommand
    if name in REMOTE or name is None:
        return
    if name not in SYNCED:
        raise click.UsageError(f"trv --server runs {', '.join(SYNCED + REMOTE[:4])}; {name!r} works on a local "
                               "store (drop --server)")
    client, saved = client_for(url)
    games = client.get("/api/me")
    game = pick_game(games, session.game_option or _game_given(ctx))
    if game is None:
        raise TrvError("you have no game on this server yet: trv --server URL new --player YOU:COLOR ...")
    rows = {g["game"]: g for g in games["games"]}
    if game not in rows:
        if game in {o["game"] for o in games["offers"]}:
            raise TrvError(f"{game} waits for its players' contributions (trv --server URL games)")
        raise TrvError(f"no game called {game!r} of yours on this server (trv --server URL games)")
    sent = _send_unsent(client, game)
    version, head = (sent, None) if sent else (rows[game]["version"], rows[game].get("head"))
    from trvendetta.app import GameService
    from trvendetta.store import GameStore

    mirror = mirror_path(url)
    with GameStore(mirror) as store:  # the copy holds only what the server has
        synced = sync_store(GameService(store), client, game, version, head)
        _revocation_held(store, saved, game)
    session.game_option, session.server = game, client.base
    if name not in PLAYING:
        _use_copy(session, url)
        session.server_claim = lambda: claim_on_server(session)
        return
    remote = _Remote(session, client, game, mirror, synced)
    ctx.call_on_close(remote.close)  # after the scratch store is closed (the exit stack runs last in, first out)
    session.db, session.db_given = remote.scratch, True
    session.store(session.db)
    session.server_send = remote.send


def _revocation_held(store: Any, saved: dict, game: str) -> None:
    """Stop (exit 1) when the server's record of ``game`` (synced into ``store``) lacks a revocation
    this home signed that it should hold (``app.revocations.omitted``); a note when it was placed
    after a revoked key's move."""
    from trvendetta.app.revocations import omitted, placed_late

    from .identity import home

    where = (home(), saved.get("server", ""), saved.get("name", ""), store, game)
    problem = omitted(*where)
    if problem:
        raise TrvError(problem)
    note = placed_late(*where)
    if note:
        click.echo(note, err=True)


def claim_on_server(session: Any) -> str:
    """`trv --server URL claim`: the server's clock is the reference in its games, so the server
    claims the game on time (signed as the host) if the deadline passed; the copy is brought up to
    date.  The outcome's line."""
    client, _ = client_for(session.server)
    game = session.game_id()
    out = client.post(f"/api/games/{game}/claim", {})
    sync(session, client, game, out["version"])
    return str(out["ended"])


class _Remote:
    """A playing command's records on their way to the server.  The command plays on a scratch
    copy of the local copy; ``send`` posts what it recorded and imports the server's answer (the
    dice it rolled) into it; at the end the scratch copy, which then holds only what the server
    has, becomes the local copy.  A move the server did not get is kept apart (``unsent_file``)."""

    def __init__(self, session: Any, client: Client, game: str, mirror: str, synced: int):
        import sqlite3

        self.session, self.client, self.game, self.mirror, self.synced = session, client, game, mirror, synced
        self.scratch = mirror[:-len(".sqlite")] + f".{os.getpid()}.play.sqlite"
        self.failed = self.added = self.refused = False
        src, dst = sqlite3.connect(mirror), sqlite3.connect(self.scratch)
        try:
            src.backup(dst)
        finally:
            src.close()
            dst.close()

    def send(self, svc: Any = None) -> bool:
        """Post what the command recorded since the last send; import the answer.  Whether the
        game goes on (the draw it opened was rolled).  A failure says what became of the move and
        ends the command (exit 1).  ``svc``: the service over the scratch copy (the session's)."""
        from .common import service

        svc = svc or service(self.session)
        mine = svc.store.version(self.game)
        if mine == self.synced or self.failed:
            return False
        packet = svc.export(self.game, since=self.synced).encode()
        try:
            answer = self.client.request("POST", f"/api/games/{self.game}/packet", packet)
        except Unreachable as exc:
            self._keep(packet)
            self._fail(f"not sent: {exc}; your move is kept apart, not in your copy of the game "
                       f"(`trv --server {self.client.base} show` shows the server's), and sent by your next "
                       "command to this server")
        except ServerRefused as exc:
            if "recorded" not in exc.doc:  # the server saw the signed move and refused it: the copy keeps it,
                self.refused = True          # and the next command names what the server lacks (evidence)
                self._fail(f"not sent: {exc}; your copy keeps the move you signed, and the next command "
                           "compares it with the server's record")
            answer = {"version": exc.doc["recorded"]}
            click.echo(f"the server stored your move, and says: {exc.doc['error']}", err=True)
        self.synced = sync_store(svc, self.client, self.game, answer["version"])
        self.added = self.synced > mine
        if self.added:
            from .replay import print_records

            print_records(svc.store, self.game, mine)
        return svc.waiting(self.game) is None and self.synced > mine

    def _keep(self, packet: bytes) -> None:
        path = unsent_file(self.client.base, self.game)
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        path.write_bytes(packet)

    def _fail(self, message: str) -> NoReturn:
        self.failed = True
        click.echo(f"Error: {message}", err=True)
        raise SystemExit(1)

    def close(self) -> None:
        """At the command's end: what is left to send is sent; the scratch copy becomes the copy if the
        server has all of it (or refused a move, which the copy then keeps for the next comparison)."""
        import sqlite3

        from trvendetta.app import GameService
        from trvendetta.store import GameStore

        ended: SystemExit | None = None
        try:
            if not self.failed:
                with GameStore(self.scratch) as store:
                    svc = GameService(store)
                    try:
                        if store.version(self.game) != self.synced and (self.send(svc) or self.added):
                            from trvendetta.app.decisions import pending_line
                            from trvendetta.app.outcome import outcome_of

                            loaded = store.load(self.game)
                            if outcome_of(store, self.game) is None:  # a claim or resignation said its end
                                click.echo(pending_line(loaded.ruleset, loaded.state))
                    except SystemExit as exc:  # said already
                        ended = exc
            if not self.failed or self.refused:
                src, dst = sqlite3.connect(self.scratch), sqlite3.connect(self.mirror)
                try:
                    src.backup(dst)
                finally:
                    src.close()
                    dst.close()
        finally:
            for suffix in ("", "-wal", "-shm", "-journal"):
                with contextlib.suppress(OSError):
                    os.unlink(self.scratch + suffix)
        if ended is not None:
            raise ended


# ------------------------------------------------------------------ the server's commands
@click.command(name="new")
@click.option("--player", "players", multiple=True, required=True, metavar="NAME:COLOR[:CREW]",
              help="A player (their server name), in turn order (repeat); you are one of them.")
@click.option("--name", "game", metavar="ID", help="The game's id (default: one the server makes).")
@click.option("--ruleset", default=DEFAULT_RULESET, show_default=True)
@click.option("--time", "time_control", default="", metavar="CONTROL",
              help="A time control: 3d an answer, or 7d+1d (a reserve and an increment); the server's clock rules.")
@click.option("--bot", "bots", multiple=True, metavar="KIND:COLOR:CREW[:NAME]",
              help="A bot seat, after the players (repeat): the server runs it and signs its actions.")
@click.pass_context
def new(ctx: click.Context, players: tuple[str, ...], game: str | None, ruleset: str, time_control: str,
        bots: tuple[str, ...]) -> None:
    """Offer a game on the server; it starts once every player has contributed to its seed.

    With --time, a player whose deadline passes (by the server's clock) loses on time: the
    server appends a claim it signs as the host.  Bot seats (--bot, as `trv host offer
    --bot`) are run by the server: it plays them as soon as the game waits on them and signs
    their actions with its own key; the dice follow its committed seed and the players'
    contributions as for any seat."""
    from .games import parse_bot

    for b in bots:
        parse_bot(b)  # a bot seat the server would refuse is said here, before anything is sent
    client, saved = client_for(_server(ctx))
    offer = client.post("/api/games", {"players": list(players), "name": game, "ruleset": ruleset,
                                       "time": time_control, "bots": list(bots)})
    click.echo(offer["game"])
    _join(ctx, client, saved, offer["game"])


@click.command(name="join")
@click.argument("game", metavar="GAME")
@click.pass_context
def join(ctx: click.Context, game: str) -> None:
    """Contribute to the seed of a game you were offered on the server (signed with your key)."""
    client, saved = client_for(_server(ctx))
    _join(ctx, client, saved, game)


def _join(ctx: click.Context, client: Client, saved: dict, game: str) -> None:
    from trvendetta.app.messages import Contribution, Offer

    from .identity import Keyring, fingerprint

    doc = client.get(f"/api/offers/{game}")
    offer = Offer.decode(doc["offer"].encode(), f"the server's offer of {game}")
    if not offer.signed_by(offer.host) or offer.host != saved["server"]:
        raise TrvError(f"the offer of {game} is not signed by the server's key ({fingerprint(saved['server'])})")
    me = saved["name"]
    if me not in offer.seats:
        raise TrvError(f"{me} has no seat in {game}")
    from trvendetta.replays.setups import answer_problem, terms

    if (problem := answer_problem(offer)) is not None:
        raise TrvError(f"the server's offer of {game}: not answered: {problem}")
    from .exchange import answer_once_here

    def make() -> tuple[bytes, str]:
        from .host import derived_contribution

        return derived_contribution(offer, me, Keyring(offer.seats, me)).file_bytes(), offer.commit

    # one answer per offer, the same bytes on every route and every retry (docs/fair-play.md)
    text, again = answer_once_here(offer.id(), me, offer.host, [k for s, k in offer.seats.items()
                                                                if s not in offer.bots],
                                   offer.game, make, f"the server {fingerprint(offer.host)} offered you a game",
                                   offer.file_bytes().decode(), offer.commit)
    answer = Contribution.decode(text, "your recorded contribution")
    click.echo(f"the terms you sign, offer {game} ({offer.id()[:16]}...):")
    for line in terms(offer, f"the server, key {fingerprint(offer.host)}"):
        click.echo(f"  {line}")
    if again:
        click.echo(f"you contributed to {game} before: sending the same contribution (a second one would let the "
                   "server, which knows its seed, choose between two)")
    out = client.post(f"/api/offers/{game}/join", {"value": answer.value, "signature": answer.sig,
                                                    "kind": answer.type})
    if "waiting_for" in out:
        click.echo(f"{game}: the server committed to its seed ({offer.commit[:16]}...); waiting for "
                   f"{', '.join(out['waiting_for'])} to join: trv --server {client.base} join {game}")
        return
    session = ctx.obj
    _use_copy(session, client.base)
    sync(session, client, game, out["version"])
    from .common import service

    loaded = service(session).load(game)
    from trvendetta.app.decisions import pending_line

    click.echo(f"{loaded.ruleset.name} game hosted by {client.base}, {loaded.version} events: the dice follow "
               f"its committed seed ({offer.commit[:16]}...) and every player's contribution")
    click.echo(pending_line(loaded.ruleset, loaded.state))


@click.command(name="decline")
@click.argument("game", metavar="GAME")
@click.pass_context
def decline(ctx: click.Context, game: str) -> None:
    """Decline an offer you are among the players of, or withdraw one you made, before it is a game
    (POST /api/offers/GAME/decline): the server drops it and its players see who declined it."""
    client, saved = client_for(_server(ctx))
    client.post(f"/api/offers/{game}/decline", {})
    click.echo(f"{saved['name']} declined {game}: the server dropped the offer")


@click.command(name="games")
@click.option("--json", "as_json", is_flag=True, help="Print the server's JSON.")
@click.pass_context
def games(ctx: click.Context, as_json: bool) -> None:
    """Your games on the server, and the ones waiting on you."""
    client, saved = client_for(_server(ctx))
    doc = client.get("/api/me")
    if as_json:
        click.echo(json.dumps(doc, indent=2))
        return
    rows = [("ID", "RULESET", "PLAYERS", "STATUS", "WAITING ON")]
    for g in doc["games"]:
        status = "over" if g["status"] == "over" else "playing"
        on = "the host's dice" if g["waiting_for_dice"] else (g["waiting_on"] or (g["winner"] and f"won: {g['winner']}")
                                                             or "-")
        rows.append((g["game"], g["ruleset"], ",".join(g["players"]), status, on))
    for o in doc["offers"]:
        rows.append((o["game"], "-", ",".join(o["players"]), "offered", "to join: " + ",".join(o["waiting_for"])))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    for r in rows:
        click.echo("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    waiting = doc["waiting_on_you"]
    click.echo(f"waiting on you ({saved['name']}): {', '.join(waiting)}" if waiting else
               f"nothing waits on you ({saved['name']})")


__all__ = ["Client", "ServerRefused", "Unreachable", "before_command", "decline", "games", "join", "new", "sync"]
