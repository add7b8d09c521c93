"""The retry rule, with_raw_response and the User-Agent against a scripted loopback HTTP server (no API needed)."""
import time
import unittest
from typing import Any
from unittest import mock

from options_research import USER_AGENT, ApiError, Client, RawResponse, Result, __version__
from options_research import _transport

from ._scripted import CSV, CSV_OK, OK, Scripted, error_answer, json_answer


class ScriptedCase(unittest.TestCase):
    def setUp(self) -> None:
        # backoff in milliseconds so the suite stays quick; Retry-After is still honoured to the second
        patcher = mock.patch.object(_transport, "BASE_DELAY", 0.01)
        patcher.start()
        self.addCleanup(patcher.stop)

    def serve(self, *answers: Any) -> Scripted:
        s = Scripted(*answers)
        self.addCleanup(s.close)
        return s

    def client(self, s: Scripted, **kw: Any) -> Client:
        return Client(api_key="svc_test_scripted", base_url=s.url, **kw)


class RetryRule(ScriptedCase):
    def test_each_retryable_status_is_retried_then_succeeds(self) -> None:
        for status in (408, 409, 429, 500, 502, 503, 504):
            with self.subTest(status=status):
                s = self.serve(error_answer(status))
                r = self.client(s).get_ticker_summary(symbol="AAPL")
                self.assertEqual((r.status, r.data["service_score"]), (200, 64))
                self.assertEqual(len(s.requests), 2)

    def test_other_errors_are_not_retried(self) -> None:
        for status, code in ((400, "invalid_request"), (401, "invalid_api_key"), (404, "symbol_not_found"), (422, "idempotency_key_reused")):
            with self.subTest(status=status):
                s = self.serve(error_answer(status, code))
                with self.assertRaises(ApiError) as ctx:
                    self.client(s).get_ticker_summary(symbol="AAPL")
                self.assertEqual((ctx.exception.status, ctx.exception.code, ctx.exception.request_id), (status, code, f"req_{status}"))
                self.assertEqual(len(s.requests), 1)

    def test_attempts_are_bounded_by_max_retries(self) -> None:
        s = self.serve(*[error_answer(500)] * 10)
        with self.assertRaises(ApiError) as ctx:
            self.client(s, max_retries=3).get_ticker_summary(symbol="AAPL")
        self.assertEqual(ctx.exception.status, 500)
        self.assertEqual(len(s.requests), 4)
        s2 = self.serve(error_answer(503))
        with self.assertRaises(ApiError):
            self.client(s2, max_retries=0).get_ticker_summary(symbol="AAPL")
        self.assertEqual(len(s2.requests), 1)

    def test_retry_after_is_honoured(self) -> None:
        s = self.serve(error_answer(429, "rate_limit_exceeded", Retry_After="1"))
        started = time.monotonic()
        r = self.client(s).get_ticker_summary(symbol="AAPL")
        self.assertGreaterEqual(time.monotonic() - started, 1.0)
        self.assertEqual(r.status, 200)
        self.assertEqual(len(s.requests), 2)

    def test_a_retry_after_beyond_the_bound_is_raised_at_once(self) -> None:
        s = self.serve(error_answer(503, "data_source_unavailable", Retry_After="3600"))
        with self.assertRaises(ApiError) as ctx:
            self.client(s).get_ticker_summary(symbol="AAPL")
        self.assertEqual((ctx.exception.code, ctx.exception.retry_after), ("data_source_unavailable", 3600))
        self.assertEqual(len(s.requests), 1)

    def test_a_dropped_connection_is_retried(self) -> None:
        s = self.serve("drop", "drop")
        r = self.client(s).get_ticker_summary(symbol="AAPL")
        self.assertEqual(r.status, 200)
        self.assertEqual(len(s.requests), 3)
        s2 = self.serve("drop", "drop", "drop")
        with self.assertRaises(ApiError) as ctx:
            self.client(s2).get_ticker_summary(symbol="AAPL")
        self.assertEqual((ctx.exception.status, ctx.exception.code), (0, "connection_error"))
        self.assertEqual(len(s2.requests), 3)

    def test_a_timeout_is_retried(self) -> None:
        s = self.serve(("sleep", 1.0))
        r = self.client(s, timeout=0.3).get_ticker_summary(symbol="AAPL")
        self.assertEqual(r.status, 200)
        self.assertEqual(len(s.requests), 2)
        s2 = self.serve(("sleep", 1.0), ("sleep", 1.0))
        with self.assertRaises(ApiError) as ctx:
            self.client(s2, timeout=0.3, max_retries=1).get_ticker_summary(symbol="AAPL")
        self.assertEqual((ctx.exception.status, ctx.exception.code), (0, "timeout"))

    def test_the_csv_helper_retries_like_every_get(self) -> None:
        s = self.serve(error_answer(503), "drop", CSV_OK)
        text = self.client(s).get_history_csv(symbol="AAPL", from_="2026-11-01")
        self.assertEqual(text, CSV)
        self.assertEqual(len(s.requests), 3)
        self.assertEqual(s.requests[0]["headers"]["Accept"], "text/csv")
        self.assertIn("format=csv", s.requests[0]["path"])
        s2 = self.serve(error_answer(404, "symbol_not_found"))
        with self.assertRaises(ApiError):
            self.client(s2).get_history_csv(symbol="ZZZZ")
        self.assertEqual(len(s2.requests), 1)


class WritesRetryOnlyWithTheirKey(ScriptedCase):
    CREATED = json_answer(201, {"data": {"webhookId": "wh_1"}, "disclaimer": "Research only.", "dataLabel": "none", "isMockData": True})

    def test_post_without_an_idempotency_key_is_not_retried(self) -> None:
        for answer in (error_answer(503), error_answer(409, "idempotency_key_in_use"), "drop"):
            with self.subTest(answer=answer if isinstance(answer, str) else answer[0]):
                s = self.serve(answer, self.CREATED)
                with self.assertRaises(ApiError):
                    self.client(s).create_alert(url="https://example.com/h", events=["iv_rank.crossed_above"], symbols=["AAPL"], idempotency_key=False)
                self.assertEqual(len(s.requests), 1)
                self.assertNotIn("Idempotency-Key", s.requests[0]["headers"])

    def test_patch_without_an_idempotency_key_is_not_retried(self) -> None:
        s = self.serve(error_answer(500))
        with self.assertRaises(ApiError):
            self.client(s).update_alert(webhookId="wh_1", status="paused", idempotency_key=False)
        self.assertEqual((len(s.requests), s.requests[0]["method"]), (1, "PATCH"))

    def test_post_with_its_key_is_retried_with_the_same_key(self) -> None:
        s = self.serve(error_answer(503), error_answer(409, "idempotency_key_in_use"), "drop", self.CREATED)
        r = self.client(s, max_retries=3).create_alert(url="https://example.com/h", events=["iv_rank.crossed_above"], symbols=["AAPL"])
        self.assertEqual((r.status, r.data["webhookId"]), (201, "wh_1"))
        keys = {q["headers"]["Idempotency-Key"] for q in s.requests}
        self.assertEqual(len(s.requests), 4)
        self.assertEqual(len(keys), 1)
        s2 = self.serve(error_answer(500), self.CREATED)
        self.client(s2).create_alert(url="https://example.com/h", events=["iv_rank.crossed_above"], symbols=["AAPL"], idempotency_key="order-42")
        self.assertEqual([q["headers"]["Idempotency-Key"] for q in s2.requests], ["order-42", "order-42"])

    def test_delete_is_retried(self) -> None:
        s = self.serve(error_answer(502), json_answer(200, {"data": {"webhookId": "wh_1"}, "disclaimer": "d", "dataLabel": "none", "isMockData": True}))
        self.client(s).delete_alert(webhookId="wh_1")
        self.assertEqual([q["method"] for q in s.requests], ["DELETE", "DELETE"])


class RawResponseAndUserAgent(ScriptedCase):
    def test_with_raw_response_exposes_status_headers_and_request_id(self) -> None:
        s = self.serve(OK)
        c = self.client(s)
        raw = c.with_raw_response.get_ticker_summary(symbol="AAPL")
        self.assertIsInstance(raw, RawResponse)
        self.assertEqual(raw.status, 200)
        self.assertEqual(raw.request_id, "req_200")
        self.assertEqual(raw.headers["x-ratelimit-remaining"], "59")
        self.assertEqual(raw.headers["content-type"], "application/json")
        result = raw.parse()
        self.assertIsInstance(result, Result)
        self.assertEqual((result.data["service_score"], result.data_label, result.request_id), (64, "delayed-15m", "req_200"))
        self.assertEqual(result.rate_limit.remaining if result.rate_limit else None, 59)
        # the client itself still answers with results
        self.assertIsInstance(c.get_ticker_summary(symbol="AAPL"), Result)

    def test_with_raw_response_retries_and_covers_csv(self) -> None:
        s = self.serve(error_answer(429, "rate_limit_exceeded"), CSV_OK)
        raw = self.client(s).with_raw_response.get_history_csv(symbol="AAPL")
        self.assertEqual((raw.status, raw.request_id, raw.headers["content-type"]), (200, "req_csv", "text/csv; charset=utf-8"))
        self.assertEqual(raw.parse(), CSV)
        self.assertEqual(raw.text(), CSV)
        self.assertEqual(len(s.requests), 2)

    def test_with_raw_response_still_raises_api_errors(self) -> None:
        s = self.serve(error_answer(404, "symbol_not_found"))
        with self.assertRaises(ApiError) as ctx:
            self.client(s).with_raw_response.get_ticker_summary(symbol="ZZZZ")
        self.assertEqual((ctx.exception.status, ctx.exception.request_id), (404, "req_404"))

    def test_every_request_names_the_client_and_its_version(self) -> None:
        self.assertEqual(USER_AGENT, f"options-research-python/{__version__}")
        s = self.serve(error_answer(503), OK, CSV_OK)
        c = self.client(s)
        c.get_ticker_summary(symbol="AAPL")
        c.get_history_csv(symbol="AAPL")
        self.assertEqual([q["headers"]["User-Agent"] for q in s.requests], [USER_AGENT] * 3)
        mine = self.serve(OK)
        self.client(mine, user_agent="my-app/1.2").get_ticker_summary(symbol="AAPL")
        self.assertEqual(mine.requests[0]["headers"]["User-Agent"], "my-app/1.2")

    def test_the_version_matches_pyproject(self) -> None:
        import pathlib
        import re

        text = (pathlib.Path(__file__).resolve().parents[1] / "pyproject.toml").read_text()
        found = re.search(r'^version = "([^"]+)"', text, re.M)
        self.assertEqual(found.group(1) if found else None, __version__)


if __name__ == "__main__":
    unittest.main()
