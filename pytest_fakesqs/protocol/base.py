"""What every wire codec produces and consumes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..api.principals import Principal


@dataclass(slots=True)
class WireRequest:
    """An HTTP request as the transport saw it."""

    method: str
    url: str  # full URL, including the path a query request may have been posted to
    headers: dict[str, str]  # names lower-cased
    body: bytes
    # Sent by another AWS service on the account's behalf (moto's SNS, S3, EventBridge
    # deliveries): authorised by the service, not by a user's signature.
    from_aws_service: bool = False
    # The service principal of such a delivery (sns.amazonaws.com and the topic), when known:
    # with enforce_policies, the queue's Policy must allow it.
    delivered_by: Principal | None = None


@dataclass(slots=True)
class WireResponse:
    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""


@dataclass(slots=True)
class DecodedRequest:
    """An action and its parameters, in the JSON model's member names and plain Python types
    (the query codec produces the same shapes, e.g. `Attributes` as a dict)."""

    action: str
    params: dict[str, Any]
