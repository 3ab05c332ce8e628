"""The club server's HTTP API and pages (Starlette on uvicorn): ``trv serve``.

Every route reads its body within a size limit, decodes it strictly (msgspec structs
that forbid unknown fields), hands it to :class:`server.club.Club` on the process's one
store thread, and answers JSON; a refusal is a 4xx with ``{"error": one message}`` and
nothing written.  The API is documented in docs/server.md.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import re
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from trvendetta.rulesets import DEFAULT as DEFAULT_RULESET
from trvendetta.store import StoreUnsynced

from .club import Club, Refused, _short

#: the largest JSON body a route reads
MAX_JSON = 16 * 1024
#: the largest packet (`trv --server ... turn` posts the records it made)
MAX_PACKET = 4 * 1024 * 1024
#: how often a process looks for moves another process made, for its event streams
POLL_SECONDS = 0.5
#: an event stream ends after this (the page opens another)
STREAM_SECONDS = 300
#: an idle stream sends a comment line this often (proxies close silent connections)
KEEPALIVE_SECONDS = 15.0
#: replay pages kept drawn (one a game, each until its game moves on)
REPLAYS_KEPT = 32
PAGE = Path(__file__).parent / "page"
#: new player names one client (its address) may sign up an hour (`trv serve --sign-ups`; 0: no limit)
SIGN_UPS = 10


class Throttle:
    """At most ``per_hour`` of something per client in any hour: a bucket of ``per_hour`` tokens per
    client address, one back every ``3600 / per_hour`` seconds.  Kept in this process's memory (each
    server process counts its own; a restart forgets); ``clock`` is for the tests."""

    def __init__(self, per_hour: int, clock: Callable[[], float] = time.monotonic):
        self.per_hour, self.clock = per_hour, clock
        self._buckets: dict[str, tuple[float, float]] = {}  # client: (tokens, when counted)
        self._lock = threading.Lock()

    def wait(self, client: str) -> float:
        """Takes one of ``client``'s tokens: 0 when there was one, else the seconds until there is."""
        if self.per_hour <= 0:
            return 0.0
        every = 3600.0 / self.per_hour
        with self._lock:
            now = self.clock()
            if len(self._buckets) > 10_000:  # forget the clients whose buckets are full again
                self._buckets = {k: v for k, v in self._buckets.items() if v[0] + (now - v[1]) / every < self.per_hour}
            tokens, then = self._buckets.get(client, (float(self.per_hour), now))
            tokens = min(float(self.per_hour), tokens + (now - then) / every)
            if tokens < 1.0:
                self._buckets[client] = (tokens, now)
                return (1.0 - tokens) * every
            self._buckets[client] = (tokens - 1.0, now)
            return 0.0


class LoginBody(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    public: str
    challenge: str
    signature: str


class NewGameBody(msgspec.Struct, forbid_unknown_fields=True):
    players: list[str]
    name: str | None = None
    ruleset: str = DEFAULT_RULESET
    time: str = ""
    #: bot seats after the players, ``KIND:COLOR:CREW[:NAME]`` (server/bots.py)
    bots: list[str] = []


class JoinBody(msgspec.Struct, forbid_unknown_fields=True):
    value: str
    signature: str
    #: the contribution's type: a value derived from the player's signature (``trv --server join``)
    #: or a random one (the page's)
    kind: str = "trv-host-join"


class ActBody(msgspec.Struct, forbid_unknown_fields=True):
    action: str
    version: int
    signature: str


class ResignBody(msgspec.Struct, forbid_unknown_fields=True):
    version: int
    at: str
    signature: str


class KeyBody(msgspec.Struct, forbid_unknown_fields=True):
    public: str


class RevokeBody(msgspec.Struct, forbid_unknown_fields=True):
    at: int
    signature: str
    #: the keys revoked (revocation 2, carried into the player's games); None: a revocation 1 (the server's only)
    keys: list[str] | None = None


class PageKeyBody(msgspec.Struct, forbid_unknown_fields=True):
    public: str
    proof: str


class DelegationBody(msgspec.Struct, forbid_unknown_fields=True):
    delegation: str


class EmailBody(msgspec.Struct, forbid_unknown_fields=True):
    email: str


async def _body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise Refused(413, f"the body is larger than {limit} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data.extend(chunk)
        if len(data) > limit:
            raise Refused(413, f"the body is larger than {limit} bytes")
    return bytes(data)


async def _json(request: Request, kind: type) -> Any:
    data = await _body(request, MAX_JSON)
    try:
        return msgspec.json.decode(data, type=kind)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        noun = re.sub(r"(?<!^)(?=[A-Z])", " ", kind.__name__[:-4]).lower()  # NewGameBody: "new game"
        raise Refused(400, f"the body is not a valid {noun} request: {exc}") from None


def _token(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    return auth[7:].strip() if auth.lower().startswith("bearer ") else None


class _Syncer:
    """A group commit: a thread that makes the store's commits durable (``GameStore.sync``, an fsync) for
    the requests waiting on them, every commit made before an fsync started covered by it.  While one fsync
    runs, the store thread goes on with other requests, and the commits they make wait for the next: one
    fsync for every commit of that while, where each commit waited for its own on the store thread."""

    def __init__(self, sync: Callable[[], None]):
        self._sync = sync
        self._cond = threading.Condition()
        self._wanted = self._done = 0  # the store's count of commits: waited for, and known durable
        self._waiting: list[tuple[int, asyncio.Future, asyncio.AbstractEventLoop]] = []
        self._closing = False
        self._thread = threading.Thread(target=self._run, name="trv-sync", daemon=True)
        self._thread.start()

    def durable(self, commits: int) -> bool:
        """Whether the store's first ``commits`` commits are known durable (no wait)."""
        with self._cond:
            return self._done >= commits

    async def synced(self, commits: int) -> None:
        """Once the store's first ``commits`` commits are durable (the fsync's error when it failed)."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        with self._cond:
            if self._done >= commits:
                return
            self._waiting.append((commits, future, loop))
            self._wanted = max(self._wanted, commits)
            self._cond.notify()
        await future

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._wanted <= self._done and not self._closing:
                    self._cond.wait()
                if self._wanted <= self._done:
                    return
                target = self._wanted  # (every commit it counts returned before this fsync starts)
            failed: Exception | None = None
            try:
                self._sync()
            except Exception as exc:  # noqa: BLE001  (each request waiting on it answers it as a failed store)
                failed = exc
            with self._cond:
                if failed is None:
                    self._done = max(self._done, target)
                ready = [w for w in self._waiting if w[0] <= target]
                self._waiting = [w for w in self._waiting if w[0] > target]
                if failed is not None:  # asked for again only by those still waiting (no fsync in a loop)
                    self._wanted = max([self._done, *(w[0] for w in self._waiting)])
            for _, future, loop in ready:
                with contextlib.suppress(RuntimeError):  # (its loop closed: nobody waits for the answer)
                    loop.call_soon_threadsafe(_settle, future, failed)

    def close(self) -> None:
        with self._cond:
            self._closing = True
            self._cond.notify()
        self._thread.join(10)


def _writes_stopped(why: str) -> str:
    """The answer to a write after a failed fsync (``GameStore.sync``: the process takes no more)."""
    return (f"the server takes no more moves or other writes until it is restarted: {why}, so what it stored "
            "since its last fsync that succeeded may not be on disk; until then it shows no game (one it showed "
            "could be lost), and it reads its store as it is on disk when it starts again")


def _not_durable(ok: bool, out: Any, failed: Exception) -> Refused:
    """The answer to a request whose records are stored but not known to be on disk (the fsync after them
    failed): a 503 with ``recorded``, the event its game's records reached, when its answer names one."""
    recorded = None
    if ok and isinstance(out, dict) and isinstance(out.get("version"), int):
        recorded = out["version"]
    elif isinstance(out, Refused) and isinstance(out.extra.get("recorded"), int):
        recorded = out.extra["recorded"]
    what = "what your request stored is" if recorded is None else \
        f"your request is recorded (the game is at event {recorded}) but"
    extra = {} if recorded is None else {"recorded": recorded}
    if not isinstance(failed, StoreUnsynced):  # (no fsync failed: the log could not be opened)
        return Refused(503, f"{what} not known to be on disk: its store failed ({_short(failed)}); try again shortly",
                       **extra)
    then = "" if recorded is None else f": load the game then to see whether event {recorded} is there"
    return Refused(503, f"{what} not known to be on disk: {failed.why}; the server takes no more writes until it is "
                        f"restarted, and then reads its store as it is on disk{then}", **extra)


def _settle(future: asyncio.Future, failed: Exception | None) -> None:
    if future.done():
        return
    if failed is None:
        future.set_result(None)
    else:
        future.set_exception(failed)


class Server:
    """The routes over one :class:`Club`, whose work runs on one thread (the store's)."""

    def __init__(self, make_club: Callable[[], Club], sign_ups: int = SIGN_UPS):
        self.sign_ups = Throttle(sign_ups)
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="trv-store")
        self.club: Club = self._pool.submit(make_club).result()
        #: a group commit (SQLite): commits do not wait for their fsync, answers do (one fsync for all that
        #: were committed meanwhile); None where a commit is durable when it returns (PostgreSQL)
        self._syncer = _Syncer(self._sync) if self._pool.submit(self.club.store.defer_sync).result() else None
        #: the failed fsync after which this process takes no writes (``_sync``), until it is restarted
        self._stopped: StoreUnsynced | None = None
        self.club.inline_bots = False  # the bots think on their own thread (``play_bots``), not the store's
        #: where every bot seat's bot thinks: one thread, so one game's search never holds up the store's
        self._thinking = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="trv-bots")
        self._bots: dict[str, asyncio.Future] = {}  # a game's bots at play (one a game)
        try:  # whatever a crash left waiting on the host (an intent stored, not rolled) is finished now
            self._pool.submit(self.club.resolve_open).result()
            if self._syncer is not None:
                self._sync()
        except Exception as exc:  # noqa: BLE001  the clock tries again
            import sys

            print(f"trv serve: finishing the open draws failed: {_short(exc)}", file=sys.stderr)
        self._watchers: dict[str, set[asyncio.Event]] = {}
        self._versions: dict[str, int] = {}  # the watched games' versions, as last looked at
        #: a watched game's version being read (one read for all its streams), and its moves seen here
        self._reading: dict[str, asyncio.Future] = {}
        self._moves: dict[str, int] = {}
        self._watching: asyncio.Task | None = None
        #: replay pages drawn, by game: (version, head, page); drawn on their own thread
        self._replays: dict[str, tuple[int, str, str]] = {}
        self._drawing = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="trv-replay")

    async def run(self, fn: Callable[..., Any], *args: Any, shows: bool = True) -> Any:
        """``fn(*args)`` on the store thread; what it committed is durable before its answer (or its error)
        is: its commit is synced with every other commit made meanwhile (``_Syncer``).  When that fsync
        failed, or one did before (``_stopped``), the answer is a 503 saying what was recorded
        (``_not_durable``).

        An answer that ``shows`` the store (a game's version, document, record, replay, a list of games:
        every call but those reading a session or a pairing) waits likewise until every commit made before
        it was read is durable, so nothing is shown that a power cut or a failed fsync could take back (a
        player who saw a roll the disk then lost could choose again knowing it).  It waits only while
        commits are pending; after a failed fsync it is a 503 (``_writes_stopped``) instead."""
        ok, out, wrote, mine = await asyncio.get_running_loop().run_in_executor(
            self._pool, self._looking, fn, args, shows)
        if wrote is not None and self._syncer is not None:
            failed: Exception | None = None if self._syncer.durable(wrote) else self._stopped
            if failed is None:
                try:
                    await self._syncer.synced(wrote)
                except Exception as exc:  # noqa: BLE001  (a failed fsync: StoreUnsynced)
                    failed = exc
            if failed is not None:
                if mine:
                    raise _not_durable(ok, out, failed)
                raise failed  # (a read: the route answers it as a failed store, never showing what was read)
        if not ok:
            raise out
        return out

    def _looking(self, fn: Callable[..., Any], args: tuple, shows: bool) -> tuple[bool, Any, int | None, bool]:
        """One request's work on the store thread: each game's end is read once in it (``one_look``).  What
        it returned or raised; the store's count of commits to be durable before it is answered: after it
        when it committed anything, or when its answer names records stored before it (a request sent again:
        an answer marked ``_stored``, taken off here, or a refusal that says what was ``recorded``), or when
        it ``shows`` the store; else None; and whether it committed or names such records."""
        store = self.club.store
        before = store.commits
        try:
            with store.one_look():
                out: tuple[bool, Any] = (True, fn(*args))
        except Exception as exc:  # noqa: BLE001  (raised again by ``run``, once what was committed is synced)
            out = (False, exc)
        answer = out[1]
        stored = (isinstance(answer, dict) and bool(answer.pop("_stored", False))) or \
            (isinstance(answer, Refused) and "recorded" in answer.extra)
        mine = store.commits != before or stored
        return (*out, store.commits if mine or shows else None, mine)

    def _sync(self) -> None:
        """The store's fsync (``_Syncer``'s, and the one at start-up).  One that failed stops every write of
        this process, to the server's own tables too, until it is restarted: a later fsync that succeeds
        says nothing of the commits it failed to write (``GameStore.sync``, docs/server.md)."""
        try:
            self.club.store.sync()
        except StoreUnsynced as exc:
            if self._stopped is None:
                import sys

                self._stopped = self.club.accounts.stopped = exc
                print(f"trv serve: {exc}", file=sys.stderr)
            raise

    def close(self) -> None:
        self._thinking.shutdown()
        self._drawing.shutdown()
        if self._syncer is not None:
            self._syncer.close()
        self._pool.submit(self.club.close).result()
        self._pool.shutdown()

    async def play_bots(self, game: str) -> int | None:
        """Play ``game``'s bot seats while it waits on one; the game's version after (None: no bot
        played).  Each decision is read on the store thread, thought out on the bots' thread and
        recorded on the store thread again, so other requests go on between; one run a game (a
        second call waits for the first), and the run goes on if the request that started it is
        dropped."""
        running = self._bots.get(game)
        if running is None or running.done():
            running = self._bots[game] = asyncio.ensure_future(self._bot_run(game))
            running.add_done_callback(lambda f: self._bots.pop(game, None) if self._bots.get(game) is f else None)
        return await asyncio.shield(running)

    async def _bot_run(self, game: str) -> int | None:
        from trvendetta.app.decisions import MAX_ACTIONS_PER_COMMAND

        loop = asyncio.get_running_loop()
        club, version, missed = self.club, None, 0
        for _ in range(MAX_ACTIONS_PER_COMMAND):
            try:
                turn = await self.run(club.bot_turn, game)
                if turn is None:
                    break
                action = await loop.run_in_executor(self._thinking, club.bot_think, turn)
                played = await self.run(club.bot_play, turn, action)
            except Exception as exc:  # noqa: BLE001  the store failed: the clock or the next start plays it
                import sys

                print(f"trv serve: game {game!r} waits on a bot seat and its move failed ({_short(exc)}); the "
                      "clock tries it again each round", file=sys.stderr)
                break
            if played is None:  # the game moved on while the bot thought (another process): think again
                missed += 1
                if missed >= 3:
                    break
                continue
            version, missed = played, 0
            self._moved(game)
        return version

    async def bots_due(self) -> None:
        """The games ``resolve_open`` found waiting on a bot seat (a crash after a player's move,
        before the bot's), played now, one after another."""
        for game in list(self.club.bots_due):
            await self.play_bots(game)

    async def _answer_bots(self, game: str, out: dict, doc: bool = False) -> dict:
        """A move's answer: when its game has bot seats, they play first, and the answer is the
        game after them (``doc``: the whole game document, as a join that starts a game answers)."""
        if not out.pop("_bots", False):
            return out
        version = await self.play_bots(game)
        if version is None:
            return out
        if doc:
            return await self.run(self.club.game_doc, game, None)
        if "added" in out:
            out["added"] += version - out["version"]
        out["version"] = version
        return out

    @staticmethod
    def api(handler: Callable) -> Callable:
        """A route answering JSON, a refusal as ``{"error"}`` with its status, a failed store as one
        line (503), never a trace."""
        async def endpoint(request: Request) -> Response:
            try:
                out = await handler(request)
            except Refused as exc:
                return JSONResponse({"error": exc.message, **exc.extra}, status_code=exc.status)
            except StoreUnsynced as exc:  # a write after a failed fsync: refused, nothing written
                return JSONResponse({"error": _writes_stopped(exc.why)}, status_code=503)
            except Exception as exc:  # noqa: BLE001  the store or the disk failed: one line, never a trace
                return JSONResponse({"error": f"the server could not answer: its store failed ({_short(exc)}); "
                                              "try again shortly"}, status_code=503)
            return out if isinstance(out, Response) else JSONResponse(out)
        return endpoint

    def routes(self) -> list[Route]:
        from . import page_api

        api = self.api
        r = self.run
        c = self.club

        async def challenge(request: Request) -> Any:
            return await r(c.challenge, shows=False)

        async def login(request: Request) -> Any:
            body = await _json(request, LoginBody)
            client = request.client.host if request.client else "?"

            def admit() -> None:  # a sign-up (an anonymous write): so many a client an hour
                wait = self.sign_ups.wait(client)
                if wait:
                    raise Refused(429, f"too many new players from your address: {self.sign_ups.per_hour} may sign up "
                                       f"an hour; try again in {int(wait) + 1} seconds (an existing player logs in "
                                       "at any time)")
            return await r(c.login, body.name, body.public, body.challenge, body.signature, admit)

        async def logout(request: Request) -> Any:
            return await r(c.logout, _token(request), shows=False)

        async def me(request: Request) -> Any:
            player = await r(c.player_of, _token(request), shows=False)
            games = await r(c.games, player)
            return {"name": player, "email": await r(c.accounts.email, player, shows=False), **games}

        async def revoke(request: Request) -> Any:
            player = await r(c.player_of, _token(request), shows=False)
            body = await _json(request, RevokeBody)
            return await r(c.revoke, player, body.at, body.signature, body.keys)

        async def email(request: Request) -> Any:
            player = await r(c.player_of, _token(request), shows=False)
            body = await _json(request, EmailBody)
            return await r(c.set_email, player, body.email)

        async def server_info(request: Request) -> Any:
            return {"server": c.host_public, "api": 1}

        async def games(request: Request) -> Any:
            if request.method == "POST":
                player = await r(c.player_of, _token(request), shows=False)
                body = await _json(request, NewGameBody)
                return await r(c.new_game, player, body.players, body.name, body.ruleset, body.time, body.bots)
            return await r(c.games, None)

        async def offer(request: Request) -> Any:
            return await r(c.offer_doc, request.path_params["game"])

        async def join(request: Request) -> Any:
            player = await r(c.player_of, _token(request), shows=False)
            body = await _json(request, JoinBody)
            game = request.path_params["game"]
            out = await r(c.join, player, game, body.value, body.signature, body.kind)
            self._moved(game)
            return await self._answer_bots(game, out, doc=True)

        def game_json(token: str | None, game: str) -> bytes:
            return c.game_json(game, c.player_of(token) if token else None)

        async def game(request: Request) -> Any:  # one trip to the store thread: the session, then the game
            return Response(await r(game_json, _token(request), request.path_params["game"]),
                            media_type="application/json")

        async def export(request: Request) -> Any:
            since = request.query_params.get("since")
            if since is not None and not (since.isascii() and since.isdigit() and len(since) < 12):
                raise Refused(400, f"since={since[:20]!r} is not an event number")
            text = await r(c.export, request.path_params["game"], int(since) if since is not None else None)
            return PlainTextResponse(text)

        async def packet(request: Request) -> Any:
            player = await r(c.player_of, _token(request), shows=False)
            data = await _body(request, MAX_PACKET)
            game = request.path_params["game"]
            out = await r(c.packet, player, game, data)
            self._moved(game)
            return await self._answer_bots(game, out)

        async def act(request: Request) -> Any:
            player = await r(c.player_of, _token(request), shows=False)
            body = await _json(request, ActBody)
            game = request.path_params["game"]
            out = await r(c.act, player, game, body.action, body.version, body.signature)
            self._moved(game)
            return await self._answer_bots(game, out)

        async def resign(request: Request) -> Any:
            player = await r(c.player_of, _token(request), shows=False)
            body = await _json(request, ResignBody)
            game = request.path_params["game"]
            out = await r(c.resign, player, game, body.version, body.at, body.signature)
            self._moved(game)
            return out

        async def claim(request: Request) -> Any:
            player = await r(c.player_of, _token(request), shows=False)
            game = request.path_params["game"]
            out = await r(c.claim, player, game)
            self._moved(game)
            return out

        async def pairings(request: Request) -> Any:
            player = await r(c.player_of, _token(request), shows=False)
            return await r(c.pairing, player, shows=False)

        async def pairing(request: Request) -> Any:
            token = request.path_params["token"]
            if request.method == "GET":
                player = await r(c.player_of, _token(request), shows=False)
                return await r(c.pairing_state, token, player, shows=False)
            action = request.path_params["what"]
            if action == "key":
                body = await _json(request, PageKeyBody)
                return await r(c.pairing_key, token, body.public, body.proof, shows=False)
            if action == "delegation":
                player = await r(c.player_of, _token(request), shows=False)
                body = await _json(request, DelegationBody)
                return await r(c.pairing_delegate, player, token, body.delegation, shows=False)
            if action == "finish":
                body = await _json(request, KeyBody)
                return await r(c.pairing_finish, token, body.public, shows=False)
            raise Refused(404, f"no pairing step {action!r} (key, delegation, finish)")

        async def events(request: Request) -> Any:
            game = request.path_params["game"]
            if await r(c.version, game) < 0 and await r(c.accounts.offer, game) is None:
                raise Refused(404, f"no game called {game!r} on this server")
            return StreamingResponse(self._stream(game), media_type="text/event-stream",
                                     headers={"Cache-Control": "no-cache"})

        async def page(request: Request) -> Any:
            return FileResponse(PAGE / "index.html", media_type="text/html")

        async def asset(request: Request) -> Any:
            name = request.path_params["name"]
            if name not in ("play.js", "play.css"):
                raise Refused(404, "no such file")
            kind = "text/javascript" if name.endswith(".js") else "text/css"
            return FileResponse(PAGE / name, media_type=kind)

        async def replay(request: Request) -> Any:
            return HTMLResponse(await self._replay_page(request.path_params["game"]))

        return [
            Route("/", api(page)),
            Route("/play/{game}", api(page)),
            Route("/pair", api(page)),
            Route("/static/{name}", api(asset)),
            Route("/replay/{game}", api(replay)),
            Route("/favicon.ico", lambda request: Response(status_code=204)),
            Route("/api/server", api(server_info)),
            Route("/api/challenge", api(challenge)),
            Route("/api/login", api(login), methods=["POST"]),
            Route("/api/logout", api(logout), methods=["POST"]),
            Route("/api/me", api(me)),
            Route("/api/me/email", api(email), methods=["POST"]),
            Route("/api/me/revoke", api(revoke), methods=["POST"]),
            Route("/api/games", api(games), methods=["GET", "POST"]),
            Route("/api/offers/{game}", api(offer)),
            Route("/api/offers/{game}/join", api(join), methods=["POST"]),
            Route("/api/games/{game}", api(game)),
            Route("/api/games/{game}/record", api(export)),
            Route("/api/games/{game}/packet", api(packet), methods=["POST"]),
            Route("/api/games/{game}/act", api(act), methods=["POST"]),
            Route("/api/games/{game}/resign", api(resign), methods=["POST"]),
            Route("/api/games/{game}/claim", api(claim), methods=["POST"]),
            Route("/api/games/{game}/events", api(events)),
            Route("/api/pairings", api(pairings), methods=["POST"]),
            Route("/api/pairings/{token}", api(pairing)),
            Route("/api/pairings/{token}/{what}", api(pairing), methods=["POST"]),
            *page_api.routes(self, _token),
        ]

    async def _replay_page(self, game: str) -> str:
        """The replay viewer of the game so far (``trv replay --html``'s page), made once a version:
        the records are read on the store thread, the page drawn on a thread of its own (so replays
        never hold up a move), and kept until the game moves on.  Nothing is re-verified: the
        store took each record only after checking it (docs/server.md)."""
        found = await self.run(self._replay_records, game)
        if isinstance(found, str):
            return found
        version, head, args = found
        loop = asyncio.get_running_loop()
        text = await loop.run_in_executor(self._drawing, lambda: _draw_replay(*args))
        self._replays[game] = (version, head, text)
        while len(self._replays) > REPLAYS_KEPT:
            self._replays.pop(next(iter(self._replays)))
        return text

    def _replay_records(self, game: str) -> Any:
        """On the store thread: the page kept for the game's version, or what drawing it takes."""
        club = self.club
        version = club.version(game)
        kept = self._replays.get(game)
        if kept is not None and kept[0] == version and version >= 0:
            return kept[2]
        club._load(game)
        store = club.store
        meta = store.header(game)
        records = store.events(game)
        head = records[-1].hash if records else meta.genesis
        return len(records), head, (game, meta, records)

    async def _stream(self, game: str) -> Any:
        """``data: {"game", "version"}`` whenever the game's version changes (a move here, or
        another process's: ``_watch`` looks for those, once for every stream), each version once it is
        durable (``run``); a comment line now and then keeps it open; it ends when the store fails.  An idle stream costs the process nothing but its socket."""
        event = asyncio.Event()
        self._watchers.setdefault(game, set()).add(event)
        if self._watching is None or self._watching.done():
            self._watching = asyncio.create_task(self._watch())
        loop = asyncio.get_running_loop()
        try:
            last = None
            end = loop.time() + STREAM_SECONDS
            quiet = 0.0
            while loop.time() < end:
                try:
                    version = await self._version(game)
                except Exception:  # noqa: BLE001  (not durable, or the store failed: nothing shown; the page opens another)
                    return
                if version != last:
                    last = version
                    quiet = loop.time()
                    yield f"data: {json.dumps({'game': game, 'version': version})}\n\n"
                elif loop.time() - quiet >= KEEPALIVE_SECONDS:
                    quiet = loop.time()
                    yield ": still here\n\n"
                try:
                    await asyncio.wait_for(event.wait(), KEEPALIVE_SECONDS)
                except asyncio.TimeoutError:
                    pass
                event.clear()
        finally:
            self._watchers[game].discard(event)
            if not self._watchers[game]:
                del self._watchers[game]
                self._versions.pop(game, None)
                self._moves.pop(game, None)

    async def _version(self, game: str) -> int:
        """A watched game's version: as last looked at, else read once on the store thread for every
        stream that asks meanwhile (a move wakes every stream of its game: one read, not one a stream)."""
        version = self._versions.get(game)
        if version is not None:
            return version
        moves = self._moves.get(game, 0)
        reading = self._reading.get(game)
        if reading is None:
            reading = self._reading[game] = asyncio.ensure_future(self.run(self.club.version, game))

            def done(future: asyncio.Future) -> None:
                if self._reading.get(game) is future:
                    del self._reading[game]
            reading.add_done_callback(done)
        read: int = await asyncio.shield(reading)
        if self._moves.get(game, 0) == moves and game in self._watchers:  # (else a move since: read again)
            self._versions[game] = read
        return read

    def _moved(self, game: str) -> None:
        self._versions.pop(game, None)
        self._reading.pop(game, None)
        if game in self._watchers:
            self._moves[game] = self._moves.get(game, 0) + 1
        for event in self._watchers.get(game, ()):
            event.set()

    async def _watch(self) -> None:
        """Every POLL_SECONDS while streams are open: the versions of every watched game, read in one
        call on the store thread (another process's moves are found so), and the streams of a game
        that moved woken."""
        while self._watchers:
            await asyncio.sleep(POLL_SECONDS)
            games = list(self._watchers)
            try:
                now = await self.run(lambda: {g: self.club.version(g) for g in games})
            except Exception:  # noqa: BLE001  the store failed: looked at again next round
                continue
            for game, version in now.items():
                if self._versions.get(game) != version:
                    self._versions[game] = version
                    for event in self._watchers.get(game, ()):
                        event.set()


def _draw_replay(game: str, meta: Any, records: list) -> str:
    from trvendetta import rulesets
    from trvendetta.pictures.viewer import Verification, page

    ruleset = rulesets.get(meta.ruleset)
    head = records[-1].hash if records else meta.genesis
    verification = Verification(True, f"every record was checked when this server stored it: each action "
                                      f"re-executed through the rules, each signature and the chain ({len(records)} "
                                      f"events, head {head[:16]}...); trv verify re-checks the exported record")
    return page(ruleset, records, title=f"{game}: {ruleset.title or ruleset.name}",
                facts=[("ruleset", f"{meta.ruleset} (rules version {meta.rules_version})")],
                verification=verification, charter=meta.charter, domain=meta.domain, start=meta.genesis)


async def _ticking(server: Server, seconds: float, url: str) -> None:
    """The server's clock: claims on time and reminders (``Club.tick``) every ``seconds``."""
    said = ""
    while True:
        await asyncio.sleep(seconds)
        try:
            await server.run(server.club.tick, None, url)
            await server.bots_due()
            said = ""
        except Exception as exc:  # noqa: BLE001  (a failed round is tried again at the next; said once a cause)
            import sys

            line = f"trv serve: the clock's round failed: {type(exc).__name__}: {exc}"
            if line != said:
                print(line, file=sys.stderr)
                said = line


def make_app(make_club: Callable[[], Club], *, tick_seconds: float | None = None, url: str = "",
             sign_ups: int = SIGN_UPS) -> Starlette:
    """The ASGI application (``make_club`` runs on the store thread, which keeps its connections).
    ``tick_seconds``: how often the server's clock claims games on time and sends reminders
    (None: never by itself; the tests call ``Club.tick``); ``url``: the address reminders give;
    ``sign_ups``: new names a client address may register an hour (0: no limit)."""
    server = Server(make_club, sign_ups)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        await server.bots_due()  # a game a crash left waiting on a bot seat goes on before the first request
        task = asyncio.create_task(_ticking(server, tick_seconds, url)) if tick_seconds else None
        yield
        if task is not None:
            task.cancel()
        server.close()

    async def not_found(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": f"no such address: {request.url.path[:100]}"}, status_code=404)

    async def not_allowed(request: Request, exc: Exception) -> Response:
        return JSONResponse({"error": f"{request.method} is not allowed here"}, status_code=405)

    app = Starlette(routes=server.routes(), lifespan=lifespan,
                    exception_handlers={404: not_found, 405: not_allowed})
    app.state.server = server
    return app
