"""The three batch actions: shared entry rules, per-entry `Failed`, fan-out to single actions."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..engine import EngineError, Outgoing, Queue
from . import messages, receipts
from .as_is import AsIsRows
from .context import RequestContext
from .error_texts import ErrorText
from .errors import SqsError
from .params import get_int, get_list

if TYPE_CHECKING:
    from .core import Service

_ENTRY_ID = re.compile(r"[A-Za-z0-9_-]{1,80}")  # fullmatch: `$` would let a final "\n" through


def check_entries(service: Service, params: dict[str, Any], action: str) -> list[dict[str, Any]]:
    entries = get_list(params, "Entries")
    if not entries:
        raise ErrorText.EMPTY_BATCH(action=action)
    maximum = service.limits.max_batch_entries
    if len(entries) > maximum:
        raise ErrorText.TOO_MANY_ENTRIES(maximum=maximum, count=len(entries))
    if _plain_distinct_ids(entries):
        return entries
    seen: set[str] = set()
    for entry in entries:
        if type(entry) is not dict:
            raise ErrorText.BATCH_ENTRY_NOT_A_STRUCTURE()
        entry_id = entry.get("Id")
        if type(entry_id) is not str or not (
            # Most ids are short ASCII letters and digits ("0".."9", "msg1"): no call needed.
            (len(entry_id) <= 80 and entry_id.isascii() and entry_id.isalnum())
            or _valid_entry_id(entry_id)
        ):
            raise ErrorText.INVALID_BATCH_ENTRY_ID()
        if entry_id in seen:
            raise ErrorText.BATCH_ENTRY_IDS_NOT_DISTINCT(id=entry_id)
        seen.add(entry_id)
    return entries


def _plain_distinct_ids(entries: list[Any]) -> bool:
    """Whether every entry is a structure with a distinct Id of ASCII letters and digits, at
    most 80 of them (the usual batch: "0".."9"), checked for the whole batch at once in C;
    anything else takes check_entries' entry-by-entry checks, which say what is wrong."""
    try:
        ids = [entry["Id"] for entry in entries if type(entry) is dict]
        joined = "".join(ids)  # TypeError: an Id that is not a string
    except (KeyError, TypeError):
        return False
    return (
        len(ids) == len(entries)
        and joined.isascii()
        and joined.isalnum()
        and all(ids)
        and max(map(len, ids)) <= 80
        and len(set(ids)) == len(ids)
    )


def _valid_entry_id(entry_id: str) -> bool:
    return _ENTRY_ID.fullmatch(entry_id) is not None


def _failed(entry_id: str, error: SqsError) -> dict[str, Any]:
    return {
        "Id": entry_id,
        "SenderFault": error.spec.fault == "Sender",
        "Code": error.spec.query_code,
        "Message": error.message,
    }


def _fan_out(
    entries: list[dict[str, Any]], one: Callable[[dict[str, Any]], dict[str, Any]]
) -> dict[str, Any]:
    successful: list[dict[str, Any]] = []
    failed: list[dict[str, Any]] = []
    for entry in entries:
        try:
            successful.append({"Id": entry["Id"], **one(entry)})
        except SqsError as error:
            failed.append(_failed(entry["Id"], error))
    return _answer(successful, failed)


def _answer(successful: list[dict[str, Any]], failed: list[dict[str, Any]]) -> dict[str, Any]:
    # AWS leaves an empty list out of the answer (recorded: a batch with no failures).
    result: dict[str, Any] = {}
    if successful:
        result["Successful"] = successful
    if failed:
        result["Failed"] = failed
    return result


def send_message_batch(
    service: Service, params: dict[str, Any], ctx: RequestContext
) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    entries = check_entries(service, params, "SendMessageBatch")
    if queue.settings.fifo:
        # Missing FIFO ids fail the whole batch, not one entry (recorded AWS behaviour).
        if any(e.get("MessageGroupId") is None for e in entries):
            raise ErrorText.BATCH_MISSING_GROUP_ID()
        content_based = service.record(queue).attributes.content_based_deduplication
        if not content_based and any(e.get("MessageDeduplicationId") is None for e in entries):
            raise ErrorText.FIFO_NEEDS_DEDUPLICATION()
    # Validate every entry first, then enqueue the valid ones under one engine lock. The batch's
    # total size is summed on the way (an entry's checked size is its body's for a plain one).
    rules = messages.send_rules(service, queue, ctx, in_batch=True)
    plain = messages.prepare_plain(entries, rules)
    if plain is not None:  # the usual batch, in one pass: every entry is sent
        return _sent_plain(service, queue, entries, plain)
    checked: list[Outgoing | SqsError] = []
    total = 0
    for entry in entries:
        try:
            outgoing = messages.prepare(service, queue, entry, ctx, rules)
        except SqsError as error:
            checked.append(error)
            total += _entry_size(entry)
            continue
        checked.append(outgoing)
        total += outgoing.size if outgoing.attributes is None else _entry_size(entry)
    _check_batch_size(service, total)
    sent = iter(
        service.broker.send_many(queue, [c for c in checked if not isinstance(c, SqsError)])
    )
    successful: list[dict[str, Any]] = []
    failed: list[dict[str, Any]] = []
    for entry, outcome in zip(entries, checked, strict=True):
        if isinstance(outcome, SqsError):
            failed.append(_failed(entry["Id"], outcome))
        else:
            successful.append(messages.send_result(outcome, next(sent), {"Id": entry["Id"]}))
    return _answer(successful, failed)


def _sent_plain(
    service: Service, queue: Queue, entries: list[dict[str, Any]], plain: list[Outgoing]
) -> dict[str, Any]:
    """send_message_batch's answer for entries that are each a plain body (prepare_plain):
    what the entry-by-entry way answers for them."""
    _check_batch_size(service, sum(outgoing.size for outgoing in plain))
    sent = service.broker.send_many(queue, plain)
    # Checked entry ids, hex digests and new message ids: nothing in them to escape.
    return {
        "Successful": AsIsRows(
            {"Id": entry["Id"], "MD5OfMessageBody": outgoing.body_digest, "MessageId": m.message_id}
            for entry, outgoing, m in zip(entries, plain, sent, strict=True)
        )
    }


def _check_batch_size(service: Service, total: int) -> None:
    maximum = service.limits.max_batch_bytes
    if total > maximum:
        raise ErrorText.BATCH_REQUEST_TOO_LONG(maximum=maximum, total=total)


def _entry_size(entry: dict[str, Any]) -> int:
    body = entry.get("MessageBody")
    size = _utf8_length(body) if isinstance(body, str) else 0
    attributes = entry.get("MessageAttributes")
    if isinstance(attributes, dict):
        for name, spec in attributes.items():
            size += _utf8_length(str(name))
            if isinstance(spec, dict):
                for field in ("DataType", "StringValue", "BinaryValue"):
                    value = spec.get(field)
                    if isinstance(value, str):
                        size += _utf8_length(value)
    return size


def _utf8_length(text: str) -> int:
    # A lone surrogate (JSON allows "\ud800") cannot be encoded; the entry's own validation
    # refuses it with AWS's error, so here it only needs a size, not a crash.
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def delete_message_batch(
    service: Service, params: dict[str, Any], ctx: RequestContext
) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    entries = check_entries(service, params, "DeleteMessageBatch")
    handles: list[str | SqsError] = _plain_handles(entries) or [
        _handle_or_refusal(entry) for entry in entries
    ]
    # One engine lock for the whole batch; each handle still gets its own outcome.
    deleted = service.broker.delete_many(queue, [h for h in handles if isinstance(h, str)])
    if len(deleted) == len(entries) and not any(isinstance(o, EngineError) for o in deleted):
        # The usual batch; its entry ids were checked: nothing in them to escape.
        return {"Successful": AsIsRows({"Id": entry["Id"]} for entry in entries)}
    outcomes = iter(deleted)
    successful: list[dict[str, Any]] = []
    failed: list[dict[str, Any]] = []
    for entry, handle in zip(entries, handles, strict=True):
        refusal = handle if isinstance(handle, SqsError) else None
        if refusal is None:
            outcome = next(outcomes)
            if isinstance(outcome, EngineError):
                refusal = receipts.handle_error(queue, outcome, "DeleteMessage")
        if refusal is None:
            successful.append({"Id": entry["Id"]})
        else:
            failed.append(_failed(entry["Id"], refusal))
    return _answer(successful, failed)


def change_message_visibility_batch(
    service: Service, params: dict[str, Any], ctx: RequestContext
) -> dict[str, Any]:
    queue: Queue = service.resolve_queue(params, ctx)
    entries = check_entries(service, params, "ChangeMessageVisibilityBatch")

    def one(entry: dict[str, Any]) -> dict[str, Any]:
        receipts.change_one(service, queue, _handle(entry), get_int(entry, "VisibilityTimeout"))
        return {}

    return _fan_out(entries, one)


def _handle(entry: dict[str, Any]) -> str:
    handle = _handle_or_refusal(entry)
    if isinstance(handle, SqsError):
        raise handle
    return handle


def _plain_handles(entries: list[dict[str, Any]]) -> list[str | SqsError] | None:
    """Every entry's ReceiptHandle when each is a non-empty string (checked for the batch at
    once, in C), else None: then _handle_or_refusal says, per entry, which one is missing."""
    handles = [entry.get("ReceiptHandle") for entry in entries]
    try:
        "".join(handles)  # type: ignore[arg-type]  # TypeError: one is not a string
    except TypeError:
        return None
    return handles if all(handles) else None  # type: ignore[return-value]  # all str, checked


def _handle_or_refusal(entry: dict[str, Any]) -> str | SqsError:
    handle = entry.get("ReceiptHandle")
    if type(handle) is str and handle:
        return handle
    return ErrorText.MISSING_PARAMETER(name="ReceiptHandle")
