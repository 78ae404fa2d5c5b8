"""Generated malformed requests for both wire protocols, from one seeded generator.

Each case says whether it is malformed for sure (`must_fail`): then only a 4xx will do. Other
cases are plausible requests with some values replaced by garbage; they may succeed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from botocore.model import ListShape, MapShape, OperationModel, Shape, StructureShape
from botocore.serialize import QuerySerializer

from pytest_fakesqs.protocol import WireRequest

from ..query_era import query_model

ENDPOINT = "https://sqs.us-east-1.amazonaws.com/"
JSON_HEADERS = {"content-type": "application/x-amz-json-1.0"}
FORM_HEADERS = {"content-type": "application/x-www-form-urlencoded"}
MODEL = query_model()
ACTIONS = sorted(MODEL.operation_names)
# Control characters, a lone surrogate, non-characters, markup and form syntax.
_EXOTIC = "aZ09-_.:/%&=+\u00e9\u4e2d\x00\x01\t\n\ufffe\ud800\U0001f600<>\"'"
BAD_ACTIONS = ["", "Unknown", "sendmessage", "SendMessage ", "../SendMessage", "X" * 300, "\u00e9"]


@dataclass
class Case:
    kind: str
    request: WireRequest
    must_fail: bool


class Fuzzer:
    """Makes requests; `targets` holds real queue URLs and receipt handles to aim at."""

    def __init__(self, seed: int, targets: list[str]) -> None:
        self.rng = random.Random(seed)
        self.targets = targets
        self.action = ""  # the action being generated

    # -- values --------------------------------------------------------------------------------

    def text(self) -> str:
        rng = self.rng
        roll = rng.random()
        if roll < 0.25 and self.targets:
            return rng.choice(self.targets)
        if roll < 0.4:
            return rng.choice(["", " ", "0", "-1", "11", "43201", "1e3", "true", "All", "*"])
        if roll < 0.403:
            return "x" * rng.choice([257, 262_145, 1_048_577])  # past YMQ's and AWS's limits
        plain = roll < 0.9
        alphabet = "abcXYZ019-_." if plain else _EXOTIC
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))

    def member_value(self, name: str, shape: Shape, depth: int) -> Any:
        """Aim the names that lead deeper (queue URLs, handles) at real targets mostly."""
        urls = [t for t in self.targets if t.startswith("https://")]
        handles = [t for t in self.targets if t.startswith("AQEB")]
        roll = self.rng.random()
        if name == "QueueUrl" and urls and roll < 0.8 and self.action != "DeleteQueue":
            return self.rng.choice(urls)
        if name == "ReceiptHandle" and handles and roll < 0.6:
            return self.rng.choice(handles)
        return self.typed(shape, depth + 1)

    def garbage(self, depth: int = 0) -> Any:
        rng = self.rng
        roll = rng.random()
        if roll < 0.3:
            return self.text()
        if roll < 0.5:
            return rng.choice([0, -1, 1, 10, 11, 2**31, 2**63, 10**30, -(10**30)])
        if roll < 0.55:
            return rng.choice([1.5, -0.0, float("nan"), float("inf"), 1e308])
        if roll < 0.62:
            return rng.choice([True, False, None])
        if depth > 2:
            return self.text()
        if roll < 0.8:
            return [self.garbage(depth + 1) for _ in range(rng.randint(0, 12))]
        return {self.text(): self.garbage(depth + 1) for _ in range(rng.randint(0, 5))}

    def typed(self, shape: Shape, depth: int = 0) -> Any:
        """A value of the modelled type (random content), or sometimes garbage of any type."""
        rng = self.rng
        if rng.random() < 0.1 or depth > 4:
            return self.garbage()
        if isinstance(shape, StructureShape):
            members = list(shape.members.items())
            required = set(shape.required_members)
            chosen = [m for m in members if rng.random() < (0.95 if m[0] in required else 0.6)]
            value = {name: self.member_value(name, member, depth) for name, member in chosen}
            if rng.random() < 0.1:
                value[self.text() or "Unknown"] = self.garbage()
            return value
        if isinstance(shape, ListShape):
            return [self.typed(shape.member, depth + 1) for _ in range(rng.randint(0, 11))]
        if isinstance(shape, MapShape):
            return {
                self.text(): self.typed(shape.value, depth + 1) for _ in range(rng.randint(0, 11))
            }
        if shape.type_name in ("integer", "long"):
            return rng.choice([0, 1, 5, 10, 11, -1, 20, 21, 43200, 43201, 2**31])
        if shape.type_name == "boolean":
            return rng.random() < 0.5
        return self.text()

    # -- JSON ----------------------------------------------------------------------------------

    def json_case(self) -> Case:
        rng = self.rng
        action = self.action = rng.choice(ACTIONS)
        kind = rng.choice(
            ["model"] * 6 + ["utf8", "truncated", "not-object", "deep", "bad-target", "empty"]
        )
        target = f"AmazonSQS.{action}"
        must_fail = kind in ("utf8", "not-object", "deep", "bad-target")
        document = self._json_params(MODEL.operation_model(action))
        body = json.dumps(document).encode()
        if kind == "utf8":
            cut = rng.randint(0, len(body))
            body = (
                body[:cut]
                + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80\x80"])
                + body[cut:]
            )
        elif kind == "truncated" and len(body) > 1:
            body = body[: rng.randint(1, len(body) - 1)]
            must_fail = _not_json(body)
        elif kind == "not-object":
            body = json.dumps(rng.choice([[], [1], 1, "x", None, True, 1.5])).encode()
        elif kind == "deep":
            depth = rng.choice([100, 5_000, 100_000])
            body = b'{"QueueUrl":' + b"[" * depth + b"]" * depth + b"}"
            must_fail = depth > 500  # deeper than any parser allows: SerializationException
        elif kind == "bad-target":
            target = rng.choice([f"AmazonSQS.{a}" for a in BAD_ACTIONS] + ["", "SQS.SendMessage"])
        elif kind == "empty":
            body = b""
        headers = {**JSON_HEADERS, "x-amz-target": target}
        return Case(f"json/{kind}", WireRequest("POST", ENDPOINT, headers, body), must_fail)

    def _json_params(self, operation: OperationModel) -> Any:
        shape = operation.input_shape
        if shape is None:
            return {}
        return self.typed(shape) if self.rng.random() < 0.9 else self.garbage()

    # -- query ---------------------------------------------------------------------------------

    def query_case(self) -> Case:
        rng = self.rng
        action = self.action = rng.choice(ACTIONS)
        kind = rng.choice(
            ["model"] * 6
            + ["utf8", "truncated", "no-action", "bad-action", "xml-body", "bad-index"]
        )
        fields = self._form_fields(MODEL.operation_model(action))
        must_fail = kind in ("utf8", "no-action", "bad-action", "xml-body")
        body = urlencode(fields, errors="surrogatepass").encode()
        if kind == "utf8":
            body += rng.choice([b"&QueueUrl=%FF%FE", b"&MessageBody=%C3", b"&x=\xff\xfe"])
        elif kind == "truncated":
            body = body[: rng.randint(0, len(body))] + rng.choice([b"%", b"%E", b"%E2%8", b""])
            must_fail = False
        elif kind == "no-action":
            fields.pop("Action", None)
            body = urlencode(fields, errors="surrogatepass").encode()
        elif kind == "bad-action":
            fields["Action"] = rng.choice(BAD_ACTIONS[1:])
            body = urlencode(fields, errors="surrogatepass").encode()
        elif kind == "xml-body":
            body = b'<?xml version="1.0"?><SendMessage><QueueUrl>x</QueueUrl></SendMessage'
        elif kind == "bad-index":
            index = rng.choice(["0", "-1", "99999999999", "x", "", "1.5"])
            body += (
                f"&Attribute.{index}.Name=VisibilityTimeout&Entries.member.{index}.Id=a".encode()
            )
        return Case(f"query/{kind}", WireRequest("POST", ENDPOINT, FORM_HEADERS, body), must_fail)

    def _form_fields(self, operation: OperationModel) -> dict[str, str]:
        """botocore's own query serialization of typed random params, then values scrambled."""
        params = self.typed(operation.input_shape) if operation.input_shape else {}
        try:
            serialized = QuerySerializer().serialize_to_request(
                params if isinstance(params, dict) else {}, operation
            )["body"]
        except Exception:  # the serializer refuses garbage shapes: fall back to the bare action
            serialized = {"Action": operation.name, "Version": "2012-11-05"}
        fields = {str(k): str(v) for k, v in serialized.items()}
        for name in list(fields):
            roll = self.rng.random()
            if roll < 0.1 and name not in ("Action", "Version"):
                del fields[name]
            elif roll < 0.25 and name != "Action":
                fields[name] = self.text()
        if self.rng.random() < 0.2:
            fields[self.text() or "Unknown"] = self.text()
        return fields

    def cases(self, count: int) -> Iterator[Case]:
        for index in range(count):
            yield self.json_case() if index % 2 == 0 else self.query_case()


def _not_json(body: bytes) -> bool:
    try:
        json.loads(body)
    except (ValueError, RecursionError):
        return True
    return False
