from __future__ import annotations


def literal(text: str) -> str:
    """`text` as an fnmatch pattern that matches only itself (brackets are classes there)."""
    return text.replace("[", "[[]")


# Source for a pytester test module: `answered_locally(sqs)` makes a client whose ListQueues, once
# the guard lets it through, is answered by a before-send handler of its own (an empty 200, in
# the protocol the client speaks: botocore before 1.31.81 speaks query/XML), without a network.
ANSWERED_LOCALLY = """
def answered_locally(sqs):
    from botocore.awsrequest import AWSResponse

    empty_query_answer = (
        b"<ListQueuesResponse><ListQueuesResult/>"
        b"<ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></ListQueuesResponse>"
    )
    body = b"{}" if sqs.meta.service_model.protocol == "json" else empty_query_answer

    class Raw:
        def stream(self, *args, **kwargs):
            yield body

    def answer(request, **kwargs):
        return AWSResponse(request.url, 200, {}, Raw())

    sqs.meta.events.register("before-send.sqs.*", answer)
    return sqs
"""
