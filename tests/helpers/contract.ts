/**
 * The contract (docs/api-contract.md) as test helpers shared by every route test: one concrete valid request per
 * metered
 * route, the three credential forms, callers with fresh keys, and exact checks of both families' body shapes.
 */
import { STACK_TRACE } from "./leak-patterns";
import { systemActor } from "../../lib/domain/audit";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import type postgres from "postgres";
import type { Db } from "../../lib/db/client";
import { meteredRoutes } from "../../lib/api/routes";
import type { Family, RouteDef } from "../../lib/api/route";
import { DISCLAIMER } from "../../lib/contract/disclaimer";
import { digestKey } from "../../lib/keys/format";
import { registerWebhook } from "../../lib/domain/webhooks";
import { sql } from "drizzle-orm";
import { writeDailySnapshots } from "../../lib/engine/history";
import { accountWithKey } from "./accounts";

// ---------------------------------------------------------------------------------------------------------------
// Credentials (docs/api-contract.md §2)

export const CREDENTIAL_FORMS = ["bearer", "x-api-key", "x-service-key"] as const;
export type CredentialForm = (typeof CREDENTIAL_FORMS)[number];

export function credentialHeaders(form: CredentialForm, key: string): Record<string, string> {
  switch (form) {
    case "bearer":
      return { authorization: `Bearer ${key}` };
    case "x-api-key":
      return { "x-api-key": key };
    case "x-service-key":
      return { "X-Service-Key": key };
  }
}

/** Every key the tests created: responses are scanned for them and their digests. */
export const issuedKeys = new Set<string>();

// ---------------------------------------------------------------------------------------------------------------
// HTTP

export interface Sent {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /**
   * An object is sent as JSON; strings and streams as given. Content-type application/json unless a header says
   * otherwise (none for a Uint8Array).
   */
  body?: unknown;
}

export interface Got {
  status: number;
  headers: Headers;
  text: string;
  json: any;
  sent: Sent;
}

/** Every response received, for the leak scan (`assertNoLeaks`). */
export const received: Got[] = [];

export async function call(baseUrl: string, sent: Sent): Promise<Got> {
  const headers: Record<string, string> = { ...(sent.headers ?? {}) };
  let body: BodyInit | undefined;
  let duplex: "half" | undefined;
  if (sent.body !== undefined) {
    if (typeof sent.body === "string" || sent.body instanceof Uint8Array) body = sent.body as BodyInit;
    else if (sent.body instanceof ReadableStream) {
      body = sent.body;
      duplex = "half";
    } else body = JSON.stringify(sent.body);
    // JSON unless told otherwise; a Uint8Array body is sent as given, without a default content type.
    const typed = Object.keys(headers).some((h) => h.toLowerCase() === "content-type");
    if (!typed && !(sent.body instanceof Uint8Array)) headers["content-type"] = "application/json";
  }
  const res = await fetch(baseUrl + sent.path, {
    method: sent.method,
    headers,
    body,
    ...(duplex ? { duplex } : {}),
  } as RequestInit);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const got: Got = { status: res.status, headers: res.headers, text, json, sent };
  received.push(got);
  return got;
}

export const describeSent = (r: Got) =>
  `${r.sent.method} ${r.sent.path}${r.sent.headers ? ` [${Object.keys(r.sent.headers).join(",")}]` : ""}`;

// ---------------------------------------------------------------------------------------------------------------
// Routes: one concrete valid request per metered route

export interface RouteCase {
  id: string;
  method: string;
  family: Family;
  template: string;
  def: RouteDef;
  /** Webhook routes: a plan with webhooks (Pro/Enterprise, i.e. a live key) is needed for a 2xx. */
  webhooks: boolean;
  /** The path names a webhook of the caller's account. */
  needsWebhookId: boolean;
  hasBody: boolean;
  request(ctx?: { webhookId?: string }): { method: string; path: string; body?: unknown };
}

export const HOOK_URL = "https://example.com/hook";
export const validAlertBody = () => ({ url: HOOK_URL, events: ["no_trade.decision_changed"], symbols: ["AAPL"] });
export const UNKNOWN_WEBHOOK_ID = "wh_000000000000000000000000";

export interface RouteFixture {
  /** A valid POST /api/v1/outputs body built from the seeded demo chain. */
  outputsBody: Record<string, unknown>;
  /** A session day with stored daily snapshots (see historyFixture). */
  historyDate?: string;
}

/** Writes the last week's daily snapshots of the seeded demo market; answers the newest day that has them. */
export async function historyFixture(db: Db): Promise<string> {
  await writeDailySnapshots(db, "demo", { since: new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10) });
  const [row] = await db.execute<{ d: string }>(
    sql`select max(date)::text as d from metric_snapshots where env = 'demo'`,
  );
  return row.d;
}

/**
 * A valid long_call on AAPL from the newest seeded demo chain: the nearest expiry at least 7 days out, at the listed
 * call with a usable two-sided quote nearest the middle of the strike range.
 */
export async function outputsBodyFromChain(sql: postgres.Sql, symbol = "AAPL"): Promise<Record<string, unknown>> {
  const rows = await sql<{ expiry: string; strike: number }[]>`
    with latest as (select max(as_of) as as_of from option_quotes where env = 'demo' and symbol = ${symbol}),
    chain as (
      select q.expiry::text as expiry, q.strike, q.bid, q.ask from option_quotes q, latest
      where q.env = 'demo' and q.symbol = ${symbol} and q.as_of = latest.as_of and q.right = 'C'
        and q.expiry >= (current_date + 7) and q.bid > 0.05 and q.ask > q.bid
    ), first_expiry as (select min(expiry) as expiry from chain),
    mid as (select percentile_disc(0.5) within group (order by strike) as k from chain where expiry = (select expiry from first_expiry))
    select c.expiry, c.strike from chain c, mid where c.expiry = (select expiry from first_expiry)
    order by abs(c.strike - mid.k), c.strike limit 1`;
  assert.ok(rows.length === 1, `no usable ${symbol} call in the seeded demo chain`);
  return { symbol, strategy: "long_call", expiry: rows[0].expiry, strikes: [Number(rows[0].strike)], quantity: 1 };
}

type Sample = (ctx: { webhookId?: string }, fx: RouteFixture) => { path: string; body?: unknown };

const SAMPLES: Record<string, Sample> = {
  "GET /api/v1/ticker/{symbol}/summary": () => ({ path: "/api/v1/ticker/AAPL/summary" }),
  "GET /api/v1/signal-score/{symbol}": () => ({ path: "/api/v1/signal-score/AAPL" }),
  "GET /api/v1/options-flow": () => ({ path: "/api/v1/options-flow?symbol=AAPL&min_premium=0&limit=5" }),
  "GET /api/v1/ai/symbol/{ticker}/summary": () => ({ path: "/api/v1/ai/symbol/AAPL/summary" }),
  "GET /api/v1/ai/symbol/{ticker}/no-trade": () => ({ path: "/api/v1/ai/symbol/AAPL/no-trade" }),
  "GET /api/v1/data/yield-curve": () => ({ path: "/api/v1/data/yield-curve" }),
  "GET /api/v1/data/market-sentiment": () => ({ path: "/api/v1/data/market-sentiment" }),
  "GET /api/v1/data/watchlist-ranking": () => ({ path: "/api/v1/data/watchlist-ranking?symbols=AAPL,MSFT,TSLA" }),
  "GET /api/v1/symbols": () => ({ path: "/api/v1/symbols" }),
  "GET /api/v1/history/{symbol}": () => ({ path: "/api/v1/history/AAPL?fields=price,iv_rank" }),
  "GET /api/v1/history/{symbol}/{date}": (_ctx, fx) => ({ path: `/api/v1/history/AAPL/${fx.historyDate}` }),
  "GET /api/v1/symbols/{symbol}/expiries": () => ({ path: "/api/v1/symbols/AAPL/expiries" }),
  "POST /api/v1/outputs": (_ctx, fx) => ({ path: "/api/v1/outputs", body: fx.outputsBody }),
  "POST /api/v1/alerts": () => ({ path: "/api/v1/alerts", body: validAlertBody() }),
  "GET /api/v1/alerts": () => ({ path: "/api/v1/alerts" }),
  "GET /api/v1/alerts/{webhookId}": (ctx) => ({ path: `/api/v1/alerts/${ctx.webhookId ?? UNKNOWN_WEBHOOK_ID}` }),
  "DELETE /api/v1/alerts/{webhookId}": (ctx) => ({ path: `/api/v1/alerts/${ctx.webhookId ?? UNKNOWN_WEBHOOK_ID}` }),
  "PATCH /api/v1/alerts/{webhookId}": (ctx) => ({
    path: `/api/v1/alerts/${ctx.webhookId ?? UNKNOWN_WEBHOOK_ID}`,
    body: { status: "paused" },
  }),
  "POST /api/v1/alerts/{webhookId}/test": (ctx) => ({
    path: `/api/v1/alerts/${ctx.webhookId ?? UNKNOWN_WEBHOOK_ID}/test`,
  }),
  "GET /api/v1/alerts/{webhookId}/deliveries": (ctx) => ({
    path: `/api/v1/alerts/${ctx.webhookId ?? UNKNOWN_WEBHOOK_ID}/deliveries?limit=5`,
  }),
  "POST /api/v1/alerts/{webhookId}/replay": (ctx) => ({
    path: `/api/v1/alerts/${ctx.webhookId ?? UNKNOWN_WEBHOOK_ID}/replay`,
    body: { from: "2026-01-01T00:00:00Z", to: "2026-01-02T00:00:00Z" },
  }),
  "POST /api/v1/alerts/{webhookId}/rotate-secret": (ctx) => ({
    path: `/api/v1/alerts/${ctx.webhookId ?? UNKNOWN_WEBHOOK_ID}/rotate-secret`,
  }),
};

/**
 * Every metered route with a concrete valid request; fails if a route has no sample (new routes must be added). A
 * streamed route (the live stream) never ends its body, so it is left to tests/integration/stream.test.ts.
 */
export function routeCases(fx: RouteFixture): RouteCase[] {
  return meteredRoutes
    .filter((def) => !def.streams)
    .map((def) => {
      const sample = SAMPLES[def.id];
      assert.ok(sample, `tests/helpers/contract.ts has no sample request for ${def.id}`);
      return {
        id: def.id,
        method: def.method,
        family: def.family,
        template: def.path,
        def,
        webhooks: def.path.startsWith("/api/v1/alerts"),
        needsWebhookId: def.path.includes("{webhookId}"),
        hasBody: def.body !== undefined,
        request: (ctx = {}) => ({ method: def.method, ...sample(ctx, fx) }),
      };
    });
}

// ---------------------------------------------------------------------------------------------------------------
// Callers: fresh account + key (+ webhooks) per case

export interface TestCaller {
  email: string;
  accountId: string;
  keyId: string;
  key: string;
  env: "test" | "live";
  webhookIds: string[];
}

export interface CallerSpec {
  plan?: string;
  env?: "test" | "live";
  style?: "standard" | "sk";
  /** Webhooks to register for the account up front (default: 1 if the route names one). */
  webhooks?: number;
}

/** The caller that gets a 2xx from the route: a test key, or a Pro live key for webhook routes. */
export function okCallerSpec(rc: RouteCase): CallerSpec {
  return rc.webhooks ? { plan: "pro", env: "live", style: "standard" } : { plan: "sandbox", env: "test" };
}

export async function newCaller(db: Db, spec: CallerSpec): Promise<TestCaller> {
  const env = spec.env ?? "test";
  const a = await accountWithKey(db, { plan: spec.plan ?? "sandbox", env, style: spec.style });
  issuedKeys.add(a.key);
  const webhookIds: string[] = [];
  for (let i = 0; i < (spec.webhooks ?? 0); i++) {
    const w = await registerWebhook(
      db,
      { accountId: a.accountId, keyId: a.keyId, env },
      { ...validAlertBody(), events: ["no_trade.decision_changed"] },
      systemActor("test"),
    );
    webhookIds.push(w.webhookId);
  }
  return { ...a, env, webhookIds };
}

export async function callerFor(db: Db, rc: RouteCase, override: CallerSpec = {}): Promise<TestCaller> {
  const spec = { ...okCallerSpec(rc), webhooks: rc.needsWebhookId ? 1 : 0, ...override };
  return newCaller(db, spec);
}

/** Sends the route's valid request as `caller` with the given credential form. */
export function send(
  baseUrl: string,
  rc: RouteCase,
  key: string | null,
  form: CredentialForm = "bearer",
  opts: { webhookId?: string; headers?: Record<string, string>; body?: unknown } = {},
) {
  const req = rc.request({ webhookId: opts.webhookId });
  return call(baseUrl, {
    method: req.method,
    path: req.path,
    headers: { ...(key === null ? {} : credentialHeaders(form, key)), ...(opts.headers ?? {}) },
    body: opts.body ?? req.body,
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Shapes (docs/api-contract.md §1, §6)

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
export const B_ERROR_KEYS = ["data", "dataLabel", "disclaimer", "error", "isMockData", "timestamp"];
const sortedKeys = (o: unknown) => Object.keys(o as object).sort();

export function expectRequestId(res: Got): string {
  const id = res.headers.get("x-request-id");
  assert.ok(id && id.length > 0 && id.length <= 128, `${describeSent(res)}: X-Request-Id missing (got ${id})`);
  return id!;
}

/** Status, error.code and the family's exact error body; returns the body. */
export function expectErrorShape(family: Family, res: Got, status: number, code: string): any {
  const where = `${describeSent(res)} → ${res.status} ${res.text.slice(0, 300)}`;
  assert.equal(res.status, status, `status: ${where}`);
  assert.ok(res.json && typeof res.json === "object", `JSON body: ${where}`);
  assert.equal(res.json.error?.code, code, `error.code: ${where}`);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/, `content-type: ${where}`);
  assert.deepEqual(sortedKeys(res.json.error), ["code", "message"], `error keys: ${where}`);
  assert.equal(typeof res.json.error.message, "string", `error.message: ${where}`);
  assert.ok(res.json.error.message.length > 0, `error.message empty: ${where}`);
  if (family === "A") {
    assert.deepEqual(sortedKeys(res.json), ["error"], `family A error body keys: ${where}`);
  } else {
    assert.deepEqual(sortedKeys(res.json), B_ERROR_KEYS, `family B error body keys: ${where}`);
    assert.equal(res.json.data, null, `data: ${where}`);
    assert.equal(typeof res.json.disclaimer, "string", `disclaimer: ${where}`);
    assert.ok(res.json.disclaimer.length > 0, `disclaimer empty: ${where}`);
    assert.equal(typeof res.json.isMockData, "boolean", `isMockData: ${where}`);
    assert.match(String(res.json.timestamp), ISO, `timestamp: ${where}`);
    assert.equal(typeof res.json.dataLabel, "string", `dataLabel: ${where}`);
  }
  expectRequestId(res);
  return res.json;
}

export interface SuccessExpectation {
  env: "test" | "live";
  /** meta.plan (family A). */
  plan?: string;
  /** meta.endpoint (family A): the request path. */
  endpoint?: string;
  /** data_freshness / dataLabel; default "demo" for test keys. */
  label?: string;
  status?: number;
}

/** The family's success envelope; returns `data`. */
export function expectSuccessShape(family: Family, res: Got, exp: SuccessExpectation): any {
  const where = `${describeSent(res)} → ${res.status} ${res.text.slice(0, 300)}`;
  assert.equal(res.status, exp.status ?? 200, `status: ${where}`);
  const body = res.json;
  assert.ok(body && typeof body === "object", `JSON body: ${where}`);
  const requestId = expectRequestId(res);
  const label = exp.label ?? (exp.env === "test" ? "demo" : undefined);
  if (family === "A") {
    assert.deepEqual(
      sortedKeys(body),
      ["data", "disclaimer", "meta", "not_financial_advice"],
      `family A body keys: ${where}`,
    );
    assert.ok(body.data && typeof body.data === "object", `data: ${where}`);
    assert.deepEqual(
      sortedKeys(body.meta),
      ["data_freshness", "endpoint", "environment", "generated_at", "is_mock", "plan", "request_id"],
      `meta keys: ${where}`,
    );
    if (exp.endpoint) assert.equal(body.meta.endpoint, exp.endpoint, `meta.endpoint: ${where}`);
    if (exp.plan) assert.equal(body.meta.plan, exp.plan, `meta.plan: ${where}`);
    assert.equal(body.meta.environment, exp.env, `meta.environment: ${where}`);
    if (label) assert.equal(body.meta.data_freshness, label, `meta.data_freshness: ${where}`);
    assert.equal(body.meta.is_mock, exp.env === "test", `meta.is_mock: ${where}`);
    assert.match(body.meta.generated_at, ISO_MS, `meta.generated_at: ${where}`);
    assert.equal(body.meta.request_id, requestId, `meta.request_id == X-Request-Id: ${where}`);
    assert.equal(body.disclaimer, DISCLAIMER, `disclaimer: ${where}`);
    assert.equal(body.not_financial_advice, true, `not_financial_advice: ${where}`);
  } else {
    assert.deepEqual(
      sortedKeys(body),
      ["data", "dataLabel", "disclaimer", "isMockData", "timestamp"],
      `family B body keys: ${where}`,
    );
    assert.ok(body.data && typeof body.data === "object", `data: ${where}`);
    assert.equal(body.disclaimer, DISCLAIMER, `disclaimer: ${where}`);
    assert.equal(body.isMockData, exp.env === "test", `isMockData: ${where}`);
    assert.match(body.timestamp, ISO, `timestamp: ${where}`);
    if (label) assert.equal(body.dataLabel, label, `dataLabel: ${where}`);
    else assert.equal(typeof body.dataLabel, "string", `dataLabel: ${where}`);
  }
  return body.data;
}

// ---------------------------------------------------------------------------------------------------------------
// Rate-limit headers (docs/api-contract.md §4)

export interface RateLimitView {
  policy: { name: string; q: number; w: number; pk?: string }[];
  limit: { name: string; r: number; t: number; pk?: string }[];
  xLimit: number;
  xRemaining: number;
  xReset: number;
}

function parseItems(
  value: string,
  where: string,
): { name: string; params: Record<string, number>; pk: string | undefined }[] {
  return value.split(",").map((item) => {
    const [name, ...params] = item.trim().split(";");
    assert.match(name, /^"[a-z]+"$/, `structured-field item name in '${value}': ${where}`);
    const out: Record<string, number> = {};
    let pk: string | undefined;
    for (const p of params) {
      const bytes = /^pk=:([A-Za-z0-9+/]+=*):$/.exec(p.trim()); // the partition key: a structured-field byte sequence
      if (bytes) {
        pk = bytes[1];
        continue;
      }
      const m = /^([a-z]+)=(\d+)$/.exec(p.trim());
      assert.ok(m, `parameter '${p}' in '${value}': ${where}`);
      out[m![1]] = Number(m![2]);
    }
    return { name: name.slice(1, -1), params: out, pk };
  });
}

/** Parses and checks RateLimit-Policy, RateLimit and X-RateLimit-* for internal consistency. */
export function expectRateLimitHeaders(res: Got, family: Family): RateLimitView {
  const where = describeSent(res);
  const policyRaw = res.headers.get("ratelimit-policy");
  const limitRaw = res.headers.get("ratelimit");
  assert.ok(policyRaw, `RateLimit-Policy missing: ${where} → ${res.status}`);
  assert.ok(limitRaw, `RateLimit missing: ${where} → ${res.status}`);
  for (const h of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) {
    assert.match(res.headers.get(h) ?? "", /^\d+$/, `${h}: ${where} → ${res.status}`);
  }
  const policy = parseItems(policyRaw!, where).map((i) => ({ name: i.name, q: i.params.q, w: i.params.w, pk: i.pk }));
  const limit = parseItems(limitRaw!, where).map((i) => ({ name: i.name, r: i.params.r, t: i.params.t, pk: i.pk }));
  for (let i = 0; i < 2; i++) {
    assert.ok(policy[i].pk, `partition key on ${policy[i].name}: ${policyRaw}`);
    assert.equal(limit[i].pk, policy[i].pk, `the same partition key in both fields: ${limitRaw} vs ${policyRaw}`);
  }
  assert.notEqual(policy[0].pk, policy[1].pk, "the burst and the quota count different partitions");
  const quotaName = family === "A" ? "month" : "day";
  assert.deepEqual(
    policy.map((p) => p.name),
    ["minute", quotaName],
    `policy windows: ${policyRaw}`,
  );
  assert.deepEqual(
    limit.map((p) => p.name),
    ["minute", quotaName],
    `limit windows: ${limitRaw}`,
  );
  assert.equal(policy[0].w, 60, `minute window: ${policyRaw}`);
  if (family === "B") assert.equal(policy[1].w, 86_400, `day window: ${policyRaw}`);
  else assert.ok(policy[1].w >= 28 * 86_400 && policy[1].w <= 31 * 86_400, `month window: ${policyRaw}`);
  for (let i = 0; i < 2; i++) {
    assert.ok(Number.isInteger(policy[i].q) && policy[i].q > 0, `q: ${policyRaw}`);
    assert.ok(limit[i].r >= 0 && limit[i].r <= policy[i].q, `r within q: ${limitRaw} vs ${policyRaw}`);
    assert.ok(limit[i].t >= 1 && limit[i].t <= policy[i].w, `t within w: ${limitRaw} vs ${policyRaw}`);
  }
  const view: RateLimitView = {
    policy,
    limit,
    xLimit: Number(res.headers.get("x-ratelimit-limit")),
    xRemaining: Number(res.headers.get("x-ratelimit-remaining")),
    xReset: Number(res.headers.get("x-ratelimit-reset")),
  };
  assert.equal(view.xLimit, policy[0].q, `X-RateLimit-Limit == minute q: ${where}`);
  assert.equal(view.xRemaining, limit[0].r, `X-RateLimit-Remaining == minute r: ${where}`);
  const nowS = Date.now() / 1000;
  assert.ok(
    view.xReset > nowS - 2 && view.xReset <= nowS + 61,
    `X-RateLimit-Reset is a Unix time within the minute: ${view.xReset}`,
  );
  assert.equal(view.xReset % 60, 0, `X-RateLimit-Reset is a minute boundary: ${view.xReset}`);
  return view;
}

// ---------------------------------------------------------------------------------------------------------------
// Database observations

/** Quota counters (per-month and per-day buckets) with a non-zero count: key|bucket|window → count. */
export async function quotaCounters(sql: postgres.Sql): Promise<Record<string, number>> {
  const rows = await sql<{ key_id: string; bucket: string; window_start: Date; count: number }[]>`
    select key_id, bucket, window_start, count from usage_counters
    where (bucket like '%:month' or bucket like '%:day') and count <> 0 order by 1, 2, 3`;
  return Object.fromEntries(
    rows.map((r) => [`${r.key_id}|${r.bucket}|${new Date(r.window_start).toISOString()}`, r.count]),
  );
}

export async function webhookRows(sql: postgres.Sql): Promise<string[]> {
  const rows = await sql<
    { id: string; status: string; url: string }[]
  >`select id, status, url from webhooks order by id`;
  return rows.map((r) => `${r.id}|${r.status}|${r.url}`);
}

// ---------------------------------------------------------------------------------------------------------------
// Limits in the plan catalogue (tests change them in their own database; the server re-reads with TTL 0)

export type PlanLimits = Partial<
  Record<"a_per_minute" | "a_per_month" | "b_per_minute" | "b_per_day" | "b_max_payload_bytes", number>
> & { webhooks?: boolean };

export async function setPlanLimits(sql: postgres.Sql, planId: string, limits: PlanLimits): Promise<void> {
  const entries = Object.entries(limits);
  if (!entries.length) return;
  const result =
    await sql`update plans set ${sql(Object.fromEntries(entries) as Record<string, number | boolean>)} where id = ${planId}`;
  assert.equal(result.count, 1, `plan ${planId} is not in the catalogue (the server seeds it on start)`);
}

export async function planLimits(sql: postgres.Sql, planId: string): Promise<Required<PlanLimits>> {
  const [r] = await sql<
    any[]
  >`select a_per_minute, a_per_month, b_per_minute, b_per_day, b_max_payload_bytes, webhooks from plans where id = ${planId}`;
  return r;
}

// ---------------------------------------------------------------------------------------------------------------
// Time

/** Fixed UTC minute windows: when fewer than `seconds` remain in the minute, wait for the next one. */
export async function minuteHeadroom(seconds = 5): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((r) => setTimeout(r, left + 50));
}

// ---------------------------------------------------------------------------------------------------------------
// Leaks: no key, digest, signing secret (outside the one-time create answer), SQL or stack in any body

export function assertNoLeaks(responses: Got[] = received, opts: { signingSecrets?: string[] } = {}): void {
  const digests = [...issuedKeys].map(digestKey);
  const secrets = opts.signingSecrets ?? [];
  for (const r of responses) {
    const where = `${describeSent(r)} → ${r.status}`;
    const t = r.text;
    assert.doesNotMatch(t, /svc_(?:test|live|sk_live)_[0-9A-Za-z]{8,}/, `a key in the body: ${where}`);
    for (const k of issuedKeys) assert.ok(!t.includes(k), `a key in the body: ${where}`);
    for (const d of digests) assert.ok(!t.includes(d), `a key digest in the body: ${where}`);
    assert.doesNotMatch(t, /\b[0-9a-f]{64}\b/, `a SHA-256-like digest in the body: ${where}`);
    const path = r.sent.path.split("?")[0];
    // The create answer and the rotate-secret answer are the two places a secret is shown, once.
    const createAnswer =
      r.sent.method === "POST" &&
      r.status < 300 &&
      (path === "/api/v1/alerts" || /^\/api\/v1\/alerts\/wh_[0-9a-f]{24}\/rotate-secret$/.test(path));
    // The API reference documents the secret's format and field; every other answer but the create answer has neither.
    const reference = r.sent.path.split("?")[0] === "/api/v1/openapi.json";
    if (!createAnswer) {
      for (const s of secrets) assert.ok(!t.includes(s), `a webhook signing secret in the body: ${where}`);
      if (!reference) {
        assert.ok(!t.includes("whsec_"), `a signing secret in the body: ${where}`);
        assert.ok(!hasField(r.json?.data, /^signing_?secret$/i), `a signing-secret field in the body: ${where}`);
      }
    }
    assert.doesNotMatch(
      t,
      /\bselect\b[^"]{0,200}\bfrom\b|\binsert into\b|\bupdate\b\s+\w+\s+set\b|\bdelete from\b|\bon conflict\b/i,
      `SQL in the body: ${where}`,
    );
    assert.doesNotMatch(
      t,
      /postgres|relation "|syntax error|violates .* constraint|duplicate key/i,
      `database error text in the body: ${where}`,
    );
    assert.doesNotMatch(t, STACK_TRACE, `a stack trace in the body: ${where}`);
  }
}

function hasField(value: unknown, name: RegExp): boolean {
  if (Array.isArray(value)) return value.some((v) => hasField(v, name));
  if (value && typeof value === "object")
    return Object.entries(value).some(([k, v]) => name.test(k) || hasField(v, name));
  return false;
}

export const randomTag = () => randomBytes(4).toString("hex");
