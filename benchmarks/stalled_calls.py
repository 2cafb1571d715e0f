"""Issue 20's reproducer 3: stalled gRPC calls on one connection against everyone else.

    .venv/bin/python -m benchmarks.stalled_calls [CALLS [SECONDS [CONNECTIONS]]] [-- SERVE ARGS]

Starts a real ``route18xx serve`` (two engine workers, gRPC only, a 5 s receive
timeout, plus any SERVE ARGS), then keeps CALLS calls (default 256) open on each
of CONNECTIONS connections (default 1) that send their headers and never their
message, re-opening each as the receive timeout ends it, as an attacker would.
Meanwhile other connections probe health every 0.5 s on the service port and
on the health port (``--health-port``, which issue 20 added: leave out
``health_port`` from the line when measuring an older server), and send a
cheap solve. Prints one JSON line: the outcome counts of each kind of probe.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections import Counter
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from benchmarks.shared import split_serve_args
from tests.server.abuse import solve_request, start_server, state

SOLVE = "/route18xx.v1.RouteService/SolveRoutes"


class _Never:
    """A request stream that never sends a message (an iterator, not a generator: no aclose)."""

    def __aiter__(self) -> _Never:
        return self

    async def __anext__(self) -> bytes:
        await asyncio.Event().wait()
        raise StopAsyncIteration  # pragma: no cover


async def attack(target: str, calls: int, connections: int, stop: asyncio.Event) -> Counter[str]:
    """``calls`` stalled calls on each of ``connections`` connections, re-opened as they end."""
    ended: Counter[str] = Counter()
    # A subchannel pool of its own: the attacker's connection is never the probes'.
    channels = [grpc.aio.insecure_channel(target, options=[("grpc.use_local_subchannel_pool", 1)])
                for _ in range(connections)]

    async def hold(channel: grpc.aio.Channel) -> None:
        while not stop.is_set():
            try:
                await channel.stream_unary(SOLVE)(_Never(), timeout=120)
                ended["OK"] += 1
            except grpc.aio.AioRpcError as exc:
                ended[exc.code().name] += 1

    tasks = [asyncio.ensure_future(hold(ch)) for ch in channels for _ in range(calls)]
    await stop.wait()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for channel in channels:
        await channel.close()
    return ended


async def probe(targets: dict[str, str], seconds: float) -> dict[str, Counter[str]]:
    """Health on each target and a cheap solve on the service, every 0.5 s, on their own connection."""
    outcomes: dict[str, Counter[str]] = {name: Counter() for name in [*targets, "solve"]}
    request = solve_request(state("129026-138")).SerializeToString()
    channels = {name: grpc.aio.insecure_channel(t) for name, t in targets.items()}
    solve = channels["health"].unary_unary(SOLVE)
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while loop.time() < end:
        for name, channel in channels.items():
            try:
                await health_pb2_grpc.HealthStub(channel).Check(
                    health_pb2.HealthCheckRequest(), timeout=2)
                outcomes[name]["OK"] += 1
            except grpc.aio.AioRpcError as exc:
                outcomes[name][exc.code().name] += 1
        try:
            await solve(request, timeout=5)
            outcomes["solve"]["OK"] += 1
        except grpc.aio.AioRpcError as exc:
            outcomes["solve"][exc.code().name] += 1
        await asyncio.sleep(0.5)
    for channel in channels.values():
        await channel.close()
    return outcomes


async def measure(targets: dict[str, str], calls: int, seconds: float, connections: int) -> Any:
    stop = asyncio.Event()
    attacker = asyncio.ensure_future(attack(targets["health"], calls, connections, stop))
    await asyncio.sleep(1.0)  # the calls are open
    outcomes = await probe(targets, seconds)
    stop.set()
    return {"calls": calls, "connections": connections, "seconds": seconds,
            **{name: dict(counts) for name, counts in outcomes.items()},
            "attacker_calls_ended": dict(await attacker)}


def main() -> None:
    args, serve_args = split_serve_args(sys.argv[1:])
    calls = int(args[0]) if args else 256
    seconds = float(args[1]) if len(args) > 1 else 30.0
    connections = int(args[2]) if len(args) > 2 else 1
    for served in start_server("--workers", "2", "--receive-timeout-s", "5", *serve_args):
        targets = {"health": served.target, "health_port": served.health_target}
        print(json.dumps(asyncio.run(measure(targets, calls, seconds, connections))))


if __name__ == "__main__":
    main()
