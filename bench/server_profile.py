"""`trv` under cProfile in every thread (the event loop's and the store's), for ``bench.server_load --profile``.

    python -m bench.server_profile OUT.prof -- --store club.sqlite serve --id club ...

Runs ``trvendetta.cli.main`` with the given arguments; each thread the process starts is profiled from its
first call, and when the command returns (``trv serve`` on SIGTERM) every thread's figures are added up into
``OUT.prof`` (``python -m pstats OUT.prof``), with the CPU seconds of each thread's own profile beside it
(``OUT.prof.threads``).  A benchmark's tool only: the profiler roughly doubles a request's CPU, so its
figures say where the time goes, not how much a move costs.
"""

from __future__ import annotations

import cProfile
import pstats
import signal
import sys
import threading
import time


def main(argv: list[str]) -> int:
    out, rest = argv[0], argv[argv.index("--") + 1:] if "--" in argv else argv[1:]
    profiles: list[tuple[str, cProfile.Profile]] = []
    lock = threading.Lock()

    def start(*_: object) -> None:
        profile = cProfile.Profile(time.thread_time)  # CPU, not wall: a thread waiting on its lock costs nothing
        with lock:
            profiles.append((threading.current_thread().name, profile))
        profile.enable()  # (replaces this hook in the new thread)

    # uvicorn restores the handler it found and raises SIGTERM again once it has shut down: exit then
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    threading.setprofile(start)
    main_profile = cProfile.Profile(time.thread_time)
    profiles.append(("main", main_profile))
    from trvendetta.cli.group import cli

    main_profile.enable()
    code = 0
    try:
        cli(rest, prog_name="trv", standalone_mode=False)
    except SystemExit as exc:
        code = int(exc.code or 0)
    finally:
        main_profile.disable()
        threading.setprofile(None)  # type: ignore[arg-type]
        stats: pstats.Stats | None = None
        lines = []
        for name, profile in profiles:
            profile.create_stats()
            if not profile.stats:  # type: ignore[attr-defined]
                continue
            one = pstats.Stats(profile)
            lines.append(f"{name}\t{one.total_tt:.3f}")  # type: ignore[attr-defined]
            stats = one if stats is None else stats.add(one)
        if stats is not None:
            stats.dump_stats(out)
        with open(out + ".threads", "w") as f:
            f.write("\n".join(lines) + "\n")
    return code


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
