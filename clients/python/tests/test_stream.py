"""open_stream's read_timeout and max_reconnects over real HTTP to a loopback server that stops sending (no API needed).

Each connection is scripted: an event after the request's Last-Event-ID then silence, headers and then nothing, no
answer at all, heartbeats, a dropped connection after each event, or a final error event.
"""
import json
import threading
import time
import unittest
from typing import Any, Callable, Dict, List, Optional
from unittest import mock

from options_research import ApiError, Client
from options_research import _transport

from ._scripted import LoopbackServer, QuietHandler

# What the server does with connection number n (1-based): writes to the handler, or holds it until the test ends.
Script = Callable[[int, Any], None]


class StreamServer(LoopbackServer):
    def __init__(self, script: Script) -> None:
        self.requests: List[Dict[str, Optional[str]]] = []
        self.done = threading.Event()
        outer = self

        class Handler(QuietHandler):
            def do_GET(self) -> None:  # noqa: N802 (the http.server hook's name)
                outer.requests.append(
                    {"last_event_id": self.headers.get("Last-Event-ID"), "user_agent": self.headers.get("User-Agent")}
                )
                self.close_connection = True
                try:
                    script(len(outer.requests), self)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        super().__init__(Handler)

    def hold(self) -> None:
        """Keeps the connection open and silent until the test ends."""
        self.done.wait(30)

    def close(self) -> None:
        self.done.set()
        super().close()


def sse(h: Any) -> None:
    h.send_response(200)
    h.send_header("Content-Type", "text/event-stream")
    h.send_header("X-Request-Id", "req_sse")
    h.end_headers()


def event(h: Any, event_id: str) -> None:
    data = {"id": event_id, "type": "flow.block", "symbol": "AAPL", "timestamp": "2026-11-20T15:00:00Z", "data": {}}
    h.wfile.write(f"id: {event_id}\nevent: flow.block\ndata: {json.dumps(data)}\n\n".encode())
    h.wfile.flush()


def next_after(h: Any) -> int:
    """The number of the event after the request's Last-Event-ID (``e<k>``), as the service resumes after it."""
    return int((h.headers.get("Last-Event-ID") or "e0")[1:]) + 1


class StreamTimeouts(unittest.TestCase):
    def setUp(self) -> None:
        patcher = mock.patch.object(_transport, "BASE_DELAY", 0.01)  # quick reconnections
        patcher.start()
        self.addCleanup(patcher.stop)

    def serve(self, script: Callable[["StreamServer", int, Any], None]) -> StreamServer:
        holder: List[StreamServer] = []
        s = StreamServer(lambda n, h: script(holder[0], n, h))
        holder.append(s)
        self.addCleanup(s.close)
        return s

    def stream(self, s: StreamServer, **kw: Any) -> Any:
        return Client(api_key="svc_test_stream", base_url=s.url).open_stream(events="flow.block", **kw)

    def test_a_connection_that_stops_sending_is_reopened_with_last_event_id_after_read_timeout(self) -> None:
        def script(s: StreamServer, n: int, h: Any) -> None:
            sse(h)
            event(h, f"e{next_after(h)}")
            s.hold()

        s = self.serve(script)
        started = time.monotonic()
        it = self.stream(s, read_timeout=0.3)
        got = [next(it)["id"] for _ in range(3)]
        it.close()
        self.assertEqual(got, ["e1", "e2", "e3"])
        self.assertEqual([r["last_event_id"] for r in s.requests[:3]], [None, "e1", "e2"])
        self.assertGreaterEqual(time.monotonic() - started, 0.6, "each reconnection waited for the read timeout")
        self.assertRegex(s.requests[0]["user_agent"] or "", r"^options-research-python/")

    def test_heartbeats_keep_a_quiet_connection_open(self) -> None:
        def script(s: StreamServer, n: int, h: Any) -> None:
            sse(h)
            for _ in range(10):
                time.sleep(0.1)
                h.wfile.write(b": heartbeat\n\n")
                h.wfile.flush()
            event(h, "late")
            s.hold()

        s = self.serve(script)
        it = self.stream(s, read_timeout=0.6)
        self.assertEqual(next(it)["id"], "late")
        it.close()
        self.assertEqual(len(s.requests), 1, "no reconnection")

    def test_a_silent_connection_is_a_failure_and_max_reconnects_ends_it_with_a_timeout(self) -> None:
        def script(s: StreamServer, n: int, h: Any) -> None:
            if n % 2 == 1:
                sse(h)  # headers, then nothing; even connections are never even answered
            s.hold()

        s = self.serve(script)
        with self.assertRaises(ApiError) as ctx:
            next(self.stream(s, read_timeout=0.1, max_reconnects=2))
        self.assertEqual((ctx.exception.status, ctx.exception.code), (0, "timeout"), str(ctx.exception))
        self.assertIn("No byte from", ctx.exception.message)
        self.assertEqual(len(s.requests), 3, "the first connection and two reconnections")

    def test_a_connection_that_delivers_resets_the_count(self) -> None:
        def script(s: StreamServer, n: int, h: Any) -> None:
            sse(h)
            event(h, f"e{next_after(h)}")  # then the connection closes: dropped after each event

        s = self.serve(script)
        it = self.stream(s, max_reconnects=1)
        got = [next(it)["id"] for _ in range(4)]
        it.close()
        self.assertEqual(got, ["e1", "e2", "e3", "e4"])
        self.assertEqual([r["last_event_id"] for r in s.requests], [None, "e1", "e2", "e3"])

    def test_an_ended_connection_without_events_counts_as_a_failure(self) -> None:
        s = self.serve(lambda s, n, h: sse(h))
        with self.assertRaises(ApiError) as ctx:
            next(self.stream(s, max_reconnects=0))
        self.assertEqual((ctx.exception.status, ctx.exception.code), (0, "connection_error"))
        self.assertEqual(len(s.requests), 1)

    def test_a_final_error_event_ends_the_stream_whatever_its_code(self) -> None:
        for code, status in (("plan_limit_exceeded", 403), ("some_future_code", 0)):

            def script(s: StreamServer, n: int, h: Any, code: str = code) -> None:
                sse(h)
                if n == 1:
                    event(h, "f1")
                body = {"error": {"code": "slow_consumer" if n == 1 else code, "message": "scripted"}}
                h.wfile.write(f"event: error\ndata: {json.dumps(body)}\n\n".encode())

            s = self.serve(script)
            it = self.stream(s)
            self.assertEqual(next(it)["id"], "f1")
            with self.assertRaises(ApiError) as ctx:
                next(it)
            self.assertEqual((ctx.exception.status, ctx.exception.code), (status, code))
            self.assertEqual(ctx.exception.request_id, "req_sse")
            self.assertEqual([r["last_event_id"] for r in s.requests], [None, "f1"], code)


if __name__ == "__main__":
    unittest.main()
