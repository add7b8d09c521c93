/**
 * Composite market sentiment (fear ↔ greed, 0–100) from five market-wide inputs, each mapped to 0–100 by a
 * clamp-linear rule, plus the breadth input computed from daily bars.
 */
import type { Bar } from "./types";
import { round } from "./round";

export type SentimentLabel = "extreme_fear" | "fear" | "neutral" | "greed" | "extreme_greed";
export type SentimentComponentName = "put_call_ratio" | "vol_index_ratio" | "breadth" | "momentum" | "skew";

export interface MarketSentimentInput {
  putCallRatio: number | null;
  volIndex: number | null;
  volIndexAvg: number | null;
  breadth: number | null;
  momentum: number | null;
  skew: number | null;
}

export interface SentimentComponent {
  name: SentimentComponentName;
  value: number;
  baseWeight: number;
  weight: number;
  score: number;
  contribution: number;
}

export interface MarketSentiment {
  score: number;
  label: SentimentLabel;
  coverage: number;
  components: SentimentComponent[];
  missing: SentimentComponentName[];
}

/** Each component: value at0 maps to 0 (fear), value at100 maps to 100 (greed), linear between, clamped outside. */
export const SENTIMENT_COMPONENTS: readonly {
  name: SentimentComponentName;
  baseWeight: number;
  at0: number;
  at100: number;
}[] = [
  { name: "put_call_ratio", baseWeight: 0.25, at0: 1.3, at100: 0.5 },
  { name: "vol_index_ratio", baseWeight: 0.25, at0: 1.3, at100: 0.8 },
  { name: "breadth", baseWeight: 0.2, at0: 0.2, at100: 0.8 },
  { name: "momentum", baseWeight: 0.15, at0: -0.05, at100: 0.05 },
  { name: "skew", baseWeight: 0.15, at0: 0.1, at100: 0.02 },
];

export const definitions: Record<string, string> = {
  score:
    "Composite sentiment 0–100 (0 = extreme fear, 100 = extreme greed), rounded to 0.1: Σ weight × component score over the available components, with weights renormalised to sum to 1. Missing components are dropped (named in missing), not scored as neutral. With no component available the score is 50 (neutral by definition) and coverage is 0.",
  label:
    "Band of the rounded score, lower bound inclusive, upper bound exclusive, except the top band which includes 100: extreme_fear 0 ≤ s < 20, fear 20 ≤ s < 40, neutral 40 ≤ s < 60, greed 60 ≤ s < 80, extreme_greed 80 ≤ s ≤ 100.",
  coverage: "Sum of the base weights of the available components, 0–1 (1 = all five inputs present), rounded to 0.01.",
  components:
    "Array of the available components, in the fixed order put_call_ratio, vol_index_ratio, breadth, momentum, skew: { name, value, baseWeight, weight, score, contribution }. value is the input that was scored (6 decimals); baseWeight the nominal weight; weight the renormalised weight actually used (6 decimals; the weights listed sum to 1); score the 0–100 sub-score (0.1); contribution = weight × score in score points (0.01; the rounded contributions may differ from score by rounding).",
  missing:
    "Names of the components dropped because their input was null (or not a finite number); their weight was redistributed pro rata over the listed components.",
  put_call_ratio:
    "Index + equity option put volume / call volume (volume weighted). Base weight 0.25. Sub-score = 100 × clamp((1.3 − value) / 0.8, 0, 1): 0.5 or lower → 100 (greed), 1.3 or higher → 0 (fear).",
  vol_index_ratio:
    "Volatility index level / its trailing average (e.g. 50-session mean), unitless. Base weight 0.25. Sub-score = 100 × clamp((1.3 − value) / 0.5, 0, 1): 0.8 or lower → 100, 1.3 or higher → 0. Unavailable when either input is missing or the average is not positive.",
  breadth:
    "Share (0–1) of universe symbols whose latest daily close is strictly above their 50-session simple moving average. Base weight 0.20. Sub-score = 100 × clamp((value − 0.2) / 0.6, 0, 1): 0.2 or lower → 0, 0.8 or higher → 100.",
  momentum:
    "Index 20-session price return, decimal (0.02 = +2 %). Base weight 0.15. Sub-score = 100 × clamp((value + 0.05) / 0.10, 0, 1): −5 % or lower → 0, +5 % or higher → 100.",
  skew: "Index 25-delta skew, IV(25Δ put) − IV(25Δ call), decimal vol (0.05 = 5 vol points). Base weight 0.15. Sub-score = 100 × clamp((0.10 − value) / 0.08, 0, 1): 0.10 or higher → 0 (fear: costly crash protection), 0.02 or lower → 100.",
  breadthFromBars:
    "Latest date = newest daily-bar date (UTC) across the universe. A symbol counts when it has a daily bar on that date and at least 50 daily bars up to it; it is above when that close > mean of its last 50 closes (inclusive of that close). breadth = above / counted, null when none counted.",
};

const finite = (x: number | null | undefined): x is number => typeof x === "number" && Number.isFinite(x);

/** Linear map with value at0 → 0 and at100 → 100, clamped to [0, 100]. */
export function clampLinear(value: number, at0: number, at100: number): number {
  const t = (value - at0) / (at100 - at0);
  return 100 * Math.min(1, Math.max(0, t));
}

/** Label of a score (see definitions.label for the inclusive lower bounds). */
export function sentimentLabel(score: number): SentimentLabel {
  if (score >= 80) return "extreme_greed";
  if (score >= 60) return "greed";
  if (score >= 40) return "neutral";
  if (score >= 20) return "fear";
  return "extreme_fear";
}

function componentValue(name: SentimentComponentName, input: MarketSentimentInput): number | null {
  switch (name) {
    case "put_call_ratio":
      return finite(input.putCallRatio) && input.putCallRatio >= 0 ? input.putCallRatio : null;
    case "vol_index_ratio":
      return finite(input.volIndex) &&
        finite(input.volIndexAvg) &&
        input.volIndexAvg > 0 &&
        finite(input.volIndex / input.volIndexAvg)
        ? input.volIndex / input.volIndexAvg
        : null;
    case "breadth":
      return finite(input.breadth) ? input.breadth : null;
    case "momentum":
      return finite(input.momentum) ? input.momentum : null;
    case "skew":
      return finite(input.skew) ? input.skew : null;
  }
}

export function marketSentiment(input: MarketSentimentInput): MarketSentiment {
  const used: { name: SentimentComponentName; baseWeight: number; value: number; score: number }[] = [];
  const missing: SentimentComponentName[] = [];
  for (const c of SENTIMENT_COMPONENTS) {
    const value = componentValue(c.name, input);
    if (value === null) missing.push(c.name);
    else used.push({ name: c.name, baseWeight: c.baseWeight, value, score: clampLinear(value, c.at0, c.at100) });
  }
  const coverage = used.reduce((s, c) => s + c.baseWeight, 0);
  let total = 0;
  const components: SentimentComponent[] = used.map((c) => {
    const weight = c.baseWeight / coverage;
    total += weight * c.score;
    return {
      name: c.name,
      value: round(c.value, 6),
      baseWeight: c.baseWeight,
      weight: round(weight, 6),
      score: round(c.score, 1),
      contribution: round(weight * c.score, 2),
    };
  });
  const score = used.length === 0 ? 50 : round(total, 1);
  return { score, label: sentimentLabel(score), coverage: round(coverage, 2), components, missing };
}

export interface BreadthDetail {
  date: string | null;
  breadth: number | null;
  above: number;
  counted: number;
  excluded: string[];
}

const SMA_PERIOD = 50;

/** Breadth with its counts; `excluded` lists (sorted) symbols with no bar on the latest date or fewer than 50 bars. */
export function breadthDetailFromBars(barsBySymbol: ReadonlyMap<string, readonly Bar[]>): BreadthDetail {
  // Sessions keyed by UTC day number (the bar's UTC date), formatted once at the end.
  const series = new Map<string, Map<number, number>>();
  let latest: number | null = null;
  for (const [symbol, bars] of barsBySymbol) {
    const closes = new Map<number, number>();
    for (const b of bars) {
      const t = b.ts instanceof Date ? b.ts.getTime() : NaN;
      if (b.interval !== "1d" || !Number.isFinite(t) || !finite(b.close)) continue;
      const day = Math.floor(t / 86_400_000);
      closes.set(day, b.close); // duplicate session: last bar in input order wins
      if (latest === null || day > latest) latest = day;
    }
    series.set(symbol, closes);
  }
  let above = 0;
  let counted = 0;
  const excluded: string[] = [];
  for (const [symbol, closes] of series) {
    const days = [...closes.keys()].sort((a, b) => a - b);
    if (latest === null || days[days.length - 1] !== latest || days.length < SMA_PERIOD) {
      excluded.push(symbol);
      continue;
    }
    const window = days.slice(-SMA_PERIOD).map((d) => closes.get(d) as number);
    const sma = window.reduce((s, c) => s + c, 0) / SMA_PERIOD;
    counted++;
    if (window[SMA_PERIOD - 1] > sma) above++;
  }
  excluded.sort();
  const date = latest === null ? null : new Date(latest * 86_400_000).toISOString().slice(0, 10);
  return { date, breadth: counted === 0 ? null : above / counted, above, counted, excluded };
}

/** Share (0–1) of symbols closing above their 50-day SMA on the latest date; null when no symbol qualifies. */
export function breadthFromBars(barsBySymbol: ReadonlyMap<string, readonly Bar[]>): number | null {
  return breadthDetailFromBars(barsBySymbol).breadth;
}
