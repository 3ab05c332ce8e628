"""What the page asks beyond the game's document: where a move can take a vehicle.

``GET /api/games/G/reach[?option=N]`` (AUTH): for the pending decision of the player who
asks, the spaces the player's own actions can take a vehicle to before the game needs
anything else (a roll, a hidden token turned, another player, a shot), each with the
actions that get it there (their exact bytes, as ``options`` lists them, to sign one at a
time), the spaces passed, the terrain and hazard there, and what can be shot from it.  The
search plays the ruleset's own legal actions on copies of the state (``ruleset.apply`` with
no dice, as ``trv legal --targets`` does in ``app/targets.py``): the page adds no rule.
A way whose next action needs chance ends on the space that action enters, labelled with
what may happen there (``chance``), so a move every way of which meets chance (a slam, a
face-down token) is still played on the board.  Commands are left out (each way takes
``no-command``); the page offers them as buttons.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.routing import Route

from trvendetta.app import pending_line
from trvendetta.core.errors import RuleViolation
from trvendetta.core.rng import NeedDice, NoDice, Rng

from .club import Club, Refused

#: actions applied at most by one request
BUDGET = 20_000
#: the longest a route's search may hold the store thread, in seconds; past it the ways found so far
#: are answered, marked ``truncated`` (the page then says some were left out)
SECONDS = 3.0
#: the decisions a way goes through (the others end it: the page shows them as buttons)
MOVING = ("assign", "command", "step")


def _places(view: dict) -> dict[str, str]:
    """Where each vehicle still in play stands."""
    return {v["id"]: str(v.get("at")) for v in view.get("vehicles") or ()
            if v.get("at") and v.get("status") != "eliminated"}


def reach(ruleset: Any, state: Any, option: int | None = None, budget: int = BUDGET,
          encode: Callable[[Any], bytes] | None = None, seconds: float | None = None) -> dict:
    """The ways of the pending decision (all its options, or option number ``option``): per
    vehicle moved, per space it ends on, the shortest way there.  ``state`` is the game as the
    player's seat sees it; ``encode`` gives an action's bytes to sign (a favor's with its opening);
    ``seconds`` bounds the search's time (the routes give ``SECONDS``: one search never holds the
    store thread, and so every other game, for long)."""
    encode = encode or ruleset.encode
    decision = ruleset.pending(state)
    if decision is None:
        raise Refused(409, "the game is over: nothing moves")
    me = decision.player
    options = list(decision.options)
    if option is not None and not 0 <= option < len(options):
        raise Refused(400, f"option={option} is not one of the pending decision's {len(options)} options (0-"
                           f"{len(options) - 1})")
    firsts = options if option is None else [options[option]]
    start_view = ruleset.view(state)
    start = _places(start_view)
    ends: dict[str, dict[str, dict]] = {}
    left = budget
    queue: deque[tuple[Any, list[Any], list[str], list[str], str | None]] = deque()
    for action in firsts:
        queue.append((state, [action], [], [], None))
    cut = 0
    chances: dict[str, dict[str, dict]] = {}
    stop = None if seconds is None else time.monotonic() + seconds
    while queue and left > 0:
        if stop is not None and time.monotonic() >= stop:
            left = 0
            break
        now, way, names, passed, moving = queue.popleft()
        action = way[-1]
        left -= 1
        try:
            after, events = ruleset.apply(now, action, NoDice())
        except NeedDice:
            cut += 1
            _chance(ruleset, now, way, names, passed, moving, chances, encode)
            continue
        except RuleViolation:
            continue
        if any(ruleset.reveals(e) for e in events):
            cut += 1
            _chance(ruleset, now, way, names, passed, moving, chances, encode)
            continue
        names = [*names, ruleset.describe_action(action)]
        view = ruleset.view(after)
        places = _places(view)
        moved = [vid for vid, at in places.items() if start.get(vid) != at]
        if moving is None and len(moved) == 1:
            moving = moved[0]
        if moving is not None and moving not in places:
            continue  # a fatal step: the page offers it as a button, with its warning, never as a space
        if moving is not None and places.get(moving) not in (None, "start"):
            at = places[moving]
            if not passed or passed[-1] != at:
                passed = [*passed, at]
        d = ruleset.pending(after)
        ended = any(ruleset.event_kind(e) == "turn-ended" for e in events)
        going_on = d is not None and d.player == me and d.kind in MOVING and not ended
        if moving is not None and passed and not (going_on and d is not None and d.kind == "step"):
            # the vehicle stops here (its moves are spent, or the next decision is not a step)
            space = passed[-1]
            found = ends.setdefault(moving, {})
            if space not in found or len(found[space]["actions"]) > len(way):
                shots = []
                if d is not None and d.player == me and d.kind == "shoot":
                    shots = [n[len("shoot "):] for n in map(ruleset.describe_action, d.options)
                             if n.startswith("shoot ")]
                found[space] = {"actions": [encode(a).decode() for a in way], "names": names,
                                "passed": passed, "targets": shots}
            continue
        if not going_on or d is None:
            continue
        for nxt in d.options:
            if d.kind == "command" and ruleset.describe_action(nxt) != "no-command":
                continue
            queue.append((after, [*way, nxt], names, passed, moving))
    for vid, spaces in chances.items():  # a space reached without chance is listed that way
        for at, found_way in spaces.items():
            ends.setdefault(vid, {}).setdefault(at, found_way)
    return {"player": me, "kind": decision.kind, "vehicles": ends, "cut_by_chance": cut,
            "truncated": bool(queue) and left <= 0}


#: what the page says may happen where a way meets chance, by the kind of the event chance decides
CHANCE = {"token-revealed": "a face-down hazard token is turned over", "slam-rolled": "the slam dice are rolled",
          "die-rolled": "a die is rolled", "shot-fired": "the shot die is rolled",
          "damage-drawn": "a damage token is drawn", "slam-direction-rolled": "the slam's direction die is rolled",
          "missile-launched": "the missile launcher's shot die is rolled", "favor-collected": "a party favor is drawn",
          "tina-flipped": "Tina's card is flipped"}
#: events too plain to say again in a way's label (the path says them)
_PLAIN = ("vehicle-moved", "move-started", "die-assigned", "command-used")


def _chance(ruleset: Any, now: Any, way: list[Any], names: list[str], passed: list[str], moving: str | None,
            chances: dict[str, dict[str, dict]], encode: Callable[[Any], bytes]) -> None:
    """A way whose last action meets chance (a roll, a hidden token turned): it still ends on the board,
    on the space that action takes the vehicle into, labelled with what may happen there.  The action is
    played once with a stand-in roll (``Rng(0)``) to see where it goes: only the events before chance
    decides anything are said (the ruleset's own sentences), and the space is where the vehicle stands when
    chance comes in (for a token turned as the vehicle enters a space, before it moves: the space it enters
    next); nothing chance decided is read, so the label tells no roll and no hidden token."""
    action = way[-1]
    try:
        events = ruleset.decide(now, action, Rng(0, 0))
    except (RuleViolation, NeedDice):
        return
    before = _places(ruleset.view(now))
    said: list[str] = []
    kinds: list[str] = []
    state = now
    entered: tuple[str, str] | None = None
    for n, event in enumerate(events):
        kind = ruleset.event_kind(event)
        if ruleset.reveals(event):
            kinds.append(kind)
        elif not kinds and kind not in _PLAIN:
            said.append(ruleset.describe(event))
        state = ruleset.evolve(state, event)
        if entered is None and (kinds or n == len(events) - 1):  # (where it went before chance: looked at once)
            places = _places(ruleset.view(state))
            vid = moving if moving is not None else next((v for v, at in places.items() if before.get(v) != at), None)
            if vid is not None and vid in places and places[vid] != before.get(vid) and places[vid] != "start":
                entered = (vid, places[vid])
        if entered is not None and kinds:
            break
    if entered is None or not kinds:
        return
    vid, at = entered
    label = "; ".join([*said, CHANCE.get(kinds[0], f"chance decides ({kinds[0]})")])
    spaces = chances.setdefault(vid, {})
    if at in spaces and len(spaces[at]["actions"]) <= len(way):
        return
    spaces[at] = {"actions": [encode(a).decode() for a in way], "names": [*names, ruleset.describe_action(action)],
                  "passed": [*passed, at] if not passed or passed[-1] != at else list(passed), "targets": [],
                  "chance": label}


def _decorate(found: dict, view: dict) -> dict:
    """Each space's place on the server's drawing (``pictures.svg``), its terrain and hazard."""
    from trvendetta.pictures.svg import layout_of
    from trvendetta.core.layout import parse

    lay = layout_of(view)
    board = view.get("board") or {}
    terrain = {n: kind for kind, names in (board.get("terrain") or {}).items() for n in names}
    tokens = {t["at"]: t.get("kind") or "a face-down hazard token" for t in view.get("tokens") or ()}
    wrecks = set(view.get("wrecks") or ())

    def where(at: str) -> list[float] | None:
        sp = parse(at)
        return None if sp is None else [round(c, 1) for c in lay.center(sp)]

    for spaces in found["vehicles"].values():
        for at, way in spaces.items():
            way["xy"] = where(at)
            way["path_xy"] = [xy for xy in map(where, way["passed"]) if xy]
            way["terrain"] = terrain.get(at, board.get("default_terrain", "road"))
            hazards = [f"hazard: {tokens[s]} at {s}" for s in way["passed"] if s in tokens]
            hazards += [f"a wreck at {s}" for s in way["passed"] if s in wrecks]
            way["hazards"] = hazards
    return found


def _seat(club: Club, game: str, player: str) -> tuple[Any, Any, Any, Callable[[Any], bytes]]:
    """(loaded game, the state as ``player``'s seat sees it, the ruleset, an action's bytes to sign):
    the game document's options come from the same view (``Club.seat_state``), so a favor the host
    dealt face down to the player is searched and signed as ``options`` lists it."""
    seen = club._seen(game)
    loaded, charter = seen.loaded, seen.charter
    if player not in charter.seats:
        raise Refused(403, f"{player} has no seat in {game}")
    ruleset = loaded.ruleset
    ended = club._ended(seen)  # a resignation or a claim: the rules' state goes on, the game does not
    if ended is not None or ruleset.pending(loaded.state) is None:
        line = ended.line() if ended is not None else pending_line(ruleset, loaded.state)
        raise Refused(409, f"{game} is over ({line.removeprefix('game over: ')}): nothing moves, there is no "
                           "decision to play")
    state, openings = club.seat_state(seen, player)
    return loaded, state, ruleset, lambda a: ruleset.encode(ruleset.sealed_action(loaded.state, a, openings))


def reach_doc(club: Club, game: str, player: str, option: int | None) -> dict:
    loaded, state, ruleset, encode = _seat(club, game, player)
    decision = ruleset.pending(state)
    if decision is not None and decision.player != player:
        raise Refused(409, f"it is {decision.player}'s decision, not {player}'s")
    if decision is not None and option is None and decision.kind != "step":
        # every option of a die's assignment is every vehicle's every move: too long a search for the
        # store's thread; a step under way moves one vehicle the moves it has left
        raise Refused(400, f"name one option of the {decision.kind} decision with option=N (0-"
                           f"{len(decision.options) - 1}): the ways of all of them at once are not searched")
    found = reach(ruleset, state, option, encode=encode, seconds=SECONDS)
    return {"game": game, "version": loaded.version, **_decorate(found, ruleset.redact(ruleset.view(state), [player]))}


def options_doc(club: Club, game: str, player: str) -> dict:
    """The pending decision's options as the page shows them: each one's note (``trv legal``'s:
    a fatal step says so) and, for an option that puts a piece on a space (a chopper), where
    that space is on the drawing, to click."""
    from trvendetta.core.layout import parse
    from trvendetta.pictures.svg import layout_of

    loaded, state, ruleset, encode = _seat(club, game, player)
    decision = ruleset.pending(state)
    if decision is None or decision.player != player:
        return {"game": game, "version": loaded.version, "options": []}
    lay = layout_of(ruleset.view(state))
    out = []
    for action in ruleset.legal_actions(state):
        at = getattr(action, "at", None)
        sp = parse(at) if isinstance(at, str) else None
        out.append({"name": ruleset.describe_action(action), "action": encode(action).decode(),
                    "note": ruleset.warning(state, action),
                    "at": at if sp is not None else None,
                    "xy": None if sp is None else [round(c, 1) for c in lay.center(sp)]})
    return {"game": game, "version": loaded.version, "options": out}


def decline(club: Club, player: str, game: str) -> dict:
    """``player`` declines an offer they are among the players of (the one who offered it withdraws it):
    it is dropped before it became a game, and its other players see who declined it (``declined`` in
    ``GET /api/me``).  An offer every player has contributed to is a game already: refused."""
    for _ in range(20):
        found = club._offer(game)
        if found is None:
            raise Refused(404, f"no offer called {game!r} waiting for contributions (declined, or a game already)")
        offer, joined = found
        if player not in offer.seats:
            raise Refused(403, f"{player} is not among the players of the offer {game}")
        if all(seat in joined for seat in offer.seats):
            raise Refused(409, f"every player contributed to {game}: it is a game now (resign it instead)")
        if club.accounts.decline_offer(game, player, list(offer.seats), joined, club.now()):
            return {"game": game, "declined": player}
    raise Refused(409, f"the offer {game} kept changing; try again")


def routes(server: Any, token: Callable[[Request], str | None]) -> list[Route]:
    """The page's routes, mounted by ``server.app`` over its :class:`Server` (``server.api``
    wraps refusals as the other routes do; ``token`` reads a request's session token)."""

    async def reach_route(request: Request) -> Any:
        player = await server.run(server.club.player_of, token(request), shows=False)
        raw = request.query_params.get("option")
        if raw is not None and not (raw.isascii() and raw.isdigit()):
            raise Refused(400, f"option={raw[:20]!r} is not an option's number")
        return await server.run(reach_doc, server.club, request.path_params["game"], player,
                                None if raw is None else int(raw))

    async def options_route(request: Request) -> Any:
        player = await server.run(server.club.player_of, token(request), shows=False)
        return await server.run(options_doc, server.club, request.path_params["game"], player)

    async def decline_route(request: Request) -> Any:
        player = await server.run(server.club.player_of, token(request), shows=False)
        game = request.path_params["game"]
        out = await server.run(decline, server.club, player, game)
        server._moved(game)
        return out

    return [Route("/api/offers/{game}/decline", server.api(decline_route), methods=["POST"]),
            Route("/api/games/{game}/reach", server.api(reach_route)),
            Route("/api/games/{game}/options", server.api(options_route))]
