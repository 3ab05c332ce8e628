"""The working context of one ``decide`` call.

``decide`` is pure from the outside, but inside it resolves a chain of
effects; each effect reads the state as it is *now*.  The context appends an
event and folds it at once, so every rule sees the consequences of the
previous one, and the events it returns fold to exactly the state it saw.
Chance goes through :meth:`roll` and :meth:`draw`, which take a position's
scripted outcome first and the seeded RNG after.
"""

from __future__ import annotations

from ..core.errors import ScriptError
from ..core.rng import Rng
from .evolve import evolve
from .model import State


class Suspend(Exception):
    """A decision is now pending inside an effect chain (a slam reroll)."""


class GameEnds(Exception):
    """The game ended in the middle of an effect chain (the Finish Line)."""


class Ctx:
    __slots__ = ("state", "rng", "events", "guard")

    def __init__(self, state: State, rng: Rng):
        self.state = state
        self.rng = rng
        self.events: list = []
        self.guard = 0

    def emit(self, event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)
        self.guard += 1
        if self.guard > 5000:  # an invariant, not a rule: no action resolves forever
            raise RuntimeError("effect chain did not terminate")
        self.state.board.emitted(self, event)  # what the event earns on the board (the arena's scrap)

    def roll(self, die: str) -> tuple[str, bool]:
        """Roll a special-effects die: (face, scripted).  The board may set a
        die instead of rolling it (the arena's Danger Ahead!)."""
        face = self.state.board.set_die(self.state, die)
        if face is not None:
            return face, False
        queue = self.state.script.get(die, ())
        if queue:
            return queue[0], True
        c = self.state.components
        assert c is not None, "a started game has its components"
        return self.rng.pick(c.dice[die].faces), False

    def roll_movement(self, n: int, die: str = "movement") -> tuple[tuple[int, ...], int]:
        """Roll ``n`` movement dice of a crew's ``die`` (scripted values come from
        the one ``movement`` queue): (values, how many came from the script)."""
        queue = self.state.script.get("movement", ())
        scripted = min(n, len(queue))
        values = [int(v) for v in queue[:scripted]]
        c = self.state.components
        assert c is not None, "a started game has its components"
        faces = c.dice[die].faces
        values += [int(self.rng.pick(faces)) for _ in range(n - scripted)]
        return tuple(values), scripted

    def draw(self, pile_name: str, pile: dict[str, int]) -> tuple[str, bool]:
        """Draw a token kind from a pile given as counts: (kind, scripted)."""
        queue = self.state.script.get(pile_name, ())
        if queue:
            kind = queue[0]
            if pile.get(kind, 0) <= 0:
                raise ScriptError(f"scripted {pile_name} token {kind!r} is not left in the pile")
            return kind, True
        return self.rng.weighted(pile), False
