"""Parts that need no server: request building, retry timing, Retry-After parsing, webhook signature rules."""
import base64
import hashlib
import hmac
import json
import os
import time
import unittest

from options_research import OPERATIONS, Client, WebhookVerificationError, verify_webhook
from options_research._client import parse_retry_after, retry_delay


def sign(secret: str, msg_id: str, ts: int, body: str) -> str:
    """The Standard Webhooks scheme written out from the specification, independently of the library's code."""
    raw = base64.b64decode(secret[len("whsec_") :])
    mac = hmac.new(raw, f"{msg_id}.{ts}.{body}".encode(), hashlib.sha256).digest()
    return "v1," + base64.b64encode(mac).decode()


def new_secret() -> str:
    return "whsec_" + base64.b64encode(os.urandom(24)).decode()


class RequestBuilding(unittest.TestCase):
    def setUp(self) -> None:
        self.client = Client(api_key="svc_test_x", base_url="http://api.example/")

    def test_path_query_and_body_fields_by_name(self) -> None:
        url, body = self.client._build(OPERATIONS["listOptionsFlow"], {"symbol": "AAPL", "min_premium": 50000})
        self.assertEqual(url, "http://api.example/api/v1/options-flow?symbol=AAPL&min_premium=50000")
        self.assertIsNone(body)
        url, body = self.client._build(OPERATIONS["getSymbolSummary"], {"ticker": "BRK.B"})
        self.assertEqual(url, "http://api.example/api/v1/ai/symbol/BRK.B/summary")
        url, body = self.client._build(OPERATIONS["replayAlert"], {"webhookId": "wh_1", "from": "a", "to": "b"})
        self.assertEqual(json.loads(body or b""), {"from": "a", "to": "b"})

    def test_keyword_named_fields_take_a_trailing_underscore(self) -> None:
        import inspect

        params = inspect.signature(Client.replay_alert).parameters
        self.assertIn("from_", params)
        self.assertIn("eventId", params)
        self.assertIn("idempotency_key", params)
        self.assertNotIn("idempotency_key", inspect.signature(Client.get_ticker_summary).parameters)

    def test_base_url_with_or_without_the_api_prefix(self) -> None:
        c = Client(api_key="svc_test_x", base_url="http://api.example/api/v1/")
        self.assertEqual(c._build(OPERATIONS["getHealth"], {})[0], "http://api.example/api/v1/health")

    def test_the_package_is_python_3_9_syntax(self) -> None:
        import ast
        import pathlib

        for f in (pathlib.Path(__file__).parent.parent / "options_research").glob("*.py"):
            ast.parse(f.read_text(), filename=str(f), feature_version=(3, 9))

    def test_missing_path_parameter(self) -> None:
        with self.assertRaises(TypeError):
            self.client.get_ticker_summary(symbol="")

    def test_every_operation_has_a_method(self) -> None:
        import re

        for op_id in OPERATIONS:
            name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", op_id).lower()
            self.assertTrue(callable(getattr(self.client, name, None)), name)


class RetryTiming(unittest.TestCase):
    def test_backoff_and_retry_after(self) -> None:
        self.assertEqual(retry_delay(1, None, lambda: 0), 0.25)
        self.assertEqual(retry_delay(1, None, lambda: 1), 0.5)
        self.assertEqual(retry_delay(20, None, lambda: 1), 8.0)
        self.assertEqual(retry_delay(1, 7, lambda: 0), 7)
        self.assertLess(retry_delay(1, 7, lambda: 0.99), 7.25)
        self.assertEqual(parse_retry_after("12"), 12)
        self.assertEqual(parse_retry_after("Thu, 01 Jan 1970 00:00:10 GMT", now=0), 10)
        self.assertIsNone(parse_retry_after(None))
        self.assertIsNone(parse_retry_after("soon"))


class WebhookRules(unittest.TestCase):
    body = json.dumps({"type": "webhook.test", "timestamp": "2026-11-23T00:00:00.000Z", "data": {"ok": True}})

    def headers(self, secret: str, ts: int) -> dict:
        msg = "msg_0123456789abcdef01234567"
        return {"Webhook-Id": msg, "Webhook-Timestamp": str(ts), "Webhook-Signature": sign(secret, msg, ts, self.body)}

    def test_accepts_a_signature_made_per_the_specification(self) -> None:
        s = new_secret()
        self.assertEqual(verify_webhook(self.body, self.headers(s, int(time.time())), s), json.loads(self.body))
        self.assertTrue(verify_webhook(self.body.encode(), self.headers(s, int(time.time())), [new_secret(), s]))

    def test_rejects_tampering_wrong_secret_old_and_future_timestamps(self) -> None:
        s = new_secret()
        now = int(time.time())
        for payload, headers, secret, message in [
            (self.body.replace("true", "false"), self.headers(s, now), s, "No signature"),
            (self.body, self.headers(s, now), new_secret(), "No signature"),
            (self.body, self.headers(s, now - 301), s, "too old"),
            (self.body, self.headers(s, now + 301), s, "too new"),
            (self.body, {"webhook-id": "msg_1"}, s, "Missing"),
        ]:
            with self.assertRaisesRegex(WebhookVerificationError, message):
                verify_webhook(payload, headers, secret)
        self.assertTrue(verify_webhook(self.body, self.headers(s, now - 299), s))
        self.assertTrue(verify_webhook(self.body, self.headers(s, 0), s, now=100))


class Readme(unittest.TestCase):
    def test_every_method_is_shown_and_the_examples_parse(self) -> None:
        import ast
        import pathlib
        import re

        readme = (pathlib.Path(__file__).parent.parent / "README.md").read_text()
        for op_id in OPERATIONS:
            name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", op_id).lower()
            self.assertIn(f"client.{name}(", readme)
        import inspect

        for block in re.findall(r"```python\n(.*?)```", readme, re.S):
            for node in ast.walk(ast.parse(block)):
                f = node.func if isinstance(node, ast.Call) else None
                if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "client":
                    # the example's keyword arguments are the method's parameters
                    inspect.signature(getattr(Client, f.attr)).bind(None, **{k.arg: None for k in node.keywords if k.arg})


if __name__ == "__main__":
    unittest.main()
