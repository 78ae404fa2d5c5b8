"""A service that runs as its own process: `python -m examples.worker_process.service`.

It is configured only by its environment, as in production (AWS_ENDPOINT_URL_SQS, AWS_REGION,
credentials, JOBS_QUEUE, RESULTS_QUEUE): it adds the numbers of each job, posts the sum, and
deletes the job; a job it cannot read is left alone, so SQS retries and finally dead-letters it.
It stops when a long poll comes back empty.
"""

from __future__ import annotations

import json
import os

import boto3


def main() -> None:
    sqs = boto3.client("sqs")
    jobs = sqs.get_queue_url(QueueName=os.environ["JOBS_QUEUE"])["QueueUrl"]
    results = sqs.get_queue_url(QueueName=os.environ["RESULTS_QUEUE"])["QueueUrl"]
    while True:
        batch = sqs.receive_message(QueueUrl=jobs, MaxNumberOfMessages=10, WaitTimeSeconds=20)
        if not batch.get("Messages"):
            return
        for message in batch["Messages"]:
            try:
                job = json.loads(message["Body"])
                total = job["a"] + job["b"]
            except (ValueError, KeyError, TypeError):
                continue  # poison: no delete, so it comes back until the redrive policy moves it
            sqs.send_message(QueueUrl=results, MessageBody=json.dumps({"sum": total}))
            sqs.delete_message(QueueUrl=jobs, ReceiptHandle=message["ReceiptHandle"])


if __name__ == "__main__":
    main()
