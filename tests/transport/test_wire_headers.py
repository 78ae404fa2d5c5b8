"""The transport's one shortcut on botocore's private `HeadersDict._dict` reads what the plain
reading of the mapping reads, for any header botocore could carry."""

from __future__ import annotations

import pytest
from botocore.awsrequest import HeadersDict
from hypothesis import given
from hypothesis import strategies as st

from pytest_fakesqs.transport import inprocess
from pytest_fakesqs.transport.inprocess import plain_wire_headers, wire_headers

NAMES = st.from_regex(r"[A-Za-z0-9!#$%&'*+.^_`|~-]{1,24}", fullmatch=True)
VALUES = (
    st.text(max_size=40)
    | st.text(max_size=40).map(lambda text: text.encode("utf-8", "surrogatepass"))
    | st.binary(max_size=12)  # mostly not UTF-8: the shortcut steps aside
    | st.integers()
)


@given(st.lists(st.tuples(NAMES, VALUES), max_size=12))
def test_the_shortcut_reads_what_the_plain_code_reads(items: list[tuple[str, object]]) -> None:
    headers = HeadersDict()
    for name, value in items:
        headers[name] = value
    assert wire_headers(headers) == plain_wire_headers(headers)


def test_botocore_headers_take_the_shortcut(monkeypatch: pytest.MonkeyPatch) -> None:
    plain_reads: list[object] = []
    monkeypatch.setattr(inprocess, "plain_wire_headers", plain_reads.append)
    headers = HeadersDict()
    headers["X-Amz-Target"] = b"AmazonSQS.ListQueues"
    headers["Content-Length"] = "2"
    assert wire_headers(headers) == {"x-amz-target": "AmazonSQS.ListQueues", "content-length": "2"}
    assert plain_reads == []
    headers["X-Odd"] = b"caf\xe9"  # not UTF-8: read the plain way, with replacement
    wire_headers(headers)
    assert plain_reads == [headers]
