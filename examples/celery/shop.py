"""A small Celery app on SQS, configured as in production: `sqs://`, the region and credentials
from the environment, no endpoint. Nothing in it knows about tests.

The queue is declared by the infrastructure (`QUEUES`, as Terraform would): a 5-minute visibility
timeout, and a dead-letter queue after three receives. Tasks acknowledge late, so a task that
fails (or a worker that dies) leaves its message to SQS: it comes back after the visibility
timeout, and a poison message ends in the dead-letter queue instead of looping forever.
"""

from __future__ import annotations

from typing import Any

from celery import Celery

QUEUE = "shop"
# What the infrastructure declares. 300 s: longer than the slowest task (the report, 45 s).
QUEUES: dict[str, dict[str, Any]] = {
    QUEUE: {"VisibilityTimeout": 300, "dlq": f"{QUEUE}-dlq", "max_receive_count": 3},
    f"{QUEUE}-dlq": {},
}

app = Celery("shop", broker="sqs://", set_as_current=False)
app.conf.update(
    task_default_queue=QUEUE,
    broker_transport_options={"region": "us-east-1", "wait_time_seconds": 10},
    task_acks_late=True,
    task_acks_on_failure_or_timeout=False,  # a failed task goes back to SQS, not to the bin
    worker_prefetch_multiplier=1,
)

# Where the tasks' effects land (a database, an e-mail service, object storage in production).
charged: list[tuple[str, int]] = []
reports: list[str] = []


@app.task(name="shop.charge")
def charge(order_id: str, amount: int) -> None:
    if amount <= 0:
        raise ValueError(f"order {order_id}: cannot charge {amount}")
    charged.append((order_id, amount))


@app.task(name="shop.monthly_report")
def monthly_report(month: str) -> None:
    reports.append(render(month))


def render(month: str) -> str:
    """The slow part: about 45 seconds of queries and PDF rendering in production."""
    return f"report {month}"
