import { test } from "node:test";
import assert from "node:assert/strict";
import { databaseReachable, health, HEALTH_CHECK_TTL_MS } from "../../lib/api/routes/meta";
import { VERSION } from "../../lib/version";
import pkg from "../../package.json" with { type: "json" };

// The handler only needs `database.sql` as a tagged template: a failing one stands for an unreachable database.
const ctx = (sql: () => Promise<unknown>) => ({ database: { sql } }) as never; // a fresh function per call: no shared cache

test("health reports ok, the package version and uptime in seconds", async () => {
  const r = (await health.handler(ctx(() => Promise.resolve([{ "?column?": 1 }])))) as {
    data: { status: string; version: string; uptime: number };
  };
  assert.equal(r.data.status, "ok");
  assert.equal(r.data.version, pkg.version);
  assert.equal(VERSION, pkg.version);
  assert.equal(typeof r.data.uptime, "number");
  assert.ok(r.data.uptime >= 0);
});

test("health reports degraded when the database does not answer", async () => {
  const r = (await health.handler(ctx(() => Promise.reject(new Error("connection refused"))))) as {
    data: { status: string };
  };
  assert.equal(r.data.status, "degraded");
});

test("health probes the database at most once per second per pool, and concurrent checks share one probe", async () => {
  let probes = 0;
  const pool = {};
  const probe = () => (probes++, Promise.resolve(1));
  const t0 = 1_000_000;
  const first = await Promise.all([databaseReachable(pool, probe, t0), databaseReachable(pool, probe, t0)]);
  assert.deepEqual(first, [true, true]);
  assert.equal(await databaseReachable(pool, probe, t0 + HEALTH_CHECK_TTL_MS - 1), true);
  assert.equal(probes, 1);
  assert.equal(
    await databaseReachable(pool, () => (probes++, Promise.reject(new Error("down"))), t0 + HEALTH_CHECK_TTL_MS),
    false,
  );
  assert.equal(probes, 2);
  assert.equal(await databaseReachable({}, probe, t0), true, "another pool has its own check");
  assert.equal(probes, 3);
});
