"""The server's own endpoints beside SQS (`/_fakesqs/...`, `/_aws/...`): one small table.

The transport only matches paths; what each endpoint does is given by the layer that builds the
server (server/endpoints.py), as a plain callable, so the transport imports nothing above it.
A new endpoint is one more `Route` in that table.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..protocol import WireRequest, WireResponse

Endpoint = Callable[[WireRequest], WireResponse]
# Paths under these are never SQS: a query-protocol queue URL's path starts with an account id.
RESERVED_PREFIXES = ("/_fakesqs/", "/_aws/")
# Nor these: one segment, never /<account>/<queue> (/metrics is where Prometheus looks).
RESERVED_PATHS = frozenset({"/_fakesqs", "/_aws", "/metrics"})


@dataclass(frozen=True, slots=True)
class Route:
    """`path` exactly, or (`subpaths=True`) also anything under `path + "/"`."""

    path: str
    methods: tuple[str, ...]
    endpoint: Endpoint
    subpaths: bool = False

    def matches(self, path: str) -> bool:
        return path == self.path or (self.subpaths and path.startswith(self.path.rstrip("/") + "/"))


def is_reserved(path: str) -> bool:
    return path in RESERVED_PATHS or path.startswith(RESERVED_PREFIXES)


def dispatch(routes: Sequence[Route], request: WireRequest, path: str) -> WireResponse:
    """The answer of the route for `path` (the most specific one), or 404 / 405."""
    candidates = [route for route in routes if route.matches(path)]
    if not candidates:
        known = ", ".join(sorted({route.path for route in routes})) or "none"
        return json_response(404, {"error": f"no endpoint at {path}; endpoints: {known}"})
    # An exact path wins over a parent's subpaths (and its methods are the ones that count:
    # GET /_fakesqs/reset is a 405, not a dashboard page); then the longest path.
    exact = [route for route in candidates if route.path == path]
    if exact:
        candidates = exact
    candidates.sort(key=lambda route: -len(route.path))
    for route in candidates:
        if request.method in route.methods:
            return route.endpoint(request)
    allowed = sorted({method for route in candidates for method in route.methods})
    response = json_response(
        405, {"error": f"{request.method} is not allowed on {path}; use {', '.join(allowed)}"}
    )
    response.headers["Allow"] = ", ".join(allowed)
    return response


def json_response(status: int, document: object) -> WireResponse:
    body = json.dumps(document, indent=1).encode("utf-8") + b"\n"
    return WireResponse(status, {"Content-Type": "application/json"}, body)
