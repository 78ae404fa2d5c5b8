"""From wire to api and back: pick the codec, build the request context, render the answer."""

from __future__ import annotations

import contextvars
import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..api import RequestContext, SqsError, SqsService
from ..api.error_texts import ErrorText
from ..api.principals import Identities
from . import json10, query
from .base import DecodedRequest, WireRequest, WireResponse

_CREDENTIAL = re.compile(r"Credential=([^/,\s]+)/\d{8}/([^/,\s]+)/")
_MAX_CACHED_CONTEXTS = 256
# The call being served, per caller: a thread, or one of an event loop's requests (a context
# variable, not a thread-local, since many requests share the loop's thread). Module-level, as
# context variables should be; the handler in it says whose call it is.
_serving: contextvars.ContextVar[tuple[WireHandler, CallRecord] | None] = contextvars.ContextVar(
    "fakesqs_current_call", default=None
)


@dataclass(slots=True)
class CallRecord:
    """One SQS call as the fake answered it (for `FakeSQS.calls()` and failure reports)."""

    action: str
    params: dict[str, Any]
    protocol: str
    at: float  # on the fake's clock
    result: dict[str, Any] | None = None
    error: SqsError | None = None
    injected: bool = False
    extra: dict[str, Any] | None = None  # what a listener adds, e.g. the faults it injected
    # The JSON bodies `params` and `result` were read from and written to: a log can keep
    # these bytes and decode them when asked, instead of keeping the structures alive.
    params_json: bytes | None = None
    result_json: bytes | None = None
    # Who asked, as the request said (region, account, endpoint): for failure explanations.
    context: RequestContext | None = None

    @property
    def error_code(self) -> str | None:
        return None if self.error is None else self.error.spec.query_code


CallListener = Callable[[CallRecord], None]
# A hook that may answer instead of the service (fault injection); returns None to pass. It sees
# the request too: botocore's retry headers say which attempt of which call it is.
CallInterceptor = Callable[[DecodedRequest, RequestContext, WireRequest], SqsError | None]


class WireHandler:
    """Serves SQS requests in either wire protocol; shared by in-process and HTTP transports."""

    def __init__(
        self,
        service: SqsService,
        *,
        region: str,
        account_id: str,
        ymq_json: str = "accept",
        identities: Identities | None = None,
        authenticate: Callable[[WireRequest], None] | None = None,
    ) -> None:
        self.service = service
        self.region = region
        self.account_id = account_id
        # Where the flavor's endpoint may refuse AWS JSON (YMQ's, once): "accept" it with the
        # flavor's JSON errors, or "reject" it with HTTP 502.
        self.ymq_json = ymq_json
        self.listeners: list[CallListener] = []
        self.interceptors: list[CallInterceptor] = []
        # Checks who sent a request (SigV4 verification); raises SqsError to refuse it.
        self.authenticate = authenticate
        self._contexts: dict[tuple[str, str, str, str, str], RequestContext] = {}
        # Whose credentials are whose: the account (and principal) of every request.
        self.identities = identities if identities is not None else Identities(account_id)

    def current_call(self) -> CallRecord | None:
        """The call being served on this thread, so engine-side faults can be attributed."""
        serving = _serving.get()
        return serving[1] if serving is not None and serving[0] is self else None

    def context(self, request: WireRequest, protocol: str) -> RequestContext:
        # Contexts are immutable and a client repeats the same few: build each one once. The
        # Authorization header up to its first comma is the credential scope, the same for
        # every request of a client on a given day (the signature after it never is).
        authorization = request.headers.get("authorization", "")
        cache_key = (
            authorization.split(",", 1)[0],
            request.url,
            protocol,
            self.region,
            self.account_id,
        )
        ctx = self._contexts.get(cache_key)
        if ctx is None:
            ctx = self._new_context(authorization, request.url, protocol)
            if len(self._contexts) < _MAX_CACHED_CONTEXTS:
                self._contexts[cache_key] = ctx
        if request.delivered_by is not None:  # a service's delivery: never cached
            ctx = dataclasses.replace(
                ctx, account_id=request.delivered_by.account_id, principal=request.delivered_by
            )
        # The X-Ray trace header differs on every request, so it stays out of the cache.
        trace_header = request.headers.get("x-amzn-trace-id")
        return dataclasses.replace(ctx, trace_header=trace_header) if trace_header else ctx

    def _new_context(self, authorization: str, url: str, protocol: str) -> RequestContext:
        match = _CREDENTIAL.search(authorization)
        region = match.group(2) if match else self.region
        access_key = match.group(1) if match else None
        principal = self.identities.principal(access_key)
        parts = urlsplit(url)
        base_url = f"{parts.scheme}://{parts.netloc}" if parts.netloc else ""
        return RequestContext(
            region=region,
            account_id=principal.account_id,
            principal=principal,
            base_url=base_url,
            protocol="query" if protocol == "query" else "json",
            access_key=access_key,
        )

    def handle(self, request: WireRequest) -> WireResponse:
        # One function from request to answer: every call of every transport runs it.
        is_json = json10.is_json_request(request)
        if is_json:
            if self.ymq_json == "reject" and self.service.dialect.envelope.json_may_be_refused:
                return json10.bad_gateway()
            protocol = "json"
        else:
            protocol = "query"
        ctx = self.context(request, protocol)
        record: CallRecord | None = None
        try:
            decoded = json10.decode(request) if is_json else query.decode(request)
            record = CallRecord(
                decoded.action,
                decoded.params,
                protocol,
                self.service.broker.clock.now(),
                context=ctx,
            )
            _serving.set((self, record))
            if self.authenticate is not None and not request.from_aws_service:
                self.authenticate(request)
            for interceptor in self.interceptors:
                injected = interceptor(decoded, ctx, request)
                if injected is not None:
                    record.injected = True
                    raise injected
            result = self.service.call(decoded.action, decoded.params, ctx)
            record.result = result
            if is_json:
                response = json10.encode_result(result)
                record.params_json = request.body
                record.result_json = response.body
            else:
                response = query.encode_result(decoded.action, result)
        except SqsError as error:
            if record is not None:
                record.error = error
            response = self._encode_error(error, protocol)
        except Exception as exc:  # never let a bug escape into the client as a crash
            internal = ErrorText.INTERNAL_ERROR(detail=repr(exc))
            if record is not None:
                record.error = internal
            response = self._encode_error(internal, protocol)
        _serving.set(None)
        if record is not None:
            for listener in self.listeners:
                listener(record)
        return response

    def _encode_error(self, error: SqsError, protocol: str) -> WireResponse:
        """The error envelope of this protocol, as this flavor words it."""
        envelope = self.service.dialect.envelope
        if protocol == "json":
            if envelope.aws_json_errors:
                return json10.encode_error(error)
            return json10.encode_ydb_error(error)
        answer: WireResponse = query.encode_error(error, aws_wording=envelope.aws_query_wording)
        return answer
