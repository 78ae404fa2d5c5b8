from __future__ import annotations

from pytest_fakesqs.api.md5 import md5_of_attributes, md5_of_body

# The reference vectors (sqs-reference.md §3, from aws-md5-of-message-attributes).
STRING = {"attribName1": ("String", "attribValue 1")}
NUMBER = {"customNumberTypeAttrib": ("Number.float", "4563442423554324324264524243.32543234")}
BINARY = {"binaryAttribute": ("Binary", b"Hello binary world!")}


def test_reference_vectors() -> None:
    assert md5_of_attributes(STRING) == "19e27d4e946b072f3f58da80d94fd778"
    assert md5_of_attributes(NUMBER) == "9fe1b90bbd9965bdf77bac517c7d2495"
    assert md5_of_attributes(BINARY) == "31a92b15d92f8db860eda32aceb656c3"
    assert md5_of_attributes({**STRING, **NUMBER, **BINARY}) == "c932db14a896c663f83c260297d594ff"


def test_body_md5_matches_recorded_aws() -> None:
    assert md5_of_body("message-1") == "3d6b824fd8c1520e9a047d21fee6fb1f"
    assert md5_of_body("msg") == "6e2baaf3b97dbeef01c0043275f9a0e7"
