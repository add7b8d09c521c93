/**
 * GET /metrics over real HTTP (issue 33 item 3, docs/operations.md "Metrics"): after a few calls a scrape finds the
 * request counters, the admission histograms and the pool's gauges moved; a scrape without METRICS_TOKEN's bearer is
 * refused. On the standalone server (`npm run start:api`) and under `next start` (the built app; built first when stale).
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createSeededTestDatabase, type TestDatabase } from "../helpers/test-db";
import { type RunningServer, startApiServer } from "../helpers/api-server";
import { ensureNextBuild, startNextServer } from "../helpers/next-server";
import { accountWithKey } from "../helpers/accounts";

const TOKEN = "scrape-token-0123456789abcdef";
const BEARER = { authorization: `Bearer ${TOKEN}` };

type Samples = Map<string, number>;

/** The scrape's samples by series (`name{labels}`). */
async function scrape(baseUrl: string): Promise<Samples> {
  const res = await fetch(`${baseUrl}/metrics`, { headers: BEARER });
  assert.equal(res.status, 200, await res.clone().text());
  assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
  const samples: Samples = new Map();
  for (const line of (await res.text()).split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

const moved = (before: Samples, after: Samples, series: string) => (after.get(series) ?? 0) - (before.get(series) ?? 0);
const requests = (family: string, statusClass: string) =>
  `http_requests_total{family="${family}",status_class="${statusClass}"}`;

async function get(baseUrl: string, path: string, key?: string): Promise<number> {
  const res = await fetch(`${baseUrl}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  await res.arrayBuffer();
  return res.status;
}

/** Two family A answers, one family B, one unknown path and one call without a key: what each counter must gain. */
async function callTheApi(baseUrl: string, key: string): Promise<void> {
  assert.equal(await get(baseUrl, "/api/v1/ticker/AAPL/summary", key), 200);
  assert.equal(await get(baseUrl, "/api/v1/signal-score/MSFT", key), 200);
  assert.equal(await get(baseUrl, "/api/v1/data/yield-curve", key), 200);
  assert.equal(await get(baseUrl, "/api/v1/no-such-route", key), 404);
  assert.equal(await get(baseUrl, "/api/v1/ticker/AAPL/summary"), 401);
}

function assertApiCounted(before: Samples, after: Samples): void {
  assert.ok(moved(before, after, requests("A", "2xx")) >= 2, "A 2xx");
  assert.ok(moved(before, after, requests("B", "2xx")) >= 1, "B 2xx");
  assert.ok(moved(before, after, requests("A", "4xx")) >= 1, "A 4xx (no key)");
  assert.ok(moved(before, after, requests("none", "4xx")) >= 1, "no route: 404");
  const latency = 'http_request_duration_seconds_count{family="A",status_class="2xx"}';
  assert.equal(
    moved(before, after, latency),
    moved(before, after, requests("A", "2xx")),
    "histogram and counter agree",
  );
  assert.ok(moved(before, after, "admission_wait_seconds_count") >= 3, "every metered call waited for admission");
  assert.ok(moved(before, after, "admission_batch_size_count") >= 1, "admission batches");
  assert.ok((after.get("db_pool_max_connections") ?? 0) > 0, "the gateway's pool");
  assert.ok(after.has("db_statements_in_flight"));
  assert.ok((after.get('engine_recompute_duration_seconds_count{view="demo"}') ?? 0) >= 1, "the demo view computed");
  assert.equal(after.get("webhook_queue_depth"), 0, "the outbox is read at scrape time");
  assert.ok(after.has("stream_connections"));
  for (const name of ["nodejs_eventloop_lag_seconds", "nodejs_heap_size_used_bytes", "process_cpu_seconds_total"])
    assert.ok(after.has(name), name);
}

async function assertRefusedWithoutToken(baseUrl: string): Promise<void> {
  const attempts: Record<string, string>[] = [
    {},
    { authorization: "Bearer another-token-0123456789" },
    { "x-api-key": TOKEN },
  ];
  for (const headers of attempts) {
    const res = await fetch(`${baseUrl}/metrics`, { headers });
    assert.equal(res.status, 401, JSON.stringify(headers));
    assert.match(res.headers.get("www-authenticate") ?? "", /^Bearer/);
    assert.doesNotMatch(await res.text(), /http_requests_total/);
  }
}

let t: TestDatabase;
let key: string | undefined;

before(async () => {
  t = await createSeededTestDatabase("metrics", { seed: "options-research-demo-v1", now: new Date() });
});

/** A Pro key, made once a server has seeded the plans. */
const proKey = async () => (key ??= (await accountWithKey(t.db, { plan: "pro" })).key);

after(async () => {
  await t?.drop();
});

describe("GET /metrics on the standalone server", () => {
  let server: RunningServer;

  before(async () => {
    server = await startApiServer(t.url, { METRICS_TOKEN: TOKEN });
    await proKey();
  });
  after(async () => {
    await server?.stop();
  });

  it("a scrape after a few calls finds the request, admission and pool metrics moved", async () => {
    const before = await scrape(server.baseUrl);
    await callTheApi(server.baseUrl, await proKey());
    assertApiCounted(before, await scrape(server.baseUrl));
  });

  it("refuses a scrape without the token's bearer (401), and a scrape is not an API request", async () => {
    const before = await scrape(server.baseUrl);
    await assertRefusedWithoutToken(server.baseUrl);
    const after = await scrape(server.baseUrl);
    for (const c of ["2xx", "4xx"]) assert.equal(moved(before, after, requests("none", c)), 0);
  });
});

describe("GET /metrics under next start", () => {
  let server: RunningServer;

  before(async () => {
    ensureNextBuild();
    server = await startNextServer(t.url, { METRICS_TOKEN: TOKEN });
    await proKey();
  });
  after(async () => {
    await server?.stop();
  });

  it("counts the API through the shared gateway and the portal and admin routes, in one registry", async () => {
    const before = await scrape(server.baseUrl);
    await callTheApi(server.baseUrl, await proKey());
    assert.equal(await get(server.baseUrl, "/api/portal/plan"), 401);
    assert.equal(await get(server.baseUrl, "/api/admin/overview"), 401);
    const after = await scrape(server.baseUrl);
    assertApiCounted(before, after);
    assert.ok(moved(before, after, requests("portal", "4xx")) >= 1, "portal");
    assert.ok(moved(before, after, requests("admin", "4xx")) >= 1, "admin");
  });

  it("refuses a scrape without the token's bearer (401)", async () => {
    await assertRefusedWithoutToken(server.baseUrl);
  });
});
