"""A ledger fed by payment events through SQS and Lambda.

Handling a payment has two steps: apply it to the balance (once: the ledger remembers applied
payment ids) and send a receipt. When the receipts service is down, a payment that *was*
applied still fails, retries and reaches the dead-letter queue. So after an outage the DLQ
holds applied and unapplied payments alike, and a replay must skip the applied ones.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from typing import Any


class ReceiptsDown(Exception):
    pass


class Ledger:
    def __init__(self, rates: dict[str, float]) -> None:
        self.rates = rates  # to the ledger's currency; an unknown currency cannot be applied
        self.balances: dict[str, int] = defaultdict(int)
        self.applied: set[str] = set()  # in production: a unique key in the ledger table
        self.applications: Counter[str] = Counter()
        self.receipts: list[str] = []
        self.receipts_up = True

    def handler(self, event: dict[str, Any], context: object) -> None:
        for record in event["Records"]:
            self.handle(json.loads(record["body"]))

    def handle(self, payment: dict[str, Any]) -> None:
        if payment["id"] not in self.applied:
            amount = round(payment["amount"] * self.rates[payment["currency"]])
            self.balances[payment["account"]] += amount
            self.applied.add(payment["id"])
            self.applications[payment["id"]] += 1
        if not self.receipts_up:
            raise ReceiptsDown(payment["id"])
        self.receipts.append(payment["id"])
