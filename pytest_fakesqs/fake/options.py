"""The fake's options: one keyword-only signature shared by the marker, ini and `fake_sqs()`.

Adding an option is one field: its type (which also decides how the ini text is parsed), its
default, a one-line help and, when the type says too little, a `check` that raises ValueError.
"""

from __future__ import annotations

import functools
import json
import os
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from .._spelling import nearest
from ..api.context import DEFAULT_ACCOUNT_ID, DEFAULT_REGION, Flavor
from ..engine.clock import DEFAULT_AUTOJUMP_THRESHOLD, ClockMode, to_epoch
from ..engine.fault_options import StandardOrder, check_probability
from .declare import creation_order
from .option_catalogue import FAULT_OPTIONS, HELP, parse_bool

if TYPE_CHECKING:
    from .fault_schedule import FaultSchedule

FLAVORS: tuple[Flavor, ...] = typing.get_args(Flavor)
YmqJson = Literal["accept", "reject"]
YMQ_JSON_MODES: tuple[str, ...] = typing.get_args(YmqJson)
Check = Callable[[Any], None]


def about(help: str, check: Check | None = None) -> dict[str, Any]:
    """A field's metadata: help for the ini key and reference, and an optional value check."""
    return {"help": help, "check": check}


def _check_start(value: Any) -> None:
    to_epoch(value)  # raises with a readable message


def _check_region(value: str) -> None:
    if not value:
        raise ValueError("region must be a non-empty string")


def _check_account_id(value: str) -> None:
    if not (value.isdigit() and len(value) == 12):
        raise ValueError(f"account_id must be 12 digits; got {value!r}")


def _check_not_negative(name: str) -> Check:
    def check(value: float) -> None:
        if value < 0:
            raise ValueError(f"{name} must be >= 0 seconds; got {value!r}")

    return check


def _check_queues(value: dict[str, Any]) -> None:
    for name, attributes in value.items():
        if not isinstance(name, str) or not isinstance(attributes, Mapping):
            raise TypeError(
                f"queues must map queue names to attribute dicts; got {name!r}: {attributes!r}"
            )
        dlq = attributes.get("dlq")
        count = attributes.get("max_receive_count")
        if dlq is not None and dlq not in value:
            # A typo of a declared queue is far likelier than a queue left out.
            others = [other for other in value if other != name]
            close = nearest(dlq, others) if isinstance(dlq, str) else None
            raise ValueError(
                f"queues[{name!r}]: dead-letter queue {dlq!r} is not declared; "
                + (f"did you mean {close!r}?" if close else f"add {dlq!r}: {{}} to queues")
            )
        if (dlq is None) != (count is None):
            raise ValueError(
                f"queues[{name!r}]: dlq and max_receive_count go together "
                f'(e.g. "dlq": "{name}-dlq", "max_receive_count": 5)'
            )
        if count is not None and (isinstance(count, bool) or not isinstance(count, int)):
            raise TypeError(f"queues[{name!r}]: max_receive_count must be an int; got {count!r}")
    creation_order(value)  # rejects a cycle of dead-letter queues


def _check_queues_from(value: Any) -> None:
    items = value if isinstance(value, list) else [] if value is None else [value]
    for item in items:
        if not isinstance(item, str | os.PathLike):
            raise TypeError(f"queues_from must be a path or a list of paths; got {item!r}")


def _check_probability(name: str) -> Check:
    return functools.partial(check_probability, name)


def _check_history_limit(value: int | None) -> None:
    if value is not None and value < 0:
        raise ValueError(f"history_limit must be >= 0 (or None: keep everything); got {value!r}")


def _check_accounts(value: dict[str, Any]) -> None:
    for access_key, account_id in value.items():
        if not isinstance(access_key, str) or not access_key:
            raise TypeError(f"accounts must map access key ids to account ids; got {value!r}")
        if not (isinstance(account_id, str) and account_id.isdigit() and len(account_id) == 12):
            raise ValueError(f"accounts[{access_key!r}] must be 12 digits; got {account_id!r}")


def _check_credentials(value: dict[str, Any]) -> None:
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise TypeError(f"credentials must be a dict of access key id -> secret key; got {value!r}")


@dataclass(kw_only=True)
class Options:
    """Every option of the fake; the marker's kwargs are exactly this signature."""

    clock: ClockMode = field(default="frozen", metadata=about(HELP["clock"]))
    start: datetime | str | float | None = field(
        default=None, metadata=about(HELP["start"], _check_start)
    )
    region: str = field(default=DEFAULT_REGION, metadata=about(HELP["region"], _check_region))
    account_id: str = field(
        default=DEFAULT_ACCOUNT_ID, metadata=about(HELP["account_id"], _check_account_id)
    )
    flavor: Flavor = field(default="aws", metadata=about(HELP["flavor"]))
    queues: dict[str, dict[str, Any]] = field(
        default_factory=dict, metadata=about(HELP["queues"], _check_queues)
    )
    autojump_threshold: float = field(
        default=DEFAULT_AUTOJUMP_THRESHOLD,
        metadata=about(HELP["autojump_threshold"], _check_not_negative("autojump_threshold")),
    )
    assert_dlq_empty: bool = field(default=False, metadata=about(HELP["assert_dlq_empty"]))
    assert_no_client_errors: bool = field(
        default=False, metadata=about(HELP["assert_no_client_errors"])
    )

    duplicate_delivery: float = field(
        default=0.0,
        metadata=about(HELP["duplicate_delivery"], _check_probability("duplicate_delivery")),
    )
    standard_order: StandardOrder = field(default="fifo", metadata=about(HELP["standard_order"]))
    empty_receives: float = field(
        default=0.0, metadata=about(HELP["empty_receives"], _check_probability("empty_receives"))
    )
    seed: int | None = field(default=None, metadata=about(HELP["seed"]))
    faults: FaultSchedule | None = field(default=None, metadata=about(HELP["faults"]))
    # flavor="ymq": serve AWS JSON with YDB-style errors ("accept") or answer 502 ("reject").
    ymq_json: YmqJson = field(default="accept", metadata=about(HELP["ymq_json"]))
    verify_signatures: bool = field(default=False, metadata=about(HELP["verify_signatures"]))
    credentials: dict[str, str] = field(
        default_factory=dict, metadata=about(HELP["credentials"], _check_credentials)
    )
    queues_from: str | os.PathLike[str] | list[Any] | None = field(
        default=None, metadata=about(HELP["queues_from"], _check_queues_from)
    )
    queues_from_vars: dict[str, Any] = field(
        default_factory=dict, metadata=about(HELP["queues_from_vars"])
    )

    accounts: dict[str, str] = field(
        default_factory=dict, metadata=about(HELP["accounts"], _check_accounts)
    )
    enforce_policies: bool = field(default=False, metadata=about(HELP["enforce_policies"]))
    history_limit: int | None = field(
        default=None, metadata=about(HELP["history_limit"], _check_history_limit)
    )

    contract_max_sleep: float = field(
        default=60.0,
        metadata=about(HELP["contract_max_sleep"], _check_not_negative("contract_max_sleep")),
    )

    def __post_init__(self) -> None:
        if self.faults is not None and not _is_schedule(self.faults):
            raise TypeError(
                "faults must be a FaultSchedule (drawn by pytest_fakesqs.strategies."
                f"fault_schedules(), or FaultSchedule(...)); got {self.faults!r}"
            )
        types_by_name = option_types()
        for spec in fields(self):
            value = getattr(self, spec.name)
            _check_type(spec.name, value, types_by_name[spec.name])
            check: Check | None = spec.metadata.get("check")
            if check is not None:
                check(value)
        # Checks across options:
        if self.flavor == "ymq" and self.region == DEFAULT_REGION:
            from ..api.ymq import YmqDialect  # the dialect loads only for a YMQ fake

            self.region = YmqDialect.default_region  # YMQ lives in ru-central1 only
        if self.faults is not None:
            _check_one_decider(self)
        if self.verify_signatures and not self.credentials:
            raise ValueError(
                "verify_signatures needs credentials={access_key_id: secret_access_key} "
                "to check signatures against"
            )

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @property
    def injects_faults(self) -> bool:
        """Whether any seeded misbehaviour (duplicates, shuffling, empty receives) is asked for."""
        default = defaults()
        return any(getattr(self, name) != default[name] for name in FAULT_OPTIONS)


# Options a value in an ini file cannot give.
PYTHON_ONLY_OPTIONS = ("faults",)


def _check_one_decider(options: Options) -> None:
    """A schedule decides every fault: the probabilities would be a second decider."""
    default = defaults()
    given = [
        f"{name}={getattr(options, name)!r}"
        for name in FAULT_OPTIONS
        if getattr(options, name) != default[name]
    ]
    if given:
        raise ValueError(
            f"faults= and {', '.join(given)} are mutually exclusive: a FaultSchedule decides "
            f"every fault itself; drop {' and '.join(name.split('=')[0] for name in given)} "
            "(set on the marker, fake_sqs() or the ini file as fakesqs_<option>) or faults="
        )


def _is_schedule(value: object) -> bool:
    from .fault_schedule import FaultSchedule  # the fault machinery: only once one is given

    return isinstance(value, FaultSchedule)


@functools.cache
def option_types() -> dict[str, Any]:
    # `faults` is checked by _is_schedule, which imports FaultSchedule only when one is given:
    # reading the options at every pytest start stays free of the fault machinery.
    return typing.get_type_hints(Options, localns={"FaultSchedule": object})


def option_help() -> dict[str, str]:
    return {f.name: f.metadata["help"] for f in fields(Options)}


@functools.cache
def _default_options() -> Options:
    return Options()


def defaults() -> dict[str, Any]:
    default = _default_options()
    return {f.name: getattr(default, f.name) for f in fields(Options)}


def signature() -> str:
    """`clock='frozen', start=None, ...`, for the marker's registration line."""
    return ", ".join(f"{name}={value!r}" for name, value in defaults().items())


def make_options(**kwargs: Any) -> Options:
    """Build options, turning an unknown keyword into a short TypeError naming the valid ones."""
    __tracebackhide__ = True
    unknown = sorted(set(kwargs) - set(Options.names()))
    if unknown:
        raise TypeError(unknown_options_text(unknown, Options.names()))
    return Options(**kwargs)


def unknown_options_text(unknown: list[str], valid: list[str], *, kind: str = "option") -> str:
    """`unknown fakesqs option 'x'; did you mean y? valid options: ...` (`kind`: "ini key")."""
    guesses = {name: nearest(name, valid) for name in unknown}
    known = f"valid {kind}s: {', '.join(valid)}"
    if len(unknown) == 1:
        guess = guesses[unknown[0]]
        hint = f" did you mean {guess}?" if guess else ""
        return f"unknown fakesqs {kind} {unknown[0]!r};{hint} {known}"
    listed = ", ".join(
        repr(name) + (f" (did you mean {guesses[name]}?)" if guesses[name] else "")
        for name in unknown
    )
    return f"unknown fakesqs {kind}s {listed}; {known}"


# -- types: one place decides what a value of each annotation may be, and how ini text reads --


def _members(annotation: Any) -> tuple[Any, ...]:
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        return typing.get_args(annotation)
    return (annotation,)


def _accepts(annotation: Any, value: Any) -> bool:
    if annotation is type(None):
        return value is None
    if typing.get_origin(annotation) is Literal:
        return value in typing.get_args(annotation)
    if annotation is Any:
        return True
    if annotation is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if annotation is int:
        return isinstance(value, int) and not isinstance(value, bool)
    origin = typing.get_origin(annotation) or annotation
    return isinstance(value, origin)


def _describe(annotation: Any) -> str:
    parts = []
    for member in _members(annotation):
        if typing.get_origin(member) is Literal:
            parts.append(" | ".join(map(repr, typing.get_args(member))))
        elif member is type(None):
            parts.append("None")
        else:
            parts.append(getattr(typing.get_origin(member), "__name__", None) or member.__name__)
    return " or ".join(parts)


def _check_type(name: str, value: Any, annotation: Any) -> None:
    members = _members(annotation)
    if any(_accepts(member, value) for member in members):
        return
    if all(typing.get_origin(m) is Literal for m in members):
        choices = ", ".join(str(c) for m in members for c in typing.get_args(m))
        raise ValueError(f"{name} must be one of {choices}; got {value!r}")
    raise TypeError(f"{name} must be {_describe(annotation)}; got {value!r}")


def parse_ini(name: str, text: str) -> Any:
    """An ini value as the option's type wants it; ValueError with a readable message."""
    if name in PYTHON_ONLY_OPTIONS:
        raise ValueError(
            f"{name} is a Python value: give {name}= to @pytest.mark.fakesqs, fake_sqs() or "
            "fakesqs.use_faults(), not to the ini file"
        )
    annotation = option_types()[name]
    members = _members(annotation)
    stripped = text.strip()
    if type(None) in members and stripped.lower() == "none":
        return None
    for member in members:
        if member is str or typing.get_origin(member) is Literal:
            return stripped  # the option's own check reports a value outside its choices
    for member in members:
        origin = typing.get_origin(member) or member
        if member is bool:
            return parse_bool(stripped)
        if member in (int, float):
            try:
                return member(stripped)
            except ValueError:
                raise ValueError(f"expected a number, got {stripped!r}") from None
        if origin in (dict, list):
            try:
                return json.loads(stripped)
            except json.JSONDecodeError as error:
                raise ValueError(f"expected JSON ({error.msg} at column {error.colno})") from None
    raise ValueError(f"cannot read {stripped!r} as {_describe(annotation)}")  # pragma: no cover
