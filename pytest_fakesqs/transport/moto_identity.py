"""Credentials moto issued (STS AssumeRole and friends, IAM CreateAccessKey) belong to the
account moto issued them for, as on AWS.

moto records every key it issues in its IAM backend of that account (`access_keys`, keyed by
the access key id; STS's temporary `ASIA...` keys too, via `create_temp_access_key`), and each
assumed-role session in the STS backend of the role's account (`assumed_roles`). Read only;
when moto was never imported, it issued nothing and this costs a dictionary lookup.
"""

from __future__ import annotations

import sys
from typing import Any

from ..api.principals import Principal, iam_user


def _backends(module: Any, name: str) -> list[tuple[str, Any]]:
    found = []
    for account_id, by_partition in list(getattr(module, name, {}).items()):
        for backend in list(by_partition.values()):
            found.append((str(account_id), backend))
    return found


def issued_principal(access_key: str) -> Principal | None:
    """The principal moto issued `access_key` to, or None when moto did not issue it."""
    iam = sys.modules.get("moto.iam.models")
    if iam is None:
        return None
    sts = sys.modules.get("moto.sts.models")
    if sts is not None:
        for _account_id, backend in _backends(sts, "sts_backends"):
            for role in list(getattr(backend, "assumed_roles", ())):
                if getattr(role, "access_key_id", None) == access_key:
                    return Principal(str(role.account_id), str(role.arn), str(role.user_id))
    for account_id, backend in _backends(iam, "iam_backends"):
        key = getattr(backend, "access_keys", {}).get(access_key)
        if key is not None:
            return iam_user(access_key, account_id, getattr(key, "user_name", None))
    return None
