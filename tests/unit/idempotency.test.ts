/** Idempotency-Key's rules that need no database: key format, which answers are kept, the digest, the reference. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { idempotencyKeyOf, requestDigest, storable } from "../../lib/api/idempotency";
import { ApiError } from "../../lib/api/errors";
import { allRoutes } from "../../lib/api/routes";
import { buildOpenApi } from "../../lib/api/openapi";

const keyOf = (value: string) => idempotencyKeyOf(new Headers({ "idempotency-key": value }));

test("a key is 1 to 255 printable ASCII characters; anything else is invalid_request naming the header", () => {
  assert.equal(idempotencyKeyOf(new Headers()), null);
  for (const ok of ["a", "x".repeat(255), "6f1c9d2e-3b7a 4c55~!"]) assert.equal(keyOf(ok), ok);
  // An empty (or all-blank: HTTP trims it) value is malformed, not absent.
  for (const bad of ["", "  ", "x".repeat(256), "caf\u00e9", "tab\there"]) {
    const got = keyOf(bad);
    assert.ok(got instanceof ApiError && got.code === "invalid_request", bad);
    assert.match(got.message, /Idempotency-Key/);
  }
});

test("kept: 2xx and deterministic 4xx; never 5xx, 429, 503 or a refusal that depends on time or limits", () => {
  for (const s of [200, 201, 202, 204, 400, 404, 413, 422]) assert.equal(storable(s), true, String(s));
  for (const s of [401, 403, 408, 409, 425, 429, 500, 502, 503, 504]) assert.equal(storable(s), false, String(s));
});

test("the digest covers method, path and body", () => {
  const d = requestDigest("POST", "/api/v1/alerts", "{}");
  assert.match(d, /^[0-9a-f]{64}$/);
  assert.notEqual(d, requestDigest("PATCH", "/api/v1/alerts", "{}"));
  assert.notEqual(d, requestDigest("POST", "/api/v1/outputs", "{}"));
  assert.notEqual(d, requestDigest("POST", "/api/v1/alerts", "{ }"));
});

test("every POST and PATCH declares the two codes and documents the header; no other method does", () => {
  const doc = buildOpenApi(allRoutes);
  for (const route of allRoutes) {
    const op = doc.paths[route.path][route.method.toLowerCase()];
    const header = op.parameters.some((p) => p.in === "header" && p.name === "Idempotency-Key");
    const declared = ["idempotency_key_in_use", "idempotency_key_reused"].every((c) =>
      (route.errors as readonly string[]).includes(c),
    );
    const idempotent = route.method === "POST" || route.method === "PATCH";
    assert.equal(header, idempotent, `${route.id} header parameter`);
    assert.equal(declared, idempotent, `${route.id} declares the idempotency codes`);
    if (idempotent) assert.ok(op.responses["409"] && op.responses["422"], route.id);
  }
  assert.match(doc.info.description, /## Idempotent requests/);
});
