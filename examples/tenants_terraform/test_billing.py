"""A worker for every tenant's queue, against the queues Terraform makes with `for_each`.

`queues_from` reads infra/queues.tf as Terraform plans it: a queue per tenant (each with its own
visibility timeout), and one dead-letter queue whose redrive allow policy lists them all through
a splat (`values(aws_sqs_queue.invoices)[*].arn`). A tenant added there is in these tests too.
"""

from __future__ import annotations

import json
from pathlib import Path

import boto3
import pytest
from botocore.exceptions import ClientError

from pytest_fakesqs import FakeSQS

from .billing import InvoiceWorker, send_invoice

INFRA = Path(__file__).parent / "infra" / "queues.tf"
pytestmark = pytest.mark.fakesqs(queues_from=INFRA, assert_dlq_empty=True)
TENANTS = ("acme", "globex")


@pytest.fixture
def worker(fakesqs: FakeSQS) -> InvoiceWorker:
    return InvoiceWorker({t: fakesqs.queue(f"invoices-{t}").url for t in TENANTS})


def test_every_tenant_has_its_queue_with_its_timeout(fakesqs: FakeSQS) -> None:
    assert [q.name for q in fakesqs.queues()] == [
        "invoices-acme",
        "invoices-dlq",
        "invoices-globex",
    ]
    timeouts = {t: fakesqs.queue(f"invoices-{t}").attributes["VisibilityTimeout"] for t in TENANTS}
    assert timeouts == {"acme": "60", "globex": "300"}
    allowed = json.loads(fakesqs.queue("invoices-dlq").attributes["RedriveAllowPolicy"])
    assert allowed["sourceQueueArns"] == [fakesqs.queue(f"invoices-{t}").arn for t in TENANTS]


def test_a_malformed_invoice_is_dead_lettered_on_its_tenants_clock(
    fakesqs: FakeSQS, worker: InvoiceWorker
) -> None:
    send_invoice(fakesqs.queue("invoices-acme").url, '{"id": 1}')
    send_invoice(fakesqs.queue("invoices-globex").url, "<invoice id=2>")  # not JSON
    send_invoice(fakesqs.queue("invoices-globex").url, '{"id": 3}')

    # Each step polls both queues; the clock jumps to the next visibility lapse: globex's 300 s,
    # three times, before the fourth receive moves the malformed invoice.
    report = fakesqs.run_until_idle(worker.poll_once)

    assert sorted(worker.billed) == [("acme", 1), ("globex", 3)]
    (dead,) = fakesqs.assert_dead_lettered("invoices-dlq", body="<invoice id=2>")
    assert (dead.source_queue, dead.receive_count) == ("invoices-globex", 3)
    assert report.elapsed == 3 * 300


def test_only_a_tenant_queue_may_redrive_into_the_shared_dead_letter_queue(
    fakesqs: FakeSQS,
) -> None:
    sqs = boto3.client("sqs", region_name="us-east-1")
    policy = {"deadLetterTargetArn": fakesqs.queue("invoices-dlq").arn, "maxReceiveCount": 3}

    with pytest.raises(ClientError) as refused:
        sqs.create_queue(QueueName="reports", Attributes={"RedrivePolicy": json.dumps(policy)})

    assert refused.value.response["Error"]["Message"].endswith(
        "Reason: Source queue is not allowed by the RedriveAllowPolicy of the dead-letter queue."
    )
