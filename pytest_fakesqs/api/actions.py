"""The action table: every SQS action this fake answers, name -> handler."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import (
    batch,
    dead_letter_sources,
    messages,
    move_tasks,
    permissions,
    queues,
    receipts,
    receiving,
    tags,
)

if TYPE_CHECKING:
    from .core import ActionHandler

ACTIONS: dict[str, ActionHandler] = {
    "CreateQueue": queues.create_queue,
    "GetQueueUrl": queues.get_queue_url,
    "ListQueues": queues.list_queues,
    "DeleteQueue": queues.delete_queue,
    "GetQueueAttributes": queues.get_queue_attributes,
    "SetQueueAttributes": queues.set_queue_attributes,
    "PurgeQueue": queues.purge_queue,
    "SendMessage": messages.send_message,
    "SendMessageBatch": batch.send_message_batch,
    "ReceiveMessage": receiving.receive_message,
    "DeleteMessage": receipts.delete_message,
    "DeleteMessageBatch": batch.delete_message_batch,
    "ChangeMessageVisibility": receipts.change_message_visibility,
    "ChangeMessageVisibilityBatch": batch.change_message_visibility_batch,
    "AddPermission": permissions.add_permission,
    "RemovePermission": permissions.remove_permission,
    "TagQueue": tags.tag_queue,
    "UntagQueue": tags.untag_queue,
    "ListQueueTags": tags.list_queue_tags,
    "ListDeadLetterSourceQueues": dead_letter_sources.list_dead_letter_source_queues,
    "StartMessageMoveTask": move_tasks.start_message_move_task,
    "ListMessageMoveTasks": move_tasks.list_message_move_tasks,
    "CancelMessageMoveTask": move_tasks.cancel_message_move_task,
}
