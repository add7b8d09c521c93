import { test } from "node:test";
import assert from "node:assert/strict";
import { burstWindow, quotaWindow, secondsLeft, windowSeconds } from "../../lib/limits/windows";
import { rateLimitHeaders } from "../../lib/api/rate-headers";
import { PLAN_SEED } from "../../lib/domain/plans-catalogue";
import { dataLabel } from "../../lib/engine/types";

const sandbox = { ...PLAN_SEED[0], dataEntitlement: "demo" as const };

test("windows are fixed UTC minute, day and calendar month", () => {
  const now = new Date("2026-02-14T10:20:42.500Z");
  const b = burstWindow("A", sandbox, now);
  assert.equal(b.start.toISOString(), "2026-02-14T10:20:00.000Z");
  assert.equal(b.limit, 10);
  assert.equal(secondsLeft(b, now), 18); // ceil(17.5)
  const month = quotaWindow("A", sandbox, now);
  assert.equal(month.start.toISOString(), "2026-02-01T00:00:00.000Z");
  assert.equal(windowSeconds(month), 28 * 86400);
  assert.equal(month.limit, 100);
  const day = quotaWindow("B", sandbox, now);
  assert.equal(day.start.toISOString(), "2026-02-14T00:00:00.000Z");
  assert.equal(day.limit, 100);
  assert.equal(burstWindow("B", sandbox, now).limit, 5);
  assert.equal(burstWindow("B", sandbox, now).bucket, "B:minute");
});

test("RateLimit headers follow the IETF draft's structured fields; X-RateLimit-* describe the burst window", () => {
  const now = new Date("2026-02-14T10:20:42.500Z");
  const h = rateLimitHeaders(burstWindow("A", sandbox, now), 3, quotaWindow("A", sandbox, now), 40, now);
  assert.equal(h["ratelimit-policy"], `"minute";q=10;w=60, "month";q=100;w=2419200`);
  assert.equal(
    h.ratelimit,
    `"minute";r=7;t=18, "month";r=60;t=${Math.ceil((Date.UTC(2026, 2, 1) - now.getTime()) / 1000)}`,
  );
  assert.equal(h["x-ratelimit-limit"], "10");
  assert.equal(h["x-ratelimit-remaining"], "7");
  assert.equal(h["x-ratelimit-reset"], String(Date.UTC(2026, 1, 14, 10, 21) / 1000));
  const spent = rateLimitHeaders(burstWindow("A", sandbox, now), 12, quotaWindow("A", sandbox, now), 100, now);
  assert.equal(spent["x-ratelimit-remaining"], "0");
});

test("with partitions, both fields name who each window counts: the key for the burst, the account's environment for the quota", () => {
  const now = new Date("2026-02-14T10:20:42.500Z");
  const acct = "00000000-0000-4000-8000-000000000001";
  const h = (keyId: string, env: "test" | "live", accountId = acct) =>
    rateLimitHeaders(burstWindow("A", sandbox, now), 3, quotaWindow("A", sandbox, now), 40, now, {
      keyId,
      accountId,
      env,
    });
  const pks = (v: string) => [...v.matchAll(/;pk=:([A-Za-z0-9+/]+=*):/g)].map((m) => m[1]);
  const one = h("key_1", "test");
  assert.match(
    one["ratelimit-policy"],
    /^"minute";q=10;w=60;pk=:[A-Za-z0-9+/]{12}:, "month";q=100;w=2419200;pk=:[A-Za-z0-9+/]{12}:$/,
  );
  assert.deepEqual(pks(one.ratelimit), pks(one["ratelimit-policy"]));
  const [burst1, quota1] = pks(one.ratelimit);
  const [burst2, quota2] = pks(h("key_2", "test").ratelimit);
  assert.notEqual(burst1, burst2, "each key its own burst");
  assert.equal(quota1, quota2, "one quota for the account's test keys");
  assert.notEqual(pks(h("key_3", "live").ratelimit)[1], quota1, "live keys share another");
  assert.notEqual(pks(h("key_4", "test", "00000000-0000-4000-8000-000000000002").ratelimit)[1], quota1);
  assert.ok(!one.ratelimit.includes("key_1") && !one.ratelimit.includes(acct), "opaque: no id in the header");
});

test("freshness labels: demo for test keys; live data by age and entitlement", () => {
  const now = new Date("2026-02-14T15:00:00Z");
  const ago = (min: number) => new Date(now.getTime() - min * 60_000);
  assert.equal(dataLabel({ env: "demo", entitlement: "demo" }, ago(1), now), "demo");
  assert.equal(dataLabel({ env: "live", entitlement: "live" }, ago(1), now), "live");
  assert.equal(dataLabel({ env: "live", entitlement: "live" }, ago(15), now), "live");
  assert.equal(dataLabel({ env: "live", entitlement: "live" }, ago(16), now), "delayed-15m");
  assert.equal(dataLabel({ env: "live", entitlement: "delayed-15m" }, ago(16), now), "delayed-15m");
  assert.equal(dataLabel({ env: "live", entitlement: "delayed-15m" }, ago(30), now), "delayed-15m");
  assert.equal(dataLabel({ env: "live", entitlement: "delayed-15m" }, ago(31), now), "end-of-day");
  assert.equal(dataLabel({ env: "live", entitlement: "live" }, ago(24 * 60), now), "end-of-day");
});
