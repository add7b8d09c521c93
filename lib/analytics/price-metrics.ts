/** Metrics of a daily close series (ascending): realised volatility, momentum, trend versus a moving average. */

export const TRADING_DAYS_PER_YEAR = 252;

export const definitions = {
  hv30:
    "30-day historical (realised) volatility (annualised, decimal): sample standard deviation (n − 1) of the last 30 " +
    "daily close-to-close log returns ln(Cₜ / Cₜ₋₁), × sqrt(252). Null with fewer than 31 closes.",
  momentum20d:
    "20-session momentum (decimal): latest close / close 20 sessions earlier − 1. Null with fewer than 21 closes.",
  trend50d:
    "Trend versus the 50-session simple moving average (decimal): latest close / mean of the last 50 closes " +
    "(latest included) − 1. Null with fewer than 50 closes.",
} as const;

/** Annualised close-to-close volatility of the last `window` log returns. */
export function realizedVol(closes: number[], window = 30): number | null {
  if (window < 2 || closes.length < window + 1) return null;
  const tail = closes.slice(-(window + 1));
  if (tail.some((c) => !(c > 0))) return null;
  const returns = tail.slice(1).map((c, i) => Math.log(c / tail[i]));
  const mean = returns.reduce((s, r) => s + r, 0) / returns.length;
  const variance = returns.reduce((s, r) => s + (r - mean) ** 2, 0) / (returns.length - 1);
  return Math.sqrt(variance * TRADING_DAYS_PER_YEAR);
}

/** Return over the last `sessions` sessions. */
export function momentum(closes: number[], sessions = 20): number | null {
  if (sessions < 1 || closes.length < sessions + 1) return null;
  const past = closes[closes.length - 1 - sessions];
  return past > 0 ? closes[closes.length - 1] / past - 1 : null;
}

/** Latest close relative to the simple moving average of the last `sessions` closes, latest included. */
export function trendVsSma(closes: number[], sessions = 50): number | null {
  if (sessions < 1 || closes.length < sessions) return null;
  const sma = closes.slice(-sessions).reduce((s, c) => s + c, 0) / sessions;
  return sma > 0 ? closes[closes.length - 1] / sma - 1 : null;
}
