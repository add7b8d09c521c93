"""The hand-written layer over the generated operation table: requests, retries, timeouts, results and errors."""
import copy
import json
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Any, Dict, Iterator, Mapping, Optional, Sequence, Tuple, Union

from ._errors import ApiError
from ._generated import OPERATIONS, GeneratedMethods, Operation
from ._raw import raw_parse
from ._result import RateLimit, Result
from ._transport import MAX_ANSWER_BYTES, _Answer, error_of, parse_retry_after, retry_delay, retryable_status, send, with_retries

__version__ = "0.2.0"
USER_AGENT = f"options-research-python/{__version__}"

DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_RETRIES = 2

__all__ = ["Client", "USER_AGENT", "__version__", "_Answer", "parse_retry_after", "retry_delay"]


def _int(v: Optional[str]) -> Optional[int]:
    return int(v) if v is not None and v.isdigit() else None


def _query_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(str(x) for x in v)
    return str(v)


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
        user_agent: Optional[str] = None,
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
        self.user_agent = user_agent or USER_AGENT
        self._raw = False

    @property
    def with_raw_response(self) -> "Client":
        """The same methods, returning a ``RawResponse`` (status, headers, request_id, content, parse()) instead.

        >>> raw = client.with_raw_response.get_ticker_summary(symbol="AAPL")
        >>> raw.status, raw.headers["x-ratelimit-remaining"], raw.request_id, raw.parse().data
        """
        twin = copy.copy(self)
        twin._raw = True
        return twin

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
        sent = {"Accept": "application/json", "User-Agent": self.user_agent}
        if op.authenticated:
            sent["Authorization"] = f"Bearer {self.api_key}"
        if body is not None:
            sent["Content-Type"] = "application/json"
        if key is not None:
            sent["Idempotency-Key"] = key
        sent.update(headers or {})
        limit = self.timeout if timeout is None else timeout
        answer = with_retries(lambda: self._send(op.method, url, sent, body, limit), retries)
        return raw_parse(answer, _result, self._raw)

    def get_history_csv(
        self,
        *,
        symbol: str,
        from_: Optional[str] = None,
        to: Optional[str] = None,
        fields: Optional[str] = None,
        timeout: Optional[float] = None,
        headers: Optional[Mapping[str, str]] = None,
    ) -> str:
        """GET /api/v1/history/{symbol} as CSV text: the disclaimer as a ``# `` first line, a header, one row per day.

        Retried like every GET (408, 409, 429, 5xx, connection errors, timeouts)."""
        url, _ = self._build(OPERATIONS["getHistory"], {"symbol": symbol, "from": from_, "to": to, "fields": fields, "format": "csv"})
        sent = {"Accept": "text/csv", "User-Agent": self.user_agent, "Authorization": f"Bearer {self.api_key}"}
        sent.update(headers or {})
        limit = self.timeout if timeout is None else timeout
        answer = with_retries(lambda: self._send("GET", url, sent, None, limit), self.max_retries)
        return raw_parse(answer, _csv_text, self._raw)  # type: ignore[no-any-return]

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

        A dropped, ended or silent connection (no byte for ``read_timeout`` seconds) is resumed with Last-Event-ID
        (no event missed or repeated), up to ``max_reconnects`` consecutive failures; a connection that delivers an
        event or a heartbeat resets the count. The service's final ``error`` event (revoked key, plan, quota) raises ApiError.
        Close the generator (or break out of the loop) to disconnect.
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
                "User-Agent": self.user_agent,
                "Authorization": f"Bearer {self.api_key}",
            }
            if last is not None:
                sent["Last-Event-ID"] = last
            req = urllib.request.Request(url, method="GET", headers=sent)
            quiet = f"No byte from {self.base_url} for {read_timeout} s (the server sends a heartbeat every 15 s)."
            silent = ApiError(0, "timeout", quiet)
            try:
                res = urllib.request.urlopen(req, timeout=read_timeout)
            except urllib.error.HTTPError as err:
                with err:
                    failure = error_of(_Answer(err.code, dict(err.headers.items()), err.read(MAX_ANSWER_BYTES)))
                if not retryable_status(err.code):
                    raise failure
            except (socket.timeout, TimeoutError):
                failure = silent
            except (urllib.error.URLError, OSError) as err:
                timed_out = isinstance(getattr(err, "reason", None), (socket.timeout, TimeoutError))
                no_answer = ApiError(0, "connection_error", f"No answer from {self.base_url}: {err}")
                failure = silent if timed_out else no_answer
            else:
                with res:
                    request_id = res.headers.get("x-request-id")
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
                                    request_id=request_id,
                                )
                                if code not in _RECONNECT_CODES:
                                    raise failure
                                break
                            failures = 0  # this connection delivers (an event or a heartbeat)
                            if kind == _COMMENT:
                                continue
                            if event_id is not None:
                                last = event_id
                            yield json.loads(data)
                        else:
                            ended = f"The stream from {self.base_url} ended."
                            failure = ApiError(0, "connection_error", ended, request_id=request_id)
                    except (socket.timeout, TimeoutError):
                        failure = silent
                    except (ConnectionError, OSError) as err:
                        broke = f"The stream from {self.base_url} broke: {err}"
                        failure = ApiError(0, "connection_error", broke, request_id=request_id)
            if failure is not None:
                failures += 1
                if failures > max_reconnects:
                    raise failure
                time.sleep(retry_delay(failures, failure.retry_after))

    def _send(self, method: str, url: str, headers: Mapping[str, str], body: Optional[bytes], timeout: float) -> _Answer:
        """One HTTP exchange (tests override it to record attempts); no answer at all becomes ApiError with status 0."""
        return send(method, url, headers, body, timeout, self.base_url)


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


def _csv_text(answer: _Answer) -> str:
    return answer.body.decode("utf-8")


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


# The kind _frames gives a comment (a heartbeat): it carries nothing but shows the connection is alive.
_COMMENT = ":"


def _frames(res: Any) -> Iterator[Tuple[str, Optional[str], str]]:
    """Server-Sent Events frames as (event, id, data); a comment (heartbeat) comes as (":", None, "")."""
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
            yield _COMMENT, None, ""
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "id":
            event_id = value
        elif field == "event":
            kind = value
        elif field == "data":
            data = value if data is None else data + "\n" + value
