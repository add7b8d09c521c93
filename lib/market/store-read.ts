/**
 * Reads one market environment into memory for the analytics engine: one query per table, inside one read-only
 * repeatable-read transaction so a concurrent tick or import is seen entirely or not at all.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { arrayLiteral } from "../db/array-literal";
import type {
  Bar,
  EarningsTiming,
  ExerciseStyle,
  Instrument,
  MarketEnv,
  OptionQuote,
  OptionTrade,
  Tenor,
  TreasuryYield,
} from "../analytics/types";
import { newYorkDate, newYorkInstant } from "../analytics/exchange-calendar";
import { getOrInsert } from "../util/get-or-insert";
import { type Interner, interner } from "../util/interner";

export interface MarketSnapshot {
  instruments: Instrument[];
  dailyBarsBySymbol: Map<string, Bar[]>; // ascending, at most DAILY_BARS per symbol
  latestChainBySymbol: Map<string, OptionQuote[]>; // the newest snapshot per symbol
  chainHistoryBySymbol: Map<string, OptionQuote[][]>; // newest snapshot of each earlier UTC date, ascending; excludes the latest (empty without `withHistory`)
  tradesBySymbol: Map<string, OptionTrade[]>; // from the New York day 24 h before each symbol's newest print, ascending
  yields: TreasuryYield[]; // the last YIELD_DATES dates, ascending
  version: number;
  /**
   * The version of the last write that could change existing rows; snapshots of the same base differ only by appends.
   */
  baseVersion: number;
  asOfBySymbol: Map<string, Date>; // newest of chain snapshot, last print and daily bar
}

export interface LoadOptions {
  /** Read only data at or before this time (delayed views); default: everything. */
  cutoff?: Date | null;
  /** Alias of cutoff. */
  now?: Date;
  /**
   * Also load the end-of-day snapshot of every earlier date (default true). The engine reads history through its cache.
   */
  withHistory?: boolean;
}

const DAILY_BARS = 300;
const HISTORY_DAYS = 400; // calendar days of EOD chain history: a little over 252 sessions
const YIELD_DATES = 30;
const TRADE_WINDOW_MS = 24 * 3600_000;
/**
 * Trades are read from the New York midnight that starts the day 24 h before a symbol's newest print: at least the
 * last 24 h, and whole New York days, so a day's cumulative volume (the unusual-flow rule) never restarts at the edge.
 */
const tradeWindowStart = (newest: Date) =>
  newYorkInstant(newYorkDate(new Date(+newest - TRADE_WINDOW_MS)), 0).getTime();
const FAR_FUTURE = "9999-12-31T00:00:00Z";

const quoteColumns = sql`
  select q.symbol, round(extract(epoch from q.as_of) * 1000)::float8 as as_of_ms, q.expiry::text as expiry, q.strike, q."right",
         q.bid, q.ask, q.last, q.volume, q.open_interest, s.rn_all = 1 as latest`;
const tradeColumns = sql`
  select t.trade_id, t.symbol, round(extract(epoch from t.ts) * 1000)::float8 as ts_ms, t.expiry::text as expiry, t.strike, t."right",
         t.price, t.size, t.exchange, t.condition, t.bid, t.ask`;
const instrumentsQuery = (env: MarketEnv) => sql`
  select i.symbol, i.name, i.sector, i.kind, i.next_earnings_date::text as next_earnings_date, i.earnings_timing, i.dividend_yield,
    s.exercise_style,
    (select json_agg(json_build_object('exDate', d.ex_date::text, 'amount', d.amount) order by d.ex_date)
     from cash_dividends d
     where d.env = i.env and d.symbol = i.symbol and d.ex_date >= current_date - ${HISTORY_DAYS}::int) as cash_dividends
  from instruments i left join instrument_exercise_styles s on s.env = i.env and s.symbol = i.symbol
  where i.env = ${env} order by i.symbol`;
/**
 * The newest YIELD_DATES dates with a published yield on or before the cutoff (an ISO instant), every tenor of them.
 */
const yieldsQuery = (env: MarketEnv, cutoff: string) => sql`
  select date::text as date, tenor, yield_pct from treasury_yields
  where env = ${env} and date in (
    select distinct date from treasury_yields where env = ${env} and date <= (${cutoff}::timestamptz at time zone 'UTC')::date
    order by date desc limit ${YIELD_DATES})
  order by date, tenor`;
const num = (v: unknown) => Number(v);
type Row = Record<string, unknown>;
/** The instrument row's cash dividends (a json array, parsed by some drivers and not others), when it has any. */
function cashDividendsOf(r: Row): Pick<Instrument, "cashDividends"> {
  const raw = typeof r.cash_dividends === "string" ? JSON.parse(r.cash_dividends) : r.cash_dividends;
  if (!Array.isArray(raw) || raw.length === 0) return {};
  const symbol = r.symbol as string;
  return { cashDividends: raw.map((d: Row) => ({ symbol, exDate: String(d.exDate), amount: num(d.amount) })) };
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function toQuote(r: Row, k: Interner): OptionQuote {
  return {
    symbol: k.text(r.symbol as string),
    asOf: k.date(r.as_of_ms),
    expiry: k.text(r.expiry as string),
    strike: num(r.strike),
    right: k.text(r.right as OptionQuote["right"]),
    bid: num(r.bid),
    ask: num(r.ask),
    last: r.last === null ? null : num(r.last),
    volume: num(r.volume),
    openInterest: num(r.open_interest),
  };
}

export async function loadMarketSnapshot(db: Db, env: MarketEnv, opts: LoadOptions = {}): Promise<MarketSnapshot> {
  const cutoff = (opts.cutoff ?? opts.now)?.toISOString() ?? FAR_FUTURE;
  const at = sql`least(${cutoff}::timestamptz, now() + interval '1 day')`; // anchors look-back windows without a cutoff
  const withHistory = opts.withHistory ?? true;
  return db.transaction(
    async (tx) => {
      const instrumentRows = await tx.execute<Row>(instrumentsQuery(env));
      const barRows = await tx.execute<Row>(sql`
        select symbol, round(extract(epoch from ts) * 1000)::float8 as ts_ms, open, high, low, close, volume from (
          select b.*, row_number() over (partition by symbol order by ts desc) as rn from bars b
          where env = ${env} and interval = '1d' and ts <= ${cutoff}::timestamptz and ts > ${at} - interval '500 days'
        ) x where rn <= ${DAILY_BARS} order by symbol, ts`);
      const quoteRows = await tx.execute<Row>(
        withHistory
          ? sql`
        with snaps as (
          select symbol, as_of,
            row_number() over (partition by symbol order by as_of desc) as rn_all,
            row_number() over (partition by symbol, (as_of at time zone 'UTC')::date order by as_of desc) as rn_day
          from (select distinct symbol, as_of from option_quotes
                where env = ${env} and as_of <= ${cutoff}::timestamptz and as_of > ${at} - make_interval(days => ${HISTORY_DAYS})) d
        )
        ${quoteColumns}
        from option_quotes q join snaps s on s.symbol = q.symbol and s.as_of = q.as_of
        where q.env = ${env} and (s.rn_all = 1 or s.rn_day = 1)
        order by q.symbol, q.as_of, q.expiry, q.strike, q."right"`
          : sql`
        with snaps as (
          select symbol, max(as_of) as as_of, 1 as rn_all from option_quotes
          where env = ${env} and as_of <= ${cutoff}::timestamptz and as_of > ${at} - make_interval(days => ${HISTORY_DAYS})
          group by symbol
        )
        ${quoteColumns}
        from option_quotes q join snaps s on s.symbol = q.symbol and s.as_of = q.as_of
        where q.env = ${env}
        order by q.symbol, q.expiry, q.strike, q."right"`,
      );
      const tradeRows = await tx.execute<Row>(sql`
        ${tradeColumns}
        from instruments i
        cross join lateral (select max(ts) as newest from option_trades
                            where env = i.env and symbol = i.symbol and ts <= ${cutoff}::timestamptz) n
        join option_trades t on t.env = i.env and t.symbol = i.symbol
          and t.ts >= ((n.newest - interval '24 hours') at time zone 'America/New_York')::date::timestamp at time zone 'America/New_York'
          and t.ts <= n.newest
        where i.env = ${env}
        order by t.ts, t.trade_id`);
      const yieldRows = await tx.execute<Row>(yieldsQuery(env, cutoff));
      const versionRows = await readVersion(tx, env);
      return assemble(instrumentRows, barRows, quoteRows, tradeRows, yieldRows, versionRows);
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
const readVersion = (tx: Tx, env: MarketEnv) =>
  tx.execute<Row>(sql`select version, base_version from market_data_versions where env = ${env}`);
const textArray = (xs: string[]) => sql`${arrayLiteral(xs)}::text[]`;
const tsArray = (xs: Date[]) => sql`${arrayLiteral(xs.map((x) => x.toISOString()))}::timestamptz[]`;

/**
 * The current market (no cutoff, no history) given the previous snapshot of it: when no write since `previous` could
 * have changed existing rows (same base version), reads only what is newer than it — each symbol's bars from its last
 * daily bar on, its chain only when a newer snapshot exists, its prints after the last one seen — and merges.
 * Otherwise,
 * or when the instruments changed, a full read. The result equals `loadMarketSnapshot(db, env, { withHistory: false
 * })`.
 */
export async function loadMarketDelta(db: Db, env: MarketEnv, previous: MarketSnapshot): Promise<MarketSnapshot> {
  const delta = await db.transaction(
    async (tx) => {
      const versionRows = await readVersion(tx, env);
      if (num(versionRows[0]?.base_version ?? 0) !== previous.baseVersion) return null;
      const instrumentRows = await tx.execute<Row>(instrumentsQuery(env));
      const symbols = instrumentRows.map((r) => r.symbol as string);
      if (symbols.join(",") !== previous.instruments.map((i) => i.symbol).join(",")) return null;
      const epoch = new Date(0);
      const lastBar = symbols.map((s) => previous.dailyBarsBySymbol.get(s)?.at(-1)?.ts ?? epoch);
      const chainAt = symbols.map((s) => previous.latestChainBySymbol.get(s)?.[0]?.asOf ?? epoch);
      const lastPrint = symbols.map((s) => previous.tradesBySymbol.get(s)?.at(-1)?.ts ?? epoch);
      const barRows = await tx.execute<Row>(sql`
        select b.symbol, round(extract(epoch from b.ts) * 1000)::float8 as ts_ms, b.open, b.high, b.low, b.close, b.volume
        from unnest(${textArray(symbols)}, ${tsArray(lastBar)}) as u(symbol, since)
        join bars b on b.env = ${env} and b.symbol = u.symbol and b.interval = '1d' and b.ts >= u.since
        order by b.symbol, b.ts`);
      // A symbol's newer chain comes as one JSON array (parsed natively), not one row per contract.
      const chainRows = await tx.execute<Row>(sql`
        with newest as (
          select u.symbol, n.as_of from unnest(${textArray(symbols)}, ${tsArray(chainAt)}) as u(symbol, seen)
          cross join lateral (select max(as_of) as as_of from option_quotes
                              where env = ${env} and symbol = u.symbol and as_of > now() + interval '1 day' - make_interval(days => ${HISTORY_DAYS})) n
          where n.as_of is distinct from u.seen and n.as_of is not null
        )
        select s.symbol, round(extract(epoch from s.as_of) * 1000)::float8 as as_of_ms,
          (select json_agg(json_build_array(q.expiry, q.strike, q."right", q.bid, q.ask, q.last, q.volume, q.open_interest)
                           order by q.expiry, q.strike, q."right" collate "C")::text
           from option_quotes q where q.env = ${env} and q.symbol = s.symbol and q.as_of = s.as_of) as chain
        from newest s`);
      const chains = new Map<string, OptionQuote[]>();
      const k = interner();
      for (const c of chainRows) {
        const symbol = c.symbol as string;
        const asOf = k.date(c.as_of_ms);
        const tuples = JSON.parse(c.chain as string) as [
          string,
          number,
          OptionQuote["right"],
          number,
          number,
          number | null,
          number,
          number,
        ][];
        chains.set(
          symbol,
          tuples.map(([expiry, strike, right, bid, ask, last, volume, openInterest]) => ({
            symbol,
            asOf,
            expiry: k.text(expiry),
            strike,
            right: k.text(right),
            bid,
            ask,
            last,
            volume,
            openInterest,
          })),
        );
      }
      const tradeRows = await tx.execute<Row>(sql`
        ${tradeColumns}
        from unnest(${textArray(symbols)}, ${tsArray(lastPrint)}) as u(symbol, since)
        join option_trades t on t.env = ${env} and t.symbol = u.symbol and t.ts >= u.since
        order by t.ts, t.trade_id`);
      const yieldRows = await tx.execute<Row>(yieldsQuery(env, FAR_FUTURE));
      const newer = assemble(instrumentRows, barRows, [], tradeRows, yieldRows, versionRows);
      return { ...newer, latestChainBySymbol: chains };
    },
    { isolationLevel: "repeatable read", accessMode: "read only" },
  );
  return delta ? merge(previous, delta) : loadMarketSnapshot(db, env, { withHistory: false });
}

/** `previous` brought forward by `newer` (read by loadMarketDelta): replaced bars and chains, appended prints. */
function merge(previous: MarketSnapshot, newer: MarketSnapshot): MarketSnapshot {
  const dailyBarsBySymbol = new Map<string, Bar[]>();
  const latestChainBySymbol = new Map<string, OptionQuote[]>();
  const tradesBySymbol = new Map<string, OptionTrade[]>();
  for (const { symbol } of newer.instruments) {
    const oldBars = previous.dailyBarsBySymbol.get(symbol) ?? [];
    const newBars = newer.dailyBarsBySymbol.get(symbol) ?? [];
    const from = newBars.length ? +newBars[0].ts : Infinity;
    const bars = [...oldBars.filter((b) => +b.ts < from), ...newBars].slice(-DAILY_BARS);
    if (bars.length) dailyBarsBySymbol.set(symbol, bars);
    const chain = newer.latestChainBySymbol.get(symbol) ?? previous.latestChainBySymbol.get(symbol);
    if (chain) latestChainBySymbol.set(symbol, chain);
    const oldTrades = previous.tradesBySymbol.get(symbol) ?? [];
    const seen = new Set(
      oldTrades.length
        ? oldTrades.filter((t) => +t.ts === +oldTrades[oldTrades.length - 1].ts).map((t) => t.tradeId)
        : [],
    );
    const all = [...oldTrades, ...(newer.tradesBySymbol.get(symbol) ?? []).filter((t) => !seen.has(t.tradeId))];
    if (all.length) {
      // As the full read selects them: from the New York midnight starting the day 24 h before the newest print.
      const since = tradeWindowStart(all[all.length - 1].ts);
      tradesBySymbol.set(
        symbol,
        all.filter((t) => +t.ts >= since),
      );
    }
  }
  return {
    ...newer,
    dailyBarsBySymbol,
    latestChainBySymbol,
    chainHistoryBySymbol: new Map(),
    tradesBySymbol,
    asOfBySymbol: newestBySymbol(latestChainBySymbol, tradesBySymbol, dailyBarsBySymbol),
  };
}

/** An instruments row (joined with its exercise style) as the engine's Instrument, cash dividends aside. */
export function instrumentOf(r: Row): Instrument {
  return {
    symbol: r.symbol as string,
    name: r.name as string,
    sector: r.sector as string,
    kind: r.kind as Instrument["kind"],
    nextEarningsDate: (r.next_earnings_date as string | null) ?? null,
    ...(r.earnings_timing ? { earningsTiming: r.earnings_timing as EarningsTiming } : {}),
    dividendYield: num(r.dividend_yield),
    ...(r.exercise_style ? { exerciseStyle: r.exercise_style as ExerciseStyle } : {}),
  };
}

function toBar(r: Row, k: Interner): Bar {
  return {
    symbol: k.text(r.symbol as string),
    interval: "1d",
    ts: k.date(r.ts_ms),
    open: num(r.open),
    high: num(r.high),
    low: num(r.low),
    close: num(r.close),
    volume: num(r.volume),
  };
}

function toTrade(r: Row, k: Interner): OptionTrade {
  return {
    tradeId: r.trade_id as string,
    symbol: k.text(r.symbol as string),
    ts: k.date(r.ts_ms),
    expiry: k.text(r.expiry as string),
    strike: num(r.strike),
    right: k.text(r.right as OptionTrade["right"]),
    price: num(r.price),
    size: num(r.size),
    exchange: k.text(r.exchange as string),
    condition: k.text(r.condition as string),
    bid: num(r.bid),
    ask: num(r.ask),
  };
}

/** The rows of one read as a snapshot; equal texts and instants share one string and one Date (lib/util/interner.ts). */
function assemble(
  instrumentRows: Row[],
  barRows: Row[],
  quoteRows: Row[],
  tradeRows: Row[],
  yieldRows: Row[],
  versionRows: Row[],
): MarketSnapshot {
  const instruments: Instrument[] = instrumentRows.map((r) => ({ ...instrumentOf(r), ...cashDividendsOf(r) }));
  const k = interner();
  const dailyBarsBySymbol = new Map<string, Bar[]>();
  for (const r of barRows) {
    const bar = toBar(r, k);
    push(dailyBarsBySymbol, bar.symbol, bar);
  }
  const latestChainBySymbol = new Map<string, OptionQuote[]>();
  const chainHistoryBySymbol = new Map<string, OptionQuote[][]>();
  for (const r of quoteRows) {
    const q = toQuote(r, k);
    if (r.latest) {
      push(latestChainBySymbol, q.symbol, q);
      continue;
    }
    const days = getOrInsert(chainHistoryBySymbol, q.symbol, () => []);
    const lastDay = days[days.length - 1];
    if (lastDay && +lastDay[0].asOf === +q.asOf) lastDay.push(q);
    else days.push([q]);
  }
  const tradesBySymbol = new Map<string, OptionTrade[]>();
  for (const r of tradeRows) {
    const trade = toTrade(r, k);
    push(tradesBySymbol, trade.symbol, trade);
  }
  const yields = yieldRows.map((r) => ({
    date: r.date as string,
    tenor: r.tenor as Tenor,
    yieldPct: num(r.yield_pct),
  }));
  return {
    instruments,
    dailyBarsBySymbol,
    latestChainBySymbol,
    chainHistoryBySymbol,
    tradesBySymbol,
    yields,
    version: versionRows.length ? num(versionRows[0].version) : 0,
    baseVersion: versionRows.length ? num(versionRows[0].base_version) : 0,
    asOfBySymbol: newestBySymbol(latestChainBySymbol, tradesBySymbol, dailyBarsBySymbol),
  };
}

/** Each symbol's as-of: the newer of its chain snapshot and last print; its last daily bar when it has neither. */
function newestBySymbol(
  chains: Map<string, OptionQuote[]>,
  trades: Map<string, OptionTrade[]>,
  bars: Map<string, Bar[]>,
): Map<string, Date> {
  const asOfBySymbol = new Map<string, Date>();
  const bump = (symbol: string, t: Date) => {
    const prev = asOfBySymbol.get(symbol);
    if (!prev || t > prev) asOfBySymbol.set(symbol, t);
  };
  for (const [symbol, chain] of chains) bump(symbol, chain[0].asOf);
  for (const [symbol, list] of trades) bump(symbol, list[list.length - 1].ts);
  for (const [symbol, list] of bars) if (!asOfBySymbol.has(symbol)) bump(symbol, list[list.length - 1].ts);
  return asOfBySymbol;
}
