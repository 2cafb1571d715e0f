"""A call's one request message, awaited no longer than the receive timeout (issue 9, 20).

Shared by every handler the service port registers with a request stream (the
RouteService's, health checks'): a call that sends its headers and then nothing
holds no thread and ends after ``receive_timeout_s`` (or its deadline), and
meanwhile may have to make room for calls that are ready (``server.call_cap``).
"""

from __future__ import annotations

import asyncio
import time
from typing import AsyncIterator

from route18xx.server.rpc.call_cap import CURRENT_SLOT
from route18xx.server.core.errors import BadMessage, DeadlineExceeded, Overloaded


async def receive_first(
    requests: AsyncIterator[bytes], deadline: float, receive_timeout_s: float
) -> bytes:
    """The call's first request message; ``BadMessage`` when none comes in time,
    ``DeadlineExceeded`` when the deadline comes first, ``Overloaded`` when it made room."""
    left = max(0.0, deadline - time.monotonic())
    wait = min(receive_timeout_s, left)
    slot = CURRENT_SLOT.get()
    try:
        if slot is None:
            return await asyncio.wait_for(anext(requests), wait)
        with slot.waiting() as evicted:
            return await _first_or_evicted(requests, evicted, wait)
    except asyncio.TimeoutError:
        if wait >= left:
            raise DeadlineExceeded("the request message did not arrive before the deadline") from None
        raise BadMessage(
            f"no request message arrived within {wait:.1f} s of the call's start"
        ) from None
    except StopAsyncIteration:
        raise BadMessage("the call carried no request message") from None


async def _first_or_evicted(
    requests: AsyncIterator[bytes], evicted: asyncio.Event, wait: float
) -> bytes:
    """The first request message within ``wait`` seconds (``asyncio.TimeoutError`` after);
    ``Overloaded`` if the call must make room first.

    The timeout is ``asyncio.wait``'s own: under ``asyncio.wait_for`` this coroutine
    ran as one more task per call, and the message reached it a loop turn later.
    """
    if wait <= 0:  # as ``wait_for`` with no time left: nothing is awaited
        raise asyncio.TimeoutError
    message = asyncio.ensure_future(anext(requests))
    room = asyncio.ensure_future(evicted.wait())
    try:
        await asyncio.wait({message, room}, timeout=wait, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (message, room):
            if not task.done():
                task.cancel()
    if message.done():
        return message.result()
    if not room.done():
        raise asyncio.TimeoutError
    raise Overloaded(
        "no request message yet while the server, this connection or this client held its "
        "share of such calls: this call made room for another; retry", 1.0,
    )
