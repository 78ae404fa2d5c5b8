"""Queues declared in infrastructure code (Terraform, CloudFormation / SAM / CDK output).

The readers need the `iac` extra (python-hcl2, PyYAML); they are imported only when a test asks
for `queues_from`, so a run that does not use it never loads them.
"""

from __future__ import annotations

from .load import anchored, load_queues, queue_paths
from .model import IacError, QueueAddresses

__all__ = ["IacError", "QueueAddresses", "anchored", "load_queues", "queue_paths"]
