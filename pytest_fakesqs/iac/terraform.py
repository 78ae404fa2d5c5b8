"""Terraform (`.tf`, `.tf.json`): aws_sqs_queue, yandex_message_queue and the SQS policy
resources, with variables, locals and references between queues."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .hcl import Evaluator, Expression, Step, apply_steps, unresolvable
from .hcl_functions import tonumber
from .model import DeclaredQueue, IacError, QueueAddresses, attribute_text
from .tf_files import Block, Module, read_tf

QUEUE_TYPES = ("aws_sqs_queue", "yandex_message_queue")
# argument -> CreateQueue attribute, per queue resource type (from each provider's schema).
_COMMON_ARGUMENTS = {
    "visibility_timeout_seconds": "VisibilityTimeout",
    "delay_seconds": "DelaySeconds",
    "receive_wait_time_seconds": "ReceiveMessageWaitTimeSeconds",
    "message_retention_seconds": "MessageRetentionPeriod",
    "max_message_size": "MaximumMessageSize",
    "redrive_policy": "RedrivePolicy",
    "fifo_queue": "FifoQueue",
    "content_based_deduplication": "ContentBasedDeduplication",
}
QUEUE_ARGUMENTS: dict[str, dict[str, str]] = {
    "aws_sqs_queue": {
        **_COMMON_ARGUMENTS,
        "deduplication_scope": "DeduplicationScope",
        "fifo_throughput_limit": "FifoThroughputLimit",
        "redrive_allow_policy": "RedriveAllowPolicy",
        "policy": "Policy",
        "kms_master_key_id": "KmsMasterKeyId",
        "kms_data_key_reuse_period_seconds": "KmsDataKeyReusePeriodSeconds",
        "sqs_managed_sse_enabled": "SqsManagedSseEnabled",
    },
    "yandex_message_queue": dict(_COMMON_ARGUMENTS),
}
# Arguments that do not change the queue the fake makes (credentials, meta-arguments).
# ("//" is a comment key in .tf.json.)
_IGNORED_ARGUMENTS = {
    "depends_on",
    "provider",
    "lifecycle",
    "timeouts",
    "access_key",
    "secret_key",
    "//",
}
_REGION_ARGUMENT = {"aws_sqs_queue": "region", "yandex_message_queue": "region_id"}
# The policy resources: the argument they set on the queue named by `queue_url`.
POLICY_RESOURCES = {
    "aws_sqs_queue_policy": ("policy", "Policy"),
    "aws_sqs_queue_redrive_policy": ("redrive_policy", "RedrivePolicy"),
    "aws_sqs_queue_redrive_allow_policy": ("redrive_allow_policy", "RedriveAllowPolicy"),
}
QUEUE_REFERENCE_ATTRIBUTES = {
    "aws_sqs_queue": ("arn", "id", "url", "name"),
    "yandex_message_queue": ("arn", "id", "name"),
}


class TerraformReader:
    """Resolves references over a module and turns its queue resources into declarations."""

    def __init__(
        self, module: Module, variables: Mapping[str, Any], addresses: QueueAddresses
    ) -> None:
        self.module = module
        self.variables = variables
        self.addresses = addresses
        self.evaluator = Evaluator(self)
        self._names: dict[tuple[str, str], str] = {}
        self._locals: dict[str, Any] = {}
        self._evaluating: list[str] = []

    def queues(self) -> list[DeclaredQueue]:
        declared = {
            key: self._queue(block)
            for key, block in self.module.resources.items()
            if key[0] in QUEUE_TYPES
        }
        by_url = {self.addresses.url(q.name): q for q in declared.values()}
        for (kind, _label), block in self.module.resources.items():
            if kind in POLICY_RESOURCES:
                self._policy_resource(block, by_url)
        return list(declared.values())

    # -- queue resources ------------------------------------------------------------------------

    def _queue(self, block: Block) -> DeclaredQueue:
        kind = block.labels[0]
        if kind == "yandex_message_queue" and self.addresses.flavor != "ymq":
            raise IacError(
                f"{block.location}: {block.address}: Yandex Message Queue resources need the "
                "fakesqs option flavor='ymq'"
            )
        self._refuse_meta_arguments(block)
        arguments = QUEUE_ARGUMENTS[kind]
        region_argument = _REGION_ARGUMENT[kind]
        known = {*arguments, "name", "name_prefix", "tags", region_argument, *_IGNORED_ARGUMENTS}
        unknown = sorted(set(block.attributes) - known) + sorted(
            b.kind for b in block.blocks if b.kind not in _IGNORED_ARGUMENTS
        )
        if unknown:
            raise IacError(
                f"{block.location}: {block.address}: unsupported argument"
                f"{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; "
                f"the fake reads {', '.join(sorted({*arguments, 'name', 'tags', region_argument}))}"
            )
        if region_argument in block.attributes:
            self._check_region(block, block.attributes[region_argument])
        queue = DeclaredQueue(self.queue_name(block), block.address, block.location)
        for argument, attribute in arguments.items():
            expression = block.attributes.get(argument)
            if expression is None:
                continue
            value = self.evaluator.evaluate(expression)
            if value is not None:
                queue.attributes[attribute] = attribute_text(value)
        if "tags" in block.attributes:
            tags = self.evaluator.evaluate(block.attributes["tags"])
            if not isinstance(tags, dict):
                raise IacError(f"{block.attributes['tags'].location}: tags must be a map")
            queue.tags = {str(k): attribute_text(v) for k, v in tags.items()}
        return queue

    def _refuse_meta_arguments(self, block: Block) -> None:
        for meta in ("count", "for_each"):
            if meta in block.attributes:
                raise IacError(
                    f"{block.attributes[meta].location}: {block.address}: {meta} is not "
                    "supported: the fake makes one queue per resource; declare the queues "
                    "with queues= instead"
                )

    def _check_region(self, block: Block, expression: Expression) -> None:
        region = self.evaluator.evaluate(expression)
        if region is not None and region != self.addresses.region:
            raise IacError(
                f"{expression.location}: {block.address}: region {region!r} is not the fake's "
                f"region {self.addresses.region!r}; set the fakesqs option region={region!r}"
            )

    def queue_name(self, block: Block) -> str:
        key = (block.labels[0], block.labels[1])
        if key not in self._names:
            if "name_prefix" in block.attributes:
                raise IacError(
                    f"{block.attributes['name_prefix'].location}: {block.address}: name_prefix "
                    "gives the queue a random name a test cannot know; set name instead"
                )
            expression = block.attributes.get("name")
            if expression is None:
                name = block.labels[1]  # no name: the resource label stands in (documented)
                fifo = block.attributes.get("fifo_queue")
                if fifo is not None and self.evaluator.evaluate(fifo) in (True, "true"):
                    name = name if name.endswith(".fifo") else f"{name}.fifo"
            else:
                name = self._guarded(block.address + ".name", expression)
                if not isinstance(name, str):
                    raise IacError(f"{expression.location}: {block.address}: name must be a string")
            self._names[key] = name
        return self._names[key]

    def _policy_resource(self, block: Block, by_url: Mapping[str, DeclaredQueue]) -> None:
        argument, attribute = POLICY_RESOURCES[block.labels[0]]
        self._refuse_meta_arguments(block)
        queue_url = block.attributes.get("queue_url")
        policy = block.attributes.get(argument)
        if queue_url is None or policy is None:
            raise IacError(f"{block.location}: {block.address}: needs queue_url and {argument}")
        url = self.evaluator.evaluate(queue_url)
        queue = by_url.get(url) if isinstance(url, str) else None
        if queue is None:
            raise IacError(
                f"{queue_url.location}: {block.address}: queue_url {queue_url.text()} is not a "
                "queue declared in the files read"
            )
        queue.attributes[attribute] = attribute_text(self.evaluator.evaluate(policy))

    # -- references -----------------------------------------------------------------------------

    def resolve(self, root: str, steps: list[Step], where: Expression) -> Any:
        if root == "var":
            return apply_steps(self._variable(str(steps[0]), where), steps[1:], where)
        if root == "local":
            return apply_steps(self._local(str(steps[0]), where), steps[1:], where)
        if root == "module":
            raise unresolvable(
                where,
                "the fake does not read module outputs; declare the queue in the files "
                "queues_from reads, or with queues=",
            )
        if root == "data":
            raise unresolvable(
                where,
                "the fake does not read data sources; write the value in the file (a string, "
                "jsonencode(...) or a heredoc), or declare the queue with queues=",
            )
        if root in QUEUE_TYPES and len(steps) >= 2:
            return apply_steps(self._queue_attribute(root, steps, where), steps[2:], where)
        if root == "aws_sns_topic" and len(steps) == 2 and steps[1] in ("arn", "name"):
            return self._topic(str(steps[0]), str(steps[1]), where)
        if not steps:
            raise unresolvable(where, f"{root} is not a value the fake knows")
        if root in POLICY_RESOURCES or "_" in root:
            raise unresolvable(
                where,
                f"the fake reads only queue resources ({', '.join(QUEUE_TYPES)}) "
                "and aws_sns_topic ARNs",
            )
        raise unresolvable(where, f"{root}.* is not supported in queue definitions")

    def _topic(self, label: str, attribute: str, where: Expression) -> str:
        # Queue policies name the topics that may send: their ARN is known from the name.
        block = self.module.resources.get(("aws_sns_topic", label))
        if block is None:
            raise unresolvable(where, f'no aws_sns_topic "{label}" in the files read')
        name = block.attributes.get("name")
        topic = label if name is None else str(self.evaluator.evaluate(name))
        if attribute == "name":
            return topic
        return f"arn:aws:sns:{self.addresses.region}:{self.addresses.account_id}:{topic}"

    def _variable(self, name: str, where: Expression) -> Any:
        block = self.module.variables.get(name)
        if name in self.variables:
            return _typed(self.variables[name], block)
        if block is None:
            raise unresolvable(where, f'no variable "{name}" is declared')
        default = block.attributes.get("default")
        if default is None:
            raise unresolvable(
                where, f"the variable has no default; pass queues_from_vars={{{name!r}: ...}}"
            )
        return self.evaluator.evaluate(default)

    def _local(self, name: str, where: Expression) -> Any:
        if name not in self._locals:
            expression = self.module.locals.get(name)
            if expression is None:
                raise unresolvable(where, f"no locals block gives local.{name} a value")
            self._locals[name] = self._guarded(f"local.{name}", expression)
        return self._locals[name]

    def _guarded(self, address: str, expression: Expression) -> Any:
        """`expression`'s value, refusing one that needs itself (a name built from its own)."""
        if address in self._evaluating:
            cycle = " -> ".join([*self._evaluating[self._evaluating.index(address) :], address])
            raise IacError(f"{expression.location}: references form a cycle: {cycle}")
        self._evaluating.append(address)
        try:
            return self.evaluator.evaluate(expression)
        finally:
            self._evaluating.pop()

    def _queue_attribute(self, kind: str, steps: list[Step], where: Expression) -> Any:
        label, attribute = str(steps[0]), str(steps[1])
        block = self.module.resources.get((kind, label))
        if block is None:
            raise unresolvable(where, f'no {kind} "{label}" in the files read')
        name = self.queue_name(block)
        if attribute == "arn":
            return self.addresses.arn(name)
        if attribute in ("id", "url") and attribute in QUEUE_REFERENCE_ATTRIBUTES[kind]:
            return self.addresses.url(name)
        if attribute == "name":
            return name
        expression = block.attributes.get(attribute)
        if expression is not None and attribute in QUEUE_ARGUMENTS[kind]:
            return self.evaluator.evaluate(expression)
        raise unresolvable(
            where,
            f"{kind} has no attribute {attribute} the fake knows "
            f"({', '.join(QUEUE_REFERENCE_ATTRIBUTES[kind])} or an argument set in the file)",
        )


def _typed(value: Any, block: Block | None) -> Any:
    """A value given as text (`--queues-from-var n=5`) as the variable's declared type."""
    if block is None or not isinstance(value, str) or "type" not in block.attributes:
        return value
    declared = block.attributes["type"]
    kind = declared.text()
    if kind == "number":
        try:
            return tonumber(value)
        except ValueError:
            raise IacError(
                f"{declared.location}: variable {block.labels[0]} is a number; got {value!r}"
            ) from None
    if kind == "bool" and value in ("true", "false"):
        return value == "true"
    return value


def read_terraform(
    files: list[tuple[Path, str]], variables: Mapping[str, Any], addresses: QueueAddresses
) -> list[DeclaredQueue]:
    """The queues a set of Terraform files (one module) declares."""
    module = Module()
    for path, shown in files:
        for block in read_tf(path, shown):
            module.add(block)
    return TerraformReader(module, variables, addresses).queues()
