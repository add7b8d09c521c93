/**
 * The demo market's own clock and model against the analytics: half-day sessions close at 13:00 New York, options
 * expire at the exchange calendar's close (so the demo's time to expiry is the engine's), and the American names pay
 * discrete cash dividends, priced by the same code as imported data. The engine's implied vol of the demo's own model
 * prices returns the demo's vol.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  americanGreeks,
  americanImpliedVol,
  americanPrice,
  MIN_AMERICAN_VEGA_FRACTION,
} from "../../lib/analytics/american";
import { cashDividendsBefore, yearFraction } from "../../lib/analytics/vol-surface";
import { chainAsOf, currentSession, expiryCloseMs, sessionClose, sessionMinutes } from "../../lib/market/demo/calendar";
import { expiryPoint, listExpiries, strikeGrid, surfaceContext, surfacePoint } from "../../lib/market/demo/surface";
import { DEMO_CASH_DIVIDENDS, demoSymbol, demoYield } from "../../lib/market/demo/universe";
import { demoInstruments, generateDemoMarket } from "../../lib/market/demo/simulator";

const SEED = "options-research-demo-v1";
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);

test("demo sessions close at 13:00 New York on NYSE half-days, 21:00 UTC otherwise", () => {
  assert.equal(new Date(sessionClose(day("2025-11-28"))).toISOString(), "2025-11-28T18:00:00.000Z");
  assert.equal(new Date(sessionClose(day("2025-12-24"))).toISOString(), "2025-12-24T18:00:00.000Z");
  assert.equal(new Date(sessionClose(day("2025-07-03"))).toISOString(), "2025-07-03T17:00:00.000Z"); // EDT
  assert.equal(new Date(sessionClose(day("2025-11-26"))).toISOString(), "2025-11-26T21:00:00.000Z");
  assert.equal(sessionMinutes(day("2025-11-28")), 210); // 14:30 → 18:00 UTC
  assert.equal(sessionMinutes(day("2025-11-26")), 390);
  // At the early close the chain snapshot is the 13:00 one; after it the demo's night session runs (lib/market/demo/
  // clock.ts) and its snapshots follow the minute, the session still being that day's.
  assert.equal(new Date(chainAsOf(Date.parse("2025-11-28T18:00:40Z"))).toISOString(), "2025-11-28T18:00:00.000Z");
  const evening = Date.parse("2025-11-28T20:30:15Z");
  assert.equal(new Date(chainAsOf(evening)).toISOString(), "2025-11-28T20:30:00.000Z");
  assert.equal(currentSession(evening), day("2025-11-28"));
});

test("0DTE on the day after Thanksgiving: 3 hours to the 13:00 close at 10:00 New York, as the engine counts it", () => {
  const t = Date.parse("2025-11-28T15:00:00Z"); // 10:00 New York
  const [first] = listExpiries(t);
  assert.equal(first.date, "2025-11-28");
  assert.equal(first.closeMs, Date.parse("2025-11-28T18:00:00Z"));
  const sym = demoSymbol("XOM")!;
  const ctx = surfaceContext(SEED, sym, t);
  const years = expiryPoint(ctx, first).years;
  assert.equal(years, (3 * 3600_000) / (365 * 86_400_000));
  assert.equal(years, yearFraction(new Date(t), first.date));
  // At the early close the 0DTE expiry is gone.
  assert.notEqual(listExpiries(Date.parse("2025-11-28T18:00:00Z"))[0].date, "2025-11-28");
  // Summer expiries close at 16:00 New York = 20:00 UTC, the exchange calendar's close.
  assert.equal(new Date(expiryCloseMs(day("2026-07-17"))).toISOString(), "2026-07-17T20:00:00.000Z");
});

test("the demo's American names pay quarterly cash dividends and list them on the instrument", () => {
  const now = Date.parse("2026-11-18T17:42:00Z");
  for (const inst of demoInstruments(SEED, now)) {
    if (!DEMO_CASH_DIVIDENDS.has(inst.symbol)) {
      assert.equal(inst.cashDividends, undefined);
      continue;
    }
    assert.equal(inst.dividendYield, 0, "the discrete dividends replace the yield");
    const divs = inst.cashDividends ?? [];
    assert.ok(divs.length >= 8, `${inst.symbol}: ${divs.length}`);
    for (let i = 1; i < divs.length; i++) {
      const gap = (day(divs[i].exDate) - day(divs[i - 1].exDate)) / 86_400_000;
      assert.ok(gap >= 89 && gap <= 93, `${inst.symbol} gap ${gap}`);
      assert.ok(![0, 6].includes(new Date(day(divs[i].exDate)).getUTCDay()), "ex on a weekday");
    }
  }
});

test("self-consistency: the engine's American IV of the demo's own prices (cash dividends, half-day clock) is the demo's vol", () => {
  let withCash = 0;
  let solved = 0;
  for (const t of [Date.parse("2026-11-18T17:42:00Z"), Date.parse("2025-11-28T15:00:00Z")]) {
    const instruments = new Map(demoInstruments(SEED, t).map((i) => [i.symbol, i]));
    for (const symbol of DEMO_CASH_DIVIDENDS) {
      const sym = demoSymbol(symbol)!;
      const ctx = surfaceContext(SEED, sym, t);
      const asOf = new Date(t);
      const strikes = strikeGrid(ctx.refPrice).filter((_, i) => i % 4 === 0);
      for (const expiry of listExpiries(t)) {
        const e = expiryPoint(ctx, expiry);
        // What the engine sees: the expiry date, the instrument's dividends and the analytics' own time to expiry.
        const years = yearFraction(asOf, expiry.date);
        assert.equal(years, e.years);
        const cash = cashDividendsBefore(instruments.get(symbol)!.cashDividends ?? [], asOf, years);
        assert.deepEqual(cash, e.cash);
        if (cash.length) withCash++;
        for (const strike of strikes) {
          const right = strike < e.forward ? "P" : "C";
          const vol = surfacePoint(ctx, e, strike).vol;
          const input = {
            spot: ctx.spot,
            strike,
            years,
            rate: e.rate,
            dividendYield: demoYield(sym),
            right,
            cashDividends: cash,
          } as const;
          const price = americanPrice({ ...input, vol });
          if (price < 0.05) continue;
          const iv = americanImpliedVol(price, input);
          if (iv === null) {
            // Unknown only by the documented vega rule (MIN_AMERICAN_VEGA_FRACTION; 10 % margin for the solver's slope).
            const vega = americanGreeks({ ...input, vol }).vega;
            assert.ok(
              vega < 1.1 * MIN_AMERICAN_VEGA_FRACTION * ctx.spot,
              `${symbol} ${strike}${right}: null, vega ${vega}`,
            );
            continue;
          }
          assert.ok(Math.abs(iv - vol) <= 0.0005, `${symbol} ${expiry.date} ${strike}${right}: ${iv} vs ${vol}`);
          solved++;
        }
      }
    }
  }
  assert.ok(withCash >= 10, `expiries with a dividend before them: ${withCash}`);
  assert.ok(solved >= 60, `solved ${solved}`);
});

test("the generated demo market carries the dividend payers' cash dividends", () => {
  const m = generateDemoMarket({ seed: SEED, now: Date.parse("2026-11-18T17:42:00Z"), symbols: ["XOM"] });
  const xom = m.instruments.find((i) => i.symbol === "XOM")!;
  assert.ok((xom.cashDividends ?? []).length > 0);
  assert.equal(xom.cashDividends![0].amount, Math.round((0.033 * 112 * 100) / 4) / 100);
});
