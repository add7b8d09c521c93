/**
 * Bench part BENCH_MARKET_SYNC: a 100-symbol chain sync (fake Massive vendor, 2,000 contracts per symbol, pages of
 * 250) applied to the live store, and the API's p99 on the pipeline route at rest and while the sync runs.
 * Targets (docs/benchmark.md): the sync applies in ≤ 60 s; p99 during ≤ 2 × p99 at rest.
 */
import type { TestDatabase } from "../fixtures/test-db";
import { startFakeMassive } from "../fixtures/massive/fake-vendor";
import type { DemoMarket } from "../lib/market/demo/simulator";
import type { OptionQuote } from "../lib/analytics/types";
import { runMarketSync } from "../lib/domain/market-sync";
import { newYorkDate } from "../lib/analytics/exchange-calendar";
import { pickTool, runLoad, type LoadResult } from "./load";

export interface MarketSyncBenchResult {
  symbols: number;
  contracts: number;
  syncMs: number;
  ok: boolean;
  atRest: LoadResult;
  during: LoadResult;
  p99Ratio: number;
}

const SYMBOLS = 100;
const EXPIRIES = 20;
const STRIKES = 50;

export function syntheticMarket(now: Date): DemoMarket {
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const symbols = Array.from({ length: SYMBOLS }, (_, i) => `Q${letters[Math.floor(i / 26)]}${letters[i % 26]}`);
  const asOf = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
  const day = Date.parse(`${newYorkDate(asOf)}T00:00:00Z`);
  const chain: OptionQuote[] = [];
  for (const symbol of symbols)
    for (let e = 0; e < EXPIRIES; e++) {
      const expiry = new Date(day + (7 * e + 7) * 86_400_000).toISOString().slice(0, 10);
      for (let k = 0; k < STRIKES; k++)
        for (const right of ["C", "P"] as const) {
          const strike = 50 + k * 2.5;
          const intrinsic = Math.max(0, right === "C" ? 100 - strike : strike - 100);
          const bid = Math.round((intrinsic + 1 + e * 0.2) * 100) / 100;
          chain.push({
            symbol,
            asOf,
            expiry,
            strike,
            right,
            bid,
            ask: bid + 0.1,
            last: bid,
            volume: k,
            openInterest: 100 + k,
          });
        }
    }
  return {
    asOf,
    instruments: symbols.map((symbol) => ({
      symbol,
      name: `Bench ${symbol} Inc`,
      sector: "Bench",
      kind: "equity" as const,
      nextEarningsDate: null,
      dividendYield: 0,
    })),
    dailyBars: [],
    intradayBars: [],
    chainHistory: [],
    chain,
    trades: [],
    yields: [],
  } as DemoMarket;
}

export async function benchMarketSync(
  database: TestDatabase,
  url: string,
  keys: string[],
  say: (m: string) => void,
): Promise<MarketSyncBenchResult> {
  const market = syntheticMarket(new Date());
  const apiKey = "bench-vendor-key";
  const vendor = await startFakeMassive({ apiKey, market, pageSize: 250 });
  const tool = pickTool();
  const job = { url, keys, connections: 20, durationS: 10, warmupS: 1 };
  try {
    Object.assign(process.env, { MASSIVE_API_KEY: apiKey, MASSIVE_BASE_URL: vendor.url });
    const symbols = market.instruments.map((i) => i.symbol);
    // Instruments come from the ticker reference first (a dividends run), so the measured sync is the chain alone.
    await runMarketSync(database.db, { kind: "dividends", symbols, trigger: "cli" });
    say(`market sync: p99 at rest (${job.durationS} s)`);
    const atRest = await runLoad(tool, job);
    say(`market sync: ${SYMBOLS} symbols × ${EXPIRIES * STRIKES * 2} contracts while measuring p99`);
    const started = Date.now();
    const sync = runMarketSync(database.db, { kind: "chain", symbols, trigger: "cli" });
    const during = await runLoad(tool, job);
    const summary = await sync;
    const syncMs = Date.now() - started;
    say(
      `  sync ${summary.ok ? "applied" : `FAILED: ${summary.error}`} in ${syncMs} ms; p99 ${atRest.p99Ms} → ${during.p99Ms} ms`,
    );
    return {
      symbols: SYMBOLS,
      contracts: market.chain.length,
      syncMs,
      ok: summary.ok,
      atRest,
      during,
      p99Ratio: Math.round((during.p99Ms / atRest.p99Ms) * 100) / 100,
    };
  } finally {
    await vendor.close();
  }
}
