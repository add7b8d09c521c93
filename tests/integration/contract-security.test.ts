/**
 * docs/api-contract.md §1, §2, §4, §5 against the gateway the standalone server serves (in-process route harness):
 * every metered route × every credential form × every credential, licensing and limit error, the success envelopes,
 * rate-limit headers, request ids, 404/405, health and the reference, tenant isolation of webhooks, and that no
 * response leaks a key, digest, secret, SQL or stack.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startRouteHarness, type Harness } from "../helpers/route-harness";
import { undeclaredErrors, undeclaredInLog } from "../helpers/declared-errors";
import { changeKeyStatus } from "../../lib/domain/keys";
import { requireAccountByEmail, setAccountStatus } from "../../lib/domain/accounts";
import { systemActor } from "../../lib/domain/audit";
import { setLicensing } from "../../lib/domain/licensing";
import { generateKey } from "../../lib/keys/format";
import { VERSION } from "../../lib/version";
import {
  CREDENTIAL_FORMS,
  type CredentialForm,
  type Got,
  type RouteCase,
  type TestCaller,
  assertNoLeaks,
  call,
  callerFor,
  credentialHeaders,
  describeSent,
  expectErrorShape,
  expectRateLimitHeaders,
  expectRequestId,
  expectSuccessShape,
  minuteHeadroom,
  newCaller,
  outputsBodyFromChain,
  historyFixture,
  planLimits,
  received,
  routeCases,
  send,
  setPlanLimits,
  webhookRows,
  HOOK_URL,
  UNKNOWN_WEBHOOK_ID,
} from "../helpers/contract";

const SEED = "options-research-demo-v1";

/** Runs every case, collects every failure (not only the first) and reports them together. */
async function all<T>(items: T[], fn: (item: T) => Promise<void>): Promise<void> {
  const results = await Promise.allSettled(items.map(fn));
  const failures = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
  if (failures.length) {
    const text = failures
      .slice(0, 8)
      .map((f) => (f instanceof Error ? f.message : String(f)))
      .join("\n---\n");
    assert.fail(`${failures.length}/${items.length} case(s) failed:\n${text}`);
  }
}

const pathOnly = (p: string) => p.split("?")[0];
const is2xx = (r: Got) => r.status >= 200 && r.status < 300;

describe("contract: keys, licensing, limits and shapes on every route", () => {
  let t: TestDatabase;

  /** A refused state-changing call left the account's webhooks as they were. */
  async function assertRefusedWroteNothing(routeId: string, c: TestCaller): Promise<void> {
    if (routeId === "POST /api/v1/alerts") {
      const [{ n }] = await t.sql<
        { n: number }[]
      >`select count(*)::int as n from webhooks where account_id = ${c.accountId}`;
      assert.equal(n, 1, "the refused registration wrote nothing");
    }
    if (routeId === "DELETE /api/v1/alerts/{webhookId}") {
      const [w] = await t.sql<{ status: string }[]>`select status from webhooks where id = ${c.webhookIds[1]}`;
      assert.equal(w.status, "active", "the refused delete deleted nothing");
    }
  }
  let server: Harness;
  let base: string;
  let routes: RouteCase[];
  const matrix = () => routes.flatMap((rc) => CREDENTIAL_FORMS.map((form) => ({ rc, form })));
  const byId = (id: string) => routes.find((r) => r.id === id)!;

  before(async () => {
    t = await createSeededTestDatabase("contractsec", { seed: SEED, now: new Date() });
    routes = routeCases({ outputsBody: await outputsBodyFromChain(t.sql), historyDate: await historyFixture(t.db) });
    server = await startRouteHarness(t.url);
    base = server.baseUrl;
  });

  after(async () => {
    await server?.stop();
    await t?.drop();
  });

  /** Sends the route's valid request as a fresh OK caller; returns the caller and the response. */
  async function okCall(
    rc: RouteCase,
    form: CredentialForm,
    caller?: TestCaller,
  ): Promise<{ caller: TestCaller; res: Got }> {
    const c = caller ?? (await callerFor(t.db, rc));
    const res = await send(base, rc, c.key, form, { webhookId: c.webhookIds[0] });
    return { caller: c, res };
  }

  // ------------------------------------------------------------------------------------------------ success

  it("every route answers its family's success envelope, for every credential form", async () => {
    await all(matrix(), async ({ rc, form }) => {
      const { caller, res } = await okCall(rc, form);
      const data = expectSuccessShape(rc.family, res, {
        env: caller.env,
        plan: caller.env === "test" ? "Sandbox" : undefined,
        endpoint: pathOnly(res.sent.path),
        status: rc.def.successStatus ?? 200,
        label: caller.env === "test" ? "demo" : undefined,
      });
      expectRateLimitHeaders(res, rc.family);
      // Reads are private and revalidated by ETag (§11): max-age to the next data update, no-cache for account data.
      const reads = rc.def.method === "GET" && (rc.def.successStatus ?? 200) === 200;
      if (reads) assert.match(res.headers.get("cache-control") ?? "", /^private, (max-age=\d+|no-cache)$/);
      else assert.equal(res.headers.get("cache-control"), "no-store", describeSent(res));
      switch (rc.id) {
        case "GET /api/v1/ticker/{symbol}/summary":
        case "GET /api/v1/signal-score/{symbol}":
        case "GET /api/v1/ai/symbol/{ticker}/summary":
        case "GET /api/v1/ai/symbol/{ticker}/no-trade":
          assert.equal(data.symbol, "AAPL");
          break;
        case "GET /api/v1/options-flow":
          assert.ok(Array.isArray(data.events) && data.events.length <= 5);
          assert.ok(data.events.every((e: { symbol: string }) => e.symbol === "AAPL"));
          break;
        case "GET /api/v1/data/watchlist-ranking":
          assert.deepEqual(data.symbols, ["AAPL", "MSFT", "TSLA"]);
          break;
        case "POST /api/v1/outputs":
          assert.ok(data.output && Array.isArray(data.riskFlags));
          break;
        case "POST /api/v1/alerts":
          assert.match(data.webhookId, /^wh_[0-9a-f]{24}$/);
          assert.equal(data.status, "active");
          assert.equal(data.url, HOOK_URL);
          assert.match(data.signingSecret, /^whsec_/);
          break;
        case "GET /api/v1/alerts":
          assert.deepEqual(
            data.webhooks.map((w: { webhookId: string }) => w.webhookId),
            caller.webhookIds,
          );
          assert.ok(data.webhooks.every((w: Record<string, unknown>) => !("signingSecret" in w)));
          break;
        case "GET /api/v1/alerts/{webhookId}":
          assert.equal(data.webhookId, caller.webhookIds[0]);
          assert.equal(data.status, "active");
          assert.equal("signingSecret" in data, false);
          break;
        case "DELETE /api/v1/alerts/{webhookId}":
          assert.equal(data.webhookId, caller.webhookIds[0]);
          assert.equal(data.status, "deleted");
          break;
      }
    });
  });

  it("the same key sent in two headers is one key, not two", async () => {
    await all(routes, async (rc) => {
      const c = await callerFor(t.db, rc);
      const res = await send(base, rc, c.key, "bearer", {
        webhookId: c.webhookIds[0],
        headers: { ...credentialHeaders("x-service-key", c.key), ...credentialHeaders("x-api-key", c.key) },
      });
      assert.ok(is2xx(res), `${describeSent(res)} → ${res.status} ${res.text.slice(0, 200)}`);
    });
  });

  it("rate-limit headers are consistent and count down within the minute", async () => {
    const callers = await Promise.all(routes.map((rc) => callerFor(t.db, rc, { webhooks: rc.needsWebhookId ? 2 : 0 })));
    await minuteHeadroom(5);
    await all(
      routes.map((rc, i) => ({ rc, c: callers[i] })),
      async ({ rc, c }) => {
        const r1 = await send(base, rc, c.key, "x-api-key", { webhookId: c.webhookIds[0] });
        const r2 = await send(base, rc, c.key, "x-api-key", { webhookId: c.webhookIds[1] });
        assert.ok(is2xx(r1) && is2xx(r2), `${describeSent(r1)} → ${r1.status}, ${r2.status}`);
        const h1 = expectRateLimitHeaders(r1, rc.family);
        const h2 = expectRateLimitHeaders(r2, rc.family);
        const plan = await planLimits(t.sql, c.env === "test" ? "sandbox" : "pro");
        const burstLimit = rc.family === "A" ? plan.a_per_minute : plan.b_per_minute;
        const quotaLimit = rc.family === "A" ? plan.a_per_month : plan.b_per_day;
        assert.equal(h1.policy[0].q, burstLimit, `minute q is the plan's limit: ${rc.id}`);
        assert.equal(h1.policy[1].q, quotaLimit, `quota q is the plan's limit: ${rc.id}`);
        assert.equal(h1.limit[0].r, burstLimit - 1, `first call leaves limit-1: ${rc.id}`);
        assert.equal(h2.limit[0].r, h1.limit[0].r - 1, `burst remaining decrements: ${rc.id}`);
        assert.equal(h2.xRemaining, h1.xRemaining - 1, `X-RateLimit-Remaining decrements: ${rc.id}`);
        assert.equal(h2.limit[1].r, h1.limit[1].r - 1, `quota remaining decrements: ${rc.id}`);
        assert.equal(h1.limit[1].r, quotaLimit - 1, `quota remaining after one call: ${rc.id}`);
        assert.equal(h1.xReset, h2.xReset, `same burst window: ${rc.id}`);
      },
    );
  });

  // ------------------------------------------------------------------------------------------------ request ids

  it("echoes a caller's X-Request-Id and replaces an unsafe or too long one", async () => {
    const a = byId("GET /api/v1/ticker/{symbol}/summary");
    const b = byId("GET /api/v1/data/yield-curve");
    const ca = await callerFor(t.db, a);
    const cb = await callerFor(t.db, b);
    const echoA = await send(base, a, ca.key, "bearer", { headers: { "x-request-id": "abc-123" } });
    expectSuccessShape("A", echoA, { env: "test" });
    assert.equal(echoA.headers.get("x-request-id"), "abc-123");
    assert.equal(echoA.json.meta.request_id, "abc-123");
    const echoB = await send(base, b, cb.key, "bearer", { headers: { "x-request-id": "abc-123" } });
    expectSuccessShape("B", echoB, { env: "test" });
    assert.equal(echoB.headers.get("x-request-id"), "abc-123");
    const max = "a".repeat(128);
    const echoMax = await send(base, b, cb.key, "bearer", { headers: { "x-request-id": max } });
    assert.equal(echoMax.headers.get("x-request-id"), max);
    for (const unsafe of ["x".repeat(200), "a".repeat(129), "abc 123", "abc<script>", 'ab"c']) {
      const res = await send(base, a, ca.key, "bearer", { headers: { "x-request-id": unsafe } });
      expectSuccessShape("A", res, { env: "test" });
      const id = res.headers.get("x-request-id")!;
      assert.notEqual(id, unsafe);
      assert.match(id, /^[A-Za-z0-9._:-]{1,128}$/);
      assert.equal(res.json.meta.request_id, id);
    }
    // errors echo it too, in both families, authenticated or not
    const missing = await send(base, a, null, "bearer", { headers: { "x-request-id": "abc-123" } });
    expectErrorShape("A", missing, 401, "missing_api_key");
    assert.equal(missing.headers.get("x-request-id"), "abc-123");
    const missingB = await send(base, b, null, "bearer", { headers: { "x-request-id": "abc-123" } });
    expectErrorShape("B", missingB, 401, "missing_api_key");
    assert.equal(missingB.headers.get("x-request-id"), "abc-123");
    const nf = await call(base, { method: "GET", path: "/api/v1/nope", headers: { "x-request-id": "abc-123" } });
    assert.equal(nf.headers.get("x-request-id"), "abc-123");
    // generated ids differ per request
    const r1 = await send(base, a, ca.key);
    const r2 = await send(base, a, ca.key);
    assert.notEqual(r1.headers.get("x-request-id"), r2.headers.get("x-request-id"));
  });

  // ------------------------------------------------------------------------------------------------ 404 / 405

  it("an unknown path under /api/v1 is 404 not_found in family A's error shape, with or without a key", async () => {
    const c = await newCaller(t.db, { plan: "sandbox", env: "test" });
    const paths = [
      "/api/v1/nope",
      "/api/v1/ticker/AAPL",
      "/api/v1/ticker/AAPL/summary/extra",
      "/api/v1/alerts/wh_000000000000000000000000/x",
      "/api/v1/data",
      "/api/v1/ai/symbol/AAPL",
    ];
    await all(
      paths.flatMap((path) => [null, c.key].map((key) => ({ path, key }))),
      async ({ path, key }) => {
        for (const method of ["GET", "POST"]) {
          const res = await call(base, { method, path, headers: key ? credentialHeaders("bearer", key) : {} });
          expectErrorShape("A", res, 404, "not_found");
        }
      },
    );
  });

  it("a known path with the wrong method is 405 method_not_allowed in the route's family shape, with Allow", async () => {
    const c = await newCaller(t.db, { plan: "sandbox", env: "test" });
    const cases: { method: string; path: string; family: "A" | "B"; allow: string[] }[] = [
      { method: "DELETE", path: "/api/v1/ticker/AAPL/summary", family: "A", allow: ["GET", "HEAD"] },
      { method: "POST", path: "/api/v1/signal-score/AAPL", family: "A", allow: ["GET", "HEAD"] },
      { method: "PUT", path: "/api/v1/options-flow", family: "A", allow: ["GET", "HEAD"] },
      { method: "PUT", path: "/api/v1/alerts", family: "B", allow: ["GET", "HEAD", "POST"] },
      {
        method: "PUT",
        path: `/api/v1/alerts/${UNKNOWN_WEBHOOK_ID}`,
        family: "B",
        allow: ["DELETE", "GET", "HEAD", "PATCH"],
      },
      { method: "GET", path: `/api/v1/alerts/${UNKNOWN_WEBHOOK_ID}/test`, family: "B", allow: ["POST"] },
      { method: "POST", path: "/api/v1/data/yield-curve", family: "B", allow: ["GET", "HEAD"] },
      { method: "GET", path: "/api/v1/outputs", family: "B", allow: ["POST"] },
      { method: "DELETE", path: "/api/v1/ai/symbol/AAPL/summary", family: "B", allow: ["GET", "HEAD"] },
      { method: "POST", path: "/api/v1/health", family: "B", allow: ["GET", "HEAD"] },
    ];
    await all(
      cases.flatMap((k) => [null, c.key].map((key) => ({ ...k, key }))),
      async (k) => {
        const res = await call(base, {
          method: k.method,
          path: k.path,
          headers: k.key ? credentialHeaders("x-api-key", k.key) : {},
        });
        expectErrorShape(k.family, res, 405, "method_not_allowed");
        const allow = (res.headers.get("allow") ?? "")
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
          .sort();
        assert.deepEqual(allow, k.allow, `Allow of ${k.method} ${k.path}`);
      },
    );
  });

  it("HEAD on a GET route answers like GET (status, headers, metering) without a body", async () => {
    const c = await newCaller(t.db, { plan: "sandbox", env: "test" });
    const health = await fetch(`${base}/api/v1/health`, { method: "HEAD" });
    assert.equal(health.status, 200);
    assert.equal(await health.text(), "");
    assert.match(health.headers.get("content-type") ?? "", /application\/json/);
    const [{ n: before }] = await t.sql<
      { n: number }[]
    >`select count(*)::int as n from usage_events where key_id = ${c.keyId}`;
    const res = await fetch(`${base}/api/v1/ticker/AAPL/summary`, {
      method: "HEAD",
      headers: { authorization: `Bearer ${c.key}` },
    });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "");
    assert.ok(res.headers.get("ratelimit"), "rate-limit headers as on GET");
    assert.ok(res.headers.get("x-request-id"));
    const [{ n: after }] = await t.sql<
      { n: number }[]
    >`select count(*)::int as n from usage_events where key_id = ${c.keyId}`;
    assert.equal(after, before + 1, "a HEAD is metered like the GET it mirrors");
    const missing = await fetch(`${base}/api/v1/ticker/AAPL/summary`, { method: "HEAD" });
    assert.equal(missing.status, 401);
    assert.equal(await missing.text(), "");
  });

  // ------------------------------------------------------------------------------------------------ health, reference

  it("health and the reference need no key and are never metered", async () => {
    const c = await newCaller(t.db, { plan: "sandbox", env: "test" });
    const [{ n: before }] = await t.sql<{ n: number }[]>`select count(*)::int as n from usage_events`;
    const [{ n: countersBefore }] = await t.sql<
      { n: number }[]
    >`select coalesce(sum(count), 0)::int as n from usage_counters`;
    for (const headers of [
      {},
      credentialHeaders("bearer", c.key),
      credentialHeaders("x-service-key", "svc_test_garbage"),
    ]) {
      const h = await call(base, { method: "GET", path: "/api/v1/health", headers });
      assert.equal(h.status, 200, h.text);
      expectRequestId(h);
      assert.equal(h.json.data.status, "ok");
      assert.equal(h.json.data.version, VERSION);
      assert.equal(typeof h.json.data.uptime, "number");
      assert.equal(typeof h.json.disclaimer, "string");
      assert.equal(typeof h.json.isMockData, "boolean");
      assert.equal(typeof h.json.timestamp, "string");
      const o = await call(base, { method: "GET", path: "/api/v1/openapi.json", headers });
      assert.equal(o.status, 200);
      expectRequestId(o);
      assert.match(String(o.json.openapi), /^3\.1/);
    }
    const [{ n: after }] = await t.sql<{ n: number }[]>`select count(*)::int as n from usage_events`;
    const [{ n: countersAfter }] = await t.sql<
      { n: number }[]
    >`select coalesce(sum(count), 0)::int as n from usage_counters`;
    assert.equal(after, before, "usage_events has no rows for health or the reference");
    assert.equal(countersAfter, countersBefore, "usage_counters unchanged");
    const [{ n: health }] = await t.sql<
      { n: number }[]
    >`select count(*)::int as n from usage_events where endpoint_id like '%health%' or endpoint_id like '%openapi%'`;
    assert.equal(health, 0);
  });

  // ------------------------------------------------------------------------------------------------ §2 credentials

  it("no key → 401 missing_api_key on every route (no header, or an empty key header)", async () => {
    const cases = routes.flatMap((rc) =>
      ([{}, { "x-api-key": "" }, { "X-Service-Key": "" }] as Record<string, string>[]).map((headers) => ({
        rc,
        headers,
      })),
    );
    await all(cases, async ({ rc, headers }) => {
      expectErrorShape(rc.family, await send(base, rc, null, "bearer", { headers }), 401, "missing_api_key");
    });
  });

  it("an empty Authorization header or a bare 'Bearer' carries no key → 401 missing_api_key, like an empty x-api-key", async () => {
    const cases = routes.flatMap((rc) => ["", "Bearer", "Bearer   "].map((authorization) => ({ rc, authorization })));
    await all(cases, async ({ rc, authorization }) => {
      expectErrorShape(
        rc.family,
        await send(base, rc, null, "bearer", { headers: { authorization } }),
        401,
        "missing_api_key",
      );
    });
  });

  it("a malformed key (wrong prefix, wrong length, bad checksum) → 401 invalid_api_key on every route × credential form", async () => {
    const real = await newCaller(t.db, { plan: "sandbox", env: "test" });
    const live = generateKey("live").key;
    const flipLast = (k: string) => k.slice(0, -1) + (k.endsWith("A") ? "B" : "A");
    const malformed = [
      "sk_test_" + real.key.slice("svc_test_".length), // wrong prefix
      "svc_prod_" + real.key.slice("svc_test_".length),
      "svc_live_" + real.key.slice("svc_test_".length), // checksum covers the prefix
      real.key.slice(0, -1), // too short
      real.key + "A", // too long
      flipLast(real.key), // bad checksum
      flipLast(live),
      real.key.toUpperCase(),
      "svc_test_" + "!".repeat(30),
    ];
    await all(
      matrix().flatMap(({ rc, form }) => malformed.map((key) => ({ rc, form, key }))),
      async ({ rc, form, key }) => {
        expectErrorShape(rc.family, await send(base, rc, key, form), 401, "invalid_api_key");
      },
    );
  });

  it("a well-formed key that was never issued → 401 invalid_api_key", async () => {
    const kinds = ["test", "live", "sk_live"] as const;
    await all(
      matrix().flatMap(({ rc, form }) => kinds.map((kind) => ({ rc, form, key: generateKey(kind).key }))),
      async ({ rc, form, key }) => {
        expectErrorShape(rc.family, await send(base, rc, key, form), 401, "invalid_api_key");
      },
    );
  });

  it("a revoked key → 401 invalid_api_key; it worked before", async () => {
    await all(matrix(), async ({ rc, form }) => {
      const c = await callerFor(t.db, rc, { webhooks: rc.needsWebhookId ? 2 : 0 });
      const ok = await send(base, rc, c.key, form, { webhookId: c.webhookIds[0] });
      assert.ok(is2xx(ok), `${describeSent(ok)} → ${ok.status}`);
      await changeKeyStatus(t.db, c.keyId, "revoke", systemActor("test"));
      expectErrorShape(
        rc.family,
        await send(base, rc, c.key, form, { webhookId: c.webhookIds[1] }),
        401,
        "invalid_api_key",
      );
    });
  });

  it("a deactivated key → 403 inactive_key; reactivated, it works again", async () => {
    await all(matrix(), async ({ rc, form }) => {
      const c = await callerFor(t.db, rc);
      await changeKeyStatus(t.db, c.keyId, "deactivate", systemActor("test"));
      const body = expectErrorShape(
        rc.family,
        await send(base, rc, c.key, form, { webhookId: c.webhookIds[0] }),
        403,
        "inactive_key",
      );
      if (rc.family === "B") assert.equal(body.isMockData, c.env === "test");
      await changeKeyStatus(t.db, c.keyId, "activate", systemActor("test"));
      const ok = await send(base, rc, c.key, form, { webhookId: c.webhookIds[0] });
      assert.ok(is2xx(ok), `${describeSent(ok)} → ${ok.status} ${ok.text.slice(0, 200)}`);
    });
  });

  it("a key of a deactivated account → 403 inactive_key", async () => {
    await all(matrix(), async ({ rc, form }) => {
      const c = await callerFor(t.db, rc);
      await setAccountStatus(
        t.db,
        (await requireAccountByEmail(t.db, c.email)).accountId,
        "inactive",
        systemActor("test"),
      );
      expectErrorShape(
        rc.family,
        await send(base, rc, c.key, form, { webhookId: c.webhookIds[0] }),
        403,
        "inactive_key",
      );
    });
  });

  it("a live key without the subscription → 403 subscription_required", async () => {
    const kinds = [
      { plan: "starter", style: "standard" as const }, // svc_live_ needs Pro or Enterprise
      { plan: "sandbox", style: "standard" as const },
      { plan: "sandbox", style: "sk" as const }, // svc_sk_live_ needs a paid plan
    ];
    await all(
      matrix().flatMap(({ rc, form }) => kinds.map((k) => ({ rc, form, k }))),
      async ({ rc, form, k }) => {
        const c = await newCaller(t.db, {
          plan: k.plan,
          env: "live",
          style: k.style,
          webhooks: rc.needsWebhookId ? 1 : 0,
        });
        expectErrorShape(
          rc.family,
          await send(base, rc, c.key, form, { webhookId: c.webhookIds[0] }),
          403,
          "subscription_required",
        );
      },
    );
  });

  it("two different keys in one request → 400 invalid_request", async () => {
    const pairs: [CredentialForm, CredentialForm][] = [
      ["bearer", "x-api-key"],
      ["bearer", "x-service-key"],
      ["x-api-key", "x-service-key"],
    ];
    await all(
      routes.flatMap((rc) => pairs.map((pair) => ({ rc, pair }))),
      async ({ rc, pair }) => {
        const c1 = await callerFor(t.db, rc);
        const c2 = await callerFor(t.db, rc);
        const res = await send(base, rc, c1.key, pair[0], {
          webhookId: c1.webhookIds[0],
          headers: credentialHeaders(pair[1], c2.key),
        });
        expectErrorShape(rc.family, res, 400, "invalid_request");
        // a garbage second key is still a second key
        const res2 = await send(base, rc, c1.key, pair[0], {
          webhookId: c1.webhookIds[0],
          headers: credentialHeaders(pair[1], "not-a-key"),
        });
        expectErrorShape(rc.family, res2, 400, "invalid_request");
      },
    );
  });

  // ------------------------------------------------------------------------------------------------ §5 licensing

  it("an endpoint pending licensing for test keys → 403 endpoint_pending_licensing, after credentials, not counted", async () => {
    const path = (rc: RouteCase) => rc.template;
    for (const rc of routes)
      await setLicensing(
        t.db,
        { path: path(rc), method: rc.method, env: "test", state: "pending_licensing", reason: "contract test" },
        systemActor("test"),
      );
    try {
      const callers: TestCaller[] = [];
      await all(matrix(), async ({ rc, form }) => {
        const c = await callerFor(t.db, rc, { plan: "sandbox", env: "test", webhooks: rc.needsWebhookId ? 1 : 0 });
        callers.push(c);
        const body = expectErrorShape(
          rc.family,
          await send(base, rc, c.key, form, { webhookId: c.webhookIds[0] }),
          403,
          "endpoint_pending_licensing",
        );
        if (rc.family === "B") {
          assert.equal(body.isMockData, true);
          assert.equal(body.dataLabel, "demo");
        }
        // credentials come first
        expectErrorShape(rc.family, await send(base, rc, null, form), 401, "missing_api_key");
        expectErrorShape(rc.family, await send(base, rc, generateKey("test").key, form), 401, "invalid_api_key");
      });
      const ids = callers.map((c) => c.keyId);
      // Issue 30: a pending call takes its key's burst unit (429 once the minute is spent), never the quota.
      const [used] = await t.sql<{ burst: number; quota: number }[]>`
        select coalesce(sum(count) filter (where bucket like '%:minute'), 0)::int as burst,
          coalesce(sum(count) filter (where bucket not like '%:minute'), 0)::int as quota
        from usage_counters where key_id = any(${ids})`;
      assert.deepEqual(used, { burst: callers.length, quota: 0 }, "pending calls take a burst unit each, no quota");
      const events = await t.sql<
        { n: number }[]
      >`select count(*)::int as n from usage_events where key_id = any(${ids}) and error_code = 'endpoint_pending_licensing'`;
      assert.equal(events[0].n, callers.length, "pending calls are metered as calls");
      // live keys are not affected by the test environment's state
      const live = await newCaller(t.db, { plan: "pro", env: "live", style: "standard", webhooks: 1 });
      for (const rc of routes.filter((r) => r.webhooks)) {
        const res = await send(base, rc, live.key, "bearer", {
          webhookId: rc.id.startsWith("DELETE") ? undefined : live.webhookIds[0],
        });
        assert.notEqual(res.json?.error?.code, "endpoint_pending_licensing", describeSent(res));
      }
    } finally {
      for (const rc of routes)
        await setLicensing(
          t.db,
          { path: path(rc), method: rc.method, env: "test", state: "enabled", reason: "contract test done" },
          systemActor("test"),
        );
    }
    await all(routes, async (rc) => {
      const { res } = await okCall(rc, "bearer");
      assert.ok(is2xx(res), `re-enabled: ${describeSent(res)} → ${res.status}`);
    });
  });

  it("by default live GET /api/v1/options-flow is pending licensing for a Pro live key", async () => {
    const rc = byId("GET /api/v1/options-flow");
    await all(
      [
        ...CREDENTIAL_FORMS.map((form) => ({ form, style: "standard" as const })),
        ...CREDENTIAL_FORMS.map((form) => ({ form, style: "sk" as const })),
      ],
      async ({ form, style }) => {
        for (const plan of ["pro", "enterprise"]) {
          const c = await newCaller(t.db, { plan, env: "live", style });
          const body = expectErrorShape("A", await send(base, rc, c.key, form), 403, "endpoint_pending_licensing");
          assert.deepEqual(Object.keys(body), ["error"]);
        }
      },
    );
    // the test environment serves it
    const c = await newCaller(t.db, { plan: "sandbox", env: "test" });
    assert.equal((await send(base, rc, c.key)).status, 200);
  });

  // ------------------------------------------------------------------------------------------------ §4 limits

  it("burst: with a per-minute limit of 1 the second call is 429 rate_limit_exceeded with Retry-After and RateLimit headers", async () => {
    const saved = { sandbox: await planLimits(t.sql, "sandbox"), pro: await planLimits(t.sql, "pro") };
    try {
      for (const id of ["sandbox", "pro"]) await setPlanLimits(t.sql, id, { a_per_minute: 1, b_per_minute: 1 });
      const cases = await Promise.all(
        matrix().map(async ({ rc, form }) => ({
          rc,
          form,
          c: await callerFor(t.db, rc, { webhooks: rc.needsWebhookId ? 2 : 0 }),
        })),
      );
      await minuteHeadroom(5);
      await all(cases, async ({ rc, form, c }) => {
        const first = await send(base, rc, c.key, form, { webhookId: c.webhookIds[0] });
        assert.ok(is2xx(first), `first call: ${describeSent(first)} → ${first.status} ${first.text.slice(0, 200)}`);
        const h1 = expectRateLimitHeaders(first, rc.family);
        assert.equal(h1.limit[0].r, 0);
        assert.equal(h1.policy[0].q, 1);
        const second = await send(base, rc, c.key, form, { webhookId: c.webhookIds[1] });
        expectErrorShape(rc.family, second, 429, "rate_limit_exceeded");
        const retry = second.headers.get("retry-after");
        assert.match(retry ?? "", /^\d+$/, `Retry-After is integer seconds: ${retry}`);
        assert.ok(Number(retry) >= 1 && Number(retry) <= 60, `Retry-After within the minute: ${retry}`);
        const h2 = expectRateLimitHeaders(second, rc.family);
        assert.equal(h2.limit[0].r, 0);
        assert.equal(h2.xRemaining, 0);
        assert.ok(
          Math.abs(h2.limit[0].t - Number(retry)) <= 1,
          `RateLimit t (${h2.limit[0].t}) agrees with Retry-After (${retry})`,
        );
        // a 429 does not consume quota; the first 2xx did
        const quota = await t.sql<
          { count: number }[]
        >`select count from usage_counters where key_id = ${c.keyId} and bucket = ${rc.family === "A" ? "A:month" : "B:day"}`;
        assert.equal(quota[0]?.count, 1, `quota after 2xx + 429: ${rc.id}`);
        await assertRefusedWroteNothing(rc.id, c);
      });
    } finally {
      for (const [id, l] of Object.entries(saved))
        await setPlanLimits(t.sql, id, { a_per_minute: l.a_per_minute, b_per_minute: l.b_per_minute });
    }
  });

  it("quota: with a per-month / per-day limit of 1, the call after one 2xx is 403 plan_limit_exceeded", async () => {
    const saved = { sandbox: await planLimits(t.sql, "sandbox"), pro: await planLimits(t.sql, "pro") };
    try {
      for (const id of ["sandbox", "pro"]) await setPlanLimits(t.sql, id, { a_per_month: 1, b_per_day: 1 });
      await all(matrix(), async ({ rc, form }) => {
        const c = await callerFor(t.db, rc, { webhooks: rc.needsWebhookId ? 2 : 0 });
        const first = await send(base, rc, c.key, form, { webhookId: c.webhookIds[0] });
        assert.ok(is2xx(first), `first call: ${describeSent(first)} → ${first.status} ${first.text.slice(0, 200)}`);
        const h1 = expectRateLimitHeaders(first, rc.family);
        assert.equal(h1.limit[1].r, 0, "quota spent after one call");
        assert.equal(h1.policy[1].q, 1);
        const second = await send(base, rc, c.key, form, { webhookId: c.webhookIds[1] });
        expectErrorShape(rc.family, second, 403, "plan_limit_exceeded");
        const h2 = expectRateLimitHeaders(second, rc.family);
        assert.equal(h2.limit[1].r, 0);
        const quota = await t.sql<
          { count: number }[]
        >`select count from usage_counters where key_id = ${c.keyId} and bucket = ${rc.family === "A" ? "A:month" : "B:day"}`;
        assert.equal(quota[0]?.count, 1, `quota counter stays at the limit: ${rc.id}`);
        await assertRefusedWroteNothing(rc.id, c);
      });
    } finally {
      for (const [id, l] of Object.entries(saved))
        await setPlanLimits(t.sql, id, { a_per_month: l.a_per_month, b_per_day: l.b_per_day });
    }
  });

  it("a non-2xx answer does not use quota: errors after the licensing gate leave the quota counter alone", async () => {
    const saved = await planLimits(t.sql, "pro");
    try {
      await setPlanLimits(t.sql, "pro", { b_per_day: 1 });
      const c = await newCaller(t.db, { plan: "pro", env: "live", style: "standard" });
      const get = byId("GET /api/v1/alerts/{webhookId}");
      const miss = await send(base, get, c.key, "bearer", { webhookId: UNKNOWN_WEBHOOK_ID });
      expectErrorShape("B", miss, 404, "not_found");
      const list = await send(base, byId("GET /api/v1/alerts"), c.key);
      expectSuccessShape("B", list, { env: "live" });
    } finally {
      await setPlanLimits(t.sql, "pro", { b_per_day: saved.b_per_day });
    }
  });

  it("limits are exact under concurrency: N concurrent calls against a limit L admit exactly min(N, L)", async () => {
    const saved = await planLimits(t.sql, "sandbox");
    try {
      await setPlanLimits(t.sql, "sandbox", { a_per_minute: 3, b_per_minute: 4, a_per_month: 1000, b_per_day: 1000 });
      const cases = [
        { rc: byId("GET /api/v1/signal-score/{symbol}"), limit: 3 },
        { rc: byId("GET /api/v1/data/market-sentiment"), limit: 4 },
      ];
      const callers = await Promise.all(cases.map(({ rc }) => callerFor(t.db, rc)));
      await minuteHeadroom(5);
      await all(
        cases.map((k, i) => ({ ...k, c: callers[i] })),
        async ({ rc, limit, c }) => {
          const results = await Promise.all(
            Array.from({ length: 12 }, (_, i) => send(base, rc, c.key, CREDENTIAL_FORMS[i % 3])),
          );
          const statuses = results.map((r) => r.status).sort();
          assert.equal(statuses.filter((s) => s === 200).length, limit, `admitted: ${statuses.join(",")}`);
          assert.equal(statuses.filter((s) => s === 429).length, 12 - limit, `refused: ${statuses.join(",")}`);
          for (const r of results.filter((x) => x.status === 429))
            expectErrorShape(rc.family, r, 429, "rate_limit_exceeded");
        },
      );
    } finally {
      await setPlanLimits(t.sql, "sandbox", {
        a_per_minute: saved.a_per_minute,
        b_per_minute: saved.b_per_minute,
        a_per_month: saved.a_per_month,
        b_per_day: saved.b_per_day,
      });
    }
  });

  it("a B request body over the plan's max payload → 413 payload_too_large, before licensing, nothing written", async () => {
    const saved = { sandbox: await planLimits(t.sql, "sandbox"), pro: await planLimits(t.sql, "pro") };
    const posts = routes.filter((r) => r.hasBody);
    assert.deepEqual(posts.map((r) => r.id).sort(), [
      "PATCH /api/v1/alerts/{webhookId}",
      "POST /api/v1/alerts",
      "POST /api/v1/alerts/{webhookId}/replay",
      "POST /api/v1/outputs",
    ]);
    const LIMIT = 400;
    try {
      for (const id of ["sandbox", "pro"]) await setPlanLimits(t.sql, id, { b_max_payload_bytes: LIMIT });
      const webhooksBefore = await webhookRows(t.sql);
      await all(
        posts.flatMap((rc) => CREDENTIAL_FORMS.map((form) => ({ rc, form }))),
        async ({ rc, form }) => {
          const c = await callerFor(t.db, rc);
          const valid = rc.request().body as Record<string, unknown>;
          // a valid body under the limit passes
          const small = JSON.stringify(valid);
          assert.ok(Buffer.byteLength(small) < LIMIT);
          const ok = await send(base, rc, c.key, form, { body: small, webhookId: c.webhookIds[0] });
          assert.ok(is2xx(ok), `${describeSent(ok)} → ${ok.status} ${ok.text.slice(0, 200)}`);
          // the same JSON padded past the limit: with Content-Length, and streamed without one
          const big = JSON.stringify(valid, null, 2) + " ".repeat(LIMIT);
          const res = await send(base, rc, c.key, form, { body: big, webhookId: c.webhookIds[0] });
          expectErrorShape("B", res, 413, "payload_too_large");
          const stream = new ReadableStream({
            start(ctrl) {
              for (let i = 0; i < 8; i++) ctrl.enqueue(new TextEncoder().encode(" ".repeat(100)));
              ctrl.enqueue(new TextEncoder().encode(small));
              ctrl.close();
            },
          });
          expectErrorShape(
            "B",
            await send(base, rc, c.key, form, { body: stream, webhookId: c.webhookIds[0] }),
            413,
            "payload_too_large",
          );
          // a multi-byte body is measured in bytes, not characters
          const wide = JSON.stringify({ ...valid, pad: "€".repeat(Math.ceil(LIMIT / 3)) });
          assert.ok(wide.length < LIMIT * 1.5 && Buffer.byteLength(wide) > LIMIT);
          expectErrorShape(
            "B",
            await send(base, rc, c.key, form, { body: wide, webhookId: c.webhookIds[0] }),
            413,
            "payload_too_large",
          );
        },
      );
      // size comes before licensing
      const outputs = byId("POST /api/v1/outputs");
      await setLicensing(
        t.db,
        { path: outputs.template, method: "POST", env: "test", state: "pending_licensing", reason: "order check" },
        systemActor("test"),
      );
      try {
        const c = await callerFor(t.db, outputs);
        expectErrorShape(
          "B",
          await send(base, outputs, c.key, "bearer", {
            body: JSON.stringify(outputs.request().body) + " ".repeat(LIMIT),
          }),
          413,
          "payload_too_large",
        );
        expectErrorShape("B", await send(base, outputs, c.key, "bearer"), 403, "endpoint_pending_licensing");
      } finally {
        await setLicensing(
          t.db,
          { path: outputs.template, method: "POST", env: "test", state: "enabled", reason: "order check done" },
          systemActor("test"),
        );
      }
      const created = (await webhookRows(t.sql)).filter((w) => !webhooksBefore.includes(w));
      // One under-limit registration per form, plus the fixture webhook of each case whose path names one.
      const fixtures = posts.filter((r) => r.needsWebhookId).length * CREDENTIAL_FORMS.length;
      assert.equal(
        created.length,
        CREDENTIAL_FORMS.length + fixtures,
        "only the under-limit registrations were written",
      );
    } finally {
      for (const [id, l] of Object.entries(saved))
        await setPlanLimits(t.sql, id, { b_max_payload_bytes: l.b_max_payload_bytes });
    }
  });

  it("webhooks on a plan without them → 403 subscription_required (Sandbox test key, Starter svc_sk_live_ key)", async () => {
    const alertRoutes = routes.filter((r) => r.webhooks);
    const specs = [
      { plan: "sandbox", env: "test" as const, style: "standard" as const },
      { plan: "starter", env: "live" as const, style: "sk" as const },
    ];
    const before = await webhookRows(t.sql);
    await all(
      alertRoutes.flatMap((rc) => CREDENTIAL_FORMS.flatMap((form) => specs.map((spec) => ({ rc, form, spec })))),
      async ({ rc, form, spec }) => {
        const c = await newCaller(t.db, { ...spec, webhooks: rc.needsWebhookId ? 1 : 0 });
        const body = expectErrorShape(
          "B",
          await send(base, rc, c.key, form, { webhookId: c.webhookIds[0] }),
          403,
          "subscription_required",
        );
        assert.equal(body.isMockData, spec.env === "test");
      },
    );
    const after = await webhookRows(t.sql);
    assert.equal(
      after.filter((w) => !before.includes(w)).length,
      alertRoutes.filter((r) => r.needsWebhookId).length * CREDENTIAL_FORMS.length * specs.length,
      "only the fixtures' own webhooks exist",
    );
    // Enterprise and Pro (both key styles) may register
    for (const spec of [
      { plan: "enterprise", style: "standard" as const },
      { plan: "pro", style: "sk" as const },
      { plan: "enterprise", style: "sk" as const },
    ]) {
      const c = await newCaller(t.db, { ...spec, env: "live" });
      const res = await send(base, byId("POST /api/v1/alerts"), c.key, "x-service-key");
      expectSuccessShape("B", res, { env: "live", status: 201 });
    }
  });

  // ------------------------------------------------------------------------------------------------ tenants

  it("another account cannot see, read or delete a webhook", async () => {
    const owner = await newCaller(t.db, { plan: "pro", env: "live", style: "standard" });
    const other = await newCaller(t.db, { plan: "enterprise", env: "live", style: "sk", webhooks: 1 });
    const created = await send(base, byId("POST /api/v1/alerts"), owner.key, "bearer");
    const hook = expectSuccessShape("B", created, { env: "live", status: 201 });
    for (const form of CREDENTIAL_FORMS) {
      expectErrorShape(
        "B",
        await send(base, byId("GET /api/v1/alerts/{webhookId}"), other.key, form, { webhookId: hook.webhookId }),
        404,
        "not_found",
      );
      expectErrorShape(
        "B",
        await send(base, byId("DELETE /api/v1/alerts/{webhookId}"), other.key, form, { webhookId: hook.webhookId }),
        404,
        "not_found",
      );
      const list = expectSuccessShape("B", await send(base, byId("GET /api/v1/alerts"), other.key, form), {
        env: "live",
      });
      assert.deepEqual(
        list.webhooks.map((w: { webhookId: string }) => w.webhookId),
        other.webhookIds,
      );
    }
    // a second key of the same account sees it; the owner's copy is intact
    const [w] = await t.sql<
      { status: string; account_id: string }[]
    >`select status, account_id from webhooks where id = ${hook.webhookId}`;
    assert.equal(w.status, "active");
    assert.equal(w.account_id, owner.accountId);
    const mine = expectSuccessShape(
      "B",
      await send(base, byId("GET /api/v1/alerts/{webhookId}"), owner.key, "x-api-key", { webhookId: hook.webhookId }),
      { env: "live" },
    );
    assert.equal(mine.status, "active");
    assert.equal(mine.signingSecret, undefined);
    // the owner deletes; it is gone for them too (and a second delete is 404)
    expectSuccessShape(
      "B",
      await send(base, byId("DELETE /api/v1/alerts/{webhookId}"), owner.key, "bearer", { webhookId: hook.webhookId }),
      { env: "live" },
    );
    expectErrorShape(
      "B",
      await send(base, byId("DELETE /api/v1/alerts/{webhookId}"), owner.key, "bearer", { webhookId: hook.webhookId }),
      404,
      "not_found",
    );
    expectErrorShape(
      "B",
      await send(base, byId("GET /api/v1/alerts/{webhookId}"), owner.key, "bearer", { webhookId: hook.webhookId }),
      404,
      "not_found",
    );
  });

  it("every authenticated response carries the rate-limit headers, refusals before the burst window included", async () => {
    // docs/api-contract.md §4: "Every authenticated response carries RateLimit-Policy and RateLimit … and the classic
    // X-RateLimit-*".
    const ticker = byId("GET /api/v1/ticker/{symbol}/summary");
    const outputs = byId("POST /api/v1/outputs");
    const post = byId("POST /api/v1/alerts");
    const c = await newCaller(t.db, { plan: "sandbox", env: "test" });
    const found: string[] = [];
    const check = (res: Got, family: "A" | "B", what: string) => {
      try {
        expectRateLimitHeaders(res, family);
      } catch (err) {
        found.push(
          `${what}: ${describeSent(res)} → ${res.status} ${res.json?.error?.code}: ${(err as Error).message.split("\n")[0]}`,
        );
      }
    };
    // handler refusals after admission carry them
    const noHooks = await send(base, post, c.key);
    expectErrorShape("B", noHooks, 403, "subscription_required");
    check(noHooks, "B", "webhooks on Sandbox");
    await setLicensing(
      t.db,
      { path: ticker.template, method: "GET", env: "test", state: "pending_licensing", reason: "headers check" },
      systemActor("test"),
    );
    try {
      const pending = await send(base, ticker, c.key);
      expectErrorShape("A", pending, 403, "endpoint_pending_licensing");
      check(pending, "A", "pending licensing");
    } finally {
      await setLicensing(
        t.db,
        { path: ticker.template, method: "GET", env: "test", state: "enabled", reason: "headers check done" },
        systemActor("test"),
      );
    }
    const saved = await planLimits(t.sql, "sandbox");
    try {
      await setPlanLimits(t.sql, "sandbox", { b_max_payload_bytes: 100 });
      const big = await send(base, outputs, c.key, "bearer", {
        body: JSON.stringify(outputs.request().body) + " ".repeat(200),
      });
      expectErrorShape("B", big, 413, "payload_too_large");
      check(big, "B", "payload too large");
    } finally {
      await setPlanLimits(t.sql, "sandbox", { b_max_payload_bytes: saved.b_max_payload_bytes });
    }
    assert.deepEqual(found, [], "authenticated responses without rate-limit headers");
  });

  // ------------------------------------------------------------------------------------------------ leaks

  it("no response carried a key, a digest, a signing secret (outside the create and rotate answers), SQL or a stack; no 5xx", async () => {
    assert.ok(received.length > 500, `scanned ${received.length} responses`);
    const fiveXX = received.filter((r) => r.status >= 500);
    assert.deepEqual(
      fiveXX.map((r) => `${describeSent(r)} → ${r.status} ${r.text.slice(0, 120)}`),
      [],
    );
    assert.ok(
      received.some((r) => r.status === 201 && r.text.includes("whsec_")),
      "the create answer shows the secret once",
    );
    const secrets = (await t.sql<{ signing_secret: string }[]>`select signing_secret from webhooks`).map(
      (r) => r.signing_secret,
    );
    assert.ok(secrets.length > 20);
    assertNoLeaks(received, { signingSecrets: secrets });
  });

  it("every error answered is one its route declares, so the reference documents it", () => {
    const { checked, undeclared } = undeclaredErrors(received);
    assert.ok(checked > 100, `${checked} error answers checked`);
    assert.deepEqual(undeclared, []);
    assert.deepEqual(undeclaredInLog(server.output()), []);
  });
});
