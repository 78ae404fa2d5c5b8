from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pytest_fakesqs.iac import load_queues


@dataclass
class Addresses:
    """The AWS flavor's ARNs and URLs, without a fake (the readers are tested alone)."""

    region: str = "us-east-1"
    account_id: str = "123456789012"
    flavor: str = "aws"

    def arn(self, name: str) -> str:
        return f"arn:aws:sqs:{self.region}:{self.account_id}:{name}"

    def url(self, name: str) -> str:
        return f"https://sqs.{self.region}.amazonaws.com/{self.account_id}/{name}"


class Files:
    """Writes infrastructure files into a temporary folder and reads them as queues_from."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.root = root
        monkeypatch.chdir(root)  # errors name files relative to the working directory

    def write(self, name: str, text: str) -> Path:
        path = self.root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return path

    def queues(
        self, *names: str, variables: dict[str, Any] | None = None, **where: Any
    ) -> dict[str, Any]:
        return load_queues([Path(n) for n in names], variables or {}, Addresses(**where))

    def error(self, *names: str, variables: dict[str, Any] | None = None, **where: Any) -> str:
        with pytest.raises(ValueError) as caught:
            self.queues(*names, variables=variables, **where)
        return str(caught.value)


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Files:
    return Files(tmp_path, monkeypatch)
