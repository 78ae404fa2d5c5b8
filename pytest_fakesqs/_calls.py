"""The SQS calls the code under test made, and the teardown check for swallowed errors."""

from __future__ import annotations

import threading
from urllib.parse import urlsplit

from ._records import PRIVATE, Call, moment
from ._text import offset, plural, see
from .api import SqsService
from .protocol import WireHandler
from .protocol.dispatch import CallRecord


class CallLog:
    """Keeps a `CallRecord` per call the wire handler answered."""

    def __init__(self, handler: WireHandler, service: SqsService) -> None:
        self._service = service
        self._lock = threading.Lock()
        self._records: list[CallRecord] = []
        handler.listeners.append(self._heard)

    def _heard(self, record: CallRecord) -> None:
        with self._lock:
            self._records.append(record)

    def calls(self, action: str | None = None) -> list[Call]:
        if action is not None and action not in self._service.actions:
            known = ", ".join(sorted(self._service.actions))
            raise ValueError(f"no SQS action named {action!r}; actions: {known}")
        with self._lock:
            records = list(self._records)
        return [_call(r) for r in records if action is None or r.action == action]

    def swallowed_errors_report(self, started_at: float) -> str | None:
        """The teardown error text for errors the code under test received, or None.

        Errors the test injected (fault injection) are expected to be handled, so not listed.
        """
        failed = [c for c in self.calls() if c.error_code is not None and not c.injected]
        if not failed:
            return None
        lines = [
            f"fakesqs: the code under test received {plural(len(failed), 'SQS error')} "
            "and carried on (assert_no_client_errors is on):"
        ]
        for call in failed:
            where = f" on {call.queue}" if call.queue else ""
            when = offset(call.at.timestamp() - started_at)
            lines.append(
                f"  - {when} {call.action}{where}: {call.error_code}: {call.error_message}"
            )
        lines.append(
            "Handle or fix these calls, or turn the check off with "
            "@pytest.mark.fakesqs(assert_no_client_errors=False)."
        )
        lines.append(see("calls"))
        return "\n".join(lines)


def _queue_named(params: dict[str, object]) -> str | None:
    url = params.get("QueueUrl")
    if isinstance(url, str) and url:
        segments = [s for s in urlsplit(url).path.split("/") if s]
        return segments[-1] if segments else url
    name = params.get("QueueName")
    return name if isinstance(name, str) else None


def _call(record: CallRecord) -> Call:
    return Call(
        action=record.action,
        params=dict(record.params),
        queue=_queue_named(record.params),
        at=moment(record.at),
        result=record.result,
        error_code=record.error_code,
        error_message=None if record.error is None else record.error.message,
        injected=record.injected,
        _token=PRIVATE,
    )
