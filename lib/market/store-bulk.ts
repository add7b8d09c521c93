/**
 * Bulk writes for the market tables: one `insert … select from unnest(array params)` per chunk, so a chunk of
 * thousands of rows costs one statement with a handful of parameters on PostgreSQL and on PGlite alike.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { arrayLiteral, type Cell } from "../db/array-literal";
import type {
  Bar,
  CashDividendRow,
  Instrument,
  MarketEnv,
  OptionQuote,
  OptionTrade,
  TreasuryYield,
} from "../analytics/types";

export type Tx = Pick<Db, "execute" | "insert">;
type PgType = "text" | "float8" | "int8" | "int4" | "timestamptz" | "date";

interface TableSpec<T> {
  table: string;
  columns: [column: string, type: PgType, get: (row: T) => Cell][];
  key: string; // conflict target, for upserts
}

const CHUNK_ROWS = 10_000;

const iso = (d: Date) => d.toISOString();

export const INSTRUMENTS: TableSpec<Instrument> = {
  table: "instruments",
  key: "env, symbol",
  columns: [
    ["symbol", "text", (r) => r.symbol],
    ["name", "text", (r) => r.name],
    ["sector", "text", (r) => r.sector],
    ["kind", "text", (r) => r.kind],
    ["next_earnings_date", "date", (r) => r.nextEarningsDate],
    ["earnings_timing", "text", (r) => r.earningsTiming ?? null],
    ["dividend_yield", "float8", (r) => r.dividendYield],
  ],
};

/** Explicit exercise styles (write only the instruments that set one). */
export const INSTRUMENT_STYLES: TableSpec<Instrument> = {
  table: "instrument_exercise_styles",
  key: "env, symbol",
  columns: [
    ["symbol", "text", (r) => r.symbol],
    ["exercise_style", "text", (r) => r.exerciseStyle ?? null],
  ],
};

/** Discrete cash dividends per symbol and ex-date. */
export const CASH_DIVIDENDS: TableSpec<CashDividendRow> = {
  table: "cash_dividends",
  key: "env, symbol, ex_date",
  columns: [
    ["symbol", "text", (r) => r.symbol],
    ["ex_date", "date", (r) => r.exDate],
    ["amount", "float8", (r) => r.amount],
  ],
};

export const BARS: TableSpec<Bar> = {
  table: "bars",
  key: "env, symbol, interval, ts",
  columns: [
    ["symbol", "text", (r) => r.symbol],
    ["interval", "text", (r) => r.interval],
    ["ts", "timestamptz", (r) => iso(r.ts)],
    ["open", "float8", (r) => r.open],
    ["high", "float8", (r) => r.high],
    ["low", "float8", (r) => r.low],
    ["close", "float8", (r) => r.close],
    ["volume", "int8", (r) => r.volume],
  ],
};

export const QUOTES: TableSpec<OptionQuote> = {
  table: "option_quotes",
  key: 'env, symbol, as_of, expiry, strike, "right"',
  columns: [
    ["symbol", "text", (r) => r.symbol],
    ["as_of", "timestamptz", (r) => iso(r.asOf)],
    ["expiry", "date", (r) => r.expiry],
    ["strike", "float8", (r) => r.strike],
    ["right", "text", (r) => r.right],
    ["bid", "float8", (r) => r.bid],
    ["ask", "float8", (r) => r.ask],
    ["last", "float8", (r) => r.last],
    ["volume", "int8", (r) => r.volume],
    ["open_interest", "int8", (r) => r.openInterest],
  ],
};

export const TRADES: TableSpec<OptionTrade> = {
  table: "option_trades",
  key: "env, trade_id",
  columns: [
    ["trade_id", "text", (r) => r.tradeId],
    ["symbol", "text", (r) => r.symbol],
    ["ts", "timestamptz", (r) => iso(r.ts)],
    ["expiry", "date", (r) => r.expiry],
    ["strike", "float8", (r) => r.strike],
    ["right", "text", (r) => r.right],
    ["price", "float8", (r) => r.price],
    ["size", "int4", (r) => r.size],
    ["exchange", "text", (r) => r.exchange],
    ["condition", "text", (r) => r.condition],
    ["bid", "float8", (r) => r.bid],
    ["ask", "float8", (r) => r.ask],
  ],
};

export const YIELDS: TableSpec<TreasuryYield> = {
  table: "treasury_yields",
  key: "env, date, tenor",
  columns: [
    ["date", "date", (r) => r.date],
    ["tenor", "text", (r) => r.tenor],
    ["yield_pct", "float8", (r) => r.yieldPct],
  ],
};

const quoteIdent = (name: string) => `"${name}"`;

/** Inserts rows for one environment; on a key conflict either keeps the stored row or overwrites it. */
export async function bulkInsert<T>(
  tx: Tx,
  env: MarketEnv,
  spec: TableSpec<T>,
  rows: readonly T[],
  onConflict: "nothing" | "update" = "nothing",
): Promise<void> {
  const names = spec.columns.map(([c]) => quoteIdent(c)).join(", ");
  const conflict =
    onConflict === "nothing"
      ? "do nothing"
      : `do update set ${spec.columns.map(([c]) => `${quoteIdent(c)} = excluded.${quoteIdent(c)}`).join(", ")}`;
  for (let i = 0; i < rows.length; i += CHUNK_ROWS) {
    const chunk = rows.slice(i, i + CHUNK_ROWS);
    const arrays: SQL[] = spec.columns.map(([, type, get]) => sql`${arrayLiteral(chunk.map(get))}::${sql.raw(type)}[]`);
    await tx.execute(
      sql`insert into ${sql.raw(quoteIdent(spec.table))} ("env", ${sql.raw(names)})
          select ${env}::market_env, u.* from unnest(${sql.join(arrays, sql`, `)}) as u
          on conflict (${sql.raw(spec.key)}) ${sql.raw(conflict)}`,
    );
  }
}

/** A write of at least this many rows into a table refreshes its planner statistics at once (`analyzeTables`). */
export const ANALYZE_AFTER_ROWS = 10_000;

/**
 * Fresh planner statistics after a bulk write. Until autovacuum gets to a table (a minute or more later), the planner
 * sees it as it was before the write: after the demo seed into empty tables, the first engine load (a year of
 * end-of-day snapshots) took 8.7 s instead of 3.2 s on 2 cores, nearly all of it PostgreSQL on a nested-loop plan.
 * ANALYZE samples a bounded number of rows (about 0.25 s for the whole demo market). A role that does not own the
 * table gets a warning, not an error, and the write stands.
 */
export async function analyzeTables(db: Pick<Db, "execute">, tables: readonly string[]): Promise<void> {
  if (tables.length) await db.execute(sql.raw(`analyze ${tables.map((t) => `"${t}"`).join(", ")}`));
}
