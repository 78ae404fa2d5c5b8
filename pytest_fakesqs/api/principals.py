"""Who is calling: the principal behind a request's credentials, and its account.

A request's account comes from its access key: the `accounts` option maps keys to accounts; a
12-digit key id is that account's root (the convention other emulators use); a lookup (moto's
STS and IAM, when moto is in the process) knows the keys it issued; anything else is a user of
the fake's own account. Service deliveries (SNS, S3, EventBridge) come as a service principal.
"""

from __future__ import annotations

import base64
import hashlib
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

# An IAM user's unique id: "AIDA" and 17 of these (AWS docs, IAM identifiers).
_ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"  # base32: uppercase letters and digits
USER_ID_PREFIX = "AIDA"


@dataclass(frozen=True, slots=True)
class Principal:
    """A caller as a policy sees it."""

    account_id: str
    # arn:aws:iam::<account>:root | :user/<name>, arn:aws:sts::<account>:assumed-role/<r>/<s>,
    # or the service's name (sns.amazonaws.com) for a service principal.
    arn: str
    principal_id: str  # what SQS reports as a sent message's SenderId
    service: str | None = None  # "sns.amazonaws.com" when a service delivers
    source_arn: str | None = None  # the topic, bucket or rule a service delivers for
    source_account: str | None = None

    @property
    def is_service(self) -> bool:
        return self.service is not None

    @property
    def role_arn(self) -> str | None:
        """For an assumed-role session, the role's own ARN (what a policy names)."""
        prefix = f"arn:aws:sts::{self.account_id}:assumed-role/"
        if not self.arn.startswith(prefix):
            return None
        role = self.arn[len(prefix) :].split("/", 1)[0]
        return f"arn:aws:iam::{self.account_id}:role/{role}"

    def describe(self) -> str:
        if self.service is not None:
            source = f" from {self.source_arn}" if self.source_arn else ""
            return f"{self.service}{source}"
        return self.arn


def root(account_id: str) -> Principal:
    """The account itself: its SenderId is the 12-digit account id."""
    return Principal(account_id, f"arn:aws:iam::{account_id}:root", account_id)


def unique_id(prefix: str, seed: str) -> str:
    """`prefix` and 17 uppercase letters and digits, the same for the same seed."""
    digest = hashlib.sha256(seed.encode("utf-8")).digest()
    return prefix + base64.b32encode(digest).decode("ascii")[:17]


def iam_user(access_key: str, account_id: str, name: str | None = None) -> Principal:
    """A user of `account_id` signing with `access_key`, named after the key unless told."""
    return Principal(
        account_id,
        f"arn:aws:iam::{account_id}:user/{name or access_key}",
        unique_id(USER_ID_PREFIX, f"{account_id}/{access_key}"),
    )


def service_principal(
    service: str, *, account_id: str, source_arn: str | None, source_account: str | None
) -> Principal:
    """A service (sns.amazonaws.com, ...) delivering for a resource of `source_account`."""
    return Principal(
        account_id,
        service,
        unique_id(USER_ID_PREFIX, service),
        service=service,
        source_arn=source_arn,
        source_account=source_account,
    )


# Answers "whose key is this?" for keys issued elsewhere (moto's STS and IAM), or None.
KeyLookup = Callable[[str], Principal | None]


def is_account_id(text: str) -> bool:
    return len(text) == 12 and text.isdigit()


class Identities:
    """Resolves access keys to principals; stable per key for the fake's lifetime."""

    def __init__(
        self,
        default_account: str,
        accounts: Mapping[str, str] | None = None,
        lookups: Sequence[KeyLookup] = (),
    ) -> None:
        self.default_account = default_account
        self.accounts = dict(accounts or {})
        self.lookups = list(lookups)
        self._known: dict[str | None, Principal] = {}
        self._lock = threading.Lock()

    def principal(self, access_key: str | None) -> Principal:
        known = self._known.get(access_key)
        if known is not None:
            return known
        found = self._resolve(access_key)
        with self._lock:
            if len(self._known) < 4096:
                self._known[access_key] = found
        return found

    def _resolve(self, access_key: str | None) -> Principal:
        if not access_key:
            return root(self.default_account)  # an unsigned request: the account itself
        mapped = self.accounts.get(access_key)
        if mapped is not None:
            return root(mapped) if mapped == access_key else iam_user(access_key, mapped)
        if is_account_id(access_key):
            return root(access_key)
        for lookup in self.lookups:
            issued = lookup(access_key)
            if issued is not None:
                return issued
        return iam_user(access_key, self.default_account)
