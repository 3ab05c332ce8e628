"""Player identities: `trv id new`, `trv id show`, and signing with them.

An identity is an Ed25519 key pair (the ``cryptography`` package) kept in
the user's config directory: ``$TRV_HOME``, else
``$XDG_CONFIG_HOME/trvendetta`` (``~/.config/trvendetta`` when unset), as
``identities/NAME.key`` (the private key, PKCS#8 PEM, mode 0600) and
``identities/NAME.pub`` (the public key, 64 hex digits).  The private key
never leaves that file: records and packets carry only signatures and the
public keys bound to seats (docs/fair-play.md).
"""

from __future__ import annotations

import getpass
import hashlib
import os
import re
import stat
from pathlib import Path
from typing import Any, NamedTuple

import click

from trvendetta.core.errors import TrvError

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$")
_HEX64 = re.compile(r"\b[0-9a-f]{64}\b")
_FINGERPRINT = re.compile(r"^[0-9a-f]{16}$")


def home(environ: dict[str, str] | None = None) -> Path:
    """``$TRV_HOME``, else ``$XDG_CONFIG_HOME/trvendetta`` (``~/.config`` when unset)."""
    env = os.environ if environ is None else environ
    if env.get("TRV_HOME"):
        return Path(env["TRV_HOME"]).expanduser()
    base = env.get("XDG_CONFIG_HOME") or str(Path("~/.config").expanduser())
    return Path(base).expanduser() / "trvendetta"


def fingerprint(public_hex: str) -> str:
    """16 hex digits naming a public key (the same as ``replays.signatures.fingerprint``)."""
    return hashlib.sha256(bytes.fromhex(public_hex)).hexdigest()[:16]


class Identity(NamedTuple):
    name: str
    public: str  # 64 hex digits
    key_file: Path

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)


def _dir(at: Path | None = None) -> Path:
    return (at or home()) / "identities"


def identities(at: Path | None = None) -> list[Identity]:
    """Every local identity, by name (``at``: of that home instead of ``$TRV_HOME``'s)."""
    folder = _dir(at)
    if not folder.is_dir():
        return []
    out = []
    for pub in sorted(folder.glob("*.pub")):
        found = _HEX64.search(pub.read_text(encoding="utf-8", errors="replace"))
        key = pub.with_suffix(".key")
        if found and key.exists():
            out.append(Identity(pub.stem, found.group(0), key))
    return out


def create(name: str) -> Identity:
    """A new key pair called ``name``; the private key file is created mode 0600."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from . import entropy

    return _write(name, lambda: Ed25519PrivateKey.from_private_bytes(entropy.random_bytes(32)))  # what generate() does


_PEM = re.compile(rb"-----BEGIN PRIVATE KEY-----\r?\n[A-Za-z0-9+/=\r\n]+-----END PRIVATE KEY-----\r?\n?")


def import_key(path: Path, name: str | None) -> Identity:
    """An identity from an Ed25519 private key in a PKCS#8 PEM file (the club page's export: a few
    lines naming the player and the public key, then the PEM block); ``name``: the player the
    file names, else the file's name up to its first '-' or '.'."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TrvError(f"cannot read {path}: {exc.strerror or exc}") from None
    block = _PEM.search(data)
    if block is None:
        raise TrvError(f"{path} holds no private key (a PEM block '-----BEGIN PRIVATE KEY-----', as the club "
                       "page's export and `trv id new` write)")
    try:
        key = serialization.load_pem_private_key(block.group(0), password=None)
    except (ValueError, TypeError) as exc:
        raise TrvError(f"{path}: the private key cannot be read ({str(exc)[:120]})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise TrvError(f"{path} holds a {type(key).__name__.lstrip('_')}, not an Ed25519 key: trv signs with Ed25519")
    public = key.public_key().public_bytes_raw().hex()
    said = dict(re.findall(r"^(player|public) (\S+)$", data[:block.start()].decode("utf-8", "replace"), re.M))
    if "public" in said and said["public"] != public:
        raise TrvError(f"{path} names the public key {said['public'][:16]}... but holds the key of {public[:16]}...: "
                       "the file was changed")
    for known in identities():
        if known.public == public:
            raise TrvError(f"this key is your identity {known.name!r} already ({known.key_file})")
    if name is None:
        name = said.get("player") or re.split(r"[-.]", path.name, maxsplit=1)[0]
    return _write(name, lambda: key)


def _write(name: str, make: Any) -> Identity:
    """The key pair ``make()`` gives, kept as the identity ``name`` (the private key file mode 0600)."""
    from cryptography.hazmat.primitives import serialization

    if not _NAME.match(name):
        raise click.BadParameter(f"{name!r}: an identity name uses letters, digits, '-', '_' and '.'",
                                 param_hint="NAME")
    folder = _dir()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    key_file, pub_file = folder / f"{name}.key", folder / f"{name}.pub"
    for path in (key_file, pub_file):  # lexists: a dangling link is a file in the way too (never written through)
        if os.path.lexists(path):
            what = f"a link to the missing {os.readlink(path)}" if path.is_symlink() and not path.exists() else \
                "a file"
            raise TrvError(f"there is already an identity called {name!r} ({path} is {what}); choose another name "
                           "or remove it")
    private = make()
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    public = private.public_key().public_bytes_raw().hex()
    try:
        fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(pem)
        fd = os.open(pub_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(f"{public}\n")
    except OSError as exc:
        raise TrvError(f"cannot write the identity {name!r}: {exc.strerror or exc} ({exc.filename})") from None
    return Identity(name, public, key_file)


def _private(identity: Identity) -> Any:
    from cryptography.hazmat.primitives import serialization

    mode = identity.key_file.stat().st_mode
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise TrvError(f"{identity.key_file} can be read by others (mode {stat.S_IMODE(mode):o}); "
                       f"make it private with: chmod 600 {identity.key_file}")
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = serialization.load_pem_private_key(identity.key_file.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey) or key.public_key().public_bytes_raw().hex() != identity.public:
        raise TrvError(f"{identity.key_file} does not hold the key of {identity.key_file.with_suffix('.pub')}")
    return key


def resolve_key(seat: str, text: str) -> str:
    """``--key SEAT=VALUE``: a public key file (as `trv id show` prints), 64 hex
    digits, or the fingerprint or name of a local identity -> the public key."""
    if os.path.isfile(text):
        found = _HEX64.search(Path(text).read_text(encoding="utf-8", errors="replace"))
        if not found:
            raise click.BadParameter(f"{seat}={text}: the file holds no public key (64 hex digits, as "
                                     "`trv id show` prints)", param_hint="--key")
        return found.group(0)
    if re.fullmatch(r"[0-9a-f]{64}", text):
        return text
    mine = [i for i in identities() if text in (i.fingerprint, i.name)]
    if len(mine) == 1:
        return mine[0].public
    what = "fingerprint" if _FINGERPRINT.match(text) else "value"
    raise click.BadParameter(f"{seat}={text}: no public key file, 64-hex public key or local identity has this "
                             f"{what}; give the file or the key `trv id show` prints", param_hint="--key")


class Keyring:
    """The local identities bound to seats of one game; signs for them."""

    def __init__(self, seats: dict[str, str], acting: str | None = None, at: Path | None = None):
        by_key = {i.public: i for i in identities(at)}
        self.seats = seats
        self.local = {seat: by_key[pub] for seat, pub in seats.items() if pub in by_key}
        self._keys: dict[str, Any] = {}
        #: the seat this command acts for (--as, $TRV_AS, or the only local one)
        self.acting = acting
        if acting is None and len(self.local) == 1:
            self.acting = next(iter(self.local))

    def can_sign(self, seat: str) -> bool:
        return seat in self.local

    def sign(self, seat: str, message: bytes) -> bytes:
        key = self._keys.get(seat)
        if key is None:
            key = self._keys[seat] = _private(self.local[seat])
        return key.sign(message)

    def open_sealed(self, seat: str, box: str) -> bytes | None:
        """What a box sealed to ``seat``'s key holds (None: that key is not among your identities,
        or the box was not sealed to it)."""
        if seat not in self.local:
            return None
        from trvendetta.app.sealing import open_box

        key = self._keys.get(seat)
        if key is None:
            key = self._keys[seat] = _private(self.local[seat])
        return open_box(key.private_bytes_raw(), bytes.fromhex(self.local[seat].public), box)

    def refusal(self, seat: str | None) -> str | None:
        """Why this command may not act for ``seat`` (None: it may)."""
        if seat is None or seat not in self.seats:
            return None
        if seat not in self.local:
            return (f"it is {seat}'s decision and {seat}'s seat is bound to key {fingerprint(self.seats[seat])}, "
                    f"which is not among your identities (trv id show): only {seat} can sign it")
        if self.acting is None:
            return (f"this store holds the identities of {', '.join(sorted(self.local))}; say which seat you "
                    "play with --as SEAT or $TRV_AS")
        if self.acting != seat:
            return f"it is {seat}'s decision, and you act as {self.acting} (--as / $TRV_AS)"
        return None


@click.group(name="id")
def id_() -> None:
    """Your identities: key pairs that sign your actions in games at a distance.

    Keys live in $TRV_HOME, else $XDG_CONFIG_HOME/trvendetta. Give your
    public key (or the file `trv id show` writes) to the player who creates
    the game: `trv new ... --key ann=ann.pub`.

    \b
    Examples:
      trv id new ann
      trv id show ann > ann.pub
      trv id import bob-trv-club-key.pem     # a key the club page made
    """


@id_.command(name="new")
@click.argument("name", required=False)
def id_new(name: str | None) -> None:
    """Create an identity (an Ed25519 key pair); NAME defaults to your login name."""
    if name is None:
        name = re.sub(r"[^A-Za-z0-9_.\-]", "", getpass.getuser()) or "me"
    identity = create(name)
    _print(identity)
    click.echo(f"give the other players your public key: trv id show {identity.name} > {identity.name}.pub "
               f"(they bind your seat with --key {identity.name}={identity.name}.pub)")


@id_.command(name="import")
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.argument("name", required=False)
def id_import(file: Path, name: str | None) -> None:
    """Keep the Ed25519 private key in FILE (PKCS#8 PEM: the club page's export) as an identity;
    NAME defaults to the player the file names."""
    identity = import_key(file, name)
    _print(identity)
    click.echo(f"the CLI signs as {identity.name} with this key now: trv login URL --id {identity.name}")


@id_.command(name="show")
@click.argument("name", required=False)
def id_show(name: str | None) -> None:
    """Print an identity's public key and fingerprint (all identities without NAME)."""
    found = identities()
    if name is not None:
        found = [i for i in found if i.name == name]
        if not found:
            known = ", ".join(i.name for i in identities()) or "none yet; create one with `trv id new NAME`"
            raise TrvError(f"no identity called {name!r} in {_dir()} (identities: {known})")
    if not found:
        raise TrvError(f"no identity in {_dir()} yet; create one with `trv id new NAME`")
    for n, identity in enumerate(found):
        if n:
            click.echo("")
        _print(identity)


@id_.command(name="revoke")
@click.argument("url", metavar="URL")
@click.option("--id", "ident", metavar="NAME", help="The identity that signs it (default: your only one).")
@click.option("--as", "name", metavar="NAME", help="Your player name on the server (default: the identity's name).")
@click.pass_context
def id_revoke(ctx: click.Context, url: str, ident: str | None, name: str | None) -> None:
    """Revoke every browser key you let act for you on the club server at URL (a lost laptop), and end
    the sessions its pages opened: the same as `trv login --revoke URL`."""
    root = ctx.find_root()
    assert isinstance(root.command, click.Group)  # (trv's command group)
    login = root.command.get_command(root, "login")  # (through the command group: no import of cli.serve here)
    assert login is not None
    ctx.invoke(login, url=url, ident=ident, name=name, browser=False, yes=False, email=None, revoke=True)


def _print(identity: Identity) -> None:
    click.echo(f"identity    {identity.name}")
    click.echo(f"public key  {identity.public}")
    click.echo(f"fingerprint {identity.fingerprint}")
    # on stderr: `trv id show ann > ann.pub` is the file given to the others, and it names no local path
    click.echo(f"private key {identity.key_file} (never share this file)", err=True)


def acting_seat(player: str | None) -> str | None:
    """--as SEAT, else $TRV_AS."""
    return player or os.environ.get("TRV_AS") or None


def keyring_for(loaded: Any, player: str | None) -> Keyring:
    """The local identities bound to ``loaded``'s seats (``loaded.charter``)."""
    from trvendetta.core.fairplay import charter_of

    charter = charter_of(loaded.charter)
    acting = acting_seat(player)
    if acting is not None and acting not in charter.seats:
        bound = ", ".join(sorted(charter.seats))
        raise TrvError(f"--as {acting}: the seats bound to keys in this game are {bound}")
    return Keyring(dict(charter.seats), acting)


def sign_runs(store: Any, loaded: Any, keyring: Keyring, steps: list[tuple[Any, ...]],
              seats: list[str | None]) -> list[tuple[Any, ...]]:
    """Sign the runs of bound seats' actions (the application layer's ``sign_runs``)."""
    from trvendetta.app.service import sign_runs as sign

    return sign(store, loaded, keyring, steps, seats)
