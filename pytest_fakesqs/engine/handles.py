"""Receipt handles and message ids: opaque to clients, cheap to make.

Handles are decodable so a stale one can be told from garbage. Both are unique within the
process by a counter; a random per-process salt keeps them from looking sequential.
"""

from __future__ import annotations

import binascii
import itertools
import os
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
    """A UUID-shaped id, unique among 2**32 in this process (uuid4() per id costs ~10x more)."""
    # %-formatting parses "08x" faster than an f-string's format spec: ids are made per message.
    return "%08x%s" % (next(_id_counter) & 0xFFFFFFFF, _ID_SUFFIX)  # noqa: UP031


def new_handle(queue_uid: str, message_id: str) -> str:
    # The counter goes last: histories show a handle's last 8 characters, so those must differ.
    raw = f"{queue_uid}|{message_id}|{_SALT}|{next(_counter)}".encode()
    return _PREFIX + binascii.b2a_base64(raw, newline=False).decode()


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
