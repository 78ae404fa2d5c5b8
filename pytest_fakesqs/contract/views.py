"""What contract mode can see of a real queue: attributes, and messages inspected by receiving
them and handing them straight back (never deleting)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any, NoReturn

import pytest
from botocore.exceptions import ClientError


def only_with_the_fake(what: str) -> NoReturn:
    pytest.skip(
        f"contract mode: {what} needs the fake; mark the test @pytest.mark.fakesqs_only "
        "to skip it up front"
    )


@dataclass(frozen=True)
class ContractBacklog:
    """What a real endpoint reports. Bytes and oldest age are not observable through the API."""

    count: int
    in_flight: int
    delayed: int

    @property
    def bytes(self) -> int:
        only_with_the_fake("backlog().bytes")

    @property
    def oldest_age(self) -> float:
        only_with_the_fake("backlog().oldest_age (CloudWatch's ApproximateAgeOfOldestMessage)")


@dataclass(frozen=True)
class InspectedMessage:
    message_id: str
    body: str
    receive_count: int
    attributes: dict[str, str]
    message_attributes: dict[str, Any]


class ContractQueueView:
    """A real queue: attributes are read, messages are inspected by receiving without deleting."""

    def __init__(self, client: Any, url: str) -> None:
        self._client = client
        self.url = url
        self.name = url.rstrip("/").rsplit("/", 1)[-1]

    @property
    def attributes(self) -> dict[str, str]:
        result = self._client.get_queue_attributes(QueueUrl=self.url, AttributeNames=["All"])
        attributes: dict[str, str] = result.get("Attributes", {})
        return attributes

    @property
    def arn(self) -> str:
        return self.attributes["QueueArn"]

    def backlog(self) -> ContractBacklog:
        attributes = self.attributes
        visible = int(attributes.get("ApproximateNumberOfMessages", 0))
        in_flight = int(attributes.get("ApproximateNumberOfMessagesNotVisible", 0))
        delayed = int(attributes.get("ApproximateNumberOfMessagesDelayed", 0))
        return ContractBacklog(visible + in_flight + delayed, in_flight, delayed)

    def __len__(self) -> int:
        return self.backlog().count

    def inspect(self) -> list[InspectedMessage]:
        """Receive every visible message with a short visibility, then make each visible again.

        Nothing is deleted, but each inspected message's receive count goes up by one.
        """
        client, seen, handles = self._client, {}, []
        while True:
            messages = client.receive_message(
                QueueUrl=self.url,
                MaxNumberOfMessages=10,
                VisibilityTimeout=30,
                AttributeNames=["All"],
                MessageAttributeNames=["All"],
            ).get("Messages", [])
            fresh = [m for m in messages if m["MessageId"] not in seen]
            if not fresh:
                break
            for message in fresh:
                seen[message["MessageId"]] = message
                handles.append(message["ReceiptHandle"])
        for handle in handles:
            # A message that moved on meanwhile has nothing to give back.
            with contextlib.suppress(ClientError):
                client.change_message_visibility(
                    QueueUrl=self.url, ReceiptHandle=handle, VisibilityTimeout=0
                )
        return [
            InspectedMessage(
                message_id=m["MessageId"],
                body=m["Body"],
                receive_count=int(m.get("Attributes", {}).get("ApproximateReceiveCount", 1)),
                attributes=m.get("Attributes", {}),
                message_attributes=m.get("MessageAttributes", {}),
            )
            for m in seen.values()
        ]

    def visible(self) -> list[InspectedMessage]:
        return self.inspect()

    def bodies(self) -> list[str]:
        return [m.body for m in self.inspect()]

    def messages(self) -> list[InspectedMessage]:
        return self.inspect()

    def in_flight(self) -> NoReturn:
        only_with_the_fake("peeking at in-flight messages")

    def delayed(self) -> NoReturn:
        only_with_the_fake("peeking at delayed messages")

    def __repr__(self) -> str:
        return f"<ContractQueueView {self.name!r} at {self.url}>"
