"""CloudFormation / SAM templates and `cdk synth` output: AWS::SQS::Queue, AWS::SQS::QueuePolicy
(and QueueInlinePolicy), with Ref, Fn::GetAtt, Fn::Sub, Fn::Join, Fn::If and Parameters."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from .cfn_yaml import Located, load_template
from .model import DeclaredQueue, IacError, Location, QueueAddresses, attribute_text

QUEUE = "AWS::SQS::Queue"
TOPIC = "AWS::SNS::Topic"
# Properties that are CreateQueue attributes of the same name (the resource's full schema
# less QueueName and Tags, which are read apart).
QUEUE_PROPERTIES = (
    "ContentBasedDeduplication",
    "DeduplicationScope",
    "DelaySeconds",
    "FifoQueue",
    "FifoThroughputLimit",
    "KmsDataKeyReusePeriodSeconds",
    "KmsMasterKeyId",
    "MaximumMessageSize",
    "MessageRetentionPeriod",
    "ReceiveMessageWaitTimeSeconds",
    "RedriveAllowPolicy",
    "RedrivePolicy",
    "SqsManagedSseEnabled",
    "VisibilityTimeout",
)
QUEUE_ATTRIBUTES = ("Arn", "QueueName", "QueueUrl")
_NO_VALUE = object()  # AWS::NoValue: the property is left out
_SUB_VARIABLE = re.compile(r"\$\{([^}]*)\}")


class TemplateReader:
    """Evaluates a template's intrinsic functions against the fake's queues."""

    def __init__(
        self, template: Any, shown: str, variables: Mapping[str, Any], addresses: QueueAddresses
    ) -> None:
        if not isinstance(template, dict) or not isinstance(template.get("Resources"), dict):
            raise IacError(f"{shown}: not a CloudFormation template (no Resources section)")
        self.shown = shown
        self.variables = variables
        self.addresses = addresses
        self.resources: dict[str, Any] = template["Resources"]
        self.parameters: dict[str, Any] = template.get("Parameters") or {}
        self.conditions: dict[str, Any] = template.get("Conditions") or {}
        self.mappings: dict[str, Any] = template.get("Mappings") or {}
        self._condition_values: dict[str, bool] = {}
        self._naming: list[str] = []  # the queues whose QueueName is being evaluated

    def location(self, value: Any, fallback: int) -> Location:
        return Location(self.shown, getattr(value, "line", fallback))

    def queues(self) -> list[DeclaredQueue]:
        declared: dict[str, DeclaredQueue] = {}
        for logical_id, resource in self.resources.items():
            if self._type(resource) == QUEUE and self._exists(logical_id, resource):
                declared[logical_id] = self._queue(logical_id, resource)
        by_url = {self.addresses.url(queue.name): queue for queue in declared.values()}
        for logical_id, resource in self.resources.items():
            kind = self._type(resource)
            policy = kind in ("AWS::SQS::QueuePolicy", "AWS::SQS::QueueInlinePolicy")
            if policy and self._exists(logical_id, resource):
                self._policy(logical_id, resource, by_url)
        return list(declared.values())

    def _type(self, resource: Any) -> str | None:
        return resource.get("Type") if isinstance(resource, dict) else None

    def _exists(self, logical_id: str, resource: Mapping[str, Any]) -> bool:
        condition = resource.get("Condition")
        return condition is None or self._condition(str(condition), resource)

    def _properties(self, logical_id: str, resource: Any) -> Located:
        properties = resource.get("Properties") or Located()
        if not isinstance(properties, dict):
            raise IacError(f"{self.location(resource, 1)}: {logical_id}: Properties must be a map")
        return properties if isinstance(properties, Located) else _located(properties, resource)

    def _queue(self, logical_id: str, resource: Any) -> DeclaredQueue:
        properties = self._properties(logical_id, resource)
        where = self.location(resource, 1)
        unknown = sorted(set(properties) - {*QUEUE_PROPERTIES, "QueueName", "Tags"})
        if unknown:
            raise IacError(
                f"{where}: Resources.{logical_id}: unsupported propert"
                f"{'ies' if len(unknown) > 1 else 'y'} {', '.join(unknown)}; the fake reads "
                f"{', '.join(sorted({*QUEUE_PROPERTIES, 'QueueName', 'Tags'}))}"
            )
        queue = DeclaredQueue(self.queue_name(logical_id), f"Resources.{logical_id}", where)
        for name in QUEUE_PROPERTIES:
            if name in properties:
                value = self.value(properties[name], properties.key_lines.get(name, where.line))
                if value is not _NO_VALUE and value is not None:
                    queue.attributes[name] = attribute_text(value)
        if "Tags" in properties:
            tags = self.value(properties["Tags"], properties.key_lines.get("Tags", where.line))
            if not isinstance(tags, list) or not all(
                isinstance(tag, dict) and {"Key", "Value"} <= set(tag) for tag in tags
            ):
                raise IacError(f"{where}: Resources.{logical_id}: Tags must be a list of Key/Value")
            queue.tags = {str(tag["Key"]): attribute_text(tag["Value"]) for tag in tags}
        return queue

    def queue_name(self, logical_id: str) -> str:
        resource = self.resources[logical_id]
        properties = self._properties(logical_id, resource)
        if "QueueName" in properties:
            line = properties.key_lines.get("QueueName", 1)
            if logical_id in self._naming:
                cycle = " -> ".join([*self._naming[self._naming.index(logical_id) :], logical_id])
                raise IacError(f"{self.shown}:{line}: QueueNames form a cycle: {cycle}")
            self._naming.append(logical_id)
            try:
                name = self.value(properties["QueueName"], line)
            finally:
                self._naming.pop()
            if not isinstance(name, str):
                raise IacError(
                    f"{self.location(resource, 1)}: {logical_id}: QueueName must be a string"
                )
            return name
        # No QueueName: the logical id stands in for CloudFormation's generated name (documented).
        fifo = self.value(properties.get("FifoQueue", False), 1)
        return f"{logical_id}.fifo" if fifo in (True, "true") else logical_id

    def _policy(self, logical_id: str, resource: Any, by_url: Mapping[str, DeclaredQueue]) -> None:
        properties = self._properties(logical_id, resource)
        where = self.location(resource, 1)
        single = self._type(resource) == "AWS::SQS::QueueInlinePolicy"
        targets_key = "Queue" if single else "Queues"
        if "PolicyDocument" not in properties or targets_key not in properties:
            raise IacError(
                f"{where}: Resources.{logical_id}: needs PolicyDocument and {targets_key}"
            )
        policy = self.value(properties["PolicyDocument"], properties.key_lines["PolicyDocument"])
        targets = self.value(properties[targets_key], properties.key_lines[targets_key])
        for url in [targets] if single else targets:
            queue = by_url.get(url) if isinstance(url, str) else None
            if queue is None:
                raise IacError(
                    f"{where}: Resources.{logical_id}: {targets_key} names {url!r}, which is "
                    "not a queue declared in the template"
                )
            queue.attributes["Policy"] = attribute_text(policy)

    # -- intrinsic functions --------------------------------------------------------------------

    def value(self, node: Any, line: int) -> Any:
        if isinstance(node, list):
            items = [self.value(item, line) for item in node]
            return [item for item in items if item is not _NO_VALUE]
        if not isinstance(node, dict):
            return node
        line = getattr(node, "line", line)
        if len(node) == 1:
            ((key, argument),) = node.items()
            function = self._functions().get(key)
            if function is not None:
                return function(argument, node, line)
            if key.startswith("Fn::"):
                raise self.unresolvable(node, line, f"{key} is not supported by the fake")
        values = {key: self.value(item, line) for key, item in node.items()}
        return {key: item for key, item in values.items() if item is not _NO_VALUE}

    def _functions(self) -> dict[str, Callable[[Any, Any, int], Any]]:
        return {
            "Ref": self._ref,
            "Fn::GetAtt": self._get_att,
            "Fn::Sub": self._sub,
            "Fn::Join": lambda arg, node, line: str(self.value(arg[0], line)).join(
                str(self._text(item, node, line)) for item in self.value(arg[1], line)
            ),
            "Fn::Select": lambda arg, node, line: self.value(arg[1], line)[
                int(self.value(arg[0], line))
            ],
            "Fn::Split": lambda arg, node, line: str(self.value(arg[1], line)).split(
                str(self.value(arg[0], line))
            ),
            "Fn::FindInMap": self._find_in_map,
            "Fn::If": lambda arg, node, line: self.value(
                arg[1] if self._condition(str(arg[0]), node) else arg[2], line
            ),
        }

    def unresolvable(self, node: Any, line: int, why: str) -> IacError:
        ((key, argument),) = node.items()
        return IacError(
            f"{self.shown}:{getattr(node, 'line', line)}: cannot resolve "
            f"{key}: {json.dumps(argument, default=str)}: {why}"
        )

    def _text(self, value: Any, node: Any, line: int) -> str:
        if isinstance(value, dict | list):
            raise self.unresolvable(node, line, "a list or map cannot be part of a string")
        return attribute_text(value)

    def _ref(self, name: Any, node: Any, line: int) -> Any:
        return self._named(str(name), None, node, line)

    def _get_att(self, argument: Any, node: Any, line: int) -> Any:
        if isinstance(argument, str):
            argument = argument.split(".", 1)  # `Fn::GetAtt: Queue.Arn`, as YAML allows
        if not (isinstance(argument, list) and len(argument) == 2):
            raise self.unresolvable(node, line, "Fn::GetAtt takes [LogicalId, Attribute]")
        return self._named(str(argument[0]), str(self.value(argument[1], line)), node, line)

    def _named(self, name: str, attribute: str | None, node: Any, line: int) -> Any:
        """What `Ref: name` (attribute None) or `Fn::GetAtt: [name, attribute]` gives."""
        if attribute is None and (name in self.variables or name in self.parameters):
            return self._parameter(name, node, line)
        if attribute is None and name.startswith("AWS::"):
            return self._pseudo(name, node, line)
        resource = self.resources.get(name)
        if resource is None:
            raise self.unresolvable(node, line, f"no parameter or resource {name} in the template")
        if self._type(resource) == TOPIC and attribute in (None, "TopicArn", "TopicName"):
            # Queue policies name the topics that may send: their ARN is known from the name.
            topic = self.value(self._properties(name, resource).get("TopicName", name), line)
            return topic if attribute == "TopicName" else self.topic_arn(str(topic))
        if self._type(resource) != QUEUE:
            raise self.unresolvable(
                node,
                line,
                f"{name} is a {self._type(resource)}; the fake reads only {QUEUE} resources "
                f"(and {TOPIC} ARNs)",
            )
        queue_name = self.queue_name(name)
        if attribute is None or attribute == "QueueUrl":
            return self.addresses.url(queue_name)
        if attribute == "Arn":
            return self.addresses.arn(queue_name)
        if attribute == "QueueName":
            return queue_name
        raise self.unresolvable(
            node,
            line,
            f"{QUEUE} has no attribute {attribute} (it has {', '.join(QUEUE_ATTRIBUTES)})",
        )

    def topic_arn(self, topic: str) -> str:
        return f"arn:aws:sns:{self.addresses.region}:{self.addresses.account_id}:{topic}"

    def _parameter(self, name: str, node: Any, line: int) -> Any:
        if name in self.variables:
            return self.variables[name]
        parameter = self.parameters[name]
        kind = str(parameter.get("Type", "String")) if isinstance(parameter, dict) else "String"
        if (
            not isinstance(parameter, dict)
            or "Default" not in parameter
            or kind.startswith("AWS::SSM")
        ):
            raise self.unresolvable(
                node,
                line,
                f"parameter {name} has no Default; pass queues_from_vars={{{name!r}: ...}}",
            )
        default = parameter["Default"]
        if kind == "CommaDelimitedList" and isinstance(default, str):
            return [item.strip() for item in default.split(",")]
        return default

    def _pseudo(self, name: str, node: Any, line: int) -> Any:
        known: dict[str, Any] = {
            "AWS::Region": self.addresses.region,
            "AWS::AccountId": self.addresses.account_id,
            "AWS::Partition": "aws",
            "AWS::URLSuffix": "amazonaws.com",
            "AWS::NoValue": _NO_VALUE,
        }
        if name in known:
            return known[name]
        raise self.unresolvable(
            node, line, f"the fake has no value for {name}; pass queues_from_vars={{{name!r}: ...}}"
        )

    def _sub(self, argument: Any, node: Any, line: int) -> str:
        text, local = (argument, {}) if isinstance(argument, str) else (argument[0], argument[1])
        values = {key: self.value(item, line) for key, item in local.items()}

        def replace(match: re.Match[str]) -> str:
            variable = match.group(1).strip()
            if variable.startswith("!"):
                return "${" + variable[1:] + "}"  # `${!Literal}` is a literal `${Literal}`
            if variable in values:
                return self._text(values[variable], node, line)
            name, _, attribute = variable.partition(".")
            return self._text(self._named(name, attribute or None, node, line), node, line)

        return _SUB_VARIABLE.sub(replace, str(text))

    def _find_in_map(self, argument: Any, node: Any, line: int) -> Any:
        keys = [str(self.value(item, line)) for item in argument]
        value: Any = self.mappings
        for key in keys:
            if not isinstance(value, dict) or key not in value:
                raise self.unresolvable(node, line, f"Mappings has no {'.'.join(keys)}")
            value = value[key]
        return value

    def _condition(self, name: str, node: Any) -> bool:
        if name not in self._condition_values:
            if name not in self.conditions:
                raise IacError(f"{self.location(node, 1)}: no condition {name} in Conditions")
            self._condition_values[name] = self._truth(self.conditions[name], 1)
        return self._condition_values[name]

    def _truth(self, node: Any, line: int) -> bool:
        if isinstance(node, dict) and len(node) == 1:
            ((key, argument),) = node.items()
            line = getattr(node, "line", line)
            if key == "Fn::Equals":
                left, right = (attribute_text(self.value(item, line)) for item in argument)
                return left == right
            if key == "Fn::Not":
                return not self._truth(argument[0], line)
            if key == "Fn::And":
                return all(self._truth(item, line) for item in argument)
            if key == "Fn::Or":
                return any(self._truth(item, line) for item in argument)
            if key == "Condition":
                return self._condition(str(argument), node)
        value = self.value(node, line)
        if value in (True, "true", False, "false"):
            return value in (True, "true")
        raise IacError(f"{self.shown}:{line}: a condition must be true or false; got {value!r}")


def _located(mapping: Mapping[str, Any], parent: Any) -> Located:
    located = Located(mapping)
    located.line = getattr(parent, "line", 1)
    located.key_lines = {key: located.line for key in mapping}
    return located


def read_template(
    path: Path, shown: str, variables: Mapping[str, Any], addresses: QueueAddresses
) -> list[DeclaredQueue]:
    template = load_template(path.read_text(encoding="utf-8"), shown)
    return TemplateReader(template, shown, variables, addresses).queues()
