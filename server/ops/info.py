"""The ``GetInfo`` answer: which server this is and what it serves (issue 23, item 2).

Made once when the server is built, from its configuration: the version and
git revision (``server.version``), the titles and rule sets the engine serves
(``engine.api.titles_served``) and the limits every call meets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from route18xx.engine.api import currency_formats, subsidy_titles, titles_served
from route18xx.server.ops.version import git_revision, package_version
from route18xx.v1 import route_service_pb2 as pb

if TYPE_CHECKING:
    from route18xx.server.rpc.app import ServerConfig
    from route18xx.server.core.lanes import LaneConfig


def server_info(config: ServerConfig, lanes: Iterable[LaneConfig]) -> pb.GetInfoResponse:
    """The GetInfo response of a server built from ``config`` with ``lanes``."""
    limits = config.limits
    return pb.GetInfoResponse(
        version=package_version(),
        git_revision=git_revision(),
        titles=[pb.TitleInfo(title=title, rule_sets=list(rule_sets),
                             currency_format=currency_formats()[title],
                             subsidies=subsidy_titles()[title])
                for title, rule_sets in titles_served().items()],
        limits=pb.ServerLimits(
            max_call_s=limits.max_call_s,
            default_time_limit_s=limits.default_time_limit_s,
            max_time_limit_s=limits.max_time_limit_s,
            default_suggest_time_limit_s=limits.default_suggest_time_limit_s,
            receive_timeout_s=limits.receive_timeout_s,
            max_receive_bytes=config.max_receive_bytes,
            max_send_bytes=config.max_send_bytes,
            max_concurrent_rpcs=config.max_concurrent_rpcs,
            max_streams_per_connection=config.max_streams_per_connection,
            lanes=[pb.LaneLimits(name=lane.name, workers=lane.workers, queue=lane.queue)
                   for lane in lanes],
        ),
    )
