"""Helpers the fair-play tests import (a module named for this folder: ``conftest`` is a name
many test folders share, so ``from conftest import`` picks whichever was imported first)."""

import json


def version(p) -> int:
    return json.loads(p("show", "--json").stdout)["version"]


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
