"""``trv turn`` for Carnival: Vendetta's flags plus ``--favor``, ``--witness-me``
and ``--weapon``, declared through the ruleset contract (``core.turnflags``).

Each Carnival flag is turned into candidate actions and played at the first
decision of the turn that lists one (the rules say when: ``carnival/turn.py``);
everything else is Vendetta's driver.  A flag never played is reported.
"""

from __future__ import annotations

from msgspec.structs import replace

from ..core.geometry import DIRECTIONS
from ..core.turnflags import FlagProblem, TurnFlag
from ..vendetta.notation import TURN_FLAGS as VENDETTA_FLAGS
from ..vendetta.actions import NoShoot, Shoot
from ..vendetta.notation import TurnDriver
from ..vendetta.rules import pending
from .components import PILLARS
from .favors import TIMING, known
from .offers import FX_DICE
from .extras import extras
from .turn import MAYHEM_PROMPT
from .actions import (AutoCannon, FireWeapon, FlyChopper, NoFavor, PlayFavor, Thwump, ThwumpRoll, WitnessMe,
                      describe_action)

#: every crew's flags (Vendetta's and the Carnival's own); ``Carnival.turn_flags`` adds the crews'
#: own for the crews it takes (not the Big Rig: "not allowed in the arena")
TURN_FLAGS = VENDETTA_FLAGS + (
    TurnFlag("favor", metavar="NAME[:CHOICE]", multiple=True,
             help="Play a party favor you hold, at the first point of the turn it may be played (repeat, in "
                  "order): bootleg-turn, mega-repair, full-throttle, double-barrel:TARGET (weapon=TARGET: the "
                  "super-weapon's shot; thwump=DIR: the Thwumper's jump, thwump alone: roll, then wait for the way), "
                  "killer-pillar:LOWER,RAISE (LOWER - when none is raised), precision:DIE=FACE (shot, slam, "
                  "direction or stunt); add @effect to play it in the middle of the turn's first slam or damage "
                  "effect that pauses for it (killer-pillar:-,A@effect), @shoot after moving, before the shot "
                  "(killer-pillar:-,C@shoot), or @end after the shot, before the turn ends "
                  "(killer-pillar:-,C@end). full-throttle's 3 steps end --path."),
    TurnFlag("witness-me", "flag", help="Play your Witness Me! card at the start of the turn (once a game)."),
    TurnFlag("weapon", metavar="TARGET|DIR",  # (--airstrike-at takes SPACE:FACING in the arena)
             help="Use the car's super-weapon: its shot at TARGET instead of the normal one (the Auto-Cannon's "
                  "extra shot before or while moving), or the Thwumper's jump in direction DIR (its stunt die "
                  "is rolled first: DIR is the way you choose whatever it shows; thwump alone rolls and waits "
                  "for the way, which the next trv turn --weapon DIR gives)."),
    TurnFlag("second-shot", metavar="TARGET|weapon=TARGET|thwump=DIR",
             help="In the Mood for Mayhem!: shoot another time after the first shot, at TARGET (weapon=TARGET: "
                  "with the super-weapon; thwump=DIR: the Thwumper's jump, thwump alone: roll and wait for the "
                  "way). Without it the second shot is declined."),
)
OWN = ("favor", "witness_me", "weapon", "second_shot")
END = "@end"
#: ``--favor NAME@shoot``: only in the shoot step, after moving, before the shot
SHOOT = "@shoot"
#: what a flag answers when the turn must stop at a decision for `trv decide` (``_carnival``)
STOP = object()


def favor_action(text: str) -> PlayFavor:
    """``--favor`` text as the action it asks for (checked against the options
    when played); a trailing ``@effect`` (:func:`mid_effect`) is not part of it."""
    text = text.strip()
    for mark in (MID, END, SHOOT):
        text = text[: -len(mark)] if text.lower().endswith(mark) else text
    name, _, choice = text.partition(":")
    name = name.strip().lower()
    if name == "killer-pillar":
        lower, _, lift = choice.partition(",")
        lower = "" if lower.strip() in ("", "-") else lower.strip().upper()
        return PlayFavor(name, (lower, lift.strip().upper()))
    if name == "precision":
        die, _, face = choice.partition("=")
        return PlayFavor(name, die=die.strip().lower() or None, face=face.strip().upper() or None)
    if name == "double-barrel":  # TARGET, weapon=TARGET (the super-weapon's shot) or thwump=DIR
        given, _, target = choice.partition("=") if "=" in choice else ("", "", choice)
        shot = given.strip().lower() or None
        target = target.strip().upper() if shot == "thwump" else target.strip()
        return PlayFavor(name, target=target or None, shot=shot)
    return PlayFavor(name)


MID = "@effect"


def mid_effect(text: str) -> bool:
    """``--favor NAME@effect``: played only where a slam or damage effect pauses for favors."""
    return str(text).strip().lower().endswith(MID)


def at_shoot(text: str) -> bool:
    """``--favor NAME@shoot``: played in the shoot step, after moving, before the shot."""
    return str(text).strip().lower().endswith(SHOOT)


def at_end(text: str) -> bool:
    """``--favor NAME@end``: played after the shot (rules v4), before the turn ends."""
    return str(text).strip().lower().endswith(END)


def shot_actions(text: str) -> tuple:
    """``--second-shot`` (or ``--weapon``) text as the actions it may be: a normal shot, the
    super-weapon's, or the Thwumper's jump (its stunt die rolled first from rules v4)."""
    given, _, target = str(text).partition("=") if "=" in str(text) else ("", "", str(text))
    given, target = given.strip().lower(), target.strip()
    if given == "weapon":
        return (FireWeapon(target), AutoCannon(target))
    if given == "thwump":
        return (Thwump(target.upper()), ThwumpRoll())
    return (Shoot(target), FireWeapon(target), AutoCannon(target), Thwump(target.upper()), ThwumpRoll())


def way(text: str) -> str:
    """The Thwumper's way in ``--weapon`` / ``--second-shot`` / ``double-barrel:`` text: ``DIR`` or
    ``thwump=DIR``; ``""`` for ``thwump`` alone (roll, then choose once the die shows)."""
    given, _, target = str(text).partition("=") if "=" in str(text) else ("", "", str(text))
    target = target.strip().upper()
    return "" if target in ("", "THWUMP") else target


class CarnivalDriver(TurnDriver):
    def __init__(self, flags: dict, declared: tuple[TurnFlag, ...] = ()):
        self.favors = [(text, favor_action(str(text))) for text in flags.get("favor") or ()]
        self.mid = {str(text) for text in flags.get("favor") or () if mid_effect(text)}
        self.end = {str(text) for text in flags.get("favor") or () if at_end(text)}
        self.shoot_step = {str(text) for text in flags.get("favor") or () if at_shoot(text)}
        # Full Throttle's 3 steps end --path: held back until it is played (after the move)
        self.throttle: list[str] = []
        path = list(flags.get("path") or [])
        if path and any(a.favor == "full-throttle" for _, a in self.favors):
            self.throttle, flags = path[-3:], {**flags, "path": path[:-3] or None}
        super().__init__({k: v for k, v in flags.items() if k not in OWN}, declared)
        self.witness = bool(flags.get("witness_me"))
        self.weapon = flags.get("weapon")
        self.second = flags.get("second_shot")
        self.aim: str | None = None  # the Thwumper's way, once its stunt die is rolled (rules v4)
        self.legal_seen: tuple[str, ...] = ()
        self.declined: tuple | None = None  # the turn and its extras when this driver declined a second shot
        self.unchecked = True  # the --favor choices are checked against the game's pillars and dice once
        self.bad: list[FlagProblem] = []  # --favor flags that name no favor, pillar or face: the only refusal

    def _carnival(self, state, d):
        """A Carnival flag's action if it answers ``d`` now."""
        self.legal_seen = tuple(describe_action(o) for o in d.options)
        if self.witness and WitnessMe() in d.options:
            self.witness = False
            return WitnessMe()
        if d.kind == "thwump" and self.aim is not None:  # rules v4: the die is rolled, now the way
            aim, self.aim = self.aim, None
            return Thwump(aim)
        ending = d.kind == "favor" and state.turn.phase == "done"  # rules v4: after the shot
        shooting = d.kind == "shoot" and state.turn.phase == "shoot" and state.pause is None  # after moving
        for i, (text, action) in enumerate(self.favors):
            # a private view lists its owner's favors with their openings: the flag names the favor without
            found = next((o for o in d.options if isinstance(o, PlayFavor) and replace(o, nonce=None) == action), None)
            if found is None and action.favor == "double-barrel" and action.shot == "thwump":
                rolled = replace(action, target=None)  # rules v4: the die first, the way (the target) after
                found = next((o for o in d.options if isinstance(o, PlayFavor) and replace(o, nonce=None) == rolled),
                             None)
                if found is not None and action.target not in DIRECTIONS:
                    del self.favors[i]
                    self._bad_way(f"--favor {text}", action.target or "")
                    return None
                if found is not None:
                    self.aim = action.target
            if found is not None and (str(text) in self.mid) == (state.pause is not None) \
                    and (str(text) in self.end) == ending and (shooting or str(text) not in self.shoot_step):
                del self.favors[i]
                if action.favor == "full-throttle" and self.throttle:
                    self.path, self.throttle = self.throttle, []  # its 3 steps, driven next
                return found
        if self.weapon:
            action = self._shot(str(self.weapon), d, (FireWeapon, AutoCannon, Thwump, ThwumpRoll))
            if action is not None:
                self.weapon = None
                return action
        if d.kind == "shoot" and state.turn.phase == "done" and self.second and d.prompt == MAYHEM_PROMPT:
            action = self._shot(str(self.second), d, (Shoot, FireWeapon, Thwump, ThwumpRoll))
            if action is not None:
                self.second = None
                return action
        if d.kind == "airstrike-place" and self.flags.get("airstrike_at"):
            at, _, facing = str(self.flags["airstrike_at"]).partition(":")
            self.used.add("airstrike_at")
            action = FlyChopper(at.strip(), facing.strip().upper() or "F")
            if action in d.options:
                return action
            self.problems.append(FlagProblem(f"--airstrike-at {self.flags['airstrike_at']}",
                                             f"the chopper cannot fly to {at} (an empty arena or road-tile space, "
                                             "not a spotlight, pillar or token; facing one of F FR BR B BL FL)",
                                             self.legal_seen[:12]))
            return None
        if d.kind == "favor":
            return NoFavor()  # nothing more to play before moving (or in the middle of this effect)
        if d.kind == "shoot" and state.turn.phase == "done":
            if d.prompt == MAYHEM_PROMPT:
                if self.declined == (self.turn_key, extras(state)):  # declining changed nothing (rules v2-v4
                    return STOP  # after the Auto-Cannon's shot): it would be offered again, for ever
                self.declined = (self.turn_key, extras(state))
            return NoFavor()  # In the Mood for Mayhem!'s second shot without --second-shot: declined
        if d.kind == "shoot" and "shoot" not in self.flags and not any(
                isinstance(o, (*self.shots, FireWeapon, Thwump, ThwumpRoll)) for o in d.options):
            return NoShoot()  # only favors were offered after moving, none asked for: nothing to shoot at
        return None

    def _shot(self, text: str, d, kinds: tuple) -> object | None:
        """The option of ``d`` that ``text`` asks for (a jump: its roll, the way kept for after;
        ``thwump`` alone rolls and leaves the way to be chosen once the die shows)."""
        for action in shot_actions(text):
            if isinstance(action, kinds) and action in d.options:
                if isinstance(action, ThwumpRoll):
                    aim = way(text)
                    if aim not in ("", *DIRECTIONS):
                        self._bad_way(self._flag_of(text), aim)
                        if text == str(self.weapon):
                            self.weapon = None
                        else:
                            self.second = None
                        return None
                    self.aim = aim or None
                return action
        return None

    def _check_favors(self, state) -> None:
        """A ``--favor`` naming no favor, no pillar or no face of an FX die is refused before anything
        is played (once a die has rolled, a flag not played is only reported)."""
        dice = state.components.dice
        for text, action in list(self.favors):
            why = ""
            if action.favor not in TIMING:
                why = f"no party favor is called {action.favor}; the ones played are " + ", ".join(
                    k for k in TIMING if TIMING[k])
            elif not TIMING[action.favor]:
                why = f"{action.favor} is never played (it is worth 2 scrap at the end of the game)"
            elif action.favor == "killer-pillar" and (action.pillars[0] not in ("", *PILLARS)
                                                      or action.pillars[1] not in PILLARS
                                                      or action.pillars[0] == action.pillars[1]):
                why = (f"killer-pillar:LOWER,RAISE takes two different pillars of {', '.join(PILLARS)} (LOWER - "
                       "when none is raised), as killer-pillar:-,C or killer-pillar:A,C")
            elif action.favor == "precision" and (action.die not in FX_DICE or action.face not in
                                                  dice[action.die].faces):
                why = "precision:DIE=FACE sets an FX die to one of its faces: " + "; ".join(
                    f"{die} {' '.join(dict.fromkeys(dice[die].faces))}" for die in FX_DICE)
            if why:
                self.favors.remove((text, action))
                self.bad.append(FlagProblem(f"--favor {text}", why))
        self.problems += self.bad

    def _bad_way(self, flag: str, aim: str) -> None:
        """A way the Thwumper cannot jump, refused before its stunt die is rolled."""
        self.problems.append(FlagProblem(flag, f"the Thwumper jumps F, FR, BR, B, BL or FL, not {aim} (thwump "
                                         "alone rolls its stunt die and waits for the way)", self.legal_seen))

    def _flag_of(self, text: str) -> str:
        return f"--weapon {text}" if text == str(self.weapon) else f"--second-shot {text}"

    def next(self, state):
        if self.unchecked:
            self.unchecked = False
            self._check_favors(state)
        if len(self.problems) > self.accepted:
            return None
        d = pending(state)
        if d is not None and state.turn is not None and d.player == state.turn.player:
            if self.turn_key is None:
                self.turn_key = (state.round, state.turn_number)
                self.player = d.player
            if (state.round, state.turn_number) == self.turn_key and d.player == self.player:
                action = self._carnival(state, d)
                if action is STOP:
                    return None  # the game waits on the decision: `trv decide` answers it
                if action is not None:
                    self.last = state
                    return action
        return super().next(state)

    def finish(self, state) -> list[FlagProblem]:
        problems = super().finish(state)
        if self.bad:  # nothing was played: the other flags were not reached, and are not the problem
            bad, self.bad = self.bad, []
            self.favors, self.witness, self.weapon, self.second, self.throttle = [], False, None, None, []
            return bad
        legal = self.legal_seen
        if self.witness:
            used = self.player in state.witness_used
            why = f"{self.player} has played Witness Me! already (once a game)" if used else \
                "Witness Me! is played at the start of your turn, before assigning a die"
            problems.append(FlagProblem("--witness-me", why, legal))
        for text, action in self.favors:
            held = known(state.favors.get(self.player, ())) if self.player else []
            why = (f"{self.player} holds no {action.favor}" if action.favor not in held else
                   f"{describe_action(action)} could not be played this turn (not its time, or not a legal choice)")
            problems.append(FlagProblem(f"--favor {text}", why, legal))
        if self.weapon:
            car = state.turn.car if state.turn is not None and state.turn.player == self.player else None
            weapon = state.weapons.get(car) if car else None
            why = f"{car} has no super-weapon" if car and weapon is None else \
                f"the super-weapon could not be used at {self.weapon} this turn"
            problems.append(FlagProblem(f"--weapon {self.weapon}", why, legal))
        if self.second:
            problems.append(FlagProblem(f"--second-shot {self.second}", "no second shot was offered this turn (In "
                                        "the Mood for Mayhem! after a first shot from the arena), or it could not "
                                        f"be aimed at {self.second}", legal))
        if self.throttle:
            problems.append(FlagProblem("--path " + ",".join(self.throttle), "Full Throttle's 3 steps were not "
                                        "driven: the favor was not played", legal))
        self.favors, self.witness, self.weapon, self.second, self.throttle = [], False, None, None, []
        return problems

