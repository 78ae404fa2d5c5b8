"""Where a request came from: region, account, the endpoint the client used, flavor."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from .principals import Principal

Flavor = Literal["aws", "ymq"]
WireProtocol = Literal["json", "query"]  # the wire protocol a request came in

DEFAULT_REGION = "us-east-1"
DEFAULT_ACCOUNT_ID = "123456789012"


@dataclass(frozen=True, slots=True)
class RequestContext:
    region: str = DEFAULT_REGION
    account_id: str = DEFAULT_ACCOUNT_ID
    # scheme://host[:port] the client was configured with; queue URLs are built on it.
    base_url: str = ""
    protocol: WireProtocol = "json"
    # The access key id from the SigV4 credential scope, when the request was signed.
    access_key: str | None = None
    # The X-Amzn-Trace-Id header (X-Ray): SQS stores it as a sent message's AWSTraceHeader.
    trace_header: str | None = None
    # Who is calling (its account is `account_id`); None for the fake's own helpers.
    principal: Principal | None = None

    @property
    def sender_id(self) -> str:
        """A sent message's SenderId: the caller's principal id (an account root: its id)."""
        return self.account_id if self.principal is None else self.principal.principal_id

    def endpoint(self) -> str:
        return self.base_url or f"https://sqs.{self.region}.amazonaws.com"
