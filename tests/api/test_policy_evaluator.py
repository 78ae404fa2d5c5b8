"""Tier 1: the queue-policy evaluator alone (api/policy.py): no engine, no wire.

Each rule of IAM's documented evaluation has a test; a hypothesis test checks the evaluator
against a small reference of the documented order: an explicit deny wins, then an allow, else
the request is implicitly denied.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_fakesqs.api.policy import (
    AccessRequest,
    ConditionNotEvaluated,
    MalformedPolicy,
    Policy,
    evaluate,
    parse,
)
from pytest_fakesqs.api.principals import Principal, iam_user, root, service_principal

OWNER = "111111111111"
OTHER = "222222222222"
QUEUE_ARN = f"arn:aws:sqs:us-east-1:{OWNER}:orders"
TOPIC_ARN = f"arn:aws:sns:us-east-1:{OWNER}:orders"
SNS = service_principal(
    "sns.amazonaws.com", account_id=OWNER, source_arn=TOPIC_ARN, source_account=OWNER
)


def policy(*statements: dict[str, Any]) -> Policy:
    return parse(json.dumps({"Version": "2012-10-17", "Statement": list(statements)}))


def allow(**elements: Any) -> dict[str, Any]:
    return {"Effect": "Allow", "Principal": "*", "Action": "sqs:*", **elements}


def deny(**elements: Any) -> dict[str, Any]:
    return {**allow(**elements), "Effect": "Deny"}


def request(
    principal: Principal | None = None, action: str = "SendMessage", secure: bool = True
) -> AccessRequest:
    return AccessRequest(principal or root(OTHER), action, QUEUE_ARN, secure_transport=secure)


def outcome(document: Policy, req: AccessRequest | None = None) -> str:
    return evaluate(document, req or request()).outcome


# -- effect and order ---------------------------------------------------------------------------


def test_no_policy_and_no_statement_are_an_implicit_deny() -> None:
    assert evaluate(None, request()).outcome == "implicit"
    assert outcome(policy()) == "implicit"


def test_an_explicit_deny_wins_over_any_allow_whatever_the_order() -> None:
    assert outcome(policy(allow(), deny(Sid="no"))) == "deny"
    assert outcome(policy(deny(Sid="no"), allow())) == "deny"
    assert evaluate(policy(allow(), deny(Sid="no")), request()).statement == "statement 'no'"
    assert evaluate(policy(allow(), deny()), request()).statement == "statement #2"


# -- principals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("principal", "expected"),
    [
        ("*", "allow"),
        ({"AWS": "*"}, "allow"),
        ({"AWS": OTHER}, "allow"),
        ({"AWS": f"arn:aws:iam::{OTHER}:root"}, "allow"),
        ({"AWS": [OWNER, OTHER]}, "allow"),
        ({"AWS": OWNER}, "implicit"),
        ({"AWS": f"arn:aws:iam::{OTHER}:user/alice"}, "implicit"),  # the account is not a user
        ({"Service": "sns.amazonaws.com"}, "implicit"),
    ],
)
def test_principal_forms_for_an_account_root(principal: Any, expected: str) -> None:
    assert outcome(policy(allow(Principal=principal))) == expected


def test_a_user_or_role_arn_names_that_principal_only() -> None:
    alice = iam_user("alice-key", OTHER, "alice")
    session = Principal(OTHER, f"arn:aws:sts::{OTHER}:assumed-role/worker/s1", "AROAEXAMPLE:s1")
    by_user = policy(allow(Principal={"AWS": f"arn:aws:iam::{OTHER}:user/alice"}))
    by_role = policy(allow(Principal={"AWS": f"arn:aws:iam::{OTHER}:role/worker"}))
    assert outcome(by_user, request(alice)) == "allow"
    assert outcome(by_user, request(iam_user("bob-key", OTHER, "bob"))) == "implicit"
    assert outcome(by_role, request(session)) == "allow"  # a session of the role
    assert outcome(by_role, request(alice)) == "implicit"
    assert outcome(policy(allow(Principal={"AWS": OTHER})), request(session)) == "allow"


def test_service_principals_match_service_and_star_only() -> None:
    assert (
        outcome(policy(allow(Principal={"Service": "sns.amazonaws.com"})), request(SNS)) == "allow"
    )
    assert (
        outcome(policy(allow(Principal={"Service": "s3.amazonaws.com"})), request(SNS))
        == "implicit"
    )
    assert outcome(policy(allow(Principal={"AWS": OWNER})), request(SNS)) == "implicit"
    assert outcome(policy(allow(Principal="*")), request(SNS)) == "allow"


def test_not_principal_matches_everyone_else() -> None:
    statement = {"Effect": "Deny", "NotPrincipal": {"AWS": OTHER}, "Action": "sqs:*"}
    assert outcome(policy(statement), request(root(OTHER))) == "implicit"
    assert outcome(policy(statement), request(root("333333333333"))) == "deny"


# -- actions and resources ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "expected"),
    [
        ("sqs:SendMessage", "allow"),
        ("SQS:SENDMESSAGE", "allow"),  # case-insensitive
        ("sqs:send*", "allow"),
        ("sqs:*", "allow"),
        ("*", "allow"),
        ("sqs:Send?essage", "allow"),
        (["sqs:ReceiveMessage", "sqs:SendMessage"], "allow"),
        ("sqs:ReceiveMessage", "implicit"),
        ("sqs:Send", "implicit"),
        ("sns:*", "implicit"),
    ],
)
def test_action_wildcards_are_case_insensitive(action: Any, expected: str) -> None:
    assert outcome(policy(allow(Action=action))) == expected


def test_not_action_matches_every_other_action() -> None:
    statement = {"Effect": "Allow", "Principal": "*", "NotAction": "sqs:Delete*"}
    assert outcome(policy(statement), request(action="SendMessage")) == "allow"
    assert outcome(policy(statement), request(action="DeleteMessage")) == "implicit"


@pytest.mark.parametrize(
    ("resource", "expected"),
    [
        (QUEUE_ARN, "allow"),
        ("*", "allow"),
        (f"arn:aws:sqs:*:{OWNER}:orders", "allow"),
        (f"arn:aws:sqs:us-east-1:{OWNER}:ord*", "allow"),
        (f"arn:aws:sqs:us-east-1:{OWNER}:*", "allow"),
        (f"arn:aws:sqs:us-east-1:{OWNER}:other", "implicit"),
        (f"arn:aws:sqs:us-east-1:{OTHER}:orders", "implicit"),
        ("arn:aws:sqs:*:orders", "implicit"),  # a wildcard does not span the ARN's colons
    ],
)
def test_resource_wildcards(resource: str, expected: str) -> None:
    assert outcome(policy(allow(Resource=resource))) == expected


def test_not_resource() -> None:
    assert outcome(policy(allow(NotResource="arn:aws:sqs:*:*:other"))) == "allow"
    assert outcome(policy(allow(NotResource=QUEUE_ARN))) == "implicit"


# -- conditions ---------------------------------------------------------------------------------


def sns_allowed(operator: str, key: str, value: Any) -> Policy:
    return policy(
        allow(Principal={"Service": "sns.amazonaws.com"}, Condition={operator: {key: value}})
    )


@pytest.mark.parametrize(
    ("operator", "key", "value", "expected"),
    [
        ("ArnEquals", "aws:SourceArn", TOPIC_ARN, "allow"),
        ("ArnEquals", "aws:SourceArn", TOPIC_ARN.replace("orders", "other"), "implicit"),
        ("ArnLike", "aws:SourceArn", f"arn:aws:sns:*:{OWNER}:*", "allow"),
        ("ArnLike", "aws:SourceArn", f"arn:aws:sns:*:{OTHER}:*", "implicit"),
        ("ArnNotEquals", "aws:SourceArn", TOPIC_ARN, "implicit"),
        ("StringEquals", "aws:SourceAccount", OWNER, "allow"),
        ("StringEquals", "aws:sourceaccount", OWNER, "allow"),  # keys are case-insensitive
        ("StringEquals", "aws:SourceAccount", [OTHER, OWNER], "allow"),  # any value
        ("StringEquals", "aws:SourceAccount", OTHER, "implicit"),
        ("StringLike", "aws:SourceArn", "arn:aws:sns:*:orders", "allow"),
        ("StringNotEquals", "aws:SourceAccount", OTHER, "allow"),
        ("StringNotEquals", "aws:SourceAccount", OWNER, "implicit"),
        ("Bool", "aws:SecureTransport", "true", "allow"),
        ("Bool", "aws:SecureTransport", True, "allow"),
        ("Bool", "aws:SecureTransport", "false", "implicit"),
        ("StringEquals", "aws:PrincipalAccount", OWNER, "implicit"),  # services have none
        ("StringEqualsIfExists", "aws:PrincipalAccount", OWNER, "allow"),
        ("Null", "aws:PrincipalAccount", "true", "allow"),
    ],
)
def test_condition_operators_on_a_service_delivery(
    operator: str, key: str, value: Any, expected: str
) -> None:
    assert outcome(sns_allowed(operator, key, value), request(SNS)) == expected


def test_principal_account_and_secure_transport_of_a_user() -> None:
    by_account = policy(allow(Condition={"StringEquals": {"aws:PrincipalAccount": OTHER}}))
    assert outcome(by_account, request(iam_user("k", OTHER))) == "allow"
    assert outcome(by_account, request(iam_user("k", "333333333333"))) == "implicit"
    insecure = policy(allow(), deny(Condition={"Bool": {"aws:SecureTransport": "false"}}))
    assert outcome(insecure, request(secure=True)) == "allow"
    assert outcome(insecure, request(secure=False)) == "deny"


def test_a_missing_key_fails_positive_operators_and_passes_negated_ones() -> None:
    user = request(root(OTHER))  # a user's request has no aws:SourceArn
    assert (
        outcome(policy(allow(Condition={"ArnEquals": {"aws:SourceArn": TOPIC_ARN}})), user)
        == "implicit"
    )
    assert (
        outcome(policy(allow(Condition={"ArnNotEquals": {"aws:SourceArn": TOPIC_ARN}})), user)
        == "allow"
    )


def test_every_condition_and_every_key_must_hold() -> None:
    both = {"ArnEquals": {"aws:SourceArn": TOPIC_ARN}, "StringEquals": {"aws:SourceAccount": OTHER}}
    assert (
        outcome(
            policy(allow(Principal={"Service": "sns.amazonaws.com"}, Condition=both)), request(SNS)
        )
        == "implicit"
    )


def test_operators_not_evaluated_are_reported_not_guessed() -> None:
    document = policy(allow(Condition={"IpAddress": {"aws:SourceIp": "10.0.0.0/8"}}))
    assert document.operators_not_evaluated() == ["IpAddress"]
    with pytest.raises(ConditionNotEvaluated, match="IpAddress"):
        evaluate(document, request())
    qualified = policy(allow(Condition={"ForAnyValue:StringEquals": {"aws:TagKeys": "a"}}))
    assert qualified.operators_not_evaluated() == ["ForAnyValue:StringEquals"]


# -- malformed documents ------------------------------------------------------------------------

VALID = allow()


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        "{}",
        json.dumps({"Version": "2020-01-01", "Statement": [VALID]}),
        json.dumps({"Statement": "x"}),
        json.dumps({"Statement": [{**VALID, "Effect": "allow"}]}),
        json.dumps({"Statement": [{k: v for k, v in VALID.items() if k != "Principal"}]}),
        json.dumps({"Statement": [{k: v for k, v in VALID.items() if k != "Action"}]}),
        json.dumps({"Statement": [{**VALID, "NotAction": "sqs:*"}]}),
        json.dumps({"Statement": [{**VALID, "Action": "SendMessage"}]}),
        json.dumps({"Statement": [{**VALID, "Action": []}]}),
        json.dumps({"Statement": [{**VALID, "Principal": {"AWS": "bob"}}]}),
        json.dumps({"Statement": [{**VALID, "Principal": {"Group": "x"}}]}),
        json.dumps({"Statement": [{**VALID, "Condition": {"StringSortOf": {"a": "b"}}}]}),
        json.dumps({"Statement": [{**VALID, "Condition": {"StringEquals": "x"}}]}),
    ],
)
def test_malformed_documents_are_refused(text: str) -> None:
    with pytest.raises(MalformedPolicy):
        parse(text)


def test_a_single_statement_object_and_the_2008_version_are_valid() -> None:
    document = parse(json.dumps({"Version": "2008-10-17", "Statement": VALID}))
    assert outcome(document) == "allow"


# -- the documented evaluation order, against a reference ---------------------------------------

PRINCIPALS = [root(OWNER), root(OTHER), iam_user("k", OTHER, "alice"), SNS]
ACTIONS = ["SendMessage", "ReceiveMessage", "DeleteMessage"]
statements = st.fixed_dictionaries(
    {
        "Effect": st.sampled_from(["Allow", "Deny"]),
        "Principal": st.sampled_from(
            [
                "*",
                {"AWS": OTHER},
                {"AWS": OWNER},
                {"Service": "sns.amazonaws.com"},
                {"AWS": f"arn:aws:iam::{OTHER}:user/alice"},
            ]
        ),
        "Action": st.sampled_from(["sqs:*", "sqs:SendMessage", "SQS:receive*", "sqs:Delete*"]),
    },
    optional={
        "Resource": st.sampled_from([QUEUE_ARN, "*", f"arn:aws:sqs:*:{OTHER}:*"]),
        "Condition": st.sampled_from(
            [
                {"ArnEquals": {"aws:SourceArn": TOPIC_ARN}},
                {"StringNotEquals": {"aws:SourceAccount": OTHER}},
                {"Bool": {"aws:SecureTransport": "false"}},
            ]
        ),
    },
)


def reference_matches(statement: dict[str, Any], req: AccessRequest) -> bool:
    """Whether one sampled statement matches, decided by hand for the sampled vocabulary."""
    who = req.principal
    principal = statement["Principal"]
    if principal != "*":
        kind, name = next(iter(principal.items()))
        if kind == "Service":
            if who is not SNS:
                return False
        elif (
            who is SNS
            or (name.isdigit() and name != who.account_id)
            or (not name.isdigit() and who.arn != name)
        ):
            return False
    wanted = {
        "sqs:*": ACTIONS,
        "sqs:SendMessage": ["SendMessage"],
        "SQS:receive*": ["ReceiveMessage"],
        "sqs:Delete*": ["DeleteMessage"],
    }[statement["Action"]]
    if req.action not in wanted:
        return False
    if statement.get("Resource") == f"arn:aws:sqs:*:{OTHER}:*":
        return False  # the queue is OWNER's
    condition = statement.get("Condition")
    if condition is None:
        return True
    if "ArnEquals" in condition:
        return who is SNS
    if "StringNotEquals" in condition:
        return True  # only SNS has an aws:SourceAccount, and it is OWNER
    return not req.secure_transport  # Bool aws:SecureTransport false


def reference(raw: list[dict[str, Any]], req: AccessRequest) -> str:
    """IAM's documented order, written as plainly as possible: any matching Deny denies; else
    any matching Allow allows; else the request is implicitly denied."""
    matching = [s for s in raw if reference_matches(s, req)]
    if any(s["Effect"] == "Deny" for s in matching):
        return "deny"
    if any(s["Effect"] == "Allow" for s in matching):
        return "allow"
    return "implicit"


@settings(max_examples=300, deadline=None)
@given(
    st.lists(statements, max_size=5),
    st.sampled_from(PRINCIPALS),
    st.sampled_from(ACTIONS),
    st.booleans(),
)
def test_evaluation_follows_the_documented_order(
    raw: list[dict[str, Any]], principal: Principal, action: str, secure: bool
) -> None:
    document = policy(*raw)
    req = request(principal, action, secure)
    assert evaluate(document, req).outcome == reference(raw, req)
    # Adding a matching Deny always denies; removing every Deny never denies.
    denied = policy(*raw, deny())
    assert evaluate(denied, req).outcome == "deny"
    allows_only = policy(*[s for s in raw if s["Effect"] == "Allow"])
    assert evaluate(allows_only, req).outcome != "deny"
