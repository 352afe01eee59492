"""The decode slots give every slot back: a request that goes away while it waits (a visitor who closed
the page) neither keeps a slot nor blocks the organizations behind it."""

from __future__ import annotations

import asyncio

from app.services.fair_slots import FairSlots


async def test_a_waiter_cancelled_in_the_queue_or_at_its_turn_gives_the_slot_on() -> None:
    slots = FairSlots(1)
    ran: list[str] = []

    async def work(organization: str) -> None:
        async with slots.slot(organization):
            ran.append(organization)

    held = slots.slot("a")
    await held.__aenter__()
    queued, handed, last = (asyncio.create_task(work(name)) for name in ("b", "c", "d"))
    await asyncio.sleep(0)  # all three wait
    queued.cancel()  # leaves the queue before its turn
    await held.__aexit__(None, None, None)  # hands the slot to c, which is cancelled before it runs
    handed.cancel()
    await asyncio.gather(queued, handed, last, return_exceptions=True)
    assert ran == ["d"] and queued.cancelled() and handed.cancelled()
    async with asyncio.timeout(5), slots.slot("e"):  # the slot came back (else this waits for ever)
        pass
