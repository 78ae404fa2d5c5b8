"""Dead letters: records, assertions and their exact failure messages, the teardown check."""

from __future__ import annotations

import re
from typing import Any

import boto3
import pytest

from pytest_fakesqs import DeadLetter, FakeSQS
from pytest_fakesqs.api.principals import iam_user

from .conftest import literal

QUEUES = {
    "orders": {"VisibilityTimeout": 30, "dlq": "orders-dlq", "max_receive_count": 2},
    "orders-dlq": {},
}
LONG = '{"id": 1, "note": "' + "x" * 50 + '"}'
pytestmark = pytest.mark.fakesqs(queues=QUEUES)


def client() -> Any:
    return boto3.client(
        "sqs", region_name="us-east-1", aws_access_key_id="a", aws_secret_access_key="b"
    )


def dead_letter(fakesqs: FakeSQS, *bodies: str, **attributes: Any) -> list[str]:
    """Send `bodies` to orders and fail them until they move to orders-dlq; their ids."""
    sqs = client()
    url = fakesqs.queue("orders").url
    ids = [
        sqs.send_message(QueueUrl=url, MessageBody=body, **attributes)["MessageId"]
        for body in bodies
    ]
    for _ in range(3):
        sqs.receive_message(QueueUrl=url, MaxNumberOfMessages=10)
        fakesqs.advance(30)
    return ids


def test_a_record_says_where_from_when_and_after_how_many_receives(fakesqs: FakeSQS) -> None:
    (message_id,) = dead_letter(
        fakesqs,
        '{"id": 1}',
        MessageAttributes={"kind": {"DataType": "String", "StringValue": "order"}},
    )
    (record,) = fakesqs.dead_letters()
    assert isinstance(record, DeadLetter)
    assert (record.body, record.message_id, record.message_attributes) == (
        '{"id": 1}',
        message_id,
        {"kind": "order"},
    )
    assert (record.source_queue, record.queue, record.receive_count) == ("orders", "orders-dlq", 2)
    assert record.moved_at.isoformat() == "2024-01-01T00:01:00+00:00"
    assert record.attributes["ApproximateReceiveCount"] == "2"
    assert (
        record.attributes["DeadLetterQueueSourceArn"] == "arn:aws:sqs:us-east-1:123456789012:orders"
    )
    assert record.attributes["SentTimestamp"] == "1704067200000"
    assert [(e.event, e.queue) for e in record.history] == [
        ("sent", "orders"),
        ("received", "orders"),
        ("visible again", "orders"),
        ("received", "orders"),
        ("visible again", "orders"),
        ("moved to dead-letter queue", "orders"),
        ("arrived from", "orders-dlq"),
    ]
    assert fakesqs.dead_letters("orders-dlq") == fakesqs.dead_letters("orders") == [record]


def test_assert_dead_lettered_returns_the_matches(fakesqs: FakeSQS) -> None:
    dead_letter(fakesqs, '{"id": 1}', '{"id": 2}', LONG)
    assert [r.body for r in fakesqs.assert_dead_lettered(body='{"id": 2}')] == ['{"id": 2}']
    assert len(fakesqs.assert_dead_lettered("orders-dlq", match=r'"id": \d')) == 3
    assert len(fakesqs.assert_dead_lettered(match=re.compile("note"), count=1)) == 1
    picked = fakesqs.assert_dead_lettered(match=lambda r: r.receive_count == 2, count=3)
    assert [r.source_queue for r in picked] == ["orders"] * 3
    assert fakesqs.assert_dead_lettered(body="nothing", count=0) == []


def test_records_cannot_be_made_by_hand() -> None:
    with pytest.raises(TypeError, match="DeadLetter objects are made by the fake"):
        DeadLetter(
            body="",
            message_id="",
            message_attributes={},
            attributes={},
            source_queue="",
            queue="",
            receive_count=0,
            moved_at=None,
            history=(),  # type: ignore[arg-type]
        )


# -- exact failure messages --------------------------------------------------------------------


def failure(action: Any) -> str:
    with pytest.raises(AssertionError) as raised:
        action()
    return str(raised.value)


def test_nothing_dead_lettered_says_how_the_redrive_is_set_and_how_far_messages_got(
    fakesqs: FakeSQS,
) -> None:
    sqs = client()
    url = fakesqs.queue("orders").url
    sqs.send_message(QueueUrl=url, MessageBody="a")
    sqs.receive_message(QueueUrl=url)
    assert failure(lambda: fakesqs.assert_dead_lettered(body="a")) == (
        "assert_dead_lettered: expected at least 1 dead letter with body 'a', found none\n"
        "No message reached a dead-letter queue during this test.\n"
        "orders dead-letters a message to orders-dlq on the receive after its 2nd "
        "(maxReceiveCount 2); its most-received message has been received once.\n"
        "fakesqs.advance_to_next_event() makes in-flight messages visible again without waiting.\n"
        "See docs/dead-letters.md (`fakesqs docs dead-letters` prints it)"
    )


def test_with_nothing_in_flight_the_hint_to_advance_is_left_out(fakesqs: FakeSQS) -> None:
    sqs = client()
    url = fakesqs.queue("orders").url
    sqs.send_message(QueueUrl=url, MessageBody="a")
    sqs.receive_message(QueueUrl=url, VisibilityTimeout=0)  # visible again at once
    assert failure(lambda: fakesqs.assert_dead_lettered(body="a")) == (
        "assert_dead_lettered: expected at least 1 dead letter with body 'a', found none\n"
        "No message reached a dead-letter queue during this test.\n"
        "orders dead-letters a message to orders-dlq on the receive after its 2nd "
        "(maxReceiveCount 2); its most-received message has been received once.\n"
        "See docs/dead-letters.md (`fakesqs docs dead-letters` prints it)"
    )


@pytest.mark.fakesqs(queues={})
def test_nothing_dead_lettered_without_any_redrive_says_how_to_declare_one(
    fakesqs: FakeSQS,
) -> None:
    fakesqs.create_queue("jobs")
    assert failure(lambda: fakesqs.assert_dead_lettered("jobs", count=2)) == (
        "assert_dead_lettered: expected 2 dead letters for queue 'jobs', found none\n"
        "No message reached a dead-letter queue for jobs during this test.\n"
        "No queue has a dead-letter queue; declare one with @pytest.mark.fakesqs(queues="
        '{"orders": {"dlq": "orders-dlq", "max_receive_count": 5}, "orders-dlq": {}}).\n'
        "See docs/dead-letters.md (`fakesqs docs dead-letters` prints it)"
    )


def test_candidates_say_why_each_did_not_match(fakesqs: FakeSQS) -> None:
    first, second, long = dead_letter(fakesqs, '{"id": 1}', '{"id": 2}', LONG)
    message = failure(
        lambda: fakesqs.assert_dead_lettered(
            "orders-dlq", body='{"id": 3}', info="the refund of order 3"
        )
    )
    assert message == (
        "assert_dead_lettered: expected at least 1 dead letter with body '{\"id\": 3}' "
        "for queue 'orders-dlq', found none\n"
        "info: the refund of order 3\n"
        "3 other dead letters did not match:\n"
        f"  - {first[:8]} from orders to orders-dlq after 2 receives, body '{{\"id\": 1}}': "
        "body differs\n"
        f"  - {second[:8]} from orders to orders-dlq after 2 receives, body '{{\"id\": 2}}': "
        "body differs\n"
        f"  - {long[:8]} from orders to orders-dlq after 2 receives, body "
        '\'{"id": 1, "note": "xxxxxxxxxxxxxxxxxxxxx\'… (71 chars): body differs\n'
        "body= compares whole bodies; match= takes a regex or a callable.\n"
        "Bodies are cut to 40 characters; add -v to see them whole.\n"
        "See docs/dead-letters.md (`fakesqs docs dead-letters` prints it)"
    )


def test_regex_callable_and_count_mismatches(fakesqs: FakeSQS) -> None:
    first, second = dead_letter(fakesqs, '{"id": 1}', '{"id": 2}')

    def is_refund(record: DeadLetter) -> bool:
        return "refund" in record.body

    def broken(record: DeadLetter) -> bool:
        raise KeyError("amount")

    assert failure(lambda: fakesqs.assert_dead_lettered(match="refund")) == (
        "assert_dead_lettered: expected at least 1 dead letter with a body matching /refund/, "
        "found none\n"
        "2 other dead letters did not match:\n"
        f"  - {first[:8]} from orders to orders-dlq after 2 receives, body '{{\"id\": 1}}': "
        "body does not match /refund/\n"
        f"  - {second[:8]} from orders to orders-dlq after 2 receives, body '{{\"id\": 2}}': "
        "body does not match /refund/\n"
        "See docs/dead-letters.md (`fakesqs docs dead-letters` prints it)"
    )
    assert failure(lambda: fakesqs.assert_dead_lettered(match=is_refund)).splitlines()[:3] == [
        "assert_dead_lettered: expected at least 1 dead letter accepted by is_refund(), found none",
        "2 other dead letters did not match:",
        f"  - {first[:8]} from orders to orders-dlq after 2 receives, body '{{\"id\": 1}}': "
        "is_refund() returned False",
    ]
    assert failure(lambda: fakesqs.assert_dead_lettered(match=broken)).splitlines()[2] == (
        f"  - {first[:8]} from orders to orders-dlq after 2 receives, body '{{\"id\": 1}}': "
        "match raised KeyError: 'amount'"
    )
    assert failure(lambda: fakesqs.assert_dead_lettered(match=r"\d", count=1)) == (
        "assert_dead_lettered: expected 1 dead letter with a body matching /\\d/, found 2:\n"
        f"  - {first[:8]} from orders to orders-dlq after 2 receives, body '{{\"id\": 1}}'\n"
        f"  - {second[:8]} from orders to orders-dlq after 2 receives, body '{{\"id\": 2}}'\n"
        "See docs/dead-letters.md (`fakesqs docs dead-letters` prints it)"
    )


def test_assert_no_dead_letters_shows_each_timeline(fakesqs: FakeSQS) -> None:
    fakesqs.assert_no_dead_letters()
    (message_id,) = dead_letter(fakesqs, "boom")
    fakesqs.assert_no_dead_letters(fakesqs.create_queue("other"))
    second_receive = fakesqs.history(message_id)[3].detail
    assert re.fullmatch(r"#2 handle …\S{8}", second_receive)
    assert failure(lambda: fakesqs.assert_no_dead_letters("orders")) == (
        "assert_no_dead_letters: expected no dead letters for orders, found 1:\n"
        f"  - {message_id[:8]} from orders to orders-dlq after 2 receives, body 'boom'\n"
        f"            +0s  orders: sent by {iam_user('a', '123456789012').principal_id}\n"
        "              …  2 more events (add -v to show all)\n"
        f"           +30s  orders: received {second_receive}\n"
        "           +60s  orders: visible again\n"
        "           +60s  orders: moved to dead-letter queue orders-dlq\n"
        "           +60s  orders-dlq: arrived from orders\n"
        "A message moves to its dead-letter queue on the receive after its "
        "maxReceiveCount-th; fakesqs.history(message_id) shows each step.\n"
        "See docs/dead-letters.md (`fakesqs docs dead-letters` prints it)"
    )


def test_verbose_shows_whole_bodies_and_timelines(fakesqs: FakeSQS) -> None:
    (message_id,) = dead_letter(fakesqs, LONG)
    fakesqs.verbose = True
    message = failure(lambda: fakesqs.assert_no_dead_letters())
    assert f"body {LONG!r}\n" in message
    assert "more events" not in message
    assert len(message.splitlines()) == 1 + 1 + 7 + 2
    assert failure(lambda: fakesqs.assert_dead_lettered(body="x")).splitlines()[2] == (
        f"  - {message_id[:8]} from orders to orders-dlq after 2 receives, body {LONG!r}: "
        "body differs"
    )


def test_an_unknown_queue_is_named_with_the_known_ones(fakesqs: FakeSQS) -> None:
    with pytest.raises(LookupError, match=r"^no queue named 'nope'; queues: orders, orders-dlq$"):
        fakesqs.assert_dead_lettered("nope")


# -- through pytest: --assert=plain, -v, teardown errors ---------------------------------------

SCENARIO = """
import boto3, pytest

pytestmark = pytest.mark.fakesqs(
    queues={"orders": {"dlq": "orders-dlq", "max_receive_count": 1}, "orders-dlq": {}},
)

def poison(fakesqs, body):
    sqs = boto3.client("sqs", region_name="us-east-1",
                       aws_access_key_id="a", aws_secret_access_key="b")
    url = fakesqs.queue("orders").url
    sqs.send_message(QueueUrl=url, MessageBody=body)
    sqs.receive_message(QueueUrl=url)
    fakesqs.advance_to_next_event()
    sqs.receive_message(QueueUrl=url)
"""


def test_failure_message_reads_well_under_assert_plain(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        SCENARIO
        + """
def test_wrong_body(fakesqs):
    poison(fakesqs, "x" * 60)
    fakesqs.assert_dead_lettered(body="y")
"""
    )
    for verbosity, body in (("-q", "'" + "x" * 40 + "'… (60 chars)"), ("-v", repr("x" * 60))):
        result = pytester.runpytest("--assert=plain", verbosity, "-p", "no:randomly")
        result.assert_outcomes(failed=1)
        result.stdout.fnmatch_lines(
            [
                '>*fakesqs.assert_dead_lettered(body="y")',
                "E       AssertionError: assert_dead_lettered: expected at least 1 dead letter "
                "with body 'y', found none",
                "E       1 other dead letter did not match:",
                f"E         - * from orders to orders-dlq after 1 receive, body {body}: body differs",
            ]
        )
        # the helper's own frames are hidden: the user's line is the last one shown
        assert "fake/dead_letters.py" not in result.stdout.str()


def test_an_unasserted_dead_letter_errors_the_test_at_teardown(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        SCENARIO
        + """
@pytest.mark.fakesqs(assert_dlq_empty=True)
def test_forgot_to_look(fakesqs):
    poison(fakesqs, "lost order")

@pytest.mark.fakesqs(assert_dlq_empty=True)
def test_asserted(fakesqs):
    poison(fakesqs, "known poison")
    fakesqs.assert_dead_lettered(body="known poison")

@pytest.mark.fakesqs(assert_dlq_empty=True)
def test_partly_asserted(fakesqs):
    poison(fakesqs, "known poison")
    poison(fakesqs, "surprise")
    fakesqs.assert_dead_lettered(body="known poison")

@pytest.mark.fakesqs(assert_dlq_empty=True)
def test_failed_already(fakesqs):
    poison(fakesqs, "lost order")
    assert False, "the test's own failure is the one reported"

def test_check_is_off_by_default(fakesqs):
    poison(fakesqs, "ignored")
"""
    )
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(passed=4, failed=1, errors=2)
    result.stdout.fnmatch_lines(
        [
            "*ERROR at teardown of test_forgot_to_look*",
            "fakesqs: 1 dead letter was never asserted on (assert_dlq_empty is on):",
            "  - * from orders to orders-dlq after 1 receive, body 'lost order'",
            "Assert on them with fakesqs.assert_dead_lettered(...), or turn the check off with "
            "@pytest.mark.fakesqs(assert_dlq_empty=False).",
            "See docs/dead-letters.md (`fakesqs docs dead-letters` prints it)",
            "*ERROR at teardown of test_partly_asserted*",
            "fakesqs: 1 dead letter was never asserted on (assert_dlq_empty is on):",
            "  - * from orders to orders-dlq after 1 receive, body 'surprise'",
        ]
    )
    # Report headlines only: with CI set, pytest's short summary repeats each message in full.
    headlines = [line for line in result.stdout.lines if line.startswith("fakesqs: 1 dead letter")]
    assert len(headlines) == 2


def test_assert_dlq_empty_from_ini(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nfakesqs_assert_dlq_empty = true\n")
    pytester.makepyfile(
        SCENARIO
        + """
def test_forgot(fakesqs):
    poison(fakesqs, "lost")

@pytest.mark.fakesqs(assert_dlq_empty=False)
def test_opted_out(fakesqs):
    poison(fakesqs, "lost")
"""
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=2, errors=1)
    result.stdout.fnmatch_lines([literal("ERROR test_assert_dlq_empty_from_ini.py::test_forgot*")])


def test_fake_sqs_runs_the_teardown_checks_on_a_clean_exit() -> None:
    from pytest_fakesqs import fake_sqs

    options = {"queues": QUEUES, "assert_dlq_empty": True}
    with pytest.raises(AssertionError) as raised, fake_sqs(**options) as fake:
        first, second = dead_letter(fake, "forgotten", "x" * 41)
    assert str(raised.value) == (
        "fakesqs: 2 dead letters were never asserted on (assert_dlq_empty is on):\n"
        f"  - {first[:8]} from orders to orders-dlq after 2 receives, body 'forgotten'\n"
        f"  - {second[:8]} from orders to orders-dlq after 2 receives, body "
        f"'{'x' * 40}'… (41 chars)\n"
        "Assert on them with fakesqs.assert_dead_lettered(...), or turn the check off with "
        "@pytest.mark.fakesqs(assert_dlq_empty=False).\n"
        "See docs/dead-letters.md (`fakesqs docs dead-letters` prints it)"
    )
    with fake_sqs(**options) as fake:
        dead_letter(fake, "seen")
        fake.assert_dead_lettered(body="seen")
    with pytest.raises(KeyError), fake_sqs(**options) as fake:  # the real error is not hidden
        dead_letter(fake, "forgotten")
        raise KeyError("boom")


def test_a_setup_failure_is_not_followed_by_teardown_errors(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        SCENARIO
        + """
@pytest.fixture
def broken(fakesqs):
    poison(fakesqs, "lost")
    raise RuntimeError("setup broke")

@pytest.mark.fakesqs(assert_dlq_empty=True)
def test_never_runs(broken):
    pass
"""
    )
    result = pytester.runpytest()
    result.assert_outcomes(errors=1)
    assert "never asserted on" not in result.stdout.str()
