"""A club server in the test process (uvicorn on a thread, 127.0.0.1, a free port) and players
who run `trv` against it, each with their own $TRV_HOME (the CLI in-process, click's runner)."""

from __future__ import annotations

import errno
import os
import socket
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from trvendetta.cli.main import cli

uvicorn = pytest.importorskip("uvicorn")


class Player:
    """`trv` as one player runs it: their own $TRV_HOME, the server's address in $TRV_SERVER."""

    def __init__(self, root: Path, name: str, url: str):
        self.name, self.url = name, url
        self.home = root / f"home-{name}"
        self.runner = CliRunner()

    def __call__(self, *args: str, code: int = 0, server: bool = True, multiline: bool = False):
        env = {"TRV_GAME": None, "TRV_DB": None, "TRV_AS": None, "TRV_STORE": None, "NO_COLOR": "1",
               "TRV_HOME": str(self.home), "TRV_SERVER": self.url if server else None}
        result = self.runner.invoke(cli, [*map(str, args)], env=env, catch_exceptions=False)
        assert result.exit_code == code, (self.name, args, result.exit_code, result.stdout, result.stderr)
        if code == 1:
            assert "Traceback" not in result.stderr
            assert result.stderr.startswith("Error: ") and (multiline or result.stderr.count("\n") == 1), \
                result.stderr
        return result

    def local(self, *args: str, code: int = 0):
        """A command on the player's local copy of the server's games (no --server)."""
        from trvendetta.cli.remote import mirror_path

        env_home = {"TRV_HOME": str(self.home)}
        import os
        saved = os.environ.get("TRV_HOME")
        os.environ.update(env_home)
        try:
            db = mirror_path(self.url)
        finally:
            if saved is None:
                os.environ.pop("TRV_HOME")
            else:
                os.environ["TRV_HOME"] = saved
        return self("--db", db, *args, code=code, server=False)


class _Server(uvicorn.Server):
    """uvicorn's server with an event set once its start-up has finished (or failed): a test
    waits on it instead of polling ``started``."""

    def __init__(self, config: uvicorn.Config):
        super().__init__(config)
        self.ready = threading.Event()

    async def startup(self, sockets=None):
        try:
            await super().startup(sockets)
        finally:
            self.ready.set()


class Club:
    """A running server: its address, its store file and home, and a way to make players."""

    def __init__(self, root: Path, store: str, home: Path | None = None, **options):
        """``options``: the Club's (``bot_games``, ``search_steps``: `trv serve --bot-games`, ...)."""
        self.root, self.store = root, store
        self.home = home or root / "home-club"
        if home is None:  # a new club; another process of the same club shares its home (key and seeds)
            admin = Player(root, "club", "")
            admin.home = self.home
            admin("id", "new", "club", server=False)
        from trvendetta.cli.identity import identities
        from trvendetta.cli.serve import club_maker
        from trvendetta.server.app import make_app

        self.public = identities(self.home)[0].public
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.app = make_app(club_maker(store, self.home, self.public, **options))
        self.server = _Server(uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="on"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True)
        self.thread.start()
        if not self.server.ready.wait(30) or not self.server.started:
            raise RuntimeError("the test server did not start")

    @property
    def club(self):
        return self.app.state.server.club

    def on_store(self, fn, *args):
        """Run ``fn(*args)`` on the server's store thread (where its Club works), and wait for it."""
        return self.app.state.server._pool.submit(fn, *args).result()

    def player(self, name: str, login: bool = True) -> Player:
        p = Player(self.root, name, self.url)
        p("id", "new", name, server=False)
        if login:
            p("login", self.url, server=False)
        return p

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)


@pytest.fixture
def club(tmp_path):
    c = Club(tmp_path, str(tmp_path / "club.sqlite"))
    yield c
    c.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def any_club(request, tmp_path):
    """A club on each kind of store: an SQLite file, then a PostgreSQL schema of its own (skipped, saying
    why, without ``$TRV_TEST_POSTGRES``): for the server's own tables, which each store holds apart."""
    store = str(tmp_path / "club.sqlite") if request.param == "sqlite" else request.getfixturevalue("pg_url")
    c = Club(tmp_path, store)
    yield c
    c.stop()


@pytest.fixture
def clubs(tmp_path):
    """Starts clubs: ``clubs(root, store, home=None, **options)`` (``home``: the same club started
    again; ``options``: the Club's, such as ``bot_games``); each is stopped at the test's end."""
    made: list[Club] = []

    def start(root: Path, store: str, home: Path | None = None, **options) -> Club:
        made.append(Club(root, store, home=home, **options))
        return made[-1]
    yield start
    for c in reversed(made):
        c.stop()


@pytest.fixture
def two_processes(tmp_path, pg_url):
    """Two servers of one club on one PostgreSQL database (the same games, players and offers)."""
    first = Club(tmp_path, pg_url)
    second = Club(tmp_path, pg_url, home=first.home)
    yield first, second
    second.stop()
    first.stop()


@pytest.fixture
def entropy_label() -> bytes:
    """What the counter of ``seeded_entropy`` starts from (a module overrides it to play another game)."""
    return b"trvendetta server test entropy"


@pytest.fixture(autouse=True)
def seeded_entropy(monkeypatch, entropy_label):
    """Keys, seeds, contributions and sealed boxes from a counter: every run plays the same game."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "fairplay"))
    from fairplay_helpers import counter_entropy

    counter_entropy(monkeypatch, entropy_label)


@pytest.fixture
def disk(monkeypatch):
    """``os.fsync`` raising EIO while ``disk["failing"]`` (every fsync of this process: the server's)."""
    real = os.fsync
    state = {"failing": False, "failed": 0}

    def fsync(fd: int) -> None:
        if state["failing"]:
            state["failed"] += 1
            raise OSError(errno.EIO, "Input/output error")
        real(fd)
    monkeypatch.setattr(os, "fsync", fsync)
    return state
