/**
 * Turns one market snapshot into every analytic the API serves. Pure; per-symbol results are reused from the
 * previous view when that symbol's inputs did not change, so a data update costs only what it touched.
 */
import type {
  Bar,
  FlowSummary,
  Instrument,
  OptionQuote,
  OptionTrade,
  SymbolMetrics,
  TreasuryYield,
} from "../analytics/types";
import { buildFlowEvents, type FlowEvent } from "../analytics/flow";
import { summarizeFlow } from "../analytics/flow-filters";
import { computeSymbolMetrics, ivLookbackStart } from "../analytics/vol-metrics";
import { signalScore, type SignalScore } from "../analytics/signal-score";
import { noTradeAnalysis, type NoTradeAnalysis } from "../analytics/no-trade";
import { buildYieldCurve, riskFreeRate, type YieldCurve } from "../analytics/yield-curve";
import { marketSentiment, breadthFromBars, type MarketSentiment } from "../analytics/market-sentiment";
import { momentum } from "../analytics/price-metrics";
import { curveAsOf as curveDateAsOf, dailyBarAsOf } from "../market/staleness";

export interface MarketSnapshotInput {
  instruments: Instrument[];
  dailyBarsBySymbol: Map<string, Bar[]>; // ascending
  latestChainBySymbol: Map<string, OptionQuote[]>;
  /** Daily 30-day ATM IV of each earlier session's end-of-day snapshot, ascending. */
  ivHistoryBySymbol: Map<string, { date: string; atmIv30: number }[]>;
  tradesBySymbol: Map<string, OptionTrade[]>;
  yields: TreasuryYield[];
}

/** The instrument's cash dividends as part of the input fingerprint (an imported dividend changes every figure). */
const dividendsKey = (i: Instrument) => (i.cashDividends ?? []).map((d) => `${d.exDate}:${d.amount}`).join(",");

/** The newest as-of of each kind of data an answer may read (the staleness bounds judge each on its own). */
export interface KindAsOf {
  chain: Date;
  /** The newest daily bar's session close. */
  bars: Date;
  /** The newest print; null without one. */
  trades: Date | null;
}

export interface SymbolAnalytics {
  instrument: Instrument;
  metrics: SymbolMetrics;
  signal: SignalScore;
  noTrade: NoTradeAnalysis;
  chain: OptionQuote[];
  /** The newest of the symbol's data (chain snapshot, daily bar, print): what its answers' labels follow. */
  asOf: Date;
  kindAsOf: KindAsOf;
  flowEvents: FlowEvent[];
  /** Fingerprint of the inputs, to reuse this result when nothing changed. */
  inputKey: string;
}

export interface MarketView {
  instruments: Map<string, Instrument>;
  symbols: Map<string, SymbolAnalytics>;
  flowEvents: FlowEvent[]; // all symbols, newest first
  flowAsOf: Date | null;
  /** Each kind's newest as-of over every symbol (market-wide answers); null without symbols. */
  kindAsOf: { chain: Date | null; bars: Date | null; trades: Date | null };
  curve: YieldCurve | null;
  curveAsOf: Date | null;
  sentiment: MarketSentiment | null;
  sentimentAsOf: Date | null;
  volIndex: number | null;
  rate: (years: number) => number;
  computedMs: number;
}

const INDEX_SYMBOL_KINDS = new Set(["index"]);
const VOL_INDEX_KIND = "volatility_index";
const NO_RATE = () => 0; // no Treasury curve loaded: discount at zero, stated in the reference

const newest = (dates: Date[]): Date | null =>
  dates.length ? new Date(Math.max(...dates.map((d) => d.getTime()))) : null;

function emptyFlow(): FlowSummary {
  return { bullishPremium: 0, bearishPremium: 0, netPremium: 0, sweepCount: 0, blockCount: 0, unusualCount: 0 };
}

type SymbolPartial = Omit<SymbolAnalytics, "noTrade">;

/** One symbol's options metrics and flow (null without a chain or bars); the previous result when its inputs match. */
function symbolPass(
  snap: MarketSnapshotInput,
  instrument: Instrument,
  previous: MarketView | null,
  market: { rate: (years: number) => number; curveKey: string },
): SymbolPartial | null {
  const chain = snap.latestChainBySymbol.get(instrument.symbol) ?? [];
  const bars = snap.dailyBarsBySymbol.get(instrument.symbol) ?? [];
  if (chain.length === 0 || bars.length === 0) return null;
  const trades = snap.tradesBySymbol.get(instrument.symbol) ?? [];
  const chainAsOf = chain[0].asOf;
  const lastBar = bars[bars.length - 1];
  const lastTrade = trades.length ? trades[trades.length - 1] : null;
  const today = chainAsOf.toISOString().slice(0, 10);
  // Only the 52-week window: older history neither counts nor keeps a symbol's cached result alive.
  const from = ivLookbackStart(today);
  const ivHistory = (snap.ivHistoryBySymbol.get(instrument.symbol) ?? []).filter(
    (p) => p.date < today && p.date >= from,
  );
  const historyKey = `${ivHistory.length}|${ivHistory.at(-1)?.date ?? ""}:${ivHistory.at(-1)?.atmIv30 ?? ""}|${ivHistory[0]?.date ?? ""}|${market.curveKey}|${instrument.dividendYield}|${instrument.exerciseStyle ?? ""}`;
  const inputKey = `${chain.length}|${chainAsOf.getTime()}|${lastBar.ts.getTime()}|${lastBar.close}|${trades.length}|${lastTrade?.ts.getTime() ?? 0}|${historyKey}|${instrument.nextEarningsDate}|${instrument.earningsTiming ?? ""}|${dividendsKey(instrument)}`;
  const prev = previous?.symbols.get(instrument.symbol);
  if (prev && prev.inputKey === inputKey) return prev;
  const oi = new Map<string, number>();
  for (const q of chain) oi.set(`${q.expiry}|${q.strike}|${q.right}`, q.openInterest);
  const spot = lastBar.close;
  const flowEvents = buildFlowEvents(trades, (c) => oi.get(`${c.expiry}|${c.strike}|${c.right}`) ?? null, { spot });
  const asOf = newest([chainAsOf, lastBar.ts, ...(lastTrade ? [lastTrade.ts] : [])]) ?? lastBar.ts;
  const metrics = computeSymbolMetrics({
    instrument,
    dailyBars: bars,
    chain,
    ivHistory,
    flow: flowEvents.length ? summarizeFlow(flowEvents) : emptyFlow(),
    asOf,
    rate: market.rate,
  });
  return {
    instrument,
    metrics,
    signal: signalScore(metrics),
    chain,
    asOf,
    kindAsOf: { chain: chainAsOf, bars: dailyBarAsOf(lastBar.ts), trades: lastTrade?.ts ?? null },
    flowEvents,
    inputKey,
  };
}

export function computeMarketView(snap: MarketSnapshotInput, previous: MarketView | null): MarketView {
  const started = performance.now();
  const curve = buildYieldCurve(snap.yields);
  const rate = curve ? riskFreeRate(curve.curve) : NO_RATE;
  const curveKey = curve ? `${curve.date}:${curve.curve.map((p) => p.yieldPct).join(",")}` : "none";
  const curveAsOf = curve ? curveDateAsOf(curve.date) : null;

  const volInstrument = snap.instruments.find((i) => i.kind === VOL_INDEX_KIND);
  const volCloses = volInstrument ? (snap.dailyBarsBySymbol.get(volInstrument.symbol) ?? []).map((b) => b.close) : [];
  const volIndex = volCloses.length ? volCloses[volCloses.length - 1] : null;

  // Pass 1: options metrics and flow for every symbol with a chain.
  const partial = new Map<string, SymbolPartial>();
  for (const instrument of snap.instruments) {
    const a = symbolPass(snap, instrument, previous, { rate, curveKey });
    if (a) partial.set(instrument.symbol, a);
  }

  // Pass 2: market-wide sentiment, then no-trade (which reads it).
  const equities = new Map(
    [...snap.dailyBarsBySymbol].filter(([s]) => snap.instruments.find((i) => i.symbol === s)?.kind === "equity"),
  );
  const index = snap.instruments.find((i) => INDEX_SYMBOL_KINDS.has(i.kind));
  const indexAnalytics = index ? partial.get(index.symbol) : undefined;
  let putVolume = 0;
  let callVolume = 0;
  for (const a of partial.values()) {
    for (const q of a.chain) q.right === "P" ? (putVolume += q.volume) : (callVolume += q.volume);
  }
  const avg = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);
  const sentimentInputs = {
    putCallRatio: callVolume > 0 ? putVolume / callVolume : null,
    volIndex,
    volIndexAvg: avg(volCloses.slice(-50)),
    breadth: breadthFromBars(equities),
    momentum: index
      ? momentum(
          (snap.dailyBarsBySymbol.get(index.symbol) ?? []).map((b) => b.close),
          20,
        )
      : null,
    skew: indexAnalytics?.metrics.skew25d ?? null,
  };
  const hasMarketData = partial.size > 0;
  const sentiment = hasMarketData ? marketSentiment(sentimentInputs) : null;
  const sentimentAsOf = newest([...partial.values()].map((a) => a.asOf));

  const symbols = new Map<string, SymbolAnalytics>();
  const marketKey = `${sentiment?.score ?? null}|${volIndex}`;
  const sameMarket = previous !== null && `${previous.sentiment?.score ?? null}|${previous.volIndex}` === marketKey;
  for (const [symbol, a] of partial) {
    const prev = previous?.symbols.get(symbol);
    // Unchanged inputs and market context: keep the very object, so payloads built from it are reused too.
    if (sameMarket && prev === a) symbols.set(symbol, prev);
    else
      symbols.set(symbol, {
        ...a,
        noTrade: noTradeAnalysis(a.metrics, { marketSentimentScore: sentiment?.score ?? null, volIndex }),
      });
  }
  const flowEvents = [...symbols.values()]
    .flatMap((a) => a.flowEvents)
    .sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : a.id < b.id ? -1 : 1));
  const flowAsOf = newest([...symbols.values()].map((a) => a.asOf));
  const newestOf = (kind: keyof KindAsOf) => newest([...symbols.values()].flatMap((a) => a.kindAsOf[kind] ?? []));
  return {
    instruments: new Map(snap.instruments.map((i) => [i.symbol, i])),
    symbols,
    flowEvents,
    flowAsOf,
    kindAsOf: { chain: newestOf("chain"), bars: newestOf("bars"), trades: newestOf("trades") },
    curve,
    curveAsOf,
    sentiment,
    sentimentAsOf,
    volIndex,
    rate,
    computedMs: performance.now() - started,
  };
}
