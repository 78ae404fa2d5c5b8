"""Queue URLs and ARNs of each flavor, both ways."""

from __future__ import annotations

from urllib.parse import urlsplit

from ..engine import QueueKey
from .context import RequestContext


class AwsAddressing:
    """`<endpoint>/<account>/<name>` and `arn:aws:sqs:<region>:<account>:<name>`."""

    def queue_url(self, ctx: RequestContext, key: QueueKey) -> str:
        region, account_id, name = key
        base = ctx.base_url or f"https://sqs.{region}.amazonaws.com"
        return f"{base}/{account_id}/{name}"

    def queue_arn(self, key: QueueKey) -> str:
        region, account_id, name = key
        return f"arn:aws:sqs:{region}:{account_id}:{name}"

    def key_from_url(self, ctx: RequestContext, url: str) -> QueueKey | None:
        """The queue a URL names, or None when it is not a queue URL at all."""
        if not isinstance(url, str) or not url:
            return None
        path = urlsplit(url).path if "://" in url else url
        segments = [s for s in path.split("/") if s]
        if len(segments) == 2:
            return (ctx.region, segments[0], segments[1])
        if len(segments) == 1 and "://" not in url:
            # A bare name: some clients send it; resolve within the caller's account.
            return (ctx.region, ctx.account_id, segments[0])
        return None

    def key_from_arn(self, arn: str) -> QueueKey | None:
        parts = arn.split(":") if isinstance(arn, str) else []
        if len(parts) != 6 or parts[0] != "arn" or parts[2] != "sqs" or not parts[5]:
            return None
        return (parts[3], parts[4], parts[5])
