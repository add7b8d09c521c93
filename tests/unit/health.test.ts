import { test } from "node:test";
import assert from "node:assert/strict";
import { health } from "../../lib/api/routes/meta";
import { VERSION } from "../../lib/version";
import pkg from "../../package.json" with { type: "json" };

// The handler only needs `database.sql` as a tagged template: a failing one stands for an unreachable database.
const ctx = (sql: () => Promise<unknown>) => ({ database: { sql } }) as never;

test("health reports ok, the package version and uptime in seconds", async () => {
  const r = (await health.handler(ctx(() => Promise.resolve([{ "?column?": 1 }])))) as { data: { status: string; version: string; uptime: number } };
  assert.equal(r.data.status, "ok");
  assert.equal(r.data.version, pkg.version);
  assert.equal(VERSION, pkg.version);
  assert.equal(typeof r.data.uptime, "number");
  assert.ok(r.data.uptime >= 0);
});

test("health reports degraded when the database does not answer", async () => {
  const r = (await health.handler(ctx(() => Promise.reject(new Error("connection refused"))))) as { data: { status: string } };
  assert.equal(r.data.status, "degraded");
});
