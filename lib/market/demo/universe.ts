/**
 * The demo market's instruments: real US tickers, names and sectors, with FICTIONAL simulation parameters
 * (prices, volatilities, betas, dividends and earnings dates here are invented and are not market data).
 */
import type { CashDividendRow, Instrument } from "../../analytics/types";
import { hashString } from "./prng";

export interface DemoSymbol {
  symbol: string;
  name: string;
  sector: string;
  kind: Instrument["kind"];
  basePrice: number; // long-run price level the path reverts to
  baseVol: number; // long-run annualised implied vol, decimal
  beta: number; // to the SPX factor
  dividendYield: number; // continuous, decimal
  earningsMove: number; // std of the earnings-day jump, decimal (0 = no earnings)
  optionActivity: number; // relative option volume (1 = typical large cap)
}

type Row = [
  symbol: string,
  name: string,
  sector: string,
  price: number,
  vol: number,
  beta: number,
  div: number,
  activity: number,
];

// Fictional parameters; only tickers, names and sectors are real.
const EQUITIES: Row[] = [
  ["AAPL", "Apple Inc.", "Information Technology", 190, 0.25, 1.1, 0.005, 3],
  ["MSFT", "Microsoft Corporation", "Information Technology", 410, 0.24, 1.0, 0.007, 2],
  ["NVDA", "NVIDIA Corporation", "Information Technology", 120, 0.5, 1.7, 0.0003, 4],
  ["AMZN", "Amazon.com, Inc.", "Consumer Discretionary", 180, 0.32, 1.2, 0, 2.5],
  ["GOOGL", "Alphabet Inc. Class A", "Communication Services", 165, 0.29, 1.05, 0.005, 2],
  ["META", "Meta Platforms, Inc.", "Communication Services", 500, 0.36, 1.25, 0.004, 2],
  ["TSLA", "Tesla, Inc.", "Consumer Discretionary", 240, 0.58, 1.9, 0, 4],
  ["JPM", "JPMorgan Chase & Co.", "Financials", 200, 0.22, 1.05, 0.022, 1.2],
  ["V", "Visa Inc.", "Financials", 270, 0.2, 0.9, 0.008, 0.8],
  ["MA", "Mastercard Incorporated", "Financials", 460, 0.21, 1.0, 0.006, 0.6],
  ["BAC", "Bank of America Corporation", "Financials", 38, 0.27, 1.25, 0.026, 1.5],
  ["WFC", "Wells Fargo & Company", "Financials", 58, 0.28, 1.15, 0.024, 1],
  ["GS", "The Goldman Sachs Group, Inc.", "Financials", 450, 0.26, 1.3, 0.024, 0.8],
  ["UNH", "UnitedHealth Group Incorporated", "Health Care", 520, 0.24, 0.6, 0.015, 1],
  ["JNJ", "Johnson & Johnson", "Health Care", 155, 0.16, 0.55, 0.031, 0.7],
  ["LLY", "Eli Lilly and Company", "Health Care", 780, 0.31, 0.5, 0.007, 1.2],
  ["PFE", "Pfizer Inc.", "Health Care", 29, 0.24, 0.6, 0.058, 1.2],
  ["MRK", "Merck & Co., Inc.", "Health Care", 120, 0.2, 0.45, 0.025, 0.7],
  ["ABBV", "AbbVie Inc.", "Health Care", 170, 0.22, 0.55, 0.036, 0.6],
  ["XOM", "Exxon Mobil Corporation", "Energy", 112, 0.24, 0.85, 0.033, 1.1],
  ["CVX", "Chevron Corporation", "Energy", 155, 0.24, 0.9, 0.041, 0.8],
  ["COP", "ConocoPhillips", "Energy", 110, 0.29, 1.0, 0.028, 0.5],
  ["WMT", "Walmart Inc.", "Consumer Staples", 68, 0.18, 0.5, 0.012, 1],
  ["PG", "The Procter & Gamble Company", "Consumer Staples", 165, 0.16, 0.45, 0.024, 0.6],
  ["KO", "The Coca-Cola Company", "Consumer Staples", 63, 0.15, 0.55, 0.03, 0.7],
  ["PEP", "PepsiCo, Inc.", "Consumer Staples", 170, 0.17, 0.55, 0.031, 0.5],
  ["COST", "Costco Wholesale Corporation", "Consumer Staples", 850, 0.2, 0.75, 0.005, 0.6],
  ["HD", "The Home Depot, Inc.", "Consumer Discretionary", 360, 0.22, 1.0, 0.024, 0.7],
  ["MCD", "McDonald's Corporation", "Consumer Discretionary", 280, 0.17, 0.65, 0.023, 0.5],
  ["NKE", "NIKE, Inc.", "Consumer Discretionary", 85, 0.3, 1.05, 0.017, 1],
  ["SBUX", "Starbucks Corporation", "Consumer Discretionary", 85, 0.28, 0.95, 0.026, 0.8],
  ["DIS", "The Walt Disney Company", "Communication Services", 100, 0.27, 1.1, 0.008, 1.2],
  ["NFLX", "Netflix, Inc.", "Communication Services", 650, 0.38, 1.3, 0, 1.5],
  ["CMCSA", "Comcast Corporation", "Communication Services", 40, 0.23, 0.9, 0.03, 0.6],
  ["T", "AT&T Inc.", "Communication Services", 19, 0.21, 0.6, 0.058, 1],
  ["VZ", "Verizon Communications Inc.", "Communication Services", 41, 0.19, 0.45, 0.064, 0.8],
  ["INTC", "Intel Corporation", "Information Technology", 32, 0.4, 1.2, 0.015, 2],
  ["AMD", "Advanced Micro Devices, Inc.", "Information Technology", 160, 0.48, 1.65, 0, 3],
  ["AVGO", "Broadcom Inc.", "Information Technology", 160, 0.38, 1.35, 0.013, 1.5],
  ["ORCL", "Oracle Corporation", "Information Technology", 125, 0.28, 1.05, 0.013, 1],
  ["CRM", "Salesforce, Inc.", "Information Technology", 270, 0.32, 1.2, 0.006, 1],
  ["ADBE", "Adobe Inc.", "Information Technology", 520, 0.33, 1.2, 0, 0.8],
  ["CSCO", "Cisco Systems, Inc.", "Information Technology", 50, 0.2, 0.85, 0.032, 0.8],
  ["QCOM", "QUALCOMM Incorporated", "Information Technology", 170, 0.35, 1.3, 0.02, 1],
  ["IBM", "International Business Machines Corporation", "Information Technology", 185, 0.22, 0.75, 0.036, 0.6],
  ["BA", "The Boeing Company", "Industrials", 185, 0.34, 1.3, 0, 1.3],
  ["CAT", "Caterpillar Inc.", "Industrials", 340, 0.27, 1.1, 0.016, 0.7],
  ["GE", "GE Aerospace", "Industrials", 165, 0.3, 1.15, 0.007, 0.8],
  ["UPS", "United Parcel Service, Inc.", "Industrials", 145, 0.26, 0.9, 0.045, 0.6],
  ["HON", "Honeywell International Inc.", "Industrials", 205, 0.2, 0.9, 0.021, 0.4],
  ["NEE", "NextEra Energy, Inc.", "Utilities", 72, 0.23, 0.5, 0.029, 0.5],
  ["PLTR", "Palantir Technologies Inc.", "Information Technology", 25, 0.6, 1.9, 0, 3],
  ["UBER", "Uber Technologies, Inc.", "Industrials", 70, 0.4, 1.4, 0, 1.5],
  ["COIN", "Coinbase Global, Inc.", "Financials", 220, 0.75, 2.2, 0, 2],
  ["BRK.B", "Berkshire Hathaway Inc. Class B", "Financials", 420, 0.18, 0.85, 0, 0.8],
];

// Exchange-traded funds: their own (fictional) dividend yields and no earnings dates.
const ETFS: Row[] = [
  ["SPY", "SPDR S&P 500 ETF Trust", "Exchange-Traded Fund", 540, 0.16, 1.0, 0.013, 5],
  ["QQQ", "Invesco QQQ Trust, Series 1", "Exchange-Traded Fund", 470, 0.21, 1.15, 0.006, 4],
  ["IWM", "iShares Russell 2000 ETF", "Exchange-Traded Fund", 210, 0.23, 1.2, 0.012, 3],
];

const INDEX: DemoSymbol = {
  symbol: "SPX",
  name: "S&P 500 Index",
  sector: "Index",
  kind: "index",
  basePrice: 5400,
  baseVol: 0.16,
  beta: 1,
  dividendYield: 0.014,
  earningsMove: 0,
  optionActivity: 5,
};
const VIX: DemoSymbol = {
  symbol: "VIX",
  name: "Cboe Volatility Index",
  sector: "Index",
  kind: "volatility_index",
  basePrice: 16,
  baseVol: 0.85,
  beta: -4,
  dividendYield: 0,
  earningsMove: 0,
  optionActivity: 0,
};

export const DEMO_UNIVERSE: readonly DemoSymbol[] = [
  INDEX,
  VIX,
  ...EQUITIES.map(([symbol, name, sector, basePrice, baseVol, beta, dividendYield, optionActivity]) => ({
    symbol,
    name,
    sector,
    kind: "equity" as const,
    basePrice,
    baseVol,
    beta,
    dividendYield,
    optionActivity,
    earningsMove: Math.min(0.12, 0.25 * baseVol), // bigger names move less on earnings relative to their vol
  })),
  ...ETFS.map(([symbol, name, sector, basePrice, baseVol, beta, dividendYield, optionActivity]) => ({
    symbol,
    name,
    sector,
    kind: "etf" as const,
    basePrice,
    baseVol,
    beta,
    dividendYield,
    optionActivity,
    earningsMove: 0,
  })),
];

/**
 * The demo's options are priced by its own model with this exercise style (the analytics read it from the
 * instrument): European everywhere except the dividend payers in DEMO_AMERICAN, priced American (lib/analytics/american)
 * as listed US equity options are, so the demo runs the same American, implied-forward and event code as live data.
 */
export const DEMO_AMERICAN: ReadonlySet<string> = new Set(["XOM", "PG", "JNJ"]);
export function demoExerciseStyle(sym: Pick<DemoSymbol, "symbol">): "american" | "european" {
  return DEMO_AMERICAN.has(sym.symbol) ? "american" : "european";
}

/** Kinds that follow their own price path driven by the index factor (everything but the index and the VIX). */
export const isTradedProduct = (sym: DemoSymbol) => sym.kind === "equity" || sym.kind === "etf";

const BY_SYMBOL = new Map(DEMO_UNIVERSE.map((s) => [s.symbol, s]));

export function demoSymbol(symbol: string): DemoSymbol | undefined {
  return BY_SYMBOL.get(symbol);
}

/** Selects symbols; SPX and VIX are always kept because every equity path and the VIX depend on the index. */
export function selectUniverse(symbols?: readonly string[]): DemoSymbol[] {
  if (!symbols) return [...DEMO_UNIVERSE];
  const wanted = new Set(symbols.map((s) => s.toUpperCase()));
  return DEMO_UNIVERSE.filter((s) => wanted.has(s.symbol) || !isTradedProduct(s));
}

const DAY_MS = 86_400_000;
const EARNINGS_ANCHOR = Date.UTC(2015, 0, 20); // cycle origin; each symbol is shifted by its own offset
export const EARNINGS_CYCLE_DAYS = 91;

/** Day k of a symbol's own cycle (offset by a hash of `key`), shifted forward from a weekend to the Monday. */
function cycleDate(anchor: number, cycleDays: number, key: string, k: number): number {
  const offset = hashString(key) % cycleDays;
  let t = anchor + (offset + k * cycleDays) * DAY_MS;
  const dow = new Date(t).getUTCDay();
  if (dow === 6) t += 2 * DAY_MS;
  if (dow === 0) t += DAY_MS;
  return t;
}

/** Earnings day number k of a symbol (a weekday, shifted forward from the raw cycle date). */
const earningsDate = (symbol: string, k: number) =>
  cycleDate(EARNINGS_ANCHOR, EARNINGS_CYCLE_DAYS, `earnings:${symbol}`, k);

/** First earnings date (00:00 UTC ms) on or after dayMs; null for index products and ETFs. Earnings are reported before the open. */
export function nextEarnings(sym: DemoSymbol, dayMs: number): number | null {
  if (sym.kind !== "equity") return null;
  let k = Math.floor((dayMs - EARNINGS_ANCHOR) / (EARNINGS_CYCLE_DAYS * DAY_MS)) - 1;
  while (earningsDate(sym.symbol, k) < dayMs) k++;
  return earningsDate(sym.symbol, k);
}

/**
 * The demo's companies all report before the open: the earnings jump is in that day's opening gap (paths.ts) and an
 * expiry on the earnings date carries the event variance (surface.ts). Stored as the instruments' earnings_timing.
 */
export const DEMO_EARNINGS_TIMING = "before_open" as const;

export function isEarningsDay(sym: DemoSymbol, dayMs: number): boolean {
  return nextEarnings(sym, dayMs) === dayMs;
}

/**
 * The American names pay discrete quarterly cash dividends instead of a continuous yield (as listed US stocks do), so
 * the demo runs the same cash-dividend pricing and implied-forward code as imported live data. Each pays a quarter of
 * its yield on its base price (in cents), ex on a weekday of its own 91-day cycle.
 */
export const DEMO_CASH_DIVIDENDS: ReadonlySet<string> = DEMO_AMERICAN;
const DIVIDEND_ANCHOR = Date.UTC(2015, 1, 9);
export const DIVIDEND_CYCLE_DAYS = 91;

const exDividendDate = (symbol: string, k: number) =>
  cycleDate(DIVIDEND_ANCHOR, DIVIDEND_CYCLE_DAYS, `dividend:${symbol}`, k);

/** The continuous yield the demo prices a symbol with: 0 for the cash-dividend payers. */
export const demoYield = (sym: DemoSymbol) => (DEMO_CASH_DIVIDENDS.has(sym.symbol) ? 0 : sym.dividendYield);

/** Cash dividends of a symbol going ex from fromDay to toDay (00:00 UTC ms, both included), ascending. */
export function demoCashDividends(sym: DemoSymbol, fromDay: number, toDay: number): CashDividendRow[] {
  if (!DEMO_CASH_DIVIDENDS.has(sym.symbol)) return [];
  const amount = Math.round((sym.dividendYield * sym.basePrice * 100) / 4) / 100;
  const out: CashDividendRow[] = [];
  let k = Math.floor((fromDay - DIVIDEND_ANCHOR) / (DIVIDEND_CYCLE_DAYS * DAY_MS)) - 1;
  for (let t = exDividendDate(sym.symbol, k); t <= toDay; t = exDividendDate(sym.symbol, ++k))
    if (t >= fromDay) out.push({ symbol: sym.symbol, exDate: new Date(t).toISOString().slice(0, 10), amount });
  return out;
}
