"""Issue 14's answers through the service: breakdowns, violation codes, pins, what-if trains.

Expected figures come from the engine answering the same question in-process
(`route18xx.engine.api`) and, for the worked example, from the rules by hand.
"""

from __future__ import annotations

import copy
from typing import Any

import grpc
import pytest
from google.protobuf import json_format

from route18xx.engine import api
from route18xx.server.convert import converters
from route18xx.v1 import route_service_pb2 as pb
from tests.server.conftest import real_state


def test_the_worked_example_breaks_down_to_90(stub: Any) -> None:
    """ROUTES.md §7: F16 ¥40 + H14 ¥20 + harbour H16 ¥10 + LYR's destination bonus ¥20."""
    from tests.engine.test_routes import WORKED_EXAMPLE_ROUTES, WORKED_EXAMPLE_STATE

    request = converters.validate_request_to_proto(WORKED_EXAMPLE_STATE, WORKED_EXAMPLE_ROUTES)
    response = stub.ValidateRoutes(request, timeout=30)
    assert response.legal and response.revenue == 90
    route = response.routes[0]
    values = {s.node: s.value for s in route.breakdown.stops}
    assert values == {"F16-0": 40, "H14-0": 20, "H16-0": 10}
    assert route.breakdown.HasField("destination_bonus")
    assert route.breakdown.destination_bonus.value == 20
    assert (route.breakdown.distance_used, route.breakdown.distance_limit) == (2, 2)
    assert route.breakdown.stops_value + route.breakdown.destination_bonus.value == 90


def test_violations_carry_codes(stub: Any) -> None:
    data = real_state("129026-138")
    routes = copy.deepcopy(data["reference"]["recorded_routes"])
    routes[1]["train"] = routes[0]["train"]  # one train twice
    response = stub.ValidateRoutes(
        converters.validate_request_to_proto(data["state"], routes), timeout=30)
    assert not response.legal
    codes = {pb.ViolationCode.Name(v.code) for v in response.violation_details}
    assert any("TWICE" in c for c in codes), codes
    assert [v.text for v in response.violation_details] == list(response.violations)


def test_pins_and_train_sets_equal_the_engine(stub: Any) -> None:
    data = real_state("129026-231")  # a recorded run that is not optimal: pinning it costs 10
    state, recorded = data["state"], data["reference"]["recorded_routes"]
    request = converters.solve_request_to_proto(
        state, pinned_routes=recorded, train_sets=[["4"], ["D"]] if state["phase"] == "D"
        else [state["trains"][:1]],
    )
    response = stub.SolveRoutes(request, timeout=60)
    assert response.HasField("pinned")
    # Every train pinned to its recorded route: the answer is the recorded run, and the
    # pins cost what the players left on the table (reference: optimal 240, recorded 230).
    recorded_total = data["reference"]["recorded_revenue"] + data["reference"]["recorded_subsidy"]
    assert response.revenue + response.subsidy == recorded_total == 230
    assert response.pinned.cost == data["reference"]["optimal_total"] - recorded_total == 10
    assert response.pinned.unpinned.revenue + response.pinned.unpinned.subsidy >= (
        response.revenue + response.subsidy)
    assert response.pinned.cost == (
        response.pinned.unpinned.revenue + response.pinned.unpinned.subsidy
        - response.revenue - response.subsidy)
    for alternative in response.alternatives:
        alone = api.solve_routes({**state, "trains": list(alternative.trains)})
        assert (alternative.answer.revenue, alternative.answer.subsidy) == (
            alone["revenue"], alone["subsidy"])


def test_an_illegal_pin_is_invalid_argument(stub: Any) -> None:
    data = real_state("129026-138")
    pin = copy.deepcopy(data["reference"]["recorded_routes"][:1])
    pin[0]["connections"] = [["F16", "A1"]]
    with pytest.raises(grpc.RpcError) as info:
        stub.SolveRoutes(converters.solve_request_to_proto(data["state"], pinned_routes=pin),
                         timeout=30)
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "pinned_routes[0]" in info.value.details()


def test_breakdown_travels_as_json(stub: Any) -> None:
    data = real_state("129026-251")  # a mine run: E5-F6-C5
    response = stub.SolveRoutes(converters.solve_request_to_proto(data["state"]), timeout=30)
    as_json = json_format.MessageToDict(response)
    total = as_json["breakdown"]
    assert total.get("revenue", 0) == response.revenue
    assert total.get("subsidy", 0) == response.subsidy
