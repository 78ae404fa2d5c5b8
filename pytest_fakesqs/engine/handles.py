"""Receipt handles: opaque to clients, but decodable so a stale one can be told from garbage."""

from __future__ import annotations

import base64
import binascii
import itertools
import os

_PREFIX = "AQEB"  # real SQS handles start like this; clients sometimes log them
_counter = itertools.count(1)


def new_handle(queue_uid: str, message_id: str) -> str:
    raw = f"{queue_uid}|{message_id}|{next(_counter)}|{os.urandom(6).hex()}".encode()
    return _PREFIX + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_handle(handle: str) -> tuple[str, str] | None:
    """(queue_uid, message_id), or None when the handle was never issued by this engine."""
    if not isinstance(handle, str) or not handle.startswith(_PREFIX):
        return None
    encoded = handle[len(_PREFIX) :]
    try:
        raw = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    parts = raw.split("|")
    if len(parts) != 4:
        return None
    return parts[0], parts[1]
