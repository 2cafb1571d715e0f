"""One log line per call: method, status code, latency in ms (DESIGN.md §4)."""

from __future__ import annotations

import logging
import time
from typing import Any, Callable

import grpc

log = logging.getLogger("route18xx.calls")


class CallLogInterceptor(grpc.ServerInterceptor):
    """Wraps unary-unary handlers; streaming ones (reflection) pass through unlogged."""

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        handler = continuation(handler_call_details)
        if handler is None or handler.unary_unary is None:
            return handler
        method = handler_call_details.method
        inner = handler.unary_unary

        def logged(request: Any, context: grpc.ServicerContext) -> Any:
            started = time.perf_counter()
            try:
                return inner(request, context)
            finally:
                code = context.code() or grpc.StatusCode.OK
                name = code.name if isinstance(code, grpc.StatusCode) else str(code)
                ms = (time.perf_counter() - started) * 1000.0
                log.info("%s %s %.1f ms", method, name, ms)

        return grpc.unary_unary_rpc_method_handler(
            logged,
            request_deserializer=handler.request_deserializer,
            response_serializer=handler.response_serializer,
        )
