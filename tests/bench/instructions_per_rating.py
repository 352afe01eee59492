"""Instructions per stored rating, counted by valgrind's callgrind: the same figure on every run of the
same code, whatever else the machine is doing, so a before/after needs one run of each rather than
alternated pairs of a noisy timing. The in-process rating bench (tests.bench.cpu_per_rating) runs twice
under callgrind, with 6 and with 36 waves of 64 submits (warm-up included); the difference over the 30
extra waves cancels start-up. Only the application's process is counted: PostgreSQL's and Redis's own
work is not in it. Needs valgrind, PostgreSQL and Redis; about two minutes:
`.venv/bin/python -m tests.bench.instructions_per_rating`."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from tests.bench.cpu_per_rating import CONCURRENCY

SHORT, LONG = 4, 24
"""Measured waves of the two runs; each also warms up with half as many."""
COLLECTED = re.compile(rb"Collected : (\d+)")


def instructions(waves: int) -> int:
    run = subprocess.run(
        [
            *("valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"),
            *(sys.executable, "-m", "tests.bench.cpu_per_rating", str(waves)),
        ],
        capture_output=True,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
        check=True,
    )
    found = COLLECTED.search(run.stderr)
    if found is None:
        raise RuntimeError(run.stderr.decode(errors="replace")[-2000:])
    return int(found[1])


def main() -> None:
    with ThreadPoolExecutor(2) as pool:
        short, long = pool.map(instructions, (SHORT, LONG))
    ratings = (LONG - SHORT) * 3 // 2 * CONCURRENCY
    print(f"{os.getcwd()}: {(long - short) / ratings / 1000:.1f} thousand instructions per stored rating")


if __name__ == "__main__":
    main()
