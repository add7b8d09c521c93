"""One HTTP exchange over urllib, and the retry rule every method (CSV included) shares."""
import email.utils
import http.client
import json
import random
import socket
import time
import urllib.error
import urllib.request
from typing import Any, Callable, Dict, Mapping, Optional

from ._errors import ApiError

BASE_DELAY = 0.5
MAX_DELAY = 8.0
MAX_RETRY_AFTER = 60
MAX_ANSWER_BYTES = 64 * 1024 * 1024


def retryable_status(status: int) -> bool:
    """408, 409 (an Idempotency-Key's first attempt still running), 429 and every 5xx are worth another attempt."""
    return status in (408, 409, 429) or status >= 500


def retry_delay(attempt: int, retry_after: Optional[int], rand: Callable[[], float] = random.random) -> float:
    """Seconds before retry ``attempt`` (1-based): Retry-After plus a little jitter, else jittered exponential backoff."""
    if retry_after is not None:
        return retry_after + rand() * 0.25
    cap = min(MAX_DELAY, BASE_DELAY * 2 ** (attempt - 1))
    return cap / 2 + rand() * cap / 2


def parse_retry_after(value: Optional[str], now: Optional[float] = None) -> Optional[int]:
    if value is None or not value.strip():
        return None
    v = value.strip()
    if v.isdigit():
        return int(v)
    try:
        at = email.utils.parsedate_to_datetime(v).timestamp()
    except (TypeError, ValueError):
        return None
    return max(0, int(-(-(at - (time.time() if now is None else now)) // 1)))


class _Answer:
    """A complete HTTP answer: status, lower-cased headers, body bytes."""

    def __init__(self, status: int, headers: Mapping[str, str], body: bytes) -> None:
        self.status = status
        self.headers = {k.lower(): v for k, v in headers.items()}
        self.body = body

    def json(self) -> Optional[Dict[str, Any]]:
        try:
            v = json.loads(self.body.decode("utf-8"))
        except ValueError:
            return None
        return v if isinstance(v, dict) else None


def send(method: str, url: str, headers: Mapping[str, str], body: Optional[bytes], timeout: float, origin: str) -> _Answer:
    """One HTTP exchange; no (complete) answer at all becomes ApiError with status 0."""
    req = urllib.request.Request(url, data=body, method=method, headers=dict(headers))
    try:
        with urllib.request.urlopen(req, timeout=timeout) as res:
            return _Answer(res.status, dict(res.headers.items()), res.read(MAX_ANSWER_BYTES))
    except urllib.error.HTTPError as err:
        with err:
            return _Answer(err.code, dict(err.headers.items()), err.read(MAX_ANSWER_BYTES))
    except (socket.timeout, TimeoutError) as err:
        raise ApiError(0, "timeout", f"No complete answer within {timeout} s.") from err
    except urllib.error.URLError as err:
        if isinstance(err.reason, (socket.timeout, TimeoutError)):
            raise ApiError(0, "timeout", f"No complete answer within {timeout} s.") from err
        raise ApiError(0, "connection_error", f"No answer from {origin}: {err.reason}") from err
    except (ConnectionError, OSError, http.client.HTTPException) as err:
        raise ApiError(0, "connection_error", f"No answer from {origin}: {err!r}") from err


def error_of(answer: _Answer) -> ApiError:
    body = answer.json()
    error = body.get("error") if body else None
    retry_after = parse_retry_after(answer.headers.get("retry-after"))
    request_id = answer.headers.get("x-request-id")
    if isinstance(error, dict) and isinstance(error.get("code"), str) and isinstance(error.get("message"), str):
        return ApiError(answer.status, error["code"], error["message"], request_id, retry_after)
    return ApiError(answer.status, "unexpected_response", f"HTTP {answer.status} without the API's error body.", request_id, retry_after)


def with_retries(attempt_once: Callable[[], _Answer], retries: int) -> _Answer:
    """Calls ``attempt_once`` until a 2xx answer, at most ``retries`` more times after the first, on retryable failures.

    A non-retryable error answer, the last failure, or a Retry-After longer than MAX_RETRY_AFTER raises ApiError.
    """
    attempt = 0
    while True:
        try:
            answer = attempt_once()
        except ApiError as err:
            failure = err
        else:
            if 200 <= answer.status < 300:
                return answer
            failure = error_of(answer)
            if not retryable_status(answer.status):
                raise failure
        if attempt >= retries or (failure.retry_after is not None and failure.retry_after > MAX_RETRY_AFTER):
            raise failure
        attempt += 1
        time.sleep(retry_delay(attempt, failure.retry_after))
