"""Standard Webhooks verification: HMAC-SHA256 over ``{id}.{timestamp}.{body}``, timestamp tolerance, constant-time compare."""
import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Mapping, Optional, Sequence, Union

DEFAULT_TOLERANCE_SECONDS = 300


class WebhookVerificationError(Exception):
    """The delivery is not authentic, or too old or too new to accept."""


def _header(headers: Mapping[str, Any], name: str) -> Optional[str]:
    for key, value in headers.items():
        if key.lower() == name:
            if isinstance(value, (list, tuple)):
                return str(value[0]) if value else None
            return str(value)
    return None


def _key(secret: str) -> bytes:
    raw = secret[len("whsec_") :] if secret.startswith("whsec_") else secret
    try:
        return base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError) as err:
        raise WebhookVerificationError("The signing secret is not a whsec_ base64 secret.") from err


def verify_webhook(
    payload: Union[str, bytes],
    headers: Mapping[str, Any],
    secret: Union[str, Sequence[str]],
    *,
    tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS,
    now: Optional[float] = None,
) -> Any:
    """Verifies an alert delivery and returns its parsed event.

    ``payload`` is the raw body exactly as received; ``secret`` may be a list of two during a rotation (either
    verifies). Raises WebhookVerificationError on a missing header, a timestamp outside the tolerance or no
    matching signature.
    """
    msg_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not msg_id or not timestamp or not signatures:
        raise WebhookVerificationError("Missing webhook-id, -timestamp or -signature.")
    if not timestamp.isdigit() or len(timestamp) > 12:
        raise WebhookVerificationError("webhook-timestamp is not Unix seconds.")
    current = int(time.time() if now is None else now)
    if abs(current - int(timestamp)) > tolerance_seconds:
        raise WebhookVerificationError("webhook-timestamp is too old or too new.")
    body = payload.encode("utf-8") if isinstance(payload, str) else bytes(payload)
    content = msg_id.encode("utf-8") + b"." + timestamp.encode("ascii") + b"." + body
    offered = [p[1] for p in (s.split(",", 1) for s in signatures.split(" ")) if len(p) == 2 and p[0] == "v1"]
    secrets = [secret] if isinstance(secret, str) else list(secret)
    if not secrets:
        raise WebhookVerificationError("No signing secret given.")
    for s in secrets:
        expected = base64.b64encode(hmac.new(_key(s), content, hashlib.sha256).digest()).decode("ascii")
        # compare_digest on every offered signature: the time taken says nothing about where they differ
        if any(hmac.compare_digest(o.encode("ascii", "replace"), expected.encode("ascii")) for o in offered):
            try:
                return json.loads(body.decode("utf-8"))
            except ValueError as err:
                raise WebhookVerificationError("The signed body is not JSON.") from err
    raise WebhookVerificationError("No signature matches the signing secret.")
