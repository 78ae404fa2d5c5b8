"""advance_to_next_event, histories and autojump with consumer threads."""

from __future__ import annotations

from typing import Any

import boto3
import pytest

from pytest_fakesqs import FakeSQS, HistoryEvent
from pytest_fakesqs.api.principals import iam_user
from pytest_fakesqs.fake.facade import core_of

# The SenderId of the client's access key "a" in the fake's default account.
SENDER = iam_user("a", "123456789012").principal_id


def client() -> Any:
    return boto3.client(
        "sqs", region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b"
    )


def test_advance_to_next_event_jumps_to_the_next_change_and_says_what_it_was(
    fakesqs: FakeSQS,
) -> None:
    sqs = client()
    url = fakesqs.create_queue("jobs", VisibilityTimeout=45)
    later = fakesqs.create_queue("later", DelaySeconds=20)
    in_flight = sqs.send_message(QueueUrl=url, MessageBody="a")["MessageId"]
    delayed = sqs.send_message(QueueUrl=later, MessageBody="b")["MessageId"]
    sqs.receive_message(QueueUrl=url)

    changes = fakesqs.advance_to_next_event()
    assert [(c.queue, c.message_id, c.event, c.at.isoformat()) for c in changes] == [
        ("later", delayed, "delay ended", "2024-01-01T00:00:20+00:00")
    ]
    assert isinstance(changes[0], HistoryEvent)
    (change,) = fakesqs.advance_to_next_event()
    assert (change.message_id, change.event) == (in_flight, "visible again")
    assert fakesqs.now().isoformat() == "2024-01-01T00:00:45+00:00"


def test_advance_to_next_event_of_one_queue_reports_everything_due_by_then(
    fakesqs: FakeSQS,
) -> None:
    sqs = client()
    short = fakesqs.create_queue("short", VisibilityTimeout=10)
    long = fakesqs.create_queue("long", VisibilityTimeout=60)
    for url in (short, long):
        sqs.send_message(QueueUrl=url, MessageBody="m")
        sqs.receive_message(QueueUrl=url)
    changes = fakesqs.advance_to_next_event("long")
    assert [(c.queue, c.event, c.at.isoformat()) for c in changes] == [
        ("short", "visible again", "2024-01-01T00:00:10+00:00"),
        ("long", "visible again", "2024-01-01T00:01:00+00:00"),
    ]
    assert fakesqs.now().isoformat() == "2024-01-01T00:01:00+00:00"


def test_nothing_scheduled_means_no_move_and_no_changes(fakesqs: FakeSQS) -> None:
    fakesqs.create_queue("idle")
    before = fakesqs.now()
    assert fakesqs.advance_to_next_event() == []
    assert fakesqs.now() == before


def test_retention_expiry_is_an_event_only_when_asked_for(fakesqs: FakeSQS) -> None:
    url = fakesqs.create_queue("brief", MessageRetentionPeriod=60)
    message_id = client().send_message(QueueUrl=url, MessageBody="m")["MessageId"]
    assert fakesqs.advance_to_next_event() == []
    assert fakesqs.now().minute == 0 and fakesqs.queue("brief").bodies() == ["m"]
    (change,) = fakesqs.advance_to_next_event(include_expiry=True)
    assert (change.event, change.message_id, change.at.minute) == ("expired", message_id, 1)


def test_a_loop_until_nothing_is_scheduled_ends_before_the_expiry(fakesqs: FakeSQS) -> None:
    url = fakesqs.create_queue("jobs", VisibilityTimeout=5, MessageRetentionPeriod=60)
    client().send_message(QueueUrl=url, MessageBody="m")
    client().receive_message(QueueUrl=url)
    events = []
    while changes := fakesqs.advance_to_next_event():
        events += [c.event for c in changes]
    assert events == ["visible again"]
    while changes := fakesqs.advance_to_next_event(include_expiry=True):
        events += [c.event for c in changes]
    assert events == ["visible again", "expired"]


def test_an_expiry_the_clock_passes_on_the_way_to_an_event_is_reported(fakesqs: FakeSQS) -> None:
    sqs = client()
    brief = fakesqs.create_queue("brief", MessageRetentionPeriod=60)
    slow = fakesqs.create_queue("slow", VisibilityTimeout=90)
    sqs.send_message(QueueUrl=brief, MessageBody="b")
    sqs.send_message(QueueUrl=slow, MessageBody="s")
    sqs.receive_message(QueueUrl=slow)
    changes = fakesqs.advance_to_next_event()  # to +90s; the expiry at +60s happened by then
    assert [(c.queue, c.event, c.at.second) for c in changes] == [
        ("brief", "expired", 0),
        ("slow", "visible again", 30),
    ]


def test_the_documented_loop_ends_with_the_dead_letter_queue_intact(fakesqs: FakeSQS) -> None:
    sqs = client()
    dlq = fakesqs.create_queue("orders-dlq")
    url = fakesqs.create_queue(
        "orders",
        VisibilityTimeout=30,
        RedrivePolicy=f'{{"deadLetterTargetArn": "{fakesqs.queue(dlq).arn}", "maxReceiveCount": 2}}',
    )
    results = fakesqs.create_queue("results")
    for body in ("good", "poison"):
        sqs.send_message(QueueUrl=url, MessageBody=body)

    def poll() -> None:
        for m in sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", []):
            if m["Body"] != "poison":
                sqs.send_message(QueueUrl=results, MessageBody=m["Body"])
                sqs.delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])

    poll()
    while fakesqs.advance_to_next_event():
        poll()
    assert fakesqs.queue("orders-dlq").bodies() == ["poison"]
    assert fakesqs.queue("results").bodies() == ["good"]
    assert (
        fakesqs.now() - fakesqs.history(fakesqs.dead_letters()[0].message_id)[0].at
    ).seconds == 60


def test_the_documented_loop_polls_before_it_jumps_so_nothing_expires_unreceived(
    fakesqs: FakeSQS,
) -> None:
    sqs = client()
    url = fakesqs.create_queue("jobs", VisibilityTimeout=30)
    for body in ("ok", "fails once", "ok too"):
        sqs.send_message(QueueUrl=url, MessageBody=body)
    failed: set[str] = set()

    def poll_once() -> None:
        for m in sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10).get("Messages", []):
            if m["Body"] == "fails once" and m["MessageId"] not in failed:
                failed.add(m["MessageId"])
                continue  # not deleted: back after the visibility timeout
            sqs.delete_message(QueueUrl=url, ReceiptHandle=m["ReceiptHandle"])

    poll_once()
    while fakesqs.advance_to_next_event():
        poll_once()
    assert fakesqs.queue("jobs").backlog().count == 0
    events = [
        event.event
        for call in fakesqs.calls("SendMessage")
        for event in fakesqs.history(call.result["MessageId"])
    ]
    assert "expired" not in events
    assert events.count("deleted") == 3


def test_a_loop_that_jumps_to_expiries_before_it_polls_expires_what_nobody_received(
    fakesqs: FakeSQS,
) -> None:
    url = fakesqs.create_queue("jobs")
    client().send_message(QueueUrl=url, MessageBody="never seen")
    (change,) = fakesqs.advance_to_next_event(include_expiry=True)
    assert (change.event, fakesqs.queue("jobs").backlog().count) == ("expired", 0)


def test_advance_to_next_event_costs_the_due_entries_not_the_depth(fakesqs: FakeSQS) -> None:
    sqs = client()
    url = fakesqs.create_queue("deep", VisibilityTimeout=30)
    for batch in range(50):
        sqs.send_message_batch(
            QueueUrl=url,
            Entries=[{"Id": str(i), "MessageBody": f"{batch}-{i}"} for i in range(10)],
        )
    queue = core_of(fakesqs).broker.find(fakesqs.key("deep"))
    assert queue is not None
    sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=1)
    with queue.lock:
        due = queue.schedule.due_by(core_of(fakesqs).clock.now() + 30)
    assert len(due) == 1  # one in-flight message; 499 visible ones are not looked at


def test_history_follows_a_message_across_queues(fakesqs: FakeSQS) -> None:
    sqs = client()
    dlq = fakesqs.create_queue("dlq")
    url = fakesqs.create_queue(
        "work",
        VisibilityTimeout=10,
        RedrivePolicy=f'{{"deadLetterTargetArn": "{fakesqs.queue(dlq).arn}", "maxReceiveCount": 1}}',
    )
    message_id = sqs.send_message(QueueUrl=url, MessageBody="m")["MessageId"]
    handle = sqs.receive_message(QueueUrl=url)["Messages"][0]["ReceiptHandle"]
    sqs.change_message_visibility(QueueUrl=url, ReceiptHandle=handle, VisibilityTimeout=20)
    fakesqs.advance_to_next_event()
    sqs.receive_message(QueueUrl=url)
    moved = sqs.receive_message(QueueUrl=dlq)["Messages"][0]
    sqs.delete_message(QueueUrl=dlq, ReceiptHandle=moved["ReceiptHandle"])
    history = fakesqs.history(message_id)
    assert [(e.at.second, e.queue, e.event, e.detail) for e in history] == [
        (0, "work", "sent", f"by {SENDER}"),
        (0, "work", "received", f"#1 handle …{handle[-8:]}"),
        (0, "work", "visibility changed", "20s"),
        (20, "work", "visible again", ""),
        (20, "work", "moved to dead-letter queue", "dlq"),
        (20, "dlq", "arrived from", "work"),
        (20, "dlq", "received", f"#2 handle …{moved['ReceiptHandle'][-8:]}"),
        (20, "dlq", "deleted", ""),
    ]
    assert str(history[0]) == f"2024-01-01T00:00:00+00:00 work: sent by {SENDER}"
    with pytest.raises(LookupError, match=r"^no message with id 'nope' was sent while the fake"):
        fakesqs.history("nope")


def test_autojump_lets_a_consumer_thread_wait_for_a_producer(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import threading
        import boto3, pytest

        @pytest.mark.fakesqs(clock="autojump", autojump_threshold=0.5,
                             queues={"jobs": {"VisibilityTimeout": 30}})
        def test_consumer_thread(fakesqs):
            url = fakesqs.queue("jobs").url
            received = []

            def consume():
                sqs = boto3.client("sqs", region_name="us-east-1",
                                   aws_access_key_id="a", aws_secret_access_key="b")
                while len(received) < 3:
                    reply = sqs.receive_message(QueueUrl=url, WaitTimeSeconds=20,
                                                MaxNumberOfMessages=10)
                    for message in reply.get("Messages", []):
                        received.append(message["Body"])
                        sqs.delete_message(QueueUrl=url,
                                           ReceiptHandle=message["ReceiptHandle"])

            consumer = threading.Thread(target=consume)
            consumer.start()
            producer = boto3.client("sqs", region_name="us-east-1",
                                    aws_access_key_id="a", aws_secret_access_key="b")
            for body in ("1", "2", "3"):
                producer.send_message(QueueUrl=url, MessageBody=body)
            consumer.join(timeout=60)
            assert sorted(received) == ["1", "2", "3"]
            assert len(fakesqs.queue("jobs")) == 0
        """
    )
    pytester.runpytest().assert_outcomes(passed=1)
