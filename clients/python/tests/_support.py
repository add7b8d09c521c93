"""Shared by the tests: the server's address and keys from the environment, and small local HTTP helpers."""
import http.server
import os
import socket
import threading
import unittest
from typing import Any, Dict, List, Optional

from options_research import ApiError

BASE_URL = os.environ.get("ORAPI_BASE_URL")
DISCLAIMER = os.environ.get("ORAPI_DISCLAIMER", "")
needs_server = unittest.skipUnless(
    BASE_URL, "set ORAPI_BASE_URL and the ORAPI_*_KEY variables (tests/integration/clients-python.test.ts does)"
)


def key(name: str) -> str:
    return os.environ[f"ORAPI_{name}_KEY"]


class Receiver:
    """A loopback HTTP receiver that records every delivery's raw body and headers, and answers 204."""

    def __init__(self) -> None:
        self.received: List[Dict[str, Any]] = []
        received = self.received

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the http.server hook's name)
                length = int(self.headers.get("content-length") or 0)
                received.append({"body": self.rfile.read(length), "headers": dict(self.headers.items())})
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def find(self, msg_id: str) -> Optional[Dict[str, Any]]:
        for r in self.received:
            if r["headers"].get("webhook-id") == msg_id or r["headers"].get("Webhook-Id") == msg_id:
                return r
        return None

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class SilentServer:
    """Accepts connections and never answers: for timeouts."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def close(self) -> None:
        self.sock.close()


def closed_port_url() -> str:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return f"http://127.0.0.1:{port}"


class ErrorAssertions(unittest.TestCase):
    def assertApiError(self, fn: Any, status: int, code: str) -> ApiError:  # noqa: N802 (unittest style)
        with self.assertRaises(ApiError) as ctx:
            fn()
        err = ctx.exception
        self.assertEqual((err.status, err.code), (status, code), str(err))
        self.assertTrue(err.message)
        if status != 0:
            self.assertTrue(err.request_id, "the request id travels with the error")
        return err
