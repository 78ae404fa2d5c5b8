"""`GET /_fakesqs/`: the dashboard's pages, looked up in the served fake and drawn by
`pictures.dashboard`. Read-only: it peeks, so receive counts and visibility never change."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..fake import snapshot
from ..fake.facade import inspection
from ..fake.records import moment
from ..pictures import dashboard
from ..protocol import WireResponse

if TYPE_CHECKING:
    from ..fake.facade import FakeSQS


class Dashboard:
    """Answers the dashboard's addresses (None for any other: the SQS handler serves those)."""

    def __init__(self, fake: FakeSQS, endpoint_url: str) -> None:
        self.fake = fake
        self.endpoint_url = endpoint_url

    def __call__(self, path: str) -> WireResponse | None:
        route = dashboard.route(path)
        if route is None:
            return None
        try:
            return self._answer(route)
        except Exception as error:  # a broken page must not drop the connection unanswered
            text = f"the dashboard failed: {type(error).__name__}: {error}"
            return _html(500, dashboard.not_found_page(text, heading="Error"))

    def _answer(self, route: dashboard.Route) -> WireResponse:
        if route.page == "overview":
            return _html(200, self._overview())
        if route.page == "redirect":
            return WireResponse(308, {"Location": route.key[0], "Content-Type": "text/plain"})
        if route.page == "dead letters":
            return _html(200, self._dead_letters())
        if route.page == "queue":
            page = self._queue(route.key)
            if page is not None:
                return _html(200, page)
            return _html(404, dashboard.not_found_page(f"no queue {'/'.join(route.key)}"))
        if route.page == "message":
            page = self._message(route.key[0])
            if page is not None:
                return _html(200, page)
            return _html(404, dashboard.not_found_page(f"no message {route.key[0]}"))
        return _html(404, dashboard.not_found_page(f"nothing at {route.key[0]}"))

    def _overview(self) -> str:
        taken = snapshot.take_snapshot(
            self.fake,
            message_limit=dashboard.RECENT_MESSAGES,
            choose="recent",
            call_limit=dashboard.RECENT_CALLS,
            dead_letter_limit=dashboard.RECENT_DEAD_LETTERS,
        )
        return dashboard.overview_page(taken, endpoint=self.endpoint_url)

    def _dead_letters(self) -> str:
        taken = snapshot.take_snapshot(
            self.fake,
            message_limit=0,
            call_limit=0,
            dead_letter_limit=dashboard.ALL_DEAD_LETTERS,
        )
        return dashboard.dead_letters_page(taken)

    def _queue(self, key: tuple[str, ...]) -> str | None:
        region, account_id, name = key
        queue = inspection(self.fake).find((region, account_id, name))
        if queue is None:
            return None
        fake = self.fake
        messages, total = snapshot.peek(fake, queue, dashboard.PEEK_LIMIT)
        histories = [fake.history(m.message_id) for m in messages[: dashboard.RECENT_MESSAGES]]
        dead_letters = [d for d in fake.dead_letters() if name in (d.queue, d.source_queue)]
        return dashboard.queue_page(
            snapshot.summarize(fake, queue),
            messages=messages,
            total=total,
            histories=histories,
            dead_letters=dead_letters[-dashboard.RECENT_DEAD_LETTERS :],
            start=moment(fake.started_at),
            now=moment(inspection(fake).now()),
            clock=fake.options.clock,
        )

    def _message(self, message_id: str) -> str | None:
        fake = self.fake
        if not inspection(fake).message_log.knows(message_id):
            return None
        now = snapshot.where_now(fake, message_id)
        return dashboard.message_page(
            message_id,
            fake.history(message_id),
            current=None if now is None else now[1],
            queue=None if now is None else now[0],
            start=moment(fake.started_at),
            now=moment(inspection(fake).now()),
            clock=fake.options.clock,
        )


def _html(status: int, page: str) -> WireResponse:
    headers = {"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store"}
    return WireResponse(status, headers, page.encode("utf-8"))
