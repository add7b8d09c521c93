/**
 * Reads and writes the derived daily ATM-IV cache (table iv_history). A "history day" of a symbol is the newest chain
 * snapshot of a UTC date before the date of the symbol's newest snapshot (the same days the analytics treat as
 * history).
 */
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import type { MarketEnv, OptionQuote, Tenor, TreasuryYield } from "../analytics/types";
import { getOrInsert } from "../util/get-or-insert";

const HISTORY_DAYS = 400;
const FAR_FUTURE = "9999-12-31T00:00:00Z";
type Row = Record<string, unknown>;

export interface HistoryGap {
  symbol: string;
  date: string;
  asOf: Date;
}

/** The last step of both gap scans: each day's newest snapshot before the symbol's newest day, when not cached. */
const uncachedDays = (env: MarketEnv) => sql`
  select s.symbol, s.day::text as day, round(extract(epoch from s.as_of) * 1000)::float8 as as_of_ms
  from snaps s
  where s.rn_day = 1 and s.day < s.latest_day
    and not exists (select 1 from iv_history h where h.env = ${env} and h.symbol = s.symbol and h.date = s.day)
  order by s.symbol, s.day`;
const toGap = (r: Row): HistoryGap => ({
  symbol: r.symbol as string,
  date: r.day as string,
  asOf: new Date(Number(r.as_of_ms)),
});

/** History days that have no cached value yet (a small list: symbol, date and the snapshot time). */
export async function findHistoryGaps(db: Db, env: MarketEnv, cutoff: Date | null): Promise<HistoryGap[]> {
  const at = cutoff?.toISOString() ?? FAR_FUTURE;
  const rows = await db.execute<Row>(sql`
    with snaps as (
      select symbol, as_of, (as_of at time zone 'UTC')::date as day,
        row_number() over (partition by symbol, (as_of at time zone 'UTC')::date order by as_of desc) as rn_day,
        max((as_of at time zone 'UTC')::date) over (partition by symbol) as latest_day
      from (select distinct symbol, as_of from option_quotes
            where env = ${env} and as_of <= ${at}::timestamptz
              and as_of > least(${at}::timestamptz, now() + interval '1 day') - make_interval(days => ${HISTORY_DAYS})) d
    )
    ${uncachedDays(env)}`);
  return rows.map(toGap);
}

/**
 * The same gaps, found from each symbol's newest cached day: only snapshots after it are scanned (today's, in steady
 * state), so a tick costs an index range per symbol instead of the whole window. Holes before the newest cached day
 * (left by an invalidation) are not seen: callers fall back to `findHistoryGaps` when the cache shrank.
 */
export async function findRecentHistoryGaps(db: Db, env: MarketEnv, cutoff: Date | null): Promise<HistoryGap[]> {
  const at = cutoff?.toISOString() ?? FAR_FUTURE;
  const rows = await db.execute<Row>(sql`
    with since as (
      select i.symbol, greatest(
          coalesce(((select max(h.date) from iv_history h where h.env = ${env} and h.symbol = i.symbol) + 1)::timestamp at time zone 'UTC', '-infinity'),
          least(${at}::timestamptz, now() + interval '1 day') - make_interval(days => ${HISTORY_DAYS})) as t
      from instruments i where i.env = ${env}
    ), snaps as (
      select s.symbol, d.as_of, (d.as_of at time zone 'UTC')::date as day,
        row_number() over (partition by s.symbol, (d.as_of at time zone 'UTC')::date order by d.as_of desc) as rn_day,
        max((d.as_of at time zone 'UTC')::date) over (partition by s.symbol) as latest_day
      from since s cross join lateral (
        select distinct q.as_of from option_quotes q where q.env = ${env} and q.symbol = s.symbol and q.as_of > s.t and q.as_of <= ${at}::timestamptz) d
    )
    ${uncachedDays(env)}`);
  return rows.map(toGap);
}

/** Rows in the cache of an environment: it only shrinks when an import or reseed invalidates part of it. */
export async function countIvHistory(db: Db, env: MarketEnv): Promise<number> {
  const [row] = await db.execute<Row>(sql`select count(*)::int as n from iv_history where env = ${env}`);
  return Number(row.n);
}

/** The quotes of the given snapshots of some symbols, grouped per symbol and per snapshot (ascending). */
export async function loadSnapshots(db: Db, env: MarketEnv, gaps: HistoryGap[]): Promise<Map<string, OptionQuote[][]>> {
  const out = new Map<string, OptionQuote[][]>();
  if (gaps.length === 0) return out;
  const symbols = gaps.map((g) => g.symbol);
  const times = gaps.map((g) => g.asOf.toISOString());
  const rows = await db.execute<Row>(sql`
    select q.symbol, round(extract(epoch from q.as_of) * 1000)::float8 as as_of_ms, q.expiry::text as expiry, q.strike, q."right",
           q.bid, q.ask, q.last, q.volume, q.open_interest
    from unnest(${`{${symbols.join(",")}}`}::text[], ${`{${times.join(",")}}`}::timestamptz[]) as g(symbol, as_of)
    join option_quotes q on q.env = ${env} and q.symbol = g.symbol and q.as_of = g.as_of
    order by q.symbol, q.as_of, q.expiry, q.strike, q."right"`);
  for (const r of rows) {
    const q: OptionQuote = {
      symbol: r.symbol as string,
      asOf: new Date(Number(r.as_of_ms)),
      expiry: r.expiry as string,
      strike: Number(r.strike),
      right: r.right as OptionQuote["right"],
      bid: Number(r.bid),
      ask: Number(r.ask),
      last: r.last === null ? null : Number(r.last),
      volume: Number(r.volume),
      openInterest: Number(r.open_interest),
    };
    const days = getOrInsert(out, q.symbol, () => []);
    const last = days[days.length - 1];
    if (last && +last[0].asOf === +q.asOf) last.push(q);
    else days.push([q]);
  }
  return out;
}

/** Treasury curves of the history window, for the rate in force on each history day. */
export async function loadYieldHistory(db: Db, env: MarketEnv): Promise<TreasuryYield[]> {
  const rows = await db.execute<Row>(sql`
    select date::text as date, tenor, yield_pct from treasury_yields
    where env = ${env} and date > current_date - ${HISTORY_DAYS + 30}::int order by date, tenor`);
  return rows.map((r) => ({ date: r.date as string, tenor: r.tenor as Tenor, yieldPct: Number(r.yield_pct) }));
}

/** Saves computed points; NaN marks a day whose snapshot yields no ATM vol, so it is not solved again. */
export async function saveIvHistory(
  db: Db,
  env: MarketEnv,
  points: { symbol: string; date: string; atmIv30: number }[],
): Promise<void> {
  for (let i = 0; i < points.length; i += 5000) {
    const chunk = points.slice(i, i + 5000);
    await db.execute(sql`
      insert into iv_history (env, symbol, date, atm_iv_30)
      select ${env}, symbol, date, iv from unnest(${`{${chunk.map((p) => p.symbol).join(",")}}`}::text[],
        ${`{${chunk.map((p) => p.date).join(",")}}`}::date[], ${`{${chunk.map((p) => (Number.isFinite(p.atmIv30) ? p.atmIv30 : "NaN")).join(",")}}`}::float8[]) as t(symbol, date, iv)
      on conflict do nothing`);
  }
}

/** Cached daily ATM IV per symbol, ascending, for history days up to the cutoff (NaN days left out). */
export async function loadIvHistory(
  db: Db,
  env: MarketEnv,
  cutoff: Date | null,
): Promise<Map<string, { date: string; atmIv30: number }[]>> {
  const at = (cutoff ?? new Date(FAR_FUTURE)).toISOString().slice(0, 10);
  const rows = await db.execute<Row>(sql`
    select symbol, date::text as date, atm_iv_30 from iv_history
    where env = ${env} and date <= ${at}::date and date > current_date - ${HISTORY_DAYS}::int and atm_iv_30 <> 'NaN'::float8
    order by symbol, date`);
  const out = new Map<string, { date: string; atmIv30: number }[]>();
  for (const r of rows) {
    const list = getOrInsert(out, r.symbol as string, () => []);
    list.push({ date: r.date as string, atmIv30: Number(r.atm_iv_30) });
  }
  return out;
}

/** Drops cached values derived from rows an import or a reseed rewrites (called inside that write's transaction). */
export async function invalidateIvHistory(
  tx: { execute: Db["execute"] },
  env: MarketEnv,
  scope:
    | { all: true }
    | { symbols: string[] }
    | { dates: string[] }
    | { symbolDates: { symbol: string; date: string }[] },
): Promise<void> {
  if ("all" in scope) await tx.execute(sql`delete from iv_history where env = ${env}`);
  else if ("symbols" in scope)
    await tx.execute(
      sql`delete from iv_history where env = ${env} and symbol = any(${`{${scope.symbols.join(",")}}`}::text[])`,
    );
  else if ("dates" in scope)
    await tx.execute(
      sql`delete from iv_history where env = ${env} and date = any(${`{${scope.dates.join(",")}}`}::date[])`,
    );
  else if (scope.symbolDates.length) {
    await tx.execute(sql`delete from iv_history h using unnest(${`{${scope.symbolDates.map((x) => x.symbol).join(",")}}`}::text[],
      ${`{${scope.symbolDates.map((x) => x.date).join(",")}}`}::date[]) as t(symbol, date)
      where h.env = ${env} and h.symbol = t.symbol and h.date = t.date`);
  }
}
