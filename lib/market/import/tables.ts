/** Where each kind is stored: its table, primary-key properties and the insert values of one row. */
import type { PgTable } from "drizzle-orm/pg-core";
import { bars, cashDividends, instruments, optionQuotes, optionTrades, treasuryYields } from "../../../db/schema";
import type { MarketEnv } from "../../analytics/types";
import type { ImportKind, KindRows } from "./types";

export interface KindTable<R> {
  table: PgTable;
  /** TypeScript property names of the primary-key columns (env included). */
  keyProps: readonly string[];
  /** Explicit column mapping, so extra properties on provider rows never reach the database. */
  values(row: R, env: MarketEnv): Record<string, unknown>;
}

export const KIND_TABLES: { [K in ImportKind]: KindTable<KindRows[K]> } = {
  instruments: {
    table: instruments,
    keyProps: ["env", "symbol"],
    values: (r, env) => ({
      env,
      symbol: r.symbol,
      name: r.name,
      sector: r.sector,
      kind: r.kind,
      nextEarningsDate: r.nextEarningsDate,
      earningsTiming: r.earningsTiming ?? null,
      dividendYield: r.dividendYield,
    }),
  },
  treasury: {
    table: treasuryYields,
    keyProps: ["env", "date", "tenor"],
    values: (r, env) => ({ env, date: r.date, tenor: r.tenor, yieldPct: r.yieldPct }),
  },
  bars: {
    table: bars,
    keyProps: ["env", "symbol", "interval", "ts"],
    values: (r, env) => ({
      env,
      symbol: r.symbol,
      interval: r.interval,
      ts: r.ts,
      open: r.open,
      high: r.high,
      low: r.low,
      close: r.close,
      volume: r.volume,
    }),
  },
  chain: {
    table: optionQuotes,
    keyProps: ["env", "symbol", "asOf", "expiry", "strike", "right"],
    values: (r, env) => ({
      env,
      symbol: r.symbol,
      asOf: r.asOf,
      expiry: r.expiry,
      strike: r.strike,
      right: r.right,
      bid: r.bid,
      ask: r.ask,
      last: r.last,
      volume: r.volume,
      openInterest: r.openInterest,
    }),
  },
  trades: {
    table: optionTrades,
    keyProps: ["env", "tradeId"],
    values: (r, env) => ({
      env,
      tradeId: r.tradeId,
      symbol: r.symbol,
      ts: r.ts,
      expiry: r.expiry,
      strike: r.strike,
      right: r.right,
      price: r.price,
      size: r.size,
      exchange: r.exchange,
      condition: r.condition,
      bid: r.bid,
      ask: r.ask,
    }),
  },
  dividends: {
    table: cashDividends,
    keyProps: ["env", "symbol", "exDate"],
    values: (r, env) => ({ env, symbol: r.symbol, exDate: r.exDate, amount: r.amount }),
  },
};
