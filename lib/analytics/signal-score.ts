/**
 * Per-symbol signal score (0–100) with sentiment, risk level, directional agreement (confidence), bias and a
 * deterministic English summary. The score reads the options market from the side of a directional premium buyer.
 */
import type { SymbolMetrics } from "./types";
import { round } from "./round";

export type SignalSentiment = "bullish" | "bearish" | "neutral";
export type RiskLevel = "low" | "moderate" | "elevated" | "high";
export type Bias = "long" | "short" | "neutral";
export type SignalComponentName =
  | "momentum20d"
  | "trend50d"
  | "flow_net_premium_share"
  | "put_call_oi_ratio"
  | "skew25d"
  | "iv_rank"
  | "liquidity";

export interface SignalComponent {
  name: SignalComponentName;
  value: number | null;
  available: boolean;
  directional: boolean;
  weight: number;
  score: number;
  contribution: number;
}

export interface RiskFactor {
  name: "iv_rank" | "hv30" | "days_to_earnings" | "liquidity";
  value: number | null;
  points: number;
}

export interface SignalScore {
  symbol: string;
  service_score: number;
  sentiment: SignalSentiment;
  risk_level: RiskLevel;
  risk_points: number;
  risk_factors: RiskFactor[];
  components: SignalComponent[];
  confidence: number;
  bias: Bias;
  summary: string;
}

const clamp1 = (x: number) => Math.max(-1, Math.min(1, x));
const finite = (x: number | null | undefined): x is number => typeof x === "number" && Number.isFinite(x);

/** Component specs: weight, whether it is directional, and the value → [−1, +1] map. Weights sum to 1. */
const SPECS: readonly {
  name: SignalComponentName;
  weight: number;
  directional: boolean;
  value: (m: SymbolMetrics) => number | null;
  map: (v: number) => number;
}[] = [
  { name: "momentum20d", weight: 0.2, directional: true, value: (m) => m.momentum20d, map: (v) => clamp1(v / 0.1) },
  { name: "trend50d", weight: 0.2, directional: true, value: (m) => m.trend50d, map: (v) => clamp1(v / 0.05) },
  {
    name: "flow_net_premium_share",
    weight: 0.2,
    directional: true,
    map: clamp1,
    value: (m) => {
      const gross = m.flow.bullishPremium + m.flow.bearishPremium;
      return finite(gross) && gross > 0 && finite(m.flow.netPremium) ? m.flow.netPremium / gross : null;
    },
  },
  {
    name: "put_call_oi_ratio",
    weight: 0.1,
    directional: true,
    value: (m) => (finite(m.putCallOiRatio) && m.putCallOiRatio >= 0 ? m.putCallOiRatio : null),
    map: (v) => clamp1((0.8 - v) / 0.4),
  },
  { name: "skew25d", weight: 0.15, directional: true, value: (m) => m.skew25d, map: (v) => clamp1((0.04 - v) / 0.04) },
  { name: "iv_rank", weight: 0.1, directional: false, value: (m) => m.ivRank, map: (v) => clamp1((50 - v) / 50) },
  {
    name: "liquidity",
    weight: 0.05,
    directional: false,
    value: (m) => m.liquidityScore,
    map: (v) => clamp1((v - 50) / 50),
  },
];

export const definitions: Record<string, string> = {
  service_score:
    "Integer 0–100: round(50 + 50 × Σ weight × component score), component scores in [−1, +1], weights summing to 1 (half away from zero). 50 = no edge. A missing input scores 0 (neutral) but keeps its weight, so missing data pulls the score toward 50.",
  sentiment: "bullish when service_score ≥ 60, bearish when ≤ 40, otherwise neutral.",
  components:
    "Array of all seven components in fixed order: { name, value, available, directional, weight, score (−1…+1, 4 decimals), contribution (weight × score, 4 decimals) }.",
  momentum20d: "20-session return, decimal. Weight 0.20. Score = clamp(value / 0.10, −1, 1): ±10 % → ±1.",
  trend50d: "Close / 50-session SMA − 1, decimal. Weight 0.20. Score = clamp(value / 0.05, −1, 1): ±5 % → ±1.",
  flow_net_premium_share:
    "Net options-flow premium / (bullish + bearish premium), −1…+1. Weight 0.20. Score = value. Unavailable when no directional premium was recorded.",
  put_call_oi_ratio:
    "Put open interest / call open interest. Weight 0.10. Read as informative, not contrarian: on single names, option positioning tends to lead the stock (Pan & Poteshman 2006), so a high ratio is bearish. Score = clamp((0.8 − value) / 0.4, −1, 1): 0.4 → +1, 0.8 → 0, 1.2 → −1. (Market-wide put/call is used as a fear gauge in market sentiment instead.)",
  skew25d:
    "IV(25Δ put) − IV(25Δ call), decimal vol. Weight 0.15. Rich put skew signals demand for downside protection. Score = clamp((0.04 − value) / 0.04, −1, 1): 0 → +1, 0.04 (typical) → 0, 0.08 → −1.",
  iv_rank:
    "IV rank 0–100. Weight 0.10, not directional. For a premium buyer a high IV rank means paying up for options that tend to cheapen as IV mean-reverts, so it lowers the score. Score = clamp((50 − value) / 50, −1, 1): 0 → +1, 50 → 0, 100 → −1.",
  liquidity:
    "Liquidity score 0–100. Weight 0.05, not directional. Score = clamp((value − 50) / 50, −1, 1). IV rank and liquidity together weigh 0.15, so on their own they move the score at most ±7.5 points and cannot make a symbol bullish or bearish.",
  risk_level:
    "From risk points (0–8): IV rank ≥ 80 → 2, ≥ 50 → 1; hv30 ≥ 0.60 → 2, ≥ 0.35 → 1; earnings in 0–7 days → 2, 8–21 days → 1; liquidity score < 30 → 2, < 60 → 1; a missing value adds 0. 0–1 low, 2–3 moderate, 4–5 elevated, 6–8 high.",
  risk_factors:
    "Array of { name, value, points } behind risk_points, in the order iv_rank, hv30, days_to_earnings, liquidity.",
  confidence:
    "Agreement of the five directional components, 0–1, 2 decimals: (|Σ w·s| / Σ w·|s|) × coverage, where coverage = available directional weight / 0.85. 1 = all available signals point the same way; 0 when no directional signal is non-zero.",
  bias: "long when sentiment is bullish and confidence ≥ 0.5, short when bearish and confidence ≥ 0.5, otherwise neutral.",
  summary: "Deterministic English sentences generated from the numbers above; no free text, no dates from the clock.",
};

function tier(value: number | null, two: (v: number) => boolean, one: (v: number) => boolean): number {
  if (!finite(value)) return 0;
  return two(value) ? 2 : one(value) ? 1 : 0;
}

export function riskFactors(m: SymbolMetrics): RiskFactor[] {
  const dte = finite(m.daysToEarnings) && m.daysToEarnings >= 0 ? m.daysToEarnings : null;
  const known = (x: number | null | undefined) => (finite(x) ? x : null);
  return [
    {
      name: "iv_rank",
      value: known(m.ivRank),
      points: tier(
        m.ivRank,
        (v) => v >= 80,
        (v) => v >= 50,
      ),
    },
    {
      name: "hv30",
      value: known(m.hv30),
      points: tier(
        m.hv30,
        (v) => v >= 0.6,
        (v) => v >= 0.35,
      ),
    },
    {
      name: "days_to_earnings",
      value: dte,
      points: tier(
        dte,
        (v) => v <= 7,
        (v) => v <= 21,
      ),
    },
    {
      name: "liquidity",
      value: known(m.liquidityScore),
      points: tier(
        m.liquidityScore,
        (v) => v < 30,
        (v) => v < 60,
      ),
    },
  ];
}

export function riskLevelFromPoints(points: number): RiskLevel {
  return points >= 6 ? "high" : points >= 4 ? "elevated" : points >= 2 ? "moderate" : "low";
}

/** Fixed decimals; a number that overflows on the way (e.g. an absurd IV × 100) reads "unavailable", never "Infinity". */
const fx = (x: number, dp: number) => {
  const v = round(x, dp);
  return Number.isFinite(v) ? v.toFixed(dp) : "unavailable";
};
const pct = (x: number, dp = 1) => (Number.isFinite(x * 100) ? `${fx(x * 100, dp)}%` : "unavailable");
const signedPct = (x: number) => `${round(x * 100, 1) > 0 ? "+" : ""}${pct(x)}`;
function usd(x: number): string {
  const a = Math.abs(x);
  const s =
    a >= 1e9 ? `${fx(a / 1e9, 1)}B` : a >= 1e6 ? `${fx(a / 1e6, 1)}M` : a >= 1e3 ? `${fx(a / 1e3, 1)}K` : fx(a, 0);
  return `${x < 0 ? "-" : ""}$${s}`;
}

function summarize(m: SymbolMetrics, s: Omit<SignalScore, "summary">): string {
  const out: string[] = [`${m.symbol} scores ${s.service_score}/100 (${s.sentiment}).`];
  if (finite(m.atmIv30)) {
    const rank = finite(m.ivRank)
      ? `ranks ${fx(m.ivRank, 0)} in its ${m.ivLookbackDays}-day range`
      : "has no IV rank yet";
    const hv = finite(m.hv30) ? `, against 30-day realised volatility of ${pct(m.hv30)}` : "";
    out.push(`Implied volatility (30-day ATM ${pct(m.atmIv30)}) ${rank}${hv}.`);
  } else out.push("Implied volatility is unavailable.");
  const px: string[] = [];
  if (finite(m.momentum20d)) px.push(`${signedPct(m.momentum20d)} over 20 sessions`);
  if (finite(m.trend50d))
    px.push(`${pct(Math.abs(m.trend50d))} ${m.trend50d >= 0 ? "above" : "below"} its 50-day average`);
  if (px.length) out.push(`Price is ${px.join(" and ")}.`);
  const flow = s.components.find((c) => c.name === "flow_net_premium_share");
  if (flow?.value != null) {
    const side = flow.value > 0 ? "bullish" : flow.value < 0 ? "bearish" : "balanced";
    out.push(
      `Options flow is ${side}: net premium ${usd(m.flow.netPremium)} (${signedPct(flow.value)} of directional premium).`,
    );
  } else out.push("No directional options flow was recorded.");
  const pos: string[] = [];
  if (finite(m.putCallOiRatio)) pos.push(`put/call open-interest ratio ${fx(m.putCallOiRatio, 2)}`);
  if (finite(m.skew25d)) pos.push(`25-delta skew ${fx(m.skew25d * 100, 1)} vol points`);
  if (pos.length) out.push(`Positioning: ${pos.join("; ")}.`);
  const dte = s.risk_factors[2].value;
  if (dte !== null) {
    const mv = m.expectedMove && finite(m.expectedMove.move) ? ` (expected move ±$${fx(m.expectedMove.move, 2)})` : "";
    out.push(`Earnings in ${dte} day${dte === 1 ? "" : "s"}${mv}.`);
  }
  const liq = finite(m.liquidityScore)
    ? `liquidity score ${fx(m.liquidityScore, 0)}/100`
    : "liquidity score unavailable";
  out.push(`Risk level ${s.risk_level} (${s.risk_points} of 8 points); ${liq}.`);
  if (!finite(m.atmIv30) && !finite(m.momentum20d) && !finite(m.trend50d))
    out.push("Most inputs are missing: read this score as no information, not as neutral.");
  out.push(`Signal agreement ${s.confidence.toFixed(2)}; bias ${s.bias}.`);
  const missing = s.components.filter((c) => !c.available).map((c) => c.name);
  if (missing.length) out.push(`Unavailable inputs, scored neutral: ${missing.join(", ")}.`);
  return out.join(" ");
}

export function signalScore(m: SymbolMetrics): SignalScore {
  let mean = 0;
  let dirNet = 0;
  let dirAbs = 0;
  let dirAvailW = 0;
  let dirTotalW = 0;
  const components: SignalComponent[] = SPECS.map((c) => {
    const raw = c.value(m);
    const value = finite(raw) ? raw : null;
    const score = value === null ? 0 : c.map(value);
    mean += c.weight * score;
    if (c.directional) {
      dirTotalW += c.weight;
      if (value !== null) dirAvailW += c.weight;
      dirNet += c.weight * score;
      dirAbs += c.weight * Math.abs(score);
    }
    return {
      name: c.name,
      value: value === null ? null : round(value, 6),
      available: value !== null,
      directional: c.directional,
      weight: c.weight,
      score: round(score, 4),
      contribution: round(c.weight * score, 4),
    };
  });
  const service_score = Math.max(0, Math.min(100, round(50 + 50 * mean, 0)));
  const sentiment: SignalSentiment = service_score >= 60 ? "bullish" : service_score <= 40 ? "bearish" : "neutral";
  const confidence = dirAbs > 0 ? round((Math.abs(dirNet) / dirAbs) * (dirAvailW / dirTotalW), 2) : 0;
  const bias: Bias =
    confidence >= 0.5 && sentiment !== "neutral" ? (sentiment === "bullish" ? "long" : "short") : "neutral";
  const risk_factors = riskFactors(m);
  const risk_points = risk_factors.reduce((a, f) => a + f.points, 0);
  const base = {
    symbol: m.symbol,
    service_score,
    sentiment,
    risk_level: riskLevelFromPoints(risk_points),
    risk_points,
    risk_factors,
    components,
    confidence,
    bias,
  };
  return { ...base, summary: summarize(m, base) };
}
