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
import type { CashDividend } from "./american";
import { parityFit, type ParityFit, type StripOptions } from "./parity-forward";
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
/**
 * Most secant steps on a candidate dividend's amount: each is one pass of the parity strip under the escrowed model,
 * warm-started from the last step's forward, so the amount and the strip's forward settle together.
 */
const AMOUNT_STEPS = 8;
/**
 * The ex-date search is coarse to fine, on a cash-dividend lattice of SEARCH_LATTICE_STEPS (a twentieth of the
 * full one's work): every candidate weekday is scored by one strip pass of its own expiry at the amount the expiry's
 * forward implies (6 cash-dividend solves), only the best DIVIDEND_REFINED are fitted in full (the amount's secant
 * steps and the next expiry's strip), and the one chosen is refitted on the full lattice before it is kept.
 */
export const DIVIDEND_REFINED = 3;
export const SEARCH_LATTICE_STEPS = 61;
const SEARCH: StripOptions = { latticeSteps: SEARCH_LATTICE_STEPS };

type Dated = (rows: readonly CashDividendRow[], years: number) => CashDividend[];

/** The implied dividends and each expiry's parity strip under them (null where no strike qualifies). */
export interface ImpliedDividends {
  rows: CashDividendRow[];
  fits: (ParityFit | null)[];
}

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
  return impliedDividendFits(expiries, spot, q, firstExDate, dated).rows;
}

/**
 * impliedCashDividends with each expiry's parity strip under the dividends found (those going ex before it), so the
 * smile reuses them: every strip is fitted once per set of dividends (the check's own strip is the smile's).
 */
export function impliedDividendFits(
  expiries: readonly ExpiryQuotes[],
  spot: number,
  q: number,
  firstExDate: string,
  dated: Dated,
): ImpliedDividends {
  const found: CashDividendRow[] = [];
  const fits: (ParityFit | null)[] = [];
  const strip = stripCache(expiries, spot, dated);
  let from = firstExDate;
  let fromYears = 0;
  for (const [n, e] of expiries.entries()) {
    const window = { from, fromYears };
    [from, fromYears] = [nextDate(e.expiry), e.years];
    const fit = strip(n, found);
    fits.push(fit);
    if (fit === null) continue;
    const g = e.rate - q;
    const known = dated(found, e.years).reduce((s, d) => s + d.amount * Math.exp(-g * d.years), 0);
    const rise = spot - fit.forward * Math.exp(-g * e.years) - known;
    if (!(rise > fit.tolerance && rise > DISCRETE_DIVIDEND_MIN_YIELD * spot * (e.years - window.fromYears))) continue;
    // The next expiry also holds the dividend and weighs its ex-date from further away: both strips score it, the
    // candidates' warm-started from its strip without it.
    const later = n + 1 < expiries.length ? strip(n + 1, found) : null;
    const laterSpread = (rows: readonly CashDividendRow[], options: StripOptions = {}) =>
      later === null ? 0 : (strip(n + 1, rows, { ...options, start: later.forward })?.spread ?? 0);
    const search = { e, spot, g, fit, found, dated };
    const chosen = bestExDate(search, window.from, laterSpread);
    // Kept only when, refitted on the full lattice, it fits the strikes better than the carry alone.
    const kept = chosen && fitAmount(search, chosen.row.exDate, AMOUNT_STEPS, {}, chosen);
    if (!kept || !(kept.fit.spread + laterSpread([...found, kept.row]) < fit.spread + (later?.spread ?? 0))) continue;
    found.push(kept.row);
    fits[n] = kept.fit;
  }
  return { rows: found, fits };
}

/**
 * The American parity strip of expiry n under the dividends `rows` going ex before it, fitted once per expiry, set of
 * dividends and lattice (`options.start` warm-starts a strip not yet fitted).
 */
function stripCache(expiries: readonly ExpiryQuotes[], spot: number, dated: Dated) {
  const held = new Map<string, ParityFit | null>();
  return (n: number, rows: readonly CashDividendRow[], options: StripOptions = {}): ParityFit | null => {
    const e = expiries[n];
    const cash = dated(rows, e.years);
    const key = `${n}|${options.latticeSteps ?? ""}|${cash.map((d) => `${d.years}:${d.amount}`).join(",")}`;
    if (held.has(key)) return held.get(key) ?? null;
    const fit = parityFit(e.quotes, spot, e.years, e.rate, "american", cash, options);
    held.set(key, fit);
    return fit;
  };
}

/** One expiry's search: its quotes, the carry g = r − q, its strip under the dividends found so far. */
interface Search {
  e: ExpiryQuotes;
  spot: number;
  g: number;
  fit: ParityFit;
  found: readonly CashDividendRow[];
  dated: Dated;
}

type Candidate = { row: CashDividendRow; fit: ParityFit };

/**
 * The candidate ex-date (a weekday from `from` to the expiry date) whose dividend fits the strikes best on the search's
 * lattice: the smallest sum of this expiry's spread of estimates and the next expiry's (`laterSpread`, under the same
 * dividends), among the DIVIDEND_REFINED candidates whose one-pass strip of this expiry spreads least.
 */
function bestExDate(
  s: Search,
  from: string,
  laterSpread: (rows: readonly CashDividendRow[], options: StripOptions) => number,
): Candidate | null {
  const coarse: Candidate[] = [];
  for (let exDate = from; exDate <= s.e.expiry; exDate = nextDate(exDate)) {
    const weekday = new Date(`${exDate}T12:00:00Z`).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const quick = fitAmount(s, exDate, 1, SEARCH);
    if (quick !== null) coarse.push(quick);
  }
  coarse.sort((a, b) => a.fit.spread - b.fit.spread || (a.row.exDate < b.row.exDate ? -1 : 1));
  let best: (Candidate & { score: number }) | null = null;
  for (const quick of coarse.slice(0, DIVIDEND_REFINED)) {
    const candidate = fitAmount(s, quick.row.exDate, AMOUNT_STEPS, SEARCH, quick);
    if (candidate === null) continue;
    const score = candidate.fit.spread + laterSpread([...s.found, candidate.row], SEARCH);
    if (best === null || score < best.score || (score === best.score && candidate.row.exDate < best.row.exDate))
      best = { ...candidate, score };
  }
  return best;
}

/**
 * The amount of a dividend going ex on `exDate` that grows the escrowed spot at carry g to the expiry's parity forward
 * under that same dividend: at most `steps` secant steps, each one strip pass warm-started from the last forward, from
 * `from` (an earlier fit of the same ex-date) or the amount the expiry's forward implies; null when it goes ex outside.
 */
function fitAmount(
  s: Search,
  exDate: string,
  steps: number,
  options: StripOptions,
  from?: Candidate,
): Candidate | null {
  const { e, spot, g, found, dated } = s;
  const symbol = e.quotes[0]?.symbol ?? "";
  const at = (amount: number) => [...found, { symbol, exDate, amount }];
  const known = dated(found, e.years);
  const probe = dated(at(1), e.years);
  const own = probe.find((d) => !known.some((k) => k.years === d.years));
  if (own === undefined) return null;
  const pvKnown = probe.reduce((sum, d) => (d === own ? sum : sum + d.amount * Math.exp(-g * d.years)), 0);
  /** The amount the forward F implies: what is left of S − F·e^(−gT) after the known dividends, grown to t_D. */
  const implied = (f: number) => (spot - f * Math.exp(-g * e.years) - pvKnown) * Math.exp(g * own.years);
  let start = from?.fit.forward ?? s.fit.forward;
  let a = from?.row.amount ?? implied(start);
  let best: Candidate | null = null;
  let prev: { a: number; residual: number } | null = null;
  for (let n = 0; n < steps && a > 0; n++) {
    const cash = dated(at(a), e.years);
    const fit = parityFit(e.quotes, spot, e.years, e.rate, "american", cash, { ...options, start, passes: 1 });
    if (fit === null) return null;
    best = { row: { symbol, exDate, amount: a }, fit };
    start = fit.forward;
    const residual = implied(fit.forward) - a;
    const next =
      prev !== null && residual !== prev.residual
        ? a - (residual * (a - prev.a)) / (residual - prev.residual)
        : a + residual;
    if (Math.abs(next - a) < 1e-5 * spot) break;
    prev = { a, residual };
    a = next;
  }
  return best;
}

/** The calendar day after a YYYY-MM-DD date. */
function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
