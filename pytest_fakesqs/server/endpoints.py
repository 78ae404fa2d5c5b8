"""The server's own endpoints beside SQS: one table, one row per endpoint.

`GET /_fakesqs/health` is for container health checks; `/_aws/sqs/messages` is LocalStack's
peek (peek.py); `POST /_fakesqs/reset` starts the fake afresh; `GET /metrics` is for
Prometheus (metrics.py). With signature verification on, peek and reset answer only signed
requests (403 otherwise): they read or destroy every queue. Another endpoint is one more
`Route` in `routes()`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from importlib import metadata

from ..api import SqsError
from ..fake.facade import FakeSQS, inspection
from ..protocol import WireRequest, WireResponse
from ..transport.routes import Endpoint, Route, json_response
from . import metrics
from .peek import peek_route

HEALTH_PATH = "/_fakesqs/health"
RESET_PATH = "/_fakesqs/reset"


def version() -> str:
    try:
        return metadata.version("pytest-fakesqs")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "unknown"


def routes(
    fake: FakeSQS,
    requests_served: Callable[[], int],
    reset: Callable[[], int],
    scrape: Callable[[], WireResponse],
) -> list[Route]:
    peek = peek_route(fake)
    return [
        Route(HEALTH_PATH, ("GET",), _health(fake, requests_served)),
        Route(peek.path, peek.methods, signed(fake, peek.endpoint), subpaths=peek.subpaths),
        Route(RESET_PATH, ("POST",), signed(fake, _reset(reset))),
        Route(metrics.PATH, ("GET",), lambda _request: scrape()),
    ]


def signed(fake: FakeSQS, endpoint: Endpoint) -> Endpoint:
    """`endpoint`, refusing (403) a request whose SigV4 signature does not verify while the
    fake verifies signatures; as any request to the fake otherwise."""

    def guarded(request: WireRequest) -> WireResponse:
        # Looked up per request: a reset renews the handler.
        authenticate = inspection(fake).handler.authenticate
        if authenticate is not None:
            try:
                authenticate(request)
            except SqsError as error:
                code = error.spec.query_code
                reason = error.message.splitlines()[0] if error.message else code
                return json_response(
                    403,
                    {
                        "error": f"{code}: {reason} (this endpoint needs a request signed "
                        "with one of the server's credentials while signatures are verified)",
                        "code": code,
                    },
                )
        return endpoint(request)

    return guarded


def _reset(reset: Callable[[], int]) -> Endpoint:
    def answer(request: WireRequest) -> WireResponse:
        if request.body.strip() not in (b"", b"{}"):
            return json_response(400, {"error": "reset takes no body (or an empty JSON object)"})
        queues = reset()  # the declared ones (--queues, --queues-from) are declared afresh
        return json_response(200, {"status": "reset", "queues": queues})

    return answer


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
