"""Make the README's pictures with the tools: ``python -m bench.readme_pictures``.

``docs/pictures/board.png`` is ``trv show --png`` of a greedy 3-player game
part-way through; ``docs/pictures/viewer.png`` is headless Chromium's
screenshot of ``trv replay --html`` of the same game at the same event.
Needs the optional extra ``png`` (cairosvg) and Chromium.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from .browser import Browser

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "pictures"
SEED, AT = 4, 160


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="trv-readme-"))
    env = {k: v for k, v in os.environ.items() if k not in ("TRV_DB", "TRV_GAME")} | {"NO_COLOR": "1"}
    trv = [sys.executable, "-m", "trvendetta.cli.main", "--db", str(tmp / "g.sqlite")]
    game = f"sim-vendetta-3p-{SEED}"
    subprocess.run([*trv, "sim", "--games", "1", "--players", "3", "--seed", str(SEED), "--bot", "greedy",
                    "--store", "-q"], env=env, check=True, stdout=subprocess.DEVNULL)
    OUT.mkdir(parents=True, exist_ok=True)
    subprocess.run([*trv, "--game", game, "show", "--at", str(AT), "--png", str(OUT / "board.png")], env=env,
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run([*trv, "replay", game, "--html", str(tmp / "game.html")], env=env, check=True)
    with Browser() as browser:
        page = browser.page(1280, 1250)
        page.open(tmp.joinpath("game.html").as_uri() + f"#{AT}")
        (OUT / "viewer.png").write_bytes(page.screenshot({"x": 0, "y": 0, "width": 1280, "height": 1250}))
    print(f"wrote {OUT / 'board.png'} and {OUT / 'viewer.png'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
