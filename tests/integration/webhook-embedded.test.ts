/**
 * The outbox on the embedded engine (PGlite over the wire): two workers with their own pools share 200 deliveries
 * through FOR UPDATE SKIP LOCKED (each delivered once), and the management routes run inside the pipeline's transaction.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { systemActor } from "../../lib/domain/audit";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "../../lib/db/embedded";
import { openDatabase, type Database } from "../../lib/db/client";
import { runMigrations } from "../../lib/db/migrate";
import { seedReferenceData } from "../../lib/domain/seed";
import { endpointCatalogue } from "../../lib/api/routes";
import { registerWebhook } from "../../lib/domain/webhooks";
import { enqueueEvent } from "../../lib/webhooks/outbox";
import { startWebhookWorker } from "../../lib/webhooks/worker";
import { startGateway, type Gateway } from "../../lib/server/gateway";
import { accountWithKey } from "../helpers/accounts";
import { startReceiver, waitFor, type Receiver } from "../helpers/webhook-receiver";

let dir: string;
let engine: EmbeddedDatabase;
let pools: Database[] = [];
let r: Receiver;
let gateway: Gateway | undefined;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "orapi-wh-embedded-"));
  engine = await startEmbeddedDatabase(join(dir, "pglite"));
  pools = [openDatabase(engine.url, { max: 4 }), openDatabase(engine.url, { max: 4 })];
  await runMigrations(pools[0]);
  await seedReferenceData(pools[0].db, endpointCatalogue());
  r = await startReceiver();
});
after(async () => {
  await gateway?.close();
  await Promise.all(pools.map((p) => p.close()));
  await r?.close();
  await engine?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test("two workers on PGlite share 200 deliveries, each delivered once", async () => {
  const db = pools[0];
  const a = await accountWithKey(db.db, { plan: "pro", env: "live" });
  const w = await registerWebhook(
    db.db,
    { accountId: a.accountId, keyId: a.keyId, env: "live" },
    { url: r.url, events: ["no_trade.decision_changed"], symbols: ["AAPL"] },
    systemActor("test"),
  );
  r.secrets.push(w.signingSecret);
  const now = new Date();
  for (let i = 0; i < 200; i++) {
    await enqueueEvent(
      db.sql,
      {
        env: "live",
        type: "no_trade.decision_changed",
        symbol: "AAPL",
        threshold: null,
        dataVersion: i,
        dedupeKey: `emb:${i}`,
        payload: { type: "no_trade.decision_changed", timestamp: now.toISOString(), data: { i } },
      },
      now,
    );
  }
  const workers = pools.map((p) => startWebhookWorker(p, { allowPrivate: true, autoStart: false, concurrency: 8 }));
  const counts = await Promise.all(workers.map((x) => x.runOnce()));
  await Promise.all(workers.map((x) => x.stop()));
  assert.equal(counts[0] + counts[1], 200, `attempts per worker: ${counts.join(", ")}`);
  assert.equal(new Set(r.received.map((x) => x.id)).size, 200);
  assert.equal(r.received.length, 200, "none twice");
  assert.ok(r.received.every((x) => x.verifiedBy.length === 1));
});

test("management routes run inside the pipeline's transaction on PGlite (no self-deadlock)", async () => {
  process.env.WEBHOOKS_ALLOW_PRIVATE_TARGETS = "true";
  gateway = await startGateway({ databaseUrl: engine.url, poolMax: 4, demoTicker: false });
  const a = await accountWithKey(gateway.database.db, { plan: "pro", env: "live" });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await gateway!.handle(
      new Request(`http://local${path}`, {
        method,
        headers: { authorization: `Bearer ${a.key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    return { status: res.status, json: (await res.json()) as any };
  };
  const created = await call("POST", "/api/v1/alerts", {
    url: r.url,
    events: ["no_trade.decision_changed"],
    symbols: ["AAPL"],
  });
  assert.equal(created.status, 201, JSON.stringify(created.json));
  const id = created.json.data.webhookId;
  r.secrets.push(created.json.data.signingSecret);
  assert.equal((await call("PATCH", `/api/v1/alerts/${id}`, { status: "paused" })).json.data.status, "paused");
  assert.equal((await call("PATCH", `/api/v1/alerts/${id}`, { status: "active" })).json.data.status, "active");
  const rotated = await call("POST", `/api/v1/alerts/${id}/rotate-secret`);
  assert.equal(rotated.status, 200);
  r.secrets.push(rotated.json.data.signingSecret);
  const before = r.received.length;
  const test = await call("POST", `/api/v1/alerts/${id}/test`);
  assert.equal(test.status, 202);
  await waitFor("the test event, delivered by the gateway's own worker", () => r.received.length === before + 1);
  assert.equal(r.received.at(-1)!.id, test.json.data.eventId);
  assert.equal(r.received.at(-1)!.signature.split(" ").length, 2);
  const listed = await call("GET", `/api/v1/alerts/${id}/deliveries`);
  assert.equal(listed.status, 200);
});
