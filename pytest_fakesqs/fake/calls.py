"""The SQS calls the code under test made, and the teardown check for swallowed errors."""

from __future__ import annotations

import json
import threading
from collections import deque
from typing import Any
from urllib.parse import urlsplit

from ..api import SqsService
from ..api.errors import SqsError
from ..protocol import WireHandler
from ..protocol.dispatch import CallRecord
from .mismatch import attribute_hint, elsewhere_hint, is_queue_not_found
from .records import PRIVATE, Call, moment
from .text import check_action, offset, plural, see

# Each call is stored as _FIELDS consecutive items of one flat list: (action, protocol, at,
# params, result, error, injected), params and result as JSON bytes where the call came as JSON.
# Appending plain values allocates nothing the garbage collector tracks, while a record per call
# (or a tuple per call) is one more object for it to count and scan, for as long as the fake
# lives: it keeps every call (or the last `limit`). Query calls keep their structures.
_FIELDS = 7


class CallLog:
    """Keeps every call the wire handler answered, compactly; with a `limit`, the latest ones
    (a bounded deque drops the oldest call's items as a new call's arrive: O(1))."""

    def __init__(
        self, handler: WireHandler, service: SqsService, *, limit: int | None = None
    ) -> None:
        self._service = service
        self._lock = threading.Lock()
        # _FIELDS items per call; a multiple of _FIELDS as maxlen keeps calls whole.
        self._records: deque[Any] = deque(maxlen=None if limit is None else limit * _FIELDS)
        self._heard_count = 0  # calls ever heard, so a call's number survives forgetting
        # Call number -> why its queue was not found, worked out when the call was answered.
        self._hints: dict[int, str] = {}
        handler.listeners.append(self._heard)

    def _heard(self, record: CallRecord) -> None:
        params: bytes | dict[str, Any] = (
            record.params if record.params_json is None else record.params_json
        )
        result: bytes | dict[str, Any] | None = record.result
        if result is not None and record.result_json is not None:
            result = record.result_json
        hint = None
        # Only a failed call pays for the check: the log is on every call's path.
        error = record.error
        if error is not None and not record.injected:
            service = self._service
            if is_queue_not_found(error) and record.context:
                hint = elsewhere_hint(
                    service.broker, service.addressing, record.context, record.params
                )
            else:
                hint = attribute_hint(error, service.dialect)
        with self._lock:
            if hint is not None:
                self._hints[self._heard_count] = hint
                self._forget_hints()
            self._heard_count += 1
            self._records += (
                record.action,
                record.protocol,
                record.at,
                params,
                result,
                record.error,
                record.injected,
            )

    def calls(self, action: str | None = None) -> list[Call]:
        if action is not None:
            check_action(action, self._service.actions, lead="no SQS action named")
        with self._lock:
            records = list(self._records)
            hints = dict(self._hints)
            first = self._heard_count - len(records) // _FIELDS  # the oldest call still kept
        return [
            _call(*records[i : i + _FIELDS], hint=hints.get(first + i // _FIELDS))
            for i in range(0, len(records), _FIELDS)
            if action is None or records[i] == action
        ]

    def _forget_hints(self) -> None:
        # Hints of calls the bounded log forgot go too; they are few (failed lookups only).
        first = self._heard_count - len(self._records) // _FIELDS
        while self._hints and next(iter(self._hints)) < first:
            del self._hints[next(iter(self._hints))]

    def count(self) -> int:
        with self._lock:
            return len(self._records) // _FIELDS

    def recent(self, limit: int) -> list[Call]:
        """The last `limit` calls, oldest first; decodes only those (a dashboard reads these)."""
        with self._lock:
            records = list(self._records)[-limit * _FIELDS :] if limit > 0 else []
        return [_call(*records[i : i + _FIELDS]) for i in range(0, len(records), _FIELDS)]

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
            if call.hint is not None:
                lines.append(f"      {call.hint}")
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


def _call(
    action: str,
    _protocol: str,
    at: float,
    params: bytes | dict[str, Any],
    result: bytes | dict[str, Any] | None,
    error: SqsError | None,
    injected: bool,
    *,
    hint: str | None = None,
) -> Call:
    decoded = _decoded(params) or {}
    return Call(
        action=action,
        params=decoded,
        queue=_queue_named(decoded),
        at=moment(at),
        result=_decoded(result),
        error_code=None if error is None else error.spec.query_code,
        error_message=None if error is None else error.message,
        injected=injected,
        hint=hint,
        _token=PRIVATE,
    )


def _decoded(kept: bytes | dict[str, Any] | None) -> dict[str, Any] | None:
    if isinstance(kept, bytes):
        # Only bodies the JSON codec accepted are kept as bytes, so they decode to an object.
        decoded: dict[str, Any] = json.loads(kept.decode("utf-8")) if kept else {}
        return decoded
    return None if kept is None else dict(kept)
