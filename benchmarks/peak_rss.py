"""Run a command with its stdout to /dev/null; print its peak RSS, time and exit status.

    python -S benchmarks/peak_rss.py TIMEOUT_SECONDS -- COMMAND [ARG ...]

prints one JSON object: ``{"peak_kib": …, "descendants_kib": …, "seconds": …, "exit": …,
"timed_out": …}``.

Why a separate, small process: the kernel counts in a child's ``ru_maxrss``
the memory of the process it was forked from, up to the ``exec``. Started
from the benchmark runner, every figure would be at least the runner's own
peak. Started from this launcher (``-S``, standard library modules only,
about 8 MiB), the figure is the command's own for anything bigger than that,
which every Python program is. ``os.wait4`` then reads the kernel's exact
high-water mark for that child alone: nothing is sampled.

Processes the command starts itself (stream-chunker's counting process) are
not in that figure. While the command runs, the launcher looks for them every
``POLL_SECONDS`` in ``/proc`` and keeps the last high-water mark (``VmHWM``)
it read for each: ``descendants_kib`` is their sum. A process that lived less
than a poll, or grew in its last moments, may be missed or undercounted.
"""

import os
import sys
import time
from pathlib import Path

POLL_SECONDS = 0.01
SIGKILL = 9


def descendants(pid: int) -> list[int]:
    """The living processes below ``pid`` (Linux; none elsewhere)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        try:
            children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
        except OSError:
            continue
        found += map(int, children)
        todo += map(int, children)
    return found


def high_water_kib(pid: int) -> int | None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    return next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), None)


def main() -> int:
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    timeout, argv = float(sys.argv[1]), sys.argv[3:]
    devnull = os.open(os.devnull, os.O_WRONLY)
    start = time.perf_counter()
    pid = os.posix_spawnp(argv[0], argv, os.environ, file_actions=[(os.POSIX_SPAWN_DUP2, devnull, 1)])
    timed_out = False
    below: dict[int, int] = {}
    while True:
        for child in descendants(pid):
            kib = high_water_kib(child)
            if kib is not None:
                below[child] = max(kib, below.get(child, 0))
        # Polling, not a blocking wait with an alarm: the child is killed only while
        # it is certainly still ours (not yet reaped), so no other process can be hit.
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.perf_counter() - start > timeout:
            os.kill(pid, SIGKILL)
            timed_out = True
            _, status, usage = os.wait4(pid, 0)
            break
        time.sleep(POLL_SECONDS)
    seconds = time.perf_counter() - start
    print(f'{{"peak_kib": {usage.ru_maxrss}, "descendants_kib": {sum(below.values())}, "seconds": {seconds:.3f}, '
          f'"exit": {os.waitstatus_to_exitcode(status)}, "timed_out": {str(timed_out).lower()}}}')
    return 0


if __name__ == "__main__":
    sys.exit(main())
