/**
 * The live stream's quota budgets (lib/api/stream/budget.ts): nothing is sent on a budget before a decision is known in
 * the window; a budget covers events only up to what is left (exhaustion); a decision counts the events sent and not
 * metered yet; the highest use of a round wins; the window's turn voids the budget; the scope is account and key
 * environment.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { Budgets } from "../../lib/api/stream/budget";
import { quotaWindow } from "../../lib/limits/windows";
import { streamCaller as caller } from "../helpers/stream-parts";

const now = new Date("2026-11-24T12:00:00.000Z");
const limit = caller.plan.bPerDay; // 1,000 a day
const take = (b: Budgets, n: number, at = now, c = caller) => b.take(c, n, at, new Map());

test("no decision known: nothing is covered", () => {
  assert.equal(take(new Budgets(), 5), 0);
});

test("a budget covers events up to what is left, then nothing (exhaustion)", () => {
  const b = new Budgets();
  b.seed(caller, limit - 15, now);
  assert.equal(take(b, 10), 10);
  assert.equal(take(b, 10), 5, "only the 5 left");
  assert.equal(take(b, 1), 0, "spent");
});

test("seeding keeps a budget already known", () => {
  const b = new Budgets();
  b.seed(caller, limit - 3, now);
  b.seed(caller, 0, now);
  assert.equal(take(b, 10), 3);
});

test("a decision counts the events sent and not metered yet; metering them releases them", () => {
  const b = new Budgets();
  const quota = quotaWindow("B", caller.plan, now);
  b.seed(caller, 0, now);
  assert.equal(take(b, 100), 100); // sent, not metered
  b.decided([{ caller, quota, used: 50 }]); // a decision before those 100 were metered
  assert.equal(take(b, limit), limit - 50 - 100);
  b.metered(caller, 100);
  b.decided([{ caller, quota, used: limit }]);
  assert.equal(take(b, 1), 0, "left never goes below 0: the unmetered ones stay taken");
});

test("of one round's decisions, the one that saw the most use sets what is left", () => {
  const b = new Budgets();
  const quota = quotaWindow("B", caller.plan, now);
  b.decided([
    { caller, quota, used: 700 },
    { caller, quota, used: 900 },
    { caller, quota, used: 800 },
  ]);
  assert.equal(take(b, limit), 100);
});

test("the quota window's turn voids the budget until the next decision", () => {
  const b = new Budgets();
  b.seed(caller, 0, now);
  const tomorrow = new Date(now.getTime() + 24 * 3_600_000);
  assert.equal(take(b, 5, tomorrow), 0);
  b.decided([{ caller, quota: quotaWindow("B", caller.plan, tomorrow), used: 1 }]);
  assert.equal(take(b, 5, tomorrow), 5);
});

test("one budget per account and key environment: another key of the account shares it, a live key does not", () => {
  const b = new Budgets();
  b.seed(caller, limit - 4, now);
  assert.equal(take(b, 3, now, { ...caller, keyId: "key_2" }), 3);
  assert.equal(take(b, 3, now, { ...caller, env: "live" }), 0);
  assert.equal(take(b, 3), 1);
});
