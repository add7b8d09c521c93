/**
 * No-trade analysis: threshold checks across 8 risk categories and a trade / caution / no_trade decision.
 */
import type { SymbolMetrics } from "./types";
import { round } from "./round";

export const NO_TRADE_CATEGORIES = [
  "liquidity",
  "spread",
  "volatility",
  "event",
  "trend",
  "flow",
  "tail",
  "market",
] as const;
export type NoTradeCategory = (typeof NO_TRADE_CATEGORIES)[number];
export type CheckStatus = "pass" | "warn" | "fail";
export type Decision = "trade" | "caution" | "no_trade";
export type Direction = "higher_is_worse" | "lower_is_worse";

export interface NoTradeContext {
  marketSentimentScore: number | null;
  volIndex: number | null;
}

export interface NoTradeCheck {
  id: string;
  category: NoTradeCategory;
  status: CheckStatus;
  value: number | null;
  threshold: { warn: number; fail: number };
  direction: Direction;
  unit: string;
  explanation: string;
}

export interface NoTradeReason {
  category: NoTradeCategory;
  checkId: string;
  status: "warn" | "fail";
  message: string;
}

export interface NoTradeAnalysis {
  decision: Decision;
  reasons: NoTradeReason[];
  checks: NoTradeCheck[];
  categories: NoTradeCategory[];
}

type Fmt = (v: number) => string;
interface CheckSpec {
  id: string;
  category: NoTradeCategory;
  label: string;
  unit: string;
  direction: Direction;
  warn: number;
  fail: number;
  fmt: Fmt;
  value: (m: SymbolMetrics, ctx: NoTradeContext) => number | null;
}

const finite = (x: number | null | undefined): x is number => typeof x === "number" && Number.isFinite(x);
const num =
  (dp: number): Fmt =>
  (v) =>
    round(v, dp).toFixed(dp);
const pct =
  (dp: number): Fmt =>
  (v) =>
    `${round(v * 100, dp).toFixed(dp)}%`;
const volPts: Fmt = (v) => `${round(v * 100, 1).toFixed(1)} vol points`;
const abs = (x: number | null) => (finite(x) ? Math.abs(x) : null);

/** The checks, in category order. Thresholds are inclusive: reaching the warn (fail) value is a warn (fail). */
export const NO_TRADE_CHECKS: readonly CheckSpec[] = [
  {
    id: "liquidity.score",
    category: "liquidity",
    label: "Liquidity score",
    unit: "score 0-100",
    direction: "lower_is_worse",
    warn: 40,
    fail: 20,
    fmt: num(1),
    value: (m) => m.liquidityScore,
  },
  {
    id: "liquidity.open_interest",
    category: "liquidity",
    label: "Total open interest",
    unit: "contracts",
    direction: "lower_is_worse",
    warn: 5000,
    fail: 500,
    fmt: num(0),
    value: (m) => m.totalOpenInterest,
  },
  {
    id: "liquidity.option_volume",
    category: "liquidity",
    label: "Total option volume",
    unit: "contracts",
    direction: "lower_is_worse",
    warn: 1000,
    fail: 100,
    fmt: num(0),
    value: (m) => m.totalOptionVolume,
  },
  {
    id: "spread.avg_pct",
    category: "spread",
    label: "Average near-the-money bid-ask spread",
    unit: "fraction of mid",
    direction: "higher_is_worse",
    warn: 0.05,
    fail: 0.1,
    fmt: pct(1),
    value: (m) => m.avgSpreadPct,
  },
  {
    id: "volatility.iv_rank",
    category: "volatility",
    label: "IV rank",
    unit: "rank 0-100",
    direction: "higher_is_worse",
    warn: 80,
    fail: 95,
    fmt: num(0),
    value: (m) => m.ivRank,
  },
  {
    id: "volatility.hv30",
    category: "volatility",
    label: "30-day realised volatility",
    unit: "annualised, decimal",
    direction: "higher_is_worse",
    warn: 0.6,
    fail: 1.0,
    fmt: pct(1),
    value: (m) => m.hv30,
  },
  {
    id: "volatility.term_slope",
    category: "volatility",
    label: "IV term slope (90-day minus 30-day)",
    unit: "decimal vol",
    direction: "lower_is_worse",
    warn: -0.02,
    fail: -0.05,
    fmt: volPts,
    value: (m) => m.termSlope,
  },
  {
    id: "event.days_to_earnings",
    category: "event",
    label: "Days to earnings",
    unit: "calendar days",
    direction: "lower_is_worse",
    warn: 14,
    fail: 3,
    fmt: num(0),
    value: (m) => (finite(m.daysToEarnings) && m.daysToEarnings >= 0 ? m.daysToEarnings : null),
  },
  {
    id: "trend.extension",
    category: "trend",
    label: "Distance from the 50-day average (absolute)",
    unit: "fraction",
    direction: "higher_is_worse",
    warn: 0.15,
    fail: 0.3,
    fmt: pct(1),
    value: (m) => abs(m.trend50d),
  },
  {
    id: "trend.momentum",
    category: "trend",
    label: "20-session move (absolute)",
    unit: "fraction",
    direction: "higher_is_worse",
    warn: 0.2,
    fail: 0.35,
    fmt: pct(1),
    value: (m) => abs(m.momentum20d),
  },
  {
    id: "flow.unusual_count",
    category: "flow",
    label: "Contracts with unusual options flow",
    unit: "contracts",
    direction: "higher_is_worse",
    warn: 5,
    fail: 20,
    fmt: num(0),
    value: (m) => m.flow.unusualCount,
  },
  {
    id: "flow.put_call_volume",
    category: "flow",
    label: "Put/call volume ratio",
    unit: "ratio",
    direction: "higher_is_worse",
    warn: 1.5,
    fail: 3,
    fmt: num(2),
    value: (m) => m.putCallVolumeRatio,
  },
  {
    id: "tail.skew25d",
    category: "tail",
    label: "25-delta put-call skew",
    unit: "decimal vol",
    direction: "higher_is_worse",
    warn: 0.08,
    fail: 0.15,
    fmt: volPts,
    value: (m) => m.skew25d,
  },
  {
    id: "market.vol_index",
    category: "market",
    label: "Volatility index",
    unit: "index points",
    direction: "higher_is_worse",
    warn: 25,
    fail: 35,
    fmt: num(2),
    value: (_m, c) => c.volIndex,
  },
  {
    id: "market.sentiment",
    category: "market",
    label: "Market sentiment score",
    unit: "score 0-100",
    direction: "lower_is_worse",
    warn: 25,
    fail: 10,
    fmt: num(1),
    value: (_m, c) => c.marketSentimentScore,
  },
];

/** Per-symbol checks (the market ones excluded) that may lack data before the decision is at least caution. */
export const MISSING_CHECKS_CAUTION = 7;
const SYMBOL_CHECKS = NO_TRADE_CHECKS.filter((c) => c.category !== "market").length;

export const definitions: Record<string, string> = {
  decision: `no_trade if any check fails; caution if no check fails and at least 2 checks warn, or if at least ${MISSING_CHECKS_CAUTION} of the ${SYMBOL_CHECKS} per-symbol checks (all but the market ones) have no data (missing data is never a reason to trade); otherwise trade (0 or 1 warning). One of trade, caution, no_trade.`,
  reasons:
    "Array of { category, checkId, status, message } for every failed check, then every warned check, each group in check order; message equals the check's explanation. " +
    `When missing data raises the decision to caution, a last reason { checkId: "data.missing", status: "warn", category: the first missing check's category } lists the checks without data.`,
  checks:
    "Array of { id, category, status, value, threshold: { warn, fail }, direction, unit, explanation }, one per check below in fixed order. Thresholds are inclusive: for higher_is_worse, value ≥ fail → fail, else value ≥ warn → warn; for lower_is_worse, value ≤ fail → fail, else value ≤ warn → warn; otherwise pass. A missing value (null) is neutral: status pass, and the explanation says the check was not applied.",
  categories:
    "The 8 risk categories, always in this order: liquidity, spread, volatility, event, trend, flow, tail, market.",
  ...Object.fromEntries(
    NO_TRADE_CHECKS.map((c) => [
      c.id,
      `${c.label} (${c.unit}); ${c.direction === "higher_is_worse" ? "warn at ≥" : "warn at ≤"} ${c.warn}, fail at ${c.direction === "higher_is_worse" ? "≥" : "≤"} ${c.fail}.`,
    ]),
  ),
  "event.days_to_earnings.note":
    "A negative or unknown days-to-earnings (no upcoming report) is treated as missing: pass.",
  "trend.note":
    "Trend checks use absolute values: a stretched move in either direction raises mean-reversion and gap risk.",
};

function evaluate(spec: CheckSpec, value: number | null): { status: CheckStatus; explanation: string } {
  const { label, fmt, warn, fail } = spec;
  if (value === null)
    return { status: "pass", explanation: `${label} is not available; the check was not applied (neutral pass).` };
  const higher = spec.direction === "higher_is_worse";
  const reaches = (t: number) => (higher ? value >= t : value <= t);
  const side = higher ? "at or above" : "at or below";
  const v = fmt(value);
  if (reaches(fail))
    return { status: "fail", explanation: `${label} ${v} is ${side} the fail threshold ${fmt(fail)}.` };
  if (reaches(warn)) {
    return {
      status: "warn",
      explanation: `${label} ${v} is ${side} the warning threshold ${fmt(warn)} (fail at ${fmt(fail)}).`,
    };
  }
  return {
    status: "pass",
    explanation: `${label} ${v} is ${higher ? "below" : "above"} the warning threshold ${fmt(warn)}.`,
  };
}

export function noTradeAnalysis(m: SymbolMetrics, ctx: NoTradeContext): NoTradeAnalysis {
  const checks: NoTradeCheck[] = NO_TRADE_CHECKS.map((spec) => {
    const raw = spec.value(m, ctx);
    const value = finite(raw) ? raw : null;
    const { status, explanation } = evaluate(spec, value);
    return {
      id: spec.id,
      category: spec.category,
      status,
      value,
      threshold: { warn: spec.warn, fail: spec.fail },
      direction: spec.direction,
      unit: spec.unit,
      explanation,
    };
  });
  const toReason = (c: NoTradeCheck): NoTradeReason => ({
    category: c.category,
    checkId: c.id,
    status: c.status as "warn" | "fail",
    message: c.explanation,
  });
  const fails = checks.filter((c) => c.status === "fail");
  const warns = checks.filter((c) => c.status === "warn");
  const missing = checks.filter((c) => c.value === null && c.category !== "market");
  const tooLittleData = missing.length >= MISSING_CHECKS_CAUTION;
  const decision: Decision = fails.length > 0 ? "no_trade" : warns.length >= 2 || tooLittleData ? "caution" : "trade";
  const reasons = [...fails, ...warns].map(toReason);
  if (tooLittleData && fails.length === 0) {
    reasons.push({
      category: missing[0].category,
      checkId: "data.missing",
      status: "warn",
      message: `${missing.length} of ${SYMBOL_CHECKS} per-symbol checks have no data (${missing.map((c) => c.id).join(", ")}); missing data is not a pass.`,
    });
  }
  return { decision, reasons, checks, categories: [...NO_TRADE_CATEGORIES] };
}
