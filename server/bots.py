"""Bot seats on a club server (docs/server.md, "Bot seats"): what a player may ask for, and the
bots the server plays them with.

A player offers a game with bot seats (``KIND:COLOR:CREW[:NAME]``, as `trv host offer --bot`);
the offer, signed by the server, declares each in its ``bots`` and binds it to the server's key,
so the server is the host that runs them, as a `trv host` runs its own (``app.host``): it signs
the bot's actions with its key under the seat's name, and the dice follow the committed seed and
every human's contribution as for any seat (a bot seat's contribution is the fixed
``BOT_CONTRIBUTION``).  What bounds the work a player can make the server do:

* ``bot_games``: the open games and offers with bot seats one player may have at once
  (`trv serve --bot-games`, default 2; 0 turns bot seats off);
* ``search_steps``: the search bot's step budget on this server (`trv serve --search-steps`,
  default the bot's own, 1,000: about 60 ms of CPU a Vendetta decision);
* the HTTP server thinks for every bot on one thread of its own (``server.app``), so the bots of
  every game together use at most that thread, and other requests go on meanwhile.
"""

from __future__ import annotations

from typing import Any

from trvendetta.core.names import name_problem

from .refused import Refused


def make_bot(kind: str, search_steps: int | None) -> Any:
    """The bot the server plays a seat of ``kind`` with (the search at this server's budget)."""
    from trvendetta.bots.registry import get_bot

    if kind == "search" and search_steps is not None:
        from trvendetta.bots.search import SearchBot

        return SearchBot(steps=search_steps)
    return get_bot(kind)


def parse_bot(text: Any) -> tuple[str, str, str, str]:
    """``KIND:COLOR:CREW[:NAME]`` -> (name, color, crew, kind), as `trv host offer --bot` reads it
    (``cli.games.parse_bot``); a Refused naming the problem."""
    from trvendetta.bots import bot_names, seat_name_problem

    parts = text.split(":") if isinstance(text, str) else []
    if len(parts) not in (3, 4) or not all(p for i, p in enumerate(parts) if i != 2):
        raise Refused(400, f"{str(text)[:60]!r}: give each bot seat as KIND:COLOR:CREW[:NAME] (for example "
                           "greedy:blue:cars)")
    kind, color, crew = parts[:3]
    if kind not in bot_names():
        raise Refused(400, f"{text!r}: no bot called {kind!r}; bots: {', '.join(bot_names())}")
    name = parts[3] if len(parts) == 4 else f"{kind}-{color}"
    for what, value in (("COLOR", color), ("NAME", name), ("CREW", crew)):
        problem = name_problem(value) if value else None
        if problem is not None:
            raise Refused(400, f"{text!r}: {what}: {problem}")
    reserved = seat_name_problem(name)
    if reserved is not None:
        raise Refused(400, f"{text!r}: {reserved}")
    return name, color, crew, kind


def bot_seats(club: Any, player: str, given: list[str]) -> list[tuple[str, str, str, str]]:
    """The bot seats ``player`` asks for, checked: each well formed, none named like a player of this
    server (a bot seat takes no one's name), and within the player's allowance of open games with
    bot seats (``club.bot_games``)."""
    if not isinstance(given, list):
        raise Refused(400, "bots: a list of KIND:COLOR:CREW[:NAME]")
    if not given:
        return []
    if club.bot_games <= 0:
        raise Refused(403, "this server plays no bot seats (trv serve --bot-games 0): offer a game of players")
    robots = [parse_bot(text) for text in given]
    for name, _, _, _ in robots:
        if club.accounts.player_folded(name) is not None:
            raise Refused(400, f"a bot seat cannot be called {name!r}: a player of this server has that name "
                               "(give the bot another NAME: KIND:COLOR:CREW:NAME)")
    open_ = open_bot_games(club, player)
    if len(open_) >= club.bot_games:
        raise Refused(429, f"this server plays bot seats in at most {club.bot_games} open games or offers of a "
                           f"player at once, and yours are {', '.join(open_)}: free one first (finish or resign a game: "
                           "trv --server URL resign --game G; withdraw an offer: trv --server URL decline G, "
                           "or POST /api/offers/G/decline)")
    return robots


def bot_seat_game(club: Any, name: str) -> str | None:
    """An open offer or unfinished game of this server with a bot seat called ``name`` (in any letter
    case, as player names are compared), or None: a sign-up under that name is refused while it is
    open, so the name means one thing in that game (docs/server.md, "Bot seats")."""
    from trvendetta.app.messages import Offer
    from trvendetta.store import decode_charter

    folded = name.casefold()
    for game, text, _ in club.accounts.offers():
        if any(seat.casefold() == folded for seat in Offer.decode(text.encode(), game).bots):
            return game
    for info in club.store.list_games():
        if info.status == "over" or not any(p.casefold() == folded for p in info.players):
            continue
        meta = club.store.header(info.id)
        charter = decode_charter(meta.charter) if meta.charter else None
        if charter is not None and any(seat.casefold() == folded for seat in charter.bots) and \
                club._ended(club._seen(info.id, info.version)) is None:
            return info.id
    return None


def open_bot_games(club: Any, player: str) -> list[str]:
    """``player``'s offers (the ones they made or contributed to) and unfinished games with bot seats,
    on this server.  An offer another player made that names them but they never answered is not
    counted: anyone may name anyone in an offer, so counting it would let a stranger use up their
    allowance; they decline it or leave it, and it takes none of their slots."""
    from trvendetta.app.messages import Offer
    from trvendetta.store import decode_charter

    found = []
    for game, text, _ in club.accounts.offers_of(player):  # not an offer that merely names them
        if Offer.decode(text.encode(), game).bots:
            found.append(game)
    for info in club.store.list_games():
        if info.status == "over" or player not in info.players:
            continue
        meta = club.store.header(info.id)
        charter = decode_charter(meta.charter) if meta.charter else None
        if charter is not None and charter.bots and charter.host == club.host_public and \
                club._ended(club._seen(info.id, info.version)) is None:
            found.append(info.id)
    return found


__all__ = ["bot_seat_game", "bot_seats", "make_bot", "open_bot_games", "parse_bot"]
