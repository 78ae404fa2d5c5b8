"""A `FakeSQS` served over real HTTP on 127.0.0.1, for clients in other processes.

This is the one place the server reaches into the façade (its handler, broker and service):
the HTTP transport takes the handler, metrics and reset the engine behind it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from ..api.limits import LIMITS
from ..fake.facade import FakeSQS, inspection, server_access
from ..protocol import WireRequest, WireResponse
from ..transport import inprocess
from ..transport.connections import HttpLimits
from ..transport.routes import Route, json_response
from . import metrics
from .endpoints import routes

if TYPE_CHECKING:
    from ..transport.http import RequestLog

# The largest valid request: a batch of the flavor's largest payload, each byte of which the
# query protocol's percent-encoding (or JSON's \u escapes) may triple, plus the parameters.
_ENCODING_GROWTH = 3
_PARAMETER_ROOM = 64 * 1024

FAKE_ACCESS_KEY = "fakesqs-testing"
FAKE_SECRET_KEY = "fakesqs-testing"


class FakeSQSServer:
    """A running HTTP endpoint for one `FakeSQS` (the `fakesqs_server` fixture's value).

    `endpoint_url` is what another process configures; `fake` is the same FakeSQS the test
    holds, so its clock and assertions cover those clients too.
    """

    def __init__(
        self,
        fake: FakeSQS,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        request_log: RequestLog | None = None,
        limits: HttpLimits | None = None,
    ) -> None:
        # The event loop's libraries (httptools, greenlet) load when a server is made, not when
        # this module is imported (for a type hint, say).
        from ..transport.http import SqsHttpServer

        self.fake = fake
        largest = LIMITS[fake.options.flavor].max_batch_bytes * _ENCODING_GROWTH + _PARAMETER_ROOM
        self.http = SqsHttpServer(
            inspection(fake).handler,
            host=host,
            port=port,
            request_log=request_log,
            limits=limits or dataclasses.replace(HttpLimits(), max_request_bytes=largest),
        )
        self.access = server_access(fake)
        self.counts = metrics.CallCounts(metrics.UrlKeys(self._queue_key))
        self.access.handler.listeners.append(self.counts.heard)
        self.http.routes.extend(
            routes(fake, lambda: self.http.requests_served, self.reset, self.scrape)
        )
        self.http.routes.append(Route("/_fakesqs", ("GET",), self._dashboard_page, subpaths=True))
        self._dashboard: Callable[[str], WireResponse | None] | None = None
        self.after_reset: list[Callable[[], None]] = []  # e.g. the state file re-listening

    def _queue_key(self, record: metrics.CallRecord, url: str) -> metrics.QueueKey | None:
        assert record.context is not None
        return self.access.key_in(record.context, url)

    def scrape(self) -> WireResponse:
        """`GET /metrics`: every queue's gauges and counters in Prometheus' text format."""
        return metrics.render(metrics.read_queues(self.access), self.counts)

    def reset(self) -> int:
        """`POST /_fakesqs/reset`: every queue, message and call forgotten, as at a fresh start
        (options and declared queues as configured; the server's own request count goes on).
        Long polls waiting on the old queues end at once, empty."""
        fake, access = self.fake, self.access
        for queue in access.queues():
            access.delete_queue(queue)  # wakes their long polls, which answer empty
        serving_in_process = inprocess.current_handler() is access.handler
        fake.stop()
        fake.renew()
        fake.start(in_process=serving_in_process)
        self.http.handler = access.handler  # the view reads the renewed fake
        self.counts.forget_queues()
        access.handler.listeners.append(self.counts.heard)
        self._dashboard = None
        for hook in self.after_reset:
            hook()
        return len(access.queues())

    def _dashboard_page(self, request: WireRequest) -> WireResponse:
        """`GET /_fakesqs/...`: the read-only dashboard (see pictures.dashboard)."""
        if self._dashboard is None:
            from .dashboard import Dashboard  # the pictures load on the first visit only

            self._dashboard = Dashboard(self.fake, self.endpoint_url)
        target = urlsplit(request.url)
        page = self._dashboard(target.path + (f"?{target.query}" if target.query else ""))
        return page or json_response(404, {"error": f"no dashboard page at {target.path}"})

    @property
    def endpoint_url(self) -> str:
        return self.http.endpoint_url

    @property
    def port(self) -> int:
        return self.http.port

    @property
    def requests_served(self) -> int:
        """How many HTTP requests this server answered (in-process calls are not counted)."""
        return self.http.requests_served

    def start(self) -> FakeSQSServer:
        self.http.start()
        return self

    def stop(self) -> None:
        self.http.stop()

    def __enter__(self) -> FakeSQSServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    def credentials(self) -> tuple[str, str]:
        """An access key pair this server accepts (the first configured one when verifying)."""
        configured = self.fake.options.credentials
        if configured:
            return next(iter(configured.items()))
        return FAKE_ACCESS_KEY, FAKE_SECRET_KEY

    def env(self) -> dict[str, str]:
        """Environment for a subprocess whose SDK should talk to this server and nothing else."""
        access_key, secret_key = self.credentials()
        return {
            "AWS_ACCESS_KEY_ID": access_key,
            "AWS_SECRET_ACCESS_KEY": secret_key,
            "AWS_DEFAULT_REGION": self.fake.options.region,
            "AWS_REGION": self.fake.options.region,
            "AWS_ENDPOINT_URL_SQS": self.endpoint_url,
            "AWS_EC2_METADATA_DISABLED": "true",  # never look for instance credentials
        }

    def client(self, **kwargs: Any) -> Any:
        """A boto3 SQS client for this endpoint (it goes over HTTP, even in this process)."""
        import boto3

        access_key, secret_key = self.credentials()
        options: dict[str, Any] = {
            "region_name": self.fake.options.region,
            "endpoint_url": self.endpoint_url,
            "aws_access_key_id": access_key,
            "aws_secret_access_key": secret_key,
            **kwargs,
        }
        return boto3.client("sqs", **options)

    def __repr__(self) -> str:
        return f"<FakeSQSServer {self.endpoint_url} requests={self.requests_served}>"
