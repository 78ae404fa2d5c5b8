"""Receipt handles and ids: opaque to clients, cheap to make.

Handles are decodable so a stale one can be told from garbage, and unique within the process by
a counter; a random per-process salt keeps them from looking sequential. Message ids are random
version-4 UUIDs, as AWS's look, drawn from a generator seeded per fake (`MessageIds`), so a test
that pins its seed gets the same ids on every run.
"""

from __future__ import annotations

import binascii
import itertools
import os
import random
import uuid

_PREFIX = "AQEB"  # real SQS handles start like this; clients sometimes log them
_counter = itertools.count(1)
_SALT = os.urandom(6).hex()
# A random version-4 UUID's last 28 characters ("-4-4-4-12") after 8 hex digits that differ per
# id: reports shorten ids to their first 8 characters, so those must tell messages apart.
_ID_SUFFIX = str(uuid.uuid4())[8:]
_SCRAMBLE = 0x9E3779B1  # odd, so multiplying is a bijection mod 2**32: distinct, not sequential
# Counts k * _SCRAMBLE from a random k, so the n-th id is (k + n) * _SCRAMBLE mod 2**32 with an
# addition (itertools.count steps atomically under the GIL) instead of a multiplication.
_id_counter = itertools.count(int.from_bytes(os.urandom(4), "big") * _SCRAMBLE, _SCRAMBLE)


def new_message_id() -> str:
    """A UUID-shaped id, unique among 2**32 in this process (uuid4() per id costs ~10x more);
    for request ids, which nobody compares. Message ids come from `MessageIds`."""
    # %-formatting parses "08x" faster than an f-string's format spec: ids are made per message.
    return "%08x%s" % (next(_id_counter) & 0xFFFFFFFF, _ID_SUFFIX)  # noqa: UP031


# The version-4 UUID layout: version nibble 4 (bits 76-79), variant bits 10 (bits 62-63).
_KEEP = ~((0xF << 76) | (0x3 << 62)) & ((1 << 128) - 1)
_SET = (0x4 << 76) | (0x2 << 62)


class MessageIds:
    """Message ids that look like AWS's (random version-4 UUIDs), reproducible from a seed.

    One getrandbits(128) and one format per id: as cheap as the counter-based ids they replace
    (uuid.uuid4() costs about three times more, and cannot be seeded)."""

    __slots__ = ("_bits",)

    def __init__(self, seed: int | None = None) -> None:
        # Its own generator, so drawing ids never shifts the fault plan's seeded choices.
        generator = random.Random(f"message-ids:{seed}") if seed is not None else random.Random()
        self._bits = generator.getrandbits

    def __call__(self) -> str:
        return self.many(1)[0]

    def many(self, count: int) -> list[str]:
        """`count` new ids in one call: a batch of ten pays one call, not ten."""
        bits = self._bits
        # bytes.hex() writes the 32 digits "%032x" writes, in a third of the time.
        hexes = [(bits(128) & _KEEP | _SET).to_bytes(16, "big").hex() for _ in range(count)]
        return [f"{d[:8]}-{d[8:12]}-{d[12:16]}-{d[16:20]}-{d[20:]}" for d in hexes]


def new_handles(queue_uid: str, message_ids: list[str]) -> list[str]:
    """A new handle for each id, in one call: a receive of ten pays one call, not ten."""
    count, encode = _counter, binascii.b2a_base64
    # The counter goes last: histories show a handle's last 8 characters, so those must differ.
    return [
        _PREFIX + encode(f"{queue_uid}|{i}|{_SALT}|{next(count)}".encode(), newline=False).decode()
        for i in message_ids
    ]


def decode_handle(handle: str) -> tuple[str, str] | None:
    """(queue_uid, message_id), or None when the handle was never issued by this engine."""
    if not isinstance(handle, str) or not handle.startswith(_PREFIX):
        return None
    try:
        raw = binascii.a2b_base64(handle[len(_PREFIX) :], strict_mode=True).decode()
    except (binascii.Error, UnicodeError, ValueError):
        return None
    parts = raw.split("|")
    if len(parts) != 4:
        return None
    return parts[0], parts[1]
