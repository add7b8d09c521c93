"""The hand-written layer over the generated operation table: requests, retries, timeouts, results and errors."""
import email.utils
import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Callable, Dict, Iterator, Mapping, Optional, Sequence, Tuple, Union

from ._errors import ApiError
from ._generated import OPERATIONS, GeneratedMethods, Operation
from ._result import RateLimit, Result

__version__ = "0.1.0"

DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_RETRIES = 2
BASE_DELAY = 0.5
MAX_DELAY = 8.0
MAX_RETRY_AFTER = 60
RETRYABLE_STATUS = (429, 503)
MAX_ANSWER_BYTES = 64 * 1024 * 1024


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


def _int(v: Optional[str]) -> Optional[int]:
    return int(v) if v is not None and v.isdigit() else None


def _query_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(str(x) for x in v)
    return str(v)


class _Answer:
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


class Client(GeneratedMethods):
    """Client for the Options Market Research API.

    >>> client = Client(api_key="svc_test_...", base_url="https://api.example.com")
    >>> client.get_ticker_summary(symbol="AAPL").data["service_score"]
    """

    def __init__(
        self,
        api_key: str,
        base_url: str,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        max_retries: int = DEFAULT_MAX_RETRIES,
    ) -> None:
        if not api_key:
            raise ValueError("api_key is required")
        if not base_url:
            raise ValueError("base_url is required")
        self.api_key = api_key
        # the paths carry /api/v1 themselves; a base URL that already ends in it is accepted too
        self.base_url = base_url.rstrip("/")
        if self.base_url.endswith("/api/v1"):
            self.base_url = self.base_url[: -len("/api/v1")]
        self.timeout = timeout
        self.max_retries = max_retries

    def _build(self, op: Operation, params: Dict[str, Any]) -> Tuple[str, Optional[bytes]]:
        """Path fields fill the template, query fields the query string, the rest is the JSON body."""
        path = op.path
        for name in op.path_params:
            value = params.get(name)
            if value is None or value == "":
                raise TypeError(f"parameter '{name}' is required")
            path = path.replace("{" + name + "}", urllib.parse.quote(str(value), safe=""))
        query = [(n, _query_value(params[n])) for n in op.query_params if params.get(n) is not None]
        url = self.base_url + path + ("?" + urllib.parse.urlencode(query) if query else "")
        body = None
        if op.has_body:
            fields = {n: params[n] for n in op.body_fields if params.get(n) is not None}
            body = json.dumps(fields, separators=(",", ":")).encode("utf-8")
        return url, body

    def _call(
        self,
        operation_id: str,
        params: Dict[str, Any],
        *,
        idempotency_key: Union[str, bool, None] = None,
        timeout: Optional[float] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> Result[Any]:
        op = OPERATIONS[operation_id]
        url, body = self._build(op, params)
        writes = op.method in ("POST", "PATCH")
        key: Optional[str] = None
        if writes and idempotency_key is not False and idempotency_key != "":
            key = idempotency_key if isinstance(idempotency_key, str) else str(uuid.uuid4())
        retries = 0 if writes and key is None else self.max_retries
        sent = {
            "Accept": "application/json",
            "User-Agent": f"options-research-python/{__version__}",
        }
        if op.authenticated:
            sent["Authorization"] = f"Bearer {self.api_key}"
        if body is not None:
            sent["Content-Type"] = "application/json"
        if key is not None:
            sent["Idempotency-Key"] = key
        sent.update(headers or {})
        attempt = 0
        while True:
            answer: Optional[_Answer] = None
            try:
                answer = self._send(op.method, url, sent, body, self.timeout if timeout is None else timeout)
            except ApiError as err:
                failure = err
            else:
                if 200 <= answer.status < 300:
                    return _result(answer)
                failure = _error(answer)
                # 409: the first attempt with this Idempotency-Key is still running; its answer is replayed once it ends
                if answer.status not in RETRYABLE_STATUS and not (answer.status == 409 and key is not None):
                    raise failure
            if attempt >= retries or (failure.retry_after is not None and failure.retry_after > MAX_RETRY_AFTER):
                raise failure
            attempt += 1
            time.sleep(retry_delay(attempt, failure.retry_after))

    def get_history_csv(
        self,
        *,
        symbol: str,
        from_: Optional[str] = None,
        to: Optional[str] = None,
        fields: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> str:
        """GET /api/v1/history/{symbol} as CSV text: the disclaimer as a ``# `` first line, a header, one row per day."""
        url, _ = self._build(OPERATIONS["getHistory"], {"symbol": symbol, "from": from_, "to": to, "fields": fields, "format": "csv"})
        sent = {
            "Accept": "text/csv",
            "User-Agent": f"options-research-python/{__version__}",
            "Authorization": f"Bearer {self.api_key}",
        }
        answer = self._send("GET", url, sent, None, self.timeout if timeout is None else timeout)
        if answer.status != 200:
            raise _error(answer)
        return answer.body.decode("utf-8")

    def open_stream(  # type: ignore[override]
        self,
        *,
        events: Union[str, Sequence[str]],
        symbols: Union[str, Sequence[str], None] = None,
        iv_rank_above: Optional[float] = None,
        iv_rank_below: Optional[float] = None,
        iv_change_above: Optional[float] = None,
        min_premium: Optional[float] = None,
        last_event_id: Optional[str] = None,
        max_reconnects: int = 5,
        read_timeout: float = 45.0,
    ) -> Iterator[Dict[str, Any]]:
        """The live stream (GET /api/v1/stream) as a generator of events (dicts with id, type, symbol, timestamp, data).

        A dropped connection is resumed with Last-Event-ID (no event missed or repeated); the service's final ``error``
        event (revoked key, plan, quota) raises ApiError. Close the generator (or break out of the loop) to disconnect.
        """
        params = {
            "events": events,
            "symbols": symbols,
            "iv_rank_above": iv_rank_above,
            "iv_rank_below": iv_rank_below,
            "iv_change_above": iv_change_above,
            "min_premium": min_premium,
        }
        url, _ = self._build(OPERATIONS["openStream"], params)
        last = last_event_id
        failures = 0
        while True:
            failure: Optional[ApiError] = None
            sent = {
                "Accept": "text/event-stream",
                "User-Agent": f"options-research-python/{__version__}",
                "Authorization": f"Bearer {self.api_key}",
            }
            if last is not None:
                sent["Last-Event-ID"] = last
            req = urllib.request.Request(url, method="GET", headers=sent)
            try:
                res = urllib.request.urlopen(req, timeout=read_timeout)
            except urllib.error.HTTPError as err:
                with err:
                    failure = _error(_Answer(err.code, dict(err.headers.items()), err.read(MAX_ANSWER_BYTES)))
                if err.code not in RETRYABLE_STATUS:
                    raise failure
            except (urllib.error.URLError, OSError) as err:
                failure = ApiError(0, "connection_error", f"No answer from {self.base_url}: {err}")
            else:
                with res:
                    failures = 0
                    try:
                        for kind, event_id, data in _frames(res):
                            if kind == "error":
                                body = json.loads(data)
                                error = body.get("error") or {}
                                code = error.get("code", "unexpected_response")
                                failure = ApiError(
                                    _EVENT_STATUS.get(code, 0),
                                    code,
                                    error.get("message", "The stream ended with an error."),
                                    request_id=res.headers.get("x-request-id"),
                                )
                                if code not in _RECONNECT_CODES:
                                    raise failure
                                break
                            if event_id is not None:
                                last = event_id
                            yield json.loads(data)
                    except (socket.timeout, TimeoutError, ConnectionError, OSError) as err:
                        failure = ApiError(0, "connection_error", f"The stream from {self.base_url} broke: {err}")
            if failure is not None:
                failures += 1
                if failures > max_reconnects:
                    raise failure
                time.sleep(retry_delay(failures, failure.retry_after))

    def _send(self, method: str, url: str, headers: Mapping[str, str], body: Optional[bytes], timeout: float) -> _Answer:
        """One HTTP exchange; no answer at all becomes ApiError with status 0."""
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
            raise ApiError(0, "connection_error", f"No answer from {self.base_url}: {err.reason}") from err
        except (ConnectionError, OSError) as err:
            raise ApiError(0, "connection_error", f"No answer from {self.base_url}: {err}") from err


def _rate_limit(h: Mapping[str, str]) -> Optional[RateLimit]:
    if "x-ratelimit-limit" not in h and "ratelimit" not in h:
        return None
    return RateLimit(
        limit=_int(h.get("x-ratelimit-limit")),
        remaining=_int(h.get("x-ratelimit-remaining")),
        reset=_int(h.get("x-ratelimit-reset")),
        header=h.get("ratelimit"),
        policy=h.get("ratelimit-policy"),
    )


def _result(answer: _Answer) -> Result[Any]:
    """Family A keeps the labels in ``meta``; family B beside the data. Both reach the caller the same way."""
    body = answer.json()
    meta = body.get("meta") if body else None
    request_id = answer.headers.get("x-request-id") or (meta.get("request_id") if isinstance(meta, dict) else "") or ""
    if body is None or "data" not in body or not isinstance(body.get("disclaimer"), str):
        raise ApiError(answer.status, "unexpected_response", f"The answer ({answer.status}) is not the API's envelope.", request_id)
    a = isinstance(meta, dict)
    return Result(
        data=body["data"],
        disclaimer=body["disclaimer"],
        data_label=str(meta.get("data_freshness") if a else body.get("dataLabel")),
        is_mock=bool(meta.get("is_mock") if a else body.get("isMockData")),
        request_id=request_id,
        rate_limit=_rate_limit(answer.headers),
        status=answer.status,
    )


def _error(answer: _Answer) -> ApiError:
    body = answer.json()
    error = body.get("error") if body else None
    retry_after = parse_retry_after(answer.headers.get("retry-after"))
    request_id = answer.headers.get("x-request-id")
    if isinstance(error, dict) and isinstance(error.get("code"), str) and isinstance(error.get("message"), str):
        return ApiError(answer.status, error["code"], error["message"], request_id, retry_after)
    return ApiError(answer.status, "unexpected_response", f"HTTP {answer.status} without the API's error body.", request_id, retry_after)


_EVENT_STATUS = {
    "invalid_api_key": 401,
    "inactive_key": 403,
    "subscription_required": 403,
    "plan_limit_exceeded": 403,
    "endpoint_pending_licensing": 403,
    "data_source_unavailable": 503,
    "slow_consumer": 429,
}
# Error events after which the stream reconnects with Last-Event-ID: a restart, or a reader that fell behind.
_RECONNECT_CODES = ("data_source_unavailable", "slow_consumer")


def _frames(res: Any) -> Iterator[Tuple[str, Optional[str], str]]:
    """Server-Sent Events frames as (event, id, data); comments (heartbeats) are skipped."""
    kind, event_id, data = "message", None, None
    while True:
        raw = res.readline()
        if not raw:
            return
        line = raw.decode("utf-8").rstrip("\r\n")
        if line == "":
            if data is not None:
                yield kind, event_id, data
            kind, event_id, data = "message", None, None
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "id":
            event_id = value
        elif field == "event":
            kind = value
        elif field == "data":
            data = value if data is None else data + "\n" + value
