"""Tier 3: the ymq flavor chosen in the ini file, refined per test by the marker."""

from __future__ import annotations

import pytest

from ..query_era import QUERY_CLIENT


@pytest.mark.skipif(
    QUERY_CLIENT, reason="ymq_json refuses AWS JSON, which a query-era botocore never sends"
)
def test_ini_flavor_and_marker_ymq_json(pytester: pytest.Pytester) -> None:
    pytester.makeini(
        """
        [pytest]
        fakesqs_flavor = ymq
        """
    )
    pytester.makepyfile(
        """
        import boto3, pytest
        from botocore.config import Config
        from botocore.exceptions import ClientError

        def client():
            return boto3.client(
                "sqs", region_name="ru-central1", aws_access_key_id="a",
                aws_secret_access_key="b",
                endpoint_url="https://message-queue.api.cloud.yandex.net",
                config=Config(retries={"total_max_attempts": 1}),
            )

        def test_ymq_from_the_ini(fakesqs):
            url = client().create_queue(QueueName="chat")["QueueUrl"]
            assert url.startswith("https://message-queue.api.cloud.yandex.net/b1g")
            assert fakesqs.queue("chat").arn.startswith("yrn:yc:ymq:ru-central1:")

        @pytest.mark.fakesqs(ymq_json="reject")
        def test_json_refused_by_the_marker(fakesqs):
            with pytest.raises(ClientError) as excinfo:
                client().list_queues()
            assert excinfo.value.response["Error"] == {"Code": "502", "Message": "Bad Gateway"}
        """
    )
    result = pytester.runpytest("-p", "no:randomly")
    result.assert_outcomes(passed=2)
