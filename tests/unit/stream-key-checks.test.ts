/**
 * The live stream's key re-checks (lib/api/stream/key-checks.ts): a key revoked mid-stream ends the stream with the
 * refusal; a plan that no longer allows the stream ends it with the route's refusal; a re-check that fails leaves the
 * stream open; an allowed stream carries its key's current caller on; passes never overlap.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { Caller } from "../../lib/api/credentials";
import { ApiError } from "../../lib/api/errors";
import { type Checked, KeyChecks, recheckStreams } from "../../lib/api/stream/key-checks";
import { streamCaller as caller, until } from "../helpers/stream-parts";

const revoked = new ApiError("inactive_key", "This API key or its account is deactivated.");
const stream = (recheck: Checked["recheck"], allowed: Checked["allowed"] = () => null): Checked => ({
  caller,
  recheck,
  allowed,
});

async function judge(streams: Checked[]) {
  const ended: [Checked, ApiError][] = [];
  await recheckStreams(streams, (s, e) => ended.push([s, e]));
  return ended;
}

test("a key revoked mid-stream ends the stream with the key's refusal", async () => {
  const s = stream(async () => revoked);
  assert.deepEqual(await judge([s]), [[s, revoked]]);
});

test("a plan that no longer allows the stream ends it with the route's refusal", async () => {
  const downgraded: Caller = { ...caller, plan: { ...caller.plan, dataEntitlement: "delayed-15m" } };
  const refusal = new ApiError("subscription_required", "no longer");
  const s = stream(
    () => downgraded,
    (c) => (c.plan.dataEntitlement === "demo" ? null : refusal),
  );
  assert.deepEqual(await judge([s]), [[s, refusal]]);
});

test("a re-check that fails leaves the stream open and its caller as it was", async () => {
  const s = stream(async () => {
    throw new Error("store unreachable");
  });
  assert.deepEqual(await judge([s]), []);
  assert.equal(s.caller, caller);
});

test("an allowed stream carries its key's current caller on", async () => {
  const renewed: Caller = { ...caller, plan: { ...caller.plan, bPerDay: 5000 } };
  const s = stream(() => renewed);
  assert.deepEqual(await judge([s]), []);
  assert.equal(s.caller, renewed);
});

test("the timer's passes never overlap; stop ends them", async () => {
  let running = 0;
  let most = 0;
  let passes = 0;
  const slow = stream(async () => {
    running++;
    most = Math.max(most, running);
    await new Promise((r) => setTimeout(r, 40));
    running--;
    passes++;
    return caller;
  });
  const checks = new KeyChecks(
    () => [slow],
    () => assert.fail("nothing ends"),
    5,
  );
  checks.start();
  try {
    await until("three passes", () => passes >= 3);
  } finally {
    checks.stop();
  }
  assert.equal(most, 1);
  const after = passes;
  await new Promise((r) => setTimeout(r, 100));
  assert.ok(passes <= after + 1, "at most the pass running at stop ends after it");
});
