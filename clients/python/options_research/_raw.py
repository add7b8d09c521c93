"""``client.with_raw_response``: the same methods, answering with the HTTP status, headers and request id."""
from typing import Any, Callable, Dict, Generic, TypeVar

from ._transport import _Answer

T = TypeVar("T")


class RawResponse(Generic[T]):
    """A successful answer before parsing: ``status``, ``headers`` (lower-cased names), ``request_id``, ``content``.

    ``parse()`` gives what the plain method returns (a ``Result``, or the CSV text of ``get_history_csv``).
    Error answers still raise ``ApiError`` (which carries status, code and request id).
    """

    def __init__(self, answer: _Answer, parse: Callable[[_Answer], T]) -> None:
        self.status: int = answer.status
        self.headers: Dict[str, str] = dict(answer.headers)
        self.request_id: str = answer.headers.get("x-request-id", "")
        self.content: bytes = answer.body
        self._answer = answer
        self._parse = parse

    def text(self) -> str:
        return self.content.decode("utf-8")

    def parse(self) -> T:
        return self._parse(self._answer)

    def __repr__(self) -> str:
        return f"RawResponse(status={self.status}, request_id={self.request_id!r})"


def raw_parse(answer: _Answer, parse: Callable[[_Answer], Any], raw: bool) -> Any:
    return RawResponse(answer, parse) if raw else parse(answer)
