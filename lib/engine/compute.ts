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
import {
  marketSentiment,
  breadthFromBars,
  type MarketSentiment,
  type MarketSentimentInput,
} from "../analytics/market-sentiment";
import { momentum } from "../analytics/price-metrics";

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

export interface SymbolAnalytics {
  instrument: Instrument;
  metrics: SymbolMetrics;
  signal: SignalScore;
  noTrade: NoTradeAnalysis;
  chain: OptionQuote[];
  asOf: Date;
  flowEvents: FlowEvent[];
  /** Fingerprint of the inputs, to reuse this result when nothing changed. */
  inputKey: string;
}

export interface MarketView {
  instruments: Map<string, Instrument>;
  symbols: Map<string, SymbolAnalytics>;
  flowEvents: FlowEvent[]; // all symbols, newest first
  flowAsOf: Date | null;
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

/** A symbol's analytics before the no-trade analysis, which reads the market-wide sentiment. */
type OptionsAnalytics = Omit<SymbolAnalytics, "noTrade">;

/** What one symbol's options analytics read. */
interface SymbolInputs {
  instrument: Instrument;
  chain: OptionQuote[];
  bars: Bar[];
  trades: OptionTrade[];
  ivHistory: { date: string; atmIv30: number }[];
  lastBar: Bar;
  lastTrade: OptionTrade | null;
}

/** The symbol's inputs in the snapshot, or null when it has no chain or no bars. */
function symbolInputs(instrument: Instrument, snap: MarketSnapshotInput): SymbolInputs | null {
  const chain = snap.latestChainBySymbol.get(instrument.symbol) ?? [];
  const bars = snap.dailyBarsBySymbol.get(instrument.symbol) ?? [];
  if (chain.length === 0 || bars.length === 0) return null;
  const trades = snap.tradesBySymbol.get(instrument.symbol) ?? [];
  const today = chain[0].asOf.toISOString().slice(0, 10);
  // Only the 52-week window: older history neither counts nor keeps a symbol's cached result alive.
  const from = ivLookbackStart(today);
  const ivHistory = (snap.ivHistoryBySymbol.get(instrument.symbol) ?? []).filter(
    (p) => p.date < today && p.date >= from,
  );
  const lastTrade = trades.length ? trades[trades.length - 1] : null;
  return { instrument, chain, bars, trades, ivHistory, lastBar: bars[bars.length - 1], lastTrade };
}

/** Fingerprint of the symbol's inputs and of the Treasury curve (`curveKey`) its analytics discount with. */
function inputKeyOf(inputs: SymbolInputs, curveKey: string): string {
  const { instrument, chain, trades, ivHistory, lastBar, lastTrade } = inputs;
  const historyKey = `${ivHistory.length}|${ivHistory.at(-1)?.date ?? ""}:${ivHistory.at(-1)?.atmIv30 ?? ""}|${ivHistory[0]?.date ?? ""}|${curveKey}|${instrument.dividendYield}|${instrument.exerciseStyle ?? ""}`;
  return `${chain.length}|${chain[0].asOf.getTime()}|${lastBar.ts.getTime()}|${lastBar.close}|${trades.length}|${lastTrade?.ts.getTime() ?? 0}|${historyKey}|${instrument.nextEarningsDate}|${instrument.earningsTiming ?? ""}|${dividendsKey(instrument)}`;
}

/** Options metrics, signal and flow of one symbol, computed from its inputs. */
function optionsAnalytics(inputs: SymbolInputs, inputKey: string, rate: (years: number) => number): OptionsAnalytics {
  const { instrument, chain, bars, trades, ivHistory, lastBar, lastTrade } = inputs;
  const oi = new Map<string, number>();
  for (const q of chain) oi.set(`${q.expiry}|${q.strike}|${q.right}`, q.openInterest);
  const spot = lastBar.close;
  const flowEvents = buildFlowEvents(trades, (c) => oi.get(`${c.expiry}|${c.strike}|${c.right}`) ?? null, { spot });
  const asOf = newest([chain[0].asOf, lastBar.ts, ...(lastTrade ? [lastTrade.ts] : [])]) ?? lastBar.ts;
  const metrics = computeSymbolMetrics({
    instrument,
    dailyBars: bars,
    chain,
    ivHistory,
    flow: flowEvents.length ? summarizeFlow(flowEvents) : emptyFlow(),
    asOf,
    rate,
  });
  return { instrument, metrics, signal: signalScore(metrics), chain, asOf, flowEvents, inputKey };
}

/** Pass 1: options metrics and flow for every symbol with a chain, reusing the previous result of unchanged inputs. */
function analyseSymbols(
  snap: MarketSnapshotInput,
  previous: MarketView | null,
  curve: { key: string; rate: (years: number) => number },
): Map<string, OptionsAnalytics> {
  const analysed = new Map<string, OptionsAnalytics>();
  for (const instrument of snap.instruments) {
    const inputs = symbolInputs(instrument, snap);
    if (!inputs) continue;
    const inputKey = inputKeyOf(inputs, curve.key);
    const prev = previous?.symbols.get(instrument.symbol);
    analysed.set(
      instrument.symbol,
      prev && prev.inputKey === inputKey ? prev : optionsAnalytics(inputs, inputKey, curve.rate),
    );
  }
  return analysed;
}

/** The volatility index's daily closes, ascending, and the latest (null without the index). */
function volIndexCloses(snap: MarketSnapshotInput): { closes: number[]; latest: number | null } {
  const volInstrument = snap.instruments.find((i) => i.kind === VOL_INDEX_KIND);
  const closes = volInstrument ? (snap.dailyBarsBySymbol.get(volInstrument.symbol) ?? []).map((b) => b.close) : [];
  return { closes, latest: closes.length ? closes[closes.length - 1] : null };
}

/** Pass 2's inputs: the market-wide measures sentiment is scored from. */
function sentimentInputs(
  snap: MarketSnapshotInput,
  analysed: Map<string, OptionsAnalytics>,
  vol: { closes: number[]; latest: number | null },
): MarketSentimentInput {
  const equities = new Map(
    [...snap.dailyBarsBySymbol].filter(([s]) => snap.instruments.find((i) => i.symbol === s)?.kind === "equity"),
  );
  const index = snap.instruments.find((i) => INDEX_SYMBOL_KINDS.has(i.kind));
  const indexAnalytics = index ? analysed.get(index.symbol) : undefined;
  let putVolume = 0;
  let callVolume = 0;
  for (const a of analysed.values()) {
    for (const q of a.chain) q.right === "P" ? (putVolume += q.volume) : (callVolume += q.volume);
  }
  const avg = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);
  return {
    putCallRatio: callVolume > 0 ? putVolume / callVolume : null,
    volIndex: vol.latest,
    volIndexAvg: avg(vol.closes.slice(-50)),
    breadth: breadthFromBars(equities),
    momentum: index
      ? momentum(
          (snap.dailyBarsBySymbol.get(index.symbol) ?? []).map((b) => b.close),
          20,
        )
      : null,
    skew: indexAnalytics?.metrics.skew25d ?? null,
  };
}

/** Every symbol's analytics completed with its no-trade analysis in this market context. */
function withNoTrade(
  analysed: Map<string, OptionsAnalytics>,
  previous: MarketView | null,
  sentiment: MarketSentiment | null,
  volIndex: number | null,
): Map<string, SymbolAnalytics> {
  const symbols = new Map<string, SymbolAnalytics>();
  const marketKey = `${sentiment?.score ?? null}|${volIndex}`;
  const sameMarket = previous !== null && `${previous.sentiment?.score ?? null}|${previous.volIndex}` === marketKey;
  for (const [symbol, a] of analysed) {
    const prev = previous?.symbols.get(symbol);
    // Unchanged inputs and market context: keep the very object, so payloads built from it are reused too.
    if (sameMarket && prev === a) symbols.set(symbol, prev);
    else
      symbols.set(symbol, {
        ...a,
        noTrade: noTradeAnalysis(a.metrics, { marketSentimentScore: sentiment?.score ?? null, volIndex }),
      });
  }
  return symbols;
}

export function computeMarketView(snap: MarketSnapshotInput, previous: MarketView | null): MarketView {
  const started = performance.now();
  const curve = buildYieldCurve(snap.yields);
  const rate = curve ? riskFreeRate(curve.curve) : NO_RATE;
  const curveKey = curve ? `${curve.date}:${curve.curve.map((p) => p.yieldPct).join(",")}` : "none";
  const curveAsOf = curve ? new Date(`${curve.date}T21:00:00Z`) : null;

  const vol = volIndexCloses(snap);
  const volIndex = vol.latest;

  const analysed = analyseSymbols(snap, previous, { key: curveKey, rate });
  // Pass 2: market-wide sentiment, then no-trade (which reads it).
  const sentiment = analysed.size > 0 ? marketSentiment(sentimentInputs(snap, analysed, vol)) : null;
  const sentimentAsOf = newest([...analysed.values()].map((a) => a.asOf));
  const symbols = withNoTrade(analysed, previous, sentiment, volIndex);
  const flowEvents = [...symbols.values()]
    .flatMap((a) => a.flowEvents)
    .sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : a.id < b.id ? -1 : 1));
  const flowAsOf = newest([...symbols.values()].map((a) => a.asOf));
  return {
    instruments: new Map(snap.instruments.map((i) => [i.symbol, i])),
    symbols,
    flowEvents,
    flowAsOf,
    curve,
    curveAsOf,
    sentiment,
    sentimentAsOf,
    volIndex,
    rate,
    computedMs: performance.now() - started,
  };
}
