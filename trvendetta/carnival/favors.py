"""Party favors: the hidden draw and when each may be played (rulebook
"Party Favors", "Party Favor Reference").

Pure.  A face-down favor has no kind in the state: like Vendetta's hazard
tokens, its kind is drawn from what is left of the mix when a car collects it,
the same distribution as a shuffled face-down pile, so the log leaks nothing.
"""

from __future__ import annotations

from ..core.errors import RuleViolation
from ..core.rng import NeedDice, NoDice, Rng, _sha256

#: when in a turn each favor may be played; "Unless stated otherwise, you can
#: only use a party favor during your turn" (none says otherwise)
TIMING = {
    "bootleg-turn": ("start-of-turn", "before-moving"),  # "Play before moving."
    "double-barrel": ("start-of-turn", "before-moving"),  # "Play before moving."
    "full-throttle": ("after-moving",),  # "Play after moving ... even if you coasted"
    # "at any time on your turn ... in the middle of resolving another effect, such as a slam or damage effect"
    # (rules v4: after shooting too, before the turn ends)
    "killer-pillar": ("start-of-turn", "before-moving", "after-moving", "before-fx-roll", "mid-effect",
                      "after-shooting"),
    "mega-repair": ("start-of-turn",),  # "at the start of your turn before assigning your dice"
    "precision": ("before-fx-roll", "mid-effect"),  # "Play before an FX die is rolled on your turn"
    "solid-gold-muffler": (),  # "worth 2 scrap" at the end; "not worth anything during the game"
}
PHASES = ("start-of-turn", "before-moving", "after-moving", "before-fx-roll", "mid-effect", "after-shooting")


def draw(pile: dict[str, int], rng: Rng) -> str:
    """The kind of a favor just collected, drawn from the favors left in the mix."""
    return rng.weighted(pile)


# ------------------------------------------------ private favors (host games)
# A host game deals each favor to its owner face down for real: the record holds a commitment
# (``commit``) and the kind sealed to the owner's key by the host's shell; the kind is opened
# when the favor is played.  The kinds come from a deck, the favors left in the mix shuffled
# with the host's favor key (``Rng.favor_key``, from its secret game seed): the k-th favor
# dealt is the deck's k-th, which is what drawing from the mix gives.  Anyone holding the
# revealed game seed recomputes the deck, so the host cannot change a favor after dealing it.

#: the prefix of a held favor whose kind its holder's state does not know: ``#INDEX:COMMITMENT``
HIDDEN = "#"


def commit(kind: str, nonce: str) -> str:
    """The commitment to a favor: SHA-256 of its kind and its nonce (hex)."""
    return _sha256(f"trvendetta favor 1\n{kind}\n{nonce}".encode()).hex()


def hidden(index: int, commitment: str) -> str:
    return f"{HIDDEN}{index}:{commitment}"


def is_hidden(entry: str) -> bool:
    return entry.startswith(HIDDEN)


def known(held: tuple[str, ...] | list[str]) -> list[str]:
    """The kinds among held favors (hidden ones left out)."""
    return [k for k in held if not k.startswith(HIDDEN)]


def favor_key(rng: Rng) -> bytes:
    """The host's favor key of a private-favor game's draw (NeedDice when it has none: a favor is
    dealt by the host, so an action that deals one waits for the host's dice)."""
    key = getattr(rng, "favor_key", None)
    if key is None:
        if isinstance(rng, NoDice):
            raise NeedDice("a private favor is dealt by the host")
        raise RuleViolation("party-favors", "private favors are dealt by a host (trv host): these dice have no "
                                            "favor key")
    return key


def deck(pile: dict[str, int], key: bytes) -> list[str]:
    """The kinds of a private-favor game's favors in the order they are dealt."""
    seed = int.from_bytes(_sha256(b"trvendetta favor deck 1\n" + key)[:8], "big") >> 1
    return Rng(seed, 0).shuffled([k for k in sorted(pile) for _ in range(pile[k])])


def nonce(key: bytes, index: int) -> str:
    """The nonce of the ``index``-th favor dealt (secret while the host's seed is)."""
    return _sha256(b"trvendetta favor nonce 1\n%d\n" % index + key).hex()[:32]


def opening(pile: dict[str, int], key: bytes, index: int) -> tuple[str, str]:
    """The kind and nonce of the ``index``-th favor dealt."""
    return deck(pile, key)[index], nonce(key, index)


def kind_of(entry: str, pile: dict[str, int], rng: Rng) -> str:
    """A held favor's kind, a hidden one opened with the host's favor key (the end's scoring)."""
    if not is_hidden(entry):
        return entry
    index, _, commitment = entry[1:].partition(":")
    kind, salt = opening(pile, favor_key(rng), int(index))
    if commit(kind, salt) != commitment:
        raise RuleViolation("party-favors", f"favor {index} was not dealt as the host's deck gives it")
    return kind


def open_held(held: tuple[str, ...], kind: str, salt: str) -> tuple[str, ...] | None:
    """``held`` with the hidden favor that ``kind`` and ``salt`` open shown as ``kind`` (None: no
    held favor has that commitment)."""
    commitment = commit(kind, salt)
    for i, entry in enumerate(held):
        if is_hidden(entry) and entry.partition(":")[2] == commitment:
            return held[:i] + (kind,) + held[i + 1:]
    return None


def check_play(favor: str, phase: str, own_turn: bool, out: bool = False) -> None:
    """Refuse (RuleViolation naming the rule and when it may be played) a
    favor played at the wrong time."""
    when = TIMING[favor]
    if favor == "solid-gold-muffler":
        raise RuleViolation("party-favors", "a Solid Gold Muffler is not played: it is worth 2 scrap at the end "
                                            "of the game")
    if not own_turn:
        raise RuleViolation("party-favors", f"{favor} can only be used during your turn")
    if favor == "mega-repair" and out:
        raise RuleViolation("party-favors", "Mega-Repair: all your cars are eliminated or inoperable, so you are "
                                            "out of the game and may not play it")
    if phase not in when:
        raise RuleViolation("party-favors", f"{favor} cannot be played {phase.replace('-', ' ')}", list(when))


def killer_pillar(raised: tuple[str, ...], lower: str, lift: str) -> tuple[str, ...]:
    """The Killer Pillar favor: one pillar flips to its road side, another to
    its impassable side (the caller eliminates any car on ``lift``)."""
    if lower == lift:
        raise RuleViolation("party-favors", "Killer Pillar flips one pillar to road and ANOTHER to impassable")
    return tuple(sorted((set(raised) - {lower}) | {lift}))


def check_full_throttle(path: tuple[str, ...] | list[str]) -> None:
    """Full Throttle: "You must move all 3 spaces"."""
    if len(path) != 3:
        raise RuleViolation("party-favors", f"Full Throttle moves exactly 3 spaces, not {len(path)}")
