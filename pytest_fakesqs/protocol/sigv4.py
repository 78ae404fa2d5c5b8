"""AWS Signature Version 4 verification of a wire request (opt-in: `verify_signatures`).

Follows the SigV4 spec: canonical request → string to sign → HMAC chain over the secret.
Only the `Authorization` header form is checked (every SDK signs SQS calls that way).
"""

from __future__ import annotations

import hashlib
import hmac
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import quote, unquote, urlsplit

from ..api.error_texts import ErrorText
from .base import WireRequest

ALGORITHM = "AWS4-HMAC-SHA256"
_FIELD = re.compile(r"(\w+)=([^,\s]*)")
_DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True, slots=True)
class Authorization:
    """The parts of an `Authorization: AWS4-HMAC-SHA256 ...` header."""

    access_key: str
    scope: str  # date/region/service/aws4_request
    signed_headers: tuple[str, ...]
    signature: str


def parse_authorization(header: str) -> Authorization:
    algorithm, _, rest = header.strip().partition(" ")
    if algorithm != ALGORITHM:
        raise ErrorText.INCOMPLETE_SIGNATURE()
    fields = dict(_FIELD.findall(rest))
    credential = fields.get("Credential", "")
    access_key, _, scope = credential.partition("/")
    signed = fields.get("SignedHeaders", "")
    signature = fields.get("Signature", "")
    if not access_key or scope.count("/") != 3 or not signed or not signature:
        raise ErrorText.INCOMPLETE_SIGNATURE()
    return Authorization(access_key, scope, tuple(signed.split(";")), signature)


def canonical_request(request: WireRequest, signed_headers: tuple[str, ...]) -> str:
    parts = urlsplit(request.url)
    lines = "".join(f"{name}:{_header_value(request, name)}\n" for name in signed_headers)
    payload_hash = (
        request.headers.get("x-amz-content-sha256") or hashlib.sha256(request.body).hexdigest()
    )
    return "\n".join(
        [
            request.method.upper(),
            quote(_normalized_path(parts.path), safe="/~"),
            _canonical_query(parts.query),
            lines,
            ";".join(signed_headers),
            payload_hash,
        ]
    )


def string_to_sign(amz_date: str, scope: str, canonical: str) -> str:
    digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    return f"{ALGORITHM}\n{amz_date}\n{scope}\n{digest}"


def signature(secret_key: str, scope: str, to_sign: str) -> str:
    key = ("AWS4" + secret_key).encode("utf-8")
    for part in scope.split("/"):
        key = hmac.new(key, part.encode("utf-8"), hashlib.sha256).digest()
    return hmac.new(key, to_sign.encode("utf-8"), hashlib.sha256).hexdigest()


class SignatureVerifier:
    """Refuses requests not signed with one of `credentials` (access key id → secret key)."""

    def __init__(self, credentials: Mapping[str, str]) -> None:
        self.credentials = dict(credentials)

    def __call__(self, request: WireRequest) -> None:
        header = request.headers.get("authorization")
        if not header:
            raise ErrorText.MISSING_TOKEN()
        auth = parse_authorization(header)
        secret_key = self.credentials.get(auth.access_key)
        if secret_key is None:
            raise ErrorText.INVALID_TOKEN()
        canonical = canonical_request(request, auth.signed_headers)
        to_sign = string_to_sign(request.headers.get("x-amz-date", ""), auth.scope, canonical)
        expected = signature(secret_key, auth.scope, to_sign)
        if not hmac.compare_digest(expected, auth.signature):
            # AWS appends what it computed, which is what a user needs to find the difference.
            raise ErrorText.SIGNATURE_MISMATCH(canonical=canonical, to_sign=to_sign)


def _header_value(request: WireRequest, name: str) -> str:
    value = request.headers.get(name)
    if value is None and name == "host":
        value = _host_from_url(request.url)  # in-process requests carry no Host header yet
    return " ".join((value or "").split())


def _host_from_url(url: str) -> str:
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port is not None and parts.port != _DEFAULT_PORTS.get(parts.scheme):
        return f"{host}:{parts.port}"
    return host


def _normalized_path(path: str) -> str:
    if not path:
        return "/"
    normalized = posixpath.normpath(path)
    if normalized.startswith("//"):
        normalized = "/" + normalized.lstrip("/")
    if path.endswith("/") and normalized != "/":
        normalized += "/"
    return normalized


def _canonical_query(query: str) -> str:
    pairs = []
    for item in query.split("&") if query else []:
        key, _, value = item.partition("=")
        pairs.append((quote(unquote(key), safe="-_.~"), quote(unquote(value), safe="-_.~")))
    return "&".join(f"{key}={value}" for key, value in sorted(pairs))
