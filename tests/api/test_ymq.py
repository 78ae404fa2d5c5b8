"""Tier 2: the `ymq` flavor through boto3 (AWS JSON 1.0, answered as YDB's JSON front-end does)."""

from __future__ import annotations

import json
import re
from typing import Any

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from pytest_fakesqs import FakeSQS
from pytest_fakesqs.api.ymq import YmqDialect
from pytest_fakesqs.engine import Outgoing
from pytest_fakesqs.fake.facade import core_of

from .conftest import QUERY_CLIENT, make_client, system_attribute_names

YMQ = "https://message-queue.api.cloud.yandex.net"
URL = re.compile(
    r"^https://message-queue\.api\.cloud\.yandex\.net/b1g[0-9a-v]{17}/dj6[0-9a-v]{17}/"
)

pytestmark = pytest.mark.fakesqs(flavor="ymq")


@pytest.fixture
def ymq() -> Any:
    return make_client("ru-central1", YMQ)


def nonexistent_queue_class(client: Any) -> type[Exception]:
    """Over JSON YDB sends no x-amzn-query-error, so botocore cannot map a modelled class; over
    query botocore < 1.31.81 maps the XML <Code> to QueueDoesNotExist itself."""
    found: type[Exception] = client.exceptions.QueueDoesNotExist if QUERY_CLIENT else ClientError
    return found


def error_of(excinfo: pytest.ExceptionInfo[ClientError]) -> tuple[type, str, str, int]:
    response: Any = excinfo.value.response
    return (
        type(excinfo.value),
        response["Error"]["Code"],
        response["Error"]["Message"],
        response["ResponseMetadata"]["HTTPStatusCode"],
    )


def test_queue_url_and_arn_have_ymq_shape(ymq: Any) -> None:
    url = ymq.create_queue(QueueName="sample-queue")["QueueUrl"]
    assert URL.match(url) and url.endswith("/sample-queue")
    arn = ymq.get_queue_attributes(QueueUrl=url, AttributeNames=["QueueArn"])["Attributes"]
    assert re.fullmatch(r"yrn:yc:ymq:ru-central1:b1g[0-9a-v]{17}:sample-queue", arn["QueueArn"])


def test_urls_are_built_on_the_clients_endpoint_host(fakesqs: FakeSQS) -> None:
    client = make_client("ru-central1", "http://localhost:9324")
    url = client.create_queue(QueueName="local")["QueueUrl"]
    assert re.fullmatch(r"http://localhost:9324/b1g[0-9a-v]{17}/dj6[0-9a-v]{17}/local", url)
    # docs/ymq.md: a client without endpoint_url is answered on its own (AWS) host; the fake's
    # own view of the queue is on YMQ's endpoint.
    without_endpoint = make_client("ru-central1")
    path = url.removeprefix("http://localhost:9324")
    assert without_endpoint.get_queue_url(QueueName="local")["QueueUrl"] == (
        "https://sqs.ru-central1.amazonaws.com" + path
    )
    assert fakesqs.queue("local").url == YMQ + path


def test_a_recreated_queue_gets_a_new_url_and_the_old_one_is_gone(
    fakesqs: FakeSQS, ymq: Any
) -> None:
    old = ymq.create_queue(QueueName="jobs")["QueueUrl"]
    ymq.delete_queue(QueueUrl=old)
    fakesqs.advance(61)
    new = ymq.create_queue(QueueName="jobs")["QueueUrl"]
    assert new != old and new.rsplit("/", 2)[0] == old.rsplit("/", 2)[0]
    with pytest.raises(ClientError) as excinfo:
        ymq.send_message(QueueUrl=old, MessageBody="lost")
    assert error_of(excinfo) == (
        nonexistent_queue_class(ymq),
        "AWS.SimpleQueueService.NonExistentQueue",
        "The specified queue doesn't exist.",
        400,
    )


@pytest.mark.skipif(
    QUERY_CLIENT, reason="JSON front-end behaviour; botocore < 1.31.81 speaks query"
)
def test_errors_are_ydb_style_without_the_query_error_header(ymq: Any) -> None:
    with pytest.raises(ClientError) as excinfo:
        ymq.get_queue_url(QueueName="missing")
    # No x-amzn-query-error: botocore cannot map a modelled class, so a plain ClientError.
    assert type(excinfo.value) is ClientError
    assert "x-amzn-query-error" not in excinfo.value.response["ResponseMetadata"]["HTTPHeaders"]
    assert error_of(excinfo)[1:] == (
        "AWS.SimpleQueueService.NonExistentQueue",
        "The specified queue doesn't exist.",
        400,
    )


def test_default_region_is_ru_central1(fakesqs: FakeSQS) -> None:
    url = fakesqs.create_queue("made-by-the-test")
    assert fakesqs.options.region == "ru-central1"
    assert fakesqs.queue(url).arn.startswith("yrn:yc:ymq:ru-central1:")


ABSENT_CALLS: dict[str, dict[str, Any]] = {
    "AddPermission": {
        "QueueUrl": "q",
        "Label": "l",
        "AWSAccountIds": ["123456789012"],
        "Actions": ["SendMessage"],
    },
    "RemovePermission": {"QueueUrl": "q", "Label": "l"},
    "StartMessageMoveTask": {"SourceArn": "yrn:yc:ymq:ru-central1:f:dlq"},
    "CancelMessageMoveTask": {"TaskHandle": "h"},
    "ListMessageMoveTasks": {"SourceArn": "yrn:yc:ymq:ru-central1:f:dlq"},
}


@pytest.mark.parametrize("action", YmqDialect.absent_actions)
def test_actions_ymq_lacks_are_unknown_methods(ymq: Any, action: str) -> None:
    with pytest.raises(ClientError) as excinfo:
        ymq._make_api_call(action, ABSENT_CALLS[action])
    if QUERY_CLIENT:  # YDB's query front-end: EAction::Unknown
        expected = (ClientError, "MissingAction", f'Unknown action: "{action}".', 400)
    else:  # YDB's JSON front-end: an AmazonSQS.* method without a processor
        expected = (ClientError, "InvalidAction", f'Unknown method name "{action}"', 400)
    assert error_of(excinfo) == expected


@pytest.mark.skipif(QUERY_CLIENT, reason="botocore < 1.31.81 speaks query, never refused")
@pytest.mark.fakesqs(ymq_json="reject")
def test_json_can_be_refused_with_502_as_the_public_endpoint_did(ymq: Any) -> None:
    client = boto3.client(
        "sqs",
        region_name="ru-central1",
        endpoint_url=YMQ,
        aws_access_key_id="k",
        aws_secret_access_key="s",
        config=Config(retries={"total_max_attempts": 1}),  # botocore retries 502 with backoff
    )
    with pytest.raises(ClientError) as excinfo:
        client.list_queues()
    assert str(excinfo.value) == (
        "An error occurred (502) when calling the ListQueues operation "
        "(reached max retries: 0): Bad Gateway"
    )


def test_fifo_receive_returns_at_most_one_message_per_group(ymq: Any) -> None:
    url = ymq.create_queue(
        QueueName="rooms.fifo",
        Attributes={"FifoQueue": "true", "ContentBasedDeduplication": "true"},
    )["QueueUrl"]
    for group, body in [("a", "a1"), ("a", "a2"), ("b", "b1"), ("b", "b2"), ("c", "c1")]:
        ymq.send_message(QueueUrl=url, MessageBody=body, MessageGroupId=group)
    first = ymq.receive_message(QueueUrl=url, MaxNumberOfMessages=10)["Messages"]
    assert sorted(m["Body"] for m in first) == ["a1", "b1", "c1"]


def test_fifo_per_message_delay_is_ignored(fakesqs: FakeSQS, ymq: Any) -> None:
    url = ymq.create_queue(
        QueueName="delays.fifo",
        Attributes={"FifoQueue": "true", "ContentBasedDeduplication": "true"},
    )["QueueUrl"]
    ymq.send_message(QueueUrl=url, MessageBody="now", MessageGroupId="g", DelaySeconds=60)
    assert [m.state for m in fakesqs.queue(url).messages()] == ["visible"]


def test_redrive_policy_accepts_a_yrn_and_moves_the_poison_message(
    fakesqs: FakeSQS, ymq: Any
) -> None:
    dlq = ymq.create_queue(QueueName="dead")["QueueUrl"]
    dlq_arn = ymq.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"][
        "QueueArn"
    ]
    policy = json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": 1})
    url = ymq.create_queue(
        QueueName="work", Attributes={"RedrivePolicy": policy, "VisibilityTimeout": "5"}
    )["QueueUrl"]
    ymq.send_message(QueueUrl=url, MessageBody="poison")
    ymq.receive_message(QueueUrl=url)
    fakesqs.advance(5)
    assert "Messages" not in ymq.receive_message(QueueUrl=url)
    moved = ymq.receive_message(QueueUrl=dlq, **system_attribute_names("All"))["Messages"]
    assert moved[0]["Body"] == "poison"
    assert moved[0]["Attributes"]["DeadLetterQueueSourceArn"] == dlq_arn.replace(":dead", ":work")


@pytest.mark.parametrize(
    ("policy", "code", "message"),
    [
        (
            {
                "deadLetterTargetArn": "arn:aws:sqs:us-east-1:123456789012:dead",
                "maxReceiveCount": 3,
            },
            "ValidationError",
            "Cannot create queue: Invalid deadLetterTargetArn.",
        ),
        (
            {"deadLetterTargetArn": "yrn:yc:ymq:ru-central1:f:dead", "maxReceiveCount": 1001},
            "ValidationError",
            "Cannot create queue: maxReceiveCount must be greater than 0 and less than 1001.",
        ),
        (
            {"maxReceiveCount": 3},
            "ValidationError",
            "Cannot create queue: RedrivePolicy attribute is ill-constructed.",
        ),
    ],
)
def test_redrive_policy_errors_have_ydb_texts(
    ymq: Any, policy: dict[str, Any], code: str, message: str
) -> None:
    with pytest.raises(ClientError) as excinfo:
        ymq.create_queue(QueueName="work", Attributes={"RedrivePolicy": json.dumps(policy)})
    assert error_of(excinfo) == (ClientError, code, message, 400)


@pytest.mark.parametrize(
    ("count", "problem"),
    [
        # YDB reads it with TryFromString<size_t>: "+" and ASCII digits only, nothing else.
        (-3, "Failed to parse maxReceiveCount as an integer."),
        ("-3", "Failed to parse maxReceiveCount as an integer."),
        (" 3", "Failed to parse maxReceiveCount as an integer."),
        ("3 ", "Failed to parse maxReceiveCount as an integer."),
        ("3_0", "Failed to parse maxReceiveCount as an integer."),
        ("\u0663", "Failed to parse maxReceiveCount as an integer."),  # Arabic-Indic three
        ("", "Failed to parse maxReceiveCount as an integer."),
        ("18446744073709551616", "Failed to parse maxReceiveCount as an integer."),  # 2**64
        ("18446744073709551615", "maxReceiveCount must be greater than 0 and less than 1001."),
        (0, "maxReceiveCount must be greater than 0 and less than 1001."),
    ],
)
def test_the_redrive_count_is_read_as_ydb_reads_an_unsigned_integer(
    ymq: Any, count: object, problem: str
) -> None:
    policy = {"deadLetterTargetArn": "yrn:yc:ymq:ru-central1:f:dead", "maxReceiveCount": count}
    with pytest.raises(ClientError) as excinfo:
        ymq.create_queue(QueueName="work", Attributes={"RedrivePolicy": json.dumps(policy)})
    assert error_of(excinfo) == (
        ClientError,
        "ValidationError",
        f"Cannot create queue: {problem}",
        400,
    )


def test_a_redrive_count_with_a_plus_sign_is_a_count(fakesqs: FakeSQS, ymq: Any) -> None:
    dlq = ymq.create_queue(QueueName="dead")["QueueUrl"]
    dlq_arn = ymq.get_queue_attributes(QueueUrl=dlq, AttributeNames=["QueueArn"])["Attributes"][
        "QueueArn"
    ]
    policy = json.dumps({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": "+2"})
    url = ymq.create_queue(
        QueueName="work", Attributes={"RedrivePolicy": policy, "VisibilityTimeout": "5"}
    )["QueueUrl"]
    # YDB answers its parsed policy (TRedrivePolicy::ToJson): the count a number.
    attributes = ymq.get_queue_attributes(QueueUrl=url, AttributeNames=["RedrivePolicy"])
    assert attributes["Attributes"]["RedrivePolicy"] == (
        f'{{"deadLetterTargetArn":"{dlq_arn}","maxReceiveCount":2}}'
    )
    ymq.send_message(QueueUrl=url, MessageBody="poison")
    for _ in range(2):  # received twice: the count is 2
        assert ymq.receive_message(QueueUrl=url)["Messages"]
        fakesqs.advance(5)
    assert "Messages" not in ymq.receive_message(QueueUrl=url)
    assert ymq.receive_message(QueueUrl=dlq)["Messages"][0]["Body"] == "poison"


@pytest.mark.parametrize("value", [" 30", "30 ", "\u0663\u0660", "3_0", "-1", "", "30.0"])
def test_a_number_attribute_is_read_as_ydb_reads_an_unsigned_integer(ymq: Any, value: str) -> None:
    # YDB's TQueueAttributes::TryParseLimitedValue: TryFromString<ui64>, then the range.
    text = "Invalid value for the parameter VisibilityTimeout. Valid values are from 0 to 43200 both inclusive."
    with pytest.raises(ClientError) as created:
        ymq.create_queue(QueueName="work", Attributes={"VisibilityTimeout": value})
    assert error_of(created) == (
        ClientError,
        "ValidationError",
        f"Cannot create queue: {text}",
        400,
    )
    url = ymq.create_queue(QueueName="work", Attributes={"VisibilityTimeout": "+45"})["QueueUrl"]
    with pytest.raises(ClientError) as set_:
        ymq.set_queue_attributes(QueueUrl=url, Attributes={"VisibilityTimeout": value})
    assert error_of(set_)[1:] == ("InvalidAttributeValue", text, 400)
    attributes = ymq.get_queue_attributes(QueueUrl=url, AttributeNames=["VisibilityTimeout"])
    assert attributes["Attributes"]["VisibilityTimeout"] == "45"


@pytest.mark.parametrize("value", ["TRUE", "True", "False", "1", "yes"])
def test_the_fifo_booleans_are_exactly_true_or_false(ymq: Any, value: str) -> None:
    # YDB's TQueueAttributes::FromAttributesAndConfig compares with "true" and "false".
    def valid_values(name: str) -> str:
        return f"Invalid value for the parameter {name}. Valid values: true, false."

    with pytest.raises(ClientError) as created:
        ymq.create_queue(
            QueueName="jobs.fifo",
            Attributes={"FifoQueue": "true", "ContentBasedDeduplication": value},
        )
    assert error_of(created)[1:] == (
        "ValidationError",
        "Cannot create queue: " + valid_values("ContentBasedDeduplication"),
        400,
    )
    url = ymq.create_queue(QueueName="jobs.fifo", Attributes={"FifoQueue": "true"})["QueueUrl"]
    for name in ("ContentBasedDeduplication", "FifoQueue"):
        with pytest.raises(ClientError) as set_:
            ymq.set_queue_attributes(QueueUrl=url, Attributes={name: value})
        assert error_of(set_)[1:] == ("InvalidAttributeValue", valid_values(name), 400)
    with pytest.raises(ClientError) as set_:
        ymq.set_queue_attributes(QueueUrl=url, Attributes={"FifoQueue": "false"})
    assert error_of(set_)[2] == (
        "Invalid value for the parameter FifoQueue. Reason: Modifying queue type is not supported."
    )
    ymq.set_queue_attributes(QueueUrl=url, Attributes={"ContentBasedDeduplication": "true"})


@pytest.mark.parametrize("value", ["yes", "Y", "t", "on", "1", "da"])
def test_create_queue_reads_fifo_queue_with_ydbs_is_true_first(ymq: Any, value: str) -> None:
    # YDB's CreateQueue: the name decides, the attribute must agree by util's IsTrue; then the
    # attributes' own parser takes only "true".
    with pytest.raises(ClientError) as standard:
        ymq.create_queue(QueueName="jobs", Attributes={"FifoQueue": value})
    assert error_of(standard)[1:] == (
        "InvalidParameterValue",
        'Name of FIFO queue should end with ".fifo".',
        400,
    )
    with pytest.raises(ClientError) as fifo:
        ymq.create_queue(QueueName="jobs.fifo", Attributes={"FifoQueue": value})
    assert error_of(fifo)[1:] == (
        "ValidationError",
        "Cannot create queue: Invalid value for the parameter FifoQueue. Valid values: true, false.",
        400,
    )


@pytest.mark.parametrize(("name", "value"), [("jobs.fifo", None), ("jobs.fifo", "no")])
def test_a_fifo_name_needs_fifo_queue_true(ymq: Any, name: str, value: str | None) -> None:
    attributes = {} if value is None else {"FifoQueue": value}
    with pytest.raises(ClientError) as excinfo:
        ymq.create_queue(QueueName=name, Attributes=attributes)
    assert error_of(excinfo)[1:] == (
        "InvalidParameterValue",
        "The FifoQueue attribute should be set to true for FIFO queue.",
        400,
    )


def test_set_queue_attributes_reports_the_redrive_problem_itself(ymq: Any) -> None:
    url = ymq.create_queue(QueueName="work")["QueueUrl"]
    with pytest.raises(ClientError) as excinfo:
        ymq.set_queue_attributes(QueueUrl=url, Attributes={"RedrivePolicy": "{}"})
    assert error_of(excinfo)[1:] == (
        "InvalidParameterValue",
        "RedrivePolicy attribute is ill-constructed.",
        400,
    )


@pytest.mark.parametrize(
    ("attributes", "message"),
    [
        (
            {"MaximumMessageSize": "262145"},
            "Cannot create queue: Invalid value for the parameter MaximumMessageSize. "
            "Valid values are from 1024 to 262144 both inclusive.",
        ),
        ({"KmsMasterKeyId": "key"}, "Cannot create queue: Unknown Attribute KmsMasterKeyId."),
        ({"Policy": "{}"}, "Cannot create queue: Unknown Attribute Policy."),
    ],
)
def test_unsupported_or_out_of_range_attributes_are_validation_errors(
    ymq: Any, attributes: dict[str, str], message: str
) -> None:
    with pytest.raises(ClientError) as excinfo:
        ymq.create_queue(QueueName="work", Attributes=attributes)
    assert error_of(excinfo) == (ClientError, "ValidationError", message, 400)


def test_messages_are_limited_to_256_kib(ymq: Any) -> None:
    url = ymq.create_queue(QueueName="work")["QueueUrl"]
    ymq.send_message(QueueUrl=url, MessageBody="x" * 262_144)
    with pytest.raises(ClientError) as excinfo:
        ymq.send_message(QueueUrl=url, MessageBody="x" * 262_145)
    assert error_of(excinfo)[1] == "InvalidParameterValue"


def test_same_name_with_other_attributes_is_a_validation_error(ymq: Any) -> None:
    ymq.create_queue(QueueName="work", Attributes={"VisibilityTimeout": "10"})
    with pytest.raises(ClientError) as excinfo:
        ymq.create_queue(QueueName="work", Attributes={"VisibilityTimeout": "20"})
    assert error_of(excinfo) == (
        ClientError,
        "ValidationError",
        "Cannot create queue: queue with specified name already exists and has different "
        "attributes.",
        400,
    )


@pytest.mark.parametrize(
    ("tags", "message"),
    [
        ({"Team": "chat"}, "Tag key must start with a lowercase letter (a-z)."),
        (
            {"team": "Chat"},
            "Tag value can only consist of ASCII lowercase letters, digits, "
            "dashes and underscores.",
        ),
        ({"team": ""}, "Tag value must not be empty."),
        (
            {"team": "chat\n"},  # matched whole: a `$` would let the final newline through
            "Tag value can only consist of ASCII lowercase letters, digits, "
            "dashes and underscores.",
        ),
        ({"t" * 64: "x"}, "Tag key must not be longer than 63 characters."),
        ({f"k{i}": "v" for i in range(51)}, "Too many tags added for queue"),
    ],
)
def test_labels_follow_yandex_cloud_rules(ymq: Any, tags: dict[str, str], message: str) -> None:
    with pytest.raises(ClientError) as excinfo:
        ymq.create_queue(QueueName="work", tags=tags)
    assert error_of(excinfo) == (ClientError, "InvalidParameterValue", message, 400)


def test_list_queues_has_no_pagination(ymq: Any) -> None:
    for name in ("a", "b", "c"):
        ymq.create_queue(QueueName=name)
    listed = ymq.list_queues(MaxResults=1)
    assert [url.rsplit("/", 1)[1] for url in listed["QueueUrls"]] == ["a", "b", "c"]
    assert "NextToken" not in listed


def test_get_queue_url_ignores_the_owner_account(ymq: Any) -> None:
    url = ymq.create_queue(QueueName="work")["QueueUrl"]
    assert (
        ymq.get_queue_url(QueueName="work", QueueOwnerAWSAccountId="999999999999")["QueueUrl"]
        == url
    )


def test_fifo_receive_past_20000_in_flight_is_over_limit(fakesqs: FakeSQS, ymq: Any) -> None:
    url = ymq.create_queue(
        QueueName="busy.fifo",
        Attributes={"FifoQueue": "true", "ContentBasedDeduplication": "true"},
    )["QueueUrl"]
    queue = core_of(fakesqs).broker.get(fakesqs.key("busy.fifo"))
    for group in range(20_001):  # straight into the engine: 20,001 sends over HTTP are slow
        core_of(fakesqs).broker.send(
            queue, Outgoing(body=str(group), size=8, group_id=str(group), dedup_id=str(group))
        )
    while queue.in_flight < 20_000:
        core_of(fakesqs).broker.receive(queue, 10)
    with pytest.raises(ClientError) as excinfo:
        ymq.receive_message(QueueUrl=url)
    # `__type` OverLimit is also the modelled shape's name, so botocore maps the class anyway.
    assert error_of(excinfo) == (
        ymq.exceptions.OverLimit,
        "OverLimit",
        "The specified action violates a limit. For example, ReceiveMessage returns this error "
        "if the maximum number of inflight messages is reached and AddPermission returns this "
        "error if the maximum number of permissions for the queue is reached.",
        403,
    )


def test_a_cloud_holds_at_most_1000_queues(fakesqs: FakeSQS, ymq: Any) -> None:
    for number in range(1000):
        fakesqs.create_queue(f"q{number}")
    with pytest.raises(ClientError) as excinfo:
        ymq.create_queue(QueueName="one-too-many")
    # `__type` OverLimit is also the modelled shape's name, so botocore maps the class anyway.
    assert error_of(excinfo) == (
        ymq.exceptions.OverLimit,
        "OverLimit",
        "Cannot create queue: Too many queues.",
        403,
    )


def test_a_name_is_free_again_60_seconds_after_deletion(fakesqs: FakeSQS, ymq: Any) -> None:
    ymq.delete_queue(QueueUrl=ymq.create_queue(QueueName="jobs")["QueueUrl"])
    fakesqs.advance(59)
    with pytest.raises(ClientError) as excinfo:
        ymq.create_queue(QueueName="jobs")
    assert error_of(excinfo)[1:] == (
        "AWS.SimpleQueueService.QueueDeletedRecently",
        "Cannot create queue: Queue was removed recently.",
        400,
    )
    fakesqs.advance(1)
    ymq.create_queue(QueueName="jobs")


def test_fifo_batch_entries_ignore_their_delay_too(fakesqs: FakeSQS, ymq: Any) -> None:
    url = ymq.create_queue(
        QueueName="delays.fifo",
        Attributes={"FifoQueue": "true", "ContentBasedDeduplication": "true"},
    )["QueueUrl"]
    result = ymq.send_message_batch(
        QueueUrl=url,
        Entries=[{"Id": "a", "MessageBody": "a", "MessageGroupId": "g", "DelaySeconds": 30}],
    )
    assert "Failed" not in result or not result["Failed"]
    assert [m.state for m in fakesqs.queue(url).messages()] == ["visible"]


def test_fifo_in_flight_limit_is_20000_with_over_limit(fakesqs: FakeSQS) -> None:
    fifo = fakesqs.queue(fakesqs.create_queue("limits.fifo", ContentBasedDeduplication=True))
    standard = fakesqs.queue(fakesqs.create_queue("limits"))
    assert core_of(fakesqs).broker.find(fakesqs.key(fifo.name)).settings.max_in_flight == 20_000  # type: ignore[union-attr]
    assert (
        core_of(fakesqs).broker.find(fakesqs.key(standard.name)).settings.max_in_flight == 120_000
    )  # type: ignore[union-attr]


@pytest.mark.parametrize("mode", ["maybe", ""])
def test_ymq_json_option_is_validated(mode: str) -> None:
    from pytest_fakesqs.fake.options import make_options

    with pytest.raises(ValueError, match=f"ymq_json must be one of accept, reject; got {mode!r}"):
        make_options(flavor="ymq", ymq_json=mode)


def test_the_http_server_serves_the_ymq_flavor(fakesqs_server: Any) -> None:
    client = make_client("ru-central1", fakesqs_server.endpoint_url)
    url = client.create_queue(QueueName="over-http")["QueueUrl"]
    assert re.fullmatch(
        re.escape(fakesqs_server.endpoint_url) + r"/b1g[0-9a-v]{17}/dj6[0-9a-v]{17}/over-http", url
    )
    client.send_message(QueueUrl=url, MessageBody="hi")
    assert client.receive_message(QueueUrl=url)["Messages"][0]["Body"] == "hi"
    with pytest.raises(ClientError) as excinfo:
        client.get_queue_url(QueueName="missing")
    assert error_of(excinfo)[1:] == (
        "AWS.SimpleQueueService.NonExistentQueue",
        "The specified queue doesn't exist.",
        400,
    )


def test_a_queue_name_with_a_final_newline_is_refused_as_any_bad_name(ymq: Any) -> None:
    refusals = []
    for name in ("work!", "work\n"):  # matched whole: a `$` would let the final newline through
        with pytest.raises(ClientError) as excinfo:
            ymq.create_queue(QueueName=name)
        refusals.append(error_of(excinfo))
    assert refusals[0] == refusals[1]
    assert refusals[0][1] == "InvalidParameterValue"
