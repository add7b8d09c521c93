/**
 * Daily snapshots of the published metrics (docs/analytics.md "History"): for each New York session day, the engine's
 * own computation (computeMarketView) run on the stored data as of that day's close — the day's newest chain
 * snapshot, daily bars up to the day, the day's prints, the Treasury curves published by then and the ATM-IV history
 * before it. Pure: the caller loads the data once and asks for any number of days.
 */
import type { Bar, Instrument, OptionQuote, OptionTrade, SymbolMetrics, TreasuryYield } from "../analytics/types";
import { noTradeAnalysis, type NoTradeContext } from "../analytics/no-trade";
import { signalScore } from "../analytics/signal-score";
import { round } from "../analytics/round";
import { ivLookbackStart } from "../analytics/vol-metrics";
import { DISCLAIMER } from "../contract/disclaimer";
import { type Payload, schemas } from "../contract/responses";
import { newYorkDate } from "../analytics/exchange-calendar";
import type { SnapshotRow } from "../market/metric-snapshots-store";
import { computeMarketView, type SymbolAnalytics } from "./compute";
import { aiSummaryData, noTradeData, signalScoreData, tickerSummaryData } from "./payloads";

/** What the snapshots of a run of days are computed from (every list ascending). */
export interface HistoryInput {
  instruments: Instrument[];
  dailyBarsBySymbol: Map<string, Bar[]>;
  /** Each symbol's newest chain snapshot of each New York date, ascending. */
  chainsBySymbol: Map<string, OptionQuote[][]>;
  tradesBySymbol: Map<string, OptionTrade[]>;
  yields: TreasuryYield[];
  ivHistoryBySymbol: Map<string, { date: string; atmIv30: number }[]>;
  /** The instruments as stored on a given day (next earnings date); default: `instruments`. */
  instrumentsOn?: (date: string) => Instrument[];
}

/** What a day's four public answers are rebuilt from: the instrument's name, the metrics and the market context. */
export interface SnapshotInputs {
  name: string;
  metrics: Omit<SymbolMetrics, "forwards">;
  context: NoTradeContext;
}

/** The metrics of one symbol and day, as stored in metric_snapshots (names as the history route answers them). */
export type DailySnapshot = Omit<SnapshotRow, "inputs"> & { inputs: SnapshotInputs };

/**
 * Daily bars handed to the engine per day: its longest look-back is 51 closes (50-session trend and breadth, 30-day
 * realised vol), so the last 60 give the same numbers as the 300 it reads live at a fraction of the work.
 */
const DAILY_BARS = 60;
/** Same as the engine reads them (lib/market/store-read.ts): the newest 30 published curve dates. */
const YIELD_DATES = 30;

const utcDate = (d: Date) => d.toISOString().slice(0, 10);

/** Index of the last element whose key is ≤ `key` (lists ascending by key), or -1. */
function lastAtOrBefore<T>(list: readonly T[], key: string, keyOf: (x: T) => string): number {
  let lo = 0;
  let hi = list.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (keyOf(list[mid]) <= key) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Stored arrays indexed once, so each day is a few binary searches and slices. */
function indexInput(input: HistoryInput) {
  const chainByDay = new Map<string, Map<string, OptionQuote[]>>();
  for (const [symbol, days] of input.chainsBySymbol) {
    const m = new Map<string, OptionQuote[]>();
    for (const quotes of days) if (quotes.length) m.set(newYorkDate(quotes[0].asOf), quotes);
    chainByDay.set(symbol, m);
  }
  const tradesByDay = new Map<string, Map<string, OptionTrade[]>>();
  for (const [symbol, trades] of input.tradesBySymbol) {
    const m = new Map<string, OptionTrade[]>();
    for (const t of trades) {
      const day = newYorkDate(t.ts);
      const list = m.get(day);
      if (list) list.push(t);
      else m.set(day, [t]);
    }
    tradesByDay.set(symbol, m);
  }
  const yieldDates = [...new Set(input.yields.map((y) => y.date))].sort();
  return { chainByDay, tradesByDay, yieldDates };
}

/** Snapshots of the given New York dates (each symbol with a chain snapshot that day), in date then symbol order. */
export function computeDailySnapshots(input: HistoryInput, days: readonly string[]): DailySnapshot[] {
  const { chainByDay, tradesByDay, yieldDates } = indexInput(input);
  const out: DailySnapshot[] = [];
  for (const day of [...days].sort()) {
    const latestChainBySymbol = new Map<string, OptionQuote[]>();
    for (const [symbol, m] of chainByDay) {
      const chain = m.get(day);
      if (chain) latestChainBySymbol.set(symbol, chain);
    }
    if (latestChainBySymbol.size === 0) continue;
    const dailyBarsBySymbol = new Map<string, Bar[]>();
    for (const [symbol, bars] of input.dailyBarsBySymbol) {
      const end = lastAtOrBefore(bars, day, (b) => utcDate(b.ts));
      if (end >= 0) dailyBarsBySymbol.set(symbol, bars.slice(Math.max(0, end + 1 - DAILY_BARS), end + 1));
    }
    const tradesBySymbol = new Map<string, OptionTrade[]>();
    for (const [symbol, m] of tradesByDay) {
      const trades = m.get(day);
      if (trades) tradesBySymbol.set(symbol, trades);
    }
    // Only the IV history inside the day's 52-week look-back (the engine filters to the same window).
    const from = ivLookbackStart(day);
    const ivHistoryBySymbol = new Map<string, { date: string; atmIv30: number }[]>();
    for (const [symbol, points] of input.ivHistoryBySymbol) {
      const end = lastAtOrBefore(points, day, (p) => p.date);
      const start = lastAtOrBefore(points, from, (p) => p.date);
      const first = start >= 0 && points[start].date === from ? start : start + 1;
      ivHistoryBySymbol.set(symbol, points.slice(first, end + 1));
    }
    const lastYield = lastAtOrBefore(yieldDates, day, (d) => d);
    const curveDates = new Set(yieldDates.slice(Math.max(0, lastYield + 1 - YIELD_DATES), lastYield + 1));
    const view = computeMarketView(
      {
        instruments: input.instrumentsOn?.(day) ?? input.instruments,
        dailyBarsBySymbol,
        latestChainBySymbol,
        ivHistoryBySymbol,
        tradesBySymbol,
        yields: input.yields.filter((y) => curveDates.has(y.date)),
      },
      null,
    );
    const context = { marketSentimentScore: view.sentiment?.score ?? null, volIndex: view.volIndex };
    for (const symbol of [...view.symbols.keys()].sort())
      out.push(snapshotOf(view.symbols.get(symbol) as SymbolAnalytics, day, tradesBySymbol.has(symbol), context));
  }
  return out;
}

function snapshotOf(a: SymbolAnalytics, date: string, hasPrints: boolean, context: NoTradeContext): DailySnapshot {
  const signal = signalScoreData(a); // rounded as published
  const m = signal.metrics;
  let callsPremium = 0;
  let putsPremium = 0;
  for (const e of a.flowEvents) e.contract.right === "call" ? (callsPremium += e.premium) : (putsPremium += e.premium);
  const flow = a.metrics.flow;
  const { forwards: _forwards, ...metrics } = a.metrics;
  return {
    symbol: a.instrument.symbol,
    date,
    asOf: a.asOf,
    price: a.metrics.spot,
    ivRank: m.iv_rank,
    ivPercentile: m.iv_percentile,
    atmIv30d: m.atm_iv_30d,
    skew25d: m.skew_25d,
    termSlope: m.term_slope,
    expectedMove: m.expected_move?.move ?? null,
    expectedMovePct: m.expected_move?.move_pct ?? null,
    serviceScore: signal.service_score,
    components: Object.fromEntries(signal.components.map((c) => [c.name, c.score])),
    sentiment: signal.sentiment,
    riskLevel: signal.risk_level,
    noTradeDecision: a.noTrade.decision,
    failedChecks: a.noTrade.checks.filter((c) => c.status === "fail").map((c) => c.id),
    callsPremium: hasPrints ? round(callsPremium, 2) : null,
    putsPremium: hasPrints ? round(putsPremium, 2) : null,
    sweepCount: hasPrints ? flow.sweepCount : null,
    blockCount: hasPrints ? flow.blockCount : null,
    unusualCount: hasPrints ? flow.unusualCount : null,
    inputs: { name: a.instrument.name, metrics, context },
  };
}

/** A stored day as the four routes answer it: the same builders and schemas as today's answers. */
export interface DayAnswers {
  tickerSummary: Payload<"tickerSummary">;
  signalScore: Payload<"signalScore">;
  aiSummary: Payload<"aiSummary">;
  noTrade: Payload<"noTrade">;
}

export function answersOf(symbol: string, asOf: Date, inputs: SnapshotInputs, isMock: boolean): DayAnswers {
  const metrics: SymbolMetrics = { ...inputs.metrics };
  const a = {
    instrument: { symbol, name: inputs.name },
    metrics,
    signal: signalScore(metrics),
    noTrade: noTradeAnalysis(metrics, inputs.context),
    asOf,
  } as SymbolAnalytics;
  return {
    tickerSummary: schemas.tickerSummary.parse(tickerSummaryData(a)),
    signalScore: schemas.signalScore.parse(signalScoreData(a)),
    aiSummary: schemas.aiSummary.parse(aiSummaryData(a, isMock, DISCLAIMER)),
    noTrade: schemas.noTrade.parse(noTradeData(a, DISCLAIMER)),
  };
}
