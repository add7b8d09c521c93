/**
 * Reads and writes the daily metric snapshots (table metric_snapshots) and loads, in one pass, the stored data a run
 * of snapshot days is computed from (lib/engine/daily-snapshots.ts).
 */
import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { arrayLiteral } from "../db/array-literal";
import type { Bar, MarketEnv, OptionQuote, OptionTrade, Tenor } from "../analytics/types";
import { getOrInsert } from "../util/get-or-insert";
import { instrumentOf } from "./store-read";

type Row = Record<string, unknown>;
type Executor = Pick<Db, "execute">;
const CHUNK_ROWS = 2000;
/** Daily bars read before the first day: the engine reads at most 300 sessions (about 440 calendar days). */
const BARS_BACK_DAYS = 500;
/** Treasury curves read before the first day: the engine reads the newest 30 published dates. */
const YIELDS_BACK_DAYS = 60;

/** One stored snapshot row, as written (see db/schema/metric-snapshots.ts). */
export interface SnapshotRow {
  symbol: string;
  date: string;
  asOf: Date;
  price: number;
  ivRank: number | null;
  ivPercentile: number | null;
  atmIv30d: number | null;
  skew25d: number | null;
  termSlope: number | null;
  expectedMove: number | null;
  expectedMovePct: number | null;
  serviceScore: number;
  components: Record<string, number>;
  sentiment: string;
  riskLevel: string;
  noTradeDecision: string;
  failedChecks: string[];
  callsPremium: number | null;
  putsPremium: number | null;
  sweepCount: number | null;
  blockCount: number | null;
  unusualCount: number | null;
  inputs: Record<string, unknown>;
}

const finiteOrNull = (x: number | null) => (x !== null && Number.isFinite(x) ? x : null);

/** Upserts snapshot rows (recomputing a day replaces it): one statement per chunk, the rows as one JSON parameter. */
export async function saveSnapshots(db: Executor, env: MarketEnv, rows: readonly SnapshotRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK_ROWS) {
    const chunk = rows.slice(i, i + CHUNK_ROWS).map((r) => ({
      symbol: r.symbol,
      date: r.date,
      as_of: r.asOf.toISOString(),
      price: r.price,
      iv_rank: finiteOrNull(r.ivRank),
      iv_percentile: finiteOrNull(r.ivPercentile),
      atm_iv_30d: finiteOrNull(r.atmIv30d),
      skew_25d: finiteOrNull(r.skew25d),
      term_slope: finiteOrNull(r.termSlope),
      expected_move: finiteOrNull(r.expectedMove),
      expected_move_pct: finiteOrNull(r.expectedMovePct),
      service_score: r.serviceScore,
      components: r.components,
      sentiment: r.sentiment,
      risk_level: r.riskLevel,
      no_trade_decision: r.noTradeDecision,
      failed_checks: r.failedChecks,
      calls_premium: r.callsPremium,
      puts_premium: r.putsPremium,
      sweep_count: r.sweepCount,
      block_count: r.blockCount,
      unusual_count: r.unusualCount,
      inputs: r.inputs,
    }));
    await db.execute(sql`
      insert into metric_snapshots (env, symbol, date, as_of, price, iv_rank, iv_percentile, atm_iv_30d, skew_25d,
        term_slope, expected_move, expected_move_pct, service_score, components, sentiment, risk_level,
        no_trade_decision, failed_checks, calls_premium, puts_premium, sweep_count, block_count, unusual_count, inputs)
      select ${env}::market_env, r.symbol, r.date, r.as_of, r.price, r.iv_rank, r.iv_percentile, r.atm_iv_30d,
        r.skew_25d, r.term_slope, r.expected_move, r.expected_move_pct, r.service_score, r.components, r.sentiment,
        r.risk_level, r.no_trade_decision, array(select jsonb_array_elements_text(r.failed_checks)), r.calls_premium,
        r.puts_premium, r.sweep_count, r.block_count, r.unusual_count, r.inputs
      from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as r(symbol text, date date, as_of timestamptz,
        price float8, iv_rank float8, iv_percentile float8, atm_iv_30d float8, skew_25d float8, term_slope float8,
        expected_move float8, expected_move_pct float8, service_score int, components jsonb, sentiment text,
        risk_level text, no_trade_decision text, failed_checks jsonb, calls_premium float8, puts_premium float8,
        sweep_count int, block_count int, unusual_count int, inputs jsonb)
      on conflict (env, symbol, date) do update set as_of = excluded.as_of, price = excluded.price,
        iv_rank = excluded.iv_rank, iv_percentile = excluded.iv_percentile, atm_iv_30d = excluded.atm_iv_30d,
        skew_25d = excluded.skew_25d, term_slope = excluded.term_slope, expected_move = excluded.expected_move,
        expected_move_pct = excluded.expected_move_pct, service_score = excluded.service_score,
        components = excluded.components, sentiment = excluded.sentiment, risk_level = excluded.risk_level,
        no_trade_decision = excluded.no_trade_decision, failed_checks = excluded.failed_checks,
        calls_premium = excluded.calls_premium, puts_premium = excluded.puts_premium,
        sweep_count = excluded.sweep_count, block_count = excluded.block_count,
        unusual_count = excluded.unusual_count, inputs = excluded.inputs, computed_at = now()`);
  }
}

/**
 * New York dates whose session has closed in the stored chain data: a later date has a snapshot, or the date's newest
 * snapshot is at or after its close (`closeOf`, e.g. 16:00 New York, 13:00 on an early close). Ascending.
 */
export async function closedSnapshotDays(
  db: Executor,
  env: MarketEnv,
  closeOf: (date: string) => Date,
  since?: string,
): Promise<string[]> {
  const rows = await db.execute<Row>(sql`
    select (as_of at time zone 'America/New_York')::date::text as day,
      round(extract(epoch from max(as_of)) * 1000)::float8 as newest_ms
    from (select distinct as_of from option_quotes where env = ${env}
          and as_of >= ${since ?? "1970-01-01"}::date - 1) q
    group by 1 order by 1`);
  const days = rows.map((r) => ({ day: r.day as string, newest: Number(r.newest_ms) }));
  return days
    .filter((d, i) => i < days.length - 1 || d.newest >= closeOf(d.day).getTime())
    .map((d) => d.day)
    .filter((d) => !since || d >= since);
}

const num = (v: unknown) => Number(v);

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * Each symbol's newest snapshot of each requested New York date up to that date's bound, as one JSON array per snapshot;
 * and the prints of those dates up to the same bounds.
 */
async function chainAndTradeRows(tx: Tx, env: MarketEnv, days: readonly string[], until: readonly string[]) {
  const first = days[0];
  const last = days[days.length - 1];
  const bounds = sql`unnest(${arrayLiteral([...days])}::date[], ${arrayLiteral([...until])}::timestamptz[]) as b(day, until)`;
  const chainRows = await tx.execute<Row>(sql`
      with snaps as (
        select q.symbol, max(q.as_of) as as_of from option_quotes q
        join ${bounds} on b.day = (q.as_of at time zone 'America/New_York')::date and q.as_of <= b.until
        where q.env = ${env} and q.as_of >= ${first}::date - 1 and q.as_of < ${last}::date + 2
        group by q.symbol, b.day
      )
      select s.symbol, round(extract(epoch from s.as_of) * 1000)::float8 as as_of_ms,
        (select json_agg(json_build_array(q.expiry, q.strike, q."right", q.bid, q.ask, q.last, q.volume, q.open_interest)
                         order by q.expiry, q.strike, q."right" collate "C")::text
         from option_quotes q where q.env = ${env} and q.symbol = s.symbol and q.as_of = s.as_of) as chain
      from snaps s order by s.symbol, s.as_of`);
  const tradeRows = await tx.execute<Row>(sql`
      select t.trade_id, t.symbol, round(extract(epoch from t.ts) * 1000)::float8 as ts_ms, t.expiry::text as expiry,
        t.strike, t."right", t.price, t.size, t.exchange, t.condition, t.bid, t.ask
      from option_trades t
      join ${bounds} on b.day = (t.ts at time zone 'America/New_York')::date and t.ts <= b.until
      where t.env = ${env} and t.ts >= ${first}::date - 1 and t.ts < ${last}::date + 2
      order by t.ts, t.trade_id`);
  return [chainRows, tradeRows] as const;
}

/**
 * Everything the snapshots of `days` (New York dates, ascending) are computed from, read once. `closeOf` bounds a
 * day's chain and prints (the demo market's close: its night session after it belongs to no history day).
 */
export async function loadHistoryInput(
  db: Db,
  env: MarketEnv,
  days: readonly string[],
  closeOf?: (date: string) => Date,
) {
  const first = days[0];
  const last = days[days.length - 1];
  const until = days.map((d) => (closeOf ? closeOf(d).toISOString() : "infinity"));
  return db.transaction(
    async (tx) => {
      const instrumentRows = await tx.execute<Row>(sql`
        select i.symbol, i.name, i.sector, i.kind, i.next_earnings_date::text as next_earnings_date, i.earnings_timing,
          i.dividend_yield, s.exercise_style
        from instruments i left join instrument_exercise_styles s on s.env = i.env and s.symbol = i.symbol
        where i.env = ${env} order by i.symbol`);
      const barRows = await tx.execute<Row>(sql`
        select symbol, round(extract(epoch from ts) * 1000)::float8 as ts_ms, open, high, low, close, volume from bars
        where env = ${env} and interval = '1d' and ts >= ${first}::date - ${BARS_BACK_DAYS}::int
          and ts < ${last}::date + 1
        order by symbol, ts`);
      const [chainRows, tradeRows] = await chainAndTradeRows(tx, env, days, until);
      const yieldRows = await tx.execute<Row>(sql`
        select date::text as date, tenor, yield_pct from treasury_yields
        where env = ${env} and date >= ${first}::date - ${YIELDS_BACK_DAYS}::int and date <= ${last}::date
        order by date, tenor`);
      const ivHistoryBySymbol = await loadIvHistoryRange(tx, env, first, last);
      return {
        instruments: instrumentRows.map(instrumentOf),
        dailyBarsBySymbol: groupBy(
          barRows,
          (r): Bar => ({
            symbol: r.symbol as string,
            interval: "1d",
            ts: new Date(num(r.ts_ms)),
            open: num(r.open),
            high: num(r.high),
            low: num(r.low),
            close: num(r.close),
            volume: num(r.volume),
          }),
        ),
        chainsBySymbol: chainsOf(chainRows),
        tradesBySymbol: groupBy(
          tradeRows,
          (r): OptionTrade => ({
            tradeId: r.trade_id as string,
            symbol: r.symbol as string,
            ts: new Date(num(r.ts_ms)),
            expiry: r.expiry as string,
            strike: num(r.strike),
            right: r.right as OptionTrade["right"],
            price: num(r.price),
            size: num(r.size),
            exchange: r.exchange as string,
            condition: r.condition as string,
            bid: num(r.bid),
            ask: num(r.ask),
          }),
        ),
        yields: yieldRows.map((r) => ({ date: r.date as string, tenor: r.tenor as Tenor, yieldPct: num(r.yield_pct) })),
        ivHistoryBySymbol,
      };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

/** The cached daily ATM IV the days from `first` to `last` look back on (their 52-week windows), per symbol. */
export async function loadIvHistoryRange(db: Executor, env: MarketEnv, first: string, last: string) {
  const rows = await db.execute<Row>(sql`
    select symbol, date::text as date, atm_iv_30 from iv_history
    where env = ${env} and date >= ${first}::date - 366 and date < ${last}::date and atm_iv_30 <> 'NaN'::float8
    order by symbol, date`);
  return groupBy(rows, (r) => ({ date: r.date as string, atmIv30: num(r.atm_iv_30) }));
}

function groupBy<T>(rows: Row[], map: (r: Row) => T): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) getOrInsert(out, r.symbol as string, () => []).push(map(r));
  return out;
}

type ChainTuple = [string, number, OptionQuote["right"], number, number, number | null, number, number];

function chainsOf(rows: Row[]): Map<string, OptionQuote[][]> {
  const out = new Map<string, OptionQuote[][]>();
  for (const r of rows) {
    const symbol = r.symbol as string;
    const asOf = new Date(num(r.as_of_ms));
    const tuples = JSON.parse(r.chain as string) as ChainTuple[];
    getOrInsert(out, symbol, () => []).push(
      tuples.map(([expiry, strike, right, bid, ask, last, volume, openInterest]) => ({
        symbol,
        asOf,
        expiry,
        strike,
        right,
        bid,
        ask,
        last,
        volume,
        openInterest,
      })),
    );
  }
  return out;
}

/** The metric columns of a stored row (inputs left out), as the history route names them. */
const METRIC_COLUMNS = sql`symbol, date::text as date, round(extract(epoch from as_of) * 1000)::float8 as as_of_ms,
  price, iv_rank, iv_percentile, atm_iv_30d, skew_25d, term_slope, expected_move, expected_move_pct, service_score,
  components, sentiment, risk_level, no_trade_decision, failed_checks, calls_premium, puts_premium, sweep_count,
  block_count, unusual_count`;

export type StoredSnapshot = Omit<SnapshotRow, "inputs">;

function toStored(r: Row): StoredSnapshot {
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    symbol: r.symbol as string,
    date: r.date as string,
    asOf: new Date(num(r.as_of_ms)),
    price: num(r.price),
    ivRank: n(r.iv_rank),
    ivPercentile: n(r.iv_percentile),
    atmIv30d: n(r.atm_iv_30d),
    skew25d: n(r.skew_25d),
    termSlope: n(r.term_slope),
    expectedMove: n(r.expected_move),
    expectedMovePct: n(r.expected_move_pct),
    serviceScore: num(r.service_score),
    components: r.components as Record<string, number>,
    sentiment: r.sentiment as string,
    riskLevel: r.risk_level as string,
    noTradeDecision: r.no_trade_decision as string,
    failedChecks: r.failed_checks as string[],
    callsPremium: n(r.calls_premium),
    putsPremium: n(r.puts_premium),
    sweepCount: n(r.sweep_count),
    blockCount: n(r.block_count),
    unusualCount: n(r.unusual_count),
  };
}

/**
 * The version of a symbol's stored range: md5 of "date:xmin" of each row in date order, joined by "," (md5 of "" when
 * none). Any write to the range changes it: an upsert or update makes a new row version (a new xmin), an insert or a
 * delete changes the list. Read by the same index range scan as the rows, without their values.
 */
const RANGE_VERSION_ITEM = sql`date::text || ':' || xmin::text`;
const rangeVersionOf = (items: readonly string[]) => createHash("md5").update(items.join(",")).digest("hex");

/** A symbol's snapshots from `from` to `to` (inclusive dates), ascending, with the range's version: one indexed read. */
export async function readSnapshots(
  db: Executor,
  env: MarketEnv,
  symbol: string,
  from: string,
  to: string,
): Promise<{ rows: StoredSnapshot[]; version: string }> {
  // One JSON text of all the rows, parsed by JSON.parse: a third of the driver's CPU for reading them value by value.
  const [{ rows: text }] = await db.execute<Row>(sql`
    select coalesce(json_agg(m order by m.date), '[]')::text as rows from (
      select ${METRIC_COLUMNS}, ${RANGE_VERSION_ITEM} as version_item from metric_snapshots
      where env = ${env} and symbol = ${symbol} and date >= ${from}::date and date <= ${to}::date) m`);
  const rows = JSON.parse(text as string) as Row[];
  return { rows: rows.map(toStored), version: rangeVersionOf(rows.map((r) => r.version_item as string)) };
}

/** The version readSnapshots answers with the rows of the same range, read alone (one small indexed read). */
export async function snapshotRangeVersion(
  db: Executor,
  env: MarketEnv,
  symbol: string,
  from: string,
  to: string,
): Promise<string> {
  const [row] = await db.execute<Row>(sql`
    select md5(coalesce(string_agg(${RANGE_VERSION_ITEM}, ',' order by date), '')) as version from metric_snapshots
    where env = ${env} and symbol = ${symbol} and date >= ${from}::date and date <= ${to}::date`);
  return row.version as string;
}

/** One day's snapshot with its stored inputs, or null. */
export async function readSnapshotDay(
  db: Executor,
  env: MarketEnv,
  symbol: string,
  date: string,
): Promise<(StoredSnapshot & { inputs: Record<string, unknown> }) | null> {
  const [row] = await db.execute<Row>(sql`
    select ${METRIC_COLUMNS}, inputs from metric_snapshots where env = ${env} and symbol = ${symbol} and date = ${date}::date`);
  return row ? { ...toStored(row), inputs: row.inputs as Record<string, unknown> } : null;
}

/** Whether the environment knows the symbol (an instrument row): an unknown one is 404, a day without data is not. */
export async function knownSymbol(db: Executor, env: MarketEnv, symbol: string): Promise<boolean> {
  const rows = await db.execute<Row>(sql`select 1 from instruments where env = ${env} and symbol = ${symbol} limit 1`);
  return rows.length > 0;
}
