"""The three batch actions: shared entry rules, per-entry `Failed`, fan-out to single actions."""

from __future__ import annotations

import re
import string
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..engine import EngineError, Outgoing, Queue
from . import messages, receipts
from .as_is import AsIsRows
from .context import RequestContext
from .error_texts import ErrorText
from .errors import SqsError
from .md5 import md5
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
        if type(entry_id) is not str or not _valid_entry_id(entry_id):
            raise ErrorText.INVALID_BATCH_ENTRY_ID()
        if entry_id in seen:
            raise ErrorText.BATCH_ENTRY_IDS_NOT_DISTINCT(id=entry_id)
        seen.add(entry_id)
    return entries


def _plain_distinct_ids(entries: list[Any]) -> bool:
    """Whether every entry is a structure whose Id passes distinct_entry_ids (the usual batch);
    anything else takes check_entries' entry-by-entry checks, which say what is wrong."""
    try:
        ids = [entry["Id"] for entry in entries if type(entry) is dict]
    except KeyError:
        return False
    return len(ids) == len(entries) and distinct_entry_ids(ids)


# Every character a batch entry Id may have, as bytes: what a valid Id's encoding is made of.
_ENTRY_ID_CHARACTERS = (string.ascii_letters + string.digits + "_-").encode()


def distinct_entry_ids(ids: list[Any]) -> bool:
    """Whether `ids` is a batch's worth of valid entry Ids (1 to 80 ASCII letters, digits, "-"
    or "_" each), all different: checked for the whole batch at once, in C."""
    try:
        joined = "".join(ids)  # TypeError: one is not a string
    except TypeError:
        return False
    return (
        bool(ids)
        and joined.isascii()
        and not joined.encode().translate(None, _ENTRY_ID_CHARACTERS)
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
    plain = _sent_plain(service, queue, params.get("Entries"), ctx)
    if plain is not None:  # the usual batch, in one pass: every entry is sent
        return plain
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
    service: Service, queue: Queue, entries: Any, ctx: RequestContext
) -> dict[str, Any] | None:
    """send_message_batch's answer when every entry is plain, an Id (distinct_entry_ids) and a
    MessageBody of printable ASCII within the queue's size limit and nothing else, sent to a
    standard queue without an X-Ray trace header (the usual batch): checked, sent and answered
    a batch at a time. None for any other batch, which send_message_batch takes entry by entry
    (which says what is wrong with which). tests/api/test_batch_paths.py proves the two give
    the same."""
    limits = service.dialect.limits  # not the property: the usual batch pays no call for it
    if (
        type(entries) is not list
        or not 0 < len(entries) <= limits.max_batch_entries
        or queue.settings.fifo
        or ctx.trace_header
    ):
        return None
    try:
        ids = [entry["Id"] for entry in entries if entry.keys() <= messages.BODY_ONLY]
        bodies = [entry["MessageBody"] for entry in entries]
        joined = "".join(bodies)  # TypeError: a body that is not a string
    except (AttributeError, KeyError, TypeError):  # AttributeError: not a structure
        return None
    if not (
        len(ids) == len(entries)
        and distinct_entry_ids(ids)
        and all(bodies)
        and messages.printable_ascii(joined)
        and max(map(len, bodies)) <= messages.max_message_size(service, queue)
        and len(joined) <= limits.max_batch_bytes  # printable ASCII: a character is a byte
    ):
        return None
    digests = [md5(body.encode()).hexdigest() for body in bodies]
    system = messages.sender_only(ctx.sender_id)
    sent = service.broker.send_plain(queue, bodies, digests, system)
    # Checked entry ids, hex digests and new message ids: nothing in them to escape.
    return {
        "Successful": AsIsRows(
            [
                {"Id": entry_id, "MD5OfMessageBody": digest, "MessageId": m.message_id}
                for entry_id, digest, m in zip(ids, digests, sent, strict=True)
            ]
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
    plain = _deleted_plain(service, queue, params.get("Entries"))
    if plain is not None:  # the usual batch, in one pass: every entry deleted its message
        return plain
    entries = check_entries(service, params, "DeleteMessageBatch")
    handles = [_handle_or_refusal(entry) for entry in entries]
    # One engine lock for the whole batch; each handle still gets its own outcome.
    deleted = iter(service.broker.delete_many(queue, [h for h in handles if isinstance(h, str)]))
    successful: list[dict[str, Any]] = []
    failed: list[dict[str, Any]] = []
    for entry, handle in zip(entries, handles, strict=True):
        refusal = handle if isinstance(handle, SqsError) else None
        if refusal is None:
            outcome = next(deleted)
            if isinstance(outcome, EngineError):
                refusal = receipts.handle_error(queue, outcome, "DeleteMessage")
        if refusal is None:
            successful.append({"Id": entry["Id"]})
        else:
            failed.append(_failed(entry["Id"], refusal))
    return _answer(successful, failed)


def _deleted_plain(service: Service, queue: Queue, entries: Any) -> dict[str, Any] | None:
    """delete_message_batch's answer when every entry is plain, an Id (distinct_entry_ids) and
    the current receipt handle of a different message in flight (the usual batch): deleted
    and answered in one pass. None for any other batch, after deleting nothing:
    delete_message_batch takes it entry by entry (which says what becomes of which).
    tests/api/test_batch_paths.py proves the two give the same."""
    if (
        type(entries) is not list
        or not 0 < len(entries) <= service.dialect.limits.max_batch_entries
    ):
        return None
    try:
        ids = [entry["Id"] for entry in entries]
        handles = [entry["ReceiptHandle"] for entry in entries]
        "".join(handles)  # TypeError: a handle that is not a string
    except (KeyError, TypeError):  # TypeError: not a structure
        return None
    if not (distinct_entry_ids(ids) and all(handles)):
        return None
    if not service.broker.delete_current(queue, handles):
        return None  # a handle that is stale, repeated or not one: nothing was deleted
    # The entry ids were checked: nothing in them to escape.
    return {"Successful": AsIsRows([{"Id": entry_id} for entry_id in ids])}


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


def _handle_or_refusal(entry: dict[str, Any]) -> str | SqsError:
    handle = entry.get("ReceiptHandle")
    if type(handle) is str and handle:
        return handle
    return ErrorText.MISSING_PARAMETER(name="ReceiptHandle")
