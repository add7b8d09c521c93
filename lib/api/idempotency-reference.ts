/** How the reference documents Idempotency-Key: the header parameter of every POST and PATCH, and the notes' section. */

export const IDEMPOTENCY_KEY_PARAMETER = {
  name: "Idempotency-Key",
  in: "header" as const,
  required: false,
  description:
    "1 to 255 printable ASCII characters (a UUID is a good choice). The first answer is kept for 24 hours and replayed " +
    "for a retry of the same request with `Idempotent-Replayed: true`; the same key with another request is 422 " +
    "`idempotency_key_reused`, a retry while the first call runs is 409 `idempotency_key_in_use`.",
  schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7e]+$" },
  example: "6f1c9d2e-3b7a-4c55-9a0e-2d8f41b7c310",
};

export const IDEMPOTENCY_NOTES = `
## Idempotent requests
Every POST and PATCH accepts an \`Idempotency-Key\` header (1–255 printable ASCII characters; a malformed one is 400
\`invalid_request\` naming the header). Keys belong to the key's account and last 24 hours from their first use.
- The first call with a key runs; its answer is kept when a retry would get it again: 2xx, and 4xx except 401, 403, 408,
  409, 425 and 429. A 5xx, 429 or 503 answer (and a limit or licensing refusal) is not kept: a retry after a transient
  failure runs again.
- A retry with the same method, path and body (compared as a SHA-256 digest) gets the kept answer byte for byte: status,
  body, \`Content-Type\`, \`Cache-Control\`, \`Location\` and the first call's \`X-Request-Id\`, plus
  \`Idempotent-Replayed: true\` and the rate-limit headers of now.
- The same key with another method, path or body → 422 \`idempotency_key_reused\`.
- A retry while the first call is still running → 409 \`idempotency_key_in_use\` with \`Retry-After: 1\`; retry it to get
  the first call's answer. No two calls with one key run at once, on any number of servers.
- Metering: a replay takes one unit of the per-minute burst window (429 past it, like any request) but never quota, and
  writes no usage event: the first call's event is the only record of it, so usage shows one call. 422 and 409 answers
  are recorded as client errors and use no quota, like other refusals.
- Alerts: the claim is taken before the handler's transaction; a handler that fails releases it, so one key never
  creates two webhooks. Should a server stop between the handler's commit and keeping its answer, the key answers 409
  until it expires rather than run twice.
- Expiry: an expired key is taken over by its next use, and a daily sweep in every server deletes the rest.
`;
