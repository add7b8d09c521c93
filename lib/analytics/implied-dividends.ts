/**
 * Undeclared cash dividends on American chains (issue 31, item 3). A continuous carry cannot price a discrete dividend:
 * calls are exercised just before the ex-date to catch it, so the strikes' de-Americanised parity forwards disagree and
 * the smile's IVs are off. When the dividends implied by one expiry's parity forward, beyond those already found, rise
 * by more than a plausible continuous yield accrues since the previous expiry (and by more than the forward's
 * tolerance), the chain is read as holding a discrete dividend between the two: its ex-date is the weekday in that
 * window whose escrowed model makes the strikes' forward estimates agree best (on that expiry and the next), its amount
 * the one that grows the escrowed spot at the carry r − q to that expiry's forward. It is kept only when it fits the
 * strikes better than the carry without it.
 */
import { type CashDividend } from "./american";
import { parityFit, type ParityFit } from "./parity-forward";
import type { CashDividendRow, OptionQuote } from "./types";

/** One expiry's quotes as the smile reads them. */
export interface ExpiryQuotes {
  expiry: string; // YYYY-MM-DD
  years: number;
  rate: number;
  quotes: readonly OptionQuote[];
}

/**
 * A rise in the implied dividends between two expiries above this continuous yield (decimal, annual) over the gap is a
 * discrete dividend, not a yield (a quarterly dividend of 0.5 % of spot over a week's gap reads as 26 %).
 */
export const DISCRETE_DIVIDEND_MIN_YIELD = 0.1;
/** Secant steps on a candidate dividend's amount (each one parity strip under the escrowed model). */
const AMOUNT_STEPS = 4;

type Dated = (rows: readonly CashDividendRow[], years: number) => CashDividend[];

/**
 * The undeclared cash dividends the chain's parity forwards imply (see the module comment), ascending; `dated` turns
 * rows into dividends before an expiry `years` away (cashDividendsBefore at the chain's as-of time).
 */
export function impliedCashDividends(
  expiries: readonly ExpiryQuotes[],
  spot: number,
  q: number,
  firstExDate: string,
  dated: Dated,
): CashDividendRow[] {
  const found: CashDividendRow[] = [];
  let from = firstExDate;
  let fromYears = 0;
  for (const [n, e] of expiries.entries()) {
    const window = { from, fromYears };
    [from, fromYears] = [nextDate(e.expiry), e.years];
    const cash = dated(found, e.years);
    const fit = parityFit(e.quotes, spot, e.years, e.rate, "american", cash);
    if (fit === null) continue;
    const g = e.rate - q;
    const known = cash.reduce((s, d) => s + d.amount * Math.exp(-g * d.years), 0);
    const rise = spot - fit.forward * Math.exp(-g * e.years) - known;
    if (!(rise > fit.tolerance && rise > DISCRETE_DIVIDEND_MIN_YIELD * spot * (e.years - window.fromYears))) continue;
    // The next expiry also holds the dividend and weighs its ex-date from further away: both strips score it.
    const later = expiries[n + 1];
    const laterSpread = (rows: readonly CashDividendRow[]) =>
      later === undefined
        ? 0
        : (parityFit(later.quotes, spot, later.years, later.rate, "american", dated(rows, later.years))?.spread ?? 0);
    const best = bestExDate(e, spot, g, fit, found, window.from, dated, laterSpread);
    if (best !== null && best.score < fit.spread + laterSpread(found)) found.push(best.row);
  }
  return found;
}

/**
 * The candidate ex-date (a weekday from `from` to the expiry date) whose dividend fits the strikes best: the smallest
 * sum of this expiry's spread of estimates and the next expiry's (`laterSpread`, under the same dividends).
 */
function bestExDate(
  e: ExpiryQuotes,
  spot: number,
  g: number,
  fit: ParityFit,
  found: readonly CashDividendRow[],
  from: string,
  dated: Dated,
  laterSpread: (rows: readonly CashDividendRow[]) => number,
): { row: CashDividendRow; score: number } | null {
  let best: { row: CashDividendRow; score: number } | null = null;
  for (let exDate = from; exDate <= e.expiry; exDate = nextDate(exDate)) {
    const weekday = new Date(`${exDate}T12:00:00Z`).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const candidate = fitAmount(e, spot, g, fit.forward, found, exDate, dated);
    if (candidate === null) continue;
    const score = candidate.fit.spread + laterSpread([...found, candidate.row]);
    if (best === null || score < best.score) best = { row: candidate.row, score };
  }
  return best;
}

/**
 * The amount of a dividend going ex on `exDate` that grows the escrowed spot at carry g to the expiry's parity forward
 * under that same dividend (secant steps from the amount the first forward implies); null when it goes ex outside.
 */
function fitAmount(
  e: ExpiryQuotes,
  spot: number,
  g: number,
  forward: number,
  found: readonly CashDividendRow[],
  exDate: string,
  dated: Dated,
): { row: CashDividendRow; fit: ParityFit } | null {
  const symbol = e.quotes[0]?.symbol ?? "";
  const at = (amount: number) => [...found, { symbol, exDate, amount }];
  const probe = dated(at(1), e.years);
  const own = probe.find((d) => !dated(found, e.years).some((k) => k.years === d.years));
  if (own === undefined) return null;
  const pvKnown = probe.reduce((s, d) => (d === own ? s : s + d.amount * Math.exp(-g * d.years)), 0);
  /** The amount the forward F implies: what is left of S − F·e^(−gT) after the known dividends, grown to t_D. */
  const implied = (f: number) => (spot - f * Math.exp(-g * e.years) - pvKnown) * Math.exp(g * own.years);
  let a = implied(forward);
  let best: { row: CashDividendRow; fit: ParityFit } | null = null;
  let prev: { a: number; residual: number } | null = null;
  for (let n = 0; n < AMOUNT_STEPS && a > 0; n++) {
    const fit = parityFit(e.quotes, spot, e.years, e.rate, "american", dated(at(a), e.years));
    if (fit === null) return null;
    best = { row: { symbol, exDate, amount: a }, fit };
    const residual = implied(fit.forward) - a;
    const next =
      prev !== null && residual !== prev.residual
        ? a - (residual * (a - prev.a)) / (residual - prev.residual)
        : a + residual;
    if (Math.abs(next - a) < 1e-6 * spot) break;
    prev = { a, residual };
    a = next;
  }
  return best;
}

/** The calendar day after a YYYY-MM-DD date. */
function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
