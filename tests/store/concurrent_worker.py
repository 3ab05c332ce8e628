"""One of the processes of ``test_concurrency.py``: plays random moves in many games of one store.

``python concurrent_worker.py STORE WORKER MOVES GAMES``: makes MOVES moves,
the i-th in game ``g{(WORKER * 7 + i) % GAMES}`` (so the workers keep meeting
in the same games), each as one command: load, choose with the random bot,
apply, append at the loaded version; on "game moved on" it loads again and
retries.  Prints one JSON line: every append that succeeded
(game, version before, events) and every refusal message.
"""

import json
import sys

from trvendetta import rulesets
from trvendetta.bots import get_bot
from trvendetta.core.rng import Rng
from trvendetta.store import GameMovedOn, GameStore


def main(store_at: str, worker: int, moves: int, games: int) -> None:
    rs = rulesets.get("vendetta")
    bot = get_bot("random")
    rng = Rng(worker, 99)
    done, refused = [], []
    with GameStore(store_at) as store:
        for i in range(moves):
            game = f"g{(worker * 7 + i) % games}"
            while True:
                loaded = store.load(game)
                if rs.is_over(loaded.state):
                    break
                action = bot.choose(rs, loaded.state, rng)
                _, events = rs.apply(loaded.state, action)
                try:
                    store.append(game, loaded.version, steps=[(action, events)])
                except GameMovedOn as exc:
                    refused.append(str(exc))
                    continue
                done.append([game, loaded.version, len(events)])
                break
    print(json.dumps({"done": done, "refused": refused}))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]))
