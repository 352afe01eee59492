"""Embedding gives way to requests: after a job during which the process answered requests, the next
job waits three times as long as that one took; a process that answers nothing embeds without a pause."""

from __future__ import annotations

from app.insights.vector_jobs import PAUSE, Pace


async def test_the_job_after_a_busy_one_waits_and_an_idle_process_does_not() -> None:
    now, answered, waits = [100.0], [0.0], []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        now[0] += seconds

    pace = Pace(lambda: answered[0], clock=lambda: now[0], sleep=sleep)
    async with pace.turn():  # nothing answered meanwhile
        now[0] += 2.0
    async with pace.turn():  # requests answered while it embedded
        now[0] += 2.0
        answered[0] += 5
    async with pace.turn():
        now[0] += 1.0
    async with pace.turn():
        pass
    assert waits == [0.0, 0.0, PAUSE * 2.0, 0.0]
