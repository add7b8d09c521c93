import { before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  generateChainAt,
  generateDemoMarket,
  generateTradesBetween,
  type DemoMarket,
} from "../../lib/market/demo/simulator";
import { TENORS } from "../../lib/analytics/types";
import { nyseEarlyCloses } from "../../lib/analytics/exchange-calendar";
import { impliedVol } from "../../lib/analytics/iv";
import { marketDay } from "../../lib/market/demo/paths";
import { sessionsEndingAt, currentSession, DAY_MS } from "../../lib/market/demo/calendar";
import { rateAt } from "../../lib/market/demo/yields";
import { demoSymbol } from "../../lib/market/demo/universe";

const SEED = "unit-seed";
const NOW = new Date("2026-11-18T17:42:31.250Z"); // a Wednesday, mid-session
const hash = (x: unknown) => createHash("sha256").update(JSON.stringify(x)).digest("hex");

describe("demo market simulator", () => {
  let m: DemoMarket;
  before(() => {
    m = generateDemoMarket({ seed: SEED, now: NOW });
  });

  it("is a pure function of (seed, now)", () => {
    assert.equal(hash(generateDemoMarket({ seed: SEED, now: NOW })), hash(m));
    const other = generateDemoMarket({ seed: "another-seed", now: NOW, symbols: ["AAPL"] });
    const same = generateDemoMarket({ seed: SEED, now: NOW, symbols: ["AAPL"] });
    assert.notEqual(hash(other.dailyBars), hash(same.dailyBars));
    assert.notEqual(hash(other.chain), hash(same.chain));
  });

  it("does not rewrite the past when time advances", () => {
    const later = generateDemoMarket({ seed: SEED, now: new Date(+NOW + 3 * DAY_MS), symbols: ["MSFT"] });
    const early = generateDemoMarket({ seed: SEED, now: NOW, symbols: ["MSFT"] });
    const done = (bars: DemoMarket["dailyBars"]) => bars.filter((b) => b.symbol === "MSFT" && +b.ts < +NOW - DAY_MS);
    const a = done(early.dailyBars);
    const b = new Map(done(later.dailyBars).map((x) => [+x.ts, x]));
    for (const bar of a.slice(-200)) assert.deepEqual(b.get(+bar.ts), bar);
    const histLater = new Set(later.chainHistory.map((q) => JSON.stringify(q)));
    for (const q of early.chainHistory.slice(-400)) assert.ok(histLater.has(JSON.stringify(q)));
  });

  it("splits trades exactly across time windows", () => {
    const open = Date.parse("2026-11-18T14:30:00Z");
    const mid = Date.parse("2026-11-18T16:00:00.500Z");
    const whole = generateTradesBetween(SEED, open, +NOW);
    const parts = [...generateTradesBetween(SEED, open, mid), ...generateTradesBetween(SEED, mid, +NOW)];
    assert.deepEqual(parts.map((t) => t.tradeId).sort(), whole.map((t) => t.tradeId).sort());
    assert.equal(new Set(whole.map((t) => t.tradeId)).size, whole.length, "trade ids are unique");
    assert.deepEqual(m.trades, whole);
  });

  it("covers ≥ 50 equities (BRK.B among them), SPY, QQQ, IWM, SPX and VIX, with a year of daily bars and today's 5-minute bars", () => {
    const kinds = m.instruments.map((i) => i.kind);
    assert.ok(kinds.filter((k) => k === "equity").length >= 50);
    assert.ok(m.instruments.some((i) => i.symbol === "BRK.B" && i.kind === "equity"));
    assert.deepEqual(
      m.instruments.filter((i) => i.kind !== "equity").map((i) => `${i.symbol}:${i.kind}`),
      ["SPX:index", "VIX:volatility_index", "SPY:etf", "QQQ:etf", "IWM:etf"],
    );
    for (const i of m.instruments) {
      const bars = m.dailyBars.filter((b) => b.symbol === i.symbol);
      assert.ok(bars.length >= 252, `${i.symbol} has ${bars.length} daily bars`);
      for (const b of bars)
        assert.ok(
          b.low <= Math.min(b.open, b.close) && b.high >= Math.max(b.open, b.close) && b.low > 0,
          `${i.symbol} ${b.ts.toISOString()}`,
        );
      const intraday = m.intradayBars.filter((b) => b.symbol === i.symbol);
      assert.equal(intraday.length, Math.ceil(192 / 5)); // 14:30 → 17:42 is 192 minutes
      if (i.kind === "equity") assert.match(i.nextEarningsDate ?? "", /^\d{4}-\d{2}-\d{2}$/);
      else assert.equal(i.nextEarningsDate, null, `${i.symbol} (${i.kind}) has no earnings`);
      if (i.kind === "etf") assert.ok(i.dividendYield > 0, `${i.symbol} pays its own dividend yield`);
    }
    const aapl = m.dailyBars.filter((b) => b.symbol === "AAPL");
    assert.equal(+aapl.at(-1)!.ts, Date.parse("2026-11-18T00:00:00Z"));
    const lastIntraday = m.intradayBars.filter((b) => b.symbol === "AAPL").at(-1)!;
    assert.equal(lastIntraday.close, aapl.at(-1)!.close, "the partial daily bar closes where the intraday path is now");
  });

  it("publishes all 13 tenors for every session", () => {
    const dates = new Set(m.yields.map((y) => y.date));
    assert.equal(m.yields.length, dates.size * TENORS.length);
    assert.ok(dates.size >= 252);
    for (const y of m.yields) assert.ok(y.yieldPct > 0 && y.yieldPct < 12);
  });

  it("quotes sane chains: bid ≤ ask, cents, penny floor, put-call parity on mids", () => {
    assert.ok(m.chain.length > 10_000);
    assert.ok(m.chain.every((q) => +q.asOf === Date.parse("2026-11-18T17:42:00Z")));
    const spot = m.dailyBars.filter((b) => b.symbol === "AAPL").at(-1)!.close;
    for (const q of m.chain) {
      assert.ok(q.bid <= q.ask, `${q.symbol} ${q.strike}`);
      assert.ok(q.bid >= 0.01 || (q.bid === 0 && q.ask <= 0.05), `bid ${q.bid} ask ${q.ask}`);
      assert.equal(Math.round(q.bid * 100) / 100, q.bid);
      assert.equal(Math.round(q.ask * 100) / 100, q.ask);
      assert.ok(q.openInterest >= 0 && q.volume >= 0);
    }
    const aapl = m.chain.filter((q) => q.symbol === "AAPL");
    const expiries = [...new Set(aapl.map((q) => q.expiry))];
    assert.ok(expiries.length >= 7 && expiries.length <= 11, `${expiries.length} expiries`);
    const q = 0.005;
    let checked = 0;
    for (const e of expiries) {
      const years = (Date.parse(`${e}T21:00:00Z`) - +NOW) / (365 * DAY_MS);
      const r = rateAt(SEED, currentSession(+NOW), years);
      for (const call of aapl.filter((x) => x.expiry === e && x.right === "C" && Math.abs(x.strike / spot - 1) < 0.1)) {
        const put = aapl.find((x) => x.expiry === e && x.right === "P" && x.strike === call.strike)!;
        const lhs = (call.bid + call.ask) / 2 - (put.bid + put.ask) / 2;
        const rhs = spot * Math.exp(-q * years) - call.strike * Math.exp(-r * years);
        const tol = (call.ask - call.bid + put.ask - put.bid) / 2 + 0.02;
        assert.ok(Math.abs(lhs - rhs) <= tol, `${e} ${call.strike}: ${lhs} vs ${rhs}`);
        checked++;
      }
    }
    assert.ok(checked > 20);
  });

  it("widens relative spreads and thins volume away from the money; puts carry skew", () => {
    const chain = m.chain.filter((q) => q.symbol === "MSFT");
    const spot = m.dailyBars.filter((b) => b.symbol === "MSFT").at(-1)!.close;
    const expiry = [...new Set(chain.map((q) => q.expiry))][3];
    const calls = chain.filter((q) => q.expiry === expiry && q.right === "C" && q.bid > 0);
    const atm = calls.reduce((a, b) => (Math.abs(a.strike - spot) < Math.abs(b.strike - spot) ? a : b));
    const otm = calls.filter((q) => q.strike > spot * 1.12)[0];
    const rel = (x: typeof atm) => (x.ask - x.bid) / ((x.ask + x.bid) / 2);
    assert.ok(rel(otm) > rel(atm), `OTM ${rel(otm)} vs ATM ${rel(atm)}`);
    assert.ok(otm.openInterest < atm.openInterest);
    const puts = chain.filter((q) => q.expiry === expiry && q.right === "P");
    const years = (Date.parse(`${expiry}T21:00:00Z`) - Date.parse("2026-11-18T17:42:00Z")) / (365 * DAY_MS);
    const r = rateAt(SEED, currentSession(+NOW), years);
    const iv = (x: (typeof chain)[number]) =>
      impliedVol((x.bid + x.ask) / 2, {
        spot,
        strike: x.strike,
        years,
        rate: r,
        dividendYield: demoSymbol("MSFT")!.dividendYield,
        right: x.right,
      })!;
    const downPut = puts.find((p) => p.strike >= spot * 0.88)!;
    const upCall = calls.filter((c) => c.strike <= spot * 1.12).at(-1)!;
    assert.ok(iv(downPut) > iv(upCall) + 0.01, `put wing ${iv(downPut)} vs call wing ${iv(upCall)}`);
  });

  it("prints sweeps across exchanges within a second, blocks and heavy-tailed sizes", () => {
    const sweeps = m.trades.filter((t) => t.condition === "ISOI");
    const blocks = m.trades.filter((t) => t.condition === "BLOCK");
    assert.ok(blocks.length > 5 && blocks.every((t) => t.size >= 100));
    const groups = new Map<string, typeof sweeps>();
    for (const t of sweeps) {
      const key = t.tradeId.replace(/-\d+$/, "");
      groups.set(key, [...(groups.get(key) ?? []), t]);
    }
    assert.ok(groups.size > 10);
    for (const legs of groups.values()) {
      if (legs.length < 2) continue; // a sweep can straddle the window edge
      assert.equal(new Set(legs.map((l) => l.exchange)).size, legs.length);
      assert.equal(new Set(legs.map((l) => `${l.expiry}${l.strike}${l.right}`)).size, 1);
      assert.ok(+legs.at(-1)!.ts - +legs[0].ts < 1000);
    }
    for (const t of m.trades) {
      assert.ok(t.price >= 0.01 && t.bid <= t.ask);
      assert.ok(t.price >= t.bid - 0.05 && t.price <= t.ask + 0.05, `${t.tradeId} ${t.price} vs ${t.bid}/${t.ask}`);
    }
    const sizes = m.trades.map((t) => t.size).sort((a, b) => a - b);
    assert.ok(sizes[Math.floor(sizes.length / 2)] < 20 && sizes.at(-1)! >= 200, "small median, large tail");
  });

  it("switches between calm and stressed regimes, and VIX follows the index vol", () => {
    const days = sessionsEndingAt(currentSession(+NOW), 261 * 6);
    const regimes = new Set(days.map((d) => marketDay(SEED, d).regime));
    assert.deepEqual([...regimes].sort(), ["calm", "stressed"]);
    const vix = m.dailyBars.filter((b) => b.symbol === "VIX");
    const days261 = sessionsEndingAt(currentSession(+NOW), 261);
    vix.slice(0, -1).forEach((b, i) => {
      assert.ok(Math.abs(b.close / (100 * marketDay(SEED, days261[i]).indexVol) - 1) < 0.15);
    });
  });

  it("keeps a reduced EOD chain: 2 expiries × 4 strikes × 2 rights for 252 sessions", () => {
    const aapl = m.chainHistory.filter((q) => q.symbol === "AAPL");
    const byDay = new Map<number, number>();
    for (const q of aapl) byDay.set(+q.asOf, (byDay.get(+q.asOf) ?? 0) + 1);
    assert.equal(byDay.size, 252);
    const early: string[] = [];
    for (const [asOf, n] of byDay) {
      assert.equal(n, 16);
      // At the session close: 21:00 UTC, or 13:00 New York (18:00 UTC in winter) on an NYSE early-close day.
      const iso = new Date(asOf).toISOString();
      if (nyseEarlyCloses(Number(iso.slice(0, 4))).has(iso.slice(0, 10))) {
        early.push(iso);
        assert.equal(iso.slice(11), "18:00:00.000Z");
      } else assert.equal(iso.slice(11), "21:00:00.000Z");
    }
    assert.deepEqual(early, ["2025-12-24T18:00:00.000Z"]); // the window starts in December 2025
    assert.equal(
      generateChainAt(SEED, NOW, ["AAPL"]).filter((q) => q.symbol === "AAPL").length,
      m.chain.filter((q) => q.symbol === "AAPL").length,
    );
  });
});
