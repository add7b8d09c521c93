"""What every call returns: the data with the envelope's disclaimer, data label and mock flag, in both families."""
from dataclasses import dataclass
from typing import Generic, Optional, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class RateLimit:
    """The burst window's X-RateLimit-* headers and the IETF structured fields as sent."""

    limit: Optional[int]
    remaining: Optional[int]
    reset: Optional[int]
    """Unix time (seconds) at which the per-minute window resets."""
    header: Optional[str]
    policy: Optional[str]


@dataclass(frozen=True)
class Result(Generic[T]):
    data: T
    disclaimer: str
    """Must be shown to end users wherever the analytics appear."""
    data_label: str
    """Family A's meta.data_freshness, family B's dataLabel: live, delayed-15m, end-of-day, demo or none."""
    is_mock: bool
    """True for test keys (demo data)."""
    request_id: str
    """The answer's X-Request-Id: quote it to support."""
    rate_limit: Optional[RateLimit]
    status: int
