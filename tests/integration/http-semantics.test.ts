/**
 * The HTTP layer over real HTTP to the standalone server (docs/api-contract.md §11): CORS, ETag/304 and Cache-Control,
 * br/gzip, HEAD, WWW-Authenticate, Location and problem details, with what each is metered as.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startApiServer, type RunningServer } from "../helpers/api-server";
import { accountWithKey } from "../helpers/accounts";
import { validAlertBody } from "../helpers/contract";
import { setBrowserOrigins } from "../../lib/domain/browser-origins";
import { systemActor } from "../../lib/domain/audit";
import { lastFridayClose } from "../helpers/live-data";

const LISTED = "http://127.0.0.1:4101";
const OPERATOR = "http://operator.example:8080";
const STRANGER = "http://127.0.0.1:4102";

let t: TestDatabase;
let server: RunningServer;
let mine: Awaited<ReturnType<typeof accountWithKey>>;
let other: Awaited<ReturnType<typeof accountWithKey>>;
/** Webhooks (alerts) need a live Pro key. */
let live: Awaited<ReturnType<typeof accountWithKey>>;

before(async () => {
  t = await createSeededTestDatabase("http_semantics", {
    seed: "options-research-demo-v1",
    now: lastFridayClose(new Date()),
  });
  server = await startApiServer(t.url, { CORS_ORIGINS: OPERATOR, WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true" });
  await t.sql`update plans set a_per_minute = 100000, b_per_minute = 100000, a_per_month = 100000, b_per_day = 100000`;
  mine = await accountWithKey(t.db, { plan: "pro" });
  other = await accountWithKey(t.db, { plan: "pro" });
  live = await accountWithKey(t.db, { plan: "pro", env: "live", style: "standard" });
  await setBrowserOrigins(t.db, { accountId: mine.accountId, origins: [`${LISTED}/`] }, systemActor("test"));
});

after(async () => {
  await server?.stop();
  await t?.drop();
});

const call = (path: string, init: RequestInit & { key?: string } = {}) => {
  const headers = new Headers(init.headers);
  if (init.key) headers.set("authorization", `Bearer ${init.key}`);
  return fetch(`${server.baseUrl}${path}`, { ...init, headers });
};

/** Raw bytes and headers (fetch would decode the content coding). */
function raw(path: string, headers: Record<string, string>): Promise<{ status: number; headers: any; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.baseUrl}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end();
  });
}

const usageCount = async (keyId: string, status: number) =>
  Number(
    (await t.sql`select count(*)::int as n from usage_events where key_id = ${keyId} and status = ${status}`)[0].n,
  );

describe("CORS", () => {
  it("the reference and health answer any origin, preflight and request", async () => {
    for (const path of ["/api/v1/openapi.json", "/api/v1/health"]) {
      const pre = await call(path, {
        method: "OPTIONS",
        headers: { origin: STRANGER, "access-control-request-method": "GET" },
      });
      assert.equal(pre.status, 204);
      assert.equal(pre.headers.get("access-control-allow-origin"), "*");
      const res = await call(path, { headers: { origin: STRANGER } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("access-control-allow-origin"), "*");
    }
  });

  it("a preflight names the methods, the three key headers and the max age for a listed origin only", async () => {
    const path = "/api/v1/ticker/AAPL/summary";
    const ask = (origin: string) =>
      call(path, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "GET", "access-control-request-headers": "x-api-key" },
      });
    for (const origin of [LISTED, OPERATOR]) {
      const pre = await ask(origin);
      assert.equal(pre.status, 204);
      assert.equal(pre.headers.get("access-control-allow-origin"), origin);
      assert.equal(pre.headers.get("access-control-allow-methods"), "GET, HEAD, POST, PATCH, DELETE, OPTIONS");
      const allowed = pre.headers.get("access-control-allow-headers")?.toLowerCase() ?? "";
      for (const h of [
        "authorization",
        "x-api-key",
        "x-service-key",
        "content-type",
        "idempotency-key",
        "x-request-id",
      ])
        assert.ok(allowed.split(", ").includes(h), h);
      assert.equal(pre.headers.get("access-control-max-age"), "600");
    }
    const refused = await ask(STRANGER);
    assert.equal(refused.status, 204);
    assert.equal(refused.headers.get("access-control-allow-origin"), null);
    assert.equal(refused.headers.get("access-control-allow-methods"), null);
  });

  it("an answer is shared with the calling account's origins and the operator's, never another account's", async () => {
    const path = "/api/v1/ticker/AAPL/summary";
    const own = await call(path, { key: mine.key, headers: { origin: LISTED } });
    assert.equal(own.status, 200);
    assert.equal(own.headers.get("access-control-allow-origin"), LISTED);
    const exposed = own.headers.get("access-control-expose-headers") ?? "";
    for (const h of ["RateLimit", "RateLimit-Policy", "X-RateLimit-Remaining", "Retry-After", "X-Request-Id"])
      assert.ok(exposed.split(", ").includes(h), h);
    assert.match(own.headers.get("vary") ?? "", /Origin/);
    const foreign = await call(path, { key: other.key, headers: { origin: LISTED } });
    assert.equal(foreign.status, 200);
    assert.equal(foreign.headers.get("access-control-allow-origin"), null);
    const operator = await call(path, { key: other.key, headers: { origin: OPERATOR } });
    assert.equal(operator.headers.get("access-control-allow-origin"), OPERATOR);
  });
});

describe("validators, freshness and 304", () => {
  it("a GET carries a weak ETag and private max-age; If-None-Match answers 304, metered as the 200", async () => {
    const path = "/api/v1/ticker/AAPL/summary";
    const first = await call(path, { key: mine.key });
    assert.equal(first.status, 200);
    const etag = first.headers.get("etag") ?? "";
    assert.match(etag, /^W\/"[A-Za-z0-9_-]{22}"$/);
    assert.match(first.headers.get("cache-control") ?? "", /^private, max-age=[0-5]$/);
    await first.text();
    const before200 = await usageCount(mine.keyId, 200);
    const again = await call(path, { key: mine.key, headers: { "if-none-match": etag } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), "");
    assert.equal(again.headers.get("etag"), etag);
    assert.ok(again.headers.get("ratelimit"), "a 304 still says where the windows stand");
    assert.ok(again.headers.get("x-request-id"));
    assert.equal(await usageCount(mine.keyId, 200), before200 + 1, "a 304 is metered as the 200 it stands for");
    const changed = await call(path, { key: mine.key, headers: { "if-none-match": 'W/"something-else"' } });
    assert.equal(changed.status, 200);
  });

  it("HEAD answers GET's status and headers without a body, and is metered like GET", async () => {
    const path = "/api/v1/data/yield-curve";
    const get = await call(path, { key: mine.key });
    await get.text();
    const before200 = await usageCount(mine.keyId, 200);
    const head = await call(path, { key: mine.key, method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), "");
    assert.equal(head.headers.get("etag"), get.headers.get("etag"));
    assert.equal(head.headers.get("content-type"), get.headers.get("content-type"));
    assert.equal(await usageCount(mine.keyId, 200), before200 + 1);
  });

  it("account resources are kept but revalidated (no-cache); health is never stored", async () => {
    const list = await call("/api/v1/alerts", { key: live.key });
    assert.equal(list.status, 200);
    assert.equal(list.headers.get("cache-control"), "private, no-cache");
    assert.ok(list.headers.get("etag"));
    const health = await call("/api/v1/health");
    assert.equal(health.headers.get("cache-control"), "no-store");
    assert.equal(health.headers.get("etag"), null);
  });
});

describe("content coding", () => {
  it("br and gzip for bodies over 1 kB, as the request ranks them; identity otherwise", async () => {
    const path = "/api/v1/ticker/AAPL/summary";
    const auth = { authorization: `Bearer ${mine.key}` };
    const plain = await raw(path, auth);
    assert.equal(plain.headers["content-encoding"], undefined);
    assert.ok(plain.body.length > 1024);
    const br = await raw(path, { ...auth, "accept-encoding": "gzip, br" });
    assert.equal(br.headers["content-encoding"], "br");
    assert.match(br.headers.vary, /Accept-Encoding/);
    assert.equal(JSON.parse(brotliDecompressSync(br.body).toString()).data.symbol, "AAPL");
    const gz = await raw(path, { ...auth, "accept-encoding": "br;q=0.5, gzip" });
    assert.equal(gz.headers["content-encoding"], "gzip");
    assert.equal(JSON.parse(gunzipSync(gz.body).toString()).data.symbol, "AAPL");
    const small = await raw(path, { "accept-encoding": "br, gzip" }); // 401: a small body
    assert.equal(small.status, 401);
    assert.equal(small.headers["content-encoding"], undefined);
  });
});

describe("status semantics", () => {
  it("401 carries WWW-Authenticate, with invalid_token when a key was refused", async () => {
    const none = await call("/api/v1/ticker/AAPL/summary");
    assert.equal(none.status, 401);
    assert.equal(none.headers.get("www-authenticate"), 'Bearer realm="api"');
    const bad = await call("/api/v1/ticker/AAPL/summary", { key: "svc_test_notakey" });
    assert.equal(bad.status, 401);
    assert.equal(bad.headers.get("www-authenticate"), 'Bearer realm="api", error="invalid_token"');
  });

  it("201 carries the new alert's Location, which answers it", async () => {
    const res = await call("/api/v1/alerts", {
      key: live.key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(validAlertBody()),
    });
    assert.equal(res.status, 201, await res.clone().text());
    const { data } = (await res.json()) as { data: { webhookId: string } };
    assert.equal(res.headers.get("location"), `/api/v1/alerts/${data.webhookId}`);
    const got = await call(res.headers.get("location") ?? "", { key: live.key });
    assert.equal(got.status, 200);
  });

  it("Accept: application/problem+json adds RFC 9457 members to family B errors only", async () => {
    const accept = { accept: "application/problem+json" };
    const b = await call("/api/v1/ai/symbol/$$$/summary", { key: mine.key, headers: accept });
    assert.equal(b.status, 400);
    assert.equal(b.headers.get("content-type"), "application/problem+json");
    const body = (await b.json()) as Record<string, any>;
    assert.equal(body.type, "urn:options-research:error:invalid_request");
    assert.equal(body.status, 400);
    assert.equal(body.detail, body.error.message);
    assert.equal(body.instance, `urn:options-research:request:${b.headers.get("x-request-id")}`);
    assert.equal(body.dataLabel, "demo");
    const plainB = await call("/api/v1/ai/symbol/$$$/summary", { key: mine.key });
    assert.deepEqual(Object.keys((await plainB.json()) as object).sort(), [
      "data",
      "dataLabel",
      "disclaimer",
      "error",
      "isMockData",
      "timestamp",
    ]);
    const a = await call("/api/v1/ticker/$$$/summary", { key: mine.key, headers: accept });
    assert.equal(a.status, 400);
    assert.match(a.headers.get("content-type") ?? "", /^application\/json/);
    assert.deepEqual(Object.keys((await a.json()) as object), ["error"]);
  });
});
