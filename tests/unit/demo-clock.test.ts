/**
 * The demo clock (lib/market/demo/clock.ts): sessions of the demo calendar read as they always did; between them — a
 * night, a weekend, the afternoon after an early close — the demo runs its own night session, in which prints, flow
 * events and implied vols move while the underlyings (and so the bars and history) rest at the close.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { demoClock, isNight, nightOf } from "../../lib/market/demo/clock";
import { chainAsOf, currentSession } from "../../lib/market/demo/calendar";
import { nightVolFactor, NIGHT_SLOT_MS } from "../../lib/market/demo/night";
import { surfaceContext } from "../../lib/market/demo/surface";
import { demoSymbol } from "../../lib/market/demo/universe";
import { generateChainAt, generateDemoMarket, generateTradesBetween } from "../../lib/market/demo/simulator";
import { demoWallClock } from "../../lib/market/demo-wall-clock";
import { buildFlowEvents } from "../../lib/analytics/flow";

const SEED = "options-research-demo-v1";
const at = (iso: string) => Date.parse(iso);
const day = (date: string) => at(`${date}T00:00:00Z`);
const hash = (x: unknown) => createHash("sha256").update(JSON.stringify(x)).digest("hex").slice(0, 16);
const reading = (iso: string) => demoClock(at(iso));

test("session hours read as before: the session's day and minute, the close included", () => {
  assert.deepEqual(reading("2026-11-18T14:30:00Z"), {
    phase: "session",
    day: day("2026-11-18"),
    minute: 0,
    minutes: 390,
  });
  assert.deepEqual(reading("2026-11-18T17:42:31Z"), {
    phase: "session",
    day: day("2026-11-18"),
    minute: 192,
    minutes: 390,
  });
  assert.deepEqual(reading("2026-11-18T21:00:00Z"), {
    phase: "session",
    day: day("2026-11-18"),
    minute: 390,
    minutes: 390,
  });
  assert.equal(chainAsOf(at("2026-11-18T17:42:31Z")), at("2026-11-18T17:42:00Z"));
  assert.equal(chainAsOf(at("2026-11-18T21:00:40Z")), at("2026-11-18T21:00:00Z"), "the close's snapshot");
});

test("overnight: the night session of the day that closed, from its close to the next open", () => {
  const wed = day("2026-11-18");
  assert.deepEqual(nightOf(wed), { start: at("2026-11-18T21:00:00Z"), end: at("2026-11-19T14:30:00Z") });
  assert.deepEqual(reading("2026-11-18T21:00:01Z"), { phase: "night", day: wed, minute: 0, minutes: 1050 });
  assert.deepEqual(reading("2026-11-18T23:00:00Z"), { phase: "night", day: wed, minute: 120, minutes: 1050 });
  assert.deepEqual(reading("2026-11-19T03:00:30Z"), { phase: "night", day: wed, minute: 360, minutes: 1050 });
  assert.deepEqual(reading("2026-11-19T14:29:59Z"), { phase: "night", day: wed, minute: 1049, minutes: 1050 });
  assert.deepEqual(reading("2026-11-19T14:30:00Z"), {
    phase: "session",
    day: day("2026-11-19"),
    minute: 0,
    minutes: 390,
  });
  assert.equal(chainAsOf(at("2026-11-19T03:00:30Z")), at("2026-11-19T03:00:00Z"), "night snapshots follow the minute");
  assert.ok(isNight(at("2026-11-19T03:00:30Z")) && !isNight(at("2026-11-19T15:00:00Z")));
});

test("weekend: Friday's night session runs to Monday's open", () => {
  const fri = day("2026-11-20");
  assert.deepEqual(reading("2026-11-21T07:00:00Z"), { phase: "night", day: fri, minute: 600, minutes: 3930 });
  assert.deepEqual(reading("2026-11-22T23:59:00Z"), { phase: "night", day: fri, minute: 3059, minutes: 3930 });
  assert.equal(currentSession(at("2026-11-22T23:59:00Z")), fri);
});

test("holidays: the demo calendar trades on them (on purpose); early closes start the night at 13:00 New York", () => {
  // Thanksgiving 2026 (Thursday 26 November): an NYSE holiday, a demo session.
  assert.deepEqual(reading("2026-11-26T16:00:00Z"), {
    phase: "session",
    day: day("2026-11-26"),
    minute: 90,
    minutes: 390,
  });
  assert.equal(reading("2026-11-27T03:00:00Z").phase, "night");
  // The Friday after closes at 18:00 UTC; its night runs over the weekend.
  assert.deepEqual(reading("2026-11-27T19:00:00Z"), {
    phase: "night",
    day: day("2026-11-27"),
    minute: 60,
    minutes: 4110,
  });
  // Christmas Day 2026 (Friday) at 03:00 UTC: the night after Christmas Eve's 13:00 New York close.
  assert.deepEqual(reading("2026-12-25T03:00:00Z"), {
    phase: "night",
    day: day("2026-12-24"),
    minute: 540,
    minutes: 1230,
  });
});

test("session hours are unchanged: markets, chains and prints pinned before the night session existed", () => {
  const market = generateDemoMarket({
    seed: SEED,
    now: at("2026-11-18T17:42:31.250Z"),
    symbols: ["AAPL", "SPX", "XOM"],
  });
  // Renewed after issue 31 item 6: the equities' instruments carry earningsTiming "before_open" (without it the hash is
  // a8b8a96968394b95, the pin renewed after item 2, when XOM's cash dividends priced differently).
  assert.equal(hash(market), "f6040d58b72fe16a");
  assert.equal(hash(generateChainAt(SEED, at("2025-11-28T17:59:10Z"), ["XOM", "SPY"])), "80fbbc97111910cb"); // renewed with the market pin above
  assert.equal(hash(generateChainAt(SEED, at("2026-11-20T21:00:00Z"), ["NVDA"])), "0ac970a5a6ee779c");
  // The early-close Friday's session prints (to 18:00 UTC); the night's follow with ids of their own.
  const prints = generateTradesBetween(SEED, at("2026-11-27T14:30:00Z"), at("2026-11-27T21:00:00Z"));
  const night = prints.filter((t) => /-N\d+-\d+$/.test(t.tradeId));
  assert.equal(hash(prints.filter((t) => !night.includes(t))), "d9b7a6cb13a23d1d"); // renewed with the market pin above
  assert.ok(night.length > 0 && night.every((t) => +t.ts > at("2026-11-27T18:00:00Z")));
});

test("the night session: underlyings rest at the close, vols wander and come back by the open", () => {
  const aapl = demoSymbol("AAPL")!;
  const fri = day("2026-11-20");
  const close = surfaceContext(SEED, aapl, at("2026-11-20T21:00:00Z"));
  const saturday = surfaceContext(SEED, aapl, at("2026-11-21T07:00:00Z"));
  const later = surfaceContext(SEED, aapl, at("2026-11-21T07:01:00Z"));
  assert.equal(saturday.spot, close.spot, "spot stays at the close");
  assert.notEqual(saturday.atmShort, later.atmShort, "the vol moves minute by minute");
  assert.ok(Math.abs(saturday.atmShort / close.atmShort - 1) < 0.25);
  assert.equal(nightVolFactor(SEED, "AAPL", fri, 0), 1);
  assert.ok(Math.abs(nightVolFactor(SEED, "AAPL", fri, 3930) - 1) < 1e-12);
  const lastMinute = surfaceContext(SEED, aapl, at("2026-11-23T14:29:30Z"));
  const open = surfaceContext(SEED, aapl, at("2026-11-23T14:30:00Z"));
  assert.ok(
    Math.abs(lastMinute.atmShort - open.atmShort) < 0.01 * open.atmShort,
    "the open takes over where the night ends (one minute's step away)",
  );

  // A market seeded at night: the chain of the minute, the close's bars, the close kept as an end-of-day snapshot.
  const m = generateDemoMarket({ seed: SEED, now: at("2026-11-21T07:00:42Z"), symbols: ["AAPL"] });
  const atClose = generateDemoMarket({ seed: SEED, now: at("2026-11-20T21:00:00Z"), symbols: ["AAPL"] });
  assert.equal(m.asOf.toISOString(), "2026-11-21T07:00:00.000Z");
  assert.deepEqual(m.dailyBars, atClose.dailyBars, "no bar moves at night");
  assert.deepEqual(m.intradayBars, atClose.intradayBars);
  assert.ok(m.chainHistory.some((q) => q.asOf.toISOString() === "2026-11-20T21:00:00.000Z"));
  assert.notDeepEqual(
    m.chain.map((q) => q.bid),
    atClose.chain.filter((q) => q.expiry !== "2026-11-20").map((q) => q.bid),
  );
});

test("night prints: a flow event (sweep or block) about every 20 s, never a minute without one", () => {
  const from = at("2026-11-21T07:00:00Z");
  const to = from + 2 * 3600_000;
  const prints = generateTradesBetween(SEED, from, to);
  assert.equal(new Set(prints.map((t) => t.tradeId)).size, prints.length, "trade ids are unique");
  const mid = from + 3600_000 + 12_345;
  const split = [...generateTradesBetween(SEED, from, mid), ...generateTradesBetween(SEED, mid, to)];
  assert.deepEqual(
    split.map((t) => t.tradeId),
    prints.map((t) => t.tradeId),
    "any window split gives the same prints",
  );
  const oi = new Map(
    generateChainAt(SEED, to).map((q) => [`${q.symbol}|${q.expiry}|${q.strike}|${q.right}`, q.openInterest]),
  );
  const events = [...new Set(prints.map((t) => t.symbol))].flatMap((s) =>
    buildFlowEvents(
      prints.filter((t) => t.symbol === s),
      (c) => oi.get(`${c.symbol}|${c.expiry}|${c.strike}|${c.right}`) ?? null,
    ),
  );
  const slots = (to - from) / NIGHT_SLOT_MS;
  assert.ok(events.length >= 0.95 * slots, `${events.length} flow events in ${slots} slots`);
  const times = [from, ...events.map((e) => Date.parse(e.time)).sort((a, b) => a - b), to];
  const gaps = times.slice(1).map((t, i) => t - times[i]);
  assert.ok(Math.max(...gaps) < 45_000, `longest wait ${Math.max(...gaps)} ms`);
  // Nothing prints before the close or after the next open but the sessions' own prints.
  const edges = generateTradesBetween(SEED, at("2026-11-20T20:59:00Z"), at("2026-11-23T14:31:00Z"), ["SPY"]);
  const nightPrints = edges.filter((t) => t.tradeId.includes("-N"));
  assert.ok(nightPrints.every((t) => +t.ts > at("2026-11-20T21:00:00Z") && +t.ts < at("2026-11-23T14:30:00Z")));
});

test("the clock is injectable: DEMO_CLOCK_AT read at DEMO_CLOCK_FROM, running in real time", () => {
  let wall = at("2026-05-06T12:00:00Z");
  const clock = () => wall;
  assert.equal(demoWallClock({}, clock)(), wall, "unset: wall time");
  const saturday = demoWallClock(
    { DEMO_CLOCK_AT: "2026-05-09T07:00:00Z", DEMO_CLOCK_FROM: "2026-05-06T11:59:00Z" },
    clock,
  );
  assert.equal(new Date(saturday()).toISOString(), "2026-05-09T07:01:00.000Z");
  wall += 30_000;
  assert.equal(new Date(saturday()).toISOString(), "2026-05-09T07:01:30.000Z");
  const fromNow = demoWallClock({ DEMO_CLOCK_AT: "2026-05-09T07:00:00Z" }, clock);
  assert.equal(new Date(fromNow()).toISOString(), "2026-05-09T07:00:00.000Z", "without FROM: from when it was made");
  assert.equal(demoClock(saturday()).phase, "night");
});
