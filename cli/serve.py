"""`trv serve` (a club server, docs/server.md) and `trv login` (a player's key proves who they are).

    trv id new club && trv serve --store club.sqlite --id club      # http://127.0.0.1:8470/
    trv login http://127.0.0.1:8470/                                 # sign the server's challenge
    trv login --browser http://127.0.0.1:8470/                       # let a browser's key act for you there

The server is the host of its games: its identity signs what a host signs, and its seeds
are committed and kept as `trv host`'s are (``$TRV_HOME/secrets``).  A login keeps the
session in ``$TRV_HOME/servers/`` (mode 0600); no password exists anywhere.
"""

from __future__ import annotations

import base64
import time
from pathlib import Path
from typing import Any

import click

from trvendetta.core.errors import TrvError

from .identity import Keyring, home, identities

DEFAULT_PORT = 8470
#: how long `trv login --browser` waits for the page, and how long a delegation runs
PAIR_WAIT_SECONDS = 300
DELEGATION_DAYS = 30


@click.command()
@click.option("--bind", "host", default="127.0.0.1", show_default=True, metavar="ADDRESS",
              help="The address to listen on (behind a TLS proxy: keep 127.0.0.1; docs/server.md).")
@click.option("--port", default=DEFAULT_PORT, show_default=True, type=click.IntRange(0, 65535))
@click.option("--id", "ident", metavar="NAME", help="The identity the server hosts as (default: your only one).")
@click.option("--smtp", metavar="URL", envvar="TRV_SMTP",
              help="Send turn reminders through this SMTP server: smtp://[USER:PASSWORD@]HOST:PORT?from=ADDR "
                   "[env TRV_SMTP].")
@click.option("--url", "public_url", metavar="URL",
              help="The address players reach the server at (behind a proxy), for reminders [default: http://BIND:PORT].")
@click.option("--clock", "tick", default=10.0, show_default=True, type=click.FloatRange(0.5, 3600),
              metavar="SECONDS", help="How often the server's clock looks for players out of time and reminds.")
@click.option("--sign-ups", "sign_ups", default=10, show_default=True, type=click.IntRange(0, 1_000_000),
              metavar="N", help="New players one client address may sign up an hour (0: no limit; behind a proxy "
                                "every client has the proxy's address).")
@click.option("--bot-games", "bot_games", default=2, show_default=True, type=click.IntRange(0, 1000), metavar="N",
              help="Open games (and offers) with bot seats one player may have at once (0: no bot seats).")
@click.option("--search-steps", "search_steps", default=None, type=click.IntRange(1, 1_000_000), metavar="N",
              help="The search bot's step budget on this server [default: the bot's own, 1000: about 60 ms of "
                   "CPU a Vendetta decision].")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, ident: str | None, smtp: str | None, public_url: str | None,
          tick: float, sign_ups: int, bot_games: int, search_steps: int | None) -> None:
    """Run a club server over this store: players play its games in the browser or with `trv --server`.

    The server hosts every game (it commits to each game's seed before the
    players contribute, rolls the dice and reveals the seed at the end); it
    never holds a player's key, so it relays moves but cannot make one.
    Records exported from it verify offline like any host game's.

    \b
    Examples:
      trv id new club
      trv --store club.sqlite serve --id club
      trv --store postgresql://trv@db:5432/club serve --id club --port 8471
    """
    try:
        import uvicorn

        from trvendetta.server.app import make_app
    except ImportError as exc:
        raise TrvError(f"trv serve needs the optional extra: pip install 'trvendetta[server]' ({exc})") from None
    from .host import host_identity

    me = host_identity(ident)
    where = ctx.obj.db
    app = make_app(club_maker(where, home(), me.public, smtp, bot_games=bot_games, search_steps=search_steps),
                   tick_seconds=tick,
                   url=(public_url or f"http://{host}:{port}").rstrip("/"), sign_ups=sign_ups)
    mails = f"; reminders through {_mailer(smtp)}" if smtp else ""
    click.echo(f"trv serve: {where} as {me.name} ({me.fingerprint}) on http://{host}:{port}/{mails}", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)


def club_maker(where: str, at: Path, public: str, smtp: str | None = None, **bots: Any) -> Any:
    """What makes the server's :class:`~trvendetta.server.club.Club` (on its store thread): the
    store at ``where``, hosting as the identity ``public`` of the home ``at`` (its key and seeds);
    ``bots``: ``bot_games`` and ``search_steps`` (server/bots.py)."""
    from . import entropy
    from .host import host_keys, new_seed

    keys = host_keys(at)
    keys.keyring(public)  # the host's key must be one of ours: said now, not at the first game

    def club() -> Any:
        from trvendetta.server.club import Club

        return Club(where, keys, public, new_seed=lambda: new_seed(at), mailer=_mailer(smtp),
                    random_bytes=lambda n: entropy.random_bytes(n), **bots)
    return club


def _mailer(url: str | None) -> Any:
    if not url:
        return None
    from trvendetta.server.reminders import Mailer

    return Mailer.from_url(url)


# ------------------------------------------------------------------ client side
def _identity(ident: str | None) -> Any:
    mine = [i for i in identities() if ident is None or ident in (i.name, i.fingerprint)]
    if len(mine) != 1:
        raise TrvError("say which of your identities logs in with --id NAME (trv id show)" if mine else
                       "no identity here yet; create one with: trv id new NAME" if ident is None else
                       f"no identity {ident!r} here (trv id show)")
    return mine[0]


@click.command()
@click.argument("url", metavar="URL")
@click.option("--id", "ident", metavar="NAME", help="The identity to log in with (default: your only one).")
@click.option("--as", "name", metavar="NAME", help="Your player name on the server (default: the identity's name).")
@click.option("--browser", is_flag=True,
              help="Also let a browser act for you: open the printed address; its key is certified by yours.")
@click.option("--yes", is_flag=True, help="With --browser: ask nothing but the code the page shows (read from "
                                          "standard input: a script types it there).")
@click.option("--email", metavar="ADDRESS", help="Where the server sends your turn reminders.")
@click.option("--revoke", is_flag=True, help="Revoke every browser key you let act for you on this server until "
                                             "now (a lost laptop); pair a browser again with --browser.")
def login(url: str, ident: str | None, name: str | None, browser: bool, yes: bool, email: str | None,
          revoke: bool) -> None:
    """Log in to a club server by signing its challenge with your identity (no password).

    The first login binds your player name to your key on that server.
    With --browser, the page at the printed address makes a key of its own
    (which never leaves the browser), and your identity signs "this key may
    act for NAME in games on this server until T"; every move the page makes
    is signed with it, and `trv verify` checks the delegation.

    \b
    Examples:
      trv login http://127.0.0.1:8470/
      trv login --browser http://127.0.0.1:8470/
      trv login --revoke http://127.0.0.1:8470/     # a lost laptop's page may no longer act for you
    """
    from .remote import Client, _save_login, base_url

    base = base_url(url)
    me = _identity(ident)
    player = name or me.name
    client = Client(base, None)
    got = client.get("/api/challenge")
    keyring = Keyring({player: me.public}, player)
    from trvendetta.server.club import login_message

    signature = keyring.sign(player, login_message(got["server"], got["challenge"]))
    session = client.post("/api/login", {"name": player, "public": me.public, "challenge": got["challenge"],
                                         "signature": base64.b64encode(signature).decode()})
    data = {"url": base, "name": player, "identity": me.name, "token": session["token"], "server": got["server"]}
    path = _save_login(base, data)
    from .identity import fingerprint

    click.echo(f"logged in to {base} as {player} ({me.fingerprint}); the server's key is "
               f"{fingerprint(got['server'])} (session in {path})")
    client = Client(base, session["token"])
    if email is not None:
        client.post("/api/me/email", {"email": email})
        click.echo(f"turn reminders go to {email}")
    if revoke:
        _revoke(client, keyring, player, got["server"], base)
    if browser:
        _pair(client, keyring, player, got["server"], base, yes)


@click.command()
@click.argument("url", metavar="URL")
def logout(url: str) -> None:
    """End your session on a club server (the server forgets it; so does this machine).

    \b
    Examples:
      trv logout http://127.0.0.1:8470/
    """
    from .remote import Client, Unreachable, base_url, saved_login, server_file

    base = base_url(url)
    saved = saved_login(base)
    if saved is None:
        raise TrvError(f"you are not logged in to {base}")
    try:
        Client(base, saved["token"]).post("/api/logout", {})
        said = "the server ended the session"
    except Unreachable as exc:
        said = f"the server was not told ({exc}); the session ends there by itself within a week"
    except TrvError as exc:
        said = f"the server had no such session ({exc})"
    server_file(base).unlink()
    click.echo(f"logged out of {base} as {saved['name']}: {said}")


def _revoke(client: Any, keyring: Keyring, player: str, server: str, base: str) -> None:
    """Sign a revocation of every browser key this home certified for ``player`` on ``server``, keep it,
    post it; the server carries it into each of the player's open games (docs/server.md, "Revoking")."""
    from trvendetta.app import revocations
    from trvendetta.replays.signatures import revocation_body
    from trvendetta.store import Revoke

    from .remote import mirror_path

    at = int(time.time())
    open_games, seen = revocations.open_games(mirror_path(base), player)
    keys = sorted(set(revocations.delegated_keys(home(), server, player)) | set(seen))
    signed = base64.b64encode(keyring.sign(player, revocation_body(player, server, at, keys))).decode()
    record = Revoke(player, server, at, keys, signed)
    revocations.keep(home(), record, open_games)  # before it leaves: a lost answer loses nothing
    done = client.post("/api/me/revoke", {"at": at, "signature": signed, "keys": keys})
    revocations.keep(home(), record, open_games, done.get("games", {}))
    until = int(done.get("revoked_until", at))  # the server's clock decides which keys were certified before
    carried = done.get("games", {})
    click.echo(f"revoked every browser key you let act for {player} on {base} before "
               f"{time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime(until))} (the server's clock): the server "
               "refuses their moves and ends their sessions")
    click.echo(f"the revocation names the {len(keys)} key(s) you certified from this home or that acted for you in "
               "your copy of your games here, and is in "
               f"{len(carried)} game(s) of yours" + (f" ({', '.join(f'{g} at event {n}' for g, n in sorted(carried.items()))})"
                                                      if carried else "")
               + ": `trv verify` refuses their signatures from there on")


def _pair(client: Any, keyring: Keyring, player: str, server: str, base: str, yes: bool) -> None:
    """Open a pairing, wait for the page's key, certify it with a signed delegation."""
    from trvendetta.replays.signatures import delegation_body, fingerprint

    pairing = client.post("/api/pairings", {})["pairing"]
    click.echo(f"open this address in your browser: {base}/pair#{pairing}")
    deadline = time.monotonic() + PAIR_WAIT_SECONDS
    while True:
        state = client.get(f"/api/pairings/{pairing}")
        if state["key"]:
            break
        if time.monotonic() > deadline:
            raise TrvError(f"no page opened the pairing in {PAIR_WAIT_SECONDS} s; run trv login --browser again")
        time.sleep(0.5)
    key = state["key"]
    from trvendetta.server.club import pairing_code

    click.echo(f"the page's key is {fingerprint(key)} (the page shows the same)")
    typed = click.prompt("type the code the page shows (6 digits)", default="", show_default=False)
    if "".join(c for c in typed if c.isdigit()) != pairing_code(pairing, key).replace(" ", ""):
        raise TrvError(f"the code {typed.strip()!r} is not the one of the key that reached the server "
                       f"({fingerprint(key)}): another page sent its key for this pairing, or a digit is wrong; "
                       "nothing was certified (run trv login --browser again)")
    if not yes and not click.confirm("let that key act for you in games on this server?", default=True):
        raise TrvError("not certified: the page cannot act for you")
    until = int(time.time()) + DELEGATION_DAYS * 86400
    from trvendetta.app.revocations import delegated

    delegated(home(), server, player, key)  # kept before the certificate leaves: a revocation names it
    signature = keyring.sign(player, delegation_body(player, key, server, until))
    raw = bytes.fromhex(key) + until.to_bytes(8, "big") + signature
    client.post(f"/api/pairings/{pairing}/delegation", {"delegation": base64.b64encode(raw).decode()})
    click.echo(f"the browser's key {fingerprint(key)} may act for {player} in games on {base} until "
               f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime(until))}")
