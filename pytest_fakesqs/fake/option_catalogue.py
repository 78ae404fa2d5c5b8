"""The options' names and help, in the order of `Options`, and the one reading of an ini boolean:
all pytest needs to register the options and read its flags.

The plugin reads this on every pytest run, to register the `fakesqs_<option>` ini keys and the
marker and to read its ini booleans (their callers name the key when a text is neither), so it
imports nothing: `Options` (options.py), with its types, defaults and checks, loads
only when some option is read. Each field of `Options` takes its help from here, and
tests/fake/test_options_catalogue.py keeps the two in step: a new option is a field there and a
line here.
"""

from __future__ import annotations

INI_PREFIX = "fakesqs_"  # each option's ini key is this prefix and its name

HELP: dict[str, str] = {
    "clock": "frozen | frozen-instant | autojump | real | system: how time moves (frozen: the test's thread jumps at once, other threads wait autojump_threshold first)",
    "start": "the fake's start time (ISO-8601); 2024-01-01T00:00:00Z",
    "region": "region of the queues fakesqs helpers make",
    "account_id": "the account in queue URLs and ARNs",
    "flavor": "aws | ymq: whose limits and URLs the fake has",
    "queues": 'queues made for every test, as JSON: {"orders": {"dlq": "orders-dlq", "max_receive_count": 5}, "orders-dlq": {}}',
    "autojump_threshold": "real seconds a long poll waits for other threads before time jumps (autojump; frozen, in threads other than the test's)",
    "assert_dlq_empty": "a dead letter never asserted on makes the test ERROR at teardown",
    "assert_no_client_errors": "an SQS error the code under test swallowed makes the test ERROR",
    "duplicate_delivery": "probability that a delivery is repeated later (standard queues)",
    "standard_order": "fifo | shuffled: seeded random order on standard queues",
    "empty_receives": "probability that a short poll comes back empty",
    "seed": "seed for every random choice; default: from the run seed",
    "faults": "marker / fake_sqs() only: a FaultSchedule (pytest_fakesqs.strategies.fault_schedules()) deciding every fault instead of the probabilities",
    "ymq_json": "accept | reject: flavor=ymq's answer to AWS JSON",
    "verify_signatures": "check SigV4 signatures against credentials",
    "credentials": 'accepted key pairs, as JSON: {"access key id": "secret access key"}',
    "queues_from": "Terraform / CloudFormation files (ini: a path a line)",
    "queues_from_vars": 'variables for queues_from, as JSON: {"env": "ci"}',
    "accounts": 'whose credentials are whose, as JSON: {"access key id": "account id"}; a 12-digit key id is that account, moto\'s keys are moto\'s accounts, the rest account_id\'s',
    "enforce_policies": "authorise calls and service deliveries against queue Policy documents, as AWS does",
    "history_limit": "finished messages (and calls) remembered, oldest forgotten first; default: all (serve: 10000)",
    "contract_max_sleep": "contract mode: the longest real sleep advance() may take; longer skips the test",
}

# The options whose random choices the seed reproduces.
FAULT_OPTIONS = ("duplicate_delivery", "standard_order", "empty_receives")


def names() -> list[str]:
    return list(HELP)


# Every boolean the plugin takes from ini is read by parse_bool.
TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")


def parse_bool(text: str) -> bool:
    """`true`/`false` (or yes/no, on/off, 1/0, any case); ValueError says what was expected."""
    word = text.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ValueError(f"expected true or false, got {text.strip()!r}")
