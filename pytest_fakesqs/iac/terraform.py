"""Terraform (`.tf`, `.tf.json`): aws_sqs_queue, yandex_message_queue and the SQS policy
resources, with variables, locals, `count`, `for_each` and references between queues."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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
# Topics only give queue policies their ARN (a topic's id is its ARN, as in the AWS provider).
TOPIC = "aws_sns_topic"
_REFERENCE_ATTRIBUTES = {**QUEUE_REFERENCE_ATTRIBUTES, TOPIC: ("arn", "id", "name")}
_META_ARGUMENTS = ("count", "for_each")


@dataclass(frozen=True)
class Instance:
    """One queue (or policy) a resource block makes: the block itself, or one of its `count`
    or `for_each` instances, with what `count.index` / `each.key` and `each.value` read."""

    block: Block
    meta: str | None = None  # "count", "for_each", or None for a plain resource
    key: int | str | None = None
    value: Any = None

    @property
    def address(self) -> str:
        if self.meta is None:
            return self.block.address
        key = self.key if self.meta == "count" else f'"{self.key}"'
        return f"{self.block.address}[{key}]"


class TerraformReader:
    """Resolves references over a module and turns its queue resources into declarations."""

    def __init__(
        self, module: Module, variables: Mapping[str, Any], addresses: QueueAddresses
    ) -> None:
        self.module = module
        self.variables = variables
        self.addresses = addresses
        self.evaluator = Evaluator(self)
        self._names: dict[str, str] = {}  # instance address -> queue name
        self._locals: dict[str, Any] = {}
        self._evaluating: list[str] = []
        self._instances: dict[str, list[Instance]] = {}  # block address -> its instances
        # The instance whose arguments are being read: what `count.*` and `each.*` mean (None:
        # a value of the module, a local or a count, where they mean nothing).
        self._within: list[Instance | None] = []

    def queues(self) -> list[DeclaredQueue]:
        declared = [
            self._queue(instance)
            for (kind, _label), block in self.module.resources.items()
            if kind in QUEUE_TYPES
            for instance in self.instances(block)
        ]
        by_url = {self.addresses.url(q.name): q for q in declared}
        for (kind, _label), block in self.module.resources.items():
            if kind in POLICY_RESOURCES:
                for instance in self.instances(block):
                    self._policy_resource(instance, by_url)
        return declared

    # -- count and for_each ---------------------------------------------------------------------

    def instances(self, block: Block) -> list[Instance]:
        """The instances `block` makes, as Terraform expands its `count` or `for_each`."""
        if block.address not in self._instances:
            self._instances[block.address] = self._expand(block)
        return self._instances[block.address]

    def _meta_argument(self, block: Block) -> str | None:
        """ "count", "for_each" or None: which of them `block` sets (not both)."""
        given = [meta for meta in _META_ARGUMENTS if meta in block.attributes]
        if len(given) > 1:
            raise IacError(
                f"{block.location}: {block.address}: count and for_each cannot both be set"
            )
        return given[0] if given else None

    def _expand(self, block: Block) -> list[Instance]:
        meta = self._meta_argument(block)
        if meta is None:
            return [Instance(block)]
        expression = block.attributes[meta]
        value = self._reading(None, expression, address=f"{block.address}.{meta}")
        where = f"{expression.location}: {block.address}:"
        if meta == "count":
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise IacError(f"{where} count must be a whole number, 0 or more; got {value!r}")
            return [Instance(block, "count", index) for index in range(value)]
        if isinstance(value, dict):
            return [Instance(block, "for_each", str(k), value[k]) for k in sorted(value)]
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            return [Instance(block, "for_each", item, item) for item in sorted(set(value))]
        raise IacError(f"{where} for_each must be a map or a set of strings; got {value!r}")

    def _each(self, root: str, steps: list[Step], where: Expression) -> Any:
        """`count.index`, `each.key` or `each.value` of the instance being read."""
        instance = self._within[-1] if self._within else None
        wanted = "count" if root == "count" else "for_each"
        if instance is None or instance.meta != wanted:
            raise unresolvable(where, f"{root}.* is only known inside a resource with {wanted}")
        names = ("index",) if root == "count" else ("key", "value")
        if not steps or steps[0] not in names:
            raise unresolvable(where, f"{root} has {' and '.join(names)}")
        value = instance.key if steps[0] in ("index", "key") else instance.value
        return apply_steps(value, steps[1:], where)

    def _reading(
        self, instance: Instance | None, expression: Expression, *, address: str | None = None
    ) -> Any:
        """`expression`'s value, read as an argument of `instance` (None: of no resource); with
        an `address`, refusing a value that needs itself."""
        self._within.append(instance)
        try:
            if address is not None:
                return self._guarded(address, expression)
            return self.evaluator.evaluate(expression)
        finally:
            self._within.pop()

    # -- queue resources ------------------------------------------------------------------------

    def _queue(self, instance: Instance) -> DeclaredQueue:
        block = instance.block
        kind = block.labels[0]
        if kind == "yandex_message_queue" and self.addresses.flavor != "ymq":
            raise IacError(
                f"{block.location}: {block.address}: Yandex Message Queue resources need the "
                "fakesqs option flavor='ymq'"
            )
        arguments = QUEUE_ARGUMENTS[kind]
        region_argument = _REGION_ARGUMENT[kind]
        known = {
            *arguments,
            *_META_ARGUMENTS,
            "name",
            "name_prefix",
            "tags",
            region_argument,
            *_IGNORED_ARGUMENTS,
        }
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
            self._check_region(instance, block.attributes[region_argument])
        queue = DeclaredQueue(self.queue_name(instance), instance.address, block.location)
        for argument, attribute in arguments.items():
            expression = block.attributes.get(argument)
            if expression is None:
                continue
            value = self._reading(instance, expression)
            if value is not None:
                queue.attributes[attribute] = attribute_text(value)
        if "tags" in block.attributes:
            tags = self._reading(instance, block.attributes["tags"])
            if not isinstance(tags, dict):
                raise IacError(f"{block.attributes['tags'].location}: tags must be a map")
            queue.tags = {str(k): attribute_text(v) for k, v in tags.items()}
        return queue

    def _check_region(self, instance: Instance, expression: Expression) -> None:
        region = self._reading(instance, expression)
        if region is not None and region != self.addresses.region:
            raise IacError(
                f"{expression.location}: {instance.address}: region {region!r} is not the "
                f"fake's region {self.addresses.region!r}; set the fakesqs option "
                f"region={region!r}"
            )

    def queue_name(self, instance: Instance) -> str:
        block = instance.block
        if instance.address not in self._names:
            if "name_prefix" in block.attributes:
                raise IacError(
                    f"{block.attributes['name_prefix'].location}: {block.address}: name_prefix "
                    "gives the queue a random name a test cannot know; set name instead"
                )
            expression = block.attributes.get("name")
            if expression is None and instance.meta is not None:
                key = "count.index" if instance.meta == "count" else "each.key"
                raise IacError(
                    f"{block.location}: {block.address}: a queue made by {instance.meta} needs "
                    f'a name (Terraform would make random ones), e.g. name = "{block.labels[1]}-'
                    f'${{{key}}}"'
                )
            if expression is None:
                name = block.labels[1]  # no name: the resource label stands in (documented)
                fifo = block.attributes.get("fifo_queue")
                if fifo is not None and self._reading(instance, fifo) in (True, "true"):
                    name = name if name.endswith(".fifo") else f"{name}.fifo"
            else:
                name = self._reading(instance, expression, address=instance.address + ".name")
                if not isinstance(name, str):
                    raise IacError(
                        f"{expression.location}: {instance.address}: name must be a string"
                    )
            self._names[instance.address] = name
        return self._names[instance.address]

    def _policy_resource(self, instance: Instance, by_url: Mapping[str, DeclaredQueue]) -> None:
        block = instance.block
        argument, attribute = POLICY_RESOURCES[block.labels[0]]
        queue_url = block.attributes.get("queue_url")
        policy = block.attributes.get(argument)
        if queue_url is None or policy is None:
            raise IacError(f"{block.location}: {block.address}: needs queue_url and {argument}")
        url = self._reading(instance, queue_url)
        queue = by_url.get(url) if isinstance(url, str) else None
        if queue is None:
            raise IacError(
                f"{queue_url.location}: {instance.address}: queue_url {queue_url.text()} is not "
                "a queue declared in the files read"
            )
        queue.attributes[attribute] = attribute_text(self._reading(instance, policy))

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
        if root in ("count", "each"):
            return self._each(root, steps, where)
        if (root in QUEUE_TYPES or root == TOPIC) and steps:
            return self._resource_attribute(root, steps, where)
        if not steps:
            raise unresolvable(where, f"{root} is not a value the fake knows")
        if root in POLICY_RESOURCES or "_" in root:
            raise unresolvable(
                where,
                f"the fake reads only queue resources ({', '.join(QUEUE_TYPES)}) "
                "and aws_sns_topic ARNs",
            )
        raise unresolvable(where, f"{root}.* is not supported in queue definitions")

    def _topic_attribute(self, instance: Instance, attribute: str, where: Expression) -> str:
        # Queue policies name the topics that may send: their ARN is known from the name.
        name = instance.block.attributes.get("name")
        topic = instance.block.labels[1] if name is None else str(self._reading(instance, name))
        if attribute == "name":
            return topic
        if attribute in ("arn", "id"):
            return f"arn:aws:sns:{self.addresses.region}:{self.addresses.account_id}:{topic}"
        raise unresolvable(where, f"the fake knows an {TOPIC}'s arn, id and name only")

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
        return self._reading(None, default)

    def _local(self, name: str, where: Expression) -> Any:
        if name not in self._locals:
            expression = self.module.locals.get(name)
            if expression is None:
                raise unresolvable(where, f"no locals block gives local.{name} a value")
            self._locals[name] = self._reading(None, expression, address=f"local.{name}")
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

    def _resource_attribute(self, kind: str, steps: list[Step], where: Expression) -> Any:
        label = str(steps[0])
        block = self.module.resources.get((kind, label))
        if block is None:
            raise unresolvable(where, f'no {kind} "{label}" in the files read')
        if len(steps) == 1:  # the resource itself: `for_each = aws_sqs_queue.work`
            return self._whole(block, where)
        instance, rest = self._instance_named(block, steps[1:], where)
        if not rest:
            return self._object(instance, where)
        attribute = str(rest[0])
        return apply_steps(self._attribute_of(instance, attribute, where), rest[1:], where)

    def _whole(self, block: Block, where: Expression) -> Any:
        """A resource as a value: its object, or a list (count) or map (for_each) of them."""
        instances = self.instances(block)
        meta = self._meta_argument(block)
        if meta == "count":
            return [self._object(instance, where) for instance in instances]
        if meta == "for_each":
            return {str(instance.key): self._object(instance, where) for instance in instances}
        return self._object(instances[0], where)

    def _object(self, instance: Instance, where: Expression) -> dict[str, Any]:
        """An instance as an object: the attributes a reference may read from it."""
        kind = instance.block.labels[0]
        return {
            attribute: self._attribute_of(instance, attribute, where)
            for attribute in _REFERENCE_ATTRIBUTES[kind]
        }

    def _instance_named(
        self, block: Block, steps: list[Step], where: Expression
    ) -> tuple[Instance, list[Step]]:
        """The instance a reference names (`x.arn`, `x[0].arn`, `x["a"].arn`), and the steps
        after it."""
        instances = self.instances(block)
        meta = self._meta_argument(block)
        if meta is None:
            return instances[0], steps
        step = steps[0]
        if meta == "count" and isinstance(step, str):
            raise unresolvable(
                where,
                f"{block.address} has count set: name one of its "
                f"{'topics' if block.labels[0] == TOPIC else 'queues'}, e.g. "
                f"{block.address}[0].{step}",
            )
        for instance in instances:
            if instance.key == step:
                return instance, steps[1:]
        known = ", ".join(i.address for i in instances) or "none: it makes no queue"
        raise unresolvable(
            where, f"{block.address} ({meta}) has no instance {step!r}; its instances: {known}"
        )

    def _attribute_of(self, instance: Instance, attribute: str, where: Expression) -> Any:
        block = instance.block
        kind = block.labels[0]
        if kind == TOPIC:
            return self._topic_attribute(instance, attribute, where)
        name = self.queue_name(instance)
        if attribute == "arn":
            return self.addresses.arn(name)
        if attribute in ("id", "url") and attribute in QUEUE_REFERENCE_ATTRIBUTES[kind]:
            return self.addresses.url(name)
        if attribute == "name":
            return name
        expression = block.attributes.get(attribute)
        if expression is not None and attribute in QUEUE_ARGUMENTS[kind]:
            return self._reading(instance, expression)
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
