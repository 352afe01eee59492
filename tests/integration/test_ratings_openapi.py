"""The OpenAPI document tells the truth about the ratings routes: their errors and parameter limits."""

from __future__ import annotations

from typing import Any

from litestar import Litestar

RATINGS = "/api/v1/projects/{project_id}/ratings"
OPERATIONS = {
    (RATINGS, "post"): {"200", "400", "401", "403", "404", "413", "415", "503"},
    (RATINGS + "/typed", "post"): {"201", "400", "401", "403", "404", "413", "415", "503"},
    (RATINGS, "get"): {"200", "400", "401", "403", "404", "503"},
    (RATINGS + "/typed", "get"): {"200", "400", "401", "403", "404", "503"},
    (RATINGS + "/{rating_id}", "get"): {"200", "400", "401", "403", "404", "503"},
    (RATINGS + "/{rating_id}", "delete"): {"204", "400", "401", "403", "404", "503"},
    (RATINGS + "/stats", "get"): {"200", "400", "401", "403", "404", "503"},
    (RATINGS + "/stats/typed", "get"): {"200", "400", "401", "403", "404", "503"},
    (RATINGS + "/stats/series", "get"): {"200", "400", "401", "403", "404", "503"},
}


def parameters(operation: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: p["schema"] for p in operation.get("parameters", [])}


def test_every_ratings_route_lists_its_responses(app: Litestar) -> None:
    paths = app.openapi_schema.to_schema()["paths"]
    for (path, method), statuses in OPERATIONS.items():
        assert set(paths[path][method]["responses"]) == statuses, (path, method)


def test_list_parameters_carry_their_limits(app: Litestar) -> None:
    paths = app.openapi_schema.to_schema()["paths"]
    for path in (RATINGS, RATINGS + "/typed"):
        params = parameters(paths[path]["get"])
        assert (params["page"]["minimum"], params["page"]["default"]) == (1, 1)
        assert (params["limit"]["minimum"], params["limit"]["maximum"], params["limit"]["default"]) == (
            1,
            100,
            20,
        )
        assert params["path"]["maxLength"] == 2048
    series = parameters(paths[RATINGS + "/stats/series"]["get"])
    assert {"type", "path", "since", "until", "interval"} <= set(series)
    stats = paths[RATINGS + "/stats/typed"]["get"]["responses"]["200"]["content"]["application/json"][
        "schema"
    ]
    assert len(stats["oneOf"]) == 3
