/** Maps computed analytics to the public `data` shapes, typed by their schemas (lib/contract/responses.ts). */
import type { FlowEvent } from "../analytics/flow";
import { round, roundOrNull } from "../analytics/round";
import type { PayloadInput } from "../contract/responses";
import type { SymbolAnalytics } from "./compute";

const r = (x: number | null, digits = 4): number | null => roundOrNull(x, digits);
/** For fields the schema requires: a non-finite value stays non-finite, so the schema refuses it as before. */
const n = (x: number, digits = 4): number => round(x, digits);

export function tickerSummaryData(a: SymbolAnalytics): PayloadInput<"tickerSummary"> {
  const m = a.metrics;
  return {
    symbol: a.instrument.symbol,
    name: a.instrument.name,
    price: m.spot,
    service_score: a.signal.service_score,
    sentiment: a.signal.sentiment,
    risk_level: a.signal.risk_level,
    summary: a.signal.summary,
    iv_rank: r(m.ivRank, 1),
    atm_iv_30d: r(m.atmIv30),
    as_of: a.asOf.toISOString(),
  };
}

export function signalScoreData(a: SymbolAnalytics): PayloadInput<"signalScore"> {
  const m = a.metrics;
  return {
    symbol: a.instrument.symbol,
    service_score: a.signal.service_score,
    sentiment: a.signal.sentiment,
    risk_level: a.signal.risk_level,
    confidence: a.signal.confidence,
    bias: a.signal.bias,
    components: a.signal.components.map((c) => ({
      name: c.name,
      value: r(c.value),
      available: c.available,
      directional: c.directional,
      weight: n(c.weight),
      score: n(c.score),
      contribution: n(c.contribution),
    })),
    risk_points: a.signal.risk_points,
    risk_factors: a.signal.risk_factors.map((f) => ({ name: f.name, value: r(f.value), points: f.points })),
    metrics: {
      atm_iv_30d: r(m.atmIv30),
      iv_rank: r(m.ivRank, 1),
      iv_percentile: r(m.ivPercentile, 1),
      iv_lookback_days: m.ivLookbackDays,
      hv_30d: r(m.hv30),
      put_call_volume_ratio: r(m.putCallVolumeRatio),
      put_call_oi_ratio: r(m.putCallOiRatio),
      skew_25d: r(m.skew25d),
      term_slope: r(m.termSlope),
      liquidity_score: n(m.liquidityScore, 1),
      avg_spread_pct: r(m.avgSpreadPct),
      momentum_20d: r(m.momentum20d),
      trend_50d: r(m.trend50d),
      expected_move: m.expectedMove
        ? {
            date: m.expectedMove.date,
            days: m.expectedMove.days,
            move: n(m.expectedMove.move, 2),
            move_pct: n(m.expectedMove.movePct, 4),
            event_move_pct: r(m.expectedMove.eventMovePct ?? null),
            base_source: m.expectedMove.baseSource ?? null,
            timing: m.expectedMove.timing ?? null,
          }
        : null,
      forwards: (m.forwards ?? []).map((f) => ({
        expiry: f.expiry,
        forward: n(f.forward, 4),
        implied_yield: n(f.impliedYield, 6),
        source: f.source,
      })),
    },
    as_of: a.asOf.toISOString(),
  };
}

export function flowEventData(e: FlowEvent): PayloadInput<"optionsFlow">["events"][number] {
  return {
    id: e.id,
    symbol: e.symbol,
    time: e.time,
    type: e.type,
    contract: e.contract,
    size: e.size,
    avg_price: e.avgPrice,
    premium: e.premium,
    side: e.side,
    sentiment: e.sentiment,
    exchange_count: e.exchangeCount,
    unusual: e.unusual,
    volume_oi_ratio: e.volumeOiRatio,
  };
}

export function aiSummaryData(a: SymbolAnalytics, isMock: boolean, disclaimer: string): PayloadInput<"aiSummary"> {
  return {
    symbol: a.instrument.symbol,
    summary: a.signal.summary,
    confidence: a.signal.confidence,
    bias: a.signal.bias,
    serviceScore: a.signal.service_score,
    sentiment: a.signal.sentiment,
    isMockData: isMock,
    disclaimer,
    asOf: a.asOf.toISOString(),
  };
}

export function noTradeData(a: SymbolAnalytics, disclaimer: string): PayloadInput<"noTrade"> {
  return {
    symbol: a.instrument.symbol,
    decision: a.noTrade.decision,
    reasons: a.noTrade.reasons,
    checks: a.noTrade.checks.map((c) => ({ ...c, value: r(c.value, 4) })),
    categories: a.noTrade.categories,
    disclaimer,
    asOf: a.asOf.toISOString(),
  };
}
