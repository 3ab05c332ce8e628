"""Helpers the fair-play tests import (a module named for this folder: ``conftest`` is a name
many test folders share, so ``from conftest import`` picks whichever was imported first)."""

import json


def version(p) -> int:
    return json.loads(p("show", "--json").stdout)["version"]


def host_game(tmp_path, org, humans, bots=(), *options) -> str:
    """org offers the host game ``cup`` (with ``options``, such as ``--ruleset carnival``) to the
    ``humans``, each bound to their key, and the ``bots`` ((seat, kind) pairs) it runs; each human
    contributes and org creates the game.  What `trv host new` printed (nothing is sent yet)."""
    args = ["host", "offer", *options, "--name", "cup", "-o", tmp_path / "offer.json"]
    colors = iter(["red", "blue", "green", "yellow"])
    for p in humans:
        args += ["--player", f"{p.name}:{next(colors)}", "--key", f"{p.name}={tmp_path / (p.name + '.pub')}"]
    for name, kind in bots:
        args += ["--bot", f"{kind}:{next(colors)}:cars:{name}"]
    org(*args)
    joins = []
    for p in humans:
        p("host", "join", tmp_path / "offer.json", "-o", tmp_path / f"{p.name}.json")
        joins += ["--join", tmp_path / f"{p.name}.json"]
    return org("host", "new", tmp_path / "offer.json", *joins).stdout


class Mail:
    """Every packet is delivered to every other store, in order; counts packets and bytes."""

    def __init__(self, tmp_path, stores):
        self.tmp, self.stores, self.packets, self.bytes, self.n = tmp_path, stores, 0, 0, 0

    def send(self, packet, sender):
        queue = [(packet, sender)]
        while queue:
            packet, sender = queue.pop(0)
            self.packets += 1
            self.bytes += packet.stat().st_size
            for p in self.stores:
                if p is sender:
                    continue
                self.n += 1
                reply = self.tmp / f"reply-{self.n}.trv"
                out = p("import", packet, "--reply", reply).stdout
                if "wrote the reply packet" in out:
                    queue.append((reply, p))


def rechain(record: str, number: int | None = None, old: str = "", new: str = "") -> str:
    """The record with ``old`` replaced by ``new`` in event ``number`` (if given) and every hash
    after event 1's, and the Head, recomputed: anyone can recompute the unkeyed chain."""
    import re

    from trvendetta.store import chain

    out, previous, action, sig = [], None, b"", b""
    for line in record.split("\n"):
        if line.startswith("> "):
            action = line[2:].encode()
        elif line.startswith("+ "):
            sig = line[2:].encode()
        else:
            mm = re.match(r"^(\d+) ([0-9a-f]{64}) (\{.*)$", line)
            if mm:
                payload = mm.group(3)
                if int(mm.group(1)) == number:
                    assert old in payload
                    payload = payload.replace(old, new, 1)
                # event 1 keeps its hash: it follows the charter's genesis
                previous = mm.group(2) if previous is None else chain(previous, payload.encode(), action, sig)
                line = f"{mm.group(1)} {previous} {payload}"
                action, sig = b"", b""
        out.append(line)
    return re.sub(r'\[Head "[0-9a-f]{64}"\]', f'[Head "{previous}"]', "\n".join(out))


def counter_entropy(monkeypatch, label: bytes = b"trvendetta test entropy") -> None:
    """Secret randomness (keys, secrets, a host's seed and salt, contributions, the ephemeral key
    of each favor's sealed box) from a counter instead of the operating system: each test plays
    the same game on every run.  (A box is in the record, and so in the hash of every later
    intent, which a host game's dice follow: a random box made every game after the first
    favor dealt another one.)"""
    import hashlib
    import itertools

    from trvendetta.app import sealing
    from trvendetta.cli import entropy

    counter = itertools.count()

    def random_bytes(n: int) -> bytes:
        out = b""
        while len(out) < n:
            out += hashlib.sha256(b"%s %d" % (label, next(counter))).digest()
        return out[:n]

    def seal(public_hex: str, plaintext: bytes) -> str:
        """libsodium's sealed box (what ``sealing.seal`` makes), its ephemeral key from the counter."""
        import base64

        from nacl.bindings import crypto_box, crypto_box_seed_keypair, crypto_sign_ed25519_pk_to_curve25519

        public = crypto_sign_ed25519_pk_to_curve25519(bytes.fromhex(public_hex))
        ephemeral, secret = crypto_box_seed_keypair(random_bytes(32))
        nonce = hashlib.blake2b(ephemeral + public, digest_size=24).digest()
        return base64.b64encode(ephemeral + crypto_box(plaintext, nonce, public, secret)).decode()

    monkeypatch.setattr(entropy, "random_bytes", random_bytes)
    monkeypatch.setattr(sealing, "seal", seal)
