"""MD5OfMessageBody and MD5OfMessageAttributes, by the algorithm every AWS SDK checks."""

from __future__ import annotations

import hashlib
import importlib
import struct
from collections.abc import Callable, Mapping
from typing import Protocol


class Digest(Protocol):
    def update(self, data: bytes, /) -> None: ...
    def hexdigest(self) -> str: ...


try:
    # CPython's own MD5 (the _md5 module every build has unless configured without it): 0.36 us
    # a 100-byte body where hashlib's OpenSSL one takes 0.59, and a fraction of its code, which
    # each call must fetch again after botocore's work (benchmarks/hot_path.py).
    # tests/api/test_md5.py proves it gives hashlib.md5's digests.
    md5: Callable[..., Digest] = importlib.import_module("_md5").md5
except ImportError:  # a build without it (or a FIPS one that drops it): OpenSSL's
    md5 = hashlib.md5

# name -> (DataType, value): str for String/Number types, bytes for Binary types
AttributeValues = Mapping[str, tuple[str, str | bytes]]

_STRING_TRANSPORT = b"\x01"
_BINARY_TRANSPORT = b"\x02"


def md5_of_body(body: str) -> str:
    return md5_of_encoded_body(body.encode("utf-8"))


def md5_of_encoded_body(encoded: bytes) -> str:
    """MD5OfMessageBody of a body the caller already encoded as UTF-8."""
    return md5(encoded).hexdigest()


def _length_prefixed(data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + data


def md5_of_attributes(attributes: AttributeValues) -> str:
    """Sorted by name; name, type, transport byte and value, each length-prefixed."""
    digest = md5()
    for name in sorted(attributes):
        data_type, value = attributes[name]
        digest.update(_length_prefixed(name.encode("utf-8")))
        digest.update(_length_prefixed(data_type.encode("utf-8")))
        if isinstance(value, bytes):
            digest.update(_BINARY_TRANSPORT + _length_prefixed(value))
        else:
            digest.update(_STRING_TRANSPORT + _length_prefixed(value.encode("utf-8")))
    return digest.hexdigest()
