"""One reveal per draw, bound to one game (docs/fair-play.md, "One reveal per draw").

Whoever holds a secret that yields dice (a player's hash chain in an exchange
game, a host's seed) keeps, beside the secret and not in any game's events, a
ledger of what it was used for: the one game it serves (its first event's
hash and its name in this store) and, for each draw, the intent it was
revealed (or resolved) for.  :func:`claim` checks a use against it and
records it: a second intent for a draw that was revealed for another (a
fork, a copy of the game under another name or in another store, another
action sent after the reveal) is refused with one line naming both, and
kept in the ledger as evidence; so is any use for another game.

The ledger is a folder of JSON-lines files, one per secret's commitment
(``COMMITMENT.ledger`` beside ``COMMITMENT.secret`` or ``.host``), each line
appended whole; it is the store of the secrets, not of the games, so a copy
of a game in another database meets the same ledger.  A check and the record
it allows are one step under an exclusive lock of the operating system
(``flock`` on ``COMMITMENT.lock``), so two processes revealing the same draw
at once for two intents cannot both pass: the second waits, then meets the
first's line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from trvendetta.core.errors import TrvError


class IntentRef(NamedTuple):
    """An intent as a ledger keeps it: enough to name it and to show its signature."""

    game: str  # the game's name in the store that met it
    game_id: str  # its first event's hash
    draw: int
    seat: str
    number: int  # the intent's event number
    hash: str  # the intent record's chain hash
    previous: str
    action: str  # canonical JSON
    sig: str
    what: str = ""  # the action in the game's words

    def said(self) -> str:
        return f"{self.seat}'s {self.what or self.action!r} (game {self.game}, event {self.number})"


class OneReveal(TrvError):
    """A use of a secret its ledger refuses (one reveal per draw, one game per secret)."""


class Ledger:
    """The ledger of every secret in ``folder`` (see the module docstring)."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def _file(self, commit: str) -> Path:
        return self.folder / f"{commit}.ledger"

    @contextmanager
    def locked(self, name: str) -> Iterator[None]:
        """Hold the exclusive lock of ``name`` (a commitment, or ``answers``) across processes."""
        import fcntl

        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self.folder / f"{name}.lock", os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # (closing releases the lock)

    def lines(self, commit: str) -> list[dict[str, Any]]:
        path = self._file(commit)
        if not path.exists():
            return []
        out = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                try:
                    out.append(json.loads(line))
                except ValueError:
                    raise TrvError(f"{path}: a line is not JSON; the ledger of this secret is damaged") from None
        return out

    def _append(self, commit: str, entry: dict[str, Any]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self._file(commit), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry, sort_keys=True) + "\n")

    def bound(self, commit: str) -> dict[str, Any] | None:
        """The game this secret serves: ``{"bind": NAME, "id": GAME_ID}``, or None (not yet)."""
        return next((e for e in self.lines(commit) if "bind" in e), None)

    def bind(self, commit: str, game: str, game_id: str) -> None:
        if self.bound(commit) is None:
            self._append(commit, {"bind": game, "id": game_id})

    def drawn(self, commit: str, draw: int) -> IntentRef | None:
        """The intent this secret's draw was used for, or None."""
        for e in self.lines(commit):
            if e.get("draw") == draw and not e.get("refused"):
                return IntentRef(*(e[f] for f in IntentRef._fields))
        return None

    def refused(self, commit: str) -> list[IntentRef]:
        """The intents refused (each a second one for a draw: the evidence kept)."""
        return [IntentRef(*(e[f] for f in IntentRef._fields)) for e in self.lines(commit) if e.get("refused")]

    def record(self, commit: str, intent: IntentRef, refused: bool = False) -> None:
        entry: dict[str, Any] = dict(intent._asdict())
        if refused:
            entry["refused"] = True
        self._append(commit, entry)


def check(ledger: Ledger, commit: str, whose: str, intent: IntentRef) -> None:
    """Refuse (:class:`OneReveal`, one line naming both) a use of ``whose`` secret ``commit`` for
    ``intent`` that its ledger rules out; record nothing."""
    bound = ledger.bound(commit)
    first = ledger.drawn(commit, intent.draw)
    if first is not None and first.hash != intent.hash:
        raise OneReveal(f"one reveal per draw: {whose} revealed draw {intent.draw} for {first.said()} and refuses "
                        f"{intent.said()}: the two signed intents are the evidence "
                        f"(trv verify {first.game}.trv --against {intent.game}.trv)")
    if bound is not None and (bound["id"], bound["bind"]) != (intent.game_id, intent.game):
        how = ("a copy of it (the same first event) under another name" if bound["id"] == intent.game_id
               else "another game")
        raise OneReveal(f"one reveal per draw: {whose}'s secret serves game {bound['bind']} "
                        f"({bound['id'][:16]}...) only, and {intent.game} is {how}: no dice for "
                        f"{intent.said()}")


def refuse(ledger: Ledger, commit: str, whose: str, intent: IntentRef) -> None:
    """:func:`check`; a refused intent is kept in the ledger as evidence before the refusal is raised."""
    try:
        check(ledger, commit, whose, intent)
    except OneReveal:
        if intent.hash:
            ledger.record(commit, intent, refused=True)
        raise


def claim(ledger: Ledger, commit: str, whose: str, intent: IntentRef) -> None:
    """:func:`refuse`, then record the use (binding the secret to the game on its first use): one
    step under the secret's lock, so two processes cannot both pass for two intents of one draw."""
    with ledger.locked(commit):
        refuse(ledger, commit, whose, intent)
        ledger.bind(commit, intent.game, intent.game_id)
        if ledger.drawn(commit, intent.draw) is None:
            ledger.record(commit, intent)




class Answers:
    """Every answer this user gave to an invitation or a host's offer (``answers.jsonl`` beside the
    secrets): asked again, the same answer is given (a second one would let whoever reveals last
    for the set-up, or the host, choose between two); an earlier invitation between the same
    players that never became a game is named (docs/fair-play.md, "Nobody chooses the set-up")."""

    def __init__(self, folder: Path):
        self.path = Path(folder) / "answers.jsonl"

    def all(self) -> list[dict[str, Any]]:
        """Every answer given, oldest first."""
        if not self.path.exists():
            return []
        try:
            return [json.loads(line) for line in self.path.read_text(encoding="utf-8").splitlines() if line.strip()]
        except ValueError:
            raise TrvError(f"{self.path}: a line is not JSON; the record of your answers is damaged") from None

    def given(self, message: str, seat: str) -> dict[str, Any] | None:
        """The answer given to message ``message`` (its id) for ``seat``, or None."""
        return next((e for e in self.all() if e["message"] == message and e["seat"] == seat), None)

    def record(self, *, message: str, seat: str, sender: str, keys: list[str], commit: str, game: str, at: str,
               answer: bytes, offer: str = "") -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        entry = {"message": message, "seat": seat, "from": sender, "keys": sorted(keys), "commit": commit,
                 "game": game, "at": at, "answer": answer.decode()}
        if offer:  # a host's offer as answered: the game it starts is compared with it
            entry["offer"] = offer
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry, sort_keys=True) + "\n")

    @staticmethod
    def to_host(entry: dict[str, Any]) -> bool:
        """Whether an answer was given to a host's offer (a contribution), not to an invitation."""
        if entry.get("offer"):
            return True
        try:
            return str(json.loads(entry["answer"]).get("type", "")).startswith("trv-host-join")
        except (ValueError, AttributeError):
            return False

    def unstarted(self, ledger: Ledger, keys: list[str], message: str) -> list[dict[str, Any]]:
        """Earlier answers among the same players (the same keys), from any sender (a host or
        inviter may offer under another identity), whose game never started here (this store
        never met it: its commitment serves no game in ``ledger``)."""
        return [e for e in self.all() if e["keys"] == sorted(keys)
                and e["message"] != message and ledger.bound(e["commit"]) is None]


def answer_once(answers: Answers, ledger: Ledger, *, message: str, seat: str, sender: str, keys: list[str],
                game: str, at: str, make: Any, offer: str = "", commit: str = "",
                ) -> tuple[bytes, bool, list[dict[str, Any]]]:
    """The answer to message ``message`` for ``seat``: the one given before (True), else
    ``make() -> (answer bytes, commitment)``, recorded (False); and the earlier answers among
    the same players whose game never started (to be shown).  ``offer``: the host's offer
    answered (its file's text), kept with the answer; ``commit``: its commitment, which is
    answered once: a second offer (another id, any host identity) reusing a commitment this user
    answered is refused (its host, who read the first answers, would know its dice)."""
    with ledger.locked("answers"):  # two `trv join` at once give one answer too
        first = answers.given(message, seat)
        if first is not None:
            return first["answer"].encode(), True, []
        if commit:
            reused = next((e for e in answers.all() if e["commit"] == commit and answers.to_host(e)
                           and e["message"] != message), None)
            if reused is not None:
                from trvendetta.replays.keys import fingerprint

                raise TrvError(f"this offer's commitment ({commit[:16]}...) is one you answered already, in an offer "
                               f"of game {reused['game']} from key {fingerprint(reused['from'])} (at {reused['at']}): "
                               "a host that offers again with an answered commitment has read the seed's inputs and "
                               "could choose the game's set-up; nothing answered: ask for an offer with a fresh "
                               "commitment")
        earlier = answers.unstarted(ledger, keys, message)
        answer, commit = make()
        answers.record(message=message, seat=seat, sender=sender, keys=keys, commit=commit, game=game, at=at,
                       answer=answer, offer=offer)
        return answer, False, earlier


__all__ = ["Answers", "IntentRef", "Ledger", "OneReveal", "answer_once", "check", "claim", "refuse"]
