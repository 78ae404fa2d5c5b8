"""ListDeadLetterSourceQueues: the queues whose RedrivePolicy names a queue, paginated."""

from __future__ import annotations

import base64
import binascii
from typing import TYPE_CHECKING, Any

from ..engine import Queue
from .context import RequestContext
from .error_texts import ErrorText
from .params import get_int, get_str

if TYPE_CHECKING:
    from .core import Service

MAX_RESULTS = 1000


def sources_of(service: Service, dead_letter_queue: Queue) -> list[Queue]:
    """Every live queue whose redrive policy targets `dead_letter_queue`, by name."""
    return sorted(
        (
            queue
            for queue in service.broker.queues()
            if queue.settings.redrive is not None
            and queue.settings.redrive.dead_letter_queue == dead_letter_queue.key
        ),
        key=lambda queue: queue.name,
    )


def list_dead_letter_source_queues(
    service: Service, params: dict[str, Any], ctx: RequestContext
) -> dict[str, Any]:
    queue = service.resolve_queue(params, ctx)
    max_results = get_int(params, "MaxResults")
    if max_results is not None and not 1 <= max_results <= MAX_RESULTS:
        raise ErrorText.LIST_MAX_RESULTS(name="MaxResults", value=max_results, maximum=MAX_RESULTS)
    sources = sources_of(service, queue)
    token = get_str(params, "NextToken")
    if token:
        after = _decode_token(token)
        sources = [source for source in sources if source.name > after]
    limit = MAX_RESULTS if max_results is None else max_results
    page = sources[:limit]
    # The output member is lower-case `queueUrls` in the model, unlike ListQueues.
    result: dict[str, Any] = {"queueUrls": [service.queue_url(ctx, source) for source in page]}
    # AWS pages only when the caller asked for a page size.
    if max_results is not None and len(sources) > limit:
        result["NextToken"] = base64.b64encode(page[-1].name.encode()).decode()
    return result


def _decode_token(token: str) -> str:
    try:
        return base64.b64decode(token, validate=True).decode()
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise ErrorText.NEXT_TOKEN_INVALID(name="NextToken", value=token) from None
