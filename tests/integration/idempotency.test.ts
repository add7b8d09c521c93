/**
 * Idempotency-Key against two real API server processes sharing one database (and once on the embedded engine): a
 * retry of the same request is replayed byte for byte and metered once, another request with the key is 422, a retry
 * during the first call is 409, a POST retried after a dropped connection creates one webhook, keys expire after 24 h.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestDatabase, type TestDatabase } from "../helpers/test-db";
import { startApiServer, type RunningServer } from "../helpers/api-server";
import { accountWithKey } from "../helpers/accounts";
import { minuteHeadroom } from "../helpers/clients-server";
import { undeclaredInLog } from "../helpers/declared-errors";
import { deleteExpiredKeys, requestDigest } from "../../lib/api/idempotency";
import { createKey } from "../../lib/domain/keys";
import { systemActor } from "../../lib/domain/audit";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "../../lib/db/embedded";
import { startGateway, type Gateway } from "../../lib/server/gateway";

let t: TestDatabase;
let one: RunningServer;
let two: RunningServer;
let pro: Awaited<ReturnType<typeof accountWithKey>>;
let limited: Awaited<ReturnType<typeof accountWithKey>>;

const alert = (n: number) => ({
  url: `http://127.0.0.1:9/idem/${n}`,
  events: ["no_trade.decision_changed"],
  symbols: ["AAPL"],
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

async function send(
  server: RunningServer,
  method: string,
  path: string,
  body: unknown,
  idem?: string,
  apiKey = pro.key,
): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  if (idem !== undefined) headers["idempotency-key"] = idem;
  const res = await fetch(server.baseUrl + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : null };
}

const hooks = async (url: string) =>
  (
    await t.sql<
      { n: number }[]
    >`select count(*)::int as n from webhooks where account_id = ${pro.accountId} and url = ${url}`
  )[0].n;
const events = async (endpoint: string, status: number) =>
  (
    await t.sql<{ n: number }[]>`select count(*)::int as n from usage_events
      where key_id = ${pro.keyId} and endpoint_id = ${endpoint} and status = ${status}`
  )[0].n;
const counter = async (keyId: string, bucket: string) =>
  (
    await t.sql<{ n: number }[]>`select coalesce(sum(count), 0)::int as n from usage_counters
    where key_id = ${keyId} and bucket = ${bucket}`
  )[0].n;
/** The stored key: an Idempotency-Key is scoped to the calling API key (issue 30). */
const stored = (key: string, keyId = pro.keyId) => `${keyId}\n${key}`;
const claimRow = async (accountId: string, key: string, keyId = pro.keyId) =>
  (
    await t.sql`select state, response_status from idempotency_keys
      where account_id = ${accountId} and key = ${stored(key, keyId)}`
  )[0];

/** Family B's error shape: the error plus the envelope fields every family B body carries. */
function assertFamilyBError(a: Answer, status: number, code: string) {
  assert.equal(a.status, status, a.text);
  assert.equal(a.json.error.code, code);
  assert.equal(typeof a.json.error.message, "string");
  for (const field of ["disclaimer", "isMockData", "timestamp", "dataLabel"]) assert.ok(field in a.json, field);
  assert.equal(a.headers.get("idempotent-replayed"), null);
}

describe("Idempotency-Key on POST and PATCH", () => {
  before(async () => {
    t = await createTestDatabase("idempotency");
    const env = { WEBHOOKS_ALLOW_PRIVATE_TARGETS: "true", NODE_ENV: "development" };
    [one, two] = await Promise.all([startApiServer(t.url, env), startApiServer(t.url, env)]); // they seed the plans
    await t.sql`update plans set b_per_minute = 100000, b_per_day = 100000 where id = 'pro'`;
    await t.sql`update plans set b_per_minute = 1 where id = 'enterprise'`;
    pro = await accountWithKey(t.db, { plan: "pro", env: "live" });
    limited = await accountWithKey(t.db, { plan: "enterprise", env: "live" });
  });
  after(async () => {
    const undeclared = [...undeclaredInLog(one?.output() ?? ""), ...undeclaredInLog(two?.output() ?? "")];
    await Promise.all([one?.stop(), two?.stop()]);
    await t?.drop();
    assert.deepEqual(undeclared, [], "every error answered is declared by its route");
  });

  it("a retry of the same request is replayed byte for byte, on another process, and metered once", async () => {
    const quotaBefore = await counter(pro.keyId, "B:day");
    const burstBefore = await counter(pro.keyId, "B:minute");
    const first = await send(one, "POST", "/api/v1/alerts", alert(1), "replay-1");
    assert.equal(first.status, 201, first.text);
    assert.equal(first.headers.get("idempotent-replayed"), null);
    const again = await send(two, "POST", "/api/v1/alerts", alert(1), "replay-1");
    assert.equal(again.status, 201);
    assert.equal(again.text, first.text, "the body byte for byte");
    assert.equal(again.headers.get("idempotent-replayed"), "true");
    for (const h of ["content-type", "cache-control", "x-request-id"])
      assert.equal(again.headers.get(h), first.headers.get(h), h);
    assert.ok(again.headers.get("ratelimit"), "the rate-limit headers of now");
    assert.equal(await hooks(alert(1).url), 1, "one webhook");
    assert.equal(await events("POST /api/v1/alerts", 201), 1, "one usage event");
    assert.equal(await counter(pro.keyId, "B:day"), quotaBefore + 1, "one quota unit");
    assert.equal(await counter(pro.keyId, "B:minute"), burstBefore + 2, "the replay takes a burst unit");
    assert.deepEqual(await claimRow(pro.accountId, "replay-1"), { state: "completed", response_status: 201 });
  });

  it("the same key with another body, path or method is 422 idempotency_key_reused in family B's shape", async () => {
    await send(one, "POST", "/api/v1/alerts", alert(2), "reuse-1");
    assertFamilyBError(await send(two, "POST", "/api/v1/alerts", alert(3), "reuse-1"), 422, "idempotency_key_reused");
    const id = (await send(one, "POST", "/api/v1/alerts", alert(2), "reuse-1")).json.data.webhookId;
    assertFamilyBError(
      await send(one, "PATCH", `/api/v1/alerts/${id}`, { status: "paused" }, "reuse-1"),
      422,
      "idempotency_key_reused",
    );
    assert.equal(await hooks(alert(3).url), 0, "the refused request changed nothing");
    assert.equal(await events("POST /api/v1/alerts", 422), 1, "recorded as a client error");
  });

  it("a retry while the first call runs is 409 idempotency_key_in_use; another body is still 422", async () => {
    const path = "/api/v1/alerts";
    const body = JSON.stringify(alert(4));
    await t.sql`insert into idempotency_keys (account_id, key, request_digest, state, created_at)
      values (${pro.accountId}, ${stored("running-1")}, ${requestDigest("POST", path, body)}, 'in_progress', now())`;
    const busy = await send(one, "POST", path, alert(4), "running-1");
    assertFamilyBError(busy, 409, "idempotency_key_in_use");
    assert.equal(busy.headers.get("retry-after"), "1");
    assertFamilyBError(await send(two, "POST", path, alert(5), "running-1"), 422, "idempotency_key_reused");
    assert.equal(await hooks(alert(4).url), 0);
  });

  it("concurrent retries on two processes create one webhook; each answer is the first one or a 409", async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => send(i % 2 ? one : two, "POST", "/api/v1/alerts", alert(6), "race-1")),
    );
    const created = answers.filter((a) => a.status === 201);
    assert.ok(created.length >= 1, answers.map((a) => a.status).join(","));
    for (const a of answers) if (a.status !== 201) assertFamilyBError(a, 409, "idempotency_key_in_use");
    assert.equal(new Set(created.map((a) => a.text)).size, 1, "every 201 is the same answer");
    assert.equal(await hooks(alert(6).url), 1, "one webhook");
    assert.equal(
      await events("POST /api/v1/alerts", 201),
      3,
      "one 201 event per key so far (replay-1, reuse-1, race-1)",
    );
  });

  it("a POST whose connection dropped after it was sent is retried: one webhook, the first answer", async () => {
    const body = JSON.stringify(alert(7));
    const url = new URL(`${one.baseUrl}/api/v1/alerts`);
    await new Promise<void>((resolve) => {
      const req = http.request(url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${pro.key}`,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "idempotency-key": "dropped-1",
        },
      });
      req.on("error", () => resolve());
      req.end(body, () =>
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 5),
      ); // sent, then the connection is lost
    });
    for (let i = 0; i < 100 && (await claimRow(pro.accountId, "dropped-1"))?.state !== "completed"; i++)
      await new Promise((r) => setTimeout(r, 50));
    const retried = await send(two, "POST", "/api/v1/alerts", alert(7), "dropped-1");
    assert.equal(retried.status, 201, retried.text);
    assert.equal(retried.headers.get("idempotent-replayed"), "true");
    assert.equal(await hooks(alert(7).url), 1, "one webhook");
  });

  it("PATCH and body-less POSTs replay too; a deterministic 400 is kept, a 429 is not", async () => {
    const id = (await send(one, "POST", "/api/v1/alerts", alert(8))).json.data.webhookId;
    const paused = await send(one, "PATCH", `/api/v1/alerts/${id}`, { status: "paused" }, "patch-1");
    assert.equal(paused.status, 200, paused.text);
    await send(one, "PATCH", `/api/v1/alerts/${id}`, { status: "active" });
    const replayed = await send(two, "PATCH", `/api/v1/alerts/${id}`, { status: "paused" }, "patch-1");
    assert.equal(replayed.text, paused.text);
    assert.equal(replayed.headers.get("idempotent-replayed"), "true");
    const rotated = await send(one, "POST", `/api/v1/alerts/${id}/rotate-secret`, undefined, "rotate-1");
    const rotatedAgain = await send(two, "POST", `/api/v1/alerts/${id}/rotate-secret`, undefined, "rotate-1");
    assert.equal(rotatedAgain.text, rotated.text, "one rotation, the same secret");

    const bad = await send(one, "POST", "/api/v1/alerts", { ...alert(9), url: "not a url" }, "bad-1");
    assert.equal(bad.status, 400);
    const badAgain = await send(two, "POST", "/api/v1/alerts", { ...alert(9), url: "not a url" }, "bad-1");
    assert.equal(badAgain.text, bad.text);
    assert.equal(badAgain.headers.get("idempotent-replayed"), "true");

    await minuteHeadroom(5); // the one-a-minute window must not roll over between the two calls
    const spend = await send(one, "POST", "/api/v1/alerts", alert(10), "limited-1", limited.key);
    assert.equal(spend.status, 201, spend.text);
    assertFamilyBError(
      await send(one, "POST", "/api/v1/alerts", alert(11), "limited-2", limited.key),
      429,
      "rate_limit_exceeded",
    );
    assert.equal(
      await claimRow(limited.accountId, "limited-2", limited.keyId),
      undefined,
      "a 429 is not kept: a retry runs again",
    );
  });

  it("a malformed key is 400 invalid_request naming the header; GET ignores the header", async () => {
    for (const idem of ["x".repeat(256), "caf\u00e9"]) {
      const a = await send(one, "POST", "/api/v1/alerts", alert(12), idem);
      assertFamilyBError(a, 400, "invalid_request");
      assert.match(a.json.error.message, /Idempotency-Key/);
    }
    assert.equal((await send(one, "POST", "/api/v1/alerts", alert(12), "x".repeat(255))).status, 201);
    assert.equal((await send(one, "GET", "/api/v1/alerts", undefined, "get-1")).status, 200);
    assert.equal(await claimRow(pro.accountId, "get-1"), undefined);
    assert.equal(await hooks(alert(12).url), 1);
  });

  it("a key expires after 24 hours: its next use runs again, and the daily sweep deletes the old rows", async () => {
    const first = await send(one, "POST", "/api/v1/alerts", alert(13), "expire-1");
    await t.sql`update idempotency_keys set created_at = created_at - interval '24 hours 1 second'
      where account_id = ${pro.accountId} and key = ${stored("expire-1")}`;
    const second = await send(two, "POST", "/api/v1/alerts", alert(13), "expire-1");
    assert.equal(second.status, 201);
    assert.equal(second.headers.get("idempotent-replayed"), null);
    assert.notEqual(second.json.data.webhookId, first.json.data.webhookId, "ran again");
    assert.equal(await hooks(alert(13).url), 2);

    await t.sql`update idempotency_keys set created_at = created_at - interval '25 hours'
      where account_id = ${pro.accountId} and key = ${stored("replay-1")}`;
    assert.ok((await deleteExpiredKeys(t.sql)) >= 1);
    assert.equal(await claimRow(pro.accountId, "replay-1"), undefined);
    assert.ok(await claimRow(pro.accountId, "expire-1"), "a fresh key is kept");
  });

  it("another key of the account, test or live, never gets the first key's answer nor its signingSecret", async () => {
    const first = await send(one, "POST", "/api/v1/alerts", alert(30), "scoped-1");
    assert.equal(first.status, 201, first.text);
    assert.match(first.json.data.signingSecret, /^whsec_/);
    const others = await Promise.all(
      (["test", "live"] as const).map((env) =>
        createKey(t.db, { accountId: pro.accountId, env, name: `scope ${env}` }, systemActor("test")),
      ),
    );
    for (const other of others) {
      const again = await send(two, "POST", "/api/v1/alerts", alert(30), "scoped-1", other.key);
      assert.equal(again.headers.get("idempotent-replayed"), null, `${other.key.slice(0, 9)}: not a replay`);
      assert.ok(!again.text.includes(first.json.data.signingSecret), "the first key's secret is never sent");
      if (again.status === 201) assert.notEqual(again.json.data.webhookId, first.json.data.webhookId);
    }
    const replay = await send(two, "POST", "/api/v1/alerts", alert(30), "scoped-1");
    assert.equal(replay.headers.get("idempotent-replayed"), "true", "the first key still gets its own answer");
    assert.equal(replay.text, first.text);
  });
});

describe("on the embedded engine (PGlite)", () => {
  let dir: string;
  let engine: EmbeddedDatabase;
  let gateway: Gateway | undefined;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "orapi-idem-"));
    engine = await startEmbeddedDatabase(join(dir, "pglite"));
    process.env.WEBHOOKS_ALLOW_PRIVATE_TARGETS = "true";
    gateway = await startGateway({ databaseUrl: engine.url, poolMax: 4, demoTicker: false });
  });
  after(async () => {
    await gateway?.close();
    await engine?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("replays, refuses a reused key and lets concurrent retries create one webhook", async () => {
    const a = await accountWithKey(gateway!.database.db, { plan: "pro", env: "live" });
    const call = async (body: unknown, idem: string) => {
      const res = await gateway!.handle(
        new Request("http://local/api/v1/alerts", {
          method: "POST",
          headers: { authorization: `Bearer ${a.key}`, "content-type": "application/json", "idempotency-key": idem },
          body: JSON.stringify(body),
        }),
      );
      return { status: res.status, replayed: res.headers.get("idempotent-replayed"), text: await res.text() };
    };
    const first = await call(alert(20), "pg-1");
    assert.equal(first.status, 201, first.text);
    assert.deepEqual(await call(alert(20), "pg-1"), { ...first, replayed: "true" });
    assert.equal((await call(alert(21), "pg-1")).status, 422);
    const raced = await Promise.all(Array.from({ length: 4 }, () => call(alert(22), "pg-2")));
    assert.ok(raced.every((r) => r.status === 201 || r.status === 409));
    const [{ n }] = await gateway!.database.sql<{ n: number }[]>`
      select count(*)::int as n from webhooks where account_id = ${a.accountId} and url = ${alert(22).url}`;
    assert.equal(n, 1);
  });
});
