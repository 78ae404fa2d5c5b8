from __future__ import annotations

import hashlib
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from pytest_fakesqs.api.md5 import md5, md5_of_attributes, md5_of_body

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


@given(st.lists(st.binary(max_size=300), max_size=4))
def test_the_md5_in_use_gives_hashlibs_digests(chunks: list[bytes]) -> None:
    # CPython's builtin MD5 replaces OpenSSL's through hashlib on the hot path.
    ours, plain = md5(), hashlib.md5()
    for chunk in chunks:
        ours.update(chunk)
        plain.update(chunk)
    assert ours.hexdigest() == plain.hexdigest()
    whole = b"".join(chunks)
    assert md5(whole).hexdigest() == hashlib.md5(whole).hexdigest()


def test_a_python_without_the_builtin_md5_uses_hashlibs() -> None:
    code = (
        "import sys, hashlib; sys.modules['_md5'] = None\n"
        "from pytest_fakesqs.api import md5\n"
        "assert md5.md5 is hashlib.md5\n"
        "print(md5.md5_of_body('msg'), md5.md5_of_attributes({'a': ('String', 'b')}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60
    )
    assert done.returncode == 0, done.stderr
    body, attributes = done.stdout.split()
    assert body == "6e2baaf3b97dbeef01c0043275f9a0e7"
    assert attributes == md5_of_attributes({"a": ("String", "b")})
