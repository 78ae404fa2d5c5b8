"""`fakesqs serve --state PATH`: queues and messages that survive a restart.

The file is JSON with a format name and a version (`FORMAT`, `VERSION`). Queues are kept as
SQS itself renders them: their settable attributes (GetQueueAttributes, redrive and policies
included) and tags, re-created through the api on restore, so the file does not depend on how
the engine stores a queue's configuration. Messages are kept field by field as the engine
holds them: body, attributes, system attributes, timestamps, receive count, state and the
moment it ends (in flight: the visibility deadline and the receipt handle the consumer holds;
delayed: the end of the delay), FIFO group, deduplication id and sequence number; plus each
FIFO queue's deduplication window and the running move tasks.

`StateKeeper` saves the whole file at most once a second while something changed (any SQS
call but the read-only ones), and at shutdown; a save is written beside the file and renamed
over it, so a reader (or a `kill -9`) sees the old file or the new one, never half of one.
A file that cannot be read back is a `StateFileError` naming it, raised before the server
accepts a connection: never a silent empty start.

Restoring reaches into the engine in one place (`_restore_messages` and its helpers): a message
must re-enter its queue in the state it left, which no SQS call can express.
"""

from __future__ import annotations

import base64
import json
import os
import threading
from pathlib import Path
from typing import Any

from ..api import RequestContext, SqsError
from ..api.queue_attributes import READ_ONLY
from ..engine import Message, Queue
from ..engine.message import DELAYED, IN_FLIGHT
from ..engine.move_tasks import MoveTask
from ..engine.settings import DEDUP_WINDOW
from ..fake.core import ServerAccess
from ..fake.facade import FakeSQS, server_access
from ..protocol.dispatch import CallRecord

FORMAT = "pytest-fakesqs state"
VERSION = 1
SAVE_INTERVAL = 1.0  # seconds: what a `kill -9` may lose at most
# SQS calls that change nothing a restart should keep (every other call marks the state changed).
READ_ONLY_ACTIONS = frozenset(
    {
        "GetQueueUrl",
        "GetQueueAttributes",
        "ListQueues",
        "ListQueueTags",
        "ListDeadLetterSourceQueues",
        "ListMessageMoveTasks",
    }
)
# Set once every queue exists: they name other queues.
_LINKS = ("RedrivePolicy", "RedriveAllowPolicy")


class StateFileError(Exception):
    """A state file that cannot be restored; the text names the file and what is wrong."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"state file {path}: {reason}")
        self.path = path


# -- the whole file ----------------------------------------------------------------------------


def snapshot(fake: FakeSQS) -> dict[str, Any]:
    """Everything `restore` needs, as plain JSON values."""
    access = server_access(fake)
    queues = []
    for queue in sorted(access.queues(), key=lambda q: q.key):
        ctx = _context(queue.key[0], queue.key[1])
        url = access.queue_url_in(ctx, queue)
        try:
            attributes = access.call(
                "GetQueueAttributes", {"QueueUrl": url, "AttributeNames": ["All"]}, ctx
            ).get("Attributes", {})
            tags = access.call("ListQueueTags", {"QueueUrl": url}, ctx).get("Tags", {})
        except SqsError:  # deleted meanwhile: a save made a moment later would not have it
            continue
        queues.append(
            {
                "region": queue.key[0],
                "account": queue.key[1],
                "name": queue.name,
                "uid": queue.uid,
                "created_at": queue.created_at,
                "last_modified_at": access.last_modified_at(queue),
                # Not the read-only ones: SQS counts or stamps them, no call sets them.
                "attributes": {k: v for k, v in attributes.items() if k not in READ_ONLY},
                "tags": tags,
                **_queue_contents(access, queue),
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "written_by": _version(),
        "flavor": fake.options.flavor,
        "clock": access.now(),
        "queues": queues,
        "move_tasks": [_task_document(task) for task in access.move_tasks.running()],
    }


def restore(fake: FakeSQS, document: Any, path: Path) -> int:
    """Re-create the queues and messages of `document` in an empty `fake`; the number of
    messages restored. Anything malformed is a StateFileError naming `path`."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise StateFileError(path, f"not a {FORMAT} file (no format marker)")
    version = document.get("version")
    if version != VERSION:
        raise StateFileError(
            path,
            f"written in format version {version!r} (by pytest-fakesqs "
            f"{document.get('written_by', 'unknown')}); this version reads version {VERSION} "
            "only. Start with another --state path, or remove the file to start empty",
        )
    if document.get("flavor") != fake.options.flavor:
        raise StateFileError(
            path,
            f"written by a {document.get('flavor')!r} server; this one is "
            f"--flavor {fake.options.flavor}",
        )
    access = server_access(fake)
    try:
        clock = float(document["clock"])
        if access.clock.is_virtual and clock > access.now():
            access.clock.advance_to(clock)
        queues = list(document["queues"])
        _create_queues(access, queues)
        restored = sum(_restore_queue(access, entry) for entry in queues)
        _restore_tasks(access, list(document.get("move_tasks", [])))
    except SqsError as error:
        raise StateFileError(path, f"a queue it declares is refused: {error.message}") from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        detail = f"{type(error).__name__}: {error}"
        raise StateFileError(path, f"corrupt or incomplete ({detail})") from None
    return restored


def load(path: Path) -> Any:
    """The document in `path`; None when there is no such file yet (an empty start)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeError) as error:
        raise StateFileError(path, f"cannot be read ({error})") from None
    try:
        return json.loads(text)
    except ValueError as error:
        raise StateFileError(path, f"not valid JSON ({error}); a corrupt file?") from None


def save(path: Path, document: dict[str, Any]) -> None:
    """Write `document` to `path` atomically: beside it first, then renamed over it."""
    partial = path.with_name(f".{path.name}.{os.getpid()}.partial")
    with open(partial, "w", encoding="utf-8") as file:
        json.dump(document, file, separators=(",", ":"))
        file.flush()
        os.fsync(file.fileno())
    os.replace(partial, path)


class StateKeeper:
    """Saves a fake's state to `path` at most once a second while it changes, and at `stop()`."""

    def __init__(self, fake: FakeSQS, path: Path, interval: float = SAVE_INTERVAL) -> None:
        self.fake = fake
        self.path = path
        self.interval = interval
        self.saves = 0
        self.last_error: str | None = None
        self._changed = threading.Event()
        self._stopping = threading.Event()
        self._lock = threading.Lock()  # one save at a time
        self._thread = threading.Thread(target=self._run, name="fakesqs-state", daemon=True)
        self.attach()

    def attach(self) -> None:
        """Listen to the fake's calls (again, after a reset renewed its handler)."""
        server_access(self.fake).handler.listeners.append(self._heard)

    def changed(self) -> None:
        self._changed.set()

    def renewed(self) -> None:
        """The fake was reset: listen to its new handler, and save the empty state."""
        self.attach()
        self.changed()

    def start(self) -> StateKeeper:
        self._thread.start()
        return self

    def stop(self) -> None:
        """The final save (whatever changed or not), then no more."""
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join()
        self.save_now()

    def save_now(self) -> None:
        with self._lock:
            self._changed.clear()
            try:
                save(self.path, snapshot(self.fake))
            except OSError as error:
                self.last_error = f"cannot write {self.path}: {error}"
                self._changed.set()  # try again at the next tick
            else:
                self.saves += 1
                self.last_error = None

    def _heard(self, record: CallRecord) -> None:
        if record.action not in READ_ONLY_ACTIONS:
            self._changed.set()

    def _run(self) -> None:
        while not self._stopping.wait(self.interval):
            if self._changed.is_set():
                self.save_now()


# -- queues ------------------------------------------------------------------------------------


def _context(region: str, account: str) -> RequestContext:
    return RequestContext(region=region, account_id=account)


def _create_queues(access: ServerAccess, queues: list[dict[str, Any]]) -> None:
    for entry in queues:
        attributes = {k: str(v) for k, v in entry["attributes"].items() if k not in _LINKS}
        params: dict[str, Any] = {"QueueName": str(entry["name"]), "Attributes": attributes}
        if entry.get("tags"):
            params["tags"] = {str(k): str(v) for k, v in entry["tags"].items()}
        access.call("CreateQueue", params, _context(entry["region"], entry["account"]))
    for entry in queues:
        links = {k: str(v) for k, v in entry["attributes"].items() if k in _LINKS}
        if links:
            ctx = _context(entry["region"], entry["account"])
            url = access.queue_url_in(ctx, _engine_queue(access, entry))
            access.call("SetQueueAttributes", {"QueueUrl": url, "Attributes": links}, ctx)


def _engine_queue(access: ServerAccess, entry: dict[str, Any]) -> Queue:
    key = (str(entry["region"]), str(entry["account"]), str(entry["name"]))
    queue = access.find(key)
    if queue is None:
        raise ValueError(f"queue {key[2]} was not re-created")
    return queue


def _version() -> str:
    from .endpoints import version

    return version()


# -- messages: the one place that puts messages back into the engine as they were --------------


def _queue_contents(access: ServerAccess, queue: Queue) -> dict[str, Any]:
    access.refresh(queue)
    with queue.lock:
        now = access.now()
        queue.apply_due(now)
        messages = sorted(queue.live_messages(), key=lambda m: m.sequence)
        documents = [_message_document(message) for message in messages]
        dedup = [
            {
                "group": scope,
                "id": dedup_id,
                "message_id": message.message_id,
                "sequence_number": message.sequence_number,
                "expires_at": expires_at,
            }
            for (scope, dedup_id), message, expires_at in queue.schedule.dedup.live(now)
        ]
    return {"messages": documents, "dedup": dedup}


def _message_document(message: Message) -> dict[str, Any]:
    system = dict(message.system or {})
    source = system.pop("dead_letter_source", None)
    return {
        "id": message.message_id,
        "body": message.body,
        "md5": message.body_digest,
        "size": message.size,
        "attributes": _attributes_document(message.attributes),
        "system": system,
        "dead_letter_source": list(source) if source is not None else None,
        "group": message.group_id,
        "dedup_id": message.dedup_id,
        "sequence_number": message.sequence_number,
        "sent_at": message.sent_at,
        "enqueued_at": message.enqueued_at,
        "first_received_at": message.first_received_at,
        "received_at": message.received_at,
        "receive_count": message.receive_count,
        "state": message.state.name.lower(),
        "visible_at": message.visible_at,
        "receipt_handle": message.receipt_handle if message.state is IN_FLIGHT else None,
    }


def _attributes_document(attributes: Any) -> dict[str, list[str]] | None:
    if not attributes:
        return None
    document = {}
    for name, (data_type, value) in attributes.items():
        if isinstance(value, bytes):
            document[name] = [data_type, "b", base64.b64encode(value).decode("ascii")]
        else:
            document[name] = [data_type, "s", value]
    return document


def _attributes_of(document: Any) -> dict[str, tuple[str, str | bytes]] | None:
    if not document:
        return None
    attributes: dict[str, tuple[str, str | bytes]] = {}
    for name, (data_type, kind, value) in document.items():
        attributes[str(name)] = (
            str(data_type),
            base64.b64decode(value) if kind == "b" else str(value),
        )
    return attributes


def _restore_queue(access: ServerAccess, entry: dict[str, Any]) -> int:
    queue = _engine_queue(access, entry)
    queue.uid = str(entry.get("uid") or queue.uid)  # receipt handles held by consumers still work
    queue.created_at = float(entry.get("created_at", queue.created_at))
    if entry.get("last_modified_at") is not None:
        access.restore_last_modified_at(queue, float(entry["last_modified_at"]))
    messages = list(entry.get("messages", []))
    with queue.lock:
        now = access.now()
        queue.apply_due(now)
        for document in messages:
            _restore_message(queue, document, now)
        numbers = [int(d["sequence_number"]) for d in messages if d.get("sequence_number")]
        if numbers:  # later sends keep counting up from the restored sequence numbers
            queue.continue_sequence_after(max(numbers))
        for dedup in entry.get("dedup", []):
            placeholder = Message(str(dedup["message_id"]), "", now, 0)
            placeholder.sequence_number = dedup.get("sequence_number")
            window = queue.schedule.dedup
            expires_at = float(dedup["expires_at"])
            window.remember(
                (dedup.get("group"), str(dedup["id"])), placeholder, expires_at - DEDUP_WINDOW
            )
        queue.condition.notify_all()
    return len(messages)


def _restore_message(queue: Queue, document: dict[str, Any], now: float) -> None:
    source = document.get("dead_letter_source")
    system = dict(document.get("system") or {})
    if source is not None:
        system["dead_letter_source"] = tuple(source)
    message = Message(
        str(document["id"]),
        str(document["body"]),
        float(document["sent_at"]),
        int(document["size"]),
        _attributes_of(document.get("attributes")),
        system or None,
        document.get("group"),
        document.get("dedup_id"),
    )
    message.body_digest = document.get("md5")
    message.enqueued_at = float(document["enqueued_at"])
    first = document.get("first_received_at")
    message.first_received_at = None if first is None else float(first)
    message.receive_count = int(document["receive_count"])
    message.receives_here = message.receive_count
    state, visible_at = str(document["state"]), float(document["visible_at"])
    handle = document.get("receipt_handle")
    if state == "in_flight" and visible_at > now and handle:
        queue.restore_in_flight(message, str(handle), visible_at, float(document["received_at"]))
    else:
        delay = visible_at - now if state == DELAYED.name.lower() else 0.0
        queue.enqueue(message, max(0.0, delay), now)
    if document.get("sequence_number"):
        message.sequence_number = str(document["sequence_number"])


# -- move tasks --------------------------------------------------------------------------------


def _task_document(task: MoveTask) -> dict[str, Any]:
    return {
        "id": task.task_id,
        "source": list(task.source),
        "destination": None if task.destination is None else list(task.destination),
        "rate": task.requested_rate,
        "started_at": task.started_at,
        "to_move": task.to_move,
        "moved": task.moved,
    }


def _restore_tasks(access: ServerAccess, documents: list[dict[str, Any]]) -> None:
    runner = access.move_tasks
    for document in documents:
        destination = document.get("destination")
        task = MoveTask(
            str(document["id"]),
            tuple(document["source"]),
            None if destination is None else tuple(destination),
            document.get("rate"),
            float(document["started_at"]),
            int(document["to_move"]),
            int(document.get("moved", 0)),
        )
        runner.adopt(task)
