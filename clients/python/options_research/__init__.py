"""Client for the Options Market Research API (standard library only, Python 3.9+)."""
from ._client import USER_AGENT, Client, __version__
from ._errors import ApiError
from ._raw import RawResponse
from ._generated import API_VERSION, OPERATIONS
from ._result import RateLimit, Result
from ._webhooks import WebhookVerificationError, verify_webhook

__all__ = [
    "API_VERSION",
    "OPERATIONS",
    "ApiError",
    "Client",
    "RateLimit",
    "RawResponse",
    "Result",
    "USER_AGENT",
    "WebhookVerificationError",
    "__version__",
    "verify_webhook",
]
