"""The server's own endpoints beside SQS: one table, one row per endpoint.

`GET /_fakesqs/health` is for container health checks; `/_aws/sqs/messages` is LocalStack's
peek (peek.py). Another endpoint is one more `Route` in `routes()`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from importlib import metadata

from ..fake.facade import FakeSQS, inspection
from ..protocol import WireRequest, WireResponse
from ..transport.routes import Route, json_response
from .peek import peek_route

HEALTH_PATH = "/_fakesqs/health"


def version() -> str:
    try:
        return metadata.version("pytest-fakesqs")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "unknown"


def routes(fake: FakeSQS, requests_served: Callable[[], int]) -> list[Route]:
    return [
        Route(HEALTH_PATH, ("GET",), _health(fake, requests_served)),
        peek_route(fake),
    ]


def _health(fake: FakeSQS, requests_served: Callable[[], int]) -> Callable[..., WireResponse]:
    started = time.monotonic()
    started_at = time.time()

    def health(_request: WireRequest) -> WireResponse:
        queues = inspection(fake).queues()
        return json_response(
            200,
            {
                "status": "ok",
                "version": version(),
                "uptime": round(time.monotonic() - started, 3),
                "started_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(started_at)),
                "flavor": fake.options.flavor,
                "region": fake.options.region,
                "clock": fake.options.clock,
                "queues": len(queues),
                "messages": sum(len(q.store) for q in queues),
                "requests_served": requests_served(),
                "history_limit": fake.options.history_limit,
            },
        )

    return health
