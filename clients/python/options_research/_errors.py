"""The one error class for both route families' error bodies, plus connection failures and timeouts."""
from typing import Optional


class ApiError(Exception):
    """An error answer of the API (either family's shape), or no usable answer at all.

    ``status`` is 0 when no answer arrived; ``code`` is then ``connection_error`` or ``timeout``.
    An answer that is not the API's error body has code ``unexpected_response``.
    """

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        request_id: Optional[str] = None,
        retry_after: Optional[int] = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.request_id = request_id
        self.retry_after = retry_after

    def __repr__(self) -> str:
        return f"ApiError(status={self.status}, code={self.code!r}, message={self.message!r}, request_id={self.request_id!r})"

    def __str__(self) -> str:
        return f"{self.status} {self.code}: {self.message}" + (f" (request {self.request_id})" if self.request_id else "")
