"""The Python client against the real API server: every operation of both families, error codes, a real 429 retried
after Retry-After, retry rules for POST, timeouts, and verification of the server's real webhook deliveries."""
import datetime
import time
import unittest
from typing import Any, List

from options_research import ApiError, Client, WebhookVerificationError, verify_webhook
from options_research._client import _Answer

from ._support import DISCLAIMER, BASE_URL, ErrorAssertions, Receiver, SilentServer, closed_port_url, key, needs_server


def client(api_key: str, **kw: Any) -> Client:
    return Client(api_key=api_key, base_url=BASE_URL or "", **kw)


def wait_for(what: str, check: Any, timeout: float = 60) -> None:
    deadline = time.time() + timeout
    while not check():
        if time.time() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


class Recording(Client):
    """Records every attempt's method and headers; `fail_first` attempts end as if the connection dropped."""

    def __init__(self, *a: Any, fail_first: int = 0, method: str = "", **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.seen: List[dict] = []
        self.fail_first = fail_first
        self.method = method

    def _send(self, method: str, url: str, headers: Any, body: Any, timeout: float) -> _Answer:
        self.seen.append({"method": method, "url": url, "headers": dict(headers)})
        if len(self.seen) <= self.fail_first:
            raise ApiError(0, "connection_error", "dropped by the test")
        return super()._send(self.method or method, url, headers, body, timeout)


@needs_server
class EveryOperation(ErrorAssertions):
    def check_labels(self, r: Any, label: str = "demo", mock: bool = True) -> None:
        self.assertEqual(r.disclaimer, DISCLAIMER)
        self.assertEqual(r.data_label, label)
        self.assertIs(r.is_mock, mock)
        self.assertTrue(r.request_id)

    def test_family_a(self) -> None:
        api = client(key("TEST"))
        summary = api.get_ticker_summary(symbol="aapl")
        self.assertEqual(summary.data["symbol"], "AAPL")
        self.assertTrue(0 <= summary.data["service_score"] <= 100)
        self.check_labels(summary)
        self.assertIsNotNone(summary.rate_limit)
        self.assertEqual(summary.rate_limit.limit, 100000)
        score = api.get_signal_score(symbol="SPY", headers={"X-Request-Id": "py-client-1"})
        self.assertEqual(score.request_id, "py-client-1")
        flow = api.list_options_flow(symbol="AAPL", min_premium=50000, limit=5)
        self.assertLessEqual(len(flow.data["events"]), 5)
        self.assertTrue(all(e["premium"] >= 50000 for e in flow.data["events"]))
        self.check_labels(flow)

    def test_family_b_and_discovery(self) -> None:
        api = client(key("TEST"))
        for r in [
            api.get_symbol_summary(ticker="AAPL"),
            api.get_no_trade(ticker="AAPL"),
            api.get_yield_curve(),
            api.get_market_sentiment(),
            api.get_watchlist_ranking(symbols="AAPL,SPY"),
            api.list_symbols(),
        ]:
            self.check_labels(r)
            self.assertEqual(r.status, 200)
        # Not an expiry's last day: in its final hours the quotes cannot pin a vol (docs/analytics-models.md).
        expiries = api.list_expiries(symbol="AAPL").data["expiries"]
        expiry = next(e for e in expiries if len(e["strikes"]) >= 2 and e["days"] >= 1)
        out = api.create_output(
            symbol="AAPL", strategy="bull_call_spread", expiry=expiry["expiry"], strikes=expiry["strikes"][:2]
        )
        self.assertEqual(out.data["output"]["strategy"], "bull_call_spread")
        self.check_labels(out)

    def test_history(self) -> None:
        api = client(key("TEST"))
        h = api.get_history(symbol="aapl", fields="price,iv_rank")
        self.check_labels(h)
        self.assertGreaterEqual(h.data["count"], 1)
        self.assertEqual(h.data["columns"], ["price", "iv_rank"])
        last = h.data["rows"][-1]
        day = api.get_history_day(symbol="AAPL", date=last["date"])
        self.assertEqual(day.data["price"], last["price"])
        lines = api.get_history_csv(symbol="AAPL", fields="price,iv_rank").strip().split("\n")
        self.assertTrue(lines[0].startswith("# "))
        self.assertEqual(lines[1], "date,data_label,as_of,price,iv_rank")
        self.assertEqual(len(lines), 2 + h.data["count"])
        with self.assertRaises(ApiError) as bad:
            api.get_history(symbol="AAPL", fields="vega")
        self.assertEqual(bad.exception.code, "invalid_request")

    def test_health(self) -> None:
        h = Client(api_key="svc_test_unused", base_url=BASE_URL or "").get_health()
        self.assertEqual(h.data["status"], "ok")
        self.assertIsNone(h.rate_limit)
        self.check_labels(h, "none", False)

    def test_webhooks_and_real_deliveries(self) -> None:
        api = client(key("PRO"))
        receiver = Receiver()
        self.addCleanup(receiver.close)
        created = api.create_alert(url=receiver.url, events=["no_trade.decision_changed"], symbols=["AAPL"])
        self.assertEqual(created.status, 201)
        self.check_labels(created, "none", False)
        wid, secret = created.data["webhookId"], created.data["signingSecret"]
        self.assertTrue(any(w["webhookId"] == wid for w in api.list_alerts().data["webhooks"]))
        self.assertEqual(api.get_alert(webhookId=wid).data["url"], receiver.url)
        self.assertEqual(api.update_alert(webhookId=wid, status="paused").data["status"], "paused")
        self.assertEqual(api.update_alert(webhookId=wid, status="active").data["status"], "active")
        test = api.test_alert(webhookId=wid)
        self.assertEqual(test.status, 202)
        event_id = test.data["eventId"]
        wait_for("the test delivery", lambda: receiver.find(event_id) is not None)
        got = receiver.find(event_id)
        assert got is not None
        event = verify_webhook(got["body"], got["headers"], secret)
        self.assertEqual(event["type"], "webhook.test")
        self.assertEqual(event["data"]["disclaimer"], DISCLAIMER)
        with self.assertRaisesRegex(WebhookVerificationError, "No signature"):
            verify_webhook(got["body"].replace(b"webhook.test", b"webhook.tesT"), got["headers"], secret)
        with self.assertRaisesRegex(WebhookVerificationError, "No signature"):
            verify_webhook(got["body"], got["headers"], "whsec_" + "eHh4eHh4eHh4eHh4eHh4eHh4eHh4eHh4")
        ts = int(next(v for k, v in got["headers"].items() if k.lower() == "webhook-timestamp"))
        with self.assertRaisesRegex(WebhookVerificationError, "too old"):
            verify_webhook(got["body"], got["headers"], secret, now=ts + 600)

        wait_for(
            "the attempt to be recorded",
            lambda: (api.list_alert_deliveries(webhookId=wid, limit=5).data["deliveries"] or [{}])[0].get("status")
            == "succeeded",
        )
        self.assertEqual(api.replay_alert(webhookId=wid, eventId=event_id).data["queued"], 1)
        now = datetime.datetime.now(datetime.timezone.utc)
        ranged = api.replay_alert(
            webhookId=wid,
            from_=(now - datetime.timedelta(hours=1)).isoformat(),
            to=(now + datetime.timedelta(minutes=1)).isoformat(),
        )
        self.assertGreaterEqual(ranged.data["queued"], 1)
        rotated = api.rotate_alert_secret(webhookId=wid).data["signingSecret"]
        second = api.test_alert(webhookId=wid).data["eventId"]
        wait_for("the delivery after rotation", lambda: receiver.find(second) is not None)
        d2 = receiver.find(second)
        assert d2 is not None
        self.assertTrue(verify_webhook(d2["body"], d2["headers"], [rotated, secret]))
        self.assertTrue(verify_webhook(d2["body"], d2["headers"], secret))
        self.assertTrue(verify_webhook(d2["body"], d2["headers"], rotated))
        self.assertEqual(api.delete_alert(webhookId=wid).data["status"], "deleted")
        self.assertApiError(lambda: api.get_alert(webhookId=wid), 404, "not_found")


@needs_server
class Errors(ErrorAssertions):
    def test_error_codes(self) -> None:
        test, pro = client(key("TEST")), client(key("PRO"))
        # the client always sends its key; an empty Authorization header stands for a caller who sent none
        no_key = {"Authorization": ""}
        self.assertApiError(lambda: test.get_ticker_summary(symbol="AAPL", headers=no_key), 401, "missing_api_key")
        self.assertApiError(lambda: test.get_yield_curve(headers=no_key), 401, "missing_api_key")
        self.assertApiError(lambda: client("svc_test_nope").get_ticker_summary(symbol="AAPL"), 401, "invalid_api_key")
        self.assertApiError(lambda: client("svc_test_nope").get_yield_curve(), 401, "invalid_api_key")
        self.assertApiError(lambda: client(key("INACTIVE")).get_yield_curve(), 403, "inactive_key")
        self.assertApiError(lambda: test.list_alerts(), 403, "subscription_required")
        self.assertApiError(lambda: pro.list_options_flow(symbol="AAPL"), 403, "endpoint_pending_licensing")
        self.assertApiError(lambda: pro.get_ticker_summary(symbol="AAPL"), 403, "plan_limit_exceeded")
        self.assertApiError(lambda: test.get_ticker_summary(symbol="ZZZZ"), 404, "symbol_not_found")
        self.assertApiError(lambda: test.get_no_trade(ticker="ZZZZ"), 404, "symbol_not_found")
        self.assertApiError(lambda: pro.get_alert(webhookId="wh_" + "0" * 24), 404, "not_found")
        bad = self.assertApiError(lambda: test.get_ticker_summary(symbol="TOOLONGSYMBOL"), 400, "invalid_request")
        self.assertIn("symbol", bad.message)
        self.assertApiError(lambda: test.list_options_flow(min_premium=-1), 400, "invalid_request")
        self.assertApiError(
            lambda: test.create_output(symbol="AAPL", strategy="long_call", expiry="x" * 20000, strikes=[1]),
            413,
            "payload_too_large",
        )
        put = Recording(api_key=key("TEST"), base_url=BASE_URL or "", method="PUT")
        self.assertApiError(lambda: put.get_yield_curve(), 405, "method_not_allowed")
        self.assertApiError(lambda: client(key("PRO"), max_retries=0).get_yield_curve(), 503, "data_source_unavailable")

    def test_real_429_waits_for_retry_after(self) -> None:
        left = 60 - datetime.datetime.now(datetime.timezone.utc).second
        if left < 5:
            time.sleep(left + 0.2)
        first = client(key("LIMITED")).list_alerts()
        self.assertEqual(first.rate_limit.limit if first.rate_limit else None, 1)
        refused = self.assertApiError(lambda: client(key("LIMITED"), max_retries=0).list_alerts(), 429, "rate_limit_exceeded")
        self.assertIsNotNone(refused.retry_after)
        assert refused.retry_after is not None
        self.assertTrue(1 <= refused.retry_after <= 60)
        rec = Recording(api_key=key("LIMITED"), base_url=BASE_URL or "", max_retries=2)
        minute = datetime.datetime.now(datetime.timezone.utc).minute
        started = time.monotonic()
        ok = rec.list_alerts()
        waited = time.monotonic() - started
        self.assertEqual(ok.status, 200)
        self.assertEqual(len(rec.seen), 2, "one 429, one success")
        self.assertGreaterEqual(waited, refused.retry_after - 1)
        self.assertNotEqual(datetime.datetime.now(datetime.timezone.utc).minute, minute)

    def test_retries_and_idempotency_keys(self) -> None:
        dead = Recording(api_key=key("TEST"), base_url=closed_port_url(), max_retries=2)
        self.assertApiError(lambda: dead.get_yield_curve(), 0, "connection_error")
        self.assertEqual(len(dead.seen), 3, "first attempt and two retries")
        e = client(key("TEST")).list_expiries(symbol="SPY").data["expiries"][0]
        body = {"symbol": "SPY", "strategy": "long_call", "expiry": e["expiry"], "strikes": [e["strikes"][0]]}
        flaky = Recording(api_key=key("TEST"), base_url=BASE_URL or "", fail_first=1)
        self.assertEqual(flaky.create_output(**body).status, 200)
        keys = [s["headers"].get("Idempotency-Key") for s in flaky.seen]
        self.assertEqual(len(keys), 2)
        self.assertRegex(keys[0] or "", r"^[0-9a-f-]{36}$")
        self.assertEqual(keys[1], keys[0], "the retry carries the same Idempotency-Key")
        given = Recording(api_key=key("TEST"), base_url=BASE_URL or "", fail_first=1)
        given.create_output(**body, idempotency_key="order-42")
        self.assertEqual([s["headers"].get("Idempotency-Key") for s in given.seen], ["order-42", "order-42"])
        none = Recording(api_key=key("TEST"), base_url=BASE_URL or "", fail_first=5)
        self.assertApiError(lambda: none.create_output(**body, idempotency_key=False), 0, "connection_error")
        self.assertEqual(len(none.seen), 1, "a POST without an Idempotency-Key is never retried")
        self.assertNotIn("Idempotency-Key", none.seen[0]["headers"])

    def test_timeout(self) -> None:
        silent = SilentServer()
        self.addCleanup(silent.close)
        slow = Recording(api_key=key("TEST"), base_url=silent.url, timeout=0.2, max_retries=1)
        self.assertApiError(lambda: slow.get_market_sentiment(), 0, "timeout")
        self.assertEqual(len(slow.seen), 2, "a timed-out GET is retried")
        self.assertApiError(lambda: slow.get_market_sentiment(timeout=0.1), 0, "timeout")


if __name__ == "__main__":
    unittest.main()


@needs_server
class StreamTest(unittest.TestCase):
    def test_open_stream_yields_the_stored_events_and_resumes_after_last_event_id(self) -> None:
        api = client(key("TEST"))
        first = api.open_stream(events=["flow.block"], symbols="pyst", min_premium=150000, last_event_id="0.0")
        got = [next(first), next(first)]
        first.close()  # disconnects
        self.assertEqual([e["data"]["premium"] for e in got], [200000, 300000])
        self.assertEqual([e["type"] for e in got], ["flow.block", "flow.block"])
        self.assertTrue(got[0]["data"]["isMockData"])
        again = api.open_stream(events="flow.block", symbols="PYST", min_premium=150000, last_event_id=got[-1]["id"])
        rest = [next(again)]
        again.close()
        self.assertEqual([e["data"]["premium"] for e in rest], [400000])
        ids = [e["id"] for e in got + rest]
        self.assertEqual(len(set(ids)), len(ids))

    def test_open_stream_bad_filter_raises_before_any_event(self) -> None:
        with self.assertRaises(ApiError) as ctx:
            next(client(key("TEST")).open_stream(events="flow.nope"))
        self.assertEqual((ctx.exception.status, ctx.exception.code), (400, "invalid_request"))
