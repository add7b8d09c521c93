"""A loopback HTTP server (port 0) that answers each request with the next scripted answer and records every request."""
import http.server
import json
import threading
import time
from typing import Any, Dict, List, Optional, Tuple, Type

ENVELOPE = {
    "data": {"symbol": "AAPL", "service_score": 64},
    "disclaimer": "Research only.",
    "meta": {"data_freshness": "delayed-15m", "is_mock": True, "request_id": "req_meta"},
}
CSV = "# Research only.\ndate,iv_rank\n2026-11-20,41.5\n"

# An answer: (status, headers, body) or the strings "drop" (close without answering) / ("sleep", seconds).
Answer = Any


def json_answer(status: int, body: Any, **headers: str) -> Tuple[int, Dict[str, str], bytes]:
    h = {"Content-Type": "application/json", "X-Request-Id": f"req_{status}"}
    h.update({k.replace("_", "-"): v for k, v in headers.items()})
    return (status, h, json.dumps(body).encode())


def error_answer(status: int, code: str = "internal_error", **headers: str) -> Tuple[int, Dict[str, str], bytes]:
    return json_answer(status, {"error": {"code": code, "message": f"scripted {status}"}}, **headers)


OK = json_answer(200, ENVELOPE, X_RateLimit_Limit="60", X_RateLimit_Remaining="59", X_RateLimit_Reset="1800000000")
CSV_OK = (200, {"Content-Type": "text/csv; charset=utf-8", "X-Request-Id": "req_csv"}, CSV.encode())


class QuietHandler(http.server.BaseHTTPRequestHandler):
    """HTTP/1.1, without an access log on the tests' output."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        pass


class LoopbackServer:
    """Serves a handler class on a free loopback port, in a daemon thread, until close()."""

    def __init__(self, handler: Type[http.server.BaseHTTPRequestHandler]) -> None:
        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Scripted(LoopbackServer):
    def __init__(self, *answers: Answer) -> None:
        self.answers: List[Answer] = list(answers)
        self.requests: List[Dict[str, Any]] = []
        outer = self

        class Handler(QuietHandler):
            def _any(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                outer.requests.append({"method": self.command, "path": self.path, "headers": dict(self.headers.items()), "body": body})
                answer: Optional[Answer] = outer.answers.pop(0) if outer.answers else OK
                if answer == "drop":
                    self.close_connection = True
                    return
                if isinstance(answer, tuple) and answer[0] == "sleep":
                    time.sleep(answer[1])
                    self.close_connection = True
                    return
                status, headers, payload = answer
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

            do_GET = do_POST = do_PATCH = do_DELETE = _any  # noqa: N815 (the http.server hooks' names)

        super().__init__(Handler)
