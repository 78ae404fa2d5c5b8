"""16 concurrent HTTP clients, 10,000 requests: every one answered, no message lost or doubled.

The clients speak AWS JSON 1.0 over their own kept-alive connections, byte for byte what an
SDK sends, without botocore's per-call overhead, so the server is what gets loaded.
"""

from __future__ import annotations

import http.client
import json
import threading
from typing import Any

from pytest_fakesqs import FakeSQS, FakeSQSServer

CLIENTS = 16
SENDS_PER_CLIENT = 400
RECEIVES_PER_CLIENT = 225  # 16 x (400 + 225) = 10,000 requests


class JsonClient:
    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, action: str, **params: Any) -> dict[str, Any]:
        self.connection.request(
            "POST",
            "/",
            body=json.dumps(params).encode(),
            headers={
                "X-Amz-Target": f"AmazonSQS.{action}",
                "Content-Type": "application/x-amz-json-1.0",
            },
        )
        response = self.connection.getresponse()
        answer: dict[str, Any] = json.loads(response.read())
        if response.status != 200:
            raise AssertionError(f"{action}: HTTP {response.status} {answer}")
        return answer


def test_sixteen_clients_ten_thousand_requests(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    url = fakesqs.create_queue("load", VisibilityTimeout=3600)
    received: list[list[str]] = [[] for _ in range(CLIENTS)]
    failures: list[BaseException] = []
    start_together = threading.Barrier(CLIENTS)

    def work(number: int) -> None:
        client = JsonClient(fakesqs_server.port)
        try:
            start_together.wait(timeout=60)
            for sequence in range(SENDS_PER_CLIENT):
                client.call("SendMessage", QueueUrl=url, MessageBody=f"{number}-{sequence}")
            for _ in range(RECEIVES_PER_CLIENT):
                answer = client.call("ReceiveMessage", QueueUrl=url, MaxNumberOfMessages=10)
                received[number].extend(m["Body"] for m in answer.get("Messages", []))
        except BaseException as error:  # collected and asserted on below
            failures.append(error)
        finally:
            client.connection.close()

    threads = [threading.Thread(target=work, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=240)  # real-time: a bound on 16 threads doing real HTTP

    assert failures == []
    assert not any(thread.is_alive() for thread in threads)
    everything = [body for bodies in received for body in bodies]
    sent = {f"{n}-{s}" for n in range(CLIENTS) for s in range(SENDS_PER_CLIENT)}
    assert len(everything) == len(sent)  # nothing delivered twice
    assert set(everything) == sent  # nothing lost
    assert fakesqs.queue("load").backlog().in_flight == len(sent)
    assert fakesqs_server.requests_served == CLIENTS * (SENDS_PER_CLIENT + RECEIVES_PER_CLIENT)


def test_concurrent_boto3_clients_share_one_fake(
    fakesqs: FakeSQS, fakesqs_server: FakeSQSServer
) -> None:
    url = fakesqs.create_queue("shared")
    failures: list[BaseException] = []

    def send(number: int) -> None:
        try:
            sqs = fakesqs_server.client()
            for sequence in range(10):
                sqs.send_message(QueueUrl=url, MessageBody=f"{number}-{sequence}")
        except BaseException as error:  # collected and asserted on below
            failures.append(error)

    threads = [threading.Thread(target=send, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)  # real-time: a bound on threads doing real HTTP

    assert failures == []
    assert sorted(fakesqs.queue("shared").bodies()) == sorted(
        f"{n}-{s}" for n in range(CLIENTS) for s in range(10)
    )
