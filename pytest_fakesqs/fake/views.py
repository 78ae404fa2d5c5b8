"""Read-only views of queues and messages for tests: peeking never changes anything."""

from __future__ import annotations

from dataclasses import InitVar, dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ..engine import Message, Queue, State
from .records import PRIVATE, refuse_outside

if TYPE_CHECKING:
    from .directory import QueueDirectory


def _moment(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, tz=UTC)


@dataclass(frozen=True)
class MessageView:
    """A snapshot of one message as the test sees it."""

    message_id: str
    body: str
    state: str  # "visible" | "in_flight" | "delayed"
    receive_count: int
    sent_at: datetime
    visible_at: datetime
    group_id: str | None
    message_attributes: dict[str, Any]
    _token: InitVar[object] = None

    def __post_init__(self, _token: object) -> None:
        refuse_outside(_token, "MessageView")

    @classmethod
    def of(cls, message: Message) -> MessageView:
        state = {State.VISIBLE: "visible", State.IN_FLIGHT: "in_flight", State.DELAYED: "delayed"}
        attributes = {name: value for name, (_type, value) in (message.attributes or {}).items()}
        return cls(
            message_id=message.message_id,
            body=message.body,
            state=state.get(message.state, "gone"),
            receive_count=message.receive_count,
            sent_at=_moment(message.sent_at),
            visible_at=_moment(message.visible_at),
            group_id=message.group_id,
            message_attributes=attributes,
            _token=PRIVATE,
        )


@dataclass(frozen=True)
class Backlog:
    """How far behind consumers are. `oldest_age` (seconds) is the one to alert on."""

    count: int
    bytes: int
    oldest_age: float
    in_flight: int
    delayed: int
    _token: InitVar[object] = None

    def __post_init__(self, _token: object) -> None:
        refuse_outside(_token, "Backlog")


class QueueView:
    """`fakesqs.queue(name_or_url)`: peek at one queue without side effects."""

    def __init__(self, directory: QueueDirectory, queue: Queue, *, _token: object = None) -> None:
        refuse_outside(_token, "QueueView")
        self._directory = directory
        self._queue = queue

    @property
    def name(self) -> str:
        return self._queue.name

    @property
    def url(self) -> str:
        return self._directory.url(self._queue)

    @property
    def arn(self) -> str:
        return self._directory.arn(self._queue.key)

    def _by_state(self, state: State) -> list[MessageView]:
        return [MessageView.of(m) for m in self._directory.broker.states(self._queue)[state]]

    def visible(self) -> list[MessageView]:
        return self._by_state(State.VISIBLE)

    def in_flight(self) -> list[MessageView]:
        return self._by_state(State.IN_FLIGHT)

    def delayed(self) -> list[MessageView]:
        return self._by_state(State.DELAYED)

    def messages(self) -> list[MessageView]:
        """Every live message in arrival order, whatever its state."""
        states = self._directory.broker.states(self._queue)
        live = [m for s in (State.VISIBLE, State.IN_FLIGHT, State.DELAYED) for m in states[s]]
        return [MessageView.of(m) for m in sorted(live, key=lambda m: m.sequence)]

    def bodies(self) -> list[str]:
        return [m.body for m in self.messages()]

    def __len__(self) -> int:
        queue = self._directory.broker.refresh(self._queue)
        return queue.visible + queue.in_flight + queue.delayed

    def backlog(self) -> Backlog:
        queue = self._directory.broker.refresh(self._queue)
        now = self._directory.clock.now()
        with queue.lock:
            oldest = queue.schedule.oldest_enqueued_at()
            return Backlog(
                count=queue.visible + queue.in_flight + queue.delayed,
                bytes=queue.bytes,
                oldest_age=0.0 if oldest is None else max(0.0, now - oldest),
                in_flight=queue.in_flight,
                delayed=queue.delayed,
                _token=PRIVATE,
            )

    @property
    def attributes(self) -> dict[str, str]:
        return self._directory.service.describe_queue(self._queue, self._directory.context())

    def __repr__(self) -> str:
        return f"<QueueView {self.name!r} visible={self._queue.visible} in_flight={self._queue.in_flight}>"
