"""The ``route18xx.v1.RouteService`` on the asyncio gRPC server (issue 9).

The handlers are registered with raw bytes in and out, so that

* a request that is not a message of its type is ``INVALID_ARGUMENT`` naming
  ``request`` (gRPC's own deserializer would answer INTERNAL and log a
  traceback per request);
* the request message is awaited with a receive timeout: a call that sends its
  headers and then nothing holds no thread and ends after
  ``Limits.receive_timeout_s`` (or its deadline).

The work itself is ``server.calls.CallCore``'s, shared with the HTTP front end.
Every call's token is cancelled when the call ends for any reason. One log line
per call records its real outcome: OK, the error's status code, CANCELLED or
DEADLINE_EXCEEDED.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, AsyncIterator, Callable

import grpc
from grpc_status import rpc_status

from route18xx.server.core.calls import METHODS, SERVICE_NAME, CallCore, Method
from route18xx.server.core.errors import BadMessage, DeadlineExceeded, status_for
from route18xx.server.ops.version import VERSION_HEADER, version_text
from route18xx.server.rpc.receive import receive_first

class RouteService:
    """The RouteService gRPC handlers over a ``CallCore``."""

    def __init__(self, core: CallCore) -> None:
        self._core = core
        self._limits = core.limits

    def generic_handler(self) -> grpc.GenericRpcHandler:
        """The service's handlers: raw bytes in (read with a timeout) and out."""
        handlers = {
            m.name: grpc.stream_unary_rpc_method_handler(self._handler(m)) for m in METHODS
        }
        return grpc.method_handlers_generic_handler(SERVICE_NAME, handlers)

    def _handler(
        self, method: Method
    ) -> Callable[[AsyncIterator[bytes], grpc.aio.ServicerContext[bytes, bytes]], Any]:
        async def handle(
            requests: AsyncIterator[bytes], context: grpc.aio.ServicerContext[bytes, bytes]
        ) -> bytes:
            return await self._serve(method, requests, context)

        return handle

    async def _serve(
        self,
        method: Method,
        requests: AsyncIterator[bytes],
        context: grpc.aio.ServicerContext[bytes, bytes],
    ) -> bytes:
        with self._core.in_flight("grpc"):
            return await self._serve_counted(method, requests, context)

    async def _serve_counted(
        self,
        method: Method,
        requests: AsyncIterator[bytes],
        context: grpc.aio.ServicerContext[bytes, bytes],
    ) -> bytes:
        started = time.perf_counter()
        size: list[int] = []  # the request's size, once it arrived
        await context.send_initial_metadata(((VERSION_HEADER, version_text()),))
        deadline, cancel = self._core.token(context.time_remaining())
        context.add_done_callback(lambda _: cancel.cancel())
        try:
            data = await self._receive(requests, deadline)
            size.append(len(data))
            response: bytes = (await self._core.run(method, data, cancel)).SerializeToString()
        except asyncio.CancelledError:
            cancel.cancel()
            self._finish(method, "CANCELLED", started, size, context)
            raise
        except Exception as exc:  # the table decides; unexpected → INTERNAL, logged there
            status = rpc_status.to_status(status_for(exc))
            self._finish(method, status.code.name, started, size, context)  # before the client hears it
            await context.abort(status.code, status.details, status.trailing_metadata)
            raise  # pragma: no cover  (abort raises)
        # The work finished, but the client may have gone (cancelled, deadline) meanwhile.
        late = time.monotonic() >= deadline
        outcome = "DEADLINE_EXCEEDED" if late else "CANCELLED" if context.cancelled() else "OK"
        self._finish(method, outcome, started, size, context)
        return response

    def _finish(self, method: Method, outcome: str, started: float, size: list[int],
                context: grpc.aio.ServicerContext[bytes, bytes]) -> None:
        self._core.finish("grpc", method, outcome, started,
                          request_bytes=size[0] if size else None, peer=context.peer())

    async def _receive(self, requests: AsyncIterator[bytes], deadline: float) -> bytes:
        """The call's one request message, awaited no longer than the receive timeout."""
        return await receive_first(requests, deadline, self._limits.receive_timeout_s)
