"""Safe retries end to end: a POST whose answer is lost after the server processed it is retried with the same
Idempotency-Key and the server replays the first answer: one resource."""
import json
import unittest
import urllib.request
import uuid
from typing import Any

from options_research import ApiError, Client
from options_research._client import _Answer

from ._support import BASE_URL, ErrorAssertions, key, needs_server



def alert(n: int) -> dict:
    return {"url": f"http://127.0.0.1:9/py/{n}", "events": ["no_trade.decision_changed"], "symbols": ["AAPL"]}


def server_replays() -> bool:
    """Two POSTs with one Idempotency-Key: a server with the support answers the second with Idempotent-Replayed."""
    if not BASE_URL:
        return False
    idem = f"py-probe-{uuid.uuid4()}"
    replayed = None
    for _ in range(2):
        req = urllib.request.Request(
            BASE_URL + "/api/v1/alerts",
            data=json.dumps(alert(0)).encode(),
            method="POST",
            headers={"Authorization": f"Bearer {key('PRO')}", "Content-Type": "application/json", "Idempotency-Key": idem},
        )
        with urllib.request.urlopen(req, timeout=30) as res:
            res.read()
            replayed = res.headers.get("Idempotent-Replayed")
    return replayed == "true"


class LosesFirstAnswer(Client):
    """The first attempt reaches the server and is processed; its answer is lost on the way back."""

    attempts = 0

    def _send(self, method: str, url: str, headers: Any, body: Any, timeout: float) -> _Answer:
        self.attempts += 1
        answer = super()._send(method, url, headers, body, timeout)
        if self.attempts == 1:
            raise ApiError(0, "connection_error", "answer lost by the test")
        return answer


@needs_server
class Idempotency(ErrorAssertions):
    def test_server_replays_with_header(self) -> None:
        self.assertTrue(server_replays(), "a retried POST is answered with Idempotent-Replayed: true")

    def test_lost_answer_retried_creates_one_webhook(self) -> None:
        api = LosesFirstAnswer(api_key=key("PRO"), base_url=BASE_URL or "")
        created = api.create_alert(**alert(1))
        self.assertEqual(created.status, 201)
        self.assertEqual(api.attempts, 2)
        hooks = Client(api_key=key("PRO"), base_url=BASE_URL or "").list_alerts().data["webhooks"]
        self.assertEqual(len([w for w in hooks if w["url"] == alert(1)["url"]]), 1)

    def test_same_key_different_body(self) -> None:
        api = Client(api_key=key("PRO"), base_url=BASE_URL or "")
        api.create_alert(**alert(2), idempotency_key="py-reuse-1")
        self.assertApiError(lambda: api.create_alert(**alert(3), idempotency_key="py-reuse-1"), 422, "idempotency_key_reused")


if __name__ == "__main__":
    unittest.main()
