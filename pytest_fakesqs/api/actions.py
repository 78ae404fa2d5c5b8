"""The action table: every SQS action this fake answers, name -> handler."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import batch, messages, queues

if TYPE_CHECKING:
    from .service import Handler

ACTIONS: dict[str, Handler] = {
    "CreateQueue": queues.create_queue,
    "GetQueueUrl": queues.get_queue_url,
    "ListQueues": queues.list_queues,
    "DeleteQueue": queues.delete_queue,
    "GetQueueAttributes": queues.get_queue_attributes,
    "SetQueueAttributes": queues.set_queue_attributes,
    "PurgeQueue": queues.purge_queue,
    "SendMessage": messages.send_message,
    "SendMessageBatch": batch.send_message_batch,
    "ReceiveMessage": messages.receive_message,
    "DeleteMessage": messages.delete_message,
    "DeleteMessageBatch": batch.delete_message_batch,
    "ChangeMessageVisibility": messages.change_message_visibility,
    "ChangeMessageVisibilityBatch": batch.change_message_visibility_batch,
}
