"""The `fakesqs` command (`python -m pytest_fakesqs`): `serve` the fake as a standalone SQS endpoint, `docs` to read the pages."""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from .._spelling import nearest
from ..api.context import DEFAULT_ACCOUNT_ID, DEFAULT_REGION
from ..fake.facade import FakeSQS, inspection, new_fake
from ..fake.options import FLAVORS, make_options
from ..fake.text import plural
from ..transport.connections import HttpLimits, raise_open_files_limit
from . import manual, state
from .server import FakeSQSServer

DEFAULT_PORT = 9324  # ElasticMQ's port, the one SQS users already point their tools at
# A server runs for days: it remembers this many finished messages and calls, not all of them.
DEFAULT_HISTORY_LIMIT = 10_000


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is the one line of usage and the error, with where to find
    the rest: `serve` has some 30 options, and a full usage would bury the line that matters."""

    def error(self, message: str) -> NoReturn:
        usage = self.format_usage().strip()
        if "\n" in usage:
            usage = f"usage: {self.prog} [options]  (`{self.prog} --help` lists them)"
        self.exit(2, f"{usage}\n{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="fakesqs", description="A fake Amazon SQS / Yandex Message Queue endpoint."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    serve = commands.add_parser(
        "serve", help="serve SQS over HTTP until Ctrl+C or SIGTERM (a dashboard at /_fakesqs/)"
    )
    serve.set_defaults(command_parser=serve)  # its errors show `fakesqs serve`'s usage
    docs = commands.add_parser("docs", help="list the documentation pages, or print one")
    docs.add_argument("page", nargs="?", help="a page's name, e.g. dead-letters")
    docs.set_defaults(command_parser=docs)
    serve.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    serve.add_argument(
        "--port",
        type=port_number,
        default=DEFAULT_PORT,
        help=f"0 picks a free port (default {DEFAULT_PORT})",
    )
    serve.add_argument("--region", default=DEFAULT_REGION, help="for unsigned requests")
    serve.add_argument("--account-id", default=DEFAULT_ACCOUNT_ID, help="12 digits")
    serve.add_argument("--flavor", choices=FLAVORS, default="aws", help="aws or ymq limits")
    serve.add_argument(
        "--queues",
        metavar="FILE",
        help='JSON declaring queues, e.g. {"orders": {"VisibilityTimeout": "30"}}',
    )
    serve.add_argument(
        "--queues-from",
        action="append",
        default=[],
        metavar="PATH",
        help="Terraform (.tf, .tf.json, a folder) or CloudFormation file declaring queues "
        "(repeatable; needs the iac extra)",
    )
    serve.add_argument(
        "--queues-from-var",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a Terraform variable / CloudFormation parameter for --queues-from (repeatable)",
    )
    serve.add_argument(
        "--clock",
        choices=("real", "frozen"),
        default="real",
        help="real: wall clock, long polls wait (default); frozen: time stands still",
    )
    serve.add_argument(
        "--state",
        metavar="PATH",
        help="keep queues and messages in this file: restored at start, saved at least once "
        "a second while they change and at shutdown (see `fakesqs docs docker-compose`)",
    )
    serve.add_argument("--log-requests", action="store_true", help="one line per request")
    serve.add_argument(
        "--history-limit",
        type=_history_limit,
        default=DEFAULT_HISTORY_LIMIT,
        metavar="N",
        help="finished messages and calls remembered, oldest forgotten first "
        f"(default {DEFAULT_HISTORY_LIMIT}; 'none': all, memory grows without bound)",
    )
    serve.add_argument(
        "--max-connections",
        type=int,
        default=HttpLimits().max_connections,
        metavar="N",
        help="connections held at once (a socket each, no thread); more get 503 "
        "(default %(default)s, lowered to what the open-files limit allows)",
    )
    for flag, name, what in (
        ("--idle-timeout", "idle_timeout", "a kept-alive connection with no request coming"),
        ("--header-timeout", "header_timeout", "a request's headers, from its first byte"),
        ("--body-timeout", "body_timeout", "a request's body, once its headers are in"),
    ):
        serve.add_argument(
            flag,
            type=float,
            default=getattr(HttpLimits(), name),
            metavar="SECONDS",
            help=f"the longest wait for {what} (default %(default)s)",
        )
    serve.add_argument(
        "--verify-signatures",
        action="store_true",
        help="refuse requests not signed (SigV4) with a --credential",
    )
    serve.add_argument(
        "--credential",
        action="append",
        default=[],
        metavar="ACCESS_KEY:SECRET_KEY",
        help="a key pair accepted by --verify-signatures (repeatable)",
    )
    serve.add_argument(
        "--account",
        action="append",
        default=[],
        metavar="ACCESS_KEY:ACCOUNT_ID",
        help="the account an access key belongs to (repeatable; a 12-digit key is that account)",
    )
    serve.add_argument(
        "--enforce-policies",
        action="store_true",
        help="authorise every call against the queue's Policy, as AWS does (see the docs: policies.md)",
    )
    faults = serve.add_argument_group("fault injection (`fakesqs docs fault-injection`)")
    faults.add_argument(
        "--duplicate-delivery",
        type=float,
        default=0.0,
        metavar="P",
        help="probability that a delivery from a standard queue is repeated later",
    )
    faults.add_argument(
        "--standard-order",
        choices=("fifo", "shuffled"),
        default="fifo",
        help="shuffled: standard queues hand out messages in a seeded random order",
    )
    faults.add_argument(
        "--empty-receives",
        type=float,
        default=0.0,
        metavar="P",
        help="probability that a short poll comes back empty",
    )
    faults.add_argument("--seed", type=int, default=None, help="seed for every random choice")
    return parser


def port_number(text: str) -> int:
    """A TCP port for argparse: a bad one is a usage error of `serve`, not a traceback."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port must be 0-65535 (0 picks a free one); got {port}")
    return port


def _history_limit(text: str) -> int | None:
    if text.strip().lower() in ("none", "unlimited"):
        return None
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0 or 'none'; got {text}")
    return value


def _pairs(
    values: list[str],
    flag: str,
    shape: str,
    parser: argparse.ArgumentParser,
    *,
    separator: str = ":",
    empty: bool = False,
) -> dict[str, str]:
    """Repeated `KEY<separator>VALUE` flags as a dict; a malformed one is a usage error naming
    the `shape` it should have."""
    pairs: dict[str, str] = {}
    for pair in values:
        key, sep, value = pair.partition(separator)
        if not sep or not key or (not value and not empty):
            parser.error(f"{flag} must be {shape}; got {pair!r}")
        pairs[key] = value
    return pairs


def make_fake(args: argparse.Namespace, parser: argparse.ArgumentParser) -> FakeSQS:
    credentials = _pairs(args.credential, "--credential", "ACCESS_KEY:SECRET_KEY", parser)
    accounts = _pairs(args.account, "--account", "ACCESS_KEY:ACCOUNT_ID", parser)
    # A variable may be set to the empty string; a key pair or an account may not be empty.
    variables = _pairs(
        args.queues_from_var, "--queues-from-var", "NAME=VALUE", parser, separator="=", empty=True
    )
    try:
        options = make_options(
            queues_from=args.queues_from or None,
            queues_from_vars=variables,
            clock=args.clock,
            region=args.region,
            account_id=args.account_id,
            flavor=args.flavor,
            queues=load_queues(args.queues) if args.queues else {},
            verify_signatures=args.verify_signatures,
            credentials=credentials,
            accounts=accounts,
            enforce_policies=args.enforce_policies,
            duplicate_delivery=args.duplicate_delivery,
            standard_order=args.standard_order,
            empty_receives=args.empty_receives,
            seed=args.seed,
            history_limit=args.history_limit,
        )
        return new_fake(options).start(in_process=False)
    except (OSError, TypeError, ValueError) as error:
        parser.error(str(error))


def load_queues(path: str) -> dict[str, dict[str, Any]]:
    with open(path, encoding="utf-8") as file:
        try:
            queues = json.load(file)
        except ValueError as error:
            raise ValueError(f"{path}: not valid JSON ({error})") from None
    if not isinstance(queues, dict) or not all(isinstance(v, dict) for v in queues.values()):
        raise ValueError(f'{path}: expected {{"queue-name": {{attributes}}, ...}}')
    return queues


def with_flags(limits: HttpLimits, args: argparse.Namespace) -> HttpLimits:
    """The server's limits with the ones the command line set."""
    return dataclasses.replace(
        limits,
        max_connections=args.max_connections,
        idle_timeout=args.idle_timeout,
        header_timeout=args.header_timeout,
        body_timeout=args.body_timeout,
    )


def serve(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    raise_open_files_limit()  # a socket per connection: as many as the hard limit allows
    fake = make_fake(args, parser)
    keeper: state.StateKeeper | None = None
    restored = ""
    if args.state:  # restored before the port is even bound: no client sees it half-done
        try:
            keeper, restored = _restore_state(fake, Path(args.state))
        except state.StateFileError as error:
            fake.stop()
            sys.stderr.write(f"fakesqs: cannot start: {error}\n")
            return 1
    log = _print if args.log_requests else None
    try:
        server = FakeSQSServer(fake, host=args.host, port=args.port, request_log=log)
        server.http.limits = with_flags(server.http.limits, args)
    except OSError as error:
        parser.error(f"cannot listen on {args.host}:{args.port}: {error.strerror or error}")
    if keeper is not None:
        watched = keeper
        server.after_reset.append(watched.renewed)
        # Purges and resets through the server's own endpoints change the state too.
        server.http.observers.append(
            lambda request, _response: watched.changed() if request.method != "GET" else None
        )
        keeper.start()
    stopping = threading.Event()

    def request_stop(signum: int, _frame: object) -> None:
        stopping.set()

    signal.signal(signal.SIGINT, request_stop)
    signal.signal(signal.SIGTERM, request_stop)
    with server:
        options = fake.options
        here = server.endpoint_url
        startup = [
            f"fakesqs: serving SQS at {server.endpoint_url} (region {options.region}, account "
            f"{options.account_id}, flavor {options.flavor}, clock {options.clock}); "
            "Ctrl+C stops"
        ]
        if fake.uses_randomness:
            startup.append(
                f"fakesqs: injecting faults (duplicate_delivery={options.duplicate_delivery}, "
                f"standard_order={options.standard_order}, "
                f"empty_receives={options.empty_receives}); seed {fake.seed}"
            )
        if options.enforce_policies:
            startup.append("fakesqs: enforcing queue policies (docs/policies.md)")
        if restored:
            startup.append(f"fakesqs: state in {args.state} ({restored})")
        seen = inspection(fake)
        for queue in sorted(seen.queues(), key=lambda q: q.name):
            startup.append(f"fakesqs: queue {queue.name}: {seen.url(queue, base_url=here)}")
        _print("\n".join(startup))  # one write: a client may start as soon as it sees the banner
        while not stopping.wait(0.5):  # a bounded wait keeps signals prompt everywhere
            pass
    if keeper is not None:
        keeper.stop()  # the last save, after the last request was answered
    _print(f"fakesqs: stopped after {plural(server.requests_served, 'request')}")
    fake.stop()
    return 0


def _restore_state(fake: FakeSQS, path: Path) -> tuple[state.StateKeeper, str]:
    """The fake as `path` left it (nothing, if there is no such file yet), and its keeper;
    a first save at once proves the file can be written, before anyone relies on it."""
    document = state.load(path)
    messages = 0 if document is None else state.restore(fake, document, path)
    keeper = state.StateKeeper(fake, path)
    try:
        state.save(path, state.snapshot(fake))
    except OSError as error:
        raise state.StateFileError(path, f"cannot be written ({error})") from None
    if document is None:
        return keeper, "a new file"
    queues = len(document.get("queues", []))
    return keeper, f"restored {plural(queues, 'queue')}, {plural(messages, 'message')}"


_output_lock = threading.Lock()


def _print(text: str) -> None:
    # Request log lines come from handler threads: each line is written whole, never interleaved.
    with _output_lock:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


def show_docs(page: str | None, parser: argparse.ArgumentParser) -> int:
    """`fakesqs docs`: the pages with their titles; `fakesqs docs PAGE`: that page's text."""
    known = manual.pages()
    if page is None:
        width = max(map(len, known), default=0)
        for name, path in known.items():
            _print(f"{name:<{width}}  {manual.title(path)}")
        return 0
    name = page.removesuffix(".md").rpartition("/")[2].partition("#")[0]
    if name not in known:
        close = nearest(name, known)
        hint = f"; did you mean {close}?" if close else ""
        parser.error(f"no page {page!r}{hint} (`fakesqs docs` lists them)")
    sys.stdout.write(known[name].read_text(encoding="utf-8"))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "serve":
        return serve(args, args.command_parser)
    if args.command == "docs":
        try:
            return show_docs(args.page, args.command_parser)
        except BrokenPipeError:  # `fakesqs docs | head`: the reader had enough
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
    parser.error(f"unknown command {args.command!r}")  # pragma: no cover - argparse refuses first


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
